// The GPU opsplit_context_create gives a CUDA context: OPSPLIT_CUDA_DEVICE if set; else,
// under an MPI launcher that tells a process its rank on the node, that rank modulo the
// node's GPUs (so each rank of a node takes its own GPU); else device 0. `get` reads
// an environment variable (nullptr if unset): std::getenv, or a test's table.
#pragma once

#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace opsplit {

template <class Getenv>
int default_cuda_device(int count, Getenv&& get) {
  if (const char* chosen = get("OPSPLIT_CUDA_DEVICE"); chosen != nullptr && *chosen != '\0') {
    char* end = nullptr;
    const long device = std::strtol(chosen, &end, 10);
    if (*end != '\0' || device < 0 || device >= count)
      fail_argument(std::string("the environment variable OPSPLIT_CUDA_DEVICE='") + chosen + "' is not a device in 0 .. " +
                    std::to_string(count - 1));
    return static_cast<int>(device);
  }
  // Open MPI, MPICH (Hydra), MVAPICH2, Slurm's srun, PMI.
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID",
                           "PMI_LOCAL_RANK"}) {
    const char* value = get(name);
    if (value == nullptr || *value == '\0') continue;
    char* end = nullptr;
    const long rank = std::strtol(value, &end, 10);
    if (*end == '\0' && rank >= 0 && count > 0) return static_cast<int>(rank % count);
  }
  return 0;
}

}  // namespace opsplit
