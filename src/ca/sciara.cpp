#include "core/device_array.hpp"
#include "ca/sciara.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "core/text_file.hpp"
#include "core/error.hpp"
#include "core/exact_sum.hpp"
#include "core/hash.hpp"

namespace opsplit::ca {
namespace {

enum Models { kFv2 = 1, kFv3 = 2, kBoth = 3 };
struct NamedParameter {
  const char* name;
  double LavaParameters::*member;
  int models;
};
constexpr NamedParameter kParameters[] = {
    {"Pclock", &LavaParameters::Pclock, kFv2},       {"Pc", &LavaParameters::Pc, kBoth},
    {"PTsol", &LavaParameters::PTsol, kBoth},        {"PTvent", &LavaParameters::PTvent, kBoth},
    {"Pr_Tsol", &LavaParameters::Pr_Tsol, kFv2},     {"Pr_Tvent", &LavaParameters::Pr_Tvent, kFv2},
    {"Pdp_Tsol", &LavaParameters::Pdp_Tsol, kFv3},   {"Pdp_Tvent", &LavaParameters::Pdp_Tvent, kFv3},
    {"Phc_Tsol", &LavaParameters::Phc_Tsol, kBoth},  {"Phc_Tvent", &LavaParameters::Phc_Tvent, kBoth},
    {"Pcool", &LavaParameters::Pcool, kBoth},        {"Prho", &LavaParameters::Prho, kBoth},
    {"Pepsilon", &LavaParameters::Pepsilon, kBoth},  {"Psigma", &LavaParameters::Psigma, kBoth},
    {"Pcv", &LavaParameters::Pcv, kBoth},            {"Ptmax", &LavaParameters::Ptmax, kFv3},
    {"Pr", &LavaParameters::Pr, kFv3},               {"Pg", &LavaParameters::Pg, kFv3}};

int model_bit(bool fv3) { return fv3 ? kFv3 : kFv2; }
const char* model_name(bool fv3) { return fv3 ? "SCIARA-fv3" : "SCIARA-fv2"; }

constexpr const char* kSubstates[] = {"altitude", "thickness",  "temperature", "solidified",
                                      "lost",     "momentum_x", "momentum_y"};

// Whitespace-separated tokens with the line each starts on.
struct Token {
  std::string text;
  int line;
};
std::vector<Token> tokens_of(const std::string& text) {
  std::vector<Token> out;
  int line = 1;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\n') ++line;
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    out.push_back({text.substr(i, j - i), line});
    i = j;
  }
  return out;
}

bool parse_number(const std::string& s, double& value) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  value = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && errno != ERANGE && std::isfinite(value);
}

double number_at(const Token& t, const std::string& path, const char* what) {
  double v = 0.0;
  if (!parse_number(t.text, v))
    fail(OPSPLIT_ERROR_PARSE, path + ":" + std::to_string(t.line) + ": \"" + t.text + "\" is not a number (" + what + ")");
  return v;
}

int64_t integer_at(const Token& t, const std::string& path, const char* what) {
  const double v = number_at(t, path, what);
  if (v != std::floor(v) || std::fabs(v) > 9.0e15)
    fail(OPSPLIT_ERROR_PARSE, path + ":" + std::to_string(t.line) + ": \"" + t.text + "\" is not an integer (" + what + ")");
  return static_cast<int64_t>(v);
}

bool key_is(const std::string& a, const char* b) {
  if (a.size() != std::strlen(b)) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

std::string shape(int64_t rows, int64_t cols) { return num(rows) + " x " + num(cols); }

// The model's parameter called `name`, or nullptr.
double* find_lava_parameter(LavaParameters& p, const std::string& name, bool fv3) {
  for (const auto& q : kParameters)
    if (name == q.name && (q.models & model_bit(fv3))) return &(p.*q.member);
  return nullptr;
}

}  // namespace

LavaParameters lava_default_parameters(bool fv3) {
  LavaParameters p;
  if (fv3) p.Phc_Tsol = 23.066, p.Phc_Tvent = 1.014, p.Pcool = 1.507;  // the thesis' table
  return p;
}

double& lava_parameter(LavaParameters& p, const std::string& name, bool fv3) {
  if (double* value = find_lava_parameter(p, name, fv3)) return *value;
  std::string known;
  for (const auto& q : kParameters)
    if (q.models & model_bit(fv3)) known += std::string(known.empty() ? "" : ", ") + q.name;
  fail_argument("\"" + name + "\" is not a " + model_name(fv3) + " parameter (" + known + ")");
}

void check_lava_parameter(const std::string& name, double value) {
  if (!std::isfinite(value) || value <= 0.0)
    fail_argument(name + "=" + num(value) + ": it must be finite and > 0");
  if ((name == "Pr_Tsol" || name == "Pr_Tvent" || name == "Pr") && value > 1.0)
    fail_argument(name + "=" + num(value) + ": a relaxation rate is at most 1 (the share of a cell's excess moved in a step)");
  if ((name == "Pdp_Tsol" || name == "Pdp_Tvent") && value >= 1.0)
    fail_argument(name + "=" + num(value) + ": a dissipation is below 1 (the share of a flow's speed lost in a step)");
}

namespace {
// A law log-linear in T through its values at PTsol and PTvent, as 2^(first + slope T)
// (base 2 here, the same law as the dataset's base 10).
void log2_linear(double at_sol, double at_vent, const LavaParameters& p, double& first, double& slope) {
  if (!(p.PTvent > p.PTsol))
    fail_argument("PTvent=" + num(p.PTvent) + " must exceed PTsol=" + num(p.PTsol));
  slope = (std::log2(at_vent) - std::log2(at_sol)) / (p.PTvent - p.PTsol);
  first = std::log2(at_sol) - slope * p.PTsol;
}
}  // namespace

