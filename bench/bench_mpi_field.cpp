// Distributed fields on several GPUs (opsplit_mpi_field_attach), run under mpirun with
// one process a GPU (each takes the GPU of its node-local rank). Seed 000's Turing
// problem with the 19-point stencil, float64 (2 components), split along z (each
// process's z faces are whole xy planes).
//
// Cases (every process runs each; the time of an iteration is the slowest process's,
// from a barrier to the end of its opsplit_rd_step call, which waits for the device):
//   mpi_field/turing19/alone/N:n          each process steps its own n^3 field, not
//                                         attached: one GPU's time, the weak-scaling base
//   mpi_field/turing19/serial_halo/N:n/gpus:P   the same with OPSPLIT_HALO_OVERLAP=0:
//                                         the exchange runs before the step, whole
//   mpi_field/turing19/weak/N:n/gpus:P    n^3 a process, attached: the field is n x n x Pn
//   mpi_field/turing19/strong/1024x512x512/gpus:P   the global 1024 x 512 x 512, split
// Counters: Mpoints_per_s (all cells x steps / time), per_gpu_Mpoints_per_s;
// efficiency (weak: the alone time / the attached time, the same run: the fraction of a
// GPU's stepping rate kept while exchanging), halo_ms_per_step (serial_halo - alone, per
// step: the exchange's time), exposed_halo_ms_per_step (weak - alone: what the interior
// work does not hide) and hidden_fraction (1 - exposed / halo), x_seed_gtx275 (the seed's Turing speed on
// a GTX 275, Table 6), frac_of_copy_bw (the bytes a step must move at least, 2 x
// components x cells x 8, against the copy bandwidth of a GPU measured at startup).
// Only process 0 prints.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "mpi_bench.hpp"
#include "opsplit/mpi.h"
#include "seed_problems.hpp"

namespace {

int g_rank = 0, g_size = 1;
double g_alone_seconds = 0, g_serial_halo_seconds = 0, g_copy_bytes_per_s = 0;
opsplit_context g_ctx = nullptr;

// An n^3 field of this process, attached to a 1 x 1 x P decomposition when `attach`.
struct Run {
  opsplit_rd rd = nullptr;
  opsplit_field field = nullptr;
  double dt = 0;
  MPI_Comm cart = MPI_COMM_NULL;
  ~Run() {
    if (rd) opsplit_rd_destroy(&rd);
    if (field) opsplit_field_destroy(&field);
    if (cart != MPI_COMM_NULL) MPI_Comm_free(&cart);
  }
};

bool make_run(Run& r, int64_t nx, int64_t ny, int64_t nz, bool attach, std::string& error) {
  if (!bench::make_seed_problem(g_ctx, nx, ny, nz, bench::Problem::turing, OPSPLIT_FLOAT64, &r.rd, &r.field, &r.dt,
                                error))
    return false;
  if (!attach) return true;
  int dims[3] = {1, 1, g_size}, periods[3] = {0, 0, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &r.cart);
  API_CHECK_RET(opsplit_mpi_field_attach(r.field, MPI_Comm_c2f(r.cart)), false);
  return true;
}

// The slowest process's time for nsteps, from a barrier.
double timed_steps(Run& r, int64_t nsteps, std::string& error) {
  return bench::slowest_seconds([&] {
    const opsplit_status st = opsplit_rd_step(r.rd, r.field, r.dt, nsteps);
    if (st != OPSPLIT_SUCCESS) error = bench::api_error("opsplit_rd_step", st);
    return st == OPSPLIT_SUCCESS;
  });
}

void BM_turing(benchmark::State& state, int64_t nx, int64_t ny, int64_t nz, bool attach, int64_t nsteps,
               bool weak, bool overlap) {
  if (overlap)
    unsetenv("OPSPLIT_HALO_OVERLAP");
  else
    setenv("OPSPLIT_HALO_OVERLAP", "0", 1);
  Run r;
  std::string error;
  const bool ok = make_run(r, nx, ny, nz, attach, error);
  int all_ok = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) return state.SkipWithError(("setup: " + error).c_str());
  if (timed_steps(r, 2, error) < 0) return state.SkipWithError(error.c_str());  // warm-up
  double seconds = 0;
  for (auto _ : state) {
    seconds = timed_steps(r, nsteps, error);
    if (seconds < 0) return state.SkipWithError(error.c_str());
    state.SetIterationTime(seconds);
  }
  const int parts = attach ? g_size : 1;
  const double cells = static_cast<double>(nx * ny * nz) * parts, per_step = seconds / static_cast<double>(nsteps);
  state.counters["Mpoints_per_s"] = cells * static_cast<double>(nsteps) / seconds / 1e6;
  state.counters["per_gpu_Mpoints_per_s"] = cells * static_cast<double>(nsteps) / seconds / 1e6 / parts;
  state.counters["ms_per_step"] = per_step * 1e3;
  state.counters["x_seed_gtx275"] =
      cells * static_cast<double>(nsteps) / seconds / 1e6 / bench::problem_info(bench::Problem::turing).seed_gtx275_mpoints;
  if (g_copy_bytes_per_s > 0)
    state.counters["frac_of_copy_bw"] = 2.0 * 2 * 8 * cells / parts / per_step / g_copy_bytes_per_s;
  if (!attach) g_alone_seconds = per_step;
  if (attach && weak && !overlap) g_serial_halo_seconds = per_step;
  if (attach && weak && g_alone_seconds > 0) {
    state.counters["efficiency"] = g_alone_seconds / per_step;
    state.counters["exposed_halo_ms_per_step"] = (per_step - g_alone_seconds) * 1e3;
    if (overlap && g_serial_halo_seconds > g_alone_seconds) {
      const double halo = g_serial_halo_seconds - g_alone_seconds;
      state.counters["halo_ms_per_step"] = halo * 1e3;
      state.counters["hidden_fraction"] = 1.0 - (per_step - g_alone_seconds) / halo;
    }
  }
  unsetenv("OPSPLIT_HALO_OVERLAP");
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::start(&argc, argv, g_rank, g_size, g_ctx, g_copy_bytes_per_s)) return 0;
  const int64_t n = std::getenv("OPSPLIT_BENCH_MPI_N") ? std::atoll(std::getenv("OPSPLIT_BENCH_MPI_N")) : 512;
  const std::string gpus = std::to_string(g_size), N = std::to_string(n);
  auto add = [](const std::string& name, auto... args) { bench::add_case(name, BM_turing, args...); };

  add("mpi_field/turing19/alone/N:" + N, n, n, n, false, int64_t(20), true, true);
  add("mpi_field/turing19/serial_halo/N:" + N + "/gpus:" + gpus, n, n, n, true, int64_t(20), true, false);
  add("mpi_field/turing19/weak/N:" + N + "/gpus:" + gpus, n, n, n, true, int64_t(20), true, true);
  if (1024 % (2 * g_size) == 0)
    add("mpi_field/turing19/strong/1024x512x512/gpus:" + gpus, int64_t(1024), int64_t(512), int64_t(512 / g_size),
        true, int64_t(10), false, true);
  bench::run_and_finish(g_rank, g_ctx);
  return 0;
}
