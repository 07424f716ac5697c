// CPU (OpenMP) launchers of the field operations, for one value type at a time:
// included by field_cpu_float.cpp and field_cpu_double.cpp only, so that the two
// precisions (each row loop in three instruction-set clones) compile in parallel.
// Everything here has internal linkage: each of the two files has its own copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#include "core/group.hpp"
#include "field/launch.hpp"
#include "field/layout.cuh"
#include "field/reduce.cuh"

namespace opsplit::field {

namespace {

// Below this many values a loop runs on the calling thread: waking a team costs more
// than it saves, and on a busy machine (a host model's other threads, several test
// programs) spinning team members can stall each other.
constexpr int64_t kParallelMinValues = int64_t(1) << 15;

// The row loops, where the time goes, are compiled for three x86-64 levels (baseline
// SSE2, AVX2 and AVX-512) and the best the machine has is chosen when the library
// loads (GCC's target_clones: an ifunc): an installed library cannot be built for its
// host, and the wider vectors run the loops faster (docs/performance-history.md, "3D
// diffusion, CPU"). The results are the
// same bits on every level (the library is compiled without FP contraction: no FMA).
// OPSPLIT_NO_ROW_CLONES (the sanitizer build) compiles the baseline only.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11 && defined(__x86_64__) && defined(__ELF__) && \
    !defined(OPSPLIT_NO_ROW_CLONES)
#define OPSPLIT_ROW_LOOP __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), noinline))
#elif defined(__clang__)
// Out of line: a row loop Clang leaves scalar (model_plane_row's) is then reported at
// the loop, where -Wpass-failed is off (below), not in the dispatch it is inlined into.
#define OPSPLIT_ROW_LOOP __attribute__((noinline))
#else
#define OPSPLIT_ROW_LOOP
#endif
// A row loop's iterations do not depend on each other (its output is not its input):
// GCC's ivdep, Clang's assume_safety. Clang also takes the pragma as a request to
// vectorize and warns where an instantiation cannot be (a wind, a run-time component
// count): those loops are right as scalar loops, so that warning is off here.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#define OPSPLIT_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#else
#define OPSPLIT_IVDEP _Pragma("GCC ivdep")
#endif

int threads_for(const Context& ctx, const Grid& grid) {
  return grid.cells() * grid.ncomp < kParallelMinValues ? 1 : ctx.threads();
}

template <class T>
void fill_ghosts(const Context& ctx, T* data, const Grid& grid, const FaceCondition* bc, unsigned axes) {
  for (int axis = 0; axis < 3; ++axis) {  // in order: edge ghosts need the axes before
    if (!grid.active(axis) || (axes >> axis & 1) == 0) continue;
    int ua, va;
    int64_t u_lo, u_len, v_lo, v_len;
    ghost_sweep(grid, axis, &ua, &va, &u_lo, &u_len, &v_lo, &v_len);
    const int64_t lines = grid.ncomp * 2 * v_len;
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static)
    for (int64_t line = 0; line < lines; ++line) {
      const int c = static_cast<int>(line / (2 * v_len));
      const int side = static_cast<int>(line / v_len % 2);
      const int64_t v = v_lo + line % v_len;
      T* comp = data + c * grid.comp_stride;
      for (int64_t u = u_lo; u < u_lo + u_len; ++u)
        fill_ghost(comp, grid, axis, side, u, v, bc[c * 6 + 2 * axis + side]);
    }
  }
}

// Whether no value of a row is NaN or Inf: an exponent field of all ones, tested on the
// bits (integer compares and an OR vectorize; a floating-point sum would not).
template <class T>
bool row_is_finite(const T* v, int64_t n) {
  using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  constexpr Bits exponent = sizeof(T) == 8 ? Bits(0x7ff0000000000000ULL) : Bits(0x7f800000U);
  Bits bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    Bits b;
    std::memcpy(&b, v + i, sizeof b);
    bad |= static_cast<Bits>((b & exponent) == exponent);
  }
  return bad == 0;
}

// Lowers `first`, the health key of the first bad value of the rows this thread updated,
// to that of the first bad value of component c's row (rare: a row found not finite).
template <class T>
void record_first_bad(unsigned long long* first, const Health& h, const Grid& grid, const T* row, int c, int64_t j,
                      int64_t k) {
  for (int64_t i = 0; i < grid.n[0]; ++i)
    if (!is_finite(row[i])) {
      const unsigned long long key = health_key(h.step, bad_position(h, grid.n, c, i, j, k));
      if (key < *first) *first = key;
      return;
    }
}

// One unit-stride row of pure diffusion; returns whether it is finite. The test reads
// the row back from L1 after the loop (in it, it kept GCC from vectorizing the update),
// in the same instruction-set clone.
template <int Points, class T>
OPSPLIT_ROW_LOOP bool diffuse_row(const T* in, T* out, int64_t n, int64_t sy, int64_t sz, DiffusionWeights<T> w) {
OPSPLIT_IVDEP
  for (int64_t i = 0; i < n; ++i) out[i] = diffusion_update<Points>(StridedAt<T>{in + i, 1, sy, sz}, w);
  return row_is_finite(out, n);
}

// The ghosts of the rows a loop writes, from the rows' own values while they are in L1,
// so that the next step fills none (rd.cpp; a one-step call of a host's time loop takes
// the record of the call before, opsplit_field_s::take_ghosts). Every ghost takes its
// value from one cell (its mirror image, or its periodic image across: ghost_fed_by),
// so the thread that writes a row writes the ghosts it feeds and no two threads write
// one ghost. In the order of fill_ghosts (x, then y over x's ghosts, then z over both):
// the row's x ghosts; the y ghost row that row 0 or n-1 feeds, x ghosts included; the
// z ghost rows of both that plane 0 or n-1 feeds; none beyond a remote face (the
// exchange brings those). Separate fills of all faces were a large share of a one-step
// call (docs/performance-history.md): the x faces touch two cache lines of every row.
struct RowGhosts {
  const FaceCondition* faces = nullptr;  // 6 per component; NULL: none written

  RowGhosts(const Grid& grid, const FaceCondition* all_faces) {
    bool width_one = true;  // ghost_fed_by's rule
    for (int a = 0; a < 3; ++a) width_one = width_one && (!grid.active(a) || grid.g[a] == 1);
    if (width_one) faces = all_faces;
  }
  unsigned axes() const { return faces != nullptr ? kAllAxes : 0u; }  // the axes whose ghosts are written

