/* opsplit PCPD ensembles: the pair contact process with diffusion on a periodic
 * one-dimensional lattice of L sites, many independent replicas at once (Schram, "Reaction-
 * diffusion model Monte Carlo simulations on the GPU"; docs/API.md's PCPD section).
 *
 * A move picks a site i; with probability d the sites i and i+1 swap (diffusion); else,
 * when both hold a particle, with probability p both vanish (annihilation), else a
 * particle is born at i-1 or at i+2, one half each (fission). Time is counted in Monte
 * Carlo sweeps of L attempted moves.
 *
 * Algorithms:
 *   EXACT      the seed's Algorithm 1: random sequential moves, one at a time, a
 *              replica's sites as bytes. The reference; 4 <= L <= 2^32 (a move's site
 *              is floor(L u / 2^32) of one 32-bit draw u: uniform for L a power of 2,
 *              otherwise within L / 2^32 of it), any p and d in [0, 1].
 *   MULTISPIN  the seed's Algorithm 2 and memory layout: 64 sites a 64-bit word, sites
 *              L/64 apart in one word (the 64 strips joined into one lattice); a step
 *              updates 32 parts of K = L/2048 consecutive words at one local index (2048
 *              moves, time 2048 / L). Restrictions (OPSPLIT_ERROR_INVALID_ARGUMENT): L a
 *              multiple of 2048 and at least 8192 (K >= 4); d = k / 2^n with n <= 8 (0,
 *              1/256, ..., 1); any p in [0, 1], made from an uncorrelated mask of
 *              probability 1/4, 1/2, 3/4 or 1 (the smallest >= p) and a draw shared by a
 *              part's 64 sites (the seed's decorrelation). On CUDA a replica's L / 8 bytes
 *              must fit one block's shared memory (else OPSPLIT_ERROR_UNSUPPORTED:
 *              L <= 1859584 on an H100 or H200). MULTISPIN samples the process exactly
 *              only as K grows: a pair's attempts come as Binomial(K t, 1/K), not
 *              Poisson(t); at t ~ 1 sweep its densities lie measurably below EXACT's for
 *              K = 8 (docs/VALIDATION.md). Use L = 2^18 (K = 128, the seed's) or more.
 *   MULTISPIN32 MULTISPIN on 32-bit words, as the seed's GPU code: 32 sites a word, L/32
 *              apart; a step is 1024 moves; L a multiple of 1024 and at least 4096; d and
 *              p as MULTISPIN (the correlated draw shared by a part's 32 sites). Another
 *              trajectory than MULTISPIN's for a seed (the same on both backends). Slower
 *              on both backends (a move costs more Philox work and more of a step's
 *              fixed costs: docs/performance-history.md, 'PCPD ensembles'): MULTISPIN
 *              is the one to use; this one is kept to measure the word size and to
 *              check MULTISPIN against another layout.
 *
 * Random numbers are Philox4x32-10 keyed by the seed, counted by replica and move:
 * cuRAND's generator on the GPU, Random123's on the CPU, so a seed gives the same
 * trajectories, bit for bit, on both backends and with any number of threads.
 *
 * The series: at times 0 and 10^(k / points_per_decade) sweeps (each taken at the first
 * move, or MULTISPIN step, that reaches it; the time recorded is that move's), the mean
 * over replicas and its standard error (NaN with one replica) of the particle density
 * N / L, the pair density (occupied neighbour pairs / L) and the surviving fraction (the
 * replicas holding 2 or more particles: a state of 0 or 1 particle can never change). */
#ifndef OPSPLIT_PCPD_H
#define OPSPLIT_PCPD_H

#include "opsplit/core.h"
#include "opsplit/group.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsplit_pcpd_s* opsplit_pcpd;

typedef enum opsplit_pcpd_algorithm {
  OPSPLIT_PCPD_EXACT = 0,
  OPSPLIT_PCPD_MULTISPIN = 1,
  OPSPLIT_PCPD_MULTISPIN32 = 2
} opsplit_pcpd_algorithm;

typedef enum opsplit_pcpd_quantity {
  OPSPLIT_PCPD_DENSITY = 0,      /* particles / L */
  OPSPLIT_PCPD_PAIR_DENSITY = 1, /* occupied pairs (i, i+1) / L */
  OPSPLIT_PCPD_SURVIVING = 2     /* the fraction of replicas with >= 2 particles */
} opsplit_pcpd_quantity;

/* L sites (4 .. 2^40; MULTISPIN as above) and 1 .. 2^31 - 1 replicas, L x replicas <= 2^44
 * sites. Every replica fully occupied at time 0, seed 0, d = 0.25 and p = 0.125141 (the
 * seed's critical point for that d), 10 points a decade. */