LavaConstants lava_constants(const LavaParameters& p) {
  LavaConstants c{};
  log2_linear(p.Pr_Tsol, p.Pr_Tvent, p, c.pr_log2_0, c.pr_log2_slope);
  log2_linear(p.Phc_Tsol, p.Phc_Tvent, p, c.hc_log2_0, c.hc_log2_slope);
  c.cell = p.Pc;
  c.cooling = 3.0 * p.Pepsilon * p.Psigma * p.Pclock * p.Pcool / (p.Prho * p.Pcv * p.Pc * p.Pc);
  c.t_sol = p.PTsol;
  return c;
}

Lava3Constants lava3_constants(const LavaParameters& p) {
  Lava3Constants c{};
  log2_linear(p.Pdp_Tsol, p.Pdp_Tvent, p, c.dp_log2_0, c.dp_log2_slope);
  log2_linear(p.Phc_Tsol, p.Phc_Tvent, p, c.hc_log2_0, c.hc_log2_slope);
  c.cell = p.Pc;
  c.gravity = p.Pg;
  c.t_max = p.Ptmax;
  c.relaxation = p.Pr;
  c.cooling_rate = 3.0 * p.Pepsilon * p.Psigma * p.Pcool / (p.Prho * p.Pcv * p.Pc * p.Pc);
  c.t_sol = p.PTsol;
  return c;
}

LavaParameters read_lava_parameters(const std::string& path, int64_t rows, int64_t cols, LavaParameters p, bool fv3,
                                    int64_t* nsteps) {
  const std::vector<Token> t = tokens_of(read_text_file(path));
  if (t.size() % 2 != 0)
    fail(OPSPLIT_ERROR_PARSE, path + ":" + std::to_string(t.back().line) + ": \"" + t.back().text + "\" has no value");
  *nsteps = -1;
  for (size_t i = 0; i < t.size(); i += 2) {
    const std::string& key = t[i].text;
    const std::string where = path + ":" + std::to_string(t[i].line) + ": ";
    if (key == "ncols" || key == "nrows") {
      const int64_t v = integer_at(t[i + 1], path, key.c_str());
      if (v != (key == "ncols" ? cols : rows))
        fail_argument(where + key + " " + num(v) + " is not the grid's (" + shape(rows, cols) + ")");
    } else if (key == "nsteps") {
      *nsteps = integer_at(t[i + 1], path, "nsteps");
    } else {
      double* target = find_lava_parameter(p, key, fv3);
      if (target == nullptr) fail(OPSPLIT_ERROR_PARSE, where + "\"" + key + "\" is not a " + model_name(fv3) + " parameter");
      const double v = number_at(t[i + 1], path, key.c_str());
      try {
        check_lava_parameter(key, v);
      } catch (const Error& e) {
        fail(OPSPLIT_ERROR_PARSE, where + e.what());
      }
      *target = v;
    }
  }
  return p;
}

GridFile read_grid_file(const std::string& path, int64_t rows, int64_t cols) {
  const std::vector<Token> t = tokens_of(read_text_file(path));
  GridFile g;
  size_t first = 0;
  bool has_nodata = false;
  double nodata = 0.0;
  if (!t.empty() && std::isalpha(static_cast<unsigned char>(t[0].text[0]))) {  // an ESRI ASCII header
    int64_t ncols = -1, nrows = -1;
    while (first + 1 < t.size() && std::isalpha(static_cast<unsigned char>(t[first].text[0]))) {
      const std::string& key = t[first].text;
      const Token& value = t[first + 1];
      if (key_is(key, "ncols")) ncols = integer_at(value, path, "ncols");
      else if (key_is(key, "nrows")) nrows = integer_at(value, path, "nrows");
      else if (key_is(key, "cellsize")) g.cell_size = number_at(value, path, "cellsize");
      else if (key_is(key, "nodata_value")) nodata = number_at(value, path, "NODATA_value"), has_nodata = true;
      else if (key_is(key, "xllcorner") || key_is(key, "yllcorner") || key_is(key, "xllcenter") || key_is(key, "yllcenter"))
        number_at(value, path, key.c_str());
      else
        fail(OPSPLIT_ERROR_PARSE, path + ":" + std::to_string(t[first].line) + ": \"" + key +
                                      "\" is not a key of an ESRI ASCII grid header");
      first += 2;
    }
    if (ncols < 0 || nrows < 0) fail(OPSPLIT_ERROR_PARSE, path + ": the header names no ncols or nrows");
    if (ncols != cols || nrows != rows)
      fail_argument(path + ": a " + shape(nrows, ncols) + " grid, not the " + shape(rows, cols) + " one it is loaded into");
  }
  const size_t n = static_cast<size_t>(rows * cols);
  if (t.size() - first != n)
    fail(OPSPLIT_ERROR_PARSE, path + ": " + num(static_cast<long long>(t.size() - first)) + " values, not rows x cols = " +
                                  shape(rows, cols) + " = " + num(static_cast<long long>(n)));
  g.values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    g.values[i] = number_at(t[first + i], path, "a cell value");
    if (has_nodata && g.values[i] == nodata)
      fail_argument(path + ":" + std::to_string(t[first + i].line) + ": cell (" + num(static_cast<long long>(i / cols)) +
                    ", " + num(static_cast<long long>(i % cols)) + ") is NODATA; opsplit needs every cell's value");
  }
  return g;
}

