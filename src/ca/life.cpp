#include "ca/life.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

#include "core/error.hpp"

namespace opsplit::ca {
namespace {

// The digits of one part of a rule ("23" of "S23") as a bit set.
uint32_t neighbour_counts(const std::string& text, const std::string& digits) {
  uint32_t set = 0;
  for (char ch : digits) {
    if (ch < '0' || ch > '8') {
      const std::string why = std::isalpha(static_cast<unsigned char>(ch))
                                  ? "'" + std::string(1, ch) + "' (Hensel's non-totalistic notation is not supported)"
                                  : "'" + std::string(1, ch) + "' (neighbour counts are the digits 0-8)";
      fail_argument("the rule \"" + text + "\" has " + why);
    }
    const uint32_t bit = 1u << (ch - '0');
    if (set & bit) fail_argument("the rule \"" + text + "\" repeats the digit " + std::string(1, ch));
    set |= bit;
  }
  return set;
}

}  // namespace

LifeRule parse_life_rule(const std::string& text) {
  const size_t slash = text.find('/');
  if (slash == std::string::npos || text.find('/', slash + 1) != std::string::npos)
    fail_argument("the rule \"" + text + "\" is not of the form B3/S23 (or 23/3)");
  std::string first = text.substr(0, slash), second = text.substr(slash + 1);
  auto letter = [](const std::string& part) {
    return part.empty() ? '\0' : static_cast<char>(std::toupper(static_cast<unsigned char>(part[0])));
  };
  LifeRule rule;
  const char a = letter(first), b = letter(second);
  if ((a == 'B' && b == 'S') || (a == 'S' && b == 'B')) {
    const std::string& births = a == 'B' ? first : second;
    const std::string& survivals = a == 'B' ? second : first;
    rule.birth = neighbour_counts(text, births.substr(1));
    rule.survive = neighbour_counts(text, survivals.substr(1));
  } else if (a == 'B' || a == 'S' || b == 'B' || b == 'S') {
    fail_argument("the rule \"" + text + "\" needs one B part and one S part");
  } else {  // survival/birth, as in "23/3"
    rule.survive = neighbour_counts(text, first);
    rule.birth = neighbour_counts(text, second);
  }
  if (rule.birth & 1u)
    fail_argument("the rule \"" + text + "\" has B0 (dead cells with no live neighbours are born): not supported "
                  "in this version");
  return rule;
}

std::string life_rule_string(LifeRule rule) {
  std::string s = "B";
  for (int k = 0; k <= 8; ++k)
    if ((rule.birth >> k) & 1u) s += static_cast<char>('0' + k);
  s += "/S";
  for (int k = 0; k <= 8; ++k)
    if ((rule.survive >> k) & 1u) s += static_cast<char>('0' + k);
  return s;
}

RlePattern parse_rle(const std::string& text, int64_t max_width, int64_t max_height) {
  RlePattern p;
  int line = 0;
  size_t at = 0;
  bool header = false, done = false;
  int64_t row = 0, col = 0, count = 0;
  bool had_count = false;
  auto where = [&] { return "RLE line " + std::to_string(line) + ": "; };
  while (at < text.size() && !done) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string s = text.substr(at, end - at);
    at = end + 1;
    ++line;
    if (!s.empty() && s.back() == '\r') s.pop_back();
    const size_t first = s.find_first_not_of(" \t");
    if (first == std::string::npos || s[first] == '#') continue;  // blank or a comment (#N, #C, #O, #R, ...)
    if (!header) {
      // x = 3, y = 3, rule = B3/S23
      std::string compact;
      for (char ch : s)
        if (ch != ' ' && ch != '\t') compact += ch;
      if (compact.rfind("x=", 0) != 0 || compact.find(",y=") == std::string::npos)
        fail(OPSPLIT_ERROR_PARSE, where() + "the header must start with \"x = <width>, y = <height>\"");
      size_t pos = 0;
      while (pos < compact.size()) {
        size_t comma = compact.find(',', pos);
        if (comma == std::string::npos) comma = compact.size();
        const std::string item = compact.substr(pos, comma - pos);
        pos = comma + 1;
        const size_t eq = item.find('=');
        if (eq == std::string::npos) fail(OPSPLIT_ERROR_PARSE, where() + "the header item \"" + item + "\" has no '='");
        const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
        if (key == "x" || key == "y") {
          char* stop = nullptr;
          const long long v = std::strtoll(value.c_str(), &stop, 10);
          if (value.empty() || *stop != '\0' || v < 0)
            fail(OPSPLIT_ERROR_PARSE, where() + key + " = \"" + value + "\" is not a size");
          (key == "x" ? p.width : p.height) = v;
        } else if (key == "rule") {
          p.rule = value;
        } else {
          fail(OPSPLIT_ERROR_PARSE, where() + "unknown header item \"" + key + "\"");
        }
      }
      if (p.width > max_width || p.height > max_height)
        fail_argument("the pattern's " + std::to_string(p.width) + " x " + std::to_string(p.height) +
                      " box is larger than the " + std::to_string(max_height) + " x " + std::to_string(max_width) +
                      " grid");
      header = true;
      continue;
    }
    for (char ch : s) {
      if (ch == ' ' || ch == '\t') continue;
      if (ch >= '0' && ch <= '9') {
        if (count > std::numeric_limits<int32_t>::max() / 10)
          fail(OPSPLIT_ERROR_PARSE, where() + "a run count is too large");
        count = count * 10 + (ch - '0');
        had_count = true;
        continue;
      }
      if (count == 0 && had_count)
        fail(OPSPLIT_ERROR_PARSE, where() + "a run count of 0 before '" + std::string(1, ch) + "'");
      const int64_t n = count == 0 ? 1 : count;
      count = 0, had_count = false;
      if (ch == 'b') {
        col += n;
      } else if (ch == 'o') {
        if (row >= p.height || col + n > p.width)
          fail(OPSPLIT_ERROR_PARSE, where() + "live cells past the header's " + std::to_string(p.width) + " x " +
                                        std::to_string(p.height) + " box (row " + std::to_string(row + 1) + ")");
        for (int64_t k = 0; k < n; ++k) p.live.emplace_back(row, col + k);
        col += n;
      } else if (ch == '$') {
        row += n, col = 0;
      } else if (ch == '!') {
        done = true;
        break;
      } else {
        fail(OPSPLIT_ERROR_PARSE, where() + "'" + std::string(1, ch) +
                                      "' is not a state of a two-state pattern (b, o, $ and ! are)");
      }
    }
  }
  if (!header) fail(OPSPLIT_ERROR_PARSE, "RLE: no header line \"x = <width>, y = <height>\"");
  if (!done) fail(OPSPLIT_ERROR_PARSE, "RLE: the pattern does not end with '!'");
  return p;
}

