/* opsplit on MPI: objects spread over the processes of an MPI communicator, in the
 * decomposition the host already uses (libopsplit_mpi, CMake target opsplit::opsplit_mpi,
 * built when OPSPLIT_ENABLE_MPI finds MPI; Fortran: module opsplit_mpi). The core
 * library has no MPI dependency: this layer gives it the communicator's collectives
 * through opsplit/distributed.h.
 *
 * Communicators cross as Fortran handles (MPI_Fint), so C and Fortran hosts pass the
 * one they have: MPI_Comm_c2f(comm) from C, the integer from Fortran's `use mpi` (or
 * comm%MPI_VAL from `use mpi_f08`). The object keeps a duplicate (MPI_Comm_dup), so its
 * messages never mix with the host's; MPI must be initialized when it is created and
 * not yet finalized when it is destroyed.
 *
 * Collective calls: every process of the communicator makes them, in the same order,
 * with the same arguments. Before any exchange the processes check that they agree;
 * an argument that differs between processes, or a failure on one of them, fails the
 * call on every process with a clear message (never a hang), and the object stays
 * usable.
 *
 * PCPD ensembles (pcpd.h): opsplit_mpi_pcpd_create spreads R replicas over the n
 * processes, process k holding replicas [k R / n, (k + 1) R / n) (at least one each;
 * opsplit_pcpd_get_replicas says which). Each replica's random numbers are keyed by its
 * global index, so n processes produce exactly the lattices and the series one process
 * produces, bit for bit. Collective: opsplit_mpi_pcpd_create, opsplit_pcpd_destroy,
 * set_probabilities, initialize, set_points_per_decade and run; every process gets the
 * whole series (means and standard errors over all replicas). Local: get_time,
 * get_series_length, get_series, get_replicas, and get_lattice / set_lattice of this
 * process's replicas (global indices). A lattice set at time 0 retakes the series'
 * first point at the next run (opsplit_pcpd_run(pcpd, 0) does only that); until then the
 * series getters refuse. A progress callback on any process makes every process
 * report at the same moves, and a cancel on any of them cancels all. */
#ifndef OPSPLIT_MPI_H
#define OPSPLIT_MPI_H

#include <mpi.h>

#include "opsplit/mpi_export.h"
#include "opsplit/pcpd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A PCPD ensemble of `replicas` replicas (in all) spread over the processes of comm.
 * Collective; the other arguments as opsplit_pcpd_create's. */
OPSPLIT_MPI_API opsplit_status opsplit_mpi_pcpd_create(opsplit_context ctx, MPI_Fint comm,
                                                       opsplit_pcpd_algorithm algorithm, int64_t L, int64_t replicas,
                                                       opsplit_pcpd* pcpd);

#ifdef __cplusplus
}
#endif

#endif