std::vector<LavaVent> read_lava_vents(const std::string& vents_path, const std::string& rates_path, int64_t rows,
                                      int64_t cols) {
  const GridFile map = read_grid_file(vents_path, rows, cols);
  std::map<int64_t, LavaVent> vents;  // by id
  for (size_t i = 0; i < map.values.size(); ++i) {
    const double v = map.values[i];
    if (v == 0.0) continue;
    if (v < 0.0 || v != std::floor(v) || v > 1.0e9)
      fail(OPSPLIT_ERROR_PARSE, vents_path + ": cell " + num(static_cast<long long>(i)) + " holds " + num(v) +
                                    ", not a vent id (0 or a positive integer up to 10^9)");
    const int64_t id = static_cast<int64_t>(v);
    if (vents.count(id)) fail(OPSPLIT_ERROR_PARSE, vents_path + ": vent " + num(id) + " is on more than one cell");
    vents[id] = LavaVent{static_cast<int64_t>(i) / cols, static_cast<int64_t>(i) % cols, {}, 0.0};
  }
  const std::vector<Token> t = tokens_of(read_text_file(rates_path));
  double slot = 0.0;
  std::map<int64_t, bool> seen;
  bool ended = false;
  for (size_t i = 0; i < t.size() && !ended;) {
    const std::string where = rates_path + ":" + std::to_string(t[i].line) + ": ";
    if (t[i].text == "[TIME]" && i + 1 < t.size()) {
      slot = number_at(t[i + 1], rates_path, "[TIME]");
      if (!(slot > 0.0)) fail(OPSPLIT_ERROR_PARSE, where + "[TIME] must be > 0 s");
      i += 2;
    } else if (t[i].text == "[VENT_ID]" && i + 2 < t.size() && t[i + 2].text == "[EMISSION_RATE]") {
      const int64_t id = integer_at(t[i + 1], rates_path, "[VENT_ID]");
      if (!vents.count(id)) fail(OPSPLIT_ERROR_PARSE, where + "vent " + num(id) + " is not in " + vents_path);
      if (seen[id]) fail(OPSPLIT_ERROR_PARSE, where + "vent " + num(id) + " has two emission schedules");
      seen[id] = true;
      i += 3;
      for (; i < t.size() && t[i].text[0] != '['; ++i) {
        const double q = number_at(t[i], rates_path, "an emission rate");
        if (q < 0.0) fail(OPSPLIT_ERROR_PARSE, rates_path + ":" + std::to_string(t[i].line) + ": a negative emission rate");
        vents[id].rates.push_back(q);
      }
    } else if (t[i].text == "[END]") {
      ended = true;
    } else {
      fail(OPSPLIT_ERROR_PARSE, where + "\"" + t[i].text + "\" where [TIME], [VENT_ID] <id> [EMISSION_RATE] or [END] belongs");
    }
  }
  if (!ended) fail(OPSPLIT_ERROR_PARSE, rates_path + ": no [END]");
  if (slot == 0.0) fail(OPSPLIT_ERROR_PARSE, rates_path + ": no [TIME] <slot length in s>");
  std::vector<LavaVent> out;
  for (auto& [id, v] : vents) {
    if (!seen[id]) fail(OPSPLIT_ERROR_PARSE, rates_path + ": no emission schedule for vent " + num(id));
    v.slot_seconds = slot;
    out.push_back(v);
  }
  return out;
}

LavaBox LavaBox::grown(int64_t by, int64_t rows, int64_t cols) const {
  if (empty()) return *this;
  return {std::max<int64_t>(0, r0 - by), std::min(rows - 1, r1 + by), std::max<int64_t>(0, c0 - by),
          std::min(cols - 1, c1 + by)};
}

void LavaBox::include(int64_t r, int64_t c) {
  if (empty()) {
    *this = {r, r, c, c};
    return;
  }
  r0 = std::min(r0, r), r1 = std::max(r1, r), c0 = std::min(c0, c), c1 = std::max(c1, c);
}

LavaBox LavaBox::clipped(const LavaBox& to) const {
  const LavaBox b{std::max(r0, to.r0), std::min(r1, to.r1), std::max(c0, to.c0), std::min(c1, to.c1)};
  return b.empty() || b.c1 < b.c0 ? LavaBox{} : b;
}

void LavaBox::include(const LavaBox& b) {
  if (b.empty()) return;
  include(b.r0, b.c0);
  include(b.r1, b.c1);
}

LavaSubstate lava_substate(const std::string& name, bool fv3) {
  const size_t known = fv3 ? std::size(kSubstates) : std::size(kSubstates) - 2;  // momentum: fv3's
  for (size_t i = 0; i < known; ++i)
    if (name == kSubstates[i]) return static_cast<LavaSubstate>(i);
  std::string names;
  for (size_t i = 0; i < known; ++i) names += std::string(i ? ", " : "") + kSubstates[i];
  fail_argument("\"" + name + "\" is not a " + model_name(fv3) + " substate (" + names + ")");
}

// ---- LavaGrid -------------------------------------------------------------------------

namespace {
size_t plane_bytes(int64_t rows, int64_t cols) { return static_cast<size_t>(rows * cols) * sizeof(double); }
}  // namespace

LavaGrid::LavaGrid(Context& ctx, int64_t rows, int64_t cols, bool fv3)
    : ctx_(ctx),
      backend_(make_lava_backend(ctx)),
      rows_(rows),
      cols_(cols),
      shape_(lava_whole_grid(rows, cols)),
      own_{0, rows - 1, 0, cols - 1},
      fv3_(fv3),
      params_(lava_default_parameters(fv3)),
      solidified_(ctx, plane_bytes(rows, cols)),
      lost_(ctx, plane_bytes(rows, cols)) {
  for (int b = 0; b < (paired() ? 2 : 1); ++b) {
    altitude_[b] = Buffer(ctx, plane_bytes(rows, cols));
    thickness_[b] = Buffer(ctx, plane_bytes(rows, cols));
    temperature_[b] = Buffer(ctx, plane_bytes(rows, cols));
    if (fv3) momentum_x_[b] = Buffer(ctx, plane_bytes(rows, cols)), momentum_y_[b] = Buffer(ctx, plane_bytes(rows, cols));
  }
  if (fv3) motion_ = Buffer(ctx, kLava3MotionValues * plane_bytes(rows, cols));
  if (!paired()) {
    flows_ = Buffer(ctx, kLavaNeighbours * plane_bytes(rows, cols));
    previous_temperature_ = Buffer(ctx, plane_bytes(rows, cols));
  }
}

