// Lava grids over several GPUs (opsplit_mpi_ca_attach), run under mpirun with one
// process a GPU (each takes the GPU of its node-local rank). A grid covered with lava:
// a tilted, rippled terrain under 1.5 m of lava at 1250 K (hotter than PTsol) in every
// cell inside the sink ring, no vents, every cell in the active region from the first
// step; SCIARA-fv2 (the Etna parameters) and -fv3 (the thesis'). The blocks split the
// rows (process k holds rows k n .. (k + 1) n - 1 of the whole grid).
//
// Cases (every process runs each; an iteration's time is the slowest process's, from a
// barrier to the end of its opsplit_ca_step call, which waits for the device):
//   mpi_ca/<model>/alone/N:n            each process steps its own n x n grid, not
//                                       attached: one process's launches of 32 steps
//   mpi_ca/<model>/block_alone/N:n      the same grid attached to a 1 x 1 communicator of
//                                       its own: a block's launches, a step each, no
//                                       exchange (the weak-scaling base)
//   mpi_ca/<model>/weak/N:n/gpus:P      n x n a process: the grid is Pn x n
//   mpi_ca/<model>/strong/4096x4096/gpus:P   the global 4096 x 4096, split
//   mpi_ca/life/{alone,block_alone,weak}/N:16384   LIFE B3/S23, a soup on a torus (the
//                                       communicator periodic), 64 generations: alone
//                                       takes 8 a pass, a block one a launch after its
//                                       exchange
// Counters: Mcells_per_s (all cells x steps / time), per_gpu_Mcells_per_s, ms_per_step;
// weak: efficiency (block_alone's time / this one's, the same run: the fraction of a
// GPU's block-stepping rate kept while exchanging), halo_ms_per_step (this - block_alone:
// the exchange's exposed time), x_alone (alone's time / this one's: against one
// process's cooperative launches); frac_of_copy_bw (the substates a step must read and
// write at least, 2 x 3 planes (fv3: 2 x 5) x 8 bytes a cell, against one GPU's copy
// bandwidth measured at startup). Only process 0 prints.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "api_check.hpp"
#include "mpi_bench.hpp"
#include "opsplit/mpi.h"

