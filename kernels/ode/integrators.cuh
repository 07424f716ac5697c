// Adaptive integrators for one ODE system: RKCK45, RKC and RODAS4. Written once for
// the CPU loops and the CUDA kernels; a system never sees another's steps or norms.
//
// A right-hand side is any object with
//   int n;                                          // equations
//   int f(double t, const double* y, double* ydot); // 0 ok, > 0 recoverable, < 0 fatal
//   int jacobian(double t, const double* y, double* jac);  // column-major n x n
// (f and jacobian may be templates taking any vector type V the integrators are called
// with: a pointer, or a Strided view of interleaved vectors, common/strided.cuh)
//   bool has_jacobian() const;  bool autonomous() const;
// or, with `static constexpr bool kSparseJacobian = true`, a jacobian() that fills the
// values of the pattern `const linalg::SparseLu& sparse_lu() const` gives (linalg/sparse_lu.cuh):
// RODAS then factors 1/(gamma h) - J on that pattern instead of densely.
// The caller gives each system contiguous scratch of workspace_size(n, matrix_values(rhs))
// doubles and n ints (registers / local memory on the GPU, a thread's buffer on the CPU).
#pragma once

#include <math.h>
#include <stdint.h>

#include <type_traits>

#include "common/hd.cuh"
#include "common/vector.cuh"
#include "linalg/sparse_lu.cuh"

namespace opsplit::ode {

enum Result : int { kOk = 0, kTooManySteps = 1, kStepTooSmall = 2, kNonfinite = 3, kRhsFailed = 4,
                    kPaused = 5 /* Rosenbrock's pause_after: internal to a backend, never reported */ };
enum Method : int { kRkck45 = 0, kRkc = 1, kRosenbrock = 2 /* RODAS4 */, kRos3 = 3 };

// The Rosenbrock methods: they share the integrator (and CUDA's rounds).
OPSPLIT_HD constexpr bool is_rosenbrock(int method) { return method == kRosenbrock || method == kRos3; }

struct Settings {
  double rtol = 1e-6;
  const double* atol = nullptr;  // n values
  int64_t max_steps = 100000;
  bool clip_negative = false;
};

struct Counts {
  int64_t accepted = 0, rejected = 0, rhs = 0, jacobian = 0;
};

struct Outcome {
  int result = kOk;
  double h_next = 0.0;  // the step the system would take next (keep_step)
  double t = 0.0;       // where a kPaused integration stopped
};

constexpr double kUnitRoundoff = 2.220446049250313e-16;

template <class Rhs, class = void>
struct HasSparseJacobian : std::false_type {};
template <class Rhs>
struct HasSparseJacobian<Rhs, std::void_t<decltype(Rhs::kSparseJacobian)>>
    : std::integral_constant<bool, Rhs::kSparseJacobian> {};

// Values of one of RODAS's two matrices (df/dy and 1/(gamma h) - J): the sparse
// pattern's (the tests' 600-species mechanism: 6818 of the 360 000), or
// n x n.
template <class Rhs>
OPSPLIT_HD int64_t matrix_values(const Rhs& rhs) {
  if constexpr (HasSparseJacobian<Rhs>::value)
    return rhs.sparse_lu().nnz;
  else
    return static_cast<int64_t>(rhs.n) * rhs.n;
}

// Doubles of scratch one system needs: 12 vectors (the most any method uses) and RODAS's
// two matrices of matrix_values each (n x n: dense_matrix_values(n)).
OPSPLIT_HD constexpr int64_t workspace_size(int n, int64_t matrix_values) { return 12 * int64_t(n) + 2 * matrix_values; }
OPSPLIT_HD constexpr int64_t dense_matrix_values(int n) { return int64_t(n) * n; }

OPSPLIT_HD bool is_finite(double x) { return x - x == 0.0; }
OPSPLIT_HD double max_d(double a, double b) { return a > b ? a : b; }
OPSPLIT_HD double min_d(double a, double b) { return a < b ? a : b; }

// Root mean square of err_i / (atol_i + rtol * max(|y_i|, |ynew_i|)).
template <class V>
OPSPLIT_HD double rms_error(int n, V err, V y, V ynew, const Settings& s) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double scale = s.atol[i] + s.rtol * max_d(fabs(y[i]), fabs(ynew[i]));
    const double e = err[i] / scale;
    sum += e * e;
  }
  return sqrt(sum / n);
}

template <class V>
OPSPLIT_HD bool all_finite(int n, V v) {
  for (int i = 0; i < n; ++i)
    if (!is_finite(v[i])) return false;
  return true;
}

template <class V>
OPSPLIT_HD bool clip_negative(int n, V y) {
  bool changed = false;
  for (int i = 0; i < n; ++i)
    if (y[i] < 0.0) y[i] = 0.0, changed = true;
  return changed;
}

// The smallest step that still moves t by more than rounding: below it a rejection is a
// failure. Relative to t itself (a long interval starts with tiny steps), with a floor
// far below any physical time scale.
OPSPLIT_HD double min_step(double t) { return max_d(16.0 * kUnitRoundoff * fabs(t), 1e-280); }

// The result of an rhs call inside a step: fatal stops, recoverable rejects the step.
template <class Rhs, class V>
OPSPLIT_HD int eval(Rhs& rhs, double t, V y, V ydot, Counts& c) {
  ++c.rhs;
  return rhs.f(t, y, ydot);
}

