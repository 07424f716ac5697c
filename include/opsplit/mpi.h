/* opsplit on MPI: objects spread over the processes of an MPI communicator, in the
 * decomposition the host already uses (libopsplit_mpi, CMake target opsplit::opsplit_mpi,
 * built when OPSPLIT_ENABLE_MPI finds MPI; Fortran: module opsplit_mpi). The core
 * library has no MPI dependency: this layer gives it the communicator's collectives
 * through opsplit/group.h and the capabilities' calls over a group (opsplit/distributed.h).
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

#include "opsplit/ca.h"
#include "opsplit/field.h"
#include "opsplit/mpi_export.h"
#include "opsplit/pcpd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes `field` this process's subdomain of a field decomposed over comm, a Cartesian
 * communicator (MPI_Cart_create) of 1 to 3 dimensions: dimension a is axis a (x, y, z),
 * and the field holds this process's cells as the host holds them, without ghosts.
 * From then on opsplit_rd_step (collective for this field) fills every step the ghosts
 * of faces that border another process from that process, the edge ghosts of the
 * 19-point stencil included: an axis split over processes wraps around across them
 * where comm is periodic along it (the model's faces on that axis must then be
 * PERIODIC, and must not be otherwise); the other faces take the model's conditions.
 * The result is the one-process run's, bit for bit. Neighbours must have the same
 * cells along the axes of the face they share, and every process the same ncomp and
 * precision; a field is attached once. On CUDA, a slab from a GPU of this node that
 * this process's GPU reaches is copied from GPU to GPU by CUDA IPC (MPI carries two
 * tokens; OPSPLIT_DEVICE_IPC=0 turns it off), the others travel in device memory where
 * MPI is CUDA-aware (Open MPI's MPIX_Query_cuda_support at run time;
 * OPSPLIT_MPI_CUDA_AWARE=0 or 1 overrides), else through host buffers. Cahn-Hilliard terms add a second
 * exchange a step (their chemical potential's ghosts, overlapped as the first); a velocity field's ghosts are
 * exchanged once after any process sets it (every process must have one or none). The
 * free energy is not supported (UNSUPPORTED). Collective. */
OPSPLIT_MPI_API opsplit_status opsplit_mpi_field_attach(opsplit_field field, MPI_Fint comm);

/* Makes `ca`, a CA grid created with this process's block's shape, its block of a grid
 * decomposed over comm, a Cartesian communicator of 1 or 2 dimensions: dimension 0
 * splits the rows (north to south), dimension 1 the columns. Neighbours along a
 * dimension have as many rows (or columns) as each other; the blocks of a process row or
 * column line up. Attach before the first vent or step; the state set before is kept.
 * The run is then the one-process run's, bit for bit. Collective.
 * Lava grids (SCIARA_FV2, SCIARA_FV3): the communicator is not periodic; thickness set
 * before the attach stays off the block's outer ring (the sink of a grid not yet
 * attached). Each step exchanges two rows and columns of ghosts with the neighbours
 * (fv3's clock is the minimum over all processes). After it, collective:
 * opsplit_ca_step, run_until, add_vent and load_vents (rows and columns of the whole
 * grid, the same vents everywhere), load_substate and load_parameters (files of the
 * whole grid), get_volumes (the whole grid's) and destroy. Local: set_substate and
 * get_substate (this block, row and column 0 its first; the thickness ring check is the
 * whole grid's), set_parameter (compared at the next step), set_cells_computed,
 * get_shape (the block's), get_place, get_time, get_steps and get_parameter.
 * LIFE grids: the communicator wraps a dimension it splits exactly when the grid is a
 * torus (PERIODIC; checked at each step), and a block with a neighbour to the east has
 * cols a multiple of 64. A generation exchanges a ghost row and a ghost word (64
 * cells) with each neighbour, the words no ghost reaches computed meanwhile. After it, collective: opsplit_ca_step, place_rle and
 * load_rle (the whole grid's row and column, the same pattern everywhere),
 * get_population (the whole grid's) and destroy; local: set_cells, get_cells (the
 * block), set_rule and set_boundary (compared at the next step), get_place.
 * A bad `ca` on one process cannot join the agreement: it fails there and the others
 * wait. On a CUDA context the ghosts travel as a field's slabs do (CUDA IPC between a
 * node's GPUs, device memory where MPI is CUDA-aware, else through host buffers), a
 * step or generation a launch a phase. */
OPSPLIT_MPI_API opsplit_status opsplit_mpi_ca_attach(opsplit_ca ca, MPI_Fint comm);

/* A PCPD ensemble of `replicas` replicas (in all) spread over the processes of comm.
 * Collective; the other arguments as opsplit_pcpd_create's. */
OPSPLIT_MPI_API opsplit_status opsplit_mpi_pcpd_create(opsplit_context ctx, MPI_Fint comm,
                                                       opsplit_pcpd_algorithm algorithm, int64_t L, int64_t replicas,
                                                       opsplit_pcpd* pcpd);

#ifdef __cplusplus
}
#endif

#endif
