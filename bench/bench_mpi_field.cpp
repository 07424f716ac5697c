// Distributed fields on several GPUs (opsplit_mpi_field_attach), run under mpirun with
// one process a GPU (each takes the GPU of its node-local rank), split along z (each
// process's z faces are whole xy planes). Four problems, float64, 19 points but one:
//   turing19          seed 000's Turing problem (2 components): one exchange a step,
//                     overlapped with the interior
//   turing7           the same at 7 points, which the CUDA backend fuses on a field split
//                     along z (the planes beyond its z faces swapped while the pass makes
//                     the planes more than k from them; OPSPLIT_HALO_OVERLAP=0: before)
//   cahn_hilliard19   seed 003's Cahn-Hilliard problem (1 component, NOFLUX): two
//                     exchanges a step (the field, then its chemical potential), each
//                     overlapped with interior work; one process fuses the potential
//                     into the march, a split one cannot
//   wind19            seed 000's advection problem with a per-cell velocity field (a
//                     shear from global z) instead of its uniform wind: the wind's
//                     ghosts are exchanged once after it is set
//
// Cases (every process runs each; the time of an iteration is the slowest process's,
// from a barrier to the end of its opsplit_rd_step calls, which wait for the device):
//   mpi_field/P/alone/N:n          each process steps its own n^3 field, not attached:
//                                  one GPU's time, the weak-scaling base
//   mpi_field/P/alone_unfused/N:n  (cahn_hilliard19) the same with a DIRICHLET x-low
//                                  face, which one process cannot fuse either: the same
//                                  work as a split run's, the fair base for it
//   mpi_field/P/serial_halo/N:n/gpus:P   (turing19, cahn_hilliard19)
//                                  OPSPLIT_HALO_OVERLAP=0: each exchange runs whole
//                                  before the work that needs it
//   mpi_field/P/weak/N:n/gpus:P    n^3 a process, attached: the field is n x n x Pn
//   mpi_field/P/strong/1024x512x512/gpus:P   (turing19) the global 1024 x 512 x 512
//   mpi_field/wind19/reset_alone, reset_weak   each step its own call after setting the
//                                  wind again (a host whose wind changes every step):
//                                  weak pays the wind's exchange every step
//   mpi_field/turing19/alone_fused/N:n/k:4, weak_fused/N:n/gpus:P/k:4   four steps a pass
//                                  (opsplit_rd_set_steps_per_pass; the CPU backend fuses a
//                                  distributed field, one swap of a 4-deep halo a pass;
//                                  run with OPSPLIT_BACKEND=cpu): x_one_step_a_pass against
//                                  alone and weak, steps_per_pass_taken, efficiency
//                                  (weak_fused: alone_fused's time over its own)
//   mpi_field/turing7/...          alone, weak and three steps a pass of both (CUDA's
//                                  coupled pass takes 3 at most); weak_y, weak_yz and
//                                  their fused: split 1 x P x 1 and 1 x 2 x P/2 (4 or
//                                  more processes), the field n x Pn x n and n x 2n x Pn/2
// Counters: Mpoints_per_s (all cells x steps / time), per_gpu_Mpoints_per_s;
// efficiency (weak: the alone time / the attached time, the same run: the fraction of a
// GPU's stepping rate kept while exchanging; cahn_hilliard19 also efficiency_unfused
// against alone_unfused), halo_ms_per_step (serial_halo - alone, per step: the
// exchange's time), exposed_halo_ms_per_step (weak - alone: what the interior work does
// not hide) and hidden_fraction (1 - exposed / halo); for cahn_hilliard19 these three
// are taken against alone_unfused, the same work, x_seed_gtx275 (the seed's speed
// of the problem on a GTX 275, Table 6; seed 003 has none: precipitation's), 
// frac_of_copy_bw (the bytes a step must move at least, 2 x components x cells x 8,
// against the copy bandwidth of a GPU measured at startup).
// Only process 0 prints.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "mpi_bench.hpp"
#include "opsplit/mpi.h"
#include "seed_problems.hpp"