// A first step from the local behaviour of f (Hairer, Norsett & Wanner, Solving ODEs I,
// II.4): one extra evaluation; `order` is the method's.
template <class Rhs, class V>
OPSPLIT_HD double starting_step(Rhs& rhs, double t, V y, V f0, double hmax, int order,
                                const Settings& s, Counts& c, V y1, V f1) {
  const int n = rhs.n;
  double dnf = 0.0, dny = 0.0;
  for (int i = 0; i < n; ++i) {
    const double sk = s.atol[i] + s.rtol * fabs(y[i]);
    dnf += (f0[i] / sk) * (f0[i] / sk);
    dny += (y[i] / sk) * (y[i] / sk);
  }
  double h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : 0.01 * sqrt(dny / dnf);
  h = min_d(h, hmax);
  for (int i = 0; i < n; ++i) y1[i] = y[i] + h * f0[i];
  if (eval(rhs, t + h, y1, f1, c) != 0 || !all_finite(n, f1)) return h;
  double der2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double sk = s.atol[i] + s.rtol * fabs(y[i]);
    der2 += ((f1[i] - f0[i]) / sk) * ((f1[i] - f0[i]) / sk);
  }
  der2 = sqrt(der2) / h;
  const double der12 = max_d(fabs(der2), sqrt(dnf));
  const double h1 = der12 <= 1e-15 ? max_d(1e-6, h * 1e-3) : pow(0.01 / der12, 1.0 / order);
  const double start = min_d(min_d(100.0 * h, h1), hmax);
  return is_finite(start) && start > 0.0 ? start : h;
}

// Why a rejected step that cannot shrink further failed.
OPSPLIT_HD int small_step_result(bool nonfinite) { return nonfinite ? kNonfinite : kStepTooSmall; }

// After an accepted step of hs from t (the last one lands on t1): the next step is
// `grown` (a step cut to reach t1 does not shrink the next call's), y takes ynew
// (clipped if asked) and, unless t1 is reached, f = f(t, y) for the next step.
// Returns kOk, or why the system stops.
template <class Rhs, class V>
OPSPLIT_HD int advance(Rhs& rhs, double& t, double t1, double hs, bool last, double grown, double& h, V y,
                       V ynew, V f, const Settings& s, Counts& c) {
  const int n = rhs.n;
  h = last ? max_d(grown, h) : grown;
  t = last ? t1 : t + hs;
  for (int i = 0; i < n; ++i) y[i] = ynew[i];
  if (s.clip_negative) clip_negative(n, y);
  if (t >= t1) return kOk;
  if (eval(rhs, t, y, f, c) != 0) return kRhsFailed;
  return all_finite(n, f) ? kOk : kNonfinite;
}

// ---- RKCK45: Cash-Karp 5(4), the seed's error control ------------------------------

// One Cash-Karp step of size h from (t, y) with k1 = f(t, y): the 5th-order ynew and
// the difference to the embedded 4th-order solution, yerr. k holds 5 scratch vectors.
template <class Rhs, class V>
OPSPLIT_HD int rkck_step(Rhs& rhs, double t, V y, V k1, double h, V ynew, V yerr,
                         V k, Counts& c) {
  constexpr double a2 = 0.2, a3 = 0.3, a4 = 0.6, a5 = 1.0, a6 = 0.875;
  constexpr double b21 = 0.2, b31 = 3.0 / 40.0, b32 = 9.0 / 40.0, b41 = 0.3, b42 = -0.9, b43 = 1.2;
  constexpr double b51 = -11.0 / 54.0, b52 = 2.5, b53 = -70.0 / 27.0, b54 = 35.0 / 27.0;
  constexpr double b61 = 1631.0 / 55296.0, b62 = 175.0 / 512.0, b63 = 575.0 / 13824.0, b64 = 44275.0 / 110592.0,
                   b65 = 253.0 / 4096.0;
  constexpr double c1 = 37.0 / 378.0, c3 = 250.0 / 621.0, c4 = 125.0 / 594.0, c6 = 512.0 / 1771.0;
  constexpr double dc1 = c1 - 2825.0 / 27648.0, dc3 = c3 - 18575.0 / 48384.0, dc4 = c4 - 13525.0 / 55296.0,
                   dc5 = -277.0 / 14336.0, dc6 = c6 - 0.25;
  const int n = rhs.n;
  V k2 = k;
  V k3 = k2 + n;
  V k4 = k3 + n;
  V k5 = k4 + n;
  V k6 = k5 + n;
  V yt = ynew;  // the stages' arguments, until ynew is formed
  for (int i = 0; i < n; ++i) yt[i] = y[i] + h * b21 * k1[i];
  int code = eval(rhs, t + a2 * h, yt, k2, c);
  if (code != 0) return code;
  for (int i = 0; i < n; ++i) yt[i] = y[i] + h * (b31 * k1[i] + b32 * k2[i]);
  if ((code = eval(rhs, t + a3 * h, yt, k3, c)) != 0) return code;
  for (int i = 0; i < n; ++i) yt[i] = y[i] + h * (b41 * k1[i] + b42 * k2[i] + b43 * k3[i]);
  if ((code = eval(rhs, t + a4 * h, yt, k4, c)) != 0) return code;
  for (int i = 0; i < n; ++i) yt[i] = y[i] + h * (b51 * k1[i] + b52 * k2[i] + b53 * k3[i] + b54 * k4[i]);
  if ((code = eval(rhs, t + a5 * h, yt, k5, c)) != 0) return code;
  for (int i = 0; i < n; ++i)
    yt[i] = y[i] + h * (b61 * k1[i] + b62 * k2[i] + b63 * k3[i] + b64 * k4[i] + b65 * k5[i]);
  if ((code = eval(rhs, t + a6 * h, yt, k6, c)) != 0) return code;
  for (int i = 0; i < n; ++i) {
    ynew[i] = y[i] + h * (c1 * k1[i] + c3 * k3[i] + c4 * k4[i] + c6 * k6[i]);
    yerr[i] = h * (dc1 * k1[i] + dc3 * k3[i] + dc4 * k4[i] + dc5 * k5[i] + dc6 * k6[i]);
  }
  return 0;
}

