// SCIARA-fv3 lava flows: the per-cell numerics the CPU loops (src/ca/sciara.cpp) and the
// CUDA kernel (kernels/ca/sciara_cuda.cu) share. Model: the seed thesis' chapter
// "SCIARA-fv3 - Model Formalization", read as docs/research/sciara_fv3_spec.md; the
// choices where it is silent are listed in docs/API.md (SCIARA_FV3).
//
// fv3 adds momentum to fv2 and a clock of its own: each step first finds, over the
// whole grid, the time after which the fastest flow has moved one cell (time
// evaluation), then moves lava for that time times a relaxation rate r (flow mode).
// The same rules as fv2 for equal bits on both backends: + - * / and sqrt only (the
// angles appear through their sines and cosines, drop / sqrt(w^2 + drop^2)), no FMA,
// flows gathered.
#pragma once

#include "ca/sciara.cuh"

namespace opsplit::ca {

// What a step needs, derived from the named parameters (src/ca/sciara.cpp).
struct Lava3Constants {
  double dp_log2_0, dp_log2_slope;  // velocity dissipation dP(T) = 2^(dp_log2_0 + dp_log2_slope T)
  double hc_log2_0, hc_log2_slope;  // critical height hc(T), m
  double cell;                      // cell side w, m
  double gravity;                   // g, m s^-2
  double t_max;                     // the clock's upper value, s
  double relaxation;                // r: the clock is r x the time of the fastest flow
  double cooling_rate;              // 3 eps sigma delta / (rho cv w^2), m K^-3 s^-1
  double t_sol;                     // solidification temperature, K
};

// The direction lava from neighbour k travels in to reach the centre, as a unit vector
// (x east, y north): the opposite of k's offset.
OPSPLIT_HD double lava3_inflow_x(int k) {
  constexpr double kInvSqrt2 = 0.7071067811865476;
  return -lava_dcol(k) * (k < 4 ? 1.0 : kInvSqrt2);
}
OPSPLIT_HD double lava3_inflow_y(int k) {
  constexpr double kInvSqrt2 = 0.7071067811865476;
  return lava_drow(k) * (k < 4 ? 1.0 : kInvSqrt2);
}

// A cell's motion, whatever the clock: per direction k (kLava order) the minimising
// outflow phi, the initial speed v0 and the sine of the slope angle; keep = 1 - dP.
struct Lava3Motion {
  double phi[kLavaNeighbours];
  double v0[kLavaNeighbours];
  double slope[kLavaNeighbours];
  double keep;
};

// The motion of a cell holding lava (h[0] > 0) of momentum (px, py) (m^2/s: thickness x
// velocity) and temperature t, its neighbours' altitudes and thicknesses in z[1..8],
// h[1..8].
OPSPLIT_HD void lava3_motion(const double z[9], const double h[9], double t, double px, double py,
                             const Lava3Constants& c, Lava3Motion& m) {
  constexpr double kSqrt2 = 1.4142135623730951, kInvSqrt2 = 0.7071067811865476;
  m.keep = 1.0 - lava_exp2(c.dp_log2_0 + c.dp_log2_slope * t);
  const double critical = lava_exp2(c.hc_log2_0 + c.hc_log2_slope * t);
  // The velocity p / h split along the two lattice directions around it (45 degrees
  // apart: an axis and a diagonal), as the sides of a parallelogram.
  OPSPLIT_UNROLL
  for (int k = 0; k < kLavaNeighbours; ++k) m.v0[k] = 0.0;
  const double vx = px / h[0], vy = py / h[0];
  const double ax = std::fabs(vx), ay = std::fabs(vy);
  const int diagonal = vx >= 0.0 ? (vy >= 0.0 ? 7 : 6) : (vy >= 0.0 ? 4 : 5);  // NE, SE, NW, SW
  if (ax >= ay) {
    m.v0[vx >= 0.0 ? 2 : 1] = ax - ay;  // E or W
    m.v0[diagonal] = kSqrt2 * ay;
  } else {
    m.v0[vy >= 0.0 ? 0 : 3] = ay - ax;  // N or S
    m.v0[diagonal] = kSqrt2 * ax;
  }
  // Per neighbour: the kinetic head v0^2 / 2g lifts the centre's surface; the part of
  // the lava above the neighbour's surface may leave (effective height he, the rest,
  // ha, stays); the neighbour is eliminated unless he > hc cos(theta), theta the slope
  // from the centre of the effective lava's column to the neighbour's surface.
  double height[9];
  bool candidate[9];
  height[0] = z[0];
  candidate[0] = true;
  const double w2 = c.cell * c.cell;
  OPSPLIT_UNROLL
  for (int k = 1; k <= kLavaNeighbours; ++k) {
    const double zk = k <= 4 ? z[k] : z[0] - (z[0] - z[k]) * kInvSqrt2;  // a diagonal drop over the orthogonal distance
    height[k] = zk + h[k];
    const double kinetic = m.v0[k - 1] * m.v0[k - 1] / (2.0 * c.gravity);
    const double base = z[0] + kinetic;
    double effective = 0.0;
    if (base + h[0] > height[k]) effective = height[k] <= base ? h[0] : (base + h[0]) - height[k];
    const double drop = (z[0] + (h[0] - effective) + effective * 0.5) - height[k];
    const double hypotenuse = std::sqrt(w2 + drop * drop);
    m.slope[k - 1] = drop / hypotenuse;
    candidate[k] = effective > 0.0 && effective * hypotenuse > critical * c.cell;
  }
  const double average = lava_minimise(height, candidate, h[0]);
  OPSPLIT_UNROLL
  for (int k = 1; k <= kLavaNeighbours; ++k) m.phi[k - 1] = candidate[k] ? average - height[k] : 0.0;
}

// The displacement along a direction after t seconds is s(t) = a t + b t^2 (v0 t plus half
// the mean acceleration, (v_f - v0) / t, times t^2, with v_f = (v0 + g sin(theta) t)(1 - dP)):
// a = v0 (1 + keep) / 2, b = g sin(theta) keep / 2.
OPSPLIT_HD double lava3_reach_a(double v0, double keep) { return v0 * (1.0 + keep) * 0.5; }
OPSPLIT_HD double lava3_reach_b(double slope, double keep, const Lava3Constants& c) {
  return c.gravity * slope * keep * 0.5;
}

// Time evaluation: the time after which the cell's first flow has moved one cell side w
// (the first root of s(t) = w, in the form 2w / (a + sqrt(a^2 + 4bw)) that needs no
// case for b = 0 and is exact however small b is); infinity when no flow gets there.
// The thesis solves with the mean acceleration at t_max held fixed; solving s(t) = w
// itself guarantees that no flow of a step of r x this time moves more than w.
OPSPLIT_HD double lava3_cell_time(const Lava3Motion& m, const Lava3Constants& c) {
  double time = HUGE_VAL;
  OPSPLIT_UNROLL
  for (int k = 0; k < kLavaNeighbours; ++k) {
    if (!(m.phi[k] > 0.0)) continue;
    const double a = lava3_reach_a(m.v0[k], m.keep), b = lava3_reach_b(m.slope[k], m.keep, c);
    const double discriminant = a * a + 4.0 * b * c.cell;
    if (!(discriminant > 0.0)) continue;  // decelerates to rest before w
    const double denominator = a + std::sqrt(discriminant);
    if (denominator > 0.0) time = std::fmin(time, 2.0 * c.cell / denominator);
  }
  return time;
}

// Flow mode: for a step of `clock` seconds, the thickness leaving along a direction of
// minimising outflow phi, initial speed v0 and slope sine `slope`, phi s / w (s within
// [0, w]), and its momentum, that thickness times the final speed v_f (not below 0).
OPSPLIT_HD void lava3_flow(double phi, double v0, double slope, double keep, const Lava3Constants& c, double clock,
                           double& flow, double& momentum) {
  const double s = (lava3_reach_a(v0, keep) + lava3_reach_b(slope, keep, c) * clock) * clock;
  const double share = std::fmin(std::fmax(s, 0.0), c.cell) / c.cell;
  const double speed = std::fmax((v0 + c.gravity * slope * clock) * keep, 0.0);
  flow = phi > 0.0 ? phi * share : 0.0;
  momentum = flow * speed;
}

// Phase 1 at cell (r, c) of row-major planes: its motion, false when it holds no lava or
// is on the sink ring (nothing flows from there).
template <class Shape>
OPSPLIT_HD bool lava3_cell_motion(const double* z, const double* h, const double* t, const double* px,
                                  const double* py, const Shape& s, int64_t r, int64_t c,
                                  const Lava3Constants& k, Lava3Motion& m) {
  if (!lava_moves(h, s, r, c)) return false;
  const int64_t i = r * s.cols + c;
  double zs[9], hs[9];
  lava_gather(z, h, s.cols, i, zs, hs);
  lava3_motion(zs, hs, t[i], px[i], py[i], k, m);
  return true;
}

// Phase 2 at a cell after a step of `clock` seconds, from its own outflows, the flows
// and momenta its neighbours send it (in[n], in_momentum[n]: zero from outside the grid)
// and their temperatures before the step: the residual lava keeps its velocity times
// 1 - dP, inflows bring theirs along their direction; then fv2's balance (mixing,
// cooling over the clock, solidification). On the sink ring what arrives is added to
// lost. True when the cell holds lava after.
OPSPLIT_HD bool lava3_cell_update(bool sink, const double own[kLavaNeighbours], const double in[kLavaNeighbours],
                                  const double in_momentum[kLavaNeighbours], const double t_in[kLavaNeighbours],
                                  const Lava3Constants& k, double clock, double& z, double& h, double& t, double& px,
                                  double& py, double& solid, double& lost) {
  if (sink) {
    lost += lava_sum(in);
    return false;
  }
  const double out = lava_sum(own);
  const bool was_dry = !(h > 0.0);
  double qx = 0.0, qy = 0.0;
  if (!was_dry) {
    const double residual = (h - out) * (1.0 - lava_exp2(k.dp_log2_0 + k.dp_log2_slope * t)) / h;
    qx = px * residual, qy = py * residual;
  }
  OPSPLIT_UNROLL
  for (int n = 0; n < kLavaNeighbours; ++n) qx += in_momentum[n] * lava3_inflow_x(n), qy += in_momentum[n] * lava3_inflow_y(n);
  lava_balance(out, in, t_in, k.cooling_rate * clock, k.t_sol, z, h, t, solid);
  const bool fluid = h > 0.0;
  // Solidified or gone: at rest. A cell dry before and after keeps what it held (never
  // read while dry; the same whether or not the step visits it).
  if (fluid || !was_dry) px = fluid ? qx : 0.0, py = fluid ? qy : 0.0;
  return fluid;
}

// fv3 keeps each lava cell's motion between the step's two phases in planes: value v
// (Lava3Motion's phi[8], v0[8], slope[8], keep) of cell i at motion[v n + i].
constexpr int kLava3MotionValues = 3 * kLavaNeighbours + 1;

// A motion value is read by at most nine cells of the step and not again: CUDA reads it
// through L2 only (a caching choice; the grid-wide barrier before makes any load see it).
OPSPLIT_HD double lava3_load(const double* x) {
#ifdef __CUDA_ARCH__
  return __ldcg(x);
#else
  return *x;
#endif
}

OPSPLIT_HD void lava3_store_motion(double* motion, int64_t n, int64_t i, const Lava3Motion& m) {
  OPSPLIT_UNROLL
  for (int d = 0; d < kLavaNeighbours; ++d)
    motion[d * n + i] = m.phi[d], motion[(kLavaNeighbours + d) * n + i] = m.v0[d],
    motion[(2 * kLavaNeighbours + d) * n + i] = m.slope[d];
  motion[(kLava3MotionValues - 1) * n + i] = m.keep;
}

// Cell i's flow and momentum along direction d for a step of `clock` seconds, from its
// stored motion.
OPSPLIT_HD void lava3_stored_flow(const double* motion, int64_t n, int64_t i, int d, const Lava3Constants& k,
                                  double clock, double& flow, double& momentum) {
  lava3_flow(lava3_load(motion + d * n + i), lava3_load(motion + (kLavaNeighbours + d) * n + i),
             lava3_load(motion + (2 * kLavaNeighbours + d) * n + i), lava3_load(motion + (kLava3MotionValues - 1) * n + i),
             k, clock, flow, momentum);
}

// Flow mode at cell (r, c), after the time evaluation stored the motion of every cell
// holding lava: its own outflows and the flows and momenta its neighbours send it, its
// update (reading buffer `cur` of p's pairs, writing the other; solidified and lost in
// place), then, at a vent cell, the emission over [now, now + clock). True when the cell
// holds lava after.
template <class Shape>
OPSPLIT_HD bool lava3_cell_step(const LavaPlanes& p, const Shape& s, int cur, int64_t r, int64_t c,
                                const Lava3Constants& k, double clock, const LavaVents& vents, bool may_be_vent,
                                double now) {
  const int64_t cols = s.cols, n = s.rows * cols, i = r * cols + c;
  const double *h = p.thickness[cur], *t = p.temperature[cur];
  const bool sink = s.sink(r, c);
  double own[kLavaNeighbours], in[kLavaNeighbours], in_momentum[kLavaNeighbours], t_in[kLavaNeighbours];
  const bool own_moves = lava_moves(h, s, r, c);
  OPSPLIT_UNROLL
  for (int d = 0; d < kLavaNeighbours; ++d) {
    double unused = 0.0;
    own[d] = 0.0, in[d] = 0.0, in_momentum[d] = 0.0;
    if (own_moves) lava3_stored_flow(p.motion, n, i, d, k, clock, own[d], unused);
    const int64_t rr = r + lava_drow(d), cc = c + lava_dcol(d), j = rr * cols + cc;
    const bool inside = s.stored(rr, cc);
    if (inside && lava_moves(h, s, rr, cc))
      lava3_stored_flow(p.motion, n, j, lava_opposite(d), k, clock, in[d], in_momentum[d]);
    t_in[d] = inside ? t[j] : 0.0;  // outside the grid: zero flows and temperature
  }
  double z = p.altitude[cur][i], hi = h[i], ti = t[i], px = p.momentum_x[cur][i], py = p.momentum_y[cur][i];
  double solid = p.solidified[i], lost = p.lost[i];
  const bool fluid = lava3_cell_update(sink, own, in, in_momentum, t_in, k, clock, z, hi, ti, px, py, solid, lost);
  if (may_be_vent) lava_emit(vents, now, clock, i, hi, ti);
  const int next = cur ^ 1;
  p.altitude[next][i] = z, p.thickness[next][i] = hi, p.temperature[next][i] = ti;
  p.momentum_x[next][i] = px, p.momentum_y[next][i] = py;
  if (solid != p.solidified[i]) p.solidified[i] = solid;
  if (sink) p.lost[i] = lost;
  return fluid;
}

// The step's clock from the grid's shortest time (infinity when nothing flows): r times
// it, at most r t_max, cut at `until` - `now` (then *last is set: the step ends at until).
OPSPLIT_HD double lava3_clock(double shortest, double now, double until, const Lava3Constants& k, bool* last) {
  const double clock = k.relaxation * std::fmin(shortest, k.t_max);
  *last = clock >= until - now;
  return *last ? until - now : clock;
}

// A clock too short to advance the time (below half its last bit: velocities past any
// lava's, e.g. a momentum set out of scale): the steps stop.
OPSPLIT_HD bool lava3_stalled(double now, double clock, bool last) { return !last && now + clock == now; }

// The emitted thickness of every vent over the step [now, now + clock), added to `sum`
// in vent order (the count of emitted volume, the same on both backends).
OPSPLIT_HD void lava3_count_emission(const LavaVents& e, double now, double clock, CompensatedSum& sum) {
  for (int v = 0; v < e.count; ++v) sum.add(lava_vent_thickness(e, v, now, clock));
}

}  // namespace opsplit::ca