  // Component c's row (j, k) starting at `row` (its cell 0).
  template <class T>
  void write(T* row, const Grid& grid, int c, int64_t j, int64_t k) const {
    if (faces == nullptr) return;
    const FaceCondition* f = faces + 6 * c;
    const int64_t n = grid.n[0];
    if (grid.active(0))
      for (int side = 0; side < 2; ++side) {
        const FedGhost ghost = ghost_fed_by(side, n, f);
        if (ghost.face.type != kRemote) row[ghost.at] = ghost_from(ghost.face, row[side == 0 ? 0 : n - 1]);
      }
    const int64_t from = -grid.g[0], len = n + 2 * grid.g[0];  // the row with its x ghosts
    auto fed_row = [&](T* source, int axis, int64_t at, auto&& then) {
      if (!grid.active(axis)) return;
      for (int side = 0; side < 2; ++side)
        if (at == (side == 0 ? 0 : grid.n[axis] - 1)) {
          const FedGhost ghost = ghost_fed_by(side, grid.n[axis], f + 2 * axis);
          if (ghost.face.type == kRemote) continue;  // the exchange brings it (or a view's cut: a cell)
          T* target = source + (ghost.at - at) * grid.step(axis);
          for (int64_t i = from; i < from + len; ++i) target[i] = ghost_from(ghost.face, source[i]);
          then(target);
        }
    };
    auto z_rows = [&](T* source) { fed_row(source, 2, k, [](T*) {}); };
    fed_row(row, 1, j, z_rows);
    z_rows(row);
  }
};

template <int Points, class T>
unsigned diffuse_points(const Context& ctx, const T* in, T* out, const Grid& grid, const DiffusionWeights<T>* weights,
                        const FaceCondition* faces, Health health) {
  const int64_t rows = grid.ncomp * grid.n[2] * grid.n[1];
  const int64_t sx = grid.step(0), sy = grid.step(1), sz = grid.step(2);
  const RowGhosts ghosts(grid, faces);
  unsigned long long first = kHealthy;
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static) reduction(min : first)
  for (int64_t row = 0; row < rows; ++row) {
    const int c = static_cast<int>(row / (grid.n[2] * grid.n[1]));
    const int64_t j = row % grid.n[1], k = row / grid.n[1] % grid.n[2];
    const int64_t base = grid.index(c, 0, j, k);
    const DiffusionWeights<T> w = weights[c];
    bool finite;
    if (sx == 1) {  // the usual case: unit stride lets the compiler vectorize the row
      finite = diffuse_row<Points>(in + base, out + base, grid.n[0], sy, sz, w);
    } else {
      for (int64_t i = 0; i < grid.n[0]; ++i)
        out[base + i] = diffusion_update<Points>(StridedAt<T>{in + base + i, sx, sy, sz}, w);
      finite = row_is_finite(out + base, grid.n[0]);
    }
    if (!finite) record_first_bad(&first, health, grid, out + base, c, j, k);
    ghosts.write(out + base, grid, c, j, k);
  }
  if (first < *health.first_bad) *health.first_bad = first;
  return ghosts.axes();
}

// The CPU loops read every ghost of their input from memory, and write every ghost of
// the output along with its rows (RowGhosts).
unsigned ghosts_read(const Grid&, const FaceCondition*, bool, bool) { return kAllAxes; }

template <class T>
unsigned diffuse(const Context& ctx, Input<T>& in, T* out, const Grid& grid, int points,
                 const DiffusionWeights<T>* weights, Health health) {
  if (failed_before(health)) return 0;
  fill_missing_ghosts(ctx, in, grid, kAllAxes, fill_ghosts<T>);
  return points == 19 ? diffuse_points<19>(ctx, in.data, out, grid, weights, in.faces, health)
                      : diffuse_points<7>(ctx, in.data, out, grid, weights, in.faces, health);
}

// One row of a model's update, every component; `base`: the row's first cell in
// component 0.
template <int Points, int Kind, int NC, int Terms, class T>
OPSPLIT_ROW_LOOP bool update_row(const T* in, T* out, const T* mu, const T* velocity, Neighbours nb, int64_t base,
                                 int64_t n, const ComponentTerms<T>* terms, const StepTerms<T>& step) {
  // Local copies: loads through pointers that `out` might alias would be repeated
  // after every store.
  const StepTerms<T> s = step;
  ComponentTerms<T> t[NC > 0 ? NC : 1];
  const ComponentTerms<T>* row_terms = terms;
  if constexpr (NC > 0) {
    for (int c = 0; c < NC; ++c) t[c] = terms[c];
    row_terms = t;
  }
OPSPLIT_IVDEP
  for (int64_t i = 0; i < n; ++i)  // finiteness: after the row, as in diffuse_row
    update_cell<Points, Kind, NC, Terms, false>(in, out, mu, velocity, nb, base + i, row_terms, s);
  bool finite = true;
  for (int c = 0; c < (NC > 0 ? NC : s.ncomp); ++c) finite &= row_is_finite(out + c * nb.comp_stride + base, n);
  return finite;
}

template <int Points, int Kind, int NC, int Terms, class T>
unsigned update_kind(const Context& ctx, const T* in, T* out, const T* mu, const T* velocity, const Grid& grid,
                 const ComponentTerms<T>* terms, const StepTerms<T>& step, const FaceCondition* faces,
                 Health health) {
  const int64_t rows = grid.n[2] * grid.n[1];
  const Neighbours nb = neighbours_of(grid);
  const RowGhosts ghosts(grid, faces);
  unsigned long long first = kHealthy;
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static) reduction(min : first)
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t j = row % grid.n[1], k = row / grid.n[1];
    const int64_t base = grid.index(0, 0, j, k);
    const bool finite = update_row<Points, Kind, NC, Terms>(in, out, mu, velocity, nb, base, grid.n[0], terms, step);
    for (int c = 0; c < grid.ncomp; ++c) {
      T* row_c = out + c * grid.comp_stride + base;
      if (!finite) record_first_bad(&first, health, grid, row_c, c, j, k);
      ghosts.write(row_c, grid, c, j, k);
    }
  }
  if (first < *health.first_bad) *health.first_bad = first;
  return ghosts.axes();
}