namespace {

int g_rank = 0, g_size = 1;
double g_copy_bytes_per_s = 0;
opsplit_context g_ctx = nullptr;
// Per problem: the base times of a step (alone, alone_unfused, serial_halo, weak, alone_fused).
std::map<std::string, double> g_alone, g_alone_unfused, g_serial_halo, g_weak, g_alone_fused;

enum class Wind { none, once, every_step };

struct Case {
  std::string problem;  // turing19, turing7, cahn_hilliard19, wind19
  int64_t nx, ny, nz, nsteps;
  bool attach, weak, overlap = true, unfused = false;
  Wind wind = Wind::none;
  int steps_per_pass = 1;
  std::string split = "z";  // attached: 1 x 1 x P ("z"), 1 x P x 1 ("y"), 1 x 2 x P/2 ("yz")
};

bench::Problem seed_problem(const std::string& name) {
  if (name == "cahn_hilliard19") return bench::Problem::cahn_hilliard;
  if (name == "wind19") return bench::Problem::advection;
  return bench::Problem::turing;
}

// An n^3 field of this process, attached to a 1 x 1 x P decomposition when `attach` (or
// the case's split).
struct Run {
  opsplit_rd rd = nullptr;
  opsplit_field field = nullptr, wind = nullptr;
  double dt = 0;
  MPI_Comm cart = MPI_COMM_NULL;
  ~Run() {
    if (rd) opsplit_rd_destroy(&rd);
    if (field) opsplit_field_destroy(&field);
    if (wind) opsplit_field_destroy(&wind);
    if (cart != MPI_COMM_NULL) MPI_Comm_free(&cart);
  }
};

// wind19's velocity field: the advection problem's uniform x and y wind, and a shear
// along x growing with the global z (this process's planes from z0).
bool make_wind(Run& r, const Case& c, int64_t z0, std::string& error) {
  const int64_t plane = c.nx * c.ny, cells = plane * c.nz;
  std::vector<double> u(static_cast<size_t>(3 * cells), 0.0);
  const double nz_global = static_cast<double>(c.attach ? c.nz * g_size : c.nz);
  for (int64_t z = 0; z < c.nz; ++z)
    for (int64_t i = 0; i < plane; ++i) {
      const size_t at = static_cast<size_t>(z * plane + i);
      u[at] = 5.0 + 2.0 * static_cast<double>(z0 + z) / nz_global;
      u[static_cast<size_t>(cells) + at] = 1.0;
    }
  API_CHECK_RET(opsplit_field_create(g_ctx, c.nx, c.ny, c.nz, 3, OPSPLIT_FLOAT64, &r.wind), false);
  API_CHECK_RET(opsplit_field_upload(r.wind, u.data(), OPSPLIT_LAYOUT_PLANAR), false);
  for (int a = 0; a < 3; ++a) API_CHECK_RET(opsplit_rd_set_velocity(r.rd, a, 0.0, 0.0, 0.0, 0.0), false);
  API_CHECK_RET(opsplit_rd_set_velocity_field(r.rd, r.wind), false);
  double limit = 0;
  API_CHECK_RET(opsplit_rd_max_stable_dt(r.rd, r.field, &limit), false);
  MPI_Allreduce(MPI_IN_PLACE, &limit, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);  // the process's own bound
  r.dt = std::min(r.dt, 0.9 * limit);
  return true;
}

bool make_run(Run& r, const Case& c, std::string& error) {
  if (!bench::make_seed_problem(g_ctx, c.nx, c.ny, c.nz, seed_problem(c.problem), OPSPLIT_FLOAT64, &r.rd, &r.field,
                                &r.dt, error))
    return false;
  if (c.problem == "turing7") API_CHECK_RET(opsplit_rd_set_stencil(r.rd, OPSPLIT_STENCIL_7POINT), false);
  if (c.unfused) API_CHECK_RET(opsplit_rd_set_boundary(r.rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, 0.0), false);
  API_CHECK_RET(opsplit_rd_set_steps_per_pass(r.rd, c.steps_per_pass), false);
  if (c.attach) {
    int dims[3] = {1, 1, g_size}, periods[3] = {0, 0, 0};
    if (c.split == "y") dims[1] = g_size, dims[2] = 1;
    if (c.split == "yz") dims[1] = 2, dims[2] = g_size / 2;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &r.cart);
    API_CHECK_RET(opsplit_mpi_field_attach(r.field, MPI_Comm_c2f(r.cart)), false);
  }
  if (c.wind != Wind::none && !make_wind(r, c, c.attach ? g_rank * c.nz : 0, error)) return false;
  return true;
}