// Error per component against rtol * (|y| + |h f|) + atol (seed 002, eq. 11), the
// largest ratio decides; steps shrink at most 10x and grow at most 5x (eq. 12).
template <class Rhs, class V>
OPSPLIT_HD Outcome integrate_rkck45(Rhs& rhs, double t, double t1, V y, double h, const Settings& s,
                                    V work, Counts& c) {
  constexpr double safety = 0.9, errcon = 1.89e-4;  // errcon = (5 / safety)^-5: growth capped at 5x
  const int n = rhs.n;
  V k1 = work;
  V ynew = k1 + n;
  V yerr = ynew + n;
  V stages = yerr + n;  // 5 vectors
  Outcome out;
  if (!all_finite(n, y)) return out.result = kNonfinite, out;
  int code = eval(rhs, t, y, k1, c);
  if (code != 0) return out.result = kRhsFailed, out;
  if (!all_finite(n, k1)) return out.result = kNonfinite, out;
  if (h <= 0.0) h = starting_step(rhs, t, y, k1, t1 - t, 5, s, c, ynew, yerr);
  bool nonfinite = false;
  int64_t steps = 0;
  while (t < t1) {
    if (steps++ >= s.max_steps) return out.result = kTooManySteps, out.h_next = h, out;
    const bool last = t + h >= t1;
    const double hs = last ? t1 - t : h;
    code = rkck_step(rhs, t, y, k1, hs, ynew, yerr, stages, c);
    if (code < 0) return out.result = kRhsFailed, out;
    double err = 0.0;
    if (code == 0) {
      for (int i = 0; i < n; ++i) {
        const double scale = s.rtol * (fabs(y[i]) + fabs(hs * k1[i])) + s.atol[i];
        const double ratio = fabs(yerr[i] / scale);
        err = (ratio > err || ratio != ratio) ? ratio : err;
      }
      nonfinite = !is_finite(err);
    }
    if (code > 0 || !(err <= 1.0)) {  // rejected (NaN compares false)
      ++c.rejected;
      h = (code > 0 || nonfinite) ? 0.1 * hs : max_d(safety * hs * pow(err, -0.25), 0.1 * hs);
      if (h < min_step(t)) return out.result = small_step_result(nonfinite), out.h_next = h, out;
      continue;
    }
    ++c.accepted;
    nonfinite = false;
    const double grown = err > errcon ? safety * hs * pow(err, -0.2) : 5.0 * hs;
    const int result = advance(rhs, t, t1, hs, last, grown, h, y, ynew, k1, s, c);
    if (result != kOk) return out.result = result, out;
  }
  out.h_next = h;
  return out;
}

// ---- RKC: Runge-Kutta-Chebyshev (Sommeijer, Shampine & Verwer 1997; seed 002) -------

// The spectral radius of df/dy at (t, y) by the nonlinear power method: difference
// quotients f(t, y + v) - f(t, y) along an eigenvector estimate `ev` (kept between
// calls; start it with f(t, y)). Returns 1.2 x the estimate (an upper bound more
// likely). fv and v are scratch.
template <class Rhs, class V>
OPSPLIT_HD double spectral_radius(Rhs& rhs, double t, V y, V fn, double hmax, V ev,
                                  V v, V fv, Counts& c, int* code) {
  const int n = rhs.n;
  const double sqrtu = sqrt(kUnitRoundoff);
  const double small = 1.0 / hmax;
  double ynrm = 0.0, vnrm = 0.0;
  for (int i = 0; i < n; ++i) ynrm += y[i] * y[i], vnrm += ev[i] * ev[i];
  ynrm = sqrt(ynrm), vnrm = sqrt(vnrm);
  double dynrm;
  if (ynrm != 0.0 && vnrm != 0.0) {
    dynrm = ynrm * sqrtu;
    for (int i = 0; i < n; ++i) v[i] = y[i] + ev[i] * (dynrm / vnrm);
  } else if (ynrm != 0.0) {
    dynrm = ynrm * sqrtu;
    for (int i = 0; i < n; ++i) v[i] = y[i] + y[i] * sqrtu;
  } else if (vnrm != 0.0) {
    dynrm = kUnitRoundoff;
    for (int i = 0; i < n; ++i) v[i] = ev[i] * (dynrm / vnrm);
  } else {
    dynrm = kUnitRoundoff;
    for (int i = 0; i < n; ++i) v[i] = dynrm;
  }
  double sigma = 0.0, sprad = 0.0;
  for (int iter = 1; iter <= 50; ++iter) {
    *code = eval(rhs, t, v, fv, c);
    if (*code != 0) return sprad;
    double dfnrm = 0.0;
    for (int i = 0; i < n; ++i) dfnrm += (fv[i] - fn[i]) * (fv[i] - fn[i]);
    dfnrm = sqrt(dfnrm);
    const double previous = sigma;
    sigma = dfnrm / dynrm;
    sprad = 1.2 * sigma;
    if (iter >= 2 && fabs(sigma - previous) <= max_d(sigma, small) * 0.01) break;
    if (dfnrm != 0.0) {
      for (int i = 0; i < n; ++i) v[i] = y[i] + (fv[i] - fn[i]) * (dynrm / dfnrm);
    } else {  // no change along v: perturb one component and go on
      const int i = iter % n;
      v[i] = y[i] - (v[i] - y[i]);
    }
  }
  for (int i = 0; i < n; ++i) ev[i] = v[i] - y[i];
  return sprad;
}

