// libFuzzer harness: rate expressions (src/chem/rate_expression.hpp). The input's first
// line is the expression; each later line defines a named value (NAME = body) or
// function (NAME(A, B) = body) it may use. A compiled program is run by the stack
// machine the cells run; a failure must say what is wrong and where, inside the text.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "chem/rate_expression.hpp"

namespace {

// NAME = body, NAME(A, B) = body; anything else is left out.
void define(const std::string& line, opsplit::chem::RateNames& names) {
  const size_t equals = line.find('=');
  if (equals == std::string::npos) return;
  std::string head = line.substr(0, equals);
  const std::string body = line.substr(equals + 1);
  const size_t open = head.find('(');
  if (open == std::string::npos) {
    names.values[head] = body;
    return;
  }
  opsplit::chem::RateFunction f{{}, body};
  std::stringstream parameters(head.substr(open + 1, head.find(')', open) - open - 1));
  for (std::string p; std::getline(parameters, p, ',');) f.parameters.push_back(p);
  names.functions[head.substr(0, open)] = f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::stringstream lines(input);
  std::string expression, line;
  std::getline(lines, expression);
  opsplit::chem::RateNames names;
  names.input = [](const std::string& name, int index) {
    if (index >= 0) return name == "J" && index < 8 ? 4 + index : -1;
    return name == "TEMP" ? 0 : name == "M" ? 1 : name == "O2" ? 2 : name == "N2" ? 3 : -1;
  };
  for (int n = 0; n < 64 && std::getline(lines, line); ++n) define(line, names);
  opsplit::chem::RateProgram program;
  opsplit::chem::RateError error;
  if (opsplit::chem::compile_rate_expression(expression, names, program, error)) {
    const double inputs[12] = {298.15, 2.46e19, 5.2e18, 1.9e19, 1e-5, 2e-5, 3e-5, 4e-5, 5e-5, 6e-5, 7e-5, 8e-5};
    volatile double v = program.evaluate(inputs);
    (void)v;
  } else if (error.message.empty() || error.column < 1 || static_cast<size_t>(error.column) > expression.size() + 1) {
    std::abort();  // a failure that does not say what or where
  }
  return 0;
}