LavaGrid::~LavaGrid() = default;

Buffer& LavaGrid::buffer(LavaSubstate s, int buffer) {
  const int b = buffer < 0 ? current_ : buffer;
  switch (s) {
    case LavaSubstate::altitude: return altitude_[b];
    case LavaSubstate::thickness: return thickness_[b];
    case LavaSubstate::temperature: return temperature_[b];
    case LavaSubstate::solidified: return solidified_;
    case LavaSubstate::lost: return lost_;
    case LavaSubstate::momentum_x: return momentum_x_[b];
    case LavaSubstate::momentum_y: return momentum_y_[b];
  }
  return lost_;  // not reached: every substate is named above
}

LavaPlanes LavaGrid::planes() const {
  LavaPlanes p{};
  for (int b = 0; b < 2; ++b)
    p.altitude[b] = altitude_[b].as<double>(), p.thickness[b] = thickness_[b].as<double>(),
    p.temperature[b] = temperature_[b].as<double>(), p.momentum_x[b] = momentum_x_[b].as<double>(),
    p.momentum_y[b] = momentum_y_[b].as<double>();
  p.motion = motion_.as<double>();
  p.solidified = solidified_.as<double>(), p.lost = lost_.as<double>();
  p.rows = rows_, p.cols = cols_;
  return p;
}

void LavaGrid::download(LavaSubstate s, double* host) const { buffer(s).copy_out(host, plane_bytes(rows_, cols_)); }

LavaValueBlock LavaGrid::value_block(LavaSubstate s, bool column_major) const {
  const bool signed_values = s == LavaSubstate::altitude || s == LavaSubstate::momentum_x || s == LavaSubstate::momentum_y;
  const LavaValues kind = s == LavaSubstate::thickness ? LavaValues::no_lava_on_sink
                          : signed_values              ? LavaValues::any
                                                       : LavaValues::non_negative;
  return LavaValueBlock{shape_, own_.r0, own_.c0, block_rows(), block_cols(), column_major, kind};
}

void LavaGrid::require_writable(LavaSubstate s) const {
  if (s == LavaSubstate::lost) fail_argument("\"lost\" is read-only: it counts the lava that left the grid");
}

LavaBox LavaGrid::accepted(const std::string& name, const LavaValueBlock& b, const LavaValueCheck& found) const {
  if (found.first_bad < 0) return found.positive;
  const char* why = "";
  switch (b.fault(found.first_bad, found.bad_value)) {
    case LavaValueFault::not_finite: why = "every value must be finite"; break;
    case LavaValueFault::negative: why = "it cannot be negative"; break;
    case LavaValueFault::lava_on_sink:
      why = "the outermost ring is the sink where lava leaves the grid, and holds none";
      break;
    case LavaValueFault::none: break;  // not reached: the check found a fault there
  }
  fail_argument(name + " at (" + num(found.first_bad / b.cols) + ", " + num(found.first_bad % b.cols) + ") is " +
                num(found.bad_value) + ": " + why);
}

void LavaGrid::store(LavaSubstate s, const LavaBox& lava, const std::function<void()>& write) {
  synchronize();
  write();
  mirror(s);
  if (s == LavaSubstate::thickness) reset_region(lava);
}

// The host forms build the storage plane on the host (a block's ghosts 0: each step
// brings them from the neighbours first) and copy it to the backend at once.
void LavaGrid::store_from_host(LavaSubstate s, const LavaValueBlock& b, const double* values, const LavaBox& lava) {
  std::vector<double> stored(static_cast<size_t>(rows_ * cols_));
  lava_store_values_cpu(b, values, stored.data(), ctx_.threads());
  store(s, lava, [&] { buffer(s).copy_in(stored.data(), plane_bytes(rows_, cols_)); });
}

void LavaGrid::set_substate(const std::string& name, const double* values, bool column_major) {
  const LavaSubstate s = lava_substate(name, fv3_);
  if (values == nullptr) fail_argument("values is NULL");
  check_host_array(ctx_, values, "values");
  require_writable(s);
  const LavaValueBlock b = value_block(s, column_major);
  store_from_host(s, b, values, accepted(name, b, lava_check_values_cpu(b, values, ctx_.threads())));
}

void LavaGrid::get_substate(const std::string& name, double* values, bool column_major) const {
  const LavaSubstate s = lava_substate(name, fv3_);
  if (values == nullptr) fail_argument("values is NULL");
  check_host_array(ctx_, values, "values");
  std::vector<double> stored(static_cast<size_t>(rows_ * cols_));
  download(s, stored.data());
  lava_load_values_cpu(value_block(s, column_major), stored.data(), values, ctx_.threads());
}

// The device forms check and store on the GPU (the backend's kernels), with no copy
// through the host.
void LavaGrid::set_substate_device(const std::string& name, const double* values, bool column_major) {
  const LavaSubstate s = lava_substate(name, fv3_);
  const LavaValueBlock b = value_block(s, column_major);
  check_device_array(ctx_, values, plane_bytes(b.rows, b.cols), alignof(double), "values",
                     "opsplit_ca_set_substate");
  require_writable(s);
  const LavaBox lava = accepted(name, b, backend_->check_values(b, values));
  store(s, lava, [&] {
    if (b.cells() != rows_ * cols_) buffer(s).zero();  // a block's ghosts, as store_from_host leaves them
    backend_->store_values(b, values, plane(s));
  });
}

void LavaGrid::get_substate_device(const std::string& name, double* values, bool column_major) const {
  const LavaSubstate s = lava_substate(name, fv3_);
  const LavaValueBlock b = value_block(s, column_major);
  check_device_array(ctx_, values, plane_bytes(b.rows, b.cols), alignof(double), "values",
                     "opsplit_ca_get_substate");
  backend_->load_values(b, plane(s), values);
}

