// Input files are read whole: they are at most a few MB, and the parsers want text.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/text_file.hpp"

namespace opsplit {

std::string read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(OPSPLIT_ERROR_IO, "cannot read \"" + path + "\": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(OPSPLIT_ERROR_IO, "cannot read \"" + path + "\": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail(OPSPLIT_ERROR_IO, "cannot read \"" + path + "\": a read error");
  return text.str();
}

}  // namespace opsplit
