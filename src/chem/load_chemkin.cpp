// CHEMKIN-II gas mechanisms: ELEMENTS, SPECIES, THERMO (NASA-7 entries in fixed
// columns), REACTIONS with their auxiliary lines, from a mechanism file and an optional
// thermo file. Interpreted as Cantera's ck2yaml does, except where noted (REV keeps one
// reaction with an explicit reverse rate; a fifth element in columns 74-78 is read where
// Tcommon leaves them free).
// Species names are case-sensitive strings; keywords are not. Numbers are read with
// std::from_chars: the host's locale never changes them.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "chem/loaders.hpp"
#include "chem/units.hpp"
#include "core/error.hpp"
#include "core/text_file.hpp"

namespace opsplit::chem {
namespace {

std::string upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}
std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}
bool blank(char ch) { return std::isspace(static_cast<unsigned char>(ch)) != 0; }
std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && blank(s[b])) ++b;
  while (e > b && blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}
std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && blank(s[i])) ++i;
    const size_t start = i;
    while (i < s.size() && !blank(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}
// Columns [begin, begin + width) of a fixed-format line ("" past its end).
std::string columns(const std::string& line, size_t begin, size_t width) {
  return begin < line.size() ? line.substr(begin, width) : std::string();
}

// A number as Fortran writes it ("1.5", "-3.2E+05", "2.1D-3", "1.0E 05"): the whole
// text, finite.
bool read_number(const std::string& text, double& x) {
  std::string s = trim(text);
  for (char& ch : s)
    if (ch == 'd' || ch == 'D' || ch == 'e') ch = 'E';
  const size_t e = s.find('E');
  if (e != std::string::npos)
    while (e + 1 < s.size() && s[e + 1] == ' ') s.erase(e + 1, 1);
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end || *begin == '+' || std::any_of(begin, end, blank)) return false;
  const auto [stop, error] = std::from_chars(begin, end, x);
  return error == std::errc() && stop == end && std::isfinite(x);
}

// ---- files and sections ------------------------------------------------------------

struct Line {
  int number;        // 1-based
  std::string text;  // without its comment ('!' onwards) and '\r'
};

struct Section {
  std::string keyword;  // ELEMENTS, SPECIES, THERMO, REACTIONS, TRANSPORT
  int number = 0;       // the keyword's line
  std::string rest;     // the keyword line after the keyword
  std::vector<Line> body;
};

// The canonical section of a keyword ("" when it is none).
std::string section_keyword(const std::string& word) {
  static const std::map<std::string, std::string> keywords = {
      {"ELEM", "ELEMENTS"},   {"ELEMENTS", "ELEMENTS"},   {"SPEC", "SPECIES"},    {"SPECIES", "SPECIES"},
      {"THER", "THERMO"},     {"THERM", "THERMO"},        {"THERMO", "THERMO"},   {"REAC", "REACTIONS"},
      {"REACTION", "REACTIONS"}, {"REACTIONS", "REACTIONS"}, {"TRAN", "TRANSPORT"}, {"TRANSPORT", "TRANSPORT"},
      {"SITE", "SITE"},       {"BULK", "BULK"},           {"MATERIAL", "MATERIAL"}};
  const auto it = keywords.find(upper(word));
  return it == keywords.end() ? std::string() : it->second;
}

// Splits a file into its sections. Each section ends with END or where the next one
// starts; ELEMENTS and SPECIES may end on a line of names. As ck2yaml reads them, text
// before the first section is a header (ignored) and the rest of an END line is a
// comment; text between sections is an error. A TRANSPORT section is kept (and skipped
// by the reader).
std::vector<Section> split_sections(const std::string& path, const std::string& text) {
  std::vector<Section> out;
  bool open = false;
  int number = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t eol = text.find('\n', at);
    if (eol == std::string::npos) eol = text.size();
    std::string line = text.substr(at, eol - at);
    at = eol + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t bang = line.find('!');
    if (bang != std::string::npos) line.erase(bang);
    const std::string where = path + ":" + std::to_string(number);
    std::vector<std::string> w = words(line);
    const std::string keyword = w.empty() ? std::string() : section_keyword(w[0]);
    const std::string surface = w.empty() ? std::string() : section_keyword(w[0].substr(0, w[0].find('/')));
    if (surface == "SITE" || surface == "BULK" || surface == "MATERIAL")  // "SITE/PT_SURFACE/"
      fail(OPSPLIT_ERROR_UNSUPPORTED, where + ": section " + surface +
                                          ": surface mechanisms are not supported (gas mechanisms only)");
    if (!keyword.empty()) {
      if (keyword == "REACTIONS")
        for (const Section& s : out)
          if (s.keyword == "REACTIONS")
            fail(OPSPLIT_ERROR_PARSE, where + ": a second REACTIONS section (the first is at line " +
                                          std::to_string(s.number) + ")");
      Section s;
      s.keyword = keyword;
      s.number = number;
      const size_t first = line.find(w[0]);
      s.rest = line.substr(first + w[0].size());
      out.push_back(std::move(s));
      open = true;
      if (keyword != "ELEMENTS" && keyword != "SPECIES") continue;
      line = out.back().rest;  // names may follow the keyword on its line
      w = words(line);
    } else if (!open) {
      if (w.empty() || out.empty()) continue;
      fail(OPSPLIT_ERROR_PARSE, where + ": \"" + trim(line) +
                                    "\" is outside any section (ELEMENTS, SPECIES, THERMO, REACTIONS, TRANSPORT)");
    }
    Section& s = out.back();
    if (s.keyword == "ELEMENTS" || s.keyword == "SPECIES") {
      const auto end = std::find_if(w.begin(), w.end(), [](const std::string& x) { return upper(x) == "END"; });
      if (end != w.end()) {
        std::string names;
        for (auto it = w.begin(); it != end; ++it) names += *it + " ";
        s.body.push_back({number, names});
        open = false;
        continue;
      }
    } else if (!w.empty() && upper(w[0]) == "END") {
      open = false;
      continue;
    }
    s.body.push_back({number, line});
  }
  return out;
}

