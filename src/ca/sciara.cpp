#include "ca/sciara.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "ca/sciara_cuda.hpp"
#include "chem/loaders.hpp"
#include "core/error.hpp"
#include "core/exact_sum.hpp"

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
  const std::vector<Token> t = tokens_of(chem::read_text_file(path));
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
  const std::vector<Token> t = tokens_of(chem::read_text_file(path));
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
  const std::vector<Token> t = tokens_of(chem::read_text_file(rates_path));
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
      rows_(rows),
      cols_(cols),
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
  if (ctx.is_cuda()) {
    launcher_ = std::make_unique<LavaLauncher>(ctx);
  } else if (!fv3) {
    flows_ = Buffer(ctx, kLavaNeighbours * plane_bytes(rows, cols));
    previous_temperature_ = Buffer(ctx, plane_bytes(rows, cols));
  }
}

LavaGrid::~LavaGrid() = default;

double* LavaGrid::plane(LavaSubstate s, int buffer) const {
  const int b = buffer < 0 ? current_ : buffer;
  switch (s) {
    case LavaSubstate::altitude: return altitude_[b].as<double>();
    case LavaSubstate::thickness: return thickness_[b].as<double>();
    case LavaSubstate::temperature: return temperature_[b].as<double>();
    case LavaSubstate::solidified: return solidified_.as<double>();
    case LavaSubstate::lost: return lost_.as<double>();
    case LavaSubstate::momentum_x: return momentum_x_[b].as<double>();
    case LavaSubstate::momentum_y: return momentum_y_[b].as<double>();
  }
  return nullptr;
}

LavaPlanes LavaGrid::planes() const {
  LavaPlanes p{};
  for (int b = 0; b < 2; ++b)
    p.altitude[b] = altitude_[b].as<double>(), p.thickness[b] = thickness_[b].as<double>(),
    p.temperature[b] = temperature_[b].as<double>(), p.momentum_x[b] = momentum_x_[b].as<double>(),
    p.momentum_y[b] = momentum_y_[b].as<double>();
  p.motion = motion_.as<double>();
  p.solidified = solidified_.as<double>(), p.lost = lost_.as<double>();
  p.shape = lava_whole_grid(rows_, cols_);
  return p;
}

void LavaGrid::download(LavaSubstate s, double* host) const {
  if (ctx_.is_cuda())
    ctx_.device().copy_to_host(host, plane(s), plane_bytes(rows_, cols_));
  else
    std::memcpy(host, plane(s), plane_bytes(rows_, cols_));
}

void LavaGrid::set_substate(const std::string& name, const double* values, bool column_major) {
  const LavaSubstate s = lava_substate(name, fv3_);
  if (values == nullptr) fail_argument("values is NULL");
  if (s == LavaSubstate::lost) fail_argument("\"lost\" is read-only: it counts the lava that left the grid");
  std::vector<double> row_major(static_cast<size_t>(rows_ * cols_));
  for (int64_t r = 0; r < rows_; ++r)
    for (int64_t c = 0; c < cols_; ++c) {
      const double v = values[column_major ? c * rows_ + r : r * cols_ + c];
      const std::string at = name + " at (" + num(r) + ", " + num(c) + ") is " + num(v);
      if (!std::isfinite(v)) fail_argument(at + ": every value must be finite");
      const bool signed_value = s == LavaSubstate::altitude || s == LavaSubstate::momentum_x || s == LavaSubstate::momentum_y;
      if (!signed_value && v < 0.0) fail_argument(at + ": it cannot be negative");
      if (s == LavaSubstate::thickness && v > 0.0 && lava_is_sink(rows_, cols_, r, c))
        fail_argument(at + ": the outermost ring is the sink where lava leaves the grid, and holds none");
      row_major[static_cast<size_t>(r * cols_ + c)] = v;
    }
  synchronize();
  if (ctx_.is_cuda())
    ctx_.device().copy_to_device(plane(s), row_major.data(), plane_bytes(rows_, cols_));
  else
    std::memcpy(plane(s), row_major.data(), plane_bytes(rows_, cols_));
  mirror(s);
  if (s == LavaSubstate::thickness) reset_region(row_major.data());
}

