// A PCPD ensemble: `replicas` independent lattices of L sites on the context's backend,
// advanced by EXACT moves (a byte a site) or MULTISPIN steps (64 sites a word, or 32 for
// MULTISPIN32; the numerics in kernels/pcpd/pcpd.cuh), with the series of densities taken at log-spaced
// times.
#pragma once

#include <cstdint>
#include <vector>

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/group.hpp"
#include "core/handle.hpp"
#include "opsplit/pcpd.h"
#include "pcpd/launch.hpp"
#include "pcpd/pcpd.cuh"

struct opsplit_pcpd_s : opsplit::Handle<opsplit::HandleKind::pcpd>, opsplit::ContextMember {
  // `replicas` in all; a distributed group's process holds its share of them (see
  // opsplit/group.h), and the series' first point waits for start_series().
  opsplit_pcpd_s(opsplit::Context& ctx, int algorithm, int64_t L, int64_t replicas, opsplit::Group group = {});
  void adopt_group() { group_.adopt(); }
  void start_series();  // the series' first point (collective)
  int64_t first_replica() const { return static_cast<int64_t>(first_); }
  int64_t local_replicas() const { return static_cast<int64_t>(replicas_); }

  void set_probabilities(double p, double d);
  void initialize(uint64_t seed, double density);
  void set_points_per_decade(int points);
  void run(double t_end);
  double time() const { return time_of(done_); }
  int64_t series_length() const {
    check_series();
    return static_cast<int64_t>(series_.size());
  }
  void get_series(int quantity, int64_t length, double* times, double* mean, double* standard_error) const;
  void get_lattice(int64_t replica, uint8_t* sites) const;
  void set_lattice(int64_t replica, const uint8_t* sites);
  // The same from and to a host's device array (checked here).
  void get_lattice_device(int64_t replica, uint8_t* sites) const;
  void set_lattice_device(int64_t replica, const uint8_t* sites);

 private:
  struct Point {
    double time;
    double mean[3], error[3];  // density, pair density, surviving fraction
  };
  bool multispin() const { return algorithm_ != OPSPLIT_PCPD_EXACT; }
  int word_bits() const;  // 0 (EXACT), 32 or 64: the stored form (Launchers::store_sites)
  void lattice_set();     // after a lattice is set: the series' start at time 0
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
  // A call every process makes alike: `validate` (no changes) and then `act`, each
  // settled over the group (Group::settle), `same` the arguments that must agree.
  template <class Validate, class Act>
  void collective(const char* call, const std::vector<int64_t>& same, const char* names, Validate&& validate,
                  Act&& act) {
    group_.settle(opsplit::attempt(validate), call, same, names);
    group_.settle(opsplit::attempt(act), call);
  }
  std::vector<int64_t> share_counts(int64_t per_replica) const;  // each process's replicas x per_replica
  void take_point();  // collective
  void count(int64_t* counts) const;  // this process's particles and pairs a replica
  void check_series() const;           // the series is not waiting for its first point
  std::vector<uint8_t> stage(uint64_t seed, double density) const;  // the stored lattices at time 0
  std::pair<opsplit::pcpd::ExactRates, opsplit::pcpd::MultispinRates> rates_for(double p, double d) const;
  uint64_t check_replica(int64_t replica, const void* sites) const;  // the local index
  uint64_t replica_bytes() const;  // a replica's stored bytes
  void to_stored(const uint8_t* sites, uint8_t* stored) const;
  void from_stored(const uint8_t* stored, uint8_t* sites) const;

  int algorithm_;
  opsplit::Group group_;
  const opsplit::pcpd::Launchers& run_;  // the context's backend
  uint64_t first_ = 0, total_ = 0;  // this process's first replica, and all replicas
  bool start_pending_ = false;      // distributed: lattices set at time 0, the first point to retake
  uint64_t L_, replicas_, words_ = 0;  // replicas_: this process's  // words_: MULTISPIN's words a replica (of 64 or 32 bits)
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