// The number of stages for step h (s = 1 + sqrt(1 + 1.54 h sigma), seed eq. 33).
// Capped before the conversion to int (a huge h sigma would overflow it); the caller caps
// it further by rounding.
OPSPLIT_HD int rkc_stages(double h, double sprad) {
  const double s = 1.0 + sqrt(1.0 + 1.54 * h * sprad);
  return s < 1e9 ? static_cast<int>(s) : 1000000000;
}

// One RKC step of s stages from (t, y, fn) to ynew (seed eqs. 13-23, damping 2/13).
template <class Rhs, class V>
OPSPLIT_HD int rkc_step(Rhs& rhs, double t, V y, V fn, double h, int s, V ynew,
                        V yjm1, V yjm2, V fv, Counts& c) {
  const int n = rhs.n;
  const double w0 = 1.0 + 2.0 / (13.0 * s * s);
  const double temp1 = w0 * w0 - 1.0, temp2 = sqrt(temp1);
  const double arg = s * log(w0 + temp2);
  const double w1 = sinh(arg) * temp1 / (cosh(arg) * s * temp2 - w0 * sinh(arg));
  double bjm1 = 1.0 / ((2.0 * w0) * (2.0 * w0)), bjm2 = bjm1;
  double mus = w1 * bjm1;
  for (int i = 0; i < n; ++i) yjm2[i] = y[i], yjm1[i] = y[i] + h * mus * fn[i];
  double thjm2 = 0.0, thjm1 = mus;
  double zjm1 = w0, zjm2 = 1.0, dzjm1 = 1.0, dzjm2 = 0.0, d2zjm1 = 0.0, d2zjm2 = 0.0;
  for (int j = 2; j <= s; ++j) {
    const double zj = 2.0 * w0 * zjm1 - zjm2;
    const double dzj = 2.0 * w0 * dzjm1 - dzjm2 + 2.0 * zjm1;
    const double d2zj = 2.0 * w0 * d2zjm1 - d2zjm2 + 4.0 * dzjm1;
    const double bj = d2zj / (dzj * dzj);
    const double ajm1 = 1.0 - zjm1 * bjm1;
    const double mu = 2.0 * w0 * bj / bjm1;
    const double nu = -bj / bjm2;
    mus = mu * w1 / w0;
    const int code = eval(rhs, t + h * thjm1, yjm1, fv, c);
    if (code != 0) return code;
    for (int i = 0; i < n; ++i)
      ynew[i] = mu * yjm1[i] + nu * yjm2[i] + (1.0 - mu - nu) * y[i] + h * mus * (fv[i] - ajm1 * fn[i]);
    const double thj = mu * thjm1 + nu * thjm2 + mus * (1.0 - ajm1);
    if (j < s) {
      for (int i = 0; i < n; ++i) yjm2[i] = yjm1[i], yjm1[i] = ynew[i];
      thjm2 = thjm1, thjm1 = thj;
      bjm2 = bjm1, bjm1 = bj;
      zjm2 = zjm1, zjm1 = zj;
      dzjm2 = dzjm1, dzjm1 = dzj;
      d2zjm2 = d2zjm1, d2zjm1 = d2zj;
    }
  }
  return 0;
}