void LavaGrid::load_substate(const std::string& name, const std::string& path, const Agree& agree) {
  LavaSubstate s{};
  std::vector<double> block;
  LavaBox lava;
  agree(attempt([&] {
    s = lava_substate(name, fv3_);
    require_writable(s);
    const GridFile g = read_grid_file(path, shape_.global_rows, shape_.global_cols);
    if (g.cell_size != 0.0 && g.cell_size != params_.Pc)
      fail_argument(path + ": cellsize " + num(g.cell_size) + " is not the grid's cell side Pc=" + num(params_.Pc) +
                    " (set the parameter \"Pc\" first)");
    // The block's part of the whole grid's file.
    const int64_t first_row = shape_.row0 + own_.r0, first_col = shape_.col0 + own_.c0;
    block.resize(static_cast<size_t>(block_rows() * block_cols()));
    for (int64_t r = 0; r < block_rows(); ++r)
      std::memcpy(&block[static_cast<size_t>(r * block_cols())],
                  &g.values[static_cast<size_t>((first_row + r) * shape_.global_cols + first_col)],
                  static_cast<size_t>(block_cols()) * sizeof(double));
    const LavaValueBlock b = value_block(s, false);
    lava = accepted(name, b, lava_check_values_cpu(b, block.data(), ctx_.threads()));
  }));
  store_from_host(s, value_block(s, false), block.data(), lava);
}

// After thickness was set (`lava` the box of its cells holding lava): the region starts
// again from those cells and the block's vents. fv2 unpaired: the flows,
// scratch of a step, are cleared so that no cell outside the region holds any (where
// none flows, a cell's kept temperature is never read but multiplied by a zero flow).
void LavaGrid::reset_region(const LavaBox& lava) {
  box_ = lava;
  box_.include(vent_box_);
  // Steps write every cell of their region into the other buffer of each pair, so both
  // hold the same outside it only while the region grows: a new, smaller region needs
  // them the same everywhere (thickness, just set, already is).
  for (LavaSubstate s : {LavaSubstate::altitude, LavaSubstate::temperature, LavaSubstate::momentum_x,
                         LavaSubstate::momentum_y})
    mirror(s);
  set_device_state();
  flows_.zero();
}

// A paired substate's current buffer copied into the other (nothing for a single one).
void LavaGrid::mirror(LavaSubstate s) {
  const bool single = s == LavaSubstate::solidified || s == LavaSubstate::lost;
  const bool momentum = s == LavaSubstate::momentum_x || s == LavaSubstate::momentum_y;
  if (!paired() || single || (momentum && !fv3_)) return;
  buffer(s, current_ ^ 1).copy_from(buffer(s));
}

// The host's box, and fv3's time, steps and emitted thickness, to the backend (the
// host's are current: every call that changes the grid waits for the steps first).
void LavaGrid::set_device_state() { backend_->set_state(LavaState{box_, time_, steps_, emitted_, false}); }

void LavaGrid::set_parameter(const std::string& name, double value) {
  LavaParameters p = params_;
  double& slot = lava_parameter(p, name, fv3_);  // an unknown name first
  check_lava_parameter(name, value);
  if (name == "Pclock" && steps_ > 0 && value != params_.Pclock)
    fail_argument("Pclock cannot change after the first step (the clock counts steps of Pclock seconds)");
  slot = value;
  params_ = p;
}

double LavaGrid::get_parameter(const std::string& name) const {
  LavaParameters p = params_;
  return lava_parameter(p, name, fv3_);
}

void LavaGrid::load_parameters(const std::string& path, const Agree& agree) {
  LavaParameters p;
  agree(attempt([&] {
    int64_t nsteps = 0;
    p = read_lava_parameters(path, shape_.global_rows, shape_.global_cols, params_, fv3_, &nsteps);
    if (steps_ > 0 && p.Pclock != params_.Pclock)
      fail_argument(path + ": Pclock cannot change after the first step (the clock counts steps of Pclock seconds)");
  }));
  params_ = p;
}

void LavaGrid::check_vent_cell(int64_t row, int64_t col) const {
  const int64_t rows = shape_.global_rows, cols = shape_.global_cols;
  if (row < 1 || row >= rows - 1 || col < 1 || col >= cols - 1)
    fail_argument("a vent at (" + num(row) + ", " + num(col) + ") is not inside the " + shape(rows, cols) +
                  " grid's outermost ring (that ring is the sink where lava leaves the grid)");
}

void LavaGrid::check_vent(int64_t row, int64_t col, const double* rates, int64_t nslots, double slot_seconds,
                          int64_t vents_before) const {
  check_vent_cell(row, col);
  if (nslots < 1 || nslots > kLavaMaxSlots)
    fail_argument("nslots=" + num(nslots) + " is not in [1, " + num(kLavaMaxSlots) + "]");
  if (vents_before >= kLavaMaxVents) fail_argument("a grid takes at most " + num(kLavaMaxVents) + " vents");
  if (rates == nullptr) fail_argument("rates is NULL");
  if (!std::isfinite(slot_seconds) || slot_seconds <= 0.0)
    fail_argument("slot_seconds=" + num(slot_seconds) + " must be finite and > 0");
  for (int64_t s = 0; s < nslots; ++s)
    if (!std::isfinite(rates[s]) || rates[s] < 0.0)
      fail_argument("rates[" + num(s) + "]=" + num(rates[s]) + " must be finite and >= 0 (m^3/s)");
}

