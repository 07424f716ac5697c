// KPP mechanism files (KPP 3.5: .def, .kpp, .spc, .eqn; docs/research/kpp_format.md)
// read into a built mass-action mechanism: variable species (#DEFVAR), fixed species
// (#DEFFIX) as per-system parameters that multiply the rates they enter, equations with
// real product yields, and each rate as a compiled expression over the host's
// per-system inputs (TEMP, SUN, CFACTOR and the fixed species), KPP's stock rate laws
// (ARR_abc, ARR_ab, ARR_ac, EP2, EP3, FALL, k3rd_jpl, k3rd_iupac) built in.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "chem/loaders.hpp"
#include "chem/mechanism.hpp"
#include "chem/rate_expression.hpp"
#include "core/error.hpp"

namespace opsplit::chem {
namespace {

std::string trimmed(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// KPP's stock rate laws (KPP 3.5, util/UserRateLaws.f90), with T = TEMP and the
// third-body density of EP2, EP3 and FALL taken as 1e6 CFACTOR, as KPP takes it.
// KPP__ARR and KPP__TROE are shared pieces.
const std::map<std::string, RateFunction>& stock_rate_laws() {
  static const std::map<std::string, RateFunction> laws = {
      {"KPP__ARR", {{"A", "B", "C"}, "A*EXP(-B/TEMP)*(TEMP/300.)**C"}},
      {"KPP__TROE", {{"K0", "KI", "FC"}, "K0/(1.+K0/KI)*FC**(1./(1.+LOG10(K0/KI)**2))"}},
      {"ARR_ABC", {{"A0", "B0", "C0"}, "KPP__ARR(A0, B0, C0)"}},
      {"ARR_AB", {{"A0", "B0"}, "A0*EXP(-B0/TEMP)"}},
      {"ARR_AC", {{"A0", "C0"}, "A0*(TEMP/300.)**C0"}},
      {"EP2", {{"A0", "C0", "A2", "C2", "A3", "C3"}, "KPP__EP2(A0*EXP(-C0/TEMP), A2*EXP(-C2/TEMP), "
                                                       "A3*EXP(-C3/TEMP)*CFACTOR*1.0E6)"}},
      {"KPP__EP2", {{"K0", "K2", "K3"}, "K0+K3/(1.+K3/K2)"}},
      {"EP3", {{"A1", "C1", "A2", "C2"}, "A1*EXP(-C1/TEMP)+A2*EXP(-C2/TEMP)*(1.0E6*CFACTOR)"}},
      {"FALL", {{"A0", "B0", "C0", "A1", "B1", "C1", "CF"}, "KPP__TROE(KPP__ARR(A0, B0, C0)*CFACTOR*1.0E6, "
                                                             "KPP__ARR(A1, B1, C1), CF)"}},
      {"K3RD_JPL", {{"CAIR", "K0", "N", "KINF", "M", "FC"},
                    "KPP__TROE(K0*(300./TEMP)**N*CAIR, KINF*(300./TEMP)**M, FC)"}},
      {"K3RD_IUPAC", {{"CAIR", "K0", "N", "KINF", "M", "FC"},
                      "KPP__IUPAC(K0*(300./TEMP)**N*CAIR, KINF*(300./TEMP)**M, FC)"}},
      {"KPP__IUPAC", {{"K0", "KI", "FC"},
                      "K0/(1.+K0/KI)*FC**(1./(1.+(LOG10(K0/KI)/(0.75-1.27*LOG10(FC)))**2))"}},
  };
  return laws;
}

// Names a rate may read that the host sets per system (beside the fixed species).
constexpr const char* kHostInputs[] = {"TEMP", "SUN", "CFACTOR"};

// Commands whose entries (up to the next command) carry nothing opsplit uses.
constexpr const char* kSkippedSections[] = {"ATOMS",  "CHECK",   "LOOKAT", "MONITOR", "INITVALUES",
                                            "SETVAR", "SETFIX",  "FAMILIES"};
// Commands of one word (or none) that choose how KPP generates code.
constexpr const char* kSwitches[] = {"LANGUAGE", "INTEGRATOR", "DRIVER", "EQNTAGS", "STOICMAT", "HESSIAN",
                                     "MEX", "DOUBLE", "UPPERCASEF90", "JACOBIAN", "REORDER", "DECLARE",
                                     "FUNCTION", "INTFILE", "DUMMYINDEX", "FLUX", "AUTOREDUCE", "MINVERSION",
                                     "LOOKATALL", "CHECKALL", "STOCHASTIC", "GRAPH"};

template <class List>
bool listed(const std::string& word, const List& list) {
  return std::any_of(std::begin(list), std::end(list), [&](const char* w) { return word == w; });
}

constexpr int kMaxIncludeDepth = 10;  // as KPP
constexpr size_t kMaxEntries = 1 << 20;

class KppReader {
 public:
  explicit KppReader(Mechanism& mech) : mech_(mech) {}

  void read(const std::string& path, int depth) {
    if (depth > kMaxIncludeDepth)
      fail(OPSPLIT_ERROR_PARSE, path + ": included more than " + std::to_string(kMaxIncludeDepth) + " deep");
    Source raw(path, read_text_file(path));
    const Source src(path, without_comments(std::move(raw.text), raw));
    const std::string& text = src.text;
    // Commands start at '#'; a section's entries run to the next one.
    size_t at = text.find('#');
    check_blank(std::string_view(text).substr(0, at == std::string::npos ? text.size() : at), src, 0);
    while (at != std::string::npos) {
      size_t word_end = at + 1;
      while (word_end < text.size() && is_name_char(text[word_end])) ++word_end;
      const std::string command = upper_case(std::string_view(text).substr(at + 1, word_end - at - 1));
      const size_t next = text.find('#', word_end);
      const std::string_view body =
          std::string_view(text).substr(word_end, (next == std::string::npos ? text.size() : next) - word_end);
      run(command, body, src, word_end, depth);
      at = next;
    }
  }

  // The equations' rates, once every species is known (an equation may come before the
  // fixed species it uses in a later file).
  void finish(const std::string& path) {
    if (mech_.nspecies() == 0) fail(OPSPLIT_ERROR_PARSE, path + ": no #DEFVAR species");
    if (equations_.empty()) fail(OPSPLIT_ERROR_PARSE, path + ": no #EQUATIONS");
    for (const Equation& e : equations_) add(e);
  }

 private:
  struct Term {
    double coefficient;
    std::string name;  // upper case
  };
  struct Equation {
    std::string where, tag;  // "file:line", the <tag> or "" (then the number)
    std::vector<Term> reactants, products;
    std::string rate;
  };

  [[noreturn]] static void parse_error(const std::string& where, const std::string& what) {
    fail(OPSPLIT_ERROR_PARSE, where + ": " + what);
  }

  // A file's text and where its lines start: "file:line" of an offset in O(log lines).
  struct Source {
    Source(std::string p, std::string t) : path(std::move(p)), text(std::move(t)) {
      for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') line_starts.push_back(i + 1);
    }
    std::string at(size_t offset) const {
      const auto line = std::upper_bound(line_starts.begin(), line_starts.end(), offset) - line_starts.begin();
      return path + ":" + std::to_string(line);
    }
    std::string path, text;
    std::vector<size_t> line_starts{0};
  };

  static void check_blank(std::string_view s, const Source& src, size_t offset) {
    for (size_t i = 0; i < s.size(); ++i)
      if (!std::isspace(static_cast<unsigned char>(s[i])))
        parse_error(src.at(offset + i), "text outside a section: '" + trimmed(s.substr(i, 20)) + "'");
  }

  // The text with { } and // comments and #INLINE blocks blanked (newlines kept, so that
  // lines still count).
  static std::string without_comments(std::string text, const Source& src) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '{') {
        const size_t end = text.find('}', i);
        if (end == std::string::npos) parse_error(src.at(i), "a '{' comment is not closed");
        blank(text, i, end + 1);
        i = end;
      } else if (text.compare(i, 2, "//") == 0) {
        const size_t end = std::min(text.find('\n', i), text.size());
        blank(text, i, end);
        i = end;
      } else if (text[i] == '#' && upper_case(std::string_view(text).substr(i, 7)) == "#INLINE") {
        // Raw code of the generated model (no comment rules inside): not the mechanism.
        const size_t end = find_word(text, "#ENDINLINE", i + 7);
        if (end == std::string::npos) parse_error(src.at(i), "#INLINE has no #ENDINLINE");
        blank(text, i, end + 10);
        i = end + 9;
      }
    }
    return text;
  }
  // Where `word` (upper case) starts in text at or after `from`, in any case.
  static size_t find_word(const std::string& text, std::string_view word, size_t from) {
    for (size_t i = text.find('#', from); i != std::string::npos; i = text.find('#', i + 1))
      if (upper_case(std::string_view(text).substr(i, word.size())) == word) return i;
    return std::string::npos;
  }
  static void blank(std::string& text, size_t from, size_t to) {
    for (size_t k = from; k < to && k < text.size(); ++k)
      if (text[k] != '\n') text[k] = ' ';
  }