template <class Rhs, class V>
OPSPLIT_HD Outcome integrate_rkc(Rhs& rhs, double t, double t1, V y, double h, const Settings& s, V work,
                                 Counts& c) {
  const int n = rhs.n;
  V fn = work;
  V fnext = fn + n;
  V ynew = fnext + n;
  V yjm1 = ynew + n;
  V yjm2 = yjm1 + n;
  V ev = yjm2 + n;
  V fv = ev + n;
  Outcome out;
  if (!all_finite(n, y)) return out.result = kNonfinite, out;
  int code = eval(rhs, t, y, fn, c);
  if (code != 0) return out.result = kRhsFailed, out;
  if (!all_finite(n, fn)) return out.result = kNonfinite, out;
  const double hmax = t1 - t;
  for (int i = 0; i < n; ++i) ev[i] = fn[i];
  double sprad = spectral_radius(rhs, t, y, fn, hmax, ev, yjm1, fv, c, &code);
  if (code != 0) return out.result = kRhsFailed, out;
  // At most s stages where s^2 rounding errors stay below rtol (Sommeijer et al.).
  const int max_stages = static_cast<int>(max_d(2.0, floor(sqrt(s.rtol / (10.0 * kUnitRoundoff)) + 0.5)));
  if (h <= 0.0) {  // seed eqs. 30-32
    h = hmax;
    if (sprad * h > 1.0) h = 1.0 / sprad;
    h = max_d(h, min_step(t));
    for (int i = 0; i < n; ++i) yjm1[i] = y[i] + h * fn[i];
    code = eval(rhs, t + h, yjm1, fv, c);
    if (code < 0) return out.result = kRhsFailed, out;
    double est = 0.0;
    for (int i = 0; i < n; ++i) {
      const double wt = s.atol[i] + s.rtol * fabs(y[i]);
      est += ((fv[i] - fn[i]) / wt) * ((fv[i] - fn[i]) / wt);
    }
    est = h * sqrt(est / n);
    if (code == 0 && is_finite(est)) h = 0.1 * h < hmax * sqrt(est) ? max_d(0.1 * h / sqrt(est), min_step(t)) : hmax;
  }
  bool first = true, fresh_radius = true, nonfinite = false;
  double err_old = 0.0, h_old = 0.0;
  int steps_since_radius = 0;
  int64_t steps = 0;
  while (t < t1) {
    if (steps++ >= s.max_steps) return out.result = kTooManySteps, out.h_next = h, out;
    if (!fresh_radius) {
      sprad = spectral_radius(rhs, t, y, fn, hmax, ev, yjm1, fv, c, &code);
      if (code != 0) return out.result = kRhsFailed, out;
      fresh_radius = true;
      steps_since_radius = 0;
    }
    const bool last = t + h >= t1;
    double hs = last ? t1 - t : h;
    int stages = rkc_stages(hs, sprad);
    if (stages > max_stages) stages = max_stages, hs = (static_cast<double>(stages) * stages - 1.0) / (1.54 * sprad);
    if (stages < 2) stages = 2;
    const bool lands = last && hs == t1 - t;
    code = rkc_step(rhs, t, y, fn, hs, stages, ynew, yjm1, yjm2, fv, c);
    if (code == 0) code = eval(rhs, t + hs, ynew, fnext, c);
    if (code < 0) return out.result = kRhsFailed, out;
    double err = 0.0;
    if (code == 0) {
      for (int i = 0; i < n; ++i) fv[i] = 0.8 * (y[i] - ynew[i]) + 0.4 * hs * (fn[i] + fnext[i]);  // eq. 24
      err = rms_error(n, fv, y, ynew, s);
      nonfinite = !is_finite(err);
    }
    if (code > 0 || !(err <= 1.0)) {
      ++c.rejected;
      h = (code > 0 || nonfinite) ? 0.1 * hs : max_d(0.1, 0.8 / cbrt(err)) * hs;  // eq. 29
      if (h < min_step(t)) return out.result = small_step_result(nonfinite), out.h_next = h, out;
      fresh_radius = false;  // re-estimate after a rejection
      continue;
    }
    ++c.accepted;
    nonfinite = false;
    double fac = 10.0;  // eqs. 27-28
    if (first) {
      const double e3 = cbrt(err);
      if (0.8 < fac * e3) fac = 0.8 / e3;
    } else {
      const double num = 0.8 * hs * cbrt(err_old), den = h_old * cbrt(err) * cbrt(err);
      if (num < fac * den) fac = num / den;
    }
    const double grown = max_d(0.1, fac) * hs;
    h = lands ? max_d(grown, h) : grown;
    h_old = hs, err_old = err, first = false;
    t = lands ? t1 : t + hs;
    for (int i = 0; i < n; ++i) y[i] = ynew[i], fn[i] = fnext[i];
    if (s.clip_negative && clip_negative(n, y) && t < t1) {
      code = eval(rhs, t, y, fn, c);
      if (code != 0) return out.result = kRhsFailed, out;
    }
    if (!all_finite(n, fn)) return out.result = kNonfinite, out;
    if (++steps_since_radius >= 25) fresh_radius = false;  // every 25 steps
  }
  out.h_next = h;
  return out;
}

// ---- RODAS4: 6 stages, order 4(3), L-stable and stiffly accurate ---------------------

// out[i] = first[i] + c[0] k[i] + c[1] k[n + i] + ... + c[m - 1] k[(m - 1) n + i], summed
// in that order, four elements at a time (common/vector.cuh says why).
OPSPLIT_HD void add_stages_contiguous(int n, int m, const double* c, const double* __restrict__ first,
                                      const double* __restrict__ k, double* __restrict__ out) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    double s0 = first[i], s1 = first[i + 1], s2 = first[i + 2], s3 = first[i + 3];
    for (int j = 0; j < m; ++j) {
      const double* kj = k + j * n + i;
      const double k0 = kj[0], k1 = kj[1], k2 = kj[2], k3 = kj[3];
      s0 += c[j] * k0, s1 += c[j] * k1, s2 += c[j] * k2, s3 += c[j] * k3;
    }
    out[i] = s0, out[i + 1] = s1, out[i + 2] = s2, out[i + 3] = s3;
  }
  for (; i < n; ++i) {
    double sum = first[i];
    for (int j = 0; j < m; ++j) sum += c[j] * k[j * n + i];
    out[i] = sum;
  }
}

