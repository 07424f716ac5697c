// What the MPI benchmark programs share: the slowest process's time of a collective
// call from a barrier, one GPU's copy bandwidth, and a reporter that keeps processes
// other than 0 quiet.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "device_copy.hpp"
#include "opsplit/core.h"

namespace bench {

// The slowest process's seconds for call() (which returns whether it succeeded), from a
// barrier; -1 when it failed on any process.
template <class Call>
double slowest_seconds(Call call) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  const bool ok = call();
  const double s = ok ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() : -1.0;
  double slowest = 0, worst = 0;
  MPI_Allreduce(&s, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&s, &worst, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return worst < 0 ? -1.0 : slowest;
}

// One GPU's device-to-device copy bandwidth (bytes read + written a second), best of 5.
inline double copy_bandwidth() {
  const size_t bytes = size_t(1) << 30;
  void *a = nullptr, *b = nullptr;
  double best = 0;
  if (cudaMalloc(&a, bytes) == cudaSuccess && cudaMalloc(&b, bytes) == cudaSuccess)
    best = best_device_copy_seconds(b, a, bytes);
  cudaFree(a), cudaFree(b);
  return best > 0 ? 2.0 * static_cast<double>(bytes) / best : 0;
}

class Silent : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// MPI and Google Benchmark started, and a CUDA context on this process's GPU (that of
// its node-local rank) and the GPU's copy bandwidth; false (MPI finalized) without one.
// OPSPLIT_BACKEND=cpu: a CPU context instead (each process on OMP_NUM_THREADS threads),
// and no copy bandwidth (0).
inline bool start(int* argc, char** argv, int& rank, int& size, opsplit_context& ctx, double& copy_bytes_per_s) {
  MPI_Init(argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  benchmark::Initialize(argc, argv);
  const char* backend = std::getenv("OPSPLIT_BACKEND");
  const bool cpu = backend != nullptr && std::string(backend) == "cpu";
  if (opsplit_context_create(cpu ? OPSPLIT_BACKEND_CPU : OPSPLIT_BACKEND_CUDA, &ctx) != OPSPLIT_SUCCESS) {
    if (rank == 0) std::fprintf(stderr, "no %s context: %s\n", cpu ? "CPU" : "CUDA", opsplit_last_error_message());
    MPI_Finalize();
    return false;
  }
  copy_bytes_per_s = 0;
  if (cpu) return true;
  int device = 0;
  opsplit_context_get_cuda_device(ctx, &device);
  cudaSetDevice(device);
  copy_bytes_per_s = copy_bandwidth();
  return true;
}

// A case timed by the program (the slowest process's time), one iteration, in ms.
template <class... Args>
void add_case(const std::string& name, Args... args) {
  benchmark::RegisterBenchmark(name.c_str(), args...)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
}

// Runs the registered cases on every process (only process 0 prints), then stops.
inline void run_and_finish(int rank, opsplit_context& ctx) {
  if (rank == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    Silent silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  opsplit_context_destroy(&ctx);
  MPI_Finalize();
}

}  // namespace bench