namespace {

int g_rank = 0, g_size = 1;
double g_copy_bytes_per_s = 0;
double g_alone_seconds[3] = {0, 0, 0}, g_block_alone_seconds[3] = {0, 0, 0};  // per step, by model
opsplit_context g_ctx = nullptr;
// What a step must read (and write) at least, bytes a cell: LIFE a bit, fv2 3 planes of
// doubles, fv3 5.
constexpr double kBytesPerCell[3] = {1.0 / 8, 3 * 8, 5 * 8};
int64_t g_n = 0;  // alone's grid: n x n

enum class Split { alone, block_alone, rows };

struct Grid {
  opsplit_ca ca = nullptr;
  MPI_Comm cart = MPI_COMM_NULL;
  ~Grid() {
    if (ca) opsplit_ca_destroy(&ca);
    if (cart != MPI_COMM_NULL) MPI_Comm_free(&cart);
  }
};

// This process's rows x cols block, its first row first_row of a grid of global_rows.
bool make_grid(Grid& g, opsplit_ca_model model, int64_t rows, int64_t cols, int64_t first_row, int64_t global_rows,
               Split split, std::string& error) {
  const opsplit_status made = opsplit_ca_create(g_ctx, model, rows, cols, &g.ca);
  int all_made = made == OPSPLIT_SUCCESS ? 1 : 0;  // the attach is collective: all or none go on
  MPI_Allreduce(MPI_IN_PLACE, &all_made, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (made != OPSPLIT_SUCCESS) error = bench::api_error("opsplit_ca_create", made);
  if (!all_made) return false;
  const bool life = model == OPSPLIT_CA_LIFE;
  if (split != Split::alone) {  // LIFE: a torus
    const int dims[2] = {split == Split::rows ? g_size : 1, 1}, periods[2] = {life ? 1 : 0, life ? 1 : 0};
    MPI_Cart_create(split == Split::rows ? MPI_COMM_WORLD : MPI_COMM_SELF, 2, dims, periods, 0, &g.cart);
    API_CHECK_RET(opsplit_mpi_ca_attach(g.ca, MPI_Comm_c2f(g.cart)), false);
  }
  if (life) {  // a soup, a quarter of the cells alive
    std::vector<uint8_t> cells(static_cast<size_t>(rows * cols));
    for (size_t i = 0; i < cells.size(); ++i)
      cells[i] = ((static_cast<uint32_t>(i + static_cast<size_t>(first_row * cols)) * 2654435761u) >> 13) % 4 == 0;
    API_CHECK_RET(opsplit_ca_set_cells(g.ca, cells.data(), OPSPLIT_CA_ROW_MAJOR), false);
    return true;
  }
  std::vector<double> z(static_cast<size_t>(rows * cols)), h(z.size()), t(z.size(), 1250.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const double R = static_cast<double>(first_row + r), C = static_cast<double>(c);
      const size_t i = static_cast<size_t>(r * cols + c);
      z[i] = 3000.0 - 0.8 * R - 0.5 * C + 3.0 * std::sin(R / 7.0) * std::cos(C / 11.0);
      const bool ring = first_row + r == 0 || first_row + r == global_rows - 1 || c == 0 || c == cols - 1;
      h[i] = ring ? 0.0 : 1.5;
    }
  API_CHECK_RET(opsplit_ca_set_substate(g.ca, "altitude", z.data(), OPSPLIT_CA_ROW_MAJOR), false);
  API_CHECK_RET(opsplit_ca_set_substate(g.ca, "thickness", h.data(), OPSPLIT_CA_ROW_MAJOR), false);
  API_CHECK_RET(opsplit_ca_set_substate(g.ca, "temperature", t.data(), OPSPLIT_CA_ROW_MAJOR), false);
  return true;
}

double timed_steps(Grid& g, int64_t nsteps, std::string& error) {
  return bench::slowest_seconds([&] {
    const opsplit_status st = opsplit_ca_step(g.ca, nsteps);
    if (st != OPSPLIT_SUCCESS) error = bench::api_error("opsplit_ca_step", st);
    return st == OPSPLIT_SUCCESS;
  });
}

void BM_lava(benchmark::State& state, opsplit_ca_model model, int64_t rows_each, int64_t cols, Split split,
             bool weak, int64_t nsteps) {
  const int m = static_cast<int>(model);
  const int parts = split == Split::rows ? g_size : 1;
  Grid g;
  std::string error;
  const bool ok = make_grid(g, model, rows_each, cols, split == Split::rows ? g_rank * rows_each : 0,
                            rows_each * parts, split, error);
  int all_ok = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) return state.SkipWithError(("setup: " + error).c_str());
  if (timed_steps(g, 2, error) < 0) return state.SkipWithError(error.c_str());  // warm-up
  double seconds = 0;
  for (auto _ : state) {
    seconds = timed_steps(g, nsteps, error);
    if (seconds < 0) return state.SkipWithError(error.c_str());
    state.SetIterationTime(seconds);
  }
  const double cells = static_cast<double>(rows_each * cols), per_step = seconds / static_cast<double>(nsteps);
  state.counters["Mcells_per_s"] = cells * parts / per_step / 1e6;
  state.counters["per_gpu_Mcells_per_s"] = cells / per_step / 1e6;
  state.counters["ms_per_step"] = per_step * 1e3;
  if (g_copy_bytes_per_s > 0)
    state.counters["frac_of_copy_bw"] = 2.0 * kBytesPerCell[m] * cells / per_step / g_copy_bytes_per_s;
  if (split == Split::alone) g_alone_seconds[m] = per_step;
  if (split == Split::block_alone) g_block_alone_seconds[m] = per_step;
  // Against alone's n x n a GPU: per GPU where weak, the whole where strong over the same grid.
  if (g_alone_seconds[m] > 0 && split != Split::alone && (weak || split == Split::block_alone || cols == g_n))
    state.counters["x_alone"] = g_alone_seconds[m] / per_step;
  if (weak && split == Split::rows && g_block_alone_seconds[m] > 0) {
    state.counters["efficiency"] = g_block_alone_seconds[m] / per_step;
    state.counters["halo_ms_per_step"] = (per_step - g_block_alone_seconds[m]) * 1e3;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::start(&argc, argv, g_rank, g_size, g_ctx, g_copy_bytes_per_s)) return 0;
  const int64_t n = std::getenv("OPSPLIT_BENCH_MPI_N") ? std::atoll(std::getenv("OPSPLIT_BENCH_MPI_N")) : 4096;
  g_n = n;
  const std::string gpus = std::to_string(g_size), N = std::to_string(n);
  auto add = [](const std::string& name, auto... args) { bench::add_case(name, BM_lava, args...); };
  const int64_t life_n = std::getenv("OPSPLIT_BENCH_MPI_LIFE_N") ? std::atoll(std::getenv("OPSPLIT_BENCH_MPI_LIFE_N"))
                                                                   : 16384;
  const std::string L = std::to_string(life_n);
  add("mpi_ca/life/alone/N:" + L, OPSPLIT_CA_LIFE, life_n, life_n, Split::alone, false, int64_t(64));
  add("mpi_ca/life/block_alone/N:" + L, OPSPLIT_CA_LIFE, life_n, life_n, Split::block_alone, false, int64_t(64));
  add("mpi_ca/life/weak/N:" + L + "/gpus:" + gpus, OPSPLIT_CA_LIFE, life_n, life_n, Split::rows, true, int64_t(64));
  for (const opsplit_ca_model model : {OPSPLIT_CA_SCIARA_FV2, OPSPLIT_CA_SCIARA_FV3}) {
    const std::string m = model == OPSPLIT_CA_SCIARA_FV2 ? "fv2" : "fv3";
    add("mpi_ca/" + m + "/alone/N:" + N, model, n, n, Split::alone, false, int64_t(20));
    add("mpi_ca/" + m + "/block_alone/N:" + N, model, n, n, Split::block_alone, false, int64_t(20));
    add("mpi_ca/" + m + "/weak/N:" + N + "/gpus:" + gpus, model, n, n, Split::rows, true, int64_t(20));
    if (4096 % g_size == 0)
      add("mpi_ca/" + m + "/strong/4096x4096/gpus:" + gpus, model, int64_t(4096 / g_size), int64_t(4096), Split::rows,
          false, int64_t(20));
  }
  bench::run_and_finish(g_rank, g_ctx);
  return 0;
}