int64_t LavaGrid::add_vent(int64_t row, int64_t col, const double* rates, int64_t nslots, double slot_seconds) {
  check_vent(row, col, rates, nslots, slot_seconds, vents());
  synchronize();
  vents_.push_back({row, col, std::vector<double>(rates, rates + nslots), slot_seconds});
  try {
    set_backend_vents();  // may run out of memory: the grid then keeps the vents it had
  } catch (...) {
    vents_.pop_back();
    throw;
  }
  const int64_t r = row - shape_.row0, c = col - shape_.col0;  // in the storage
  if (r >= own_.r0 && r <= own_.r1 && c >= own_.c0 && c <= own_.c1) box_.include(r, c), vent_box_.include(r, c);
  set_device_state();
  return static_cast<int64_t>(vents_.size()) - 1;
}

// Every schedule again, its rates in one array, to the backend.
void LavaGrid::set_backend_vents() {
  std::vector<double> rates;
  for (const LavaVent& v : vents_) rates.insert(rates.end(), v.rates.begin(), v.rates.end());
  std::vector<LavaVentSchedule> schedules = host_schedules();
  size_t offset = 0;
  for (LavaVentSchedule& v : schedules) v.rates = rates.data() + offset, offset += static_cast<size_t>(v.nslots);
  backend_->set_vents(std::move(schedules), std::move(rates));
}

void LavaGrid::load_vents(const std::string& vents_path, const std::string& rates_path, const Agree& agree) {
  std::vector<LavaVent> vents;
  agree(attempt([&] {
    vents = read_lava_vents(vents_path, rates_path, shape_.global_rows, shape_.global_cols);
    for (const LavaVent& v : vents) check_vent_cell(v.row, v.col);
    if (vents.size() + vents_.size() > static_cast<size_t>(kLavaMaxVents))
      fail_argument(vents_path + ": " + num(static_cast<long long>(vents.size())) + " vents; a grid takes at most " +
                    num(kLavaMaxVents));
    // Every vent as add_vent checks it, before any is added: all or none.
    for (size_t i = 0; i < vents.size(); ++i)
      check_vent(vents[i].row, vents[i].col, vents[i].rates.data(), static_cast<int64_t>(vents[i].rates.size()),
                 vents[i].slot_seconds, static_cast<int64_t>(vents_.size() + i));
  }));
  for (const LavaVent& v : vents)
    add_vent(v.row, v.col, v.rates.data(), static_cast<int64_t>(v.rates.size()), v.slot_seconds);
}

void LavaGrid::synchronize() { take_backend_state(); }

bool LavaGrid::take_backend_state() {
  device_state_current();
  LavaState d;
  if (!backend_->read_state(d)) return false;
  box_ = d.box;
  if (fv3_ && !distributed()) {  // the device's clock, steps and emission (a block's host keeps its own); the
                                 // substates in the buffer the steps reached
    current_ ^= static_cast<int>((d.steps - steps_) & 1);
    steps_ = d.steps, time_ = d.time, emitted_ = d.emitted;
  }
  return d.stalled;
}

void LavaGrid::after_device_failure() noexcept {
  try {
    set_device_state();
  } catch (...) {  // a device that fails again: the next call that changes the grid says so
  }
}

namespace {
[[noreturn]] void fail_stalled(double time) {
  fail(OPSPLIT_ERROR_NUMERICAL, "the clock at time " + num(time) +
                                    " s is too short to advance the time (velocities far past any lava's: is a "
                                    "momentum out of scale?)");
}
}  // namespace

LavaVents LavaGrid::vents_on_backend() const {
  LavaVents e{nullptr, static_cast<int>(vents_.size()), params_.Pclock, params_.Pc * params_.Pc, params_.PTvent};
  e.vents = backend_->schedules();
  return e;
}

LavaVents LavaGrid::vents_on_host(const std::vector<LavaVentSchedule>& schedules) const {
  LavaVents e = vents_on_backend();
  e.vents = schedules.data();
  return e;
}

// Every vent's schedule, in the global order: the block's vents at their storage index,
// the others at -1 (they emit on their own process; every process counts them all).
std::vector<LavaVentSchedule> LavaGrid::host_schedules() const {
  std::vector<LavaVentSchedule> host(vents_.size());
  for (size_t v = 0; v < vents_.size(); ++v) {
    const int64_t r = vents_[v].row - shape_.row0, c = vents_[v].col - shape_.col0;
    const bool own = r >= own_.r0 && r <= own_.r1 && c >= own_.c0 && c <= own_.c1;
    host[v] = {own ? r * cols_ + c : -1, static_cast<int64_t>(vents_[v].rates.size()), vents_[v].slot_seconds,
               vents_[v].rates.data()};
  }
  return host;
}

void LavaGrid::advance(int64_t n, double until) {
  if (fv3_) return advance_fv3(n, until);
  const LavaConstants k = lava_constants(params_);
  const LavaPlanes g = planes();
  const std::vector<LavaVentSchedule> host = host_schedules();
  const LavaVents on_host = vents_on_host(host), vents = vents_on_backend();
  // The thickness the vents emit at a step, summed on the host by the function the
  // backends emit with.
  auto count_emission = [&](int64_t step) {
    for (int v = 0; v < on_host.count; ++v)
      emitted_.add(lava_vent_thickness(on_host, v, lava_step_start(on_host, step), on_host.pclock));
  };
  LavaLaunches* launches = backend_->launches();
  if (launches != nullptr && !distributed()) {  // one process on CUDA: several steps a launch
    for (int64_t done = 0; done < n;) {
      const int m = launches->launch(g, current_, vents, vent_box_, steps_, n - done, all_cells_, k);
      for (int s = 0; s < m; ++s) count_emission(steps_ + s);
      steps_ += m, done += m, current_ ^= m & 1;
    }
    return;
  }
  // A step at a time. Distributed, the block's vents emit, and the exchange carries what
  // they emitted to the neighbours' ghosts; the outflows are the block's and its first
  // ghost band's, the updates the block's.
  device_state_current();
  const LavaStepPlace at = step_place();
  for (int64_t s = 0; s < n; ++s) {
    count_emission(steps_);
    backend_->emit(g, current_, vents, steps_);
    if (distributed()) exchange_ghosts(current_);
    if (backend_->step(g, at, current_, k, box_)) current_ ^= 1;  // the CPU's fv2 steps in place
    ++steps_;
  }
}

