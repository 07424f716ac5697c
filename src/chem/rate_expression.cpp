#include "chem/rate_expression.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace opsplit::chem {

namespace {

// The expression as a tree (a DAG where an inlined function uses a parameter twice).
struct Node {
  int op = kOpConstant;
  int arg = 0;        // kOpInput's slot
  double value = 0;   // kOpConstant's value
  int a = -1, b = -1; // operands (b only for the binary operators)
};

struct Intrinsic {
  const char* name;
  int op;
  int arity;  // 2 for MIN and MAX: they take two or more and fold left
};
constexpr Intrinsic kIntrinsics[] = {
    {"EXP", kOpExp, 1},   {"DEXP", kOpExp, 1},   {"LOG", kOpLog, 1},   {"ALOG", kOpLog, 1},
    {"DLOG", kOpLog, 1},  {"LOG10", kOpLog10, 1}, {"ALOG10", kOpLog10, 1}, {"DLOG10", kOpLog10, 1},
    {"SQRT", kOpSqrt, 1}, {"DSQRT", kOpSqrt, 1}, {"ABS", kOpAbs, 1},   {"DABS", kOpAbs, 1},
    {"MIN", kOpMin, 2},   {"DMIN1", kOpMin, 2},  {"AMIN1", kOpMin, 2}, {"MAX", kOpMax, 2},
    {"DMAX1", kOpMax, 2}, {"AMAX1", kOpMax, 2},
};
// Conversions that change nothing in double precision.
constexpr const char* kIdentities[] = {"DBLE", "REAL", "FLOAT", "DFLOAT"};

const char* const kTooLong = "too long once its names are inlined (bounds: 16384 terms, 4096 instructions)";

bool is_binary(int op) { return (op >= kOpAdd && op <= kOpPower) || op == kOpMin || op == kOpMax; }

// op on constants, by the same stack machine the cells run: a folded constant is the
// value they would have computed on the host.
double apply(int op, double a, double b) {
  const double constants[] = {a, b};
  const double* const kNoInputs = nullptr;  // the code reads only constants
  if (is_binary(op)) {
    const int code[] = {kOpConstant, 0, kOpConstant, 1, op, 0};
    return evaluate_rate(code, 3, constants, kNoInputs);
  }
  const int code[] = {kOpConstant, 0, op, 0};
  return evaluate_rate(code, 2, constants, kNoInputs);
}

// Where the parser is: the expression itself, or the body of a value or function being
// inlined (compiled by the same parser; a function's parameters bound to the arguments'
// trees). The chain of outer scopes finds a name defined through itself.
struct Scope {
  std::string owner;                 // "" for the expression itself, else the value or function
  std::map<std::string, int> bound;  // a function's parameters: the argument's node
  const Scope* outer = nullptr;
};

class Compiler {
 public:
  Compiler(const RateNames& names, std::vector<Node>& nodes) : names_(names), nodes_(nodes) {
    for (const auto& [name, text] : names.values) values_[upper_case(name)] = &text;
    for (const auto& [name, f] : names.functions) functions_[upper_case(name)] = &f;
  }

  // The tree of `text` in `scope`; -1 with error_ set on failure. `column_outside` is where an
  // error inside an inlined body is reported (the place of the name in the outer text).
  int parse(std::string_view text, const Scope& scope, int nesting, int column_outside) {
    Parser p{text, 0, scope, nesting, column_outside};
    const int root = expression(p);
    if (root >= 0 && (peek(p), p.pos < p.text.size())) fail(p, std::string("unexpected '") + p.text[p.pos] + "'");
    if (nodes_.size() >= kMaxNodes) error_ = {kTooLong, 1};  // the whole expression's fault, not a body's
    return error_.message.empty() ? root : -1;
  }

  RateError error_;

 private:
  struct Parser {
    std::string_view text;
    size_t pos;
    const Scope& scope;
    int nesting;
    int column_outside;  // > 0 inside an inlined body
  };

