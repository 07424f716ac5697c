// What the YAML readers (Cantera's mechanisms, MICM's configurations) share: a file
// read with yaml-cpp, and its nodes named by file and line in PARSE errors.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "core/text_file.hpp"
#include "core/error.hpp"

namespace opsplit::chem {

class YamlFile {
 public:
  explicit YamlFile(std::string path) : path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  // The file's document; yaml-cpp's syntax errors become PARSE at their line, a file
  // that cannot be read IO.
  YAML::Node load() const {
    const std::string text = read_text_file(path_);
    try {
      return YAML::Load(text);
    } catch (const YAML::Exception& e) {
      fail_at(e);
    }
  }
  // PARSE at the line yaml-cpp's exception names (its conversions fail this way too).
  [[noreturn]] void fail_at(const YAML::Exception& e) const {
    fail(OPSPLIT_ERROR_PARSE, path_ + (e.mark.line >= 0 ? ":" + std::to_string(e.mark.line + 1) : "") + ": " + e.msg);
  }
  // "file:line" of a node ("file" for one without a place).
  std::string at(const YAML::Node& node) const {
    return node.IsDefined() && node.Mark().line >= 0 ? path_ + ":" + std::to_string(node.Mark().line + 1) : path_;
  }
  [[noreturn]] void parse_error(const YAML::Node& node, const std::string& message) const {
    fail(OPSPLIT_ERROR_PARSE, at(node) + ": " + message);
  }
  // A scalar's text; PARSE when the node is missing, null or not a single value.
  std::string text(const YAML::Node& node, const std::string& what) const {
    if (!node.IsDefined() || node.IsNull()) parse_error(node, what + " is missing");
    if (!node.IsScalar()) parse_error(node, what + " is not a single value");
    return node.Scalar();
  }

 private:
  std::string path_;
};

}  // namespace opsplit::chem
