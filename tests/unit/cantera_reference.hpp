// A scripts/cantera-reference file (tests/data/cantera/*.txt): "key values..." records,
// header records first, then blocks of records each opened by a line "state".
#pragma once

#include <gtest/gtest.h>

#include "helpers.hpp"

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace test {

struct Reference {
  std::map<std::string, std::vector<std::string>> header;
  std::vector<std::map<std::string, std::vector<double>>> states;
  std::vector<std::string> equations;
};

inline Reference read_reference(const std::string& path) {
  std::ifstream in(path);
  test::require_input(in.good(), path);
  Reference ref;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "state") {
      ref.states.emplace_back();
      continue;
    }
    if (key == "equation") {
      ref.equations.push_back(line.substr(9));
      continue;
    }
    if (ref.states.empty()) {
      std::string w;
      while (words >> w) ref.header[key].push_back(w);
    } else {
      double x;
      while (words >> x) ref.states.back()[key].push_back(x);
    }
  }
  return ref;
}

}  // namespace test
