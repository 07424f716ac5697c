#include "core/device_array.hpp"
#include "pcpd/pcpd.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/progress.hpp"
#include "pcpd/launch.hpp"

using namespace opsplit;
using namespace opsplit::pcpd;

Philox4 opsplit::pcpd::philox_host(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1) {
  return philox(c0, c1, c2, c3, k0, k1);
}

namespace {

constexpr int64_t kMaxSites = int64_t(1) << 40, kMaxReplicas = (int64_t(1) << 31) - 1, kMaxTotal = int64_t(1) << 44;
constexpr uint64_t kMaxUnits = uint64_t(1) << 62;
constexpr int64_t kMaxExactSites = int64_t(1) << 32;

// round(x 2^32) for x in [0, 1]: the threshold a uniform 32-bit draw is compared with.
uint64_t threshold(double x) { return static_cast<uint64_t>(std::llround(std::ldexp(x, 32))); }

void check_probability(double x, const char* name) {
  if (!(x >= 0.0 && x <= 1.0)) fail_argument(std::string(name) + "=" + num(x) + " is not in [0, 1]");
}

// The sites of a replica packed into MULTISPIN words (pcpd.cuh), and back.
template <class Word>
void pack(const uint8_t* sites, uint64_t W, Word* words) {
  for (uint64_t w = 0; w < W; ++w) words[w] = pcpd::packed_sites<Word>(sites, W, w);
}
template <class Word>
void unpack(const Word* words, uint64_t W, uint8_t* sites) {
  for (uint64_t w = 0; w < W; ++w) pcpd::unpacked_sites(words[w], W, w, sites);
}

// MULTISPIN steps [from, to) of one replica's W words: each step's Philox calls for the
// 32 parts at once (a loop over the parts that the compiler vectorizes: the parts'
// counters differ in one word), then the parts' updates in order (on disjoint words:
// any order gives the same bits).
template <class Word>
[[gnu::always_inline]] inline void multispin_replica_steps(Word* words, uint64_t W, const MultispinRates& rates,
                                                           const Stream& stream, uint64_t from, uint64_t to) {
  const uint64_t K = W / kParts;
  const int calls = calls_per_part(draws_per_part<Word>(rates));
  auto at = [words](uint64_t w) -> Word& { return words[w]; };
  uint32_t u[4 * kMaxCallsPerPart][kParts];  // the parts' draws, part fastest
  Philox4 local{};
  for (uint64_t s = from; s < to; ++s) {
    if (s == from || (s & 3u) == 0) local = local_words_draw(stream, s);
    const uint64_t l = local_word_of(local, s, K);
    for (int call = 0; call < calls; ++call)
      for (int p = 0; p < kParts; ++p) {
        const Philox4 x = part_call(stream, s, p, call);
        for (int j = 0; j < 4; ++j) u[4 * call + j][p] = x.v[j];
      }
    // step_masks_of's pieces, each over all parts.
    Word diffuse[kParts], annihilate[kParts], high[kParts];
    for (int p = 0; p < kParts; ++p) {
      auto mine = [&u, p](int j) { return u[j][p]; };
      high[p] = draw_word<Word>(mine, 0);
      annihilate[p] = annihilation_mask(u[0][p], draw_word<Word>(mine, 1), draw_word<Word>(mine, 2), rates);
      diffuse[p] = diffusion_start<Word>(rates);
    }
    for (int j = 0; j < rates.diffusion_words; ++j)
      for (int p = 0; p < kParts; ++p)
        diffuse[p] = diffusion_bit(diffuse[p], draw_word<Word>([&u, p](int i) { return u[i][p]; }, 3 + j), rates, j);
    // multispin_part_step's pieces, each over all parts: the updates vectorize.
    Word left[kParts], a[kParts], b[kParts], right[kParts];
    for (int p = 0; p < kParts; ++p) PartWords(W, K, l, p).load(at, left[p], a[p], b[p], right[p]);
    for (int p = 0; p < kParts; ++p)
      multispin_update(left[p], a[p], b[p], right[p], StepMasks<Word>{diffuse[p], annihilate[p], high[p]});
    for (int p = 0; p < kParts; ++p) PartWords(W, K, l, p).store(at, left[p], a[p], b[p], right[p]);
  }
}

// The steps compiled for three x86-64 levels, like the field's row loops
// (src/field/field_cpu.hpp); integer operations: the same bits on each. (Clones of a
// template are not supported: one clone set a word size.)
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11 && defined(__x86_64__) && defined(__ELF__) && \
    !defined(OPSPLIT_NO_ROW_CLONES)
#define OPSPLIT_PCPD_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default"), noinline))
#else
#define OPSPLIT_PCPD_CLONES
#endif
OPSPLIT_PCPD_CLONES void replica_steps(uint64_t* words, uint64_t W, const MultispinRates& rates, const Stream& stream,
                                       uint64_t from, uint64_t to) {
  multispin_replica_steps(words, W, rates, stream, from, to);
}
OPSPLIT_PCPD_CLONES void replica_steps(uint32_t* words, uint64_t W, const MultispinRates& rates, const Stream& stream,
                                       uint64_t from, uint64_t to) {
  multispin_replica_steps(words, W, rates, stream, from, to);
}


// The CPU's launchers: a replica a thread (OpenMP), each from its own stream.
void exact_moves_cpu(Context& ctx, uint8_t* sites, uint64_t L, uint64_t replicas, uint64_t first,
                     const ExactRates& rates, uint64_t seed, uint64_t from, uint64_t to) {
  const auto n = static_cast<int64_t>(replicas);
#pragma omp parallel for num_threads(ctx.threads()) schedule(dynamic, 1)
  for (int64_t r = 0; r < n; ++r) {
    const Stream stream = make_stream(seed, static_cast<uint32_t>(first + static_cast<uint64_t>(r)));
    uint8_t* q = sites + static_cast<uint64_t>(r) * L;
    for (uint64_t m = from; m < to; ++m) exact_move(q, L, rates, stream, m);
  }
}

template <class Word>
void multispin_steps_cpu(Context& ctx, Word* words, uint64_t W, uint64_t replicas, uint64_t first,
                         const MultispinRates& rates, uint64_t seed, uint64_t from, uint64_t to) {
  const auto n = static_cast<int64_t>(replicas);
#pragma omp parallel for num_threads(ctx.threads()) schedule(dynamic, 1)
  for (int64_t r = 0; r < n; ++r)
    replica_steps(words + static_cast<uint64_t>(r) * W, W, rates,
                  make_stream(seed, static_cast<uint32_t>(first + static_cast<uint64_t>(r))), from, to);
}

void exact_counts_cpu(Context& ctx, const uint8_t* sites, uint64_t L, uint64_t replicas, int64_t*, int64_t* counts) {
  const auto n = static_cast<int64_t>(replicas);
#pragma omp parallel for num_threads(ctx.threads()) schedule(static)
  for (int64_t r = 0; r < n; ++r) {
    const Counts c = exact_counts(sites + static_cast<uint64_t>(r) * L, L, 0, 1);
    counts[2 * r] = c.particles, counts[2 * r + 1] = c.pairs;
  }
}

template <class Word>
void multispin_counts_cpu(Context& ctx, const Word* words, uint64_t W, uint64_t replicas, int64_t*,
                          int64_t* counts) {
  const auto n = static_cast<int64_t>(replicas);
#pragma omp parallel for num_threads(ctx.threads()) schedule(static)
  for (int64_t r = 0; r < n; ++r) {
    const Word* replica = words + static_cast<uint64_t>(r) * W;
    const Counts c = multispin_counts_range<Word>([replica](uint64_t w) { return replica[w]; }, W, 0, W);
    counts[2 * r] = c.particles, counts[2 * r + 1] = c.pairs;
  }
}

bool multispin_fits_cpu(Context&, uint64_t) { return true; }

}  // namespace

