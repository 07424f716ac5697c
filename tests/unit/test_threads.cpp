// Two contexts used from two threads at once (issue 39): each thread's objects compute,
// bit for bit, what they compute when that thread runs alone, and each thread's last
// error message is its own (thread-local) while the other thread fails and succeeds
// meanwhile. The objects of both threads live in the one process-wide handle registry,
// which a third loop of creations and destructions keeps busy.
//
// scripts/test runs it under ThreadSanitizer (build-tsan: Clang, libomp with its Archer
// tool, so that the OpenMP runtime's own synchronisation is seen), two OpenMP threads
// per context.
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "helpers.hpp"

namespace {

// The two threads meet here: each makes its bad call, both wait, each reads its message.
class Meeting {
 public:
  explicit Meeting(int parties) : parties_(parties) {}
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const int round = round_;
    if (++arrived_ == parties_) {
      arrived_ = 0;
      ++round_;
      all_.notify_all();
    } else {
      all_.wait(lock, [&] { return round_ != round; });
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable all_;
  int parties_, arrived_ = 0, round_ = 0;
};

struct Outcome {
  std::vector<double> field, state, rates, thickness, density;
  std::vector<uint8_t> cells;
  std::vector<std::string> messages;  // the last error message after each meeting
  int failures = 0;                   // calls that did not return what they should
};

// Records a call that should succeed.
#define RUN(call)                                                                     \
  do {                                                                                \
    if ((call) != OPSPLIT_SUCCESS) {                                                  \
      ++out.failures;                                                                 \
      out.messages.push_back(std::string(#call) + ": " + opsplit_last_error_message()); \
    }                                                                                 \
  } while (0)

// One thread's work; `which` (0 or 1) makes its inputs differ from the other's, and its
// bad calls name a value of its own. With a meeting, the two threads' bad calls
// interleave with each other's good calls.
Outcome work(int which, Meeting* meeting) {
  Outcome out;
  auto meet_and_read = [&](const std::string& expected) {
    if (meeting) meeting->wait();  // the other thread has made its own bad call
    const std::string message = opsplit_last_error_message();
    out.messages.push_back(message);
    if (message.find(expected) == std::string::npos) ++out.failures;
    if (meeting) meeting->wait();
  };
  opsplit_context ctx = nullptr;
  RUN(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  RUN(opsplit_context_set_num_threads(ctx, 2));

  // A bad call, then the meeting: this thread's message names its own value.
  const int bad_threads = -100 - which;
  if (opsplit_context_set_num_threads(ctx, bad_threads) != OPSPLIT_ERROR_INVALID_ARGUMENT) ++out.failures;
  meet_and_read("nthreads=" + std::to_string(bad_threads));

  // Reaction-diffusion: Gray-Scott on a small field.
  const int64_t n = 12 + which;
  opsplit_field field = nullptr;
  opsplit_rd rd = nullptr;
  RUN(opsplit_field_create(ctx, n, n, 4, 2, OPSPLIT_FLOAT64, &field));
  RUN(opsplit_rd_create(ctx, 2, &rd));
  RUN(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_GRAY_SCOTT));
  RUN(opsplit_rd_set_diffusion(rd, 0, 0.2));
  RUN(opsplit_rd_set_diffusion(rd, 1, 0.1));
  std::vector<double> host(static_cast<size_t>(n * n * 4 * 2));
  for (size_t i = 0; i < host.size(); ++i) host[i] = i < host.size() / 2 ? 1.0 - 0.01 * (i % 7) : 0.02 * (i % 5);
  RUN(opsplit_field_upload(field, host.data(), OPSPLIT_LAYOUT_PLANAR));
  double dt = 0;
  RUN(opsplit_rd_max_stable_dt(rd, field, &dt));
  RUN(opsplit_rd_step(rd, field, 0.5 * dt, 20));
  out.field.resize(host.size());
  RUN(opsplit_field_download(field, out.field.data(), OPSPLIT_LAYOUT_PLANAR));

  // A bad spacing: this thread's message again, while the other thread is elsewhere.
  const double bad_spacing = -1.0 - which;
  if (opsplit_field_set_spacing(field, bad_spacing, 1, 1) != OPSPLIT_ERROR_INVALID_ARGUMENT) ++out.failures;
  meet_and_read(which == 0 ? "hx=-1" : "hx=-2");

  // A mechanism built through the API, integrated in a batch of systems.
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  int a = -1, b = -1, c = -1, r = -1, one = 1;
  RUN(opsplit_mechanism_create(ctx, &mech));
  RUN(opsplit_mechanism_add_species(mech, "A", &a));
  RUN(opsplit_mechanism_add_species(mech, "B", &b));
  RUN(opsplit_mechanism_add_species(mech, "C", &c));
  RUN(opsplit_mechanism_add_reaction(mech, 1, &a, &one, 1, &b, &one, &r));
  RUN(opsplit_mechanism_set_rate(mech, r, OPSPLIT_RATE_CONSTANT, 0.04, 0, 0, 0));
  int two = 2;
  RUN(opsplit_mechanism_add_reaction(mech, 1, &b, &two, 2, std::vector<int>{b, c}.data(), nullptr, &r));
  RUN(opsplit_mechanism_set_rate(mech, r, OPSPLIT_RATE_CONSTANT, 3e7, 0, 0, 0));
  const int64_t nsys = 64;
  RUN(opsplit_ode_create(ctx, 3, nsys, 0, &ode));
  RUN(opsplit_ode_set_mechanism(ode, mech));
  std::vector<double> y(static_cast<size_t>(3 * nsys), 0.0);
  for (int64_t s = 0; s < nsys; ++s) y[static_cast<size_t>(3 * s)] = 1.0 + 0.01 * s + which;
  RUN(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS));
  RUN(opsplit_ode_integrate(ode, 0.0, 10.0));
  out.state.resize(y.size());
  RUN(opsplit_ode_get_state(ode, out.state.data(), OPSPLIT_ODE_AOS));

  // A gas mechanism from its file (the YAML reader, its unit tables), and its rates.
  opsplit_mechanism gas = nullptr;
  RUN(opsplit_mechanism_load_yaml(ctx, OPSPLIT_DATA "/mechanisms/h2o2.yaml", nullptr, &gas));
  int nspecies = 0;
  RUN(opsplit_mechanism_get_counts(gas, &nspecies, nullptr, nullptr));
  std::vector<double> mass_fractions(static_cast<size_t>(nspecies), 1.0 / nspecies), conc(mass_fractions.size());
  out.rates.resize(mass_fractions.size());
  RUN(opsplit_mechanism_concentrations(gas, 1200.0 + 100 * which, 101325.0, mass_fractions.data(), conc.data()));
  RUN(opsplit_mechanism_net_production_rates(gas, 1200.0 + 100 * which, conc.data(), out.rates.data()));

  // A missing file: IO, naming this thread's path.
  const std::string missing = "/no/such/thread" + std::to_string(which) + ".yaml";
  opsplit_mechanism none = nullptr;
  if (opsplit_mechanism_load_yaml(ctx, missing.c_str(), nullptr, &none) != OPSPLIT_ERROR_IO) ++out.failures;
  meet_and_read(missing);

  // Life and lava grids.
  opsplit_ca life = nullptr, lava = nullptr;
  RUN(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, 32, 64, &life));
  RUN(opsplit_ca_place_rle(life, "x = 3, y = 3\nbo$2bo$3o!", 3 + which, 5));
  RUN(opsplit_ca_step(life, 25));
  out.cells.resize(32 * 64);
  RUN(opsplit_ca_get_cells(life, out.cells.data(), OPSPLIT_CA_ROW_MAJOR));
  const int64_t side = 15;
  RUN(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, side, side, &lava));
  std::vector<double> altitude(static_cast<size_t>(side * side));
  for (size_t i = 0; i < altitude.size(); ++i)
    altitude[i] = 500.0 - 2.0 * static_cast<double>(i / side) - (1.0 + which) * static_cast<double>(i % side);
  RUN(opsplit_ca_set_substate(lava, "altitude", altitude.data(), OPSPLIT_CA_ROW_MAJOR));
  const double rates[3] = {20.0, 10.0 + which, 5.0};
  RUN(opsplit_ca_add_vent(lava, 7, 7, rates, 3, 300.0, nullptr));
  RUN(opsplit_ca_run_until(lava, 600.0));
  out.thickness.resize(altitude.size());
  RUN(opsplit_ca_get_substate(lava, "thickness", out.thickness.data(), OPSPLIT_CA_ROW_MAJOR));

