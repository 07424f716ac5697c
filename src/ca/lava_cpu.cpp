// The CPU's lava backend (lava_backend.hpp): a step at a time on the host's OpenMP
// threads, over the per-cell numerics the CUDA kernels share (sciara.cuh,
// sciara_fv3.cuh). fv2 updates its substates in place: one step's outflows go to the
// grid's scratch planes first, then every cell takes its neighbours' from there.
#include <algorithm>
#include <cmath>
#include <utility>

#include "ca/lava_backend.hpp"

namespace opsplit::ca {
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

// fv2's step over the first buffers of g, after the emission: the outflows of the cells
// of `outflows` into at.flows, each cell's temperature kept in at.previous_temperature,
// then the updates of the cells of `updates` (one process: both the region).
void lava_flows_cpu(const LavaPlanes& g, const LavaStepPlace& at, const LavaBox& outflows, const LavaBox& updates,
                    const LavaConstants& k, int threads, LavaBox& box) {
  double *z = g.altitude[0], *h = g.thickness[0], *t = g.temperature[0];
  double *flows = at.flows, *previous = at.previous_temperature;
  const LavaShape& shape = at.shape;
  const int64_t cols = shape.cols, n = shape.rows * cols;
  if (outflows.empty() && updates.empty()) return;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t r = outflows.r0; r <= outflows.r1; ++r)
    for (int64_t c = outflows.c0; c <= outflows.c1; ++c) {
      const int64_t i = r * cols + c;
      double f[kLavaNeighbours];
      lava_cell_outflows(z, h, t, shape, r, c, k, f);
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
      const bool inside = shape.stored(rr, cc);
      own[m] = flows[m * n + i];
      in[m] = inside ? flows[lava_opposite(m) * n + j] : 0.0;
      t_in[m] = inside ? previous[j] : 0.0;
    }
    return lava_cell_update(shape.sink(r, c), own, in, t_in, k, z[i], h[i], t[i], g.solidified[i], g.lost[i]);
  });
}

class CpuLava final : public LavaBackend {
 public:
  explicit CpuLava(Context& ctx) : ctx_(ctx) {}

  bool fv2_pairs() const override { return false; }
  void set_vents(std::vector<LavaVentSchedule> schedules, std::vector<double> rates) override {
    schedules_ = std::move(schedules), rates_ = std::move(rates);  // a vector's move keeps its elements in place
  }
  const LavaVentSchedule* schedules() const override { return schedules_.data(); }
  void set_state(const LavaState&) override {}
  bool read_state(LavaState&) override { return false; }

  void emit(const LavaPlanes& g, int current, const LavaVents& vents, int64_t step) override {
    lava_emit_all(vents, lava_step_start(vents, step), vents.pclock, g.thickness[current], g.temperature[current]);
  }
  bool step(const LavaPlanes& g, const LavaStepPlace& at, int, const LavaConstants& k, LavaBox& box) override {
    const LavaBox region = lava_region(box, at.all_cells, g.rows, g.cols);
    lava_flows_cpu(g, at, region.clipped(at.ring), region.clipped(at.own), k, ctx_.threads(), box);
    return false;  // in place
  }
  double motions(const LavaPlanes& g, const LavaStepPlace& at, int cur, const Lava3Constants& k,
                 const LavaBox& box) override;
  void flows(const LavaPlanes& g, const LavaStepPlace& at, int cur, double clock, double now, const LavaVents& vents,
             const LavaBox& vent_box, const Lava3Constants& k, LavaBox& box) override;
  void pack(const LavaSlab& slab, double* to) override {
    for (int64_t v = 0; v < slab.values(); ++v) to[v] = slab.planes[slab.plane_of(v)][slab.cell_of(v)];
  }
  void unpack(const LavaSlab& slab, const double* from, LavaBox& box) override {
    for (int64_t v = 0; v < slab.values(); ++v) {
      const int64_t i = slab.cell_of(v);
      slab.planes[slab.plane_of(v)][i] = from[v];
      if (slab.plane_of(v) == 1 && from[v] > 0.0) box.include(i / slab.cols, i % slab.cols);  // lava that may cross
    }
  }
  LavaValueCheck check_values(const LavaValueBlock& b, const double* values) override {
    return lava_check_values_cpu(b, values, ctx_.threads());
  }
  void store_values(const LavaValueBlock& b, const double* values, double* plane) override {
    lava_store_values_cpu(b, values, plane, ctx_.threads());
  }
  void load_values(const LavaValueBlock& b, const double* plane, double* values) override {
    lava_load_values_cpu(b, plane, values, ctx_.threads());
  }