namespace {
void store_sites_cpu(Context&, const uint8_t* sites, uint64_t L, int word_bits, uint8_t* stored) {
  if (word_bits == 64) return pack(sites, L / 64, reinterpret_cast<uint64_t*>(stored));
  if (word_bits == 32) return pack(sites, L / 32, reinterpret_cast<uint32_t*>(stored));
  for (uint64_t i = 0; i < L; ++i) stored[i] = sites[i] != 0;
}
void load_sites_cpu(Context&, const uint8_t* stored, uint64_t L, int word_bits, uint8_t* sites) {
  if (word_bits == 64) return unpack(reinterpret_cast<const uint64_t*>(stored), L / 64, sites);
  if (word_bits == 32) return unpack(reinterpret_cast<const uint32_t*>(stored), L / 32, sites);
  std::memcpy(sites, stored, L);
}
}  // namespace

const Launchers& opsplit::pcpd::cpu_launchers() {
  static const Launchers table{exact_moves_cpu,
                               exact_counts_cpu,
                               {multispin_steps_cpu<uint64_t>, multispin_counts_cpu<uint64_t>},
                               {multispin_steps_cpu<uint32_t>, multispin_counts_cpu<uint32_t>},
                               multispin_fits_cpu,
                               store_sites_cpu,
                               load_sites_cpu};
  return table;
}