// The slowest process's time for nsteps: one call, or (Wind::every_step) a call a step
// after setting the wind again.
double timed_steps(Run& r, const Case& c, int64_t nsteps, std::string& error) {
  return bench::slowest_seconds([&] {
    opsplit_status st = OPSPLIT_SUCCESS;
    const char* call = "opsplit_rd_step";
    if (c.wind != Wind::every_step) {
      st = opsplit_rd_step(r.rd, r.field, r.dt, nsteps);
    } else {
      for (int64_t n = 0; n < nsteps && st == OPSPLIT_SUCCESS; ++n) {
        st = opsplit_rd_set_velocity_field(r.rd, r.wind);
        if (st != OPSPLIT_SUCCESS) {
          call = "opsplit_rd_set_velocity_field";
          break;
        }
        st = opsplit_rd_step(r.rd, r.field, r.dt, 1);
      }
      if (st == OPSPLIT_SUCCESS) st = opsplit_context_synchronize(g_ctx);
    }
    if (st != OPSPLIT_SUCCESS) error = bench::api_error(call, st);
    return st == OPSPLIT_SUCCESS;
  });
}

void BM_field(benchmark::State& state, Case c) {
  if (c.overlap)
    unsetenv("OPSPLIT_HALO_OVERLAP");
  else
    setenv("OPSPLIT_HALO_OVERLAP", "0", 1);
  Run r;
  std::string error;
  const bool ok = make_run(r, c, error);
  int all_ok = ok ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) return state.SkipWithError(("setup: " + error).c_str());
  if (timed_steps(r, c, 2, error) < 0) return state.SkipWithError(error.c_str());  // warm-up
  double seconds = 0;
  for (auto _ : state) {
    seconds = timed_steps(r, c, c.nsteps, error);
    if (seconds < 0) return state.SkipWithError(error.c_str());
    state.SetIterationTime(seconds);
  }
  const bench::ProblemInfo info = bench::problem_info(seed_problem(c.problem));
  const int parts = c.attach ? g_size : 1;
  const double cells = static_cast<double>(c.nx * c.ny * c.nz) * parts, per_step = seconds / static_cast<double>(c.nsteps);
  const double rate = cells * static_cast<double>(c.nsteps) / seconds / 1e6;
  state.counters["Mpoints_per_s"] = rate;
  state.counters["per_gpu_Mpoints_per_s"] = rate / parts;
  state.counters["ms_per_step"] = per_step * 1e3;
  if (c.problem != "turing7") state.counters["x_seed_gtx275"] = rate / info.seed_gtx275_mpoints;  // (19 points)
  if (g_copy_bytes_per_s > 0)
    state.counters["frac_of_copy_bw"] = 2.0 * info.ncomp * 8 * cells / parts / per_step / g_copy_bytes_per_s;
  // The bases are keyed by problem and by whether the wind is set every step (an
  // attached field's also by its split).
  const std::string key = c.problem + (c.wind == Wind::every_step ? "/reset" : "");
  const std::string weak_key = key + (c.split == "z" ? "" : "/" + c.split);
  if (c.steps_per_pass > 1) {  // against the same case one step a pass (run before it)
    int taken = 0;
    opsplit_rd_get_steps_per_pass_taken(r.rd, &taken);
    state.counters["steps_per_pass_taken"] = taken;
    const double* base = c.attach ? (g_weak.count(weak_key) ? &g_weak[weak_key] : nullptr)
                                  : (g_alone.count(key) ? &g_alone[key] : nullptr);
    if (base) state.counters["x_one_step_a_pass"] = *base / per_step;
    if (!c.attach) g_alone_fused[key] = per_step;
    if (c.attach && g_alone_fused.count(key)) state.counters["efficiency"] = g_alone_fused[key] / per_step;
    unsetenv("OPSPLIT_HALO_OVERLAP");
    return;
  }
  if (c.attach && c.weak && c.overlap) g_weak[weak_key] = per_step;
  if (!c.attach) (c.unfused ? g_alone_unfused : g_alone)[key] = per_step;
  if (c.attach && c.weak && !c.overlap) g_serial_halo[key] = per_step;
  if (c.attach && c.weak && g_alone.count(key)) {
    const double alone = g_alone[key];
    // The halo against the same work alone (cahn_hilliard19: the unfused step).
    const double work = g_alone_unfused.count(key) ? g_alone_unfused[key] : alone;
    state.counters["efficiency"] = alone / per_step;
    if (g_alone_unfused.count(key)) state.counters["efficiency_unfused"] = work / per_step;
    state.counters["exposed_halo_ms_per_step"] = (per_step - work) * 1e3;
    if (c.overlap && g_serial_halo.count(key) && g_serial_halo[key] > work) {
      const double halo = g_serial_halo[key] - work;
      state.counters["halo_ms_per_step"] = halo * 1e3;
      state.counters["hidden_fraction"] = 1.0 - (per_step - work) / halo;
    }
  }
  unsetenv("OPSPLIT_HALO_OVERLAP");
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::start(&argc, argv, g_rank, g_size, g_ctx, g_copy_bytes_per_s)) return 0;
  const int64_t n = std::getenv("OPSPLIT_BENCH_MPI_N") ? std::atoll(std::getenv("OPSPLIT_BENCH_MPI_N")) : 512;
  const std::string gpus = "/gpus:" + std::to_string(g_size), N = "/N:" + std::to_string(n);
  auto add = [](const std::string& name, const Case& c) { bench::add_case("mpi_field/" + name, BM_field, c); };
  // Case: problem, nx, ny, nz, nsteps, attach, weak, overlap, unfused, wind.
  add("turing19/alone" + N, {"turing19", n, n, n, 20, false, true});
  add("turing19/serial_halo" + N + gpus, {"turing19", n, n, n, 20, true, true, false});
  add("turing19/weak" + N + gpus, {"turing19", n, n, n, 20, true, true});
  // k steps a pass, alone and attached (each after its one-step base: x_one_step_a_pass).
  auto add_fused = [&](const std::string& problem, int64_t nsteps, int k) {
    Case fused{problem, n, n, n, nsteps, false, true};
    fused.steps_per_pass = k;
    add(problem + "/alone_fused" + N + "/k:" + std::to_string(k), fused);
    fused.attach = true;
    add(problem + "/weak_fused" + N + gpus + "/k:" + std::to_string(k), fused);
  };
  add_fused("turing19", 20, 4);
  add("turing7/alone" + N, {"turing7", n, n, n, 24, false, true});
  add("turing7/weak" + N + gpus, {"turing7", n, n, n, 24, true, true});
  add_fused("turing7", 24, 3);
  // Split along y (and along y and z on 4 or more processes: 2 x P/2), one step a pass
  // and 3: the rows beyond the y faces swapped before each pass.
  for (const std::string split : {"y", "yz"}) {
    if (split == "yz" && (g_size < 4 || g_size % 2 != 0)) continue;
    Case weak{"turing7", n, n, n, 24, true, true};
    weak.split = split;
    add("turing7/weak_" + split + N + gpus, weak);
    weak.steps_per_pass = 3;
    add("turing7/weak_fused_" + split + N + gpus + "/k:3", weak);
  }
  if (1024 % (2 * g_size) == 0)
    add("turing19/strong/1024x512x512" + gpus, {"turing19", 1024, 512, 512 / g_size, 10, true, false});
  add("cahn_hilliard19/alone" + N, {"cahn_hilliard19", n, n, n, 20, false, true});
  add("cahn_hilliard19/alone_unfused" + N, {"cahn_hilliard19", n, n, n, 20, false, true, true, true});
  add("cahn_hilliard19/serial_halo" + N + gpus, {"cahn_hilliard19", n, n, n, 20, true, true, false});
  add("cahn_hilliard19/weak" + N + gpus, {"cahn_hilliard19", n, n, n, 20, true, true});
  add("wind19/alone" + N, {"wind19", n, n, n, 20, false, true, true, false, Wind::once});
  add("wind19/weak" + N + gpus, {"wind19", n, n, n, 20, true, true, true, false, Wind::once});
  add("wind19/reset_alone" + N, {"wind19", n, n, n, 20, false, true, true, false, Wind::every_step});
  add("wind19/reset_weak" + N + gpus, {"wind19", n, n, n, 20, true, true, true, false, Wind::every_step});
  bench::run_and_finish(g_rank, g_ctx);
  return 0;
}