// One row of a Cahn-Hilliard slot's potential: `at` the row's first cell in component
// 0, `comp` the slot's component.
template <int Points, class T>
OPSPLIT_ROW_LOOP void potential_row(const T* in, T* mu_row, Neighbours nb, int64_t at, int64_t n,
                                    PotentialTerms<T> p) {
OPSPLIT_IVDEP
  for (int64_t i = 0; i < n; ++i) mu_row[i] = chemical_potential<Points>(GlobalValues<T>{in, at + i, nb}(p.comp), p);
}

template <int Points, class T>
unsigned potential_points(const Context& ctx, const T* in, T* mu, const Grid& grid, const PotentialTerms<T>* slots,
                      int nslots, const FaceCondition* slot_faces) {
  const int64_t rows = nslots * grid.n[2] * grid.n[1];
  const Neighbours nb = neighbours_of(grid);
  const RowGhosts ghosts(grid, slot_faces);
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static)
  for (int64_t row = 0; row < rows; ++row) {
    const int slot = static_cast<int>(row / (grid.n[2] * grid.n[1]));
    const int64_t j = row % grid.n[1], k = row / grid.n[1] % grid.n[2];
    T* mu_row = mu + grid.index(slot, 0, j, k);
    potential_row<Points>(in, mu_row, nb, grid.index(0, 0, j, k), grid.n[0], slots[slot]);
    ghosts.write(mu_row, grid, slot, j, k);
  }
  return ghosts.axes();
}

template <class T>
unsigned potential(const Context& ctx, Input<T>& in, T* mu, const Grid& grid, int points,
                   const PotentialTerms<T>* slots, int nslots, const FaceCondition* slot_faces) {
  fill_missing_ghosts(ctx, in, grid, kAllAxes, fill_ghosts<T>);
  return points == 19 ? potential_points<19>(ctx, in.data, mu, grid, slots, nslots, slot_faces)
                      : potential_points<7>(ctx, in.data, mu, grid, slots, nslots, slot_faces);
}

template <class T>
unsigned update(const Context& ctx, Input<T>& input, T* out, const PotentialPass<T>& pass, const T* velocity,
                const Grid& grid, int points, int kind, const ComponentTerms<T>* terms, const ComponentTerms<T>*,
                const StepTerms<T>& step, Health health) {
  if (failed_before(health)) return 0;
  potential_into_memory(ctx, input, grid, points, pass, potential<T>, fill_ghosts<T>);
  fill_missing_ghosts(ctx, input, grid, kAllAxes, fill_ghosts<T>);
  const T* in = input.data;
  const T* mu = pass.mu;
  const FaceCondition* faces = input.faces;
  // Without a per-cell wind the transport terms are known here: the row loop then has
  // no branch and vectorizes.
  unsigned ghosts_written = 0;
  with_reaction_kind(kind, [&](auto k) {
    with_component_count(grid.ncomp, [&](auto nc) {
      with_transport_terms(transport_terms(step, terms, grid.ncomp), [&](auto terms_constant) {
        constexpr int Kind = decltype(k)::value, NC = decltype(nc)::value, Terms = decltype(terms_constant)::value;
        ghosts_written = points == 19
                       ? update_kind<19, Kind, NC, Terms>(ctx, in, out, mu, velocity, grid, terms, step, faces, health)
                       : update_kind<7, Kind, NC, Terms>(ctx, in, out, mu, velocity, grid, terms, step, faces, health);
      });
    });
  });
  return ghosts_written;
}

// Few cells, in list order (the list has no repeated cell).
template <class T>
void add_sources(const Context&, T* out, const Grid&, const SourceTerm<T>* sources, int64_t n, Health health) {
  if (failed_before(health)) return;
  for (int64_t s = 0; s < n; ++s) {
    const T v = out[sources[s].at] + sources[s].amount;
    out[sources[s].at] = v;
    if (!is_finite(v)) {
      const unsigned long long key = health_key(health.step, sources[s].position);
      if (key < *health.first_bad) *health.first_bad = key;
    }
  }
}

template <class T>
void pack(const Context& ctx, const T* data, const Grid& grid, T* host, int layout) {
  const int64_t total = grid.cells() * grid.ncomp;
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static)
  for (int64_t h = 0; h < total; ++h) {
    int c;
    int64_t i, j, k;
    host_position(grid, layout, h, &c, &i, &j, &k);
    host[h] = data[grid.index(c, i, j, k)];
  }
}

template <class T>
void unpack(const Context& ctx, const T* host, const Grid& grid, T* data, int layout) {
  const int64_t total = grid.cells() * grid.ncomp;
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static)
  for (int64_t h = 0; h < total; ++h) {
    int c;
    int64_t i, j, k;
    host_position(grid, layout, h, &c, &i, &j, &k);
    data[grid.index(c, i, j, k)] = host[h];
  }
}

template <class T>
std::vector<double> row_sums(const Context& ctx, const T* data, const Grid& grid, int comp) {
  std::vector<double> sums(static_cast<size_t>(grid.n[1] * grid.n[2]));
  const int64_t rows = static_cast<int64_t>(sums.size());
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static)
  for (int64_t row = 0; row < rows; ++row) sums[static_cast<size_t>(row)] = row_sum(data, grid, comp, row);
  return sums;
}

template <class T>
std::vector<double> row_extremes(const Context& ctx, const T* data, const Grid& grid, int comp) {
  const int64_t rows = grid.n[1] * grid.n[2];
  std::vector<double> out(static_cast<size_t>(2 * rows));
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static)
  for (int64_t row = 0; row < rows; ++row) row_extremes(data, grid, comp, row, &out[2 * row], &out[2 * row + 1]);
  return out;
}

template <class T>
std::vector<double> row_energy(const Context& ctx, const T* data, const Grid& grid, int comp, int points,
                               const PotentialTerms<double>& terms, double volume) {
  std::vector<double> sums(static_cast<size_t>(grid.n[1] * grid.n[2]));
  const int64_t rows = static_cast<int64_t>(sums.size());
#pragma omp parallel for num_threads(threads_for(ctx, grid)) schedule(static)
  for (int64_t row = 0; row < rows; ++row)
    sums[static_cast<size_t>(row)] = points == 19 ? row_energy<19>(data, grid, comp, row, terms, volume)
                                                  : row_energy<7>(data, grid, comp, row, terms, volume);
  return sums;
}