void LavaGrid::get_substate(const std::string& name, double* values, bool column_major) const {
  const LavaSubstate s = lava_substate(name, fv3_);
  if (values == nullptr) fail_argument("values is NULL");
  std::vector<double> row_major(static_cast<size_t>(rows_ * cols_));
  download(s, row_major.data());
  for (int64_t r = 0; r < rows_; ++r)
    for (int64_t c = 0; c < cols_; ++c)
      values[column_major ? c * rows_ + r : r * cols_ + c] = row_major[static_cast<size_t>(r * cols_ + c)];
}

void LavaGrid::load_substate(const std::string& name, const std::string& path) {
  if (lava_substate(name, fv3_) == LavaSubstate::lost)
    fail_argument("\"lost\" is read-only: it counts the lava that left the grid");
  const GridFile g = read_grid_file(path, rows_, cols_);
  if (g.cell_size != 0.0 && g.cell_size != params_.Pc)
    fail_argument(path + ": cellsize " + num(g.cell_size) + " is not the grid's cell side Pc=" + num(params_.Pc) +
                  " (set the parameter \"Pc\" first)");
  set_substate(name, g.values.data(), false);
}

// After thickness was set (row-major, on the host): the region starts again from the
// cells that hold lava and the vents. CPU: the flows, scratch of a step, are cleared so
// that no cell outside the region holds any (where none flows, a cell's kept
// temperature is never read but multiplied by a zero flow).
void LavaGrid::reset_region(const double* thickness) {
  box_ = LavaBox{};
  for (int64_t i = 0; i < rows_ * cols_; ++i)
    if (thickness[i] > 0.0) box_.include(i / cols_, i % cols_);
  for (const LavaVent& v : vents_) box_.include(v.row, v.col);
  // Steps write every cell of their region into the other buffer of each pair, so both
  // hold the same outside it only while the region grows: a new, smaller region needs
  // them the same everywhere (thickness, just set, already is).
  for (LavaSubstate s : {LavaSubstate::altitude, LavaSubstate::temperature, LavaSubstate::momentum_x,
                         LavaSubstate::momentum_y})
    mirror(s);
  if (ctx_.is_cuda())
    set_device_state();
  else if (!fv3_)
    std::memset(flows_.data(), 0, flows_.bytes());
}

// A paired substate's current buffer copied into the other (nothing for a single one).
void LavaGrid::mirror(LavaSubstate s) {
  const bool single = s == LavaSubstate::solidified || s == LavaSubstate::lost;
  const bool momentum = s == LavaSubstate::momentum_x || s == LavaSubstate::momentum_y;
  if (!paired() || single || (momentum && !fv3_)) return;
  if (ctx_.is_cuda())
    ctx_.device().copy_on_device(plane(s, current_ ^ 1), plane(s), plane_bytes(rows_, cols_));
  else
    std::memcpy(plane(s, current_ ^ 1), plane(s), plane_bytes(rows_, cols_));
}

// The host's box, and fv3's time, steps and emitted thickness, to the device (the host's
// are current: every call that changes the grid waits for the steps first).
void LavaGrid::set_device_state() { launcher_->set_state(box_, time_, steps_, emitted_); }

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

void LavaGrid::load_parameters(const std::string& path) {
  int64_t nsteps = 0;
  const LavaParameters p = read_lava_parameters(path, rows_, cols_, params_, fv3_, &nsteps);
  if (steps_ > 0 && p.Pclock != params_.Pclock)
    fail_argument(path + ": Pclock cannot change after the first step (the clock counts steps of Pclock seconds)");
  params_ = p;
}

void LavaGrid::check_vent_cell(int64_t row, int64_t col) const {
  if (row < 1 || row >= rows_ - 1 || col < 1 || col >= cols_ - 1)
    fail_argument("a vent at (" + num(row) + ", " + num(col) + ") is not inside the " + shape(rows_, cols_) +
                  " grid's outermost ring (that ring is the sink where lava leaves the grid)");
}

