// SCIARA-fv2 lava flows: the per-cell numerics the CPU loops (src/ca/sciara.cpp) and the
// CUDA kernels (kernels/ca/sciara_cuda.cu) share. Model: docs/research/sciara_fv2_spec.md
// (Spataro et al. 2010; the dataset's code, knotman90/SCIARA_FV2_CUDA).
//
// Both backends give the same bits: only + - * / and sqrt (IEEE-rounded on both), no FMA
// contraction (-ffp-contract=off on the host, -fmad=false for the kernels' file), and
// the two transcendental functions the model needs (2^x and the cube root) written here
// with those operations alone, in one order. Flows are gathered, never scattered.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/hd.cuh"

namespace opsplit::ca {

// Moore neighbours in the dataset's order: N, W, E, S, NW, SW, SE, NE (1-4 orthogonal).
constexpr int kLavaNeighbours = 8;
OPSPLIT_HD int lava_drow(int k) { return k == 0 || k == 4 || k == 7 ? -1 : (k == 3 || k == 5 || k == 6 ? 1 : 0); }
OPSPLIT_HD int lava_dcol(int k) { return k == 1 || k == 4 || k == 5 ? -1 : (k == 2 || k == 6 || k == 7 ? 1 : 0); }
// The slot of neighbour k's flows that points back at the centre (N's S slot, ...).
OPSPLIT_HD int lava_opposite(int k) { return k < 4 ? 3 - k : (k + 2) % 4 + 4; }

// What one step needs, derived from the named parameters (src/ca/sciara.cpp).
struct LavaConstants {
  double pr_log2_0, pr_log2_slope;  // relaxation rate Pr(T) = 2^(pr_log2_0 + pr_log2_slope T)
  double hc_log2_0, hc_log2_slope;  // critical height hc(T) = 2^(hc_log2_0 + hc_log2_slope T), m
  double cell;                      // cell side Pc, m
  double cooling;                   // 3 eps sigma Pclock Pcool / (rho cv Pc^2), m K^-3
  double t_sol;                     // solidification temperature, K
};

// 2^x for |x| < 1000 from + - * / alone: x = k + f (k an integer, |f| <= 1/2, exact),
// e^(f ln 2) by its Taylor series to the 14th power (error < 1e-17) in Estrin's scheme
// (a short chain of dependent operations: the GPU's latency), scaled by 2^k.
OPSPLIT_HD double lava_exp2(double x) {
  const double k = std::floor(x + 0.5);
  const double y = (x - k) * 0.6931471805599453;
  constexpr double c[15] = {1.0,
                            1.0,
                            1.0 / 2,
                            1.0 / 6,
                            1.0 / 24,
                            1.0 / 120,
                            1.0 / 720,
                            1.0 / 5040,
                            1.0 / 40320,
                            1.0 / 362880,
                            1.0 / 3628800,
                            1.0 / 39916800,
                            1.0 / 479001600,
                            1.0 / 6227020800.0,
                            1.0 / 87178291200.0};
  const double y2 = y * y, y4 = y2 * y2, y8 = y4 * y4;
  double q[8];
  OPSPLIT_UNROLL
  for (int i = 0; i < 7; ++i) q[i] = c[2 * i] + c[2 * i + 1] * y;
  q[7] = c[14];
  const double r0 = q[0] + q[1] * y2, r1 = q[2] + q[3] * y2, r2 = q[4] + q[5] * y2, r3 = q[6] + q[7] * y2;
  const double p = (r0 + r1 * y4) + (r2 + r3 * y4) * y8;
  return std::ldexp(p, static_cast<int>(k));
}

// The cube root of a finite x >= 1: x = m 2^(3e + r) with m in [1/2, 1), r in 0..2; a
// quadratic start for m^(1/3) (within 8e-4) times 2^(r/3), then two steps of Halley's
// iteration for the root of y^3 = m 2^r (cubic convergence: to rounding), scaled by
// 2^e. Within 4e-16 of the exact root.
OPSPLIT_HD double lava_cbrt(double x) {
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m 2^e, m in [1/2, 1), e >= 1
  const int r = e % 3;
  const double target = std::ldexp(m, r);
  double y = (0.495471 + (0.69138 - 0.187347 * m) * m) * (r == 0 ? 1.0 : r == 1 ? 1.2599210498948732 : 1.5874010519681994);
  OPSPLIT_UNROLL
  for (int i = 0; i < 2; ++i) {
    const double y3 = y * y * y;
    y = y * (y3 + 2.0 * target) / (2.0 * y3 + target);
  }
  return std::ldexp(y, (e - r) / 3);
}

// The minimisation algorithm of the differences (Di Gregorio and Serra 1999): movable
// lava `m` over the levels height[0..8] of the candidates (the centre first). Candidates
// at or above the average of m and the candidates' levels drop out until none does; the
// test sum <= n height[k] keeps divisions out of the loop. Returns that average (0 when
// no candidate is left); candidate[k] stays true for those that receive average - height[k].
OPSPLIT_HD double lava_minimise(const double height[9], bool candidate[9], double m) {
  double sum = 0.0;
  int n = 0;
  for (bool eliminated = true; eliminated;) {
    sum = m, n = 0;
    OPSPLIT_UNROLL
    for (int k = 0; k <= kLavaNeighbours; ++k)
      if (candidate[k]) sum += height[k], ++n;
    eliminated = false;
    OPSPLIT_UNROLL
    for (int k = 0; k <= kLavaNeighbours; ++k)
      if (candidate[k] && sum <= n * height[k]) candidate[k] = false, eliminated = true;
  }
  return n > 0 ? sum / n : 0.0;
}

// The outflows of a cell holding lava (h[0] > 0): the minimisation algorithm of the
// differences. z[k], h[k] are the altitudes and lava thicknesses of the centre (k = 0)
// and its neighbours 1..8 in kLava order; t is the centre's temperature. flows[k - 1]
// receives the thickness that leaves to neighbour k (0 where none).
OPSPLIT_HD void lava_outflows(const double z[9], const double h[9], double t, const LavaConstants& c,
                              double flows[kLavaNeighbours]) {
  constexpr double kInvSqrt2 = 0.7071067811865476;
  const double top = z[0] + h[0];
  double height[9];  // the level each candidate offers: the centre's bare altitude, the neighbours' surface
  bool candidate[9];
  height[0] = z[0];
  candidate[0] = true;
  OPSPLIT_UNROLL
  for (int k = 1; k <= kLavaNeighbours; ++k) {
    // A diagonal drop counts over the orthogonal distance: shrunk by sqrt(2).
    const double zk = k <= 4 ? z[k] : z[0] - (z[0] - z[k]) * kInvSqrt2;
    height[k] = zk + h[k];
    candidate[k] = top > height[k];
  }
  const double average = lava_minimise(height, candidate, h[0]);
  const double relaxation = lava_exp2(c.pr_log2_0 + c.pr_log2_slope * t);
  const double critical = lava_exp2(c.hc_log2_0 + c.hc_log2_slope * t);
  // The yield test h > hc cos(theta), cos(theta) = Pc / sqrt(Pc^2 + drop^2), squared (both
  // sides >= 0): h^2 (Pc^2 + drop^2) > (hc Pc)^2, without the 8 square roots (on the GPU
  // each is a long chain of dependent operations; a step's time is the slowest cell's chain).
  const double h2 = h[0] * h[0], cell2 = c.cell * c.cell, yield2 = (critical * c.cell) * (critical * c.cell);
  OPSPLIT_UNROLL
  for (int k = 1; k <= kLavaNeighbours; ++k) {
    const double drop = top - height[k];
    const bool yields = h2 * (cell2 + drop * drop) > yield2;
    flows[k - 1] = candidate[k] && yields ? relaxation * (average - height[k]) : 0.0;
  }
}

// The sum of a cell's 8 flows, in the neighbours' order.
OPSPLIT_HD double lava_sum(const double flows[kLavaNeighbours]) {
  double sum = 0.0;
  OPSPLIT_UNROLL
  for (int m = 0; m < kLavaNeighbours; ++m) sum += flows[m];
  return sum;
}

// A cell's new state from its own outflows and its neighbours' flows towards it:
// thickness-weighted temperature mixing, then radiative cooling over one step and
// solidification at or below t_sol (the lava joins the altitude and the solidified
// thickness). out: the sum of the cell's own outflows; in[n], t_in[n]: the thickness
// neighbour n sends and that neighbour's temperature; cooling: the step's coefficient
// (3 eps sigma dt Pcool / (rho cv Pc^2), m K^-3).
OPSPLIT_HD void lava_balance(double out, const double in[kLavaNeighbours], const double t_in[kLavaNeighbours],
                             double cooling, double t_sol, double& z, double& h, double& t, double& solid) {
  const double kept = h - out;
  double h_new = kept, heat = kept * t;
  OPSPLIT_UNROLL
  for (int n = 0; n < kLavaNeighbours; ++n) h_new += in[n], heat += in[n] * t_in[n];
  if (!(h_new > 0.0)) {  // nothing here and nothing came, or all of it left (to rounding)
    h = 0.0;
    return;
  }
  const double t_mixed = heat / h_new;
  const double x = 1.0 + cooling * (t_mixed * t_mixed * t_mixed) / h_new;
  const double t_cooled = x < 1.0e300 ? t_mixed / lava_cbrt(x) : 0.0;  // a film of 1e-300 m freezes at once
  if (t_cooled <= t_sol) {
    z += h_new, solid += h_new;
    h = 0.0, t = t_sol;
  } else {
    h = h_new, t = t_cooled;
  }
}

// A CLOSED grid's outermost ring is its sink: lava that flows into it leaves the grid.
OPSPLIT_HD bool lava_is_sink(int64_t rows, int64_t cols, int64_t r, int64_t c) {
  return r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
}

// The cells a backend stores, rows x cols row-major, and where they lie: the first at
// (row0, col0) of the whole grid of global_rows x global_cols (a grid on one process:
// 0, 0, rows, cols). Storage ends only where the whole grid does or at a band of
// ghost cells, so a neighbour inside the storage is a neighbour on the grid.
struct LavaShape {
  int64_t rows, cols;
  int64_t row0, col0, global_rows, global_cols;
  // Which of the storage's outer rows and columns (bits: north, south, west, east) are
  // the whole grid's sink ring: all of them on one process; a block's remote sides are
  // ghosts. (One word beside rows and cols: fv3's step kernel is short of registers.)
  unsigned sink_sides;
  // Whether stored cell (r, c) is on the whole grid's sink ring.
  OPSPLIT_HD bool sink(int64_t r, int64_t c) const {
    return (r == 0 && (sink_sides & 1u)) || (c == 0 && (sink_sides & 4u)) || (r == rows - 1 && (sink_sides & 2u)) ||
           (c == cols - 1 && (sink_sides & 8u));
  }
  OPSPLIT_HD bool stored(int64_t r, int64_t c) const { return r >= 0 && r < rows && c >= 0 && c < cols; }
};
// Storage ends at the whole grid's edge or at a band of ghosts: a side whose storage edge
// is not the grid's edge is a block's remote side.
OPSPLIT_HD LavaShape lava_shape(int64_t rows, int64_t cols, int64_t row0, int64_t col0, int64_t global_rows,
                                int64_t global_cols) {
  const unsigned sides = (row0 == 0 ? 1u : 0u) | (row0 + rows == global_rows ? 2u : 0u) | (col0 == 0 ? 4u : 0u) |
                         (col0 + cols == global_cols ? 8u : 0u);
  return LavaShape{rows, cols, row0, col0, global_rows, global_cols, sides};
}
OPSPLIT_HD LavaShape lava_whole_grid(int64_t rows, int64_t cols) { return lava_shape(rows, cols, 0, 0, rows, cols); }
// The same tests for a grid known to be whole (its storage edge the sink ring): what the
// one-process CUDA kernels take.
struct LavaWholeGrid {
  int64_t rows, cols;
  OPSPLIT_HD bool sink(int64_t r, int64_t c) const { return lava_is_sink(rows, cols, r, c); }
  OPSPLIT_HD bool stored(int64_t r, int64_t c) const { return r >= 0 && r < rows && c >= 0 && c < cols; }
};

// What a substate's given values may be (opsplit_ca_set_substate): any finite value
// (altitude, momentum), finite and >= 0, or also 0 on the sink ring (thickness).
enum class LavaValues { any, non_negative, no_lava_on_sink };
enum class LavaValueFault { none, not_finite, negative, lava_on_sink };

// A block of a substate's values as the host gives them, rows x cols in row- or
// column-major order, and where they go: the cells of `own` (block coordinates r0, c0)
// in the storage of `shape`. Cell i counts the block row by row, the order in which a
// refusal names the first bad value on either backend; loops go over the given values
// (j), which they read or write in order.
struct LavaValueBlock {
  LavaShape shape;
  int64_t r0, c0, rows, cols;
  bool column_major;
  LavaValues kind;
  OPSPLIT_HD int64_t cells() const { return rows * cols; }
  OPSPLIT_HD int64_t given(int64_t i) const { return column_major ? (i % cols) * rows + i / cols : i; }
  OPSPLIT_HD int64_t cell(int64_t j) const { return column_major ? (j % rows) * cols + j / rows : j; }
  OPSPLIT_HD int64_t stored(int64_t i) const { return (r0 + i / cols) * shape.cols + c0 + i % cols; }
  OPSPLIT_HD LavaValueFault fault(int64_t i, double v) const {
    if (!(v - v == 0.0)) return LavaValueFault::not_finite;  // NaN and infinities (isfinite is not HD everywhere)
    if (kind != LavaValues::any && v < 0.0) return LavaValueFault::negative;
    if (kind == LavaValues::no_lava_on_sink && v > 0.0 && shape.sink(r0 + i / cols, c0 + i % cols))
      return LavaValueFault::lava_on_sink;
    return LavaValueFault::none;
  }
};

// The substates on one backend, row-major. Altitude, thickness, temperature and fv3's
// momentum come in pairs of buffers: a CUDA step, and an fv3 step on either backend,
// reads one and writes the other; fv2 on the CPU uses the first only.
struct LavaPlanes {
  double* altitude[2];
  double* thickness[2];
  double* temperature[2];
  double* momentum_x[2];  // fv3 (null for fv2)
  double* momentum_y[2];
  double* motion;  // fv3: each lava cell's motion in a step, Lava3Motion's 25 values as planes
  double *solidified, *lost;
  int64_t rows, cols;  // the storage (its place: LavaShape, which the host's loops take apart)
};

// Two lines of every exchanged plane along one remote side of a block: what a process
// sends its neighbour there, or the ghosts it receives from it, in the message's order
// (plane by plane, line by line; the sender's first lines are the receiver's last
// ghosts). Columns run over the block's rows; rows over the storage's whole width, so
// they carry the corners the columns brought. Thickness is plane 1.
struct LavaSlab {
  double* planes[5];   // altitude, thickness, temperature (fv3: and momentum x, y)
  int nplanes;
  bool columns;
  int64_t first_line;  // the first of the two lines: a column or a row of the storage
  int64_t length;      // cells a line
  int64_t first_row;   // columns: the block's first row in the storage
  int64_t cols;        // of the storage
  OPSPLIT_HD int64_t values() const { return nplanes * 2 * length; }
  OPSPLIT_HD int plane_of(int64_t v) const { return static_cast<int>(v / (2 * length)); }
  OPSPLIT_HD int64_t cell_of(int64_t v) const {  // value v's cell in the storage
    const int64_t line = first_line + (v / length) % 2, k = v % length;
    return columns ? (first_row + k) * cols + line : line * cols + k;
  }
};

// A vent: its cell and its emission schedule (rates[s] m^3/s during slot s).
struct LavaVentSchedule {
  int64_t cell;
  int64_t nslots;
  double slot_seconds;
  const double* rates;  // on the backend that steps
};
struct LavaVents {
  const LavaVentSchedule* vents;
  int count;
  double pclock, area, t_vent;  // s per step, m^2 per cell, K
};

// The thickness vent v adds over `duration` seconds from time `start`: the integral of
// its schedule over them, over the cell's area. (fv2: start = step x Pclock, duration
// Pclock, within one slot when Pclock divides the slot; fv3: the step's start and its
// clock, which may cross into the next slot.)
OPSPLIT_HD double lava_vent_thickness(const LavaVents& e, int v, double start, double duration) {
  const LavaVentSchedule& s = e.vents[v];
  const double nslots = static_cast<double>(s.nslots);
  double slot = std::floor(start / s.slot_seconds);
  if (slot >= nslots) return 0.0;
  double slot_end = (slot + 1.0) * s.slot_seconds;
  const double end = start + duration;
  if (end <= slot_end) return s.rates[static_cast<int64_t>(slot)] * duration / e.area;
  double volume = s.rates[static_cast<int64_t>(slot)] * (slot_end - start);  // the rest of the first slot
  for (slot += 1.0; slot < nslots && slot * s.slot_seconds < end; slot += 1.0) {
    slot_end = (slot + 1.0) * s.slot_seconds;
    volume += s.rates[static_cast<int64_t>(slot)] * ((end < slot_end ? end : slot_end) - slot * s.slot_seconds);
  }
  return volume / e.area;
}

// The emission over [start, start + duration) into cell i of thickness h and
// temperature t (a cell of several vents takes them in turn); emitted lava has the
// vents' temperature (it replaces the cell's).
OPSPLIT_HD void lava_emit(const LavaVents& e, double start, double duration, int64_t i, double& h, double& t) {
  for (int v = 0; v < e.count; ++v) {
    if (e.vents[v].cell != i) continue;
    const double dh = lava_vent_thickness(e, v, start, duration);
    if (dh > 0.0) h += dh, t = e.t_vent;
  }
}

// fv2's step `step`: Pclock seconds from step x Pclock.
OPSPLIT_HD double lava_step_start(const LavaVents& e, int64_t step) { return static_cast<double>(step) * e.pclock; }

// The emission over [start, start + duration) into every vent cell of the thickness and
// temperature planes, each cell once (lava_emit takes all its vents); a vent at cell -1
// (another process's) emits nothing here.
OPSPLIT_HD void lava_emit_all(const LavaVents& e, double start, double duration, double* h, double* t) {
  for (int v = 0; v < e.count; ++v) {
    bool seen = false;
    for (int u = 0; u < v; ++u) seen = seen || e.vents[u].cell == e.vents[v].cell;
    const int64_t i = e.vents[v].cell;
    if (!seen && i >= 0) lava_emit(e, start, duration, i, h[i], t[i]);
  }
}

// A sum that keeps the rounding error of its additions apart (Neumaier's): the emitted
// thickness, on the host and in fv3's kernels, in the same order. (The volumes on the
// grid are exact sums: core/exact_sum.hpp.)
struct CompensatedSum {
  double sum = 0.0, error = 0.0;
  OPSPLIT_HD void add(double x) {
    const double next = sum + x;
    error += std::fabs(sum) >= std::fabs(x) ? (sum - next) + x : (x - next) + sum;
    sum = next;
  }
  OPSPLIT_HD double value() const { return sum + error; }
};

// Whether lava can leave stored cell (r, c) of thickness plane h: it holds some, off the
// sink ring. (Shape: LavaShape or LavaWholeGrid, here and below.)
template <class Shape>
OPSPLIT_HD bool lava_moves(const double* h, const Shape& s, int64_t r, int64_t c) {
  return h[r * s.cols + c] > 0.0 && !s.sink(r, c);
}

// The altitudes and thicknesses of cell i (a cell off the sink ring) and its neighbours,
// in z[0..8] and h[0..8] (the centre first, then kLava order).
OPSPLIT_HD void lava_gather(const double* z, const double* h, int64_t cols, int64_t i, double zs[9], double hs[9]) {
  zs[0] = z[i], hs[0] = h[i];
  OPSPLIT_UNROLL
  for (int m = 0; m < kLavaNeighbours; ++m) {
    const int64_t j = i + lava_drow(m) * cols + lava_dcol(m);
    zs[m + 1] = z[j], hs[m + 1] = h[j];
  }
}

// Phase 1 of a step at cell (r, c) of row-major altitude, thickness and temperature
// planes: its outflows f (zero unless it holds lava off the sink ring).
template <class Shape>
OPSPLIT_HD void lava_cell_outflows(const double* z, const double* h, const double* t, const Shape& s, int64_t r,
                                   int64_t c, const LavaConstants& k, double f[kLavaNeighbours]) {
  OPSPLIT_UNROLL
  for (int m = 0; m < kLavaNeighbours; ++m) f[m] = 0.0;
  if (!lava_moves(h, s, r, c)) return;
  const int64_t i = r * s.cols + c;
  double zs[9], hs[9];
  lava_gather(z, h, s.cols, i, zs, hs);
  lava_outflows(zs, hs, t[i], k, f);
}

// Phase 2 at a cell from its own outflows, the flows its neighbours send it (in[m],
// 0 from outside the grid) and their temperatures before the step: lava_balance, or on
// the sink ring what arrives added to lost. True when the cell holds lava after.
OPSPLIT_HD bool lava_cell_update(bool sink, const double own[kLavaNeighbours], const double in[kLavaNeighbours],
                                 const double t_in[kLavaNeighbours], const LavaConstants& k, double& z, double& h,
                                 double& t, double& solid, double& lost) {
  if (sink) {
    lost += lava_sum(in);
    return false;
  }
  lava_balance(lava_sum(own), in, t_in, k.cooling, k.t_sol, z, h, t, solid);
  return h > 0.0;
}

}  // namespace opsplit::ca