void pack_cells(const uint8_t* cells, int64_t rows, int64_t cols, bool column_major, uint64_t* words) {
  const int64_t nwords = words_per_row(cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < nwords; ++w) words[r * nwords + w] = packed_word(cells, rows, cols, column_major, r, w);
}

void unpack_cells(const uint64_t* words, int64_t rows, int64_t cols, bool column_major, uint8_t* cells) {
  const int64_t nwords = words_per_row(cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < nwords; ++w) unpacked_word(words[r * nwords + w], rows, cols, column_major, r, w, cells);
}

void life_generation_cpu(const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols, LifeRule rule,
                         bool periodic, int threads) {
  const int64_t nwords = words_per_row(cols);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < nwords; ++w) out[r * nwords + w] = life_grid_word(in, r, w, rows, cols, nwords, periodic, rule);
}

void life_block_generation_cpu(const uint64_t* in, uint64_t* out, const LifeBlock& b, const LifeRegion& region,
                               LifeRule rule, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t r = region.r0; r < region.r1; ++r)
    for (int64_t w = region.w0; w < region.w1; ++w) out[b.at(r, w)] = life_block_word(in, b, r, w, rule);
}

int64_t live_cells(const uint64_t* words, int64_t nwords) {
  int64_t n = 0;
  for (int64_t i = 0; i < nwords; ++i) n += __builtin_popcountll(words[i]);
  return n;
}


}  // namespace opsplit::ca