void LavaGrid::advance_fv3(int64_t n, double until) {
  const Lava3Constants k = lava3_constants(params_);
  const LavaPlanes g = planes();
  const LavaVents vents = vents_on_backend();
  LavaLaunches* launches = backend_->launches();
  if (launches != nullptr && !distributed()) {  // one process on CUDA: several steps a launch
    launches->launch_until(g, current_, steps_, vents, vent_box_, n, until, all_cells_, k);
    if (take_backend_state()) {
      set_device_state();  // the device's flag cleared for the next call
      fail_stalled(time_);
    }
    return;
  }
  // A step at a time: the motions of the cells holding lava (all inside the box) and
  // the shortest time; the clock; flow mode over the box grown by one (lava moves at
  // most a cell a step); the step's emission counted. Distributed: first the ghosts;
  // the motions of the block and its first ghost band; the shortest time of all
  // processes; the block's flows.
  device_state_current();
  const std::vector<LavaVentSchedule> host = host_schedules();
  const LavaVents on_host = vents_on_host(host);
  const LavaStepPlace at = step_place();
  for (int64_t s = 0; s < n && time_ < until; ++s) {
    bool last = false;
    double shortest = HUGE_VAL;
    if (distributed()) exchange_ghosts(current_);
    const std::exception_ptr failed = attempt([&] { shortest = backend_->motions(g, at, current_, k, box_); });
    shortest = group_or_alone().settle_min(failed, shortest, "the lava step's clock");
    const double clock = lava3_clock(shortest, time_, until, k, &last);
    if (lava3_stalled(time_, clock, last)) fail_stalled(time_);  // nothing changed but the motions
    backend_->flows(g, at, current_, clock, time_, vents, vent_box_, k, box_);
    lava3_count_emission(on_host, time_, clock, emitted_);
    time_ = last ? until : time_ + clock;
    ++steps_, current_ ^= 1;
  }
}

namespace {
// The sums of every process's sums, in one allgather (exact): each sum's limbs added,
// and its non-finite part (a NaN if any process has one, else an infinity's sign).
template <size_t N>
void whole_grid_sums(const Group& group, std::array<ExactSum, N>& sums) {
  constexpr int kPer = ExactSum::kLimbs + 1;
  std::vector<int64_t> sent;
  for (const ExactSum& s : sums) {
    const ExactSum::Limbs limbs = s.limbs();
    sent.insert(sent.end(), limbs.begin(), limbs.end());
    sent.push_back(s.has_special() ? bits_of(s.special()) : 0);
  }
  const int per_process = static_cast<int>(N) * kPer;
  std::vector<int64_t> all(static_cast<size_t>(per_process * group.size()));
  group.allgather(sent.data(), std::vector<int64_t>(static_cast<size_t>(group.size()), per_process), all.data());
  for (size_t k = 0; k < N; ++k) {
    ExactSum sum;
    for (int p = 0; p < group.size(); ++p) {
      const auto at = all.begin() + per_process * p + kPer * static_cast<int>(k);
      ExactSum::Limbs theirs;
      std::copy_n(at, ExactSum::kLimbs, theirs.begin());
      sum.add_limbs(theirs);
      const int64_t special = at[ExactSum::kLimbs];
      if (special != 0) {
        double x;
        std::memcpy(&x, &special, sizeof x);
        sum.add(x);
      }
    }
    sums[k] = sum;
  }
}
}  // namespace

void LavaGrid::volumes(double& emitted, double& lava, double& solidified, double& lost) const {
  const double area = params_.Pc * params_.Pc;
  std::vector<double> v(static_cast<size_t>(rows_ * cols_));
  // Exact, rounded once: the same on both backends, in any order and over any split.
  const LavaSubstate planes[3] = {LavaSubstate::thickness, LavaSubstate::solidified, LavaSubstate::lost};
  std::array<ExactSum, 3> sums;
  for (int k = 0; k < 3; ++k) {
    download(planes[k], v.data());
    for (int64_t r = own_.r0; r <= own_.r1; ++r)
      for (int64_t c = own_.c0; c <= own_.c1; ++c) sums[k].add(v[static_cast<size_t>(r * cols_ + c)]);
  }
  if (distributed()) whole_grid_sums(block_->group, sums);
  emitted = emitted_.value() * area;
  lava = sums[0].value() * area;
  solidified = sums[1].value() * area;
  lost = sums[2].value() * area;
}

// ---- a block of a grid decomposed over processes -----------------------------------

std::vector<Buffer*> LavaGrid::buffers() {
  return {&altitude_[0],   &altitude_[1],   &thickness_[0], &thickness_[1], &temperature_[0],
          &temperature_[1], &momentum_x_[0], &momentum_x_[1], &momentum_y_[0], &momentum_y_[1],
          &solidified_,    &lost_,         &flows_,        &previous_temperature_, &motion_};
}