  void run(const std::string& command, std::string_view body, const Source& src, size_t offset, int depth) {
    const std::string at = src.at(offset);
    const std::string& path = src.path;
    if (command == "INCLUDE" || command == "MODEL") {
      const std::string name = first_word(body, at);
      std::string file = name;
      if (command == "MODEL" && file.find('.') == std::string::npos) file += ".def";
      const size_t slash = path.find_last_of('/');
      const std::string resolved = file[0] == '/' || slash == std::string::npos ? file : path.substr(0, slash + 1) + file;
      // KPP's own table of the elements (models/atoms.kpp) is for its mass-balance check,
      // which opsplit does not make: where it is not beside the file, it is not needed.
      if ((name == "atoms" || name == "atoms.kpp") && !readable(resolved)) return;
      read(resolved, depth + 1);
      return;
    }
    if (listed(command, kSwitches)) {
      first_word(body, at, /*optional=*/true);
      section_ = Section::skip;
      return;
    }
    if (listed(command, kSkippedSections)) section_ = Section::skip;
    else if (command == "DEFVAR") section_ = Section::variables;
    else if (command == "DEFFIX") section_ = Section::fixed;
    else if (command == "EQUATIONS") section_ = Section::equations;
    else if (command == "ENDINLINE") parse_error(at, "#ENDINLINE without #INLINE");
    else parse_error(at, "unknown command #" + command);
    entries(body, src, offset);
  }