template <class T>
void pack_face(const Context&, const T* data, const Grid& grid, int axis, int side, T* slab) {
  const FaceSlab s = face_slab(grid, axis);
  const int64_t layer = sent_layer(grid, axis, side), n = s.values(grid.ncomp);
  for (int64_t e = 0; e < n; ++e) slab[e] = data[slab_index(grid, s, layer, e)];
}

template <class T>
void unpack_face(const Context&, const T* slab, const Grid& grid, int axis, int side, T* data) {
  const FaceSlab s = face_slab(grid, axis);
  const int64_t layer = ghost_layer(grid, axis, side), n = s.values(grid.ncomp);
  for (int64_t e = 0; e < n; ++e) data[slab_index(grid, s, layer, e)] = slab[e];
}

// ---- several steps a pass (Launchers::steps_pass; docs/research/temporal_blocking_plan.md)
//
// Each thread on its own slab of rows (y) with no barrier in the pass: a wavefront
// along z in which level s (the state after s of the pass's steps) is made plane by
// plane from level s - 1's planes below, at and above, each intermediate level kept in
// the thread's ring of three planes of its slab (scratch), the last level written into
// `out`. Level s covers the slab's rows grown by steps - s a side (overlapped slabs:
// the rows the levels above read), so that no thread reads another's values. Along y a
// grown row is a cell (inside the grid, or anywhere on a periodic axis: its input read
// at its image), the ghost row beyond a NOFLUX or DIRICHLET face (the face's rule on
// row 0 or ny - 1 of the same level, after that row's x ghosts, as fill_ghosts orders
// the axes), or unused. A row's x ghosts follow from its own cells; z neighbours beyond
// the grid are ghost planes made by the z rule from plane 0 or nz - 1, or, on a
// periodic z axis, real planes: each level is computed over the planes steps - s
// further out on both sides, the input read there through the periodic wrap. Every
// value is the same HD update of the same values as a step's, and a row's sources are
// added to it as add_sources adds them, so the bits are a step's.
// Pure diffusion runs one component at a time; a model's update couples the
// components of a cell, so its pass carries them all (their y and z faces alike
// periodic or not: max_steps_per_pass).

template <int Points, class T>
OPSPLIT_ROW_LOOP bool diffuse_plane_row(const T* below, const T* centre, const T* above, T* out, int64_t n, int64_t sx,
                                        int64_t sy, DiffusionWeights<T> w) {
OPSPLIT_IVDEP
  for (int64_t i = 0; i < n; ++i)  // cell i at + i (n = 1 where x has one cell): unit stride vectorizes
    out[i] = diffusion_update<Points>(PlanesAt<T>{below + i, centre + i, above + i, sx, sy}, w);
  return row_is_finite(out, n);
}

// The components' neighbourhoods of a cell in three planes of a level (component c
// `comp_stride` values after component 0), for cell_update.
template <class T>
struct PlanesValues {
  const T *below, *centre, *above;
  int64_t comp_stride;
  int sx, sy;
  PlanesAt<T, int> operator()(int c) const {
    const int64_t at = c * comp_stride;
    return PlanesAt<T, int>{below + at, centre + at, above + at, sx, sy};
  }
};

// The velocity field a model's pass reads (its ghosts filled: rd.cpp), at a row's cell 0:
// the field's geometry, component a comp_stride apart.
template <class T>
struct RowWind {
  const T* at;  // NULL: no velocity field
  int step[3];
  int64_t comp_stride;
};

// One row of a model's update (no potentials) from three planes' rows of component 0
// (components in_stride apart), every component into `out` (out_stride apart), a
// per-cell velocity field's Courant numbers from `wind`; returns whether it is finite.
template <int Points, int Kind, int NC, int Terms, class T>
OPSPLIT_ROW_LOOP bool model_plane_row(const T* below, const T* centre, const T* above, int64_t in_stride, T* out,
                                      int64_t out_stride, int64_t n, int sx, int sy, const ComponentTerms<T>* terms,
                                      const StepTerms<T>& step, RowWind<T> wind) {
  const StepTerms<T> s = step;  // local copies, as in update_row
  ComponentTerms<T> t[NC > 0 ? NC : 1];
  const ComponentTerms<T>* row_terms = terms;
  if constexpr (NC > 0) {
    for (int c = 0; c < NC; ++c) t[c] = terms[c];
    row_terms = t;
  }
  const T no_wind[3] = {0, 0, 0};
OPSPLIT_IVDEP
  for (int64_t i = 0; i < n; ++i) {
    const PlanesValues<T> values{below + i, centre + i, above + i, in_stride, sx, sy};  // as diffuse_plane_row
    auto store = [&](int c, T v) { out[c * out_stride + i] = v; };
    if constexpr (Terms == kTermsFromFlags) {  // a per-cell wind takes this (transport_terms), a scalar loop
      T s_lo[3], s_hi[3];
      face_courants(s, wind.at, i, wind.step, wind.comp_stride, s_lo, s_hi);
      cell_update<Points, Kind, NC, Terms>(values, values, s_lo, s_hi, row_terms, s, store);
    } else {
      cell_update<Points, Kind, NC, Terms>(values, values, no_wind, no_wind, row_terms, s, store);
    }
  }
  bool finite = true;
  for (int c = 0; c < (NC > 0 ? NC : s.ncomp); ++c) finite &= row_is_finite(out + c * out_stride, n);
  return finite;
}

// The cells a pass on a distributed field reads beyond the faces that border another
// process (kRemote), as deep as the pass has steps: swapped with the neighbours before
// the pass, y first (the rows beyond a remote y face, over the grid's planes), then z
// (the planes beyond a remote z face, over the rows with those beyond remote y faces,
// so that an edge's cells come from the diagonal neighbour by way of the z neighbour's
// y swap, as the single steps' exchange brings its edge ghosts). Rows of cells only:
// the pass makes their x ghosts and every ghost row and plane by the face rules (a
// pass never fuses with a remote x face: max_steps_per_pass). Storage, in the pass's
// scratch: four slots an axis (sent low, high; received from low, high).
template <class T>
class DeepHalo {
 public:
  // Values for `steps` deep on every side that may be remote (both of y and z).
  static int64_t values(const Grid& grid, int steps) {
    return 4 * (y_slot(grid, steps) + z_slot(grid, steps, steps, steps));
  }
  // The bytes of one message of the y and of the z swap, on every side remote.
  static int64_t largest_message(const Grid& grid, int steps) {
    return std::max(y_slot(grid, steps), z_slot(grid, steps, steps, steps)) * static_cast<int64_t>(sizeof(T));
  }