int64_t LavaGrid::add_vent(int64_t row, int64_t col, const double* rates, int64_t nslots, double slot_seconds) {
  check_vent_cell(row, col);
  if (nslots < 1) fail_argument("nslots=" + num(nslots) + ": a vent needs at least one slot");
  if (vents() == kLavaMaxVents) fail_argument("a grid takes at most " + num(kLavaMaxVents) + " vents");
  if (rates == nullptr) fail_argument("rates is NULL");
  if (!std::isfinite(slot_seconds) || slot_seconds <= 0.0)
    fail_argument("slot_seconds=" + num(slot_seconds) + " must be finite and > 0");
  for (int64_t s = 0; s < nslots; ++s)
    if (!std::isfinite(rates[s]) || rates[s] < 0.0)
      fail_argument("rates[" + num(s) + "]=" + num(rates[s]) + " must be finite and >= 0 (m^3/s)");
  synchronize();
  vents_.push_back({row, col, std::vector<double>(rates, rates + nslots), slot_seconds});
  box_.include(row, col);
  vent_box_.include(row, col);
  if (ctx_.is_cuda()) {  // every schedule again, its rates in one device array
    set_device_state();
    std::vector<double> all_rates;
    for (const LavaVent& v : vents_) all_rates.insert(all_rates.end(), v.rates.begin(), v.rates.end());
    Buffer rates_on_device(ctx_, all_rates.size() * sizeof(double));
    Buffer schedules(ctx_, vents_.size() * sizeof(LavaVentSchedule));
    std::vector<LavaVentSchedule> host = host_schedules();
    size_t offset = 0;
    for (LavaVentSchedule& v : host) v.rates = rates_on_device.as<const double>() + offset, offset += v.nslots;
    ctx_.device().copy_to_device(rates_on_device.data(), all_rates.data(), all_rates.size() * sizeof(double));
    ctx_.device().copy_to_device(schedules.data(), host.data(), host.size() * sizeof(LavaVentSchedule));
    ctx_.device().synchronize();
    device_rates_ = std::move(rates_on_device);
    device_vents_ = std::move(schedules);
  }
  return static_cast<int64_t>(vents_.size()) - 1;
}

void LavaGrid::load_vents(const std::string& vents_path, const std::string& rates_path) {
  const std::vector<LavaVent> vents = read_lava_vents(vents_path, rates_path, rows_, cols_);
  for (const LavaVent& v : vents) check_vent_cell(v.row, v.col);
  if (vents.size() + vents_.size() > static_cast<size_t>(kLavaMaxVents))
    fail_argument(vents_path + ": " + num(static_cast<long long>(vents.size())) + " vents; a grid takes at most " +
                  num(kLavaMaxVents));
  for (const LavaVent& v : vents)
    add_vent(v.row, v.col, v.rates.data(), static_cast<int64_t>(v.rates.size()), v.slot_seconds);
}

void LavaGrid::synchronize() {
  if (!ctx_.is_cuda()) return;
  const LavaDeviceState d = launcher_->state();
  box_ = LavaBox{d.box[0], d.box[1], d.box[2], d.box[3]};
  if (fv3_) {  // the device's clock, steps and emission; the substates in the buffer the steps reached
    current_ ^= static_cast<int>((d.steps - steps_) & 1);
    steps_ = d.steps, time_ = d.time;
    emitted_.sum = d.emitted_sum, emitted_.error = d.emitted_error;
  }
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
  e.vents = ctx_.is_cuda() ? device_vents_.as<const LavaVentSchedule>() : nullptr;
  return e;
}

LavaVents LavaGrid::vents_on_host(const std::vector<LavaVentSchedule>& schedules) const {
  LavaVents e = vents_on_backend();
  e.vents = schedules.data();
  return e;
}

std::vector<LavaVentSchedule> LavaGrid::host_schedules() const {
  std::vector<LavaVentSchedule> host(vents_.size());
  for (size_t v = 0; v < vents_.size(); ++v)
    host[v] = {vents_[v].row * cols_ + vents_[v].col, static_cast<int64_t>(vents_[v].rates.size()),
               vents_[v].slot_seconds, vents_[v].rates.data()};
  return host;
}