// ---- thermo ------------------------------------------------------------------------

// One NASA-7 entry: its four lines.
struct ThermoEntry {
  std::array<Line, 4> lines;
  std::string path;
  std::optional<double> default_t_mid;  // from the section's temperature line
};

struct SideTerm {
  std::vector<StoichTerm> terms;
  int collider_kind = 0;  // 0: none, 1: + M, 2: (+M), 3: (+species)
  int collider = -1;
};

// The auxiliary data of one reaction, as read.
struct Auxiliary {
  struct Rate {
    int line;
    std::vector<double> values;
  };
  std::optional<int> duplicate;
  std::optional<Rate> low, high, rev, troe, sri;
  std::vector<Rate> plog;
  std::vector<std::pair<int, std::pair<int, double>>> ford, rord;  // line, (species, order)
  std::vector<std::pair<int, std::pair<int, double>>> efficiencies;  // line, (species, efficiency)
};

class ChemkinReader {
 public:
  ChemkinReader(std::string mech_path, std::string thermo_path)
      : mech_path_(std::move(mech_path)), thermo_path_(std::move(thermo_path)) {}

  GasMechanism read() {
    const std::vector<Section> mech = split_sections(mech_path_, read_text_file(mech_path_));
    std::vector<Section> thermo;
    if (!thermo_path_.empty()) {
      thermo = split_sections(thermo_path_, read_text_file(thermo_path_));
      bool found = false;
      for (const Section& s : thermo) {
        if (s.keyword != "THERMO")
          fail(OPSPLIT_ERROR_PARSE, thermo_path_ + ":" + std::to_string(s.number) + ": a " + s.keyword +
                                        " section in the thermo file (it may only hold a THERMO section)");
        found = true;
      }
      if (!found) fail(OPSPLIT_ERROR_PARSE, thermo_path_ + ": the thermo file has no THERMO section");
    }
    bool have_species = false;
    for (const Section& s : mech)
      if (s.keyword == "ELEMENTS") read_elements(s);
    for (const Section& s : mech)
      if (s.keyword == "SPECIES") read_species(s), have_species = true;
    if (!have_species) fail(OPSPLIT_ERROR_PARSE, mech_path_ + ": the mechanism file has no SPECIES section");
    // The mechanism file's own entries first, then the thermo file's (as ck2yaml).
    for (const Section& s : mech)
      if (s.keyword == "THERMO") read_thermo(s, mech_path_, 0);
    for (const Section& s : thermo) read_thermo(s, thermo_path_, 1);
    for (size_t k = 0; k < mech_.species.size(); ++k)
      if (!have_thermo_[k])
        fail(OPSPLIT_ERROR_PARSE,
             species_where_[k] + ": species \"" + mech_.species[k].name + "\" has no thermo data (no NASA-7 entry in " +
                 (thermo_path_.empty() ? "the THERMO section of " + mech_path_ + ", and no thermo file was given)"
                                       : mech_path_ + " or " + thermo_path_ + ")"));
    for (const Section& s : mech)
      if (s.keyword == "REACTIONS") read_reactions(s);
    mech_.source = mech_path_;
    mech_.finish();
    return std::move(mech_);
  }

 private:
  std::string mech_path_, thermo_path_;
  GasMechanism mech_;
  std::set<std::string> elements_;  // lower case; empty: no ELEMENTS section
  std::unordered_map<std::string, int> species_index_;
  size_t longest_name_ = 0;
  std::vector<std::string> species_where_;
  std::vector<bool> have_thermo_;
  std::vector<int> thermo_file_;  // which file gave a species its entry (0 mechanism, 1 thermo)
  UnitSystem units_;

  std::string at(int line) const { return mech_path_ + ":" + std::to_string(line); }
  int find(const std::string& name) const {
    const auto it = species_index_.find(name);
    return it == species_index_.end() ? -1 : it->second;
  }

  void read_elements(const Section& s) {
    for (const Line& line : s.body)
      for (const std::string& symbol : words(line.text)) {
        if (symbol.find('/') != std::string::npos)
          fail(OPSPLIT_ERROR_UNSUPPORTED, at(line.number) + ": element \"" + symbol +
                                              "\": atomic weights given in the file (custom elements) are not supported");
        if (element_weight(symbol) == 0.0)
          fail(OPSPLIT_ERROR_UNSUPPORTED, at(line.number) + ": element \"" + symbol +
                                              "\" is not in opsplit's table of atomic weights (custom elements are "
                                              "not supported)");
        elements_.insert(lower(symbol));
      }
  }

  void read_species(const Section& s) {
    for (const Line& line : s.body)
      for (const std::string& name : words(line.text)) {
        const std::string where = at(line.number);
        if (name.size() > 64) fail(OPSPLIT_ERROR_PARSE, where + ": species \"" + name + "\": names have 1 to 64 characters");
        if (find(name) >= 0)
          fail(OPSPLIT_ERROR_PARSE, where + ": species \"" + name + "\" is declared twice (first at " +
                                        species_where_[static_cast<size_t>(find(name))] + ")");
        species_index_[name] = static_cast<int>(mech_.species.size());
        longest_name_ = std::max(longest_name_, name.size());
        GasSpecies sp;
        sp.name = name;
        sp.where = where;
        mech_.species.push_back(std::move(sp));
        species_where_.push_back(where);
        have_thermo_.push_back(false);
        thermo_file_.push_back(-1);
      }
  }