  DeepHalo(const Grid& grid, const FaceCondition* faces, int steps, T* storage)
      : g_(grid), k_(steps), storage_(storage) {
    for (int a = 1; a < 3; ++a)
      for (int side = 0; side < 2; ++side) remote_[a][side] = grid.active(a) && faces[2 * a + side].type == kRemote;
    y_lo_ = remote_[1][0] ? k_ : 0;
    z_rows_ = grid.n[1] + y_lo_ + (remote_[1][1] ? k_ : 0);
  }

  bool remote(int axis, int side) const { return remote_[axis][side]; }

  // Component c's cells of row j of plane q (a cell's or, beyond a remote face, the
  // neighbour's; j and q at their images on a periodic axis), from `in` or the swapped.
  const T* cells(const T* in, int64_t q, int64_t j, int c) const {
    const int64_t nx = g_.n[0], ny = g_.n[1], nz = g_.n[2];
    if (q < 0 || q >= nz) {
      const int side = q >= nz ? 1 : 0;
      const int64_t depth = side ? q - nz : -q - 1;  // 0: next to the face
      return received(2, side) + ((c * k_ + depth) * z_rows_ + j + y_lo_) * nx;
    }
    if (j < 0 || j >= ny) {
      const int side = j >= ny ? 1 : 0;
      const int64_t depth = side ? j - ny : -j - 1;
      return received(1, side) + ((c * nz + q) * k_ + depth) * nx;
    }
    return in + g_.index(c, 0, j, q);
  }

  // Both swaps; collective over the group (every process of it swaps along the axes
  // that are split). The rows sent are copied by `threads` threads.
  void swap(const Group& group, const T* in, int threads) {
    const int64_t nx = g_.n[0], ny = g_.n[1], nz = g_.n[2];
    if (remote_[1][0] || remote_[1][1]) {
      // To the low neighbour our rows 0, 1, ... (beyond its high face at depth 0, 1, ...),
      // to the high one rows ny - 1, ny - 2, ...: row ((c nz + q) k + depth) of the slot.
      for (int side = 0; side < 2; ++side) {
        if (!remote_[1][side]) continue;
        const int64_t rows = g_.ncomp * nz * k_;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t row = 0; row < rows; ++row) {
          const int64_t depth = row % k_, q = row / k_ % nz;
          const int c = static_cast<int>(row / (k_ * nz));
          std::copy_n(cells(in, q, side ? ny - 1 - depth : depth, c), nx, sent(1, side) + row * nx);
        }
      }
      exchange(group, 1, y_slot(g_, k_));
    }
    if (remote_[2][0] || remote_[2][1]) {
      // Row ((c k + depth) z_rows + j + y_lo) of the slot: plane depth from the face.
      for (int side = 0; side < 2; ++side) {
        if (!remote_[2][side]) continue;
        const int64_t rows = g_.ncomp * k_ * z_rows_;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t row = 0; row < rows; ++row) {
          const int64_t j = row % z_rows_ - y_lo_, depth = row / z_rows_ % k_;
          const int c = static_cast<int>(row / (z_rows_ * k_));
          std::copy_n(cells(in, side ? nz - 1 - depth : depth, j, c), nx, sent(2, side) + row * nx);
        }
      }
      exchange(group, 2, z_slot(g_, k_, y_lo_, z_rows_ - ny - y_lo_));
    }
  }

 private:
  static int64_t y_slot(const Grid& grid, int steps) {
    return grid.active(1) ? grid.ncomp * grid.n[2] * steps * grid.n[0] : 0;
  }
  static int64_t z_slot(const Grid& grid, int steps, int64_t y_lo, int64_t y_hi) {
    return grid.active(2) ? grid.ncomp * steps * (grid.n[1] + y_lo + y_hi) * grid.n[0] : 0;
  }
  // Slot s (0, 1 sent; 2, 3 received) of an axis: the y slots, then the z slots.
  T* slot(int axis, int s) const {
    return storage_ + (axis == 1 ? s * y_slot(g_, k_) : 4 * y_slot(g_, k_) + s * z_slot(g_, k_, k_, k_));
  }
  T* sent(int axis, int side) const { return slot(axis, side); }
  const T* received(int axis, int side) const { return slot(axis, 2 + side); }
  void exchange(const Group& group, int axis, int64_t values) const {
    const void* out[2] = {nullptr, nullptr};
    void* in[2] = {nullptr, nullptr};
    for (int side = 0; side < 2; ++side)
      if (remote_[axis][side]) out[side] = slot(axis, side), in[side] = slot(axis, 2 + side);
    group.exchange(axis, out, in, static_cast<size_t>(values) * sizeof(T));
  }

  const Grid& g_;
  const int k_;
  T* storage_;
  bool remote_[3][2] = {};
  int64_t y_lo_ = 0, z_rows_ = 0;  // the z slots' rows: the grid's and those beyond remote y faces
};

// How a pass's threads share the rows: a slab each, the same for every pass of a call
// (so that the scratch sized for its longest pass holds any shorter one: scratch_at grows
// with steps). max_steps_per_pass keeps slabs at least `steps` rows thick (thinner ones
// would spend more on their grown rows than on their own).
struct PassSlabs {
  int threads;
  int64_t rows;  // of the grid (1 on a 1D grid)
  int group;     // components a pass carries: one (pure diffusion) or all (a model)
  bool staged;   // a distributed field's: the input is a level in the ring too (StepsPass)

