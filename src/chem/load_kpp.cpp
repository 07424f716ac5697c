// KPP mechanism files (KPP 3.5: .def, .kpp, .spc, .eqn; docs/research/kpp_format.md)
// read into a built mass-action mechanism: variable species (#DEFVAR), fixed species
// (#DEFFIX) as per-system parameters that multiply the rates they enter, equations with
// real product yields, and each rate as a compiled expression over the host's
// per-system inputs (TEMP, SUN, CFACTOR and the fixed species), KPP's stock rate laws
// (ARR_abc, ARR_ab, ARR_ac, EP2, EP3, FALL, k3rd_jpl, k3rd_iupac) built in.
//
// MCM's files (an .eqn exported by the MCM web site and its constants_mcm.f90) also
// define names in Fortran: the module that #INLINE F90_RCONST_USE names is read from
// <module>.f90 beside the file that has the block (its INTEGER PARAMETERs, and its
// scalar assignments as named values: KMT01 and the rest); its REAL scalars that it
// never assigns (M, N2, O2, H2O) and its arrays (J(1..34), the photolysis rates) are
// the host's per-system inputs. #INLINE F90_RCONST's sums of species (RO2 = C(ind_X) +
// ...) become species-sum factors of the rates they multiply, exactly (KPP itself uses
// the sum at the last accepted state and leaves it out of the Jacobian).
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
#include "chem/rate_laws.hpp"
#include "core/error.hpp"
#include "core/text_file.hpp"

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

// Fortran statements of a piece of free-form code: ! comments dropped, & continuations
// joined, one statement a line (or ; apart); each with the offset of its first character.
struct Statement {
  std::string text;
  size_t offset;
};
std::vector<Statement> fortran_statements(std::string_view code) {
  std::vector<Statement> out;
  std::string current;
  size_t start = 0;
  bool continued = false;
  for (size_t i = 0; i <= code.size();) {
    const size_t eol = std::min(code.find('\n', i), code.size());
    std::string_view line = code.substr(i, eol - i);
    line = line.substr(0, std::min(line.find('!'), line.size()));
    std::string piece = trimmed(line);
    if (continued && !piece.empty() && piece[0] == '&') piece = trimmed(std::string_view(piece).substr(1));
    const bool continues = !piece.empty() && piece.back() == '&';
    if (continues) piece.pop_back();
    if (!continued) current.clear(), start = i;
    current += piece;
    continued = continues;
    if (!continued) {
      size_t from = 0;
      for (size_t semi = current.find(';'); from <= current.size(); semi = current.find(';', from)) {
        const std::string part = trimmed(std::string_view(current).substr(from, (semi == std::string::npos ? current.size() : semi) - from));
        if (!part.empty()) out.push_back({part, start});
        if (semi == std::string::npos) break;
        from = semi + 1;
      }
    }
    i = eol + 1;
  }
  return out;
}

// NAME = value: the name (upper case) and the value's text, or false. An array
// element's assignment (J(4) = ...) is not one.
bool scalar_assignment(const std::string& statement, std::string& name, std::string& value) {
  size_t i = 0;
  while (i < statement.size() && is_name_char(statement[i])) ++i;
  if (i == 0 || !is_name_start(statement[0])) return false;
  size_t eq = i;
  while (eq < statement.size() && std::isspace(static_cast<unsigned char>(statement[eq]))) ++eq;
  if (eq >= statement.size() || statement[eq] != '=' || (eq + 1 < statement.size() && statement[eq + 1] == '='))
    return false;
  name = upper_case(std::string_view(statement).substr(0, i));
  value = trimmed(std::string_view(statement).substr(eq + 1));
  return !value.empty();
}

// The words of a statement in upper case, split at blanks, commas, parentheses and ::.
std::vector<std::string> statement_words(const std::string& statement) {
  std::vector<std::string> words;
  std::string word;
  for (char c : statement) {
    if (is_name_char(c) || c == '.') {
      word += c;
    } else {
      if (!word.empty()) words.push_back(upper_case(word)), word.clear();
      if (c == '=' ) words.push_back("=");
    }
  }
  if (!word.empty()) words.push_back(upper_case(word));
  return words;
}