std::unique_ptr<LavaGrid::Attachment> LavaGrid::prepare_attach(const bool remote[4], int64_t first_row,
                                                               int64_t first_col, int64_t global_rows,
                                                               int64_t global_cols, bool device_pointers) {
  // Two bands of ghosts on each remote side: a step's outflows reach a cell from one
  // cell away, and those outflows read one cell further.
  const int64_t north = remote[0] ? 2 : 0, south = remote[1] ? 2 : 0, west = remote[2] ? 2 : 0, east = remote[3] ? 2 : 0;
  auto a = std::make_unique<Attachment>();
  a->rows = rows_ + north + south, a->cols = cols_ + west + east;
  a->own = {north, north + rows_ - 1, west, west + cols_ - 1};
  a->shape = lava_shape(a->rows, a->cols, first_row - north, first_col - west, global_rows, global_cols);
  // A slab: two lines of a side, each plane (sides of at most 500000 cells: 40 MB at
  // most, within what an exchange takes, 2^31 - 1 bytes). None without a remote side.
  const bool any_remote = remote[0] || remote[1] || remote[2] || remote[3];
  const int64_t slab = any_remote ? 2 * std::max(rows_, a->cols) * (fv3_ ? 5 : 3) : 0;
  // Every buffer at the new size, the block's values in it (ghosts 0); the scratch of a
  // step (flows, motions) is all 0 before the first step, as a new buffer is.
  a->targets = buffers();
  for (Buffer* b : a->targets) {
    const int64_t planes = static_cast<int64_t>(b->bytes() / plane_bytes(rows_, cols_));
    const bool scratch = b == &flows_ || b == &previous_temperature_ || b == &motion_;
    if (planes == 0 || scratch) {
      a->buffers.push_back(planes == 0 ? Buffer() : Buffer(ctx_, static_cast<size_t>(planes) * plane_bytes(a->rows, a->cols)));
      continue;
    }
    Buffer made = regrown(ctx_, *b, planes, rows_, static_cast<size_t>(cols_) * sizeof(double), a->rows,
                          static_cast<size_t>(a->cols) * sizeof(double), north, static_cast<size_t>(west) * sizeof(double));
    a->buffers.push_back(std::move(made));
  }
  ctx_.synchronize();  // the copies' failures here, where the grid is still as it was
  a->block = std::make_unique<Block>();
  Block& b = *a->block;
  for (int side = 0; side < 4; ++side) b.remote[side] = remote[side];
  b.slabs = SlabExchange(ctx_, static_cast<size_t>(slab) * sizeof(double), device_pointers);
  return a;
}

void LavaGrid::attach(std::unique_ptr<Attachment> a, Group&& group) noexcept {
  for (size_t i = 0; i < a->targets.size(); ++i) *a->targets[i] = std::move(a->buffers[i]);
  if (!box_.empty()) box_ = {box_.r0 + a->own.r0, box_.r1 + a->own.r0, box_.c0 + a->own.c0, box_.c1 + a->own.c0};
  rows_ = a->rows, cols_ = a->cols, own_ = a->own, shape_ = a->shape;
  block_ = std::move(a->block);
  block_->group = std::move(group);
  device_state_due_ = true;  // the box moved with the storage
}

void LavaGrid::device_state_current() {
  if (!device_state_due_) return;
  set_device_state();
  device_state_due_ = false;
}

std::vector<int64_t> LavaGrid::agreement() const {
  std::vector<int64_t> same;
  for (const NamedParameter& p : kParameters) same.push_back(bits_of(params_.*p.member));
  // Each vent's cell, slot length and rates.
  Fnv1a hash;
  for (const LavaVent& v : vents_) {
    for (int64_t x : {v.row, v.col, bits_of(v.slot_seconds), static_cast<int64_t>(v.rates.size())})
      hash.add(static_cast<uint64_t>(x));
    for (double r : v.rates) hash.add(static_cast<uint64_t>(bits_of(r)));
  }
  same.push_back(static_cast<int64_t>(vents_.size()));
  same.push_back(static_cast<int64_t>(hash.value));
  return same;
}

LavaBox LavaGrid::own_and_ring() const {
  if (!distributed()) return own_;
  const bool* remote = block_->remote;
  return {own_.r0 - (remote[0] ? 1 : 0), own_.r1 + (remote[1] ? 1 : 0), own_.c0 - (remote[2] ? 1 : 0),
          own_.c1 + (remote[3] ? 1 : 0)};
}

// Columns first (two columns of the block's rows from the west and east neighbours), then
// rows (two rows of the whole storage width from the north and south ones, the corners
// with them: the neighbours got theirs with the columns). Every plane in one message a
// side (LavaSlab), packed and unpacked by the backend (CUDA's slabs staged through the
// host where the group takes host memory only).
void LavaGrid::exchange_ghosts(int buffer) {
  LavaSlab lines{{plane(LavaSubstate::altitude, buffer), plane(LavaSubstate::thickness, buffer),
                  plane(LavaSubstate::temperature, buffer), nullptr, nullptr},
                 fv3_ ? 5 : 3, false, 0, 0, own_.r0, cols_};
  if (fv3_) lines.planes[3] = plane(LavaSubstate::momentum_x, buffer), lines.planes[4] = plane(LavaSubstate::momentum_y, buffer);
  Block& b = *block_;
  for (int axis = 1; axis >= 0; --axis) {
    if (!b.remote[2 * axis] && !b.remote[2 * axis + 1]) continue;
    lines.columns = axis == 1;
    lines.length = lines.columns ? own_.r1 - own_.r0 + 1 : cols_;  // a column over the block's rows, a row over the storage
    const int64_t first = lines.columns ? own_.c0 : own_.r0, last = lines.columns ? own_.c1 : own_.r1;
    const int64_t sent_lines[2] = {first, last - 1}, ghost_lines[2] = {first - 2, last + 1};
    auto pack = [&](int side, void* to) {
      LavaSlab sent = lines;
      sent.first_line = sent_lines[side];
      backend_->pack(sent, static_cast<double*>(to));
    };
    auto unpack = [&](int side, const void* from) {
      LavaSlab ghosts = lines;
      ghosts.first_line = ghost_lines[side];
      backend_->unpack(ghosts, static_cast<const double*>(from), box_);  // ghosts holding lava join the box
    };
    b.slabs.swap(ctx_, b.group, axis, &b.remote[2 * axis], static_cast<size_t>(lines.values()) * sizeof(double), pack,
                 unpack);
  }
}

}  // namespace opsplit::ca