opsplit_pcpd_s::opsplit_pcpd_s(Context& ctx, int algorithm, int64_t L, int64_t replicas, Group group)
    : ContextMember(ctx), algorithm_(algorithm), group_(std::move(group)), run_(launchers(ctx)) {
  if (algorithm != OPSPLIT_PCPD_EXACT && algorithm != OPSPLIT_PCPD_MULTISPIN && algorithm != OPSPLIT_PCPD_MULTISPIN32)
    fail_argument("algorithm=" + num(algorithm) +
                  " is not OPSPLIT_PCPD_EXACT (0), OPSPLIT_PCPD_MULTISPIN (1) or OPSPLIT_PCPD_MULTISPIN32 (2)");
  if (L < 4 || L > kMaxSites) fail_argument("L=" + num(static_cast<long long>(L)) + " is not in 4 .. 2^40");
  if (replicas < 1 || replicas > kMaxReplicas)
    fail_argument("replicas=" + num(static_cast<long long>(replicas)) + " is not in 1 .. 2^31 - 1");
  if (L > kMaxTotal / replicas)
    fail_argument("L x replicas = " + num(static_cast<long long>(L)) + " x " + num(static_cast<long long>(replicas)) +
                  " is more than 2^44 sites");
  if (replicas < group_.size())
    fail_argument("replicas=" + num(static_cast<long long>(replicas)) + " is fewer than the group's " +
                  num(group_.size()) + " processes (each holds at least one)");
  if (algorithm == OPSPLIT_PCPD_EXACT && L > kMaxExactSites)
    fail_argument("L=" + num(static_cast<long long>(L)) + ": EXACT picks a move's site from one 32-bit draw: L <= 2^32");
  if (multispin()) {
    const int bits = with_word([](auto word) { return kWordBits<decltype(word)>; });
    const int64_t step = int64_t(kParts) * bits, min_L = int64_t(kMinPartWords) * step;
    const std::string name = bits == 64 ? "MULTISPIN" : "MULTISPIN32";
    if (L % step != 0 || L < min_L)
      fail_argument("L=" + num(static_cast<long long>(L)) + ": " + name + " needs L a multiple of " + num(step) +
                    " (32 parts of " + num(bits) + "-bit words) and at least " + num(static_cast<long long>(min_L)) +
                    " (4 words a part)");
    words_ = static_cast<uint64_t>(L) / static_cast<uint64_t>(bits);
    if (!run_.multispin_fits(ctx, static_cast<uint64_t>(L) / 8))
      fail(OPSPLIT_ERROR_UNSUPPORTED, "L=" + num(static_cast<long long>(L)) + ": a " + name + " replica's " +
                                          num(static_cast<long long>(L / 8)) +
                                          " bytes do not fit one block's shared memory on this device "
                                          "(L <= 1859584 on an H100 or H200)");
  }
  // This process's share: replicas [k R / n, (k + 1) R / n) of R for process k of n.
  L_ = static_cast<uint64_t>(L), total_ = static_cast<uint64_t>(replicas);
  const auto k = static_cast<uint64_t>(group_.rank()), n = static_cast<uint64_t>(group_.size());
  first_ = k * total_ / n, replicas_ = (k + 1) * total_ / n - first_;
  lattice_ = Buffer(ctx, replica_bytes() * replicas_);
  if (ctx.is_cuda()) device_counts_ = Buffer(ctx, 2 * replicas_ * sizeof(int64_t));
  std::tie(exact_, multispin_) = rates_for(p_, d_);
  lattice_.copy_in(stage(0, 1.0).data(), replica_bytes() * replicas_);
  if (!group_.distributed()) start_series();  // a group's processes take it together
}

