// The MICM reference files (tests/data/micm/reference/<case>.tsv, made by
// scripts/micm-reference) as the tests read them.
#pragma once

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace micm_test {

// reference/<case>.tsv (scripts/micm-reference): settings, inputs, initial state and
// the state after each hour.
struct MicmReference {
  std::map<std::string, std::string> settings;
  std::vector<std::pair<std::string, double>> inputs;
  std::vector<bool> diurnal;
  std::map<std::string, double> initial;
  std::vector<std::string> species;
  std::vector<std::vector<double>> rows;  // hour, then the species' values
  double number(const std::string& key) const { return std::strtod(settings.at(key).c_str(), nullptr); }
};

// A number as Python's repr writes it (subnormals too, which std::stod refuses).
inline double value(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

inline std::vector<std::string> tab_fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, '\t');) out.push_back(f);
  return out;
}

inline MicmReference read_reference(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the test's input: " + path);
  MicmReference ref;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = tab_fields(line);
    if (f[0] == "input" && f.size() == 4) {
      ref.inputs.emplace_back(f[1], value(f[2]));
      ref.diurnal.push_back(f[3] == "1");
    } else if (f[0] == "initial" && f.size() == 3) {
      ref.initial[f[1]] = value(f[2]);
    } else if (f[0] == "species") {
      ref.species.assign(f.begin() + 1, f.end());
    } else if (f[0] == "row" && f.size() == ref.species.size() + 2) {
      std::vector<double> row;
      for (size_t i = 1; i < f.size(); ++i) row.push_back(value(f[i]));
      ref.rows.push_back(row);
    } else if (f.size() == 2) {
      ref.settings[f[0]] = f[1];
    } else {
      throw std::runtime_error(path + ": a line the test does not read: " + line.substr(0, 80));
    }
  }
  if (ref.rows.empty()) throw std::runtime_error(path + ": no rows");
  return ref;
}

// The diurnal cycle the reference scaled photolysis by.
inline double sun(double hour) { return std::fmax(0.0, std::sin(3.14159265358979324 * (hour - 6.0) / 12.0)); }

}  // namespace micm_test