void LavaGrid::advance(int64_t n, double until) {
  if (fv3_) return advance_fv3(n, until);
  const LavaConstants k = lava_constants(params_);
  const LavaPlanes g = planes();
  const std::vector<LavaVentSchedule> host = host_schedules();
  const LavaVents on_host = vents_on_host(host);
  // The thickness the vents emit at a step, summed on the host by the function the
  // backends emit with.
  auto count_emission = [&](int64_t step) {
    for (int v = 0; v < on_host.count; ++v)
      emitted_.add(lava_vent_thickness(on_host, v, lava_step_start(on_host, step), on_host.pclock));
  };
  if (!ctx_.is_cuda()) {
    for (int64_t s = 0; s < n; ++s) {
      count_emission(steps_);
      lava_emit_all(on_host, lava_step_start(on_host, steps_), on_host.pclock, g.thickness[0], g.temperature[0]);
      const LavaBox region = lava_region(box_, all_cells_, rows_, cols_);
      lava_flows_cpu(g, flows_.as<double>(), previous_temperature_.as<double>(), region, region, k, ctx_.threads(),
                     box_);
      ++steps_;
    }
    return;
  }
  for (int64_t done = 0; done < n;) {
    const int m = static_cast<int>(std::min<int64_t>(n - done, kLavaStepsPerLaunch));
    launcher_->launch(g, current_, vents_on_backend(), vent_box_, steps_, m, all_cells_, k);
    for (int s = 0; s < m; ++s) count_emission(steps_ + s);
    steps_ += m, done += m, current_ ^= m & 1;
  }
}

void LavaGrid::advance_fv3(int64_t n, double until) {
  const Lava3Constants k = lava3_constants(params_);
  const LavaPlanes g = planes();
  if (!ctx_.is_cuda()) {
    const std::vector<LavaVentSchedule> host = host_schedules();
    const LavaVents on_host = vents_on_host(host);
    for (int64_t s = 0; s < n && time_ < until; ++s) {
      // Time evaluation: the motions of the cells holding lava (all inside the box) and
      // the shortest time; the clock; flow mode over the box grown by one (lava moves at
      // most a cell a step); the step's emission counted.
      bool last = false;
      const double shortest = lava3_motion_cpu(g, current_, box_, k, ctx_.threads());
      const double clock = lava3_clock(shortest, time_, until, k, &last);
      if (lava3_stalled(time_, clock, last)) fail_stalled(time_);  // nothing changed but the motions
      lava3_flow_cpu(g, current_, clock, lava_region(box_, all_cells_, rows_, cols_), on_host, vent_box_, time_, k,
                     ctx_.threads(), box_);
      lava3_count_emission(on_host, time_, clock, emitted_);
      time_ = last ? until : time_ + clock;
      ++steps_, current_ ^= 1;
    }
    return;
  }
  // Launches until n steps or the time read back (a launch or two late) reaches until;
  // a launch that starts at until, or after a stall, does nothing.
  for (int64_t launched = 0; launched < n && launcher_->known_time() < until && !launcher_->known_stalled();) {
    const int m = static_cast<int>(std::min<int64_t>(n - launched, kLavaStepsPerLaunch));
    launcher_->launch3(g, current_, steps_, vents_on_backend(), vent_box_, m, until, all_cells_, k);
    launched += m;
  }
  synchronize();
  if (launcher_->known_stalled()) {
    set_device_state();  // the device's flag cleared for the next call
    fail_stalled(time_);
  }
}

void LavaGrid::volumes(double& emitted, double& lava, double& solidified, double& lost) const {
  const double area = params_.Pc * params_.Pc;
  std::vector<double> v(static_cast<size_t>(rows_ * cols_));
  auto total = [&](LavaSubstate s) {  // exact, rounded once: the same on both backends and in any order
    download(s, v.data());
    ExactSum sum;
    for (double x : v) sum.add(x);
    return sum.value() * area;
  };
  emitted = emitted_.value() * area;
  lava = total(LavaSubstate::thickness);
  solidified = total(LavaSubstate::solidified);
  lost = total(LavaSubstate::lost);
}