std::vector<int64_t> opsplit_pcpd_s::share_counts(int64_t per_replica) const {
  std::vector<int64_t> counts;
  const auto n = static_cast<uint64_t>(group_.size());
  for (uint64_t k = 0; k < n; ++k)
    counts.push_back(static_cast<int64_t>((k + 1) * total_ / n - k * total_ / n) * per_replica);
  return counts;
}

void opsplit_pcpd_s::set_probabilities(double p, double d) {
  std::pair<ExactRates, MultispinRates> rates;
  collective(
      "opsplit_pcpd_set_probabilities", {bits_of(p), bits_of(d)}, "p and d", [&] { rates = rates_for(p, d); },
      [&] { p_ = p, d_ = d, std::tie(exact_, multispin_) = rates; });
}

std::pair<ExactRates, MultispinRates> opsplit_pcpd_s::rates_for(double p, double d) const {
  check_probability(p, "p");
  check_probability(d, "d");
  MultispinRates m{};
  if (multispin()) {
    const double k = std::ldexp(d, kMaxDiffusionWords);
    if (k != std::floor(k))
      fail_argument("d=" + num(d) + ": MULTISPIN takes d = k / 2^n with n <= " + num(kMaxDiffusionWords) +
                    " (built from n random words), e.g. 0.25, 0.5, 0.75");
    auto bits = static_cast<uint32_t>(k);
    int words = kMaxDiffusionWords;
    while (words > 0 && bits % 2 == 0) bits /= 2, --words;
    m.diffusion_bits = bits, m.diffusion_words = words;
    m.annihilation_quarters = 1;
    while (p > 0.25 * m.annihilation_quarters) ++m.annihilation_quarters;
    m.correlated = threshold(p / (0.25 * m.annihilation_quarters));
  }
  return {ExactRates{threshold(d), threshold(p)}, m};
}

void opsplit_pcpd_s::set_points_per_decade(int points) {
  collective(
      "opsplit_pcpd_set_points_per_decade", {points}, "points",
      [&] {
        if (points < 1 || points > 1000) fail_argument("points=" + num(points) + " is not in 1 .. 1000");
      },
      [&] {
        points_per_decade_ = points;
        next_point_ = next_point_after(done_);
      });
}

double opsplit_pcpd_s::moves_per_unit() const {
  return multispin() ? with_word([](auto word) { return double(kMovesPerStep<decltype(word)>); }) : 1.0;
}

double opsplit_pcpd_s::time_of(uint64_t units) const {
  return static_cast<double>(units) * moves_per_unit() / static_cast<double>(L_);
}

uint64_t opsplit_pcpd_s::units_at(double t) const {
  const double per_unit = moves_per_unit();
  auto u = static_cast<uint64_t>(std::ceil(t * static_cast<double>(L_) / per_unit));
  while (time_of(u) < t) ++u;  // the rounding of t L, either way
  while (u > 0 && time_of(u - 1) >= t) --u;
  return u;
}