class KppReader {
 public:
  explicit KppReader(Mechanism& mech) : mech_(mech) {}

  void read(const std::string& path, int depth) {
    if (depth > kMaxIncludeDepth)
      fail(OPSPLIT_ERROR_PARSE, path + ": included more than " + std::to_string(kMaxIncludeDepth) + " deep");
    Source raw(path, read_text_file(path));
    std::vector<Inline> inlines;
    const Source src(path, without_comments(std::move(raw.text), raw, inlines));
    for (const Inline& block : inlines) inline_code(block, src);
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

  // An #INLINE block: its kind (F90_RCONST, ...) and its code, from `offset` of its file.
  struct Inline {
    std::string kind, code;
    size_t offset;
  };

  // The text with { } and // comments and #INLINE blocks blanked (newlines kept, so that
  // lines still count); the blocks go to `inlines`.
  static std::string without_comments(std::string text, const Source& src, std::vector<Inline>& inlines) {
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
        size_t kind_begin = i + 7;
        while (kind_begin < end && std::isspace(static_cast<unsigned char>(text[kind_begin]))) ++kind_begin;
        size_t kind_end = kind_begin;
        while (kind_end < end && is_name_char(text[kind_end])) ++kind_end;
        inlines.push_back({upper_case(std::string_view(text).substr(kind_begin, kind_end - kind_begin)),
                           text.substr(kind_end, end - kind_end), kind_end});
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
    // A sum of species (RO2) that multiplies the rate becomes the reaction's sum factor.
    std::string body = with_integers(e.rate);
    const Sum* factor = nullptr;
    for (const auto& [sum, def] : sums_) {
      if (!take_factor(body, sum, e.where, name)) continue;
      if (factor != nullptr) parse_error(e.where, name + ": the rate " + e.rate + " multiplies two sums of species");
      factor = &def;
    }
    std::string rate = "(" + body + ")";
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
    if (factor != nullptr) {
      std::vector<int> summed;
      for (const std::string& s : factor->species) {
        const auto it = species_.find(s);
        if (it == species_.end()) parse_error(factor->where, "the sum sums " + s + ", which is not a declared variable species");
        summed.push_back(it->second);
      }
      try {
        mech_.set_rate_species_sum(reaction, static_cast<int>(summed.size()), summed.data());
      } catch (const Error& error) {
        parse_error(factor->where, error.what());
      }
    }
    // Which names are the host's inputs: found by compiling once, then named.
    RateNames names;
    names.functions = kpp_rate_laws();
    for (const auto& [n, value] : values_) names.values[n] = with_integers(value);
    names.input = [this](const std::string& n, int index) {
      const bool input = index >= 0 ? arrays_.count(n) != 0
                                    : fixed_.count(n) != 0 || listed(n, kHostInputs) || module_inputs_.count(n) != 0;
      if (!input) return -1;
      const std::string key = index >= 0 ? n + "(" + std::to_string(index) + ")" : n;
      const auto it = inputs_.find(key);
      if (it != inputs_.end()) return it->second;
      const int slot = static_cast<int>(inputs_.size());
      mech_.name_parameter(slot, key.c_str());
      return inputs_[key] = slot;
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

  // What an #INLINE block defines: F90_RCONST_USE's modules (read from <module>.f90
  // beside the file), F90_RCONST's sums of species and other named values.
  void inline_code(const Inline& block, const Source& src) {
    if (block.kind != "F90_RCONST_USE" && block.kind != "F90_RCONST") return;  // code only KPP's output needs
    for (const Statement& st : fortran_statements(block.code)) {
      const std::vector<std::string> words = statement_words(st.text);
      if (block.kind == "F90_RCONST_USE") {
        if (words.size() >= 2 && words[0] == "USE") use_module(words[1], src.path, src.at(block.offset + st.offset));
        continue;
      }
      std::string name, value;
      if (!scalar_assignment(st.text, name, value)) continue;  // CALL define_constants_mcm and the like
      std::vector<std::string> summed;
      if (species_sum(value, summed))
        sums_[name] = {summed, src.at(block.offset + st.offset)};
      else
        assign_value(name, value, src.at(block.offset + st.offset));
    }
  }

  // A named value other than a species sum. One over the concentrations (C(ind_X),
  // VAR(ind_X), FIX(indf_X), spaces anywhere) is refused: the reader takes them only
  // as a plain sum, and anything else would fall through to a host input of 0.
  void assign_value(const std::string& name, const std::string& value, const std::string& at) {
    const std::string compact = upper_case(without_spaces(value));
    for (const char* array : {"C(IND", "VAR(IND", "FIX(IND"})
      for (size_t i = compact.find(array); i != std::string::npos; i = compact.find(array, i + 1))
        if (i == 0 || !is_name_char(compact[i - 1]))
          parse_error(at, name + " uses the concentrations other than as a plain sum C(ind_A) + C(ind_B) + ..., "
                              "the one form the reader takes");
    values_[name] = value;
  }

  static std::string without_spaces(const std::string& value) {
    std::string compact;
    for (char c : value)
      if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    return compact;
  }

  // value is C(ind_A) + C(ind_B) + ...: the species names, upper case.
  static bool species_sum(const std::string& value, std::vector<std::string>& names) {
    const std::string compact = without_spaces(value);
    size_t i = 0;
    while (i < compact.size()) {
      if (upper_case(std::string_view(compact).substr(i, 6)) != "C(IND_") return false;
      size_t end = i + 6;
      while (end < compact.size() && is_name_char(compact[end])) ++end;
      if (end == i + 6 || end >= compact.size() || compact[end] != ')') return false;
      names.push_back(upper_case(std::string_view(compact).substr(i + 6, end - i - 6)));
      i = end + 1;
      if (i < compact.size() && compact[i++] != '+') return false;
    }
    return !names.empty();
  }

  // A Fortran module of the mechanism's rates, <name>.f90 beside `including` (as written,
  // then in lower case); absent (KPP's own modules), it defines nothing.
  void use_module(const std::string& name, const std::string& including, const std::string& at) {
    const size_t slash = including.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "" : including.substr(0, slash + 1);
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string path;
    for (const std::string& file : {folder + name + ".f90", folder + lower + ".f90"})
      if (path.empty() && readable(file)) path = file;
    if (path.empty() || !modules_.insert(path).second) return;
    const Source src(path, read_text_file(path));
    std::set<std::string> declared, assigned;
    for (const Statement& st : fortran_statements(src.text)) {
      if (++entry_count_ > kMaxEntries) parse_error(src.at(st.offset), "more than 2^20 entries (used by " + at + ")");
      const std::vector<std::string> words = statement_words(st.text);
      if (words.empty()) continue;
      const bool is_integer = words[0] == "INTEGER", is_real = words[0] == "REAL";
      const size_t colons = st.text.find("::");
      if ((is_integer || is_real) && colons != std::string::npos) {
        const std::string rest = st.text.substr(colons + 2);
        const bool parameter = std::find(words.begin(), words.end(), "PARAMETER") != words.end();
        const bool array = std::find(words.begin(), words.end(), "DIMENSION") != words.end();
        size_t from = 0;  // the declared names: NAME [= value], comma apart
        while (from <= rest.size()) {
          const size_t comma = std::min(rest.find(',', from), rest.size());
          std::string entity = trimmed(std::string_view(rest).substr(from, comma - from)), value;
          std::string entity_name;
          if (!scalar_assignment(entity, entity_name, value)) entity_name = upper_case(entity);
          if (is_integer && parameter && !value.empty()) {
            char* end = nullptr;
            const long v = std::strtol(value.c_str(), &end, 10);
            if (end != value.c_str() && *end == '\0' && v >= 0 && v < 100000) integers_[entity_name] = static_cast<int>(v);
          } else if (is_real && !entity_name.empty() && std::all_of(entity_name.begin(), entity_name.end(), is_name_char)) {
            (array ? arrays_ : declared).insert(entity_name);
          }
          from = comma + 1;
        }
        continue;
      }
      std::string name, value;
      if (scalar_assignment(st.text, name, value)) assign_value(name, value, src.at(st.offset)), assigned.insert(name);
    }
    for (const std::string& n : declared)
      if (assigned.count(n) == 0) module_inputs_.insert(n);
  }

  // `rate` with the module's integer constants written as their numbers: J(J_NO2) is J(4).
  std::string with_integers(const std::string& rate) const {
    if (integers_.empty()) return rate;
    std::string out;
    for (size_t i = 0; i < rate.size();) {
      if (!is_name_start(rate[i]) || (i > 0 && (is_name_char(rate[i - 1]) || rate[i - 1] == '.'))) {
        out += rate[i++];
        continue;
      }
      size_t end = i;
      while (end < rate.size() && is_name_char(rate[end])) ++end;
      const auto it = integers_.find(upper_case(std::string_view(rate).substr(i, end - i)));
      out += it != integers_.end() ? std::to_string(it->second) : rate.substr(i, end - i);
      i = end;
    }
    return out;
  }

  // Takes sum name `sum` out of `rate` (blanks removed) where it is a factor of the whole
  // rate (... * RO2 * ..., not under ** or after /, not in a sum): false when the rate
  // does not use it; PARSE where it uses it otherwise.
  static bool take_factor(std::string& rate, const std::string& sum, const std::string& where, const std::string& name) {
    std::vector<size_t> uses;
    for (size_t i = 0; i < rate.size(); ++i) {
      if (!is_name_start(rate[i]) || (i > 0 && (is_name_char(rate[i - 1]) || rate[i - 1] == '.'))) continue;
      size_t end = i;
      while (end < rate.size() && is_name_char(rate[end])) ++end;
      if (upper_case(std::string_view(rate).substr(i, end - i)) == sum) uses.push_back(i);
      i = end - 1;
    }
    if (uses.empty()) return false;
    const auto refuse = [&] {
      parse_error(where, name + ": the rate " + rate + " uses " + sum +
                             " other than as one factor of the whole rate (A*" + sum + "*B), which is what opsplit takes");
    };
    if (uses.size() > 1) refuse();
    const size_t at = uses[0], end = at + sum.size();
    int depth = 0;
    for (size_t i = 0; i < rate.size(); ++i) {  // a + or - between terms at the top level: a sum of terms
      const char c = rate[i];
      if (c == '(') ++depth;
      if (c == ')') --depth;
      const bool exponent_sign = i >= 2 && (rate[i - 1] == 'E' || rate[i - 1] == 'e' || rate[i - 1] == 'D' || rate[i - 1] == 'd') &&
                                 (std::isdigit(static_cast<unsigned char>(rate[i - 2])) || rate[i - 2] == '.');
      const bool unary = i == 0 || std::string_view("(*/+-,").find(rate[i - 1]) != std::string_view::npos;
      if ((c == '+' || c == '-') && depth == 0 && !exponent_sign && !unary) refuse();
      if (i == at && depth != 0) refuse();
    }
    const bool after_times = at == 0 || (rate[at - 1] == '*' && (at < 2 || rate[at - 2] != '*'));
    const bool before_times = end == rate.size() || (rate[end] == '*' && (end + 1 >= rate.size() || rate[end + 1] != '*')) ||
                              rate[end] == '/';
    if (!after_times || !before_times) refuse();
    rate.replace(at, sum.size(), "1.");
    return true;
  }

  enum class Section { none, skip, variables, fixed, equations };
  Mechanism& mech_;
  Section section_ = Section::none;
  size_t entry_count_ = 0;
  std::set<std::string> declared_, fixed_;
  std::map<std::string, int> species_, inputs_;
  std::vector<Equation> equations_;
  // From the #INLINE code and the modules it uses.
  struct Sum {
    std::vector<std::string> species;
    std::string where;
  };
  std::map<std::string, Sum> sums_;                  // RO2 -> its species
  std::map<std::string, std::string> values_;        // KMT01 -> its expression
  std::map<std::string, int> integers_;              // J_NO2 -> 4
  std::set<std::string> module_inputs_, arrays_;     // M, N2, O2, H2O; J
  std::set<std::string> modules_;                    // the paths read
};

}  // namespace

void load_kpp(Mechanism& mech, const std::string& path) {
  KppReader reader(mech);
  reader.read(path, 0);
  reader.finish(path);
}

}  // namespace opsplit::chem
