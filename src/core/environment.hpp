// Every environment variable the library reads, each parsed and checked here:
//
//   OPSPLIT_BACKEND          cpu | cuda: what OPSPLIT_BACKEND_AUTO becomes (unset: CUDA
//                            when a GPU is there)
//   OPSPLIT_CUDA_DEVICE      the GPU of a CUDA context (unset: an MPI launcher's local
//                            rank modulo the node's GPUs, else 0: core/default_device.hpp
//                            reads OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID,
//                            MV2_COMM_WORLD_LOCAL_RANK, SLURM_LOCALID, PMI_LOCAL_RANK)
//   OPSPLIT_ODE_CUDA_ROUNDS  auto | off | always: ODE batches on CUDA in rounds (ode/launch.hpp)
//   OPSPLIT_DEVICE_IPC       1 (auto) | 0 | require | mixed: faces between a node's GPUs by
//                            CUDA IPC (core/peer_slabs.cpp)
//   OPSPLIT_HALO_OVERLAP     0: a distributed step exchanges its halo before computing,
//                            and a fused CUDA pass swaps its planes before it (any
//                            other value, or none: they overlap)
//   OPSPLIT_MPI_CUDA_AWARE   0 | 1: whether MPI takes device pointers (unset: MPI's
//                            answer); read by libopsplit_mpi (src/mpi/mpi_group.cpp),
//                            a library of its own that sees only the C API
//
// Each is read when the object it configures is made, not cached at start-up: a host
// (or a test) may set one between two contexts. A value none of those listed is an
// INVALID_ARGUMENT naming the variable, where the caller can report it;
// OPSPLIT_DEVICE_IPC's is reported by every process of the group together (kBad).
#pragma once

#include <optional>

#include "opsplit/core.h"

namespace opsplit::environment {

// OPSPLIT_BACKEND: CPU or CUDA, or nothing when unset or empty.
std::optional<opsplit_backend> backend();

// The device a CUDA context takes among `count` (OPSPLIT_CUDA_DEVICE, a launcher's rank).
int cuda_device(int count);

enum class Rounds { kAuto, kOff, kAlways };
Rounds ode_cuda_rounds();

enum class DeviceIpc { kOff, kAuto, kRequire, kMixed, kBad };
DeviceIpc device_ipc();

bool halo_overlap();

}  // namespace opsplit::environment