  void fail(const Parser& p, const std::string& message) {
    fail_at(p, p.column_outside > 0 ? p.column_outside : static_cast<int>(p.pos) + 1, message);
  }
  void fail_at(const Parser& p, int column, const std::string& message) {
    if (!error_.message.empty()) return;  // the first error is the one reported
    error_.message = p.scope.owner.empty() ? message : "in " + p.scope.owner + ": " + message;
    error_.column = column;
  }

  static char peek(Parser& p) {
    while (p.pos < p.text.size() && (p.text[p.pos] == ' ' || p.text[p.pos] == '\t')) ++p.pos;
    return p.pos < p.text.size() ? p.text[p.pos] : '\0';
  }
  static bool accept(Parser& p, std::string_view token) {
    peek(p);
    if (p.text.substr(p.pos, token.size()) != token) return false;
    p.pos += token.size();
    return true;
  }

  // Nodes are bounded too: the emitter walks the tree recursively.
  int add(Node n) {
    if (nodes_.size() >= kMaxNodes) return -1;
    nodes_.push_back(n);
    return static_cast<int>(nodes_.size()) - 1;
  }
  static constexpr size_t kMaxNodes = 4 * kRateMaxInstructions;  // kTooLong says both
  int constant(double v) { return add(Node{kOpConstant, 0, v}); }
  int unary(int op, int a) {
    if (a < 0) return -1;
    const Node& x = nodes_[static_cast<size_t>(a)];
    return x.op == kOpConstant ? constant(apply(op, x.value, 0)) : add(Node{op, 0, 0, a});
  }
  int binary(int op, int a, int b) {
    if (a < 0 || b < 0) return -1;
    const Node &x = nodes_[static_cast<size_t>(a)], &y = nodes_[static_cast<size_t>(b)];
    return x.op == kOpConstant && y.op == kOpConstant ? constant(apply(op, x.value, y.value))
                                                      : add(Node{op, 0, 0, a, b});
  }

  bool enter(Parser& p) {
    if (++p.nesting <= kRateMaxNesting) return true;
    fail(p, "nested more than " + std::to_string(kRateMaxNesting) + " deep");
    return false;
  }

  // Fortran's precedence: a sign applies to the whole term after it (-A*B**2 is
  // -(A*(B**2))), ** binds right to left; C's unary sign after an operator is accepted.
  int expression(Parser& p) {
    if (!enter(p)) return -1;
    int left;
    if (accept(p, "-")) {
      left = term(p);
      if (left >= 0) left = unary(kOpNegate, left);
    } else {
      accept(p, "+");
      left = term(p);
    }
    while (left >= 0) {
      const char c = peek(p);
      if (c != '+' && c != '-') break;
      ++p.pos;
      const int right = term(p);
      if (right < 0) return -1;
      left = binary(c == '+' ? kOpAdd : kOpSubtract, left, right);
    }
    --p.nesting;
    return left;
  }

  int term(Parser& p) {
    int left = factor(p);
    while (left >= 0) {
      const char c = peek(p);
      if (c != '*' && c != '/') break;
      if (c == '*' && p.pos + 1 < p.text.size() && p.text[p.pos + 1] == '*') break;  // ** is factor's
      ++p.pos;
      const int right = factor(p);
      if (right < 0) return -1;
      left = binary(c == '*' ? kOpMultiply : kOpDivide, left, right);
    }
    return left;
  }

  int factor(Parser& p) {
    if (!enter(p)) return -1;
    int base;
    if (accept(p, "-")) {  // C's sign after an operator (A*-B): binds tighter than * but not **
      base = factor(p);
      --p.nesting;
      return base < 0 ? -1 : unary(kOpNegate, base);
    }
    if (accept(p, "+")) {
      base = factor(p);
      --p.nesting;
      return base;
    }
    base = primary(p);
    if (base >= 0 && (accept(p, "**") || accept(p, "^"))) {
      const int exponent = factor(p);
      base = exponent < 0 ? -1 : binary(kOpPower, base, exponent);
    }
    --p.nesting;
    return base;
  }