  // A PCPD ensemble (Philox streams keyed by the seed).
  opsplit_pcpd pcpd = nullptr;
  RUN(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, 256, 8, &pcpd));
  RUN(opsplit_pcpd_set_probabilities(pcpd, 0.2, 0.5));
  RUN(opsplit_pcpd_initialize(pcpd, 7 + which, 0.6));
  RUN(opsplit_pcpd_run(pcpd, 30.0));
  int64_t length = 0;
  RUN(opsplit_pcpd_get_series_length(pcpd, &length));
  out.density.resize(static_cast<size_t>(length));
  RUN(opsplit_pcpd_get_series(pcpd, OPSPLIT_PCPD_DENSITY, length, nullptr, out.density.data(), nullptr));

  RUN(opsplit_pcpd_destroy(&pcpd));
  RUN(opsplit_ca_destroy(&lava));
  RUN(opsplit_ca_destroy(&life));
  RUN(opsplit_mechanism_destroy(&gas));
  RUN(opsplit_ode_destroy(&ode));
  RUN(opsplit_mechanism_destroy(&mech));
  RUN(opsplit_rd_destroy(&rd));
  RUN(opsplit_field_destroy(&field));
  RUN(opsplit_context_destroy(&ctx));
  return out;
}

void expect_same(const Outcome& together, const Outcome& alone, int which) {
  SCOPED_TRACE("thread " + std::to_string(which));
  EXPECT_EQ(together.failures, 0);
  EXPECT_EQ(alone.failures, 0);
  std::string messages;
  for (const std::string& m : together.messages) messages += "\n  " + m;
  SCOPED_TRACE("the messages it read:" + messages);
  auto same_bits = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof x[0]) == 0;
  };
  EXPECT_TRUE(same_bits(together.field, alone.field));
  EXPECT_TRUE(same_bits(together.state, alone.state));
  EXPECT_TRUE(same_bits(together.rates, alone.rates));
  EXPECT_TRUE(same_bits(together.cells, alone.cells));
  EXPECT_TRUE(same_bits(together.thickness, alone.thickness));
  EXPECT_TRUE(same_bits(together.density, alone.density));
  EXPECT_EQ(together.messages, alone.messages);
}