uint64_t opsplit_pcpd_s::next_point_after(uint64_t units) const {
  const double ppd = points_per_decade_;
  // The points are at 10^(k / ppd), k >= 0; start a little below the time reached.
  double k = units == 0 ? 0.0 : std::max(0.0, std::floor(ppd * std::log10(time_of(units))) - 1.0);
  for (;; k += 1.0) {
    const double t = std::pow(10.0, k / ppd);
    if (t * static_cast<double>(L_) >= static_cast<double>(kMaxUnits)) return std::numeric_limits<uint64_t>::max();
    const uint64_t u = units_at(t);
    if (u > units) return u;
  }
}

void opsplit_pcpd_s::initialize(uint64_t seed, double density) {
  // Every replica's lattice in the backend's form first (nothing changes if that fails).
  std::vector<uint8_t> staged;
  collective(
      "opsplit_pcpd_initialize", {static_cast<int64_t>(seed), bits_of(density)}, "seed and density",
      [&] {
        check_probability(density, "density");
        staged = stage(seed, density);
      },
      [&] { lattice_.copy_in(staged.data(), staged.size()); });
  seed_ = seed;  // every process stored its lattices
  done_ = 0;
  start_series();
}

// This process's replicas at time 0 in the stored form: each site from its replica's
// initial stream, 4 sites a draw; density 1: all occupied.
std::vector<uint8_t> opsplit_pcpd_s::stage(uint64_t seed, double density) const {
  const uint64_t t = threshold(density);
  const uint64_t per_replica = replica_bytes();
  std::vector<uint8_t> staged(per_replica * replicas_);
  const auto n = static_cast<int64_t>(replicas_);
#pragma omp parallel for num_threads(context().threads()) schedule(dynamic, 1)
  for (int64_t r = 0; r < n; ++r) {
    std::vector<uint8_t> sites(L_, 1);
    if (density < 1.0) {
      const Stream stream = make_stream(seed, static_cast<uint32_t>(first_ + static_cast<uint64_t>(r)));
      for (uint64_t j = 0; 4 * j < L_; ++j) {
        const Philox4 u = stream.draw(kStreamInitial, j);
        for (uint64_t i = 4 * j, e = 0; e < 4 && i < L_; ++i, ++e) sites[i] = below(u.v[e], t) ? 1 : 0;
      }
    }
    to_stored(sites.data(), staged.data() + static_cast<uint64_t>(r) * per_replica);
  }
  return staged;
}

void opsplit_pcpd_s::start_series() {
  series_.clear();
  start_pending_ = true;  // until the point is taken
  take_point();
  start_pending_ = false;
  next_point_ = next_point_after(done_);
}

void opsplit_pcpd_s::check_series() const {
  if (start_pending_)
    fail_argument(
        "a lattice was set at time 0 on a distributed ensemble: the series' first point is taken again by the "
        "next opsplit_pcpd_run (collective; opsplit_pcpd_run(pcpd, 0) does only that)");
}

uint64_t opsplit_pcpd_s::check_replica(int64_t replica, const void* sites) const {
  if (replica < 0 || static_cast<uint64_t>(replica) >= total_)
    fail_argument("replica=" + num(static_cast<long long>(replica)) + " is not in 0 .. " +
                  num(static_cast<long long>(total_ - 1)));
  const auto r = static_cast<uint64_t>(replica);
  if (r < first_ || r >= first_ + replicas_)
    fail_argument("replica=" + num(static_cast<long long>(replica)) + " is another process's (this one holds " +
                  num(static_cast<long long>(first_)) + " .. " + num(static_cast<long long>(first_ + replicas_ - 1)) +
                  ")");
  if (sites == nullptr) fail_argument("sites is NULL");
  return r - first_;
}

uint64_t opsplit_pcpd_s::replica_bytes() const { return multispin() ? L_ / 8 : L_; }

