// Rate expressions as mechanism files write them, compiled once into the postfix code of
// kernels/chem/rate_program.cuh: Fortran and C arithmetic (+ - * / **, unary signs,
// numbers with E or D exponents and an optional kind suffix such as 300._dp), the
// intrinsic functions EXP, LOG, LOG10, SQRT, ABS, MIN and MAX (and their D forms), the
// cell's inputs by name (TEMP, M, J(4)), and named values and functions that are
// themselves expressions (MCM's KMT01, KPP's ARR2(A0, B0)), inlined where they are used.
// Names are matched without regard to case, as Fortran does. Constant parts are folded.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "chem/rate_program.cuh"

namespace opsplit::chem {

// A function of the files defined by an expression over its parameters: KPP's
// ARR2(A0, B0) is {{"A0", "B0"}, "A0*EXP(-B0/TEMP)"}.
struct RateFunction {
  std::vector<std::string> parameters;
  std::string body;
};

// What the names in an expression mean.
struct RateNames {
  // The cell's input of a name (TEMP) or of a name and an index (J(4): index 4; -1 when
  // there is none): its slot, or -1 when the name is no input.
  std::function<int(const std::string& name, int index)> input;
  std::map<std::string, std::string> values;        // named values (an expression each)
  std::map<std::string, RateFunction> functions;    // named functions
};

struct RateProgram {
  std::vector<int> code;  // (op, arg) pairs: kernels/chem/rate_program.cuh
  std::vector<double> constants;
  int length() const { return static_cast<int>(code.size() / 2); }
  double evaluate(const double* inputs) const { return evaluate_rate(code.data(), length(), constants.data(), inputs); }
  // The value when the program reads no input (the whole expression folded), else NaN.
  double constant_value() const;
};

struct RateError {
  std::string message;  // what is wrong, naming the value or function it is in
  int column = 0;       // where, from 1, in the text given to the compiler
};

// A name as the expressions match it (Fortran's rule: without regard to case).
std::string upper_case(std::string_view name);

// Limits that keep a hostile expression from taking unbounded time or memory.
constexpr int kRateMaxNesting = 64;         // parentheses, calls and inlined names inside each other
constexpr int kRateMaxInstructions = 4096;  // code of one compiled expression

// Compiles `text`; on failure returns false with `error` set and `program` unchanged.
bool compile_rate_expression(const std::string& text, const RateNames& names, RateProgram& program,
                             RateError& error);

}  // namespace opsplit::chem