 private:
  Context& ctx_;  // its threads, which the host may set between calls
  std::vector<LavaVentSchedule> schedules_;
  std::vector<double> rates_;
};

// fv3's time evaluation: the motions of the ring's cells holding lava (all inside the box).
double CpuLava::motions(const LavaPlanes& g, const LavaStepPlace& at, int cur, const Lava3Constants& k,
                        const LavaBox& box) {
  const double *z = g.altitude[cur], *h = g.thickness[cur], *t = g.temperature[cur];
  const double *px = g.momentum_x[cur], *py = g.momentum_y[cur];
  const int64_t cols = at.shape.cols, n = at.shape.rows * cols;
  const LavaBox cells = box.clipped(at.ring);
  double shortest = HUGE_VAL;
  if (cells.empty()) return shortest;
#pragma omp parallel for num_threads(ctx_.threads()) schedule(static) reduction(min : shortest)
  for (int64_t r = cells.r0; r <= cells.r1; ++r)
    for (int64_t c = cells.c0; c <= cells.c1; ++c) {
      Lava3Motion m;
      if (!lava3_cell_motion(z, h, t, px, py, at.shape, r, c, k, m)) continue;
      shortest = std::min(shortest, lava3_cell_time(m, k));
      lava3_store_motion(g.motion, n, r * cols + c, m);
    }
  return shortest;
}

// fv3's flow mode over the box grown by one (lava moves at most a cell a step) within the block.
void CpuLava::flows(const LavaPlanes& g, const LavaStepPlace& at, int cur, double clock, double now,
                    const LavaVents& vents, const LavaBox& vent_box, const Lava3Constants& k, LavaBox& box) {
  const LavaBox cells = lava_region(box, at.all_cells, g.rows, g.cols).clipped(at.own);
  if (cells.empty()) return;
  update_region(cells, ctx_.threads(), box, [&](int64_t r, int64_t c) {
    const bool may_be_vent = r >= vent_box.r0 && r <= vent_box.r1 && c >= vent_box.c0 && c <= vent_box.c1;
    return lava3_cell_step(g, at.shape, cur, r, c, k, clock, vents, may_be_vent, now);
  });
}

std::unique_ptr<LavaBackend> make_cpu_lava(Context& ctx) { return std::make_unique<CpuLava>(ctx); }

}  // namespace

LavaValueCheck lava_check_values_cpu(const LavaValueBlock& b, const double* values, int threads) {
  int64_t first = b.cells();
  LavaBox positive;
#pragma omp parallel num_threads(threads)
  {
    int64_t my_first = b.cells();
    LavaBox mine;
#pragma omp for schedule(static)
    for (int64_t j = 0; j < b.cells(); ++j) {
      const int64_t i = b.cell(j);
      if (b.fault(i, values[j]) != LavaValueFault::none) {
        my_first = std::min(my_first, i);
      } else if (values[j] > 0.0) {
        const int64_t s = b.stored(i);
        mine.include(s / b.shape.cols, s % b.shape.cols);
      }
    }
#pragma omp critical
    first = std::min(first, my_first), positive.include(mine);
  }
  LavaValueCheck check;
  check.positive = positive;
  if (first < b.cells()) check.first_bad = first, check.bad_value = values[b.given(first)];
  return check;
}

void lava_store_values_cpu(const LavaValueBlock& b, const double* values, double* plane, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t j = 0; j < b.cells(); ++j) plane[b.stored(b.cell(j))] = values[j];
}

void lava_load_values_cpu(const LavaValueBlock& b, const double* plane, double* values, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t j = 0; j < b.cells(); ++j) values[j] = plane[b.stored(b.cell(j))];
}

const LavaBackendMaker& lava_cpu_backend() {
  static const LavaBackendMaker maker{make_cpu_lava};
  return maker;
}

}  // namespace opsplit::ca