  template <class T>
  PassSlabs(const Context& ctx, const Grid& grid, const PassTerms<T>& terms)
      : threads(static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(threads_for(ctx, grid), grid.n[1])))),
        rows(grid.n[1]), group(terms.model() ? grid.ncomp : 1), staged(terms.group != nullptr) {}
  int64_t first_row(int t) const { return rows * t / threads; }
  // The levels in a slab's ring: those between input and output, and the input staged.
  int ring_levels(int steps) const { return staged ? steps : steps - 1; }
  // The scratch of thread t's slab starts after the slabs before, each its rows and
  // `steps` more a side, three planes of them a level of the ring, for each component
  // the pass carries.
  int64_t scratch_at(const Grid& grid, int steps, int t) const {
    return group * ring_levels(steps) * 3 * grid.stride[1] * (first_row(t) + 2 * steps * t);
  }
};

template <int Points, class T>
class StepsPass {
 public:
  // Thread t of `slabs`, components c0 .. c0 + nc - 1.
  // `halo`: a distributed field's cells beyond its remote faces (NULL: one process).
  StepsPass(const Grid& grid, const T* in, T* out, T* scratch, const FaceCondition* faces, const PassTerms<T>& terms,
            int steps, int c0, int nc, Health health, const PassSlabs& slabs, int t, const DeepHalo<T>* halo)
      : g_(grid), in_(in), out_(out), scratch_(scratch + slabs.scratch_at(grid, steps, t)), faces_(faces),
        terms_(terms), halo_(halo), steps_(steps), c0_(c0), nc_(nc), health_(health),
        periodic_y_(grid.active(1) && faces[6 * c0 + 2].type == kPeriodic),
        periodic_z_(grid.active(2) && faces[6 * c0 + 4].type == kPeriodic), ny_(grid.n[1]), nz_(grid.n[2]),
        j0_(slabs.first_row(t)), j1_(slabs.first_row(t + 1)),
        slab_plane_((j1_ - j0_ + 2 * steps) * grid.stride[1]) {
    for (int side = 0; side < 2; ++side) {
      beyond_y_[side] = periodic_y_ || (halo != nullptr && halo->remote(1, side));
      beyond_z_[side] = periodic_z_ || (halo != nullptr && halo->remote(2, side));
    }
  }

  // Every level's planes; the first bad value of the slab's own rows lowers `first`.
  void run(unsigned long long& first) {
    for (int s = first_ring_level(); s <= steps_; ++s) top_[s] = low(s) - 1;
    for (int64_t p = 0; p < nz_; ++p) ensure(steps_, p, first);
  }

 private:
  // The input read where it is (one process), or staged in the ring (a distributed
  // field: its rows beyond the remote faces are elsewhere, and the update reads a row's
  // y neighbours at one stride from it).
  bool staged() const { return halo_ != nullptr; }
  int first_ring_level() const { return staged() ? 0 : 1; }
  // The planes level s is computed over: the grid's, or beyond a face with cells past it
  // (periodic, or another process's) steps - s more (what the levels above read).
  int64_t low(int s) const { return beyond_z_[0] && s < steps_ ? -(steps_ - s) : 0; }
  int64_t high(int s) const { return beyond_z_[1] && s < steps_ ? nz_ - 1 + (steps_ - s) : nz_ - 1; }
  // The rows level s is computed over (cells and ghost rows): the slab grown by
  // steps - s, or at a face with a ghost row up to it.
  int64_t first_row(int s) const {
    if (!g_.active(1)) return 0;
    return beyond_y_[0] ? j0_ - (steps_ - s) : std::max<int64_t>(j0_ - (steps_ - s), -1);
  }
  int64_t end_row(int s) const {
    if (!g_.active(1)) return 1;
    return beyond_y_[1] ? j1_ + (steps_ - s) : std::min<int64_t>(j1_ + (steps_ - s), ny_ + 1);
  }
  bool cell_row(int64_t j) const {
    return !g_.active(1) || (j >= 0 && j < ny_) || (j < 0 && beyond_y_[0]) || (j >= ny_ && beyond_y_[1]);
  }
  // The grid's row and plane that a cell row j of plane p stands for: its periodic image
  // (a 2D field's one plane is its own z neighbour).
  int64_t image_row(int64_t j) const { return periodic_y_ ? wrapped(j, ny_) : j; }
  int64_t image_plane(int64_t p) const { return !g_.active(2) ? 0 : periodic_z_ ? wrapped(p, nz_) : p; }

  // Component c's row j of plane p of level s at cell 0 (0: the input, read at its
  // images unless staged; steps_: the output; else the slab's ring; p may be a ghost
  // plane -1 or nz, or beyond a face with cells past it).
  T* row(int s, int64_t p, int64_t j, int c) const {
    if (s == 0 && !staged()) return const_cast<T*>(in_) + g_.index(c, 0, image_row(j), image_plane(p));
    if (!g_.active(2)) p = 0;
    if (s == steps_) return out_ + g_.index(c, 0, j, p);
    const int64_t slot = (s - first_ring_level()) * 3 + wrapped<int64_t>(p, 3);
    return scratch_ + (slot * nc_ + c - c0_) * slab_plane_ + (j - (j0_ - steps_)) * g_.stride[1] + g_.lead[0];
  }
  // Values between one component's and the next's at level s.
  int64_t comp_stride(int s) const {
    return (s == 0 && !staged()) || s == steps_ ? g_.comp_stride : slab_plane_;
  }

  // Level s made up to plane p (a z ghost plane made when asked for).
  void ensure(int s, int64_t p, unsigned long long& first) {
    if (s < first_ring_level() || (!g_.active(2) && top_[s] >= 0)) return;
    if (g_.active(2) && !beyond_z_[1] && p == nz_) {
      ensure(s, nz_ - 1, first);
      if (!high_ghost_made_[s]) z_ghost(s, 1), high_ghost_made_[s] = true;
      return;
    }
    while (top_[s] < p && top_[s] < high(s)) {
      const int64_t q = ++top_[s];
      if (s > 0) ensure(s - 1, g_.active(2) ? q + 1 : 0, first);
      compute(s, q, first);
      if (g_.active(2) && !beyond_z_[0] && q == 0 && s < steps_) z_ghost(s, 0);
    }
  }