  // A THERMO section: [ALL], an optional line of default temperatures (Tlow Tcommon
  // Thigh), then 4-line entries with 1 to 4 in column 80. Entries of undeclared species
  // are skipped (a thermo database holds many); a declared species takes its first entry,
  // the mechanism file's before the thermo file's.
  void read_thermo(const Section& s, const std::string& path, int file) {
    auto where = [&](int line) { return path + ":" + std::to_string(line); };
    for (const std::string& w : words(s.rest)) {
      if (upper(w) == "NASA9")
        fail(OPSPLIT_ERROR_UNSUPPORTED, where(s.number) + ": THERMO NASA9: NASA-9 polynomials are not supported (NASA-7 only)");
      if (upper(w) != "ALL") fail(OPSPLIT_ERROR_PARSE, where(s.number) + ": \"" + w + "\" after THERMO (only ALL may follow)");
    }
    std::optional<double> default_t_mid;
    size_t i = 0;
    auto next_nonblank = [&] {
      while (i < s.body.size() && trim(s.body[i].text).empty()) ++i;
      return i < s.body.size();
    };
    auto marker = [](const Line& l) { return l.text.size() >= 80 ? l.text[79] : ' '; };
    if (next_nonblank()) {
      const std::vector<std::string> w = words(s.body[i].text);
      double t[3];
      const bool numbers = std::all_of(w.begin(), w.end(), [](const std::string& x) {
        double ignored;
        return read_number(x, ignored);
      });
      if (numbers && marker(s.body[i]) != '1') {
        if (w.size() != 3 || !read_number(w[0], t[0]) || !read_number(w[1], t[1]) || !read_number(w[2], t[2]))
          fail(OPSPLIT_ERROR_PARSE, where(s.body[i].number) + ": the THERMO temperature line has " +
                                        std::to_string(w.size()) + " values; it needs 3 (Tlow Tcommon Thigh)");
        default_t_mid = t[1];
        ++i;
      }
    }
    while (next_nonblank()) {
      ThermoEntry entry;
      entry.path = path;
      entry.default_t_mid = default_t_mid;
      for (int k = 0; k < 4; ++k) {
        const bool found = next_nonblank();
        const char want = static_cast<char>('1' + k);
        if (!found || marker(s.body[i]) != want) {
          if (k == 0)
            fail(OPSPLIT_ERROR_PARSE, where(s.body[i].number) + ": \"" + trim(s.body[i].text) +
                                          "\" is not the first line of a NASA-7 entry (1 in column 80)");
          fail(OPSPLIT_ERROR_PARSE, where(found ? s.body[i].number : entry.lines[0].number) +
                                        ": the NASA-7 entry starting at line " + std::to_string(entry.lines[0].number) +
                                        " has no line " + std::string(1, want) + " (" + want + " in column 80) here");
        }
        entry.lines[static_cast<size_t>(k)] = s.body[i++];
        if (k == 0 && trim(entry.lines[0].text).back() == '&')  // before looking for line 2
          fail(OPSPLIT_ERROR_UNSUPPORTED, where(entry.lines[0].number) +
                                              ": a thermo entry whose composition continues on more lines ('&') is "
                                              "not supported");
      }
      const std::string& first = entry.lines[0].text;
      if (!trim(columns(first, 80, std::string::npos)).empty())
        fail(OPSPLIT_ERROR_UNSUPPORTED, where(entry.lines[0].number) +
                                            ": elemental composition after column 80 is not supported");
      for (size_t k = 1; k < 4; ++k)
        if (!trim(columns(entry.lines[k].text, 80, std::string::npos)).empty())
          fail(OPSPLIT_ERROR_PARSE, where(entry.lines[k].number) + ": text after column 80 of a thermo entry");
      const std::vector<std::string> name_words = words(columns(first, 0, 24));
      if (name_words.empty()) fail(OPSPLIT_ERROR_PARSE, where(entry.lines[0].number) + ": a thermo entry without a species name");
      const int k = find(name_words[0]);
      if (k < 0) continue;  // not declared: not needed
      const size_t ks = static_cast<size_t>(k);
      if (have_thermo_[ks]) {
        if (thermo_file_[ks] == file)
          fail(OPSPLIT_ERROR_PARSE, where(entry.lines[0].number) + ": a second thermo entry for species \"" +
                                        name_words[0] + "\" (the first is at " + mech_.species[ks].where + ")");
        continue;  // the mechanism file's entry stands
      }
      read_nasa7(entry, mech_.species[ks]);
      have_thermo_[ks] = true;
      thermo_file_[ks] = file;
    }
  }