// The same sums for any vector type: contiguous vectors (CPU, local memory) as above,
// a Strided view element by element (its loads coalesce across the warp instead).
template <class V>
OPSPLIT_HD void add_stages(int n, int m, const double* c, V first, V k, V out) {
  if constexpr (std::is_pointer_v<V>) {
    add_stages_contiguous(n, m, c, first, k, out);
  } else {
    for (int i = 0; i < n; ++i) {
      double sum = first[i];
      for (int j = 0; j < m; ++j) sum += c[j] * k[j * n + i];
      out[i] = sum;
    }
  }
}

// In-place LU with partial pivoting of a column-major n x n matrix; false if singular.
OPSPLIT_HD bool lu_factor(int n, double* a, int* piv) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    double big = fabs(a[k + k * n]);
    for (int i = k + 1; i < n; ++i)
      if (fabs(a[i + k * n]) > big) big = fabs(a[i + k * n]), p = i;
    piv[k] = p;
    if (big == 0.0 || !is_finite(big)) return false;
    if (p != k) swap_strided(n, n, a + k, a + p);
    const double inv = 1.0 / a[k + k * n];
    for (int i = k + 1; i < n; ++i) a[i + k * n] *= inv;
    for (int j = k + 1; j < n; ++j) {
      const double akj = a[k + j * n];
      if (akj != 0.0) subtract_scaled(k + 1, n, akj, a + k * n, a + j * n);
    }
  }
  return true;
}

OPSPLIT_HD void lu_solve(int n, const double* __restrict__ lu, const int* piv, double* __restrict__ b) {
  // The factorization swapped whole rows (L's too): P A = L U, so all of P first.
  for (int k = 0; k < n; ++k) {
    const int p = piv[k];
    if (p != k) {
      const double tmp = b[k];
      b[k] = b[p], b[p] = tmp;
    }
  }
  for (int k = 0; k < n; ++k) subtract_scaled(k + 1, n, b[k], lu + k * n, b);
  for (int k = n - 1; k >= 0; --k) {
    b[k] /= lu[k + k * n];
    subtract_scaled(0, k, b[k], lu + k * n, b);
  }
}

// df/dy at (t, y) with f0 = f(t, y): the rhs's own, or forward differences.
template <class Rhs, class V>
OPSPLIT_HD int jacobian_at(Rhs& rhs, double t, V y, V f0, V jac, V scratch, Counts& c) {
  ++c.jacobian;
  if constexpr (HasSparseJacobian<Rhs>::value) {
    return rhs.jacobian(t, y, jac);  // always analytic
  } else {
    if (rhs.has_jacobian()) return rhs.jacobian(t, y, jac);
    const int n = rhs.n;
    for (int j = 0; j < n; ++j) {
      const double yj = y[j];
      const double delta = sqrt(kUnitRoundoff * max_d(1e-5, fabs(yj)));
      y[j] = yj + delta;
      const int code = eval(rhs, t, y, scratch, c);
      y[j] = yj;
      if (code != 0) return code;
      for (int i = 0; i < n; ++i) jac[i + j * n] = (scratch[i] - f0[i]) / delta;
    }
    return 0;
  }
}

// Rosenbrock methods in KPP's form (Sandu et al., Atmos. Environ. 31, 1997):
// G K_i = f(t + alpha_i h, y + sum_j a_ij K_j) + sum_j (c_ij / h) K_j + gamma_i h df/dt
// with G = 1 / (gamma_1 h) - J;  y_new = y + sum m_i K_i;  error estimate sum e_i K_i.
// Method (a template parameter, so that each method's coefficients are constants):
//   kRosenbrock  RODAS4 (Hairer & Wanner, Solving ODEs II, VI.4): 6 stages, order 4(3),
//                stiffly accurate; its error estimate is K_6 alone.
//   kRos3        ROS3 (Sandu et al. 1997): 3 stages (2 evaluations of f), order 3(2),
//                L-stable; the method KPP and MICM use for air quality, cheaper a step at
//                the loose tolerances chemistry-transport models ask for.
constexpr int kRodasStages = 6;  // the most stages: the workspace holds this many vectors

template <int Method>
OPSPLIT_HD constexpr int rosenbrock_stages() { return Method == kRos3 ? 3 : kRodasStages; }
// The local order of the error estimate: the step factor is 0.9 err^(-1 / order).
template <int Method>
OPSPLIT_HD constexpr double rosenbrock_order() { return Method == kRos3 ? 3.0 : 4.0; }

constexpr int kSingularMatrix = 0x7fffffff;  // rosenbrock_step: 1/(gamma h) - J is singular