  int primary(Parser& p) {
    const char c = peek(p);
    if (c == '(') {
      ++p.pos;
      const int inner = expression(p);
      if (inner >= 0 && !accept(p, ")")) return fail(p, "')' expected"), -1;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number(p);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name(p);
    if (c == '\0') return fail(p, "the expression ends where a value is expected"), -1;
    return fail(p, std::string("unexpected '") + c + "'"), -1;
  }

  int number(Parser& p) {
    const size_t start = p.pos;
    std::string digits;
    auto take_digits = [&] {
      while (p.pos < p.text.size() && std::isdigit(static_cast<unsigned char>(p.text[p.pos]))) digits += p.text[p.pos++];
    };
    take_digits();
    if (p.pos < p.text.size() && p.text[p.pos] == '.') digits += p.text[p.pos++], take_digits();
    if (digits == ".") return fail(p, "a number expected"), -1;
    if (p.pos < p.text.size() && std::string_view("eEdD").find(p.text[p.pos]) != std::string_view::npos) {
      size_t q = p.pos + 1;
      if (q < p.text.size() && (p.text[q] == '+' || p.text[q] == '-')) ++q;
      if (q < p.text.size() && std::isdigit(static_cast<unsigned char>(p.text[q]))) {
        digits += 'e';
        digits.append(p.text.substr(p.pos + 1, q - p.pos - 1));
        p.pos = q;
        take_digits();
      }
    }
    // A Fortran kind suffix (300._dp, 1.0_8): the value is read in double precision anyway.
    if (p.pos < p.text.size() && p.text[p.pos] == '_') {
      ++p.pos;
      while (p.pos < p.text.size() && (std::isalnum(static_cast<unsigned char>(p.text[p.pos])) || p.text[p.pos] == '_'))
        ++p.pos;
    }
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    if (end == digits.c_str() || *end != '\0' || !std::isfinite(v)) {
      p.pos = start;
      return fail(p, "'" + digits + "' is not a finite number"), -1;
    }
    return constant(v);
  }

  // A name: a bound parameter, an input, a named value, or a call.
  int name(Parser& p) {
    const size_t start = p.pos;
    while (p.pos < p.text.size() && (std::isalnum(static_cast<unsigned char>(p.text[p.pos])) || p.text[p.pos] == '_'))
      ++p.pos;
    const std::string id = upper_case(p.text.substr(start, p.pos - start));
    const int column = p.column_outside > 0 ? p.column_outside : static_cast<int>(start) + 1;
    if (peek(p) == '(') return call(p, id, column);
    const auto parameter = p.scope.bound.find(id);  // a body sees its own parameters only
    if (parameter != p.scope.bound.end()) return parameter->second;
    const int slot = names_.input ? names_.input(id, -1) : -1;
    if (slot >= 0) return add(Node{kOpInput, slot});
    const auto value = values_.find(id);
    if (value != values_.end()) return inline_body(p, id, *value->second, Scope{id, {}, &p.scope}, column);
    p.pos = start;
    return fail(p, "unknown name '" + id + "'"), -1;
  }

  int call(Parser& p, const std::string& id, int column) {
    ++p.pos;  // '('
    std::vector<int> args;
    std::vector<size_t> arg_starts;
    if (!accept(p, ")")) {
      do {
        peek(p);
        arg_starts.push_back(p.pos);
        const int a = expression(p);
        if (a < 0) return -1;
        args.push_back(a);
      } while (accept(p, ","));
      if (!accept(p, ")")) return fail(p, "')' or ',' expected in the arguments of " + id), -1;
    }
    const int n = static_cast<int>(args.size());
    for (const Intrinsic& f : kIntrinsics) {
      if (id != f.name) continue;
      if (f.arity == 1 && n != 1) return fail_at(p, column, id + " takes one argument, not " + std::to_string(n)), -1;
      if (f.arity == 2 && n < 2) return fail_at(p, column, id + " takes two or more arguments, not " + std::to_string(n)), -1;
      int r = f.arity == 1 ? unary(f.op, args[0]) : args[0];
      for (int i = 1; f.arity == 2 && i < n; ++i) r = binary(f.op, r, args[static_cast<size_t>(i)]);
      return r;
    }
    for (const char* identity : kIdentities)
      if (id == identity) {
        if (n != 1) return fail_at(p, column, id + " takes one argument, not " + std::to_string(n)), -1;
        return args[0];
      }
    // An indexed input (J(4)): the index a whole number written as such.
    if (n == 1 && names_.input) {
      const Node& a = nodes_[static_cast<size_t>(args[0])];
      if (a.op == kOpConstant && a.value >= 0 && a.value <= 1e9 && a.value == std::floor(a.value)) {
        const int slot = names_.input(id, static_cast<int>(a.value));
        if (slot >= 0) return add(Node{kOpInput, slot});
      }
    }
    const auto f = functions_.find(id);
    if (f == functions_.end()) return fail_at(p, column, "unknown function '" + id + "'"), -1;
    const RateFunction& fn = *f->second;
    if (fn.parameters.size() != args.size())
      return fail_at(p, column, id + " takes " + std::to_string(fn.parameters.size()) + " arguments, not " + std::to_string(n)), -1;
    Scope scope{id, {}, &p.scope};
    for (size_t i = 0; i < args.size(); ++i) scope.bound[upper_case(fn.parameters[i])] = args[i];
    return inline_body(p, id, fn.body, scope, column);
  }

  int inline_body(Parser& p, const std::string& id, const std::string& body, const Scope& scope, int column) {
    for (const Scope* s = &p.scope; s != nullptr; s = s->outer)
      if (s->owner == id) return fail(p, "'" + id + "' is defined through itself"), -1;
    if (!enter(p)) return -1;
    const int root = parse(body, scope, p.nesting, column);
    --p.nesting;
    if (root < 0 && error_.message.empty()) fail(p, "in " + id + ": no value");
    return root;
  }

  const RateNames& names_;
  std::vector<Node>& nodes_;
  std::map<std::string, const std::string*> values_;
  std::map<std::string, const RateFunction*> functions_;
};

// Postfix code of the tree at `root`, and the stack depth it needs.
struct Emitter {
  const std::vector<Node>& nodes;
  RateProgram& out;
  int depth(int n) const {
    const Node& x = nodes[static_cast<size_t>(n)];
    if (x.a < 0) return 1;
    if (x.b < 0) return depth(x.a);
    return std::max(depth(x.a), depth(x.b) + 1);
  }
  bool emit(int n) {
    if (out.length() >= kRateMaxInstructions) return false;
    const Node& x = nodes[static_cast<size_t>(n)];
    if (x.op == kOpConstant) {
      out.constants.push_back(x.value);
      return push(kOpConstant, static_cast<int>(out.constants.size()) - 1);
    }
    if (x.op == kOpInput) return push(kOpInput, x.arg);
    if (!emit(x.a) || (x.b >= 0 && !emit(x.b))) return false;
    return out.length() < kRateMaxInstructions && push(x.op, 0);
  }
  bool push(int op, int arg) {
    out.code.push_back(op);
    out.code.push_back(arg);
    return true;
  }
};

}  // namespace

std::string upper_case(std::string_view name) {
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

double RateProgram::constant_value() const {
  if (length() == 1 && code[0] == kOpConstant) return constants[static_cast<size_t>(code[1])];
  return std::numeric_limits<double>::quiet_NaN();
}

bool compile_rate_expression(const std::string& text, const RateNames& names, RateProgram& program, RateError& error) {
  std::vector<Node> nodes;
  Compiler compiler(names, nodes);
  const int root = compiler.parse(text, Scope{}, 0, 0);
  if (root < 0) {
    error = compiler.error_;
    return false;
  }
  RateProgram out;
  Emitter emitter{nodes, out};
  if (!emitter.emit(root)) {
    error = {kTooLong, 1};
    return false;
  }
  if (emitter.depth(root) > kRateStackDepth) {
    error = {"nested too deeply to evaluate (a stack of more than " + std::to_string(kRateStackDepth) + " values)", 1};
    return false;
  }
  program = std::move(out);
  return true;
}

}  // namespace opsplit::chem
