// Rate expressions (src/chem/rate_expression.hpp) compiled and run by the stack machine
// the cells run (kernels/chem/rate_program.cuh): values against the same formulas
// written in C++, Fortran's precedence, the files' number forms, inlined names, and an
// error with its column for each kind of bad text, hostile ones included.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "chem/rate_expression.hpp"

namespace {

using opsplit::chem::compile_rate_expression;
using opsplit::chem::RateError;
using opsplit::chem::RateFunction;
using opsplit::chem::RateNames;
using opsplit::chem::RateProgram;

// The cell's inputs of these tests: TEMP, M, O2, N2 and J(1..9).
enum Slot { kTemp, kM, kO2, kN2, kJ0 };
constexpr double kInputs[] = {298.15, 2.46e19, 5.17e18, 1.92e19, 0, 1e-5, 2e-5, 3e-5, 4e-5, 5e-5, 6e-5, 7e-5, 8e-5, 9e-5};

RateNames atmospheric_names() {
  RateNames names;
  names.input = [](const std::string& name, int index) {
    if (index < 0) {
      if (name == "TEMP") return static_cast<int>(kTemp);
      if (name == "M") return static_cast<int>(kM);
      if (name == "O2") return static_cast<int>(kO2);
      if (name == "N2") return static_cast<int>(kN2);
      return -1;
    }
    return name == "J" && index >= 1 && index <= 9 ? kJ0 + index : -1;
  };
  return names;
}

double value_of(const std::string& text, const RateNames& names = atmospheric_names()) {
  RateProgram program;
  RateError error;
  EXPECT_TRUE(compile_rate_expression(text, names, program, error)) << text << ": " << error.message;
  return program.evaluate(kInputs);
}

RateError error_of(const std::string& text, const RateNames& names = atmospheric_names()) {
  RateProgram program;
  program.constants = {42};  // a failed compilation leaves the program as it was
  RateError error;
  EXPECT_FALSE(compile_rate_expression(text, names, program, error)) << text;
  EXPECT_EQ(program.constants.size(), 1u);
  EXPECT_TRUE(program.code.empty());
  return error;
}

const double T = kInputs[kTemp], M = kInputs[kM], O2 = kInputs[kO2], N2 = kInputs[kN2];

TEST(RateExpression, KppAndMcmFormsGiveTheirFormulas) {
  EXPECT_DOUBLE_EQ(value_of("8.0E-12*EXP(-2060./TEMP)"), 8.0e-12 * std::exp(-2060.0 / T));
  EXPECT_DOUBLE_EQ(value_of("5.6E-34*N2*(TEMP/300.)**(-2.6)*O2"), 5.6e-34 * N2 * std::pow(T / 300.0, -2.6) * O2);
  EXPECT_DOUBLE_EQ(value_of("1.8D-11*M*(TEMP/300._dp)**(-3.2D0)"), 1.8e-11 * M * std::pow(T / 300.0, -3.2));
  EXPECT_DOUBLE_EQ(value_of("J(4)"), 4e-5);
  EXPECT_DOUBLE_EQ(value_of("j( 4 )*0.5"), 2e-5);  // any case, spaces inside
  EXPECT_DOUBLE_EQ(value_of("exp(-temp/300)"), std::exp(-T / 300));
}

TEST(RateExpression, FortranPrecedence) {
  EXPECT_EQ(value_of("-2**2"), -4);     // the sign applies to the power
  EXPECT_EQ(value_of("2**3**2"), 512);  // ** from right to left
  EXPECT_EQ(value_of("2**-1"), 0.5);
  EXPECT_EQ(value_of("2*-3"), -6);  // C's sign after an operator
  EXPECT_EQ(value_of("1 - 2 - 3"), -4);
  EXPECT_EQ(value_of("8/4/2"), 1);
  EXPECT_EQ(value_of("-3*2+1"), -5);
  EXPECT_EQ(value_of("+(1+2)*3"), 9);
  EXPECT_EQ(value_of("2^3"), 8);
}

TEST(RateExpression, NumberForms) {
  EXPECT_EQ(value_of("1.5D-3"), 1.5e-3);
  EXPECT_EQ(value_of("3.d2"), 300);
  EXPECT_EQ(value_of("300._dp"), 300);
  EXPECT_EQ(value_of(".5"), 0.5);
  EXPECT_EQ(value_of("1.E5"), 1e5);
  EXPECT_EQ(value_of("2e+3"), 2000);
  EXPECT_EQ(value_of("7_8"), 7);
}

TEST(RateExpression, IntrinsicFunctions) {
  EXPECT_EQ(value_of("MIN(3, 1, 2)"), 1);
  EXPECT_EQ(value_of("MAX(3, 1, 2)"), 3);
  EXPECT_EQ(value_of("DMAX1(TEMP, 300.0)"), 300);
  EXPECT_EQ(value_of("SQRT(16.)"), 4);
  EXPECT_EQ(value_of("LOG10(1000.)"), std::log10(1000.0));
  EXPECT_DOUBLE_EQ(value_of("LOG(TEMP)"), std::log(T));
  EXPECT_EQ(value_of("ABS(-2)"), 2);
  EXPECT_EQ(value_of("DBLE(2)*REAL(3)"), 6);
}

// Constant parts fold into one constant; what reads an input stays code.
TEST(RateExpression, ConstantsFold) {
  RateProgram program;
  RateError error;
  ASSERT_TRUE(compile_rate_expression("2*3 + 4*EXP(0.)", atmospheric_names(), program, error));
  EXPECT_EQ(program.length(), 1);
  EXPECT_EQ(program.constant_value(), 10);
  ASSERT_TRUE(compile_rate_expression("2*3*TEMP", atmospheric_names(), program, error));
  EXPECT_EQ(program.length(), 3);  // 6, TEMP, *
  EXPECT_TRUE(std::isnan(program.constant_value()));
}

// MCM's complex coefficients as named values, KPP's rate functions as named functions.
TEST(RateExpression, NamedValuesAndFunctionsInline) {
  RateNames names = atmospheric_names();
  names.values["KMT01_K0"] = "1.0D-31*M*(TEMP/300)**(-1.6)";
  names.values["kmt01"] = "KMT01_K0*0.6";  // names match in any case
  names.functions["ARR2"] = RateFunction{{"A0", "B0"}, "A0*EXP(-B0/TEMP)"};
  names.functions["SQUARE"] = RateFunction{{"x"}, "X*X"};
  names.functions["TWICE_ARR2"] = RateFunction{{"A"}, "2*ARR2(A, 100.)"};
  EXPECT_DOUBLE_EQ(value_of("KMT01*0.9", names), 1.0e-31 * M * std::pow(T / 300, -1.6) * 0.6 * 0.9);
  EXPECT_DOUBLE_EQ(value_of("ARR2(1.8e-12, 1500.0)", names), 1.8e-12 * std::exp(-1500.0 / T));
  EXPECT_DOUBLE_EQ(value_of("SQUARE(TEMP+1)", names), (T + 1) * (T + 1));
  EXPECT_DOUBLE_EQ(value_of("TWICE_ARR2(3.)", names), 2 * (3.0 * std::exp(-100.0 / T)));
}

TEST(RateExpression, ErrorsNameTheFaultAndItsColumn) {
  RateError e = error_of("8.0E-12*EXQ(-2060./TEMP)");
  EXPECT_EQ(e.message, "unknown function 'EXQ'");
  EXPECT_EQ(e.column, 9);
  e = error_of("1 + FOO");
  EXPECT_EQ(e.message, "unknown name 'FOO'");
  EXPECT_EQ(e.column, 5);
  EXPECT_EQ(error_of("(1+2").message, "')' expected");
  EXPECT_EQ(error_of("1 +").message, "the expression ends where a value is expected");
  EXPECT_EQ(error_of("1e999").message, "'1e999' is not a finite number");
  EXPECT_EQ(error_of("EXP(1,2)").message, "EXP takes one argument, not 2");
  EXPECT_EQ(error_of("MIN(1)").message, "MIN takes two or more arguments, not 1");
  EXPECT_EQ(error_of("J(12)").message, "unknown function 'J'");  // no such photolysis rate
  EXPECT_EQ(error_of("J(1.5)").message, "unknown function 'J'");
  EXPECT_EQ(error_of("2 TEMP").message, "unexpected 'T'");
  EXPECT_EQ(error_of("").message, "the expression ends where a value is expected");
  EXPECT_EQ(error_of("1;").message, "unexpected ';'");
  EXPECT_EQ(error_of(std::string("1\0+2", 4)).message, std::string("unexpected '\0'", 14));
}

TEST(RateExpression, ErrorsInsideNamesSayWhere) {
  RateNames names = atmospheric_names();
  names.values["A"] = "B+1";
  names.values["B"] = "2*A";
  names.values["SELF"] = "SELF";
  names.values["K1"] = "X";  // a value's body does not see a caller's parameters
  names.functions["F"] = RateFunction{{"X"}, "X*BAR"};
  names.functions["G"] = RateFunction{{"X"}, "K1*X"};
  RateError e = error_of("TEMP*F(2)", names);
  EXPECT_EQ(e.message, "in F: unknown name 'BAR'");
  EXPECT_EQ(e.column, 6);  // where F is called
  EXPECT_EQ(error_of("G(1)", names).message, "in K1: unknown name 'X'");
  EXPECT_EQ(error_of("A", names).message, "in B: 'A' is defined through itself");
  EXPECT_EQ(error_of("SELF", names).message, "in SELF: 'SELF' is defined through itself");
  EXPECT_EQ(error_of("F(1,2)", names).message, "F takes 1 arguments, not 2");
}

// Hostile text: bounded time, memory and stack, and an error rather than a crash.
TEST(RateExpression, HostileTextIsRefused) {
  EXPECT_EQ(error_of(std::string(200, '(') + "1" + std::string(200, ')')).message, "nested more than 64 deep");
  EXPECT_EQ(error_of(std::string(200, '-') + "1").message, "nested more than 64 deep");
  std::string power = "2";
  for (int i = 0; i < 100; ++i) power += "**2";
  EXPECT_EQ(error_of(power).message, "nested more than 64 deep");
  // Each name four times the one before: 4^10 terms once inlined.
  RateNames names = atmospheric_names();
  names.values["V0"] = "TEMP";
  for (int i = 1; i <= 10; ++i) {
    const std::string v = "V" + std::to_string(i - 1);
    names.values["V" + std::to_string(i)] = v + "+" + v + "+" + v + "+" + v;
  }
  const std::string too_long = "too long once its names are inlined (bounds: 16384 terms, 4096 instructions)";
  EXPECT_EQ(error_of("V10", names).message, too_long);
  names.values["W"] = "V5+V5";  // 2048 terms, 4095 instructions: compiles
  EXPECT_DOUBLE_EQ(value_of("W", names), 2048 * T);
  names.values["W"] = "V5+V5+1";  // 4097 instructions
  EXPECT_EQ(error_of("W", names).message, too_long);
  names.values["V0"] = "TEMP";
  for (int i = 1; i <= 40; ++i) names.values["V" + std::to_string(i)] = "V" + std::to_string(i - 1);
  EXPECT_EQ(error_of("V40", names).message.substr(error_of("V40", names).message.size() - 24), "nested more than 64 deep");
  std::string sum = "TEMP";
  for (int i = 0; i < 20000; ++i) sum += "+TEMP";
  EXPECT_EQ(error_of(sum).message, too_long);
  // A value needing 17 places on the stack: TEMP+(TEMP+(...)) 17 deep.
  std::string deep = "TEMP";
  for (int i = 0; i < 16; ++i) deep = "TEMP+(" + deep + ")";
  EXPECT_EQ(error_of(deep).message, "nested too deeply to evaluate (a stack of more than 16 values)");
}

}  // namespace