// One step of the method of size h from (t, y) with f0 = f(t, y), jac = df/dy there and
// dfdt = df/dt (read only for a non-autonomous rhs). Gives ynew, and the stages in k
// (6 vectors; k + 5n is the error estimate). g (n x n), piv, ys, fs and w (n) are
// scratch. jac and g are dense or on the rhs's sparse pattern (HasSparseJacobian).
// Returns 0, the rhs's code, or kSingularMatrix.
template <int Method, class Rhs, class V>
OPSPLIT_HD int rosenbrock_step(Rhs& rhs, double t, V y, V f0, V jac, V dfdt, double h, V ynew, V k, V g, int* piv,
                               V ys, V fs, V w, Counts& c) {
  // Local tables (not static members): device code may read them at run-time indices.
  // a and c are strictly lower triangular, row by row: (i, j < i) at i (i - 1) / 2 + j.
  // RODAS4:
  constexpr double rodas_a[15] = {1.544,
                            0.9466785280815826, 0.2557011698983284,
                            3.314825187068521,  2.896124015972201,  0.9986419139977817,
                            1.221224509226641,  6.019134481288629,  12.53708332932087, -0.6878860361058950,
                            1.221224509226641,  6.019134481288629,  12.53708332932087, -0.6878860361058950, 1.0};
  constexpr double rodas_c[15] = {-5.6688,
                             -2.430093356833875, -0.2063599157091915,
                             -0.1073529058151375, -9.594562251023355, -20.47028614809616,
                             7.496443313967647,  -10.24680431464352, -33.99990352819905, 11.70890893206160,
                             8.083246795921522,  -7.981132988064893, -31.52159432874371, 16.31930543123136,
                             -6.058818238834054};
  constexpr double rodas_m[kRodasStages] = {1.221224509226641, 6.019134481288629, 12.53708332932087,
                                            -0.6878860361058950, 1.0, 1.0};
  constexpr double rodas_alpha[kRodasStages] = {0.0, 0.386, 0.21, 0.63, 1.0, 1.0};
  constexpr double rodas_gamma[kRodasStages] = {0.25, -0.1043, 0.1035, -0.03620000000000023, 0.0, 0.0};
  // ROS3 (Sandu et al. 1997, table 3; the third stage reuses the second's f):
  constexpr double ros3_a[3] = {1.0, 1.0, 0.0};
  constexpr double ros3_c[3] = {-1.0156171083877702091975600115545, 4.0759956452537699824805835358067,
                                9.2076794298330791242156818474003};
  constexpr double ros3_m[3] = {1.0, 6.1697947043828245592553615689730, -0.42772256543218573326238373806514};
  constexpr double ros3_e[3] = {0.5, -2.9079558716805469821718236208017, 0.22354069897811569627360909276199};
  constexpr double ros3_alpha[3] = {0.0, 0.43586652150845899941601945119356, 0.43586652150845899941601945119356};
  constexpr double ros3_gamma[3] = {0.43586652150845899941601945119356, 0.24291996454816804366592249683314,
                                    2.1851380027664058511513169485832};
  constexpr bool ros3 = Method == kRos3;
  constexpr int stages = rosenbrock_stages<Method>();
  const double* a = ros3 ? ros3_a : rodas_a;
  const double* cc = ros3 ? ros3_c : rodas_c;
  const double* m = ros3 ? ros3_m : rodas_m;
  const double* alpha = ros3 ? ros3_alpha : rodas_alpha;
  const double* gamma = ros3 ? ros3_gamma : rodas_gamma;
  const int n = rhs.n;
  const double ghinv = 1.0 / (gamma[0] * h);
  constexpr bool sparse = HasSparseJacobian<Rhs>::value;
  if constexpr (sparse) {
    const linalg::SparseLu& lu = rhs.sparse_lu();
    for (int i = 0; i < lu.nnz; ++i) g[i] = -jac[i];
    for (int p = 0; p < n; ++p) g[lu.diag[p]] += ghinv;
    if (!sparse_lu_factor(lu, g)) return kSingularMatrix;
  } else {
    for (int i = 0; i < n * n; ++i) g[i] = -jac[i];
    for (int i = 0; i < n; ++i) g[i + i * n] += ghinv;
    if (!lu_factor(n, g, piv)) return kSingularMatrix;
  }
  for (int st = 0; st < stages; ++st) {
    V ks = k + st * n;
    if (st == 0) {
      // K_1's right-hand side is f0 alone (add_stages of no stage would write through
      // `out` = k, which its __restrict__ forbids: GCC 12 miscompiled ROS3 at -O2).
      for (int i = 0; i < n; ++i) ks[i] = f0[i];
    } else {
      const int row = st * (st - 1) / 2;
      if (!(ros3 && st == 2)) {  // ROS3's third stage takes the second's f
        add_stages(n, st, a + row, y, k, ys);
        const int code = eval(rhs, t + alpha[st] * h, ys, fs, c);
        if (code != 0) return code;
      }
      double c_h[kRodasStages];
      for (int j = 0; j < st; ++j) c_h[j] = cc[row + j] / h;
      add_stages(n, st, c_h, fs, k, ks);
    }
    if (!rhs.autonomous() && gamma[st] != 0.0)
      for (int i = 0; i < n; ++i) ks[i] += gamma[st] * h * dfdt[i];
    if constexpr (sparse)
      sparse_lu_solve(rhs.sparse_lu(), g, ks, w);
    else
      lu_solve(n, g, piv, ks);
  }
  add_stages(n, stages, m, y, k, ynew);
  if constexpr (ros3) {  // the error estimate where RODAS4 leaves its K_6
    V err = k + (kRodasStages - 1) * n;
    for (int i = 0; i < n; ++i) err[i] = ros3_e[0] * k[i] + ros3_e[1] * k[n + i] + ros3_e[2] * k[2 * n + i];
  }
  return 0;
}

// The step factor from an error norm: 0.9 err^(-1/order), within [0.2, 6].
template <int Method>
OPSPLIT_HD double rosenbrock_factor(double err) {
  return min_d(6.0, max_d(0.2, 0.9 / pow(max_d(err, 1e-10), 1.0 / rosenbrock_order<Method>())));
}