OPSPLIT_API opsplit_status opsplit_pcpd_create(opsplit_context ctx, opsplit_pcpd_algorithm algorithm, int64_t L,
                                               int64_t replicas, opsplit_pcpd* pcpd);
OPSPLIT_API opsplit_status opsplit_pcpd_destroy(opsplit_pcpd* pcpd);

/* The annihilation probability p and the diffusion probability d (each in [0, 1];
 * MULTISPIN's d as above) for the moves from now on. */
OPSPLIT_API opsplit_status opsplit_pcpd_set_probabilities(opsplit_pcpd pcpd, double p, double d);
/* Time 0 again: every replica fully occupied (density 1) or each site occupied with
 * probability density (drawn from the seed), the series cleared and its first point
 * taken. The seed keys every random number from now on. */
OPSPLIT_API opsplit_status opsplit_pcpd_initialize(opsplit_pcpd pcpd, uint64_t seed, double density);
/* 1 .. 1000 points a decade for the series points still to come. */
OPSPLIT_API opsplit_status opsplit_pcpd_set_points_per_decade(opsplit_pcpd pcpd, int points);

/* Advances every replica to time t_end sweeps (EXACT: ceil(t_end L) moves; MULTISPIN:
 * the first step at or after it); a time already reached does nothing. Runs continue
 * where the last one stopped. With a progress callback the call reports after each
 * twentieth of the moves and at each series point; a cancelled call returns
 * OPSPLIT_ERROR_CANCELLED with every replica at the same, reported time. */
OPSPLIT_API opsplit_status opsplit_pcpd_run(opsplit_pcpd pcpd, double t_end);
/* The time reached, in sweeps. */
OPSPLIT_API opsplit_status opsplit_pcpd_get_time(opsplit_pcpd pcpd, double* time);

/* The number of series points so far (>= 1: time 0). */
OPSPLIT_API opsplit_status opsplit_pcpd_get_series_length(opsplit_pcpd pcpd, int64_t* length);
/* The series of a quantity: `length` points (<= the series' length) of its times, means
 * and standard errors; any of the three arrays may be NULL. */
OPSPLIT_API opsplit_status opsplit_pcpd_get_series(opsplit_pcpd pcpd, opsplit_pcpd_quantity quantity, int64_t length,
                                                   double* times, double* mean, double* standard_error);

/* One replica's L sites in lattice order (0 empty, 1 occupied; on input any nonzero
 * value is occupied). Setting them does not change the time; at time 0 it takes the
 * series' first point again (a start of the caller's), later the series is kept. */
OPSPLIT_API opsplit_status opsplit_pcpd_get_lattice(opsplit_pcpd pcpd, int64_t replica, uint8_t* sites);
OPSPLIT_API opsplit_status opsplit_pcpd_set_lattice(opsplit_pcpd pcpd, int64_t replica, const uint8_t* sites);
/* The same from and to the host's device memory (L bytes on the context's GPU; a CUDA
 * context only), with the checks, the stream order and the errors of the other _device
 * forms (opsplit_field_upload_device; docs/API.md, "Hosts on the GPU"). A set at time 0
 * takes the series' first point, as set_lattice does, and so finishes before it returns. */
OPSPLIT_API opsplit_status opsplit_pcpd_get_lattice_device(opsplit_pcpd pcpd, int64_t replica, uint8_t* sites);
OPSPLIT_API opsplit_status opsplit_pcpd_set_lattice_device(opsplit_pcpd pcpd, int64_t replica, const uint8_t* sites);

/* The replicas this process holds: all of them (first 0), or its share of a distributed
 * ensemble (opsplit/mpi.h), whose get_lattice and set_lattice take these indices. */
OPSPLIT_API opsplit_status opsplit_pcpd_get_replicas(opsplit_pcpd pcpd, int64_t* first, int64_t* count);

/* Over a group of processes (opsplit/group.h; hosts call opsplit/mpi.h instead). */
/* A PCPD ensemble of `replicas` replicas spread over the group: rank k holds replicas
 * [k R / size, (k + 1) R / size), each keyed by its global index, so the group's run is
 * the single process's, bit for bit (opsplit/mpi.h describes the collective calls). On
 * success the ensemble owns the group (its release runs at destroy); on failure, on
 * every process alike, the caller keeps it. Collective. */
OPSPLIT_API opsplit_status opsplit_pcpd_create_distributed(opsplit_context ctx, opsplit_pcpd_algorithm algorithm,
                                                           int64_t L, int64_t replicas, const opsplit_group* group,
                                                           opsplit_pcpd* pcpd);

#ifdef __cplusplus
}
#endif

#endif