  // The first word of a command's text; what follows it must be blank.
  static std::string first_word(std::string_view body, const std::string& at, bool optional = false) {
    const std::string t = trimmed(body);
    const size_t space = std::find_if(t.begin(), t.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }) - t.begin();
    if (t.empty() && !optional) parse_error(at, "a file name is expected");
    if (space < t.size()) parse_error(at, "one word is expected, not '" + t + "'");
    return t;
  }

  static bool readable(const std::string& path) { return std::ifstream(path).good(); }

  void entries(std::string_view body, const Source& src, size_t offset) {
    size_t start = 0;
    while (true) {
      const size_t semicolon = body.find(';', start);
      const std::string_view entry = body.substr(start, semicolon == std::string::npos ? std::string::npos : semicolon - start);
      const size_t entry_offset = offset + start;
      if (semicolon == std::string::npos) {
        const size_t lead = entry.find_first_not_of(" \t\r\n");
        if (section_ != Section::skip && lead != std::string_view::npos)
          parse_error(src.at(entry_offset + lead),
                      "'" + trimmed(entry.substr(lead, 60)) + "' has no ';' at its end");
        return;
      }
      if (++entry_count_ > kMaxEntries) parse_error(src.at(entry_offset), "more than 2^20 entries");
      const size_t lead = entry.find_first_not_of(" \t\r\n");
      if (lead != std::string_view::npos) entry_at(entry, src.at(entry_offset + lead));
      start = semicolon + 1;
    }
  }

  void entry_at(std::string_view entry, const std::string& at) {
    switch (section_) {
      case Section::skip: return;
      case Section::none: parse_error(at, "an entry before any section: '" + trimmed(entry) + "'");
      case Section::variables:
      case Section::fixed: return declare(entry, at);
      case Section::equations: return equation(entry, at);
    }
  }

  // NAME [= composition]: the composition (atoms, for KPP's balance check) is not used.
  void declare(std::string_view entry, const std::string& at) {
    const std::string name = trimmed(entry.substr(0, entry.find('=')));
    if (name.empty() || !is_name_start(name[0]) ||
        !std::all_of(name.begin(), name.end(), is_name_char))
      parse_error(at, "'" + trimmed(entry) + "' is not a species declaration (NAME or NAME = composition)");
    if (name.size() > 64) parse_error(at, "species " + name.substr(0, 64) + "...: names have at most 64 characters");
    const std::string key = upper_case(name);
    if (key == "HV" || key == "PROD") parse_error(at, name + " is KPP's own and cannot be declared");
    if (declared_.count(key) != 0) parse_error(at, "species " + name + " is declared twice");
    declared_.insert(key);
    if (section_ == Section::fixed) {
      fixed_.insert(key);
      return;
    }
    const char* c = name.c_str();
    species_[key] = mech_.add_species(c);
  }

  void equation(std::string_view entry, const std::string& at) {
    Equation e;
    e.where = at;
    std::string text = trimmed(entry);
    if (!text.empty() && text[0] == '<') {
      const size_t close = text.find('>');
      if (close == std::string::npos) parse_error(at, "a tag '<' is not closed");
      for (char c : text.substr(1, close - 1))
        if (!std::isspace(static_cast<unsigned char>(c))) e.tag += c;
      text = text.substr(close + 1);
    }
    const size_t equals = text.find('=');
    const size_t colon = text.find(':', equals == std::string::npos ? 0 : equals);
    if (equals == std::string::npos || colon == std::string::npos)
      parse_error(at, "'" + trimmed(text.substr(0, 60)) + "' is not an equation (reactants = products : rate)");
    e.reactants = side(text.substr(0, equals), at, "reactants");
    e.products = side(text.substr(equals + 1, colon - equals - 1), at, "products");
    // KPP joins a rate's pieces with their blanks removed (ARR_ab(6.50e-12,- 120.0e0)).
    for (char c : text.substr(colon + 1))
      if (!std::isspace(static_cast<unsigned char>(c))) e.rate += c;
    if (e.rate.empty()) parse_error(at, "the equation has no rate after ':'");
    equations_.push_back(std::move(e));
  }

  // [coefficient] NAME {+ [coefficient] NAME}; hv and PROD are KPP's markers.
  static std::vector<Term> side(std::string_view s, const std::string& at, const char* which) {
    std::vector<Term> terms;
    size_t i = 0;
    auto skip = [&] { while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i; };
    skip();
    if (i == s.size()) parse_error(at, std::string("the ") + which + " are empty (KPP writes PROD for none)");
    while (i < s.size()) {
      if (s[i] == '-') parse_error(at, std::string("a negative term among the ") + which + " is not supported");
      if (s[i] == '+') ++i, skip();
      size_t start = i;
      while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
      if (i < s.size() && i > start && std::string_view("eEdD").find(s[i]) != std::string_view::npos) {
        size_t q = i + 1;
        if (q < s.size() && (s[q] == '+' || s[q] == '-')) ++q;
        if (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) {
          i = q;
          while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        }
      }
      std::string number(s.substr(start, i - start));
      for (char& c : number)
        if (c == 'd' || c == 'D') c = 'e';
      char* end = nullptr;
      const double coefficient = number.empty() ? 1.0 : std::strtod(number.c_str(), &end);
      if (!number.empty() && (end != number.c_str() + number.size() || !(coefficient > 0.0) || coefficient > 1000.0))
        parse_error(at, "'" + std::string(s.substr(start, i - start)) + "' is not a coefficient in (0, 1000]");
      skip();
      start = i;
      while (i < s.size() && is_name_char(s[i])) ++i;
      if (i == start || !is_name_start(s[start]))
        parse_error(at, std::string("a species name is expected among the ") + which + ", at '" +
                            trimmed(s.substr(start, 20)) + "'");
      terms.push_back({coefficient, upper_case(s.substr(start, i - start))});
      skip();
      if (i < s.size() && s[i] != '+' && s[i] != '-')
        parse_error(at, std::string("'+' is expected between the ") + which + ", at '" + trimmed(s.substr(i, 20)) + "'");
    }
    return terms;
  }

  // The reaction: variable species in the mass-action terms, fixed ones as factors of the
  // rate (they do not change), hv and PROD left out.
  void add(const Equation& e) {
    const std::string name = e.tag.empty() ? "reaction " + std::to_string(mech_.nreactions() + 1) : "<" + e.tag + ">";
    std::vector<int> reactants, reactant_coefficients, products;
    std::vector<double> yields;
    std::string rate = "(" + e.rate + ")";
    for (const Term& t : e.reactants) {
      if (t.name == "HV" || t.name == "PROD") continue;
      if (t.coefficient != static_cast<int>(t.coefficient))
        parse_error(e.where, name + ": the reactant coefficient " + num(t.coefficient) + " of " + t.name +
                                 " is not a whole number (a rate law's order)");
      if (fixed_.count(t.name) != 0) {
        for (int k = 0; k < static_cast<int>(t.coefficient); ++k) rate += "*" + t.name;
        continue;
      }
      reactants.push_back(species(t.name, e.where, name));
      reactant_coefficients.push_back(static_cast<int>(t.coefficient));
    }
    for (const Term& t : e.products) {
      if (t.name == "HV" || t.name == "PROD" || fixed_.count(t.name) != 0) continue;
      products.push_back(species(t.name, e.where, name));
      yields.push_back(t.coefficient);
    }
    int reaction = -1;
    try {
      reaction = mech_.add_reaction(static_cast<int>(reactants.size()), reactants.data(), reactant_coefficients.data(),
                                    static_cast<int>(products.size()), products.data(), nullptr, yields.data());
    } catch (const Error& error) {
      parse_error(e.where, name + ": " + error.what());
    }
    // Which names are the host's inputs: found by compiling once, then named.
    RateNames names;
    names.functions = stock_rate_laws();
    names.input = [this](const std::string& n, int index) {
      if (index >= 0 || (fixed_.count(n) == 0 && !listed(n, kHostInputs))) return -1;
      const auto it = inputs_.find(n);
      if (it != inputs_.end()) return it->second;
      const int slot = static_cast<int>(inputs_.size());
      mech_.name_parameter(slot, n.c_str());
      return inputs_[n] = slot;
    };
    RateProgram program;
    RateError error;
    if (!compile_rate_expression(rate, names, program, error))
      parse_error(e.where, name + ": the rate " + e.rate + ": " + error.message +
                               (error.column > 1 ? " (at '" + rate.substr(static_cast<size_t>(error.column) - 1, 20) + "')" : ""));
    mech_.set_rate_program(reaction, std::move(program));
  }

  int species(const std::string& name, const std::string& where, const std::string& reaction) const {
    const auto it = species_.find(name);
    if (it == species_.end()) parse_error(where, reaction + ": " + name + " is not a declared species (#DEFVAR, #DEFFIX)");
    return it->second;
  }

  enum class Section { none, skip, variables, fixed, equations };
  Mechanism& mech_;
  Section section_ = Section::none;
  size_t entry_count_ = 0;
  std::set<std::string> declared_, fixed_;
  std::map<std::string, int> species_, inputs_;
  std::vector<Equation> equations_;
};

}  // namespace

void load_kpp(Mechanism& mech, const std::string& path) {
  KppReader reader(mech);
  reader.read(path, 0);
  reader.finish(path);
}

}  // namespace opsplit::chem
