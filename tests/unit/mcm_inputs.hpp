// The MCM isoprene subset's inputs at noon (tests/data/kpp/mcm), as the tests and
// bench_atmosphere set them: the photolysis rates J(n) that constants_mcm.f90's
// formulas give at zenith angle 0.
#pragma once

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <stdexcept>
#include <string>

namespace mcm_test {

// J(n) at zenith 0 from constants_mcm.f90 (its path): n -> s^-1.
inline std::map<int, double> noon_photolysis(const std::string& constants_path) {
  std::ifstream in(constants_path);
  if (!in) throw std::runtime_error("cannot read the test's input: " + constants_path);
  std::map<std::string, int> index;
  std::map<int, double> j;
  const std::regex parameter(R"(INTEGER, PARAMETER :: (J_\w+)\s*=\s*(\d+))");
  const std::regex rate(R"(J\((J_\w+)\)\s*=\s*([0-9.Ee+-]+)\*\(cos\(zenith\)\*\*[0-9.]+\)\*exp\(-([0-9.]+)\*)");
  std::smatch match;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, match, parameter)) index[match[1]] = std::stoi(match[2]);
    if (std::regex_search(line, match, rate)) j[index.at(match[1])] = std::stod(match[2]) * std::exp(-std::stod(match[3]));
  }
  return j;
}

}  // namespace mcm_test