// ---- the CPU step ----------------------------------------------------------------------

namespace {
// The update of a step over the region's cells on the host's threads: `box` takes in
// each cell for which update(r, c) returns true (it holds lava after).
template <class Update>
void update_region(const LavaBox& region, int threads, LavaBox& box, Update update) {
  LavaBox grown = box;
#pragma omp parallel num_threads(threads)
  {
    LavaBox mine;
#pragma omp for schedule(static)
    for (int64_t r = region.r0; r <= region.r1; ++r)
      for (int64_t c = region.c0; c <= region.c1; ++c)
        if (update(r, c)) mine.include(r, c);
#pragma omp critical
    grown.include(mine);
  }
  box = grown;
}
}  // namespace

void lava_flows_cpu(const LavaPlanes& g, double* flows, double* previous, const LavaBox& outflows,
                    const LavaBox& updates, const LavaConstants& k, int threads, LavaBox& box) {
  double *z = g.altitude[0], *h = g.thickness[0], *t = g.temperature[0];
  const int64_t cols = g.shape.cols, n = g.shape.rows * cols;
  if (outflows.empty() && updates.empty()) return;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t r = outflows.r0; r <= outflows.r1; ++r)
    for (int64_t c = outflows.c0; c <= outflows.c1; ++c) {
      const int64_t i = r * cols + c;
      double f[kLavaNeighbours];
      lava_cell_outflows(z, h, t, g.shape, r, c, k, f);
      OPSPLIT_UNROLL
      for (int m = 0; m < kLavaNeighbours; ++m) flows[m * n + i] = f[m];
      previous[i] = t[i];
    }
  update_region(updates, threads, box, [&](int64_t r, int64_t c) {
    const int64_t i = r * cols + c;
    double own[kLavaNeighbours], in[kLavaNeighbours], t_in[kLavaNeighbours];
    OPSPLIT_UNROLL
    for (int m = 0; m < kLavaNeighbours; ++m) {  // outside the grid: zero flows and temperature
      const int64_t rr = r + lava_drow(m), cc = c + lava_dcol(m), j = rr * cols + cc;
      const bool inside = g.shape.stored(rr, cc);
      own[m] = flows[m * n + i];
      in[m] = inside ? flows[lava_opposite(m) * n + j] : 0.0;
      t_in[m] = inside ? previous[j] : 0.0;
    }
    return lava_cell_update(g.shape.sink(r, c), own, in, t_in, k, z[i], h[i], t[i], g.solidified[i],
                            g.lost[i]);
  });
}

double lava3_motion_cpu(const LavaPlanes& g, int cur, const LavaBox& cells, const Lava3Constants& k, int threads) {
  const double *z = g.altitude[cur], *h = g.thickness[cur], *t = g.temperature[cur];
  const double *px = g.momentum_x[cur], *py = g.momentum_y[cur];
  const int64_t cols = g.shape.cols, n = g.shape.rows * cols;
  double shortest = HUGE_VAL;
  if (cells.empty()) return shortest;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : shortest)
  for (int64_t r = cells.r0; r <= cells.r1; ++r)
    for (int64_t c = cells.c0; c <= cells.c1; ++c) {
      Lava3Motion m;
      if (!lava3_cell_motion(z, h, t, px, py, g.shape, r, c, k, m)) continue;
      shortest = std::min(shortest, lava3_cell_time(m, k));
      lava3_store_motion(g.motion, n, r * cols + c, m);
    }
  return shortest;
}

void lava3_flow_cpu(const LavaPlanes& g, int cur, double clock, const LavaBox& cells, const LavaVents& vents,
                    const LavaBox& vent_box, double now, const Lava3Constants& k, int threads, LavaBox& box) {
  if (cells.empty()) return;
  update_region(cells, threads, box, [&](int64_t r, int64_t c) {
    const bool may_be_vent = r >= vent_box.r0 && r <= vent_box.r1 && c >= vent_box.c0 && c <= vent_box.c1;
    return lava3_cell_step(g, cur, r, c, k, clock, vents, may_be_vent, now);
  });
}

}  // namespace opsplit::ca