  // Plane q of level s from level s - 1 (level 0: the input staged): its rows with
  // their sources and x ghosts, then (below the output) the ghost rows beyond y faces.
  void compute(int s, int64_t q, unsigned long long& first) {
    const bool owned_plane = q >= 0 && q < nz_;  // the extra planes beyond a face are computed again as their owners'
    Health h = health_;
    h.step += static_cast<unsigned long long>(s > 0 ? s - 1 : 0);
    const bool output = s == steps_;
    const int64_t begin = output ? j0_ : first_row(s), end = output ? j1_ : end_row(s), nx = g_.n[0];
    for (int64_t j = begin; j < end; ++j) {
      if (!cell_row(j)) continue;  // a ghost row: below
      const bool owned = owned_plane && j >= j0_ && j < j1_;
      if (s == 0) {
        for (int c = c0_; c < c0_ + nc_; ++c)
          std::copy_n(halo_->cells(in_, image_plane(q), image_row(j), c), nx, row(0, q, j, c));
      } else {
        update_row(s, q, j, owned, h, first);
      }
      for (int c = c0_; c < c0_ + nc_; ++c) {
        T* to = row(s, q, j, c);
        if (s > 0 && terms_.nsources > 0) add_row_sources(to, c, j, q, owned, h, first);
        if (!g_.active(0)) continue;
        for (int side = 0; side < 2; ++side) {
          const FedGhost ghost = ghost_fed_by(side, nx, faces_ + 6 * c);
          to[ghost.at] = ghost_from(ghost.face, to[side == 0 ? 0 : nx - 1]);
        }
      }
    }
    if (output || periodic_y_ || !g_.active(1)) return;
    for (int c = c0_; c < c0_ + nc_; ++c)
      for (int side = 0; side < 2; ++side) {
        if (beyond_y_[side]) continue;  // another process's cells, not a ghost row
        const FedGhost ghost = ghost_fed_by(side, ny_, faces_ + 6 * c + 2);
        if (ghost.at < begin || ghost.at >= end) continue;
        const T* from = row(s, q, side == 0 ? 0 : ny_ - 1, c) - g_.g[0];
        T* to = row(s, q, ghost.at, c) - g_.g[0];
        for (int64_t i = 0; i < nx + 2 * g_.g[0]; ++i) to[i] = ghost_from(ghost.face, from[i]);
      }
  }

  // Row j of plane q of level s, every component, from level s - 1; a bad value of the
  // slab's own rows lowers `first`.
  void update_row(int s, int64_t q, int64_t j, bool owned, const Health& h, unsigned long long& first) {
    const int64_t nx = g_.n[0], sx = g_.step(0), sy = g_.step(1);
    if (!terms_.model()) {
      for (int c = c0_; c < c0_ + nc_; ++c) {
        T* to = row(s, q, j, c);
        const bool finite = diffuse_plane_row<Points>(row(s - 1, q - 1, j, c), row(s - 1, q, j, c),
                                                      row(s - 1, q + 1, j, c), to, nx, sx, sy, terms_.weights[c]);
        if (!finite && owned) record_first_bad(&first, h, g_, to, c, j, q);
      }
      return;
    }
    const StepTerms<T>& step = terms_.step_terms[s - 1];
    const int64_t out_stride = comp_stride(s);
    bool finite = true;
    with_reaction_kind(terms_.kind, [&](auto k) {
      with_component_count(g_.ncomp, [&](auto nc) {
        with_transport_terms(transport_terms(step, terms_.terms, g_.ncomp), [&](auto terms_constant) {
          constexpr int Kind = decltype(k)::value, NC = decltype(nc)::value, Terms = decltype(terms_constant)::value;
          finite = model_plane_row<Points, Kind, NC, Terms>(
              row(s - 1, q - 1, j, 0), row(s - 1, q, j, 0), row(s - 1, q + 1, j, 0), comp_stride(s - 1),
              row(s, q, j, 0), out_stride, nx, static_cast<int>(sx), static_cast<int>(sy), terms_.terms, step,
              row_wind(q, j));
        });
      });
    });
    if (!finite && owned)
      for (int c = 0; c < g_.ncomp; ++c) record_first_bad(&first, h, g_, row(s, q, j, c), c, j, q);
  }

  // The velocity field at row j of plane q (at its image; NULL where there is none).
  RowWind<T> row_wind(int64_t q, int64_t j) const {
    const T* at = terms_.velocity != nullptr ? terms_.velocity + g_.index(0, 0, image_row(j), image_plane(q)) : nullptr;
    return RowWind<T>{at,
                      {static_cast<int>(g_.step(0)), static_cast<int>(g_.step(1)), static_cast<int>(g_.step(2))},
                      g_.comp_stride};
  }

  // Component c's sources in row j of plane q (at their images), added to the row's
  // update as add_sources adds them to a step's (before the row's ghosts are made).
  void add_row_sources(T* to, int c, int64_t j, int64_t q, bool owned, const Health& h,
                       unsigned long long& first) const {
    const int64_t at_row = image_row(j), at_plane = image_plane(q);
    // Another process's cells: its sources are too far from the face to reach a level
    // of the pass here (max_steps_per_pass).
    if (at_row < 0 || at_row >= ny_ || at_plane < 0 || at_plane >= nz_) return;
    const int64_t row_position = planar_position(g_.n, c, 0, at_row, at_plane);
    const SourceTerm<T>* end = terms_.sources + terms_.nsources;
    const SourceTerm<T>* s = std::lower_bound(terms_.sources, end, row_position,
                                              [](const SourceTerm<T>& a, int64_t p) { return a.position < p; });
    for (; s != end && s->position < row_position + g_.n[0]; ++s) {
      T& cell = to[s->position - row_position];
      cell = cell + s->amount;
      if (owned && !is_finite(cell)) first = std::min(first, health_key(h.step, s->position));
    }
  }

  // Level s's z ghost plane fed by plane 0 (side 0) or nz - 1 (side 1) over the level's
  // rows, x and y ghosts included.
  void z_ghost(int s, int side) {
    for (int c = c0_; c < c0_ + nc_; ++c) {
      const FedGhost ghost = ghost_fed_by(side, nz_, faces_ + 6 * c + 4);
      for (int64_t j = first_row(s); j < end_row(s); ++j) {
        const T* from = row(s, side == 0 ? 0 : nz_ - 1, j, c) - g_.g[0];
        T* to = row(s, ghost.at, j, c) - g_.g[0];
        for (int64_t i = 0; i < g_.n[0] + 2 * g_.g[0]; ++i) to[i] = ghost_from(ghost.face, from[i]);
      }
    }
  }

