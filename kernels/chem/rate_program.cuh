// A compiled rate expression (src/chem/rate_expression.hpp makes them from text such as
// KPP's `5.6E-34*N2*(TEMP/300.)**(-2.6)*O2`): postfix code over constants and a cell's
// inputs (temperature, air density, photolysis rates, ...), evaluated by one small stack
// machine on both backends. The text is read once, when a mechanism is loaded; a cell
// only runs the code.
#pragma once

#include <math.h>

#include "common/hd.cuh"

namespace opsplit::chem {

enum RateOp : int {
  kOpConstant = 0,  // push constants[arg]
  kOpInput,         // push inputs[arg]
  kOpAdd,
  kOpSubtract,
  kOpMultiply,
  kOpDivide,
  kOpPower,
  kOpNegate,
  kOpExp,
  kOpLog,
  kOpLog10,
  kOpSqrt,
  kOpAbs,
  kOpMin,  // of the top two
  kOpMax,
  kRateOpCount
};

// Instruction i is code[2i] (the RateOp) and code[2i + 1] (the constant or input of
// kOpConstant and kOpInput; 0 for the others): flat ints, so that a mechanism keeps every
// reaction's code in its one block of ints.
// The compiler refuses an expression whose evaluation would need a deeper stack.
constexpr int kRateStackDepth = 16;

// Runs `length` instructions that the compiler made (it checked that every operator has
// its operands and that the stack never passes kRateStackDepth) and returns the value.
// Inputs: const double* or Strided<const double> (common/strided.cuh).
template <class Inputs>
OPSPLIT_HD double evaluate_rate(const int* code, int length, const double* constants, Inputs inputs) {
  double stack[kRateStackDepth];
  int top = 0;  // the number of values on the stack
  for (int i = 0; i < length; ++i) {
    const int op = code[2 * i], arg = code[2 * i + 1];
    switch (op) {
      case kOpConstant: stack[top++] = constants[arg]; break;
      case kOpInput: stack[top++] = inputs[arg]; break;
      case kOpNegate: stack[top - 1] = -stack[top - 1]; break;
      case kOpExp: stack[top - 1] = exp(stack[top - 1]); break;
      case kOpLog: stack[top - 1] = log(stack[top - 1]); break;
      case kOpLog10: stack[top - 1] = log10(stack[top - 1]); break;
      case kOpSqrt: stack[top - 1] = sqrt(stack[top - 1]); break;
      case kOpAbs: stack[top - 1] = fabs(stack[top - 1]); break;
      default: {  // the binary operators: the right operand on top
        const double b = stack[--top], a = stack[top - 1];
        double r = 0;
        switch (op) {
          case kOpAdd: r = a + b; break;
          case kOpSubtract: r = a - b; break;
          case kOpMultiply: r = a * b; break;
          case kOpDivide: r = a / b; break;
          case kOpPower: r = pow(a, b); break;
          case kOpMin: r = fmin(a, b); break;
          case kOpMax: r = fmax(a, b); break;
          default: break;
        }
        stack[top - 1] = r;
      }
    }
  }
  return stack[0];
}

}  // namespace opsplit::chem