// A replica's sites (bytes, any nonzero occupied) in the stored form: 0/1 bytes (EXACT)
// or MULTISPIN's words; and back. On the host: the CPU's launchers.
void opsplit_pcpd_s::to_stored(const uint8_t* sites, uint8_t* stored) const {
  store_sites_cpu(context(), sites, L_, word_bits(), stored);
}
void opsplit_pcpd_s::from_stored(const uint8_t* stored, uint8_t* sites) const {
  load_sites_cpu(context(), stored, L_, word_bits(), sites);
}

void opsplit_pcpd_s::get_lattice(int64_t replica, uint8_t* sites) const {
  const uint64_t r = check_replica(replica, sites);
  check_host_array(context(), sites, "sites");
  std::vector<uint8_t> stored(replica_bytes());
  lattice_.copy_out(stored.data(), stored.size(), r * stored.size());
  from_stored(stored.data(), sites);
}

void opsplit_pcpd_s::set_lattice(int64_t replica, const uint8_t* sites) {
  const uint64_t r = check_replica(replica, sites);
  check_host_array(context(), sites, "sites");
  std::vector<uint8_t> stored(replica_bytes());
  to_stored(sites, stored.data());
  lattice_.copy_in(stored.data(), stored.size(), r * stored.size());
  lattice_set();
}

int opsplit_pcpd_s::word_bits() const {
  return multispin() ? with_word([](auto word) { return static_cast<int>(8 * sizeof(word)); }) : 0;
}

void opsplit_pcpd_s::get_lattice_device(int64_t replica, uint8_t* sites) const {
  require_cuda_context(context(), "opsplit_pcpd_get_lattice");
  const uint64_t r = check_replica(replica, sites);
  check_device_array(context(), sites, L_, 1, "sites", "opsplit_pcpd_get_lattice");
  run_.load_sites(context(), lattice_.as<const uint8_t>() + r * replica_bytes(), L_, word_bits(), sites);
}

void opsplit_pcpd_s::set_lattice_device(int64_t replica, const uint8_t* sites) {
  require_cuda_context(context(), "opsplit_pcpd_set_lattice");
  const uint64_t r = check_replica(replica, sites);
  check_device_array(context(), sites, L_, 1, "sites", "opsplit_pcpd_set_lattice");
  run_.store_sites(context(), sites, L_, word_bits(), lattice_.as<uint8_t>() + r * replica_bytes());
  lattice_set();
}

void opsplit_pcpd_s::lattice_set() {
  if (done_ != 0) return;
  // At time 0 the series starts from the lattices set: now, or (a group's collective
  // point) at the next run.
  if (group_.distributed())
    start_pending_ = true;
  else
    start_series();
}

void opsplit_pcpd_s::advance(uint64_t from, uint64_t to) {
  Context& ctx = context();
  if (!multispin()) return run_.exact_moves(ctx, lattice_.as<uint8_t>(), L_, replicas_, first_, exact_, seed_, from, to);
  with_word([&](auto word) {
    using Word = decltype(word);
    run_.multispin<Word>().steps(ctx, lattice_.as<Word>(), words_, replicas_, first_, multispin_, seed_, from, to);
  });
}

void opsplit_pcpd_s::take_point() {
  std::vector<int64_t> mine(2 * replicas_);  // this process's particles and pairs a replica
  group_.settle(attempt([&] { count(mine.data()); }), "opsplit_pcpd (a series point)");
  std::vector<int64_t> counts(2 * total_);
  group_.allgather(mine.data(), share_counts(2), counts.data());
  // Means and standard errors over all replicas, two passes in replica order (the same
  // sums on any number of processes).
  Point point{time_of(done_), {}, {}};
  const double R = static_cast<double>(total_), L = static_cast<double>(L_);
  auto value = [&](int q, uint64_t r) {
    const int64_t particles = counts[2 * r];
    return q == 2 ? (particles >= 2 ? 1.0 : 0.0) : static_cast<double>(counts[2 * r + q]) / L;
  };
  for (int q = 0; q < 3; ++q) {
    double sum = 0.0;
    for (uint64_t r = 0; r < total_; ++r) sum += value(q, r);
    const double mean = sum / R;
    double squares = 0.0;
    for (uint64_t r = 0; r < total_; ++r) squares += (value(q, r) - mean) * (value(q, r) - mean);
    point.mean[q] = mean;
    point.error[q] = total_ > 1 ? std::sqrt(squares / (R - 1.0) / R) : std::numeric_limits<double>::quiet_NaN();
  }
  series_.push_back(point);
}