  const Grid& g_;
  const T* in_;
  T *out_, *scratch_;
  const FaceCondition* faces_;  // 6 a component
  const PassTerms<T>& terms_;
  const DeepHalo<T>* halo_;
  const int steps_, c0_, nc_;
  const Health health_;
  const bool periodic_y_, periodic_z_;
  bool beyond_y_[2] = {}, beyond_z_[2] = {};  // per side: cells past the face (periodic, or another process's)
  const int64_t ny_, nz_;
  const int64_t j0_, j1_;     // the slab's own rows
  const int64_t slab_plane_;  // values in one component's plane of the slab's ring: its rows grown by steps a side
  int64_t top_[kMaxStepsPerPass + 1] = {};           // the last plane made, per level
  bool high_ghost_made_[kMaxStepsPerPass + 1] = {};  // the ghost plane nz, per level
};

template <int Points, class T>
unsigned steps_pass_points(const Context& ctx, const T* in, T* out, T* scratch, const Grid& grid,
                           const FaceCondition* faces, const PassTerms<T>& terms, int steps, Health health) {
  // After a failed launch, nothing (rd.cpp reads the word once after a run of passes; a
  // distributed field's processes after each, so that none skips the swap alone).
  if (terms.group == nullptr && failed_before(health)) return 0;
  const PassSlabs slabs(ctx, grid, terms);
  std::optional<DeepHalo<T>> halo;
  if (terms.group != nullptr) {
    halo.emplace(grid, faces, steps, scratch + slabs.scratch_at(grid, steps, slabs.threads));
    halo->swap(*terms.group, in, threads_for(ctx, grid));
  }
  const DeepHalo<T>* deep = halo ? &*halo : nullptr;
  unsigned long long first = kHealthy;
  for (int c0 = 0; c0 < grid.ncomp; c0 += slabs.group) {
#pragma omp parallel for num_threads(slabs.threads) schedule(static, 1) reduction(min : first)
    for (int t = 0; t < slabs.threads; ++t) {
      unsigned long long mine = kHealthy;
      StepsPass<Points, T>(grid, in, out, scratch, faces, terms, steps, c0, slabs.group, health, slabs, t, deep)
          .run(mine);
      first = mine < first ? mine : first;
    }
  }
  if (first < *health.first_bad) *health.first_bad = first;
  return 1u;  // the x ghosts of the output (of every row, from its own cells); y and z are filled when read
}

template <class T>
unsigned steps_pass(const Context& ctx, Input<T>& in, T* out, T* scratch, const Grid& grid, int points,
                    const PassTerms<T>& terms, int steps, Health health) {
  fill_missing_ghosts(ctx, in, grid, kAllAxes, fill_ghosts<T>);
  auto run = points == 19 ? steps_pass_points<19, T> : steps_pass_points<7, T>;
  return run(ctx, in.data, out, scratch, grid, in.faces, terms, steps, health);
}

// The steps a pass on a distributed field may take, from `most` down (every process then
// takes the least of the group's, and rd.cpp's rule for the depths and sources along
// remote y and z faces: remote_face_steps). A remote x face takes one: the pass's rows
// are whole in x, their x ghosts made from their own cells. Each of the group's swaps
// one message (under 2^31 bytes).
template <class T>
int distributed_steps_per_pass(const Grid& grid, const FaceCondition* faces_host, int most) {
  if (grid.active(0) && (faces_host[0].type == kRemote || faces_host[1].type == kRemote)) return 1;
  int k = most;
  while (k > 1 && DeepHalo<T>::largest_message(grid, k) > INT32_MAX) --k;
  return k;
}

// Each thread of the team a slab of at least k rows: a team's single steps share the
// rows of every plane, which a pass cannot do with thinner slabs (a 1D field, an x-z
// field, 3D fields of few rows: one step a pass there). A periodic z axis computes
// k (k - 1) planes a pass beyond its nz (the levels' extra planes): k is kept to nz
// there. A model's pass carries every component: their y faces, and their z faces, must
// be alike periodic or not. A distributed field: distributed_steps_per_pass.
template <class T>
int max_steps_per_pass(const Context& ctx, const Grid& grid, const FaceCondition* faces_host, int /*points*/,
                       const PassTerms<T>& terms) {
  const int threads = threads_for(ctx, grid);
  int64_t most = threads > 1 ? grid.n[1] / threads : kMaxStepsPerPass;
  bool alike = true;
  for (int c = 0; c < grid.ncomp; ++c) {
    const FaceCondition* f = faces_host + 6 * c;
    if (grid.active(2) && f[4].type == kPeriodic) most = std::min(most, grid.n[2]);
    for (int a = 1; a < 3; ++a)
      alike = alike && (!grid.active(a) || (f[2 * a].type == kPeriodic) == (faces_host[2 * a].type == kPeriodic));
  }
  if (terms.model() && !alike) return 1;
  most = std::max<int64_t>(1, std::min<int64_t>(most, kMaxStepsPerPass));
  return terms.group != nullptr ? distributed_steps_per_pass<T>(grid, faces_host, static_cast<int>(most))
                                : static_cast<int>(most);
}

// Each slab's ring of three planes a level, for a call whose longest pass takes `steps`
// steps, and on a distributed field the cells swapped (DeepHalo).
template <class T>
int64_t steps_scratch_values(const Context& ctx, const Grid& grid, const FaceCondition*, const PassTerms<T>& terms,
                             int steps) {
  const PassSlabs slabs(ctx, grid, terms);
  return slabs.scratch_at(grid, steps, slabs.threads) +
         (terms.group != nullptr ? DeepHalo<T>::values(grid, steps) : 0);
}

// The table of this value type's launchers (launch.hpp).
template <class T>
const Launchers<T>& cpu_table() {
  static const Launchers<T> table{fill_ghosts<T>, ghosts_read, diffuse<T>,      update<T>,     add_sources<T>,
                                  pack<T>,        unpack<T>,   row_sums<T>,     row_extremes<T>, row_energy<T>,
                                  pack_face<T>,   unpack_face<T>,  potential<T>,  steps_pass<T>,
                                  max_steps_per_pass<T>, steps_scratch_values<T>};
  return table;
}

}  // namespace
}  // namespace opsplit::field