TEST(Threads, TwoContextsOnTwoThreadsComputeWhatEachComputesAlone) {
  const Outcome alone0 = work(0, nullptr), alone1 = work(1, nullptr);
  // The two threads' inputs differ, and so do their results: a mix-up would show.
  ASSERT_FALSE(alone0.field == alone1.field);
  ASSERT_FALSE(alone0.thickness == alone1.thickness);
  ASSERT_FALSE(alone0.density == alone1.density);

  Meeting meeting(2);
  Outcome together0, together1;
  bool churning = true;
  std::mutex churn_mutex;
  int churned = 0;
  // Meanwhile a third thread creates and destroys objects of a context of its own: the
  // registry changes under the other threads' handle checks.
  std::thread churn([&] {
    opsplit_context ctx = nullptr;
    if (opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx) != OPSPLIT_SUCCESS) return;
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(churn_mutex);
        if (!churning) break;
      }
      opsplit_field f = nullptr;
      opsplit_mechanism m = nullptr;
      if (opsplit_field_create(ctx, 4, 4, 4, 1, OPSPLIT_FLOAT32, &f) == OPSPLIT_SUCCESS &&
          opsplit_mechanism_create(ctx, &m) == OPSPLIT_SUCCESS) {
        std::lock_guard<std::mutex> lock(churn_mutex);
        ++churned;
      }
      opsplit_mechanism_destroy(&m);
      opsplit_field_destroy(&f);
    }
    opsplit_context_destroy(&ctx);
  });
  std::thread first([&] { together0 = work(0, &meeting); });
  std::thread second([&] { together1 = work(1, &meeting); });
  first.join();
  second.join();
  {
    std::lock_guard<std::mutex> lock(churn_mutex);
    churning = false;
  }
  churn.join();
  EXPECT_GT(churned, 0);
  expect_same(together0, alone0, 0);
  expect_same(together1, alone1, 1);
}

}  // namespace
