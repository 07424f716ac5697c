// A PCPD ensemble: `replicas` independent lattices of L sites on the context's backend,
// advanced by EXACT moves (a byte a site) or MULTISPIN steps (64 sites a word, or 32 for
// MULTISPIN32; the numerics in kernels/pcpd/pcpd.cuh), with the series of densities taken at log-spaced
// times.
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/handle.hpp"
#include "opsplit/pcpd.h"
#include "pcpd/pcpd.cuh"

struct opsplit_pcpd_s : opsplit::Handle<opsplit::HandleKind::pcpd>, opsplit::ContextMember {
  opsplit_pcpd_s(opsplit::Context& ctx, int algorithm, int64_t L, int64_t replicas);

  void set_probabilities(double p, double d);
  void initialize(uint64_t seed, double density);
  void set_points_per_decade(int points);
  void run(double t_end);
  double time() const { return time_of(done_); }
  int64_t series_length() const { return static_cast<int64_t>(series_.size()); }
  void get_series(int quantity, int64_t length, double* times, double* mean, double* standard_error) const;
  void get_lattice(int64_t replica, uint8_t* sites) const;
  void set_lattice(int64_t replica, const uint8_t* sites);

 private:
  struct Point {
    double time;
    double mean[3], error[3];  // density, pair density, surviving fraction
  };
  bool multispin() const { return algorithm_ != OPSPLIT_PCPD_EXACT; }
  // f(Word{}) with the MULTISPIN word type: uint32_t for MULTISPIN32, else uint64_t.
  template <class F>
  decltype(auto) with_word(F&& f) const {
    if (algorithm_ == OPSPLIT_PCPD_MULTISPIN32) return f(uint32_t{});
    return f(uint64_t{});
  }
  double moves_per_unit() const;  // 1 (EXACT) or a MULTISPIN step's moves
  // Units are moves (EXACT) or steps (MULTISPIN) since time 0.
  double time_of(uint64_t units) const;
  uint64_t units_at(double t) const;  // the first unit count whose time is >= t
  uint64_t next_point_after(uint64_t units) const;
  void advance(uint64_t from, uint64_t to);
  void take_point();
  void retake_start();  // at time 0: the series' first point again (the lattices were set)
  void check_replica(int64_t replica, const void* sites) const;
  uint64_t replica_bytes() const;  // a replica's stored bytes
  void to_stored(const uint8_t* sites, uint8_t* stored) const;
  void from_stored(const uint8_t* stored, uint8_t* sites) const;
  void store(uint64_t offset, const void* host, uint64_t bytes);
  void load(uint64_t offset, void* host, uint64_t bytes) const;

  int algorithm_;
  uint64_t L_, replicas_, words_ = 0;  // words_: MULTISPIN's words a replica (of 64 or 32 bits)
  double p_ = 0.125141, d_ = 0.25;  // the seed's critical point for d = 0.25
  opsplit::pcpd::ExactRates exact_{};
  opsplit::pcpd::MultispinRates multispin_{};
  uint64_t seed_ = 0;
  int points_per_decade_ = 10;
  uint64_t done_ = 0, next_point_ = 0;
  std::vector<Point> series_;
  opsplit::Buffer lattice_;  // EXACT: L bytes a replica; MULTISPIN: W words a replica
  opsplit::Buffer device_counts_;  // CUDA: 2 x replicas counts
};