// With pause_after > 0 the integration stops after that many accepted steps of this call
// short of t1, with kPaused and out.t the time reached: y, f(t, y) in work[0, n) and c
// are then all it leaves behind (an accepted step keeps no Jacobian and no rejection
// history), and a call from out.t with h = out.h_next, the same y, work[0, n) and c,
// and resume = true takes exactly the steps the first call would have taken next. The
// CUDA kernels run stiff batches in such rounds (kernels/ode/ode_cuda.cu).
template <int Method, class Rhs, class V>
OPSPLIT_HD Outcome integrate_rosenbrock(Rhs& rhs, double t, double t1, V y, double h, const Settings& s,
                                        V work, int* piv, Counts& c, int64_t pause_after = 0,
                                        bool resume = false) {
  const int n = rhs.n;
  V f0 = work;
  V fs = f0 + n;
  V ys = fs + n;
  V ynew = ys + n;
  V dfdt = ynew + n;
  V k = dfdt + n;  // kRodasStages vectors
  V jac = k + kRodasStages * n;
  V g = jac + matrix_values(rhs);
  V w = g + matrix_values(rhs);
  Outcome out;
  int code = 0;
  if (!resume) {
    if (!all_finite(n, y)) return out.result = kNonfinite, out;
    code = eval(rhs, t, y, f0, c);
    if (code != 0) return out.result = kRhsFailed, out;
    if (!all_finite(n, f0)) return out.result = kNonfinite, out;
    if (h <= 0.0) h = starting_step(rhs, t, y, f0, t1 - t, static_cast<int>(rosenbrock_order<Method>()), s, c, ys, fs);
  }
  bool need_jacobian = true, reject_last = false, reject_more = false, nonfinite = false;
  int singular = 0;
  int64_t accepted_here = 0;
  while (t < t1) {
    // Every pass of the loop accepts or rejects a step (or returns): c counts them.
    if (c.accepted + c.rejected >= s.max_steps) return out.result = kTooManySteps, out.h_next = h, out;
    if (need_jacobian) {
      code = jacobian_at(rhs, t, y, f0, jac, fs, c);
      if (code != 0) return out.result = kRhsFailed, out;
      if (!rhs.autonomous()) {  // df/dt by a forward difference
        const double delta = sqrt(kUnitRoundoff) * max_d(1e-5, fabs(t));
        code = eval(rhs, t + delta, y, dfdt, c);
        if (code != 0) return out.result = kRhsFailed, out;
        for (int i = 0; i < n; ++i) dfdt[i] = (dfdt[i] - f0[i]) / delta;
      }
      need_jacobian = false;
    }
    const bool last = t + h >= t1;
    const double hs = last ? t1 - t : h;
    code = rosenbrock_step<Method>(rhs, t, y, f0, jac, dfdt, hs, ynew, k, g, piv, ys, fs, w, c);
    if (code == kSingularMatrix) {
      ++c.rejected;
      h = 0.5 * hs;
      if (++singular > 5 || h < min_step(t)) return out.result = kStepTooSmall, out.h_next = h, out;
      continue;
    }
    if (code < 0) return out.result = kRhsFailed, out;
    double err = 0.0;
    if (code == 0) {
      err = rms_error(n, k + (kRodasStages - 1) * n, y, ynew, s);
      nonfinite = !is_finite(err);
    }
    if (code > 0 || !(err <= 1.0)) {
      ++c.rejected;
      h = (code > 0 || nonfinite || reject_more) ? 0.1 * hs : hs * rosenbrock_factor<Method>(err);
      reject_more = reject_last;
      reject_last = true;
      if (h < min_step(t)) return out.result = small_step_result(nonfinite), out.h_next = h, out;
      continue;
    }
    ++c.accepted;
    nonfinite = false;
    double grown = hs * rosenbrock_factor<Method>(err);
    if (reject_last) grown = min_d(grown, hs);  // no growth right after a rejection
    reject_last = reject_more = false;
    singular = 0;
    need_jacobian = true;  // at the new point (not needed once t1 is reached)
    const int result = advance(rhs, t, t1, hs, last, grown, h, y, ynew, f0, s, c);
    if (result != kOk) return out.result = result, out;
    if (++accepted_here == pause_after && t < t1) return out.result = kPaused, out.t = t, out.h_next = h, out;
  }
  out.h_next = h;
  return out;
}

// One system from t to t1 with the chosen method; h > 0 is the first step, else automatic.
// pause_after and resume: Rosenbrock's (integrate_rosenbrock); the explicit methods run
// to t1. One call site serves every case, so that a kernel holds one copy of each method.
template <class Rhs, class V>
OPSPLIT_HD Outcome integrate_system(int method, Rhs& rhs, double t, double t1, V y, double h,
                                    const Settings& s, V work, int* piv, Counts& c, int64_t pause_after = 0,
                                    bool resume = false) {
  if (!resume && h > t1 - t) h = t1 - t;  // a resumed step is the one the paused call would take
  switch (method) {
    case kRkck45:
      return integrate_rkck45(rhs, t, t1, y, h, s, work, c);
    case kRkc:
      return integrate_rkc(rhs, t, t1, y, h, s, work, c);
    case kRos3:
      return integrate_rosenbrock<kRos3>(rhs, t, t1, y, h, s, work, piv, c, pause_after, resume);
    default:
      return integrate_rosenbrock<kRosenbrock>(rhs, t, t1, y, h, s, work, piv, c, pause_after, resume);
  }
}

}  // namespace opsplit::ode