void opsplit_pcpd_s::count(int64_t* counts) const {
  Context& ctx = context();
  int64_t* device_counts = device_counts_.as<int64_t>();
  if (!multispin()) return run_.exact_counts(ctx, lattice_.as<uint8_t>(), L_, replicas_, device_counts, counts);
  with_word([&](auto word) {
    using Word = decltype(word);
    run_.multispin<Word>().counts(ctx, lattice_.as<Word>(), words_, replicas_, device_counts, counts);
  });
}

void opsplit_pcpd_s::run(double t_end) {
  constexpr const char* kCall = "opsplit_pcpd_run";
  group_.settle(attempt([&] {
                  if (!std::isfinite(t_end) || t_end < 0.0)
                    fail_argument("t_end=" + num(t_end) + " is not a finite time >= 0");
                  if (t_end * static_cast<double>(L_) >= static_cast<double>(kMaxUnits))
                    fail_argument("t_end=" + num(t_end) + " x L=" + num(static_cast<long long>(L_)) +
                                  " is 2^62 moves or more");
                }),
                kCall, {bits_of(t_end)}, "t_end");
  Context& ctx = context();
  // A group's processes take the same pieces and points: a lattice set at time 0 on any
  // of them retakes the first point everywhere, and a progress callback on any of them
  // makes every process report (and cancel) at the same moves.
  int64_t start_pending = start_pending_ ? 1 : 0;
  group_.allmax(&start_pending, 1);
  if (start_pending != 0) start_series();
  const Progress progress(ctx, &group_, kCall);
  const uint64_t target = units_at(t_end), start = done_;
  if (target <= start) return;
  // Fewer than 2^62 units (checked above): counts from start fit an int64_t. A chunk
  // ends early at a series' point (a report there too).
  auto work = [&](int64_t, int64_t end) {
    const uint64_t next = std::min(start + static_cast<uint64_t>(end), next_point_);
    group_.settle(attempt([&] { advance(done_, next); }), kCall);
    done_ = next;
    if (done_ == next_point_) {
      take_point();
      next_point_ = next_point_after(done_);
    }
    return static_cast<int64_t>(done_ - start);
  };
  progress.run(
      static_cast<int64_t>(target - start), 20, work,
      [&](int64_t) { group_.settle(attempt([&] { ctx.synchronize(); }), kCall); },
      [&](int64_t) { return "at time " + num(time()) + " of " + num(time_of(target)) + " sweeps (every replica there)"; });
  ctx.synchronize();
}

void opsplit_pcpd_s::get_series(int quantity, int64_t length, double* times, double* mean,
                                double* standard_error) const {
  check_series();
  if (quantity < 0 || quantity > 2)
    fail_argument("quantity=" + num(quantity) +
                  " is not OPSPLIT_PCPD_DENSITY (0), OPSPLIT_PCPD_PAIR_DENSITY (1) or OPSPLIT_PCPD_SURVIVING (2)");
  if (length < 0 || length > series_length())
    fail_argument("length=" + num(static_cast<long long>(length)) + " is not in 0 .. " +
                  num(static_cast<long long>(series_length())) + " (the series' points)");
  for (int64_t i = 0; i < length; ++i) {
    const Point& pt = series_[static_cast<size_t>(i)];
    if (times) times[i] = pt.time;
    if (mean) mean[i] = pt.mean[quantity];
    if (standard_error) standard_error[i] = pt.error[quantity];
  }
}