  void read_nasa7(const ThermoEntry& entry, GasSpecies& s) const {
    const std::string& first = entry.lines[0].text;
    const std::string where = entry.path + ":" + std::to_string(entry.lines[0].number);
    const std::string what = where + ": species \"" + s.name + "\"";
    s.where = where;
    // Tcommon: columns 66-75 as ck2yaml reads them (GRI-Mech 3.0's own files write
    // "1000.000" across 66-75); where those are not one number, columns 66-73 of the
    // CHEMKIN-II format, whose columns 74-78 may then hold a fifth element.
    double wide_t_mid = 0.0;
    const bool wide = read_number(columns(first, 65, 10), wide_t_mid);
    // Composition: element (2 characters) and count (3) in columns 25-44 (and 74-78).
    std::vector<std::string> fields;
    for (size_t f = 0; f < 4; ++f) fields.push_back(columns(first, 24 + 5 * f, 5));
    if (!wide) fields.push_back(columns(first, 73, 5));
    for (const std::string& field : fields) {
      const std::string symbol = trim(columns(field, 0, 2)), count_text = trim(columns(field, 2, 3));
      double count = 0.0;
      if (symbol.empty() && count_text.empty()) continue;
      if (!read_number(count_text, count) || count != std::floor(count) || count < 0.0)
        fail(OPSPLIT_ERROR_PARSE, what + ": element count \"" + field + "\" (columns 25-44 or 74-78) is not a whole number");
      if (count == 0.0) continue;
      if (element_weight(symbol) == 0.0 || (!elements_.empty() && elements_.count(lower(symbol)) == 0))
        fail(OPSPLIT_ERROR_PARSE, what + ": element \"" + symbol + "\" is not declared in ELEMENTS");
      std::string element = lower(symbol);
      element[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(element[0])));
      auto same = std::find_if(s.composition.begin(), s.composition.end(), [&](const auto& e) { return e.first == element; });
      if (same != s.composition.end()) same->second += count;
      else s.composition.emplace_back(element, count);
    }
    if (s.composition.empty()) fail(OPSPLIT_ERROR_PARSE, what + ": no elements in columns 25-44");
    for (const auto& [element, count] : s.composition) s.molar_mass += count * element_weight(element);
    const char phase = columns(first, 44, 1).empty() ? ' ' : first[44];
    if (phase != 'G' && phase != 'g' && phase != ' ')
      fail(OPSPLIT_ERROR_UNSUPPORTED, what + ": phase '" + std::string(1, phase) +
                                          "' in column 45 (opsplit reads gas species, G)");
    auto temperature = [&](size_t begin, size_t width, const char* name) {
      double t;
      if (!read_number(columns(first, begin, width), t))
        fail(OPSPLIT_ERROR_PARSE, what + ": " + name + " \"" + columns(first, begin, width) + "\" (columns " +
                                      std::to_string(begin + 1) + "-" + std::to_string(begin + width) + ") is not a number");
      return t;
    };
    const double t_low = temperature(45, 10, "Tlow"), t_high = temperature(55, 10, "Thigh");
    std::optional<double> t_mid;
    if (wide) t_mid = wide_t_mid;
    else if (!trim(columns(first, 65, 8)).empty()) t_mid = temperature(65, 8, "Tcommon");
    else if (entry.default_t_mid && t_low < *entry.default_t_mid && *entry.default_t_mid < t_high) t_mid = entry.default_t_mid;
    else if (!entry.default_t_mid)
      fail(OPSPLIT_ERROR_PARSE, what + ": no common temperature in columns 66-75, and the THERMO section has no "
                                       "default temperature line");
    // Coefficients, 15 columns each: the high range (a1..a7) first, then the low.
    std::array<double, 14> a{};
    for (size_t c = 0; c < 14; ++c) {
      const size_t line = 1 + c / 5, column = 15 * (c % 5);
      const std::string text = columns(entry.lines[line].text, column, 15);
      if (!read_number(text, a[c]))
        fail(OPSPLIT_ERROR_PARSE, entry.path + ":" + std::to_string(entry.lines[line].number) + ": species \"" + s.name +
                                      "\": NASA-7 coefficient " + std::to_string(c + 1) + " \"" + text +
                                      "\" (columns " + std::to_string(column + 1) + "-" + std::to_string(column + 15) +
                                      ") is not a number");
    }
    std::array<double, 7> high{}, low{};
    std::copy(a.begin(), a.begin() + 7, high.begin());
    std::copy(a.begin() + 7, a.end(), low.begin());
    if (!(t_low < t_high)) fail(OPSPLIT_ERROR_PARSE, what + ": Tlow " + num(t_low) + " is not below Thigh " + num(t_high));
    // One range where the common temperature is an end of the range, missing, or the two
    // sets are the same; then one set must be the other or all zeros (as ck2yaml).
    if (t_mid && (*t_mid == t_low || *t_mid == t_high || high == low)) t_mid.reset();
    if (t_mid && !(t_low < *t_mid && *t_mid < t_high))
      fail(OPSPLIT_ERROR_PARSE, what + ": Tcommon " + num(*t_mid) + " is not between Tlow " + num(t_low) +
                                    " and Thigh " + num(t_high));
    s.t_min = t_low;
    s.t_max = t_high;
    if (t_mid) {
      s.t_mid = *t_mid;
      s.low = low;
      s.high = high;
      return;
    }
    const std::array<double, 7> zero{};
    if (low == zero) low = high;
    else if (high != zero && high != low)
      fail(OPSPLIT_ERROR_PARSE, what + ": one temperature range, but two different sets of coefficients");
    s.t_mid = t_high;
    s.low = s.high = low;
  }

  // ---- reactions ------------------------------------------------------------------

  void read_units(const Section& s) {
    // Keywords: a prefix of the full word, at least as long as the short form.
    struct Keyword {
      const char* full;
      size_t shortest;
      const char* unit;
      bool energy;
    };
    static const Keyword keywords[] = {
        {"CAL/MOLE", 4, "cal/mol", true},  {"KCAL/MOLE", 4, "kcal/mol", true}, {"JOULES/MOLE", 4, "J/mol", true},
        {"KJOULES/MOLE", 4, "kJ/mol", true}, {"KELVINS", 4, "K", true},          {"EVOLTS", 4, "eV", true},
        {"MOLES", 3, "mol", false},        {"MOLECULES", 5, "molec", false}};
    std::string energy = "cal/mol", quantity = "mol";
    bool energy_set = false, quantity_set = false;
    const std::string where = at(s.number);
    for (const std::string& w : words(s.rest)) {
      const std::string word = upper(w);
      const Keyword* match = nullptr;
      for (const Keyword& k : keywords)
        if (word.size() >= k.shortest && std::string(k.full).compare(0, word.size(), word) == 0 &&
            word.size() <= std::string(k.full).size())
          match = &k;
      if (match == nullptr) {
        if (word == "MWON" || word == "MWOFF")
          fail(OPSPLIT_ERROR_UNSUPPORTED, where + ": " + word + " on the REACTIONS line (surface kinetics) is not supported");
        fail(OPSPLIT_ERROR_PARSE, where + ": \"" + w +
                                      "\" on the REACTIONS line is not a units keyword (CAL/MOLE, KCAL/MOLE, "
                                      "JOULES/MOLE, KJOULES/MOLE, KELVINS, EVOLTS, MOLES, MOLECULES)");
      }
      bool& seen = match->energy ? energy_set : quantity_set;
      if (seen) fail(OPSPLIT_ERROR_PARSE, where + ": two " + (match->energy ? "energy" : "quantity") + " units on the REACTIONS line");
      seen = true;
      (match->energy ? energy : quantity) = match->unit;
    }
    units_.set("length", "cm");
    units_.set("time", "s");
    units_.set("quantity", quantity);
    units_.set("activation-energy", energy);
  }

  void read_reactions(const Section& s) {
    read_units(s);
    std::vector<std::vector<Line>> entries;
    for (const Line& line : s.body) {
      if (trim(line.text).empty()) continue;
      if (line.text.find('=') != std::string::npos) {
        entries.push_back({line});
      } else {
        if (entries.empty())
          fail(OPSPLIT_ERROR_PARSE, at(line.number) + ": \"" + trim(line.text) + "\" comes before the first reaction");
        entries.back().push_back(line);
      }
    }
    for (const std::vector<Line>& entry : entries) read_reaction(entry);
  }

  // One side of an equation with its blanks removed: terms "2H", "1.5 H2", "H2O2",
  // a third body "+M", "(+M)" or "(+H2O)". Species names are matched longest first, each
  // followed by the end, '+' or "(+" (so "CH2(S)" and "NO+" are names).
  SideTerm parse_side(const std::string& s, const std::string& what) const {
    SideTerm side;
    // The longest species name at i followed by the end, '+', "(+" or `close`; its length.
    auto name_at = [&](size_t i, bool close) -> std::pair<int, size_t> {
      for (size_t len = std::min(longest_name_, s.size() - i); len > 0; --len) {
        const size_t j = i + len;
        const bool delimited = close ? (j < s.size() && s[j] == ')')
                                     : (j == s.size() || s[j] == '+' || s.compare(j, 2, "(+") == 0);
        if (!delimited) continue;
        const int k = find(s.substr(i, len));
        if (k >= 0) return {k, len};
      }
      return {-1, 0};
    };
    auto third_body_at = [&](size_t i) {
      const size_t j = i + 1;
      return i < s.size() && (s[i] == 'M' || s[i] == 'm') && (j == s.size() || s[j] == '+' || s.compare(j, 2, "(+") == 0);
    };
    auto token_at = [&](size_t i) {
      size_t j = i;
      while (j < s.size() && !(j > i && s[j] == '+') && s.compare(j, 2, "(+") != 0) ++j;
      return s.substr(i, std::max<size_t>(j - i, 1));
    };
    size_t i = 0;
    bool expect_term = true;
    while (i < s.size()) {
      if (s.compare(i, 2, "(+") == 0) {
        if (side.collider_kind != 0) fail(OPSPLIT_ERROR_PARSE, what + ": two third bodies on one side");
        if (expect_term && i > 0) fail(OPSPLIT_ERROR_PARSE, what + ": a '+' without a species after it");
        if (s.compare(i + 2, 2, "M)") == 0 || s.compare(i + 2, 2, "m)") == 0) {
          side.collider_kind = 2;
          i += 4;
        } else {
          const auto [k, len] = name_at(i + 2, true);
          if (k < 0) {
            const size_t close = s.find(')', i);
            fail(OPSPLIT_ERROR_PARSE, what + ": \"" + s.substr(i + 2, close == std::string::npos ? std::string::npos : close - i - 2) +
                                          "\" in \"(+...)\" is neither M nor a declared species");
          }
          side.collider_kind = 3;
          side.collider = k;
          i += 2 + len + 1;
        }
        expect_term = false;
        continue;
      }
      if (!expect_term) {
        if (s[i] != '+') fail(OPSPLIT_ERROR_PARSE, what + ": \"" + token_at(i) + "\" follows a species without a '+'");
        ++i;
        expect_term = true;
        if (i == s.size()) fail(OPSPLIT_ERROR_PARSE, what + ": a side of the equation ends with '+'");
        continue;
      }
      // A term: a species, or a coefficient and a species, or M.
      // Not a structured binding: the find_if below captures k (C++20 for a binding).
      int k = -1;
      size_t len = 0;
      std::tie(k, len) = name_at(i, false);
      double coefficient = 1.0;
      if (k < 0 && !third_body_at(i)) {
        size_t j = i;
        while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
        if (j > i) {
          if (!read_number(s.substr(i, j - i), coefficient) || !(coefficient > 0.0))
            fail(OPSPLIT_ERROR_PARSE, what + ": coefficient \"" + s.substr(i, j - i) + "\" is not a positive number");
          if (j == s.size()) fail(OPSPLIT_ERROR_PARSE, what + ": coefficient \"" + s.substr(i, j - i) + "\" has no species");
          i = j;
          std::tie(k, len) = name_at(i, false);
        }
      }
      if (k < 0 && third_body_at(i)) {
        if (coefficient != 1.0) fail(OPSPLIT_ERROR_PARSE, what + ": a coefficient on the third body M");
        if (side.collider_kind != 0) fail(OPSPLIT_ERROR_PARSE, what + ": two third bodies on one side");
        side.collider_kind = 1;
        i += 1;
        expect_term = false;
        continue;
      }
      if (k < 0) {
        const std::string token = token_at(i);
        if (upper(token) == "HV")
          fail(OPSPLIT_ERROR_UNSUPPORTED, what + ": HV (a photon) in the equation is not supported");
        fail(OPSPLIT_ERROR_PARSE, what + ": \"" + token + "\" is not a declared species");
      }
      auto same = std::find_if(side.terms.begin(), side.terms.end(), [&](const StoichTerm& t) { return t.species == k; });
      if (same != side.terms.end()) same->coefficient += coefficient;
      else side.terms.push_back({k, coefficient});
      i += len;
      expect_term = false;
    }
    if (side.terms.empty()) fail(OPSPLIT_ERROR_PARSE, what + ": a side of the equation has no species");
    return side;
  }

  // The auxiliary lines: "KEYWORD /values/", "DUP", "SPECIES /efficiency/", several on
  // a line.
  Auxiliary read_auxiliary(const std::vector<Line>& entry, const std::string& label) const {
    auto what = [&](int line) { return at(line) + ": " + label; };
    static const std::set<std::string> unsupported = {
        "CHEB", "TCHEB", "PCHEB", "TDEP", "EXCI", "JAN",   "FIT1", "MOME", "XSMI", "LT",      "RLT",  "HV",
        "UNITS", "USRPROG", "STICK", "COV", "MWON", "MWOFF", "DCOL", "BOHM", "ENRGDEP", "YIELD", "LANG", "EINS"};
    Auxiliary aux;
    for (size_t l = 1; l < entry.size(); ++l) {
      const Line& line = entry[l];
      const std::string& t = line.text;
      size_t i = 0;
      while (true) {
        while (i < t.size() && blank(t[i])) ++i;
        if (i >= t.size()) break;
        if (t[i] == '/') fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": a '/' without a keyword or species before it");
        const size_t start = i;
        while (i < t.size() && !blank(t[i]) && t[i] != '/') ++i;
        const std::string name = t.substr(start, i - start), keyword = upper(name);
        size_t j = i;
        while (j < t.size() && blank(t[j])) ++j;
        bool has_values = false;
        std::string values_text;
        if (j < t.size() && t[j] == '/') {
          const size_t close = t.find('/', j + 1);
          if (close == std::string::npos) fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + name + ": no closing '/'");
          values_text = t.substr(j + 1, close - j - 1);
          has_values = true;
          i = close + 1;
        }
        if (unsupported.count(keyword))
          fail(OPSPLIT_ERROR_UNSUPPORTED, what(line.number) + ": auxiliary keyword " + keyword + " is not supported");
        auto numbers = [&](std::initializer_list<size_t> counts) {
          if (!has_values) fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + " needs its values between slashes");
          std::vector<double> v;
          for (const std::string& w : words(values_text)) {
            double x;
            if (!read_number(w, x))
              fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + ": \"" + w + "\" is not a number");
            v.push_back(x);
          }
          if (std::find(counts.begin(), counts.end(), v.size()) == counts.end()) {
            std::string want;
            for (size_t c : counts) want += (want.empty() ? "" : " or ") + std::to_string(c);
            fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + " /" + values_text + "/ has " +
                                          std::to_string(v.size()) + " values; it needs " + want);
          }
          return Auxiliary::Rate{line.number, v};
        };
        auto once = [&](std::optional<Auxiliary::Rate>& slot, Auxiliary::Rate r) {
          if (slot) fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + " is given twice");
          slot = std::move(r);
        };
        auto order = [&](std::vector<std::pair<int, std::pair<int, double>>>& list) {
          if (!has_values) fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + " needs /species order/");
          const std::vector<std::string> w = words(values_text);
          double n = 0.0;
          if (w.size() != 2 || !read_number(w[1], n))
            fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + " /" + values_text + "/ is not /species order/");
          const int k = find(w[0]);
          if (k < 0) fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + ": \"" + w[0] + "\" is not a declared species");
          for (const auto& o : list)
            if (o.second.first == k) fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + " of \"" + w[0] + "\" is given twice");
          list.push_back({line.number, {k, n}});
        };
        if (keyword == "DUP" || keyword == "DUPLICATE") {
          if (has_values) fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": " + keyword + " takes no values");
          aux.duplicate = line.number;
        } else if (keyword == "LOW") {
          once(aux.low, numbers({3}));
        } else if (keyword == "HIGH") {
          once(aux.high, numbers({3}));
        } else if (keyword == "REV") {
          once(aux.rev, numbers({3}));
        } else if (keyword == "TROE") {
          once(aux.troe, numbers({3, 4}));
        } else if (keyword == "SRI") {
          once(aux.sri, numbers({3, 5}));
        } else if (keyword == "PLOG") {
          aux.plog.push_back(numbers({4}));
        } else if (keyword == "FORD") {
          order(aux.ford);
        } else if (keyword == "RORD") {
          order(aux.rord);
        } else if (find(name) >= 0) {
          const int k = find(name);
          const std::vector<std::string> w = words(values_text);
          double e = 0.0;
          if (!has_values || w.size() != 1 || !read_number(w[0], e))
            fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": the efficiency of \"" + name + "\" is not /number/");
          for (const auto& other : aux.efficiencies)
            if (other.second.first == k)
              fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": the efficiency of \"" + name + "\" is given twice");
          aux.efficiencies.push_back({line.number, {k, e}});
        } else if (has_values) {
          fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": \"" + name + "\" /" + values_text +
                                        "/ is neither an auxiliary keyword nor a declared species (an efficiency)");
        } else {
          fail(OPSPLIT_ERROR_PARSE, what(line.number) + ": \"" + name + "\" is not an auxiliary keyword");
        }
      }
    }
    return aux;
  }

  // Arrhenius parameters A, b, Ea in the REACTIONS line's units; A of a rate of order `order`.
  Arrhenius arrhenius(double a, double b, double ea, double order) const {
    Arrhenius k;
    k.a = a * units_.rate_constant_factor(order);
    k.b = b;
    k.ea_over_r = units_.ea_over_r(ea);
    return k;
  }
  Arrhenius arrhenius(const std::vector<double>& abe, double order) const {
    return arrhenius(abe[0], abe[1], abe[2], order);
  }

  // A reaction entry: its line (the equation, then A, b and Ea) and the auxiliary
  // lines after it. Adds one reaction, or two where REV comes with RORD.
  void read_reaction(const std::vector<Line>& entry) {
    const Line& head = entry[0];
    const std::vector<std::string> tokens = words(head.text);
    // The equation as written: the line before its last three words.
    std::string equation = trim(head.text);
    if (tokens.size() >= 4) {
      size_t cut = head.text.size();
      for (int w = 0; w < 3; ++w) {
        while (cut > 0 && blank(head.text[cut - 1])) --cut;
        while (cut > 0 && !blank(head.text[cut - 1])) --cut;
      }
      equation = trim(head.text.substr(0, cut));
    }
    const std::string label =
        "reaction " + std::to_string(mech_.reactions.size() + 1) + " (" + equation + ")";
    const std::string what = at(head.number) + ": " + label;
    if (tokens.size() < 4 || equation.find('=') == std::string::npos)
      fail(OPSPLIT_ERROR_PARSE, at(head.number) + ": \"" + trim(head.text) +
                                    "\" is not a reaction line (an equation, then A, b and Ea)");
    double abe[3];
    const char* names[3] = {"A", "b", "Ea"};
    for (size_t p = 0; p < 3; ++p) {
      const std::string& w = tokens[tokens.size() - 3 + p];
      if (!read_number(w, abe[p])) fail(OPSPLIT_ERROR_PARSE, what + ": " + names[p] + " \"" + w + "\" is not a number");
    }
    GasReaction r;
    r.where = at(head.number);
    const int body = read_sides(equation, what, r);
    const Auxiliary aux = read_auxiliary(entry, label);
    const Where where{what, label};
    set_type(r, aux, body, where);
    set_rates(r, aux, abe, head.number, where);
    add_with_reverse(std::move(r), aux, where);
  }

  // Names a reaction in messages: on its own line (what) or on line `line`.
  struct Where {
    const std::string& what;
    const std::string& label;
  };
  std::string at(int line, const Where& where) const { return at(line) + ": " + where.label; }

  // The arrow and the sides of `equation` into r (blanks are not significant in CHEMKIN
  // equations); returns the third body's kind (SideTerm::collider_kind).
  int read_sides(const std::string& equation, const std::string& what, GasReaction& r) const {
    std::string eq;
    for (char ch : equation)
      if (!blank(ch)) eq += ch;
    const size_t k_eq = eq.find('=');
    size_t left_end = k_eq, right_begin = k_eq + 1;
    r.reversible = true;
    if (k_eq > 0 && eq[k_eq - 1] == '<') {
      if (k_eq + 1 >= eq.size() || eq[k_eq + 1] != '>')
        fail(OPSPLIT_ERROR_PARSE, what + ": '<=' is not an arrow (use <=>, = or =>)");
      left_end = k_eq - 1;
      right_begin = k_eq + 2;
    } else if (k_eq + 1 < eq.size() && eq[k_eq + 1] == '>') {
      r.reversible = false;
      right_begin = k_eq + 2;
    }
    if (eq.find('=', right_begin) != std::string::npos) fail(OPSPLIT_ERROR_PARSE, what + ": more than one arrow");
    const SideTerm left = parse_side(eq.substr(0, left_end), what);
    const SideTerm right = parse_side(eq.substr(right_begin), what);
    if (left.collider_kind != right.collider_kind || left.collider != right.collider)
      fail(OPSPLIT_ERROR_PARSE, what + ": the third bodies of the two sides differ");
    r.reactants = left.terms;
    r.products = right.terms;
    if (left.collider_kind == 3) r.collider = left.collider;
    return left.collider_kind;
  }

  // The reaction's type from its third body and LOW / HIGH / PLOG, its efficiencies and
  // orders, with the combinations that make no sense refused.
  void set_type(GasReaction& r, const Auxiliary& aux, int body, const Where& where) const {
    const std::string& what = where.what;
    r.duplicate = aux.duplicate.has_value();
    if (aux.low && aux.high) fail(OPSPLIT_ERROR_PARSE, at(aux.high->line, where) + ": both LOW and HIGH");
    if (!aux.plog.empty() && (aux.low || aux.high || body != 0))
      fail(OPSPLIT_ERROR_PARSE, at(aux.plog[0].line, where) + ": PLOG on a reaction with a third body, LOW or HIGH");
    if (body >= 2) {
      if (!aux.low && !aux.high)
        fail(OPSPLIT_ERROR_PARSE, what + ": a (+M) reaction needs LOW (falloff) or HIGH (chemically activated)");
      r.type = aux.low ? kGasFalloff : kGasChemicallyActivated;
    } else {
      if (aux.low || aux.high)
        fail(OPSPLIT_ERROR_PARSE, at((aux.low ? aux.low : aux.high)->line, where) + ": " +
                                      (aux.low ? "LOW" : "HIGH") +
                                      " needs (+M) or (+species) on both sides of the equation");
      r.type = body == 1 ? kGasThreeBody : aux.plog.empty() ? kGasElementary : kGasPressureDependent;
    }
    const bool falloff_like = r.type == kGasFalloff || r.type == kGasChemicallyActivated;
    if ((aux.troe || aux.sri) && !falloff_like)
      fail(OPSPLIT_ERROR_PARSE, at((aux.troe ? aux.troe : aux.sri)->line, where) + ": " +
                                    (aux.troe ? "TROE" : "SRI") + " needs LOW or HIGH");
    if (aux.troe && aux.sri) fail(OPSPLIT_ERROR_PARSE, at(aux.sri->line, where) + ": both TROE and SRI");
    if (!aux.efficiencies.empty() && !(body == 1 || body == 2))
      fail(OPSPLIT_ERROR_PARSE,
           at(aux.efficiencies[0].first, where) + ": efficiencies need the third body +M or (+M)");
    for (const auto& e : aux.efficiencies) r.efficiencies.push_back(e.second);
    // Orders: FORD on an irreversible reaction or one with REV (Cantera's rule); RORD
    // only with REV (the reaction then becomes two irreversible ones, as ck2yaml
    // writes every REV reaction).
    const bool rev = aux.rev && aux.rev->values[0] != 0.0;
    if (aux.rev && !r.reversible)
      fail(OPSPLIT_ERROR_PARSE, at(aux.rev->line, where) + ": REV on an irreversible reaction (=>)");
    if (aux.rev && (falloff_like || r.type == kGasPressureDependent))
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(aux.rev->line, where) +
                                          ": REV on a falloff, chemically activated or PLOG reaction is not supported");
    if (!aux.ford.empty() && r.reversible && !aux.rev)
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(aux.ford[0].first, where) +
                                          ": FORD on a reversible reaction without REV is not supported (orders, as in "
                                          "Cantera, are for irreversible reactions: write => or give REV)");
    if (!aux.rord.empty() && !rev)
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(aux.rord[0].first, where) +
                                          ": RORD is supported only with a nonzero REV rate (reverse orders of a "
                                          "reverse rate from the equilibrium constant are not)");
    for (const auto& o : aux.ford) r.orders.push_back({o.second.first, o.second.second});
  }

  void positive(double a, int line, const char* which, const Where& where) const {
    if (!(a > 0.0)) fail(OPSPLIT_ERROR_PARSE, at(line, where) + ": " + which + " A = " + num(a) + " is not positive");
  }

  // Rates, A in SI units of its order: k_0 of a falloff one order more than the
  // reaction, k_inf of a chemically activated reaction one less; the falloff form.
  void set_rates(GasReaction& r, const Auxiliary& aux, const double abe[3], int line, const Where& where) const {
    const double n = r.forward_order();
    if (r.type == kGasElementary || r.type == kGasThreeBody) {
      r.rate = arrhenius(abe[0], abe[1], abe[2], r.type == kGasThreeBody ? n + 1 : n);
    } else if (r.type == kGasFalloff) {
      positive(abe[0], line, "the high-pressure", where);
      positive(aux.low->values[0], aux.low->line, "LOW", where);
      r.rate = arrhenius(abe[0], abe[1], abe[2], n);
      r.falloff_rate = arrhenius(aux.low->values, n + 1);
    } else if (r.type == kGasChemicallyActivated) {
      positive(abe[0], line, "the low-pressure", where);
      positive(aux.high->values[0], aux.high->line, "HIGH", where);
      r.rate = arrhenius(abe[0], abe[1], abe[2], n);
      r.falloff_rate = arrhenius(aux.high->values, n - 1);
    } else {  // PLOG: pressures in atm; the reaction line's rate is not used (as in Cantera)
      r.rate = arrhenius(abe[0], abe[1], abe[2], n);
      for (const Auxiliary::Rate& p : aux.plog) {
        if (!(p.values[0] > 0.0))
          fail(OPSPLIT_ERROR_PARSE, at(p.line, where) + ": PLOG pressure " + num(p.values[0]) + " atm is not positive");
        r.plog.emplace_back(units_.pressure(p.values[0], "atm"), arrhenius(p.values[1], p.values[2], p.values[3], n));
      }
      // A negative A only as a term of a sum at its pressure.
      for (const Auxiliary::Rate& p : aux.plog)
        if (p.values[1] < 0.0 && std::count_if(aux.plog.begin(), aux.plog.end(), [&](const Auxiliary::Rate& q) {
                                   return q.values[0] == p.values[0];
                                 }) < 2)
          fail(OPSPLIT_ERROR_PARSE, at(p.line, where) + ": a PLOG rate with a negative A needs another rate at its pressure");
      std::stable_sort(r.plog.begin(), r.plog.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    if (r.type == kGasFalloff || r.type == kGasChemicallyActivated) {
      if (aux.troe) {
        r.falloff_form = kFalloffTroe;
        std::copy(aux.troe->values.begin(), aux.troe->values.end(), r.falloff_params.begin());
      } else if (aux.sri) {
        r.falloff_form = kFalloffSri;
        r.falloff_params = {0.0, 0.0, 0.0, 1.0, 0.0};  // d = 1, e = 0 unless given
        std::copy(aux.sri->values.begin(), aux.sri->values.end(), r.falloff_params.begin());
      }
    }
  }

  // REV: an explicit reverse rate of the products' order; REV /0 0 0/ makes the
  // reaction irreversible (as ck2yaml); with RORD, a second, irreversible reaction.
  void add_with_reverse(GasReaction r, const Auxiliary& aux, const Where& where) {
    const bool rev = aux.rev && aux.rev->values[0] != 0.0;
    const double third = r.type == kGasThreeBody ? 1.0 : 0.0;
    if (aux.rev && !rev) {
      r.reversible = false;
    } else if (rev) {
      positive(aux.rev->values[0], aux.rev->line, "REV", where);
      if (aux.rord.empty()) {
        double reverse_order = third;
        for (const StoichTerm& t : r.products) reverse_order += t.coefficient;
        r.explicit_reverse = true;
        r.reverse_rate = arrhenius(aux.rev->values, reverse_order);
      } else {
        GasReaction back;
        back.where = r.where;
        back.type = r.type;
        back.reactants = r.products;
        back.products = r.reactants;
        back.reversible = false;
        back.duplicate = r.duplicate;
        back.efficiencies = r.efficiencies;
        for (const auto& o : aux.rord) back.orders.push_back({o.second.first, o.second.second});
        back.rate = arrhenius(aux.rev->values, back.forward_order() + third);
        r.reversible = false;
        mech_.reactions.push_back(std::move(r));
        mech_.reactions.push_back(std::move(back));
        return;
      }
    }
    mech_.reactions.push_back(std::move(r));
  }
};

}  // namespace

GasMechanism load_chemkin(const std::string& mech_path, const std::string& thermo_path) {
  try {
    return ChemkinReader(mech_path, thermo_path).read();
  } catch (const std::invalid_argument& e) {  // a units conversion: not reached with the fixed unit names
    fail(OPSPLIT_ERROR_INTERNAL, mech_path + ": " + e.what());
  }
}

}  // namespace opsplit::chem
