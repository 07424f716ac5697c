// Hosts on the GPU (issue 43): the _device forms against the host forms, bit for bit;
// the ODE batch working in a wrapped array; the order of the host's stream and of the
// legacy default stream; and each misuse refused with INVALID_ARGUMENT, leaving every
// object working. Needs a CUDA device (label cuda); run under compute-sanitizer too.
#include <cuda.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace {

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess)

// A cudaMalloc array that frees itself.
template <class T>
struct DeviceArray {
  T* p = nullptr;
  size_t n = 0;
  explicit DeviceArray(size_t count, size_t bytes = 0) : n(count) {
    EXPECT_EQ(cudaMalloc(&p, bytes != 0 ? bytes : count * sizeof(T)), cudaSuccess);
  }
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  void put(const std::vector<T>& v) { EXPECT_EQ(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess); }
  std::vector<T> get() const {
    std::vector<T> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

void require_gpu() {
  int devices = 0;
  ASSERT_TRUE(cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) << "this test needs a CUDA device";
}

// The status and a message holding `part`.
void expect_refused(opsplit_status got, opsplit_status want, const std::string& part) {
  const std::string msg = opsplit_last_error_message();
  EXPECT_EQ(got, want) << msg;
  EXPECT_NE(msg.find(part), std::string::npos) << msg;
}

// ---- fields --------------------------------------------------------------------------

template <class T>
void field_parity(opsplit_layout layout) {
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const int64_t nx = 13, ny = 7, nz = 5;
  const int ncomp = 3;
  const size_t n = static_cast<size_t>(nx * ny * nz * ncomp);
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>(std::sin(0.37 * static_cast<double>(i)) + 1.5);
  test::Rd rd(ctx, ncomp);
  for (int c = 0; c < ncomp; ++c) OPSPLIT_OK(opsplit_rd_set_diffusion(rd, c, 0.05 * (c + 1)));
  test::Field host_path(ctx, nx, ny, nz, ncomp, test::precision_of<T>()), device_path(ctx, nx, ny, nz, ncomp, test::precision_of<T>());
  std::vector<T> from_host(n);
  OPSPLIT_OK(opsplit_field_upload(host_path, v.data(), layout));
  OPSPLIT_OK(opsplit_rd_step(rd, host_path, 0.5, 3));
  OPSPLIT_OK(opsplit_field_download(host_path, from_host.data(), layout));
  DeviceArray<T> in(n), out(n);
  in.put(v);
  OPSPLIT_OK(opsplit_field_upload_device(device_path, in.p, layout));
  OPSPLIT_OK(opsplit_rd_step(rd, device_path, 0.5, 3));
  OPSPLIT_OK(opsplit_field_download_device(device_path, out.p, layout));
  EXPECT_TRUE(same_bits(out.get(), from_host));
  EXPECT_FALSE(same_bits(out.get(), v));  // the step changed something
}

TEST(DeviceFields, UploadAndDownloadGiveTheHostFormsBits) {
  require_gpu();
  for (opsplit_layout layout : {OPSPLIT_LAYOUT_PLANAR, OPSPLIT_LAYOUT_INTERLEAVED}) {
    field_parity<double>(layout);
    field_parity<float>(layout);
  }
}

// ---- ODE batches -----------------------------------------------------------------------

constexpr int kNeq = 3, kNparam = 1;
constexpr int64_t kNsys = 1000;

// The Oregonator (test_ode's), its last reaction's rate w * p[0] per system.
void build_orego(test::Mechanism& m) {
  const int y1 = m.species("Y1"), y2 = m.species("Y2"), y3 = m.species("Y3");
  const double s = 77.27, q = 8.375e-6, w = 0.161;
  m.reaction({y2}, {y1, y2}, s);
  m.reaction({y1}, {y1, y1}, s);
  m.reaction({y1, y1}, {y1}, s * q);
  m.reaction({y1, y2}, {y2}, s);
  m.reaction({y3}, {y3, y2}, 1.0 / s);
  m.reaction({y2}, {}, 1.0 / s);
  m.reaction({y1, y2}, {y1}, 1.0 / s);
  m.reaction({y1}, {y1, y3}, w);
  const int r = m.reaction({y3}, {}, w);
  OPSPLIT_OK(opsplit_mechanism_set_rate(m, r, OPSPLIT_RATE_PARAMETER, w, 0, 0, 0));
}

// States and parameters in AOS ([sys][eq]) or SOA ([eq][sys]) order.
std::vector<double> states(int layout) {
  std::vector<double> y(kNeq * kNsys);
  for (int64_t s = 0; s < kNsys; ++s)
    for (int e = 0; e < kNeq; ++e)
      y[layout == OPSPLIT_ODE_AOS ? s * kNeq + e : e * kNsys + s] = (e + 1) * (1.0 + 0.001 * static_cast<double>(s));
  return y;
}
std::vector<double> parameters() {
  std::vector<double> p(kNsys);
  for (int64_t s = 0; s < kNsys; ++s) p[s] = 0.5 + 0.001 * static_cast<double>(s);
  return p;  // one parameter: AOS and SOA are the same
}

struct Batch {
  test::Mechanism m;
  opsplit_ode ode = nullptr;
  explicit Batch(opsplit_context ctx) : m(ctx) {
    build_orego(m);
    EXPECT_EQ(opsplit_ode_create(ctx, kNeq, kNsys, kNparam, &ode), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_ode_set_mechanism(ode, m), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    EXPECT_EQ(opsplit_ode_set_keep_step(ode, 1), OPSPLIT_SUCCESS);
  }
  ~Batch() { opsplit_ode_destroy(&ode); }
  operator opsplit_ode() const { return ode; }
};

struct Results {
  std::vector<int> result = std::vector<int>(kNsys);
  std::vector<int64_t> accepted = std::vector<int64_t>(kNsys), rejected = accepted, rhs = accepted, jacobian = accepted;
};

// The host forms' run: two calls (the second starts from kept steps), the state in `layout`.
std::vector<double> host_run(opsplit_context ctx, int layout, Results& r) {
  Batch b(ctx);
  std::vector<double> y = states(layout);
  EXPECT_EQ(opsplit_ode_set_state(b, y.data(), static_cast<opsplit_ode_layout>(layout)), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_parameters(b, parameters().data(), OPSPLIT_ODE_SOA), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_integrate(b, 0.0, 5.0), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_integrate(b, 5.0, 10.0), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_get_state(b, y.data(), static_cast<opsplit_ode_layout>(layout)), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_get_results(b, r.result.data(), r.accepted.data(), r.rejected.data(), r.rhs.data(),
                                    r.jacobian.data()),
            OPSPLIT_SUCCESS);
  return y;
}

TEST(DeviceOde, SetGetAndResultsGiveTheHostFormsBits) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  for (int layout : {OPSPLIT_ODE_AOS, OPSPLIT_ODE_SOA}) {
    Results want;
    const std::vector<double> y_want = host_run(ctx, layout, want);
    Batch b(ctx);
    const auto l = static_cast<opsplit_ode_layout>(layout);
    DeviceArray<double> y(kNeq * kNsys), p(kNsys);
    y.put(states(layout));
    p.put(parameters());
    OPSPLIT_OK(opsplit_ode_set_state_device(b, y.p, l));
    OPSPLIT_OK(opsplit_ode_set_parameters_device(b, p.p, l));
    OPSPLIT_OK(opsplit_ode_integrate(b, 0.0, 5.0));
    OPSPLIT_OK(opsplit_ode_integrate(b, 5.0, 10.0));
    DeviceArray<double> y_out(kNeq * kNsys), p_out(kNsys);
    OPSPLIT_OK(opsplit_ode_get_state_device(b, y_out.p, l));
    OPSPLIT_OK(opsplit_ode_get_parameters_device(b, p_out.p, l));
    EXPECT_TRUE(same_bits(y_out.get(), y_want)) << "layout " << layout;
    EXPECT_TRUE(same_bits(p_out.get(), parameters()));
    // The other layout out of the same state: the transposes agree with the host's.
    const int other = 1 - layout;
    std::vector<double> y_host(kNeq * kNsys);
    OPSPLIT_OK(opsplit_ode_get_state(b, y_host.data(), static_cast<opsplit_ode_layout>(other)));
    OPSPLIT_OK(opsplit_ode_get_state_device(b, y_out.p, static_cast<opsplit_ode_layout>(other)));
    EXPECT_TRUE(same_bits(y_out.get(), y_host));
    DeviceArray<int> result(kNsys);
    DeviceArray<int64_t> accepted(kNsys), rejected(kNsys), rhs(kNsys), jacobian(kNsys);
    OPSPLIT_OK(opsplit_ode_get_results_device(b, result.p, accepted.p, rejected.p, rhs.p, jacobian.p));
    EXPECT_EQ(result.get(), want.result);
    EXPECT_EQ(accepted.get(), want.accepted);
    EXPECT_EQ(rejected.get(), want.rejected);
    EXPECT_EQ(rhs.get(), want.rhs);
    EXPECT_EQ(jacobian.get(), want.jacobian);
    OPSPLIT_OK(opsplit_ode_get_results_device(b, nullptr, nullptr, nullptr, nullptr, nullptr));  // any may be NULL
  }
}

TEST(DeviceOde, AWrappedStateIsIntegratedInPlace) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  Results want;
  const std::vector<double> y_want = host_run(ctx, OPSPLIT_ODE_SOA, want);
  DeviceArray<double> y(kNeq * kNsys), p(kNsys);
  y.put(states(OPSPLIT_ODE_SOA));
  p.put(parameters());
  {
    Batch b(ctx);
    OPSPLIT_OK(opsplit_ode_wrap_state_device(b, y.p));
    OPSPLIT_OK(opsplit_ode_wrap_parameters_device(b, p.p));
    OPSPLIT_OK(opsplit_ode_integrate(b, 0.0, 5.0));
    OPSPLIT_OK(opsplit_ode_integrate(b, 5.0, 10.0));
    EXPECT_TRUE(same_bits(y.get(), y_want));  // the host's array itself holds the result
    // The host forms read and write the wrapped array.
    std::vector<double> seen(kNeq * kNsys);
    OPSPLIT_OK(opsplit_ode_get_state(b, seen.data(), OPSPLIT_ODE_SOA));
    EXPECT_TRUE(same_bits(seen, y_want));
    OPSPLIT_OK(opsplit_ode_set_state(b, states(OPSPLIT_ODE_SOA).data(), OPSPLIT_ODE_SOA));
    EXPECT_TRUE(same_bits(y.get(), states(OPSPLIT_ODE_SOA)));
    // Setting the wrapped array from itself is no copy and changes nothing; in AOS, or
    // from an array that overlaps it, it is refused (a copy onto itself).
    OPSPLIT_OK(opsplit_ode_set_state_device(b, y.p, OPSPLIT_ODE_SOA));
    EXPECT_TRUE(same_bits(y.get(), states(OPSPLIT_ODE_SOA)));
    expect_refused(opsplit_ode_get_state_device(b, y.p, OPSPLIT_ODE_AOS), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "AOS would transpose it onto itself");
    DeviceArray<double> big(2 * kNeq * kNsys);
    big.put(std::vector<double>(2 * kNeq * kNsys, 1.0));
    OPSPLIT_OK(opsplit_ode_wrap_state_device(b, big.p));
    expect_refused(opsplit_ode_get_state_device(b, big.p + 1, OPSPLIT_ODE_SOA), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "y overlaps the batch's wrapped array");
    OPSPLIT_OK(opsplit_ode_get_state_device(b, big.p + kNeq * kNsys, OPSPLIT_ODE_SOA));  // beside it: a copy
    EXPECT_TRUE(same_bits(big.get(), std::vector<double>(2 * kNeq * kNsys, 1.0)));
    OPSPLIT_OK(opsplit_ode_wrap_state_device(b, y.p));
  }  // destroyed while wrapped: the arrays are the host's (a double free would show under memcheck)
  EXPECT_TRUE(same_bits(y.get(), states(OPSPLIT_ODE_SOA)));
  EXPECT_TRUE(same_bits(p.get(), parameters()));
}

TEST(DeviceOde, UnwrappingKeepsTheValuesInTheBatchsOwnStorage) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  Batch b(ctx);
  const std::vector<double> y0 = states(OPSPLIT_ODE_SOA);
  {
    DeviceArray<double> y(kNeq * kNsys), p(kNsys);
    y.put(y0);
    p.put(parameters());
    OPSPLIT_OK(opsplit_ode_wrap_state_device(b, y.p));
    OPSPLIT_OK(opsplit_ode_wrap_parameters_device(b, p.p));
    OPSPLIT_OK(opsplit_ode_wrap_state_device(b, nullptr));
    OPSPLIT_OK(opsplit_ode_wrap_parameters_device(b, nullptr));
    OPSPLIT_OK(opsplit_ode_wrap_state_device(b, nullptr));  // not wrapped: nothing to do
  }  // the host frees its arrays
  std::vector<double> seen(kNeq * kNsys), p_seen(kNsys);
  OPSPLIT_OK(opsplit_ode_get_state(b, seen.data(), OPSPLIT_ODE_SOA));
  OPSPLIT_OK(opsplit_ode_get_parameters(b, p_seen.data(), OPSPLIT_ODE_SOA));
  EXPECT_TRUE(same_bits(seen, y0));
  EXPECT_TRUE(same_bits(p_seen, parameters()));
  OPSPLIT_OK(opsplit_ode_integrate(b, 0.0, 1.0));
}

int cancel_at_once(double, const char*, void*) { return 1; }

TEST(DeviceOde, AWrappedArrayKeepsFailedAndCancelledSystemsAtT0) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  Batch b(ctx);
  std::vector<double> y0 = states(OPSPLIT_ODE_SOA);
  y0[1 * kNsys + 17] = std::nan("");  // system 17 cannot run
  DeviceArray<double> y(kNeq * kNsys), p(kNsys);
  y.put(y0);
  p.put(parameters());
  OPSPLIT_OK(opsplit_ode_wrap_state_device(b, y.p));
  OPSPLIT_OK(opsplit_ode_wrap_parameters_device(b, p.p));
  expect_refused(opsplit_ode_integrate(b, 0.0, 1.0), OPSPLIT_ERROR_NUMERICAL, "1 of 1000 systems failed");
  const std::vector<double> after = y.get();
  for (int e = 0; e < kNeq; ++e) EXPECT_TRUE(same_bits(std::vector<double>{after[e * kNsys + 17]}, {y0[e * kNsys + 17]}));
  EXPECT_NE(after[16], y0[16]);
  int result = 0;
  OPSPLIT_OK(opsplit_ode_get_results(b, nullptr, nullptr, nullptr, nullptr, nullptr));
  DeviceArray<int> codes(kNsys);
  OPSPLIT_OK(opsplit_ode_get_results_device(b, codes.p, nullptr, nullptr, nullptr, nullptr));
  result = codes.get()[17];
  EXPECT_EQ(result, OPSPLIT_ODE_NONFINITE);
  std::vector<int64_t> rhs_before(kNsys), rhs_after(kNsys);
  OPSPLIT_OK(opsplit_ode_get_results(b, nullptr, nullptr, nullptr, rhs_before.data(), nullptr));
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, cancel_at_once, nullptr));
  expect_refused(opsplit_ode_integrate(b, 1.0, 5.0), OPSPLIT_ERROR_CANCELLED, "every state is at t0");
  EXPECT_TRUE(same_bits(y.get(), after));
  std::vector<int> kept(kNsys);
  OPSPLIT_OK(opsplit_ode_get_results(b, kept.data(), nullptr, nullptr, rhs_after.data(), nullptr));
  EXPECT_EQ(kept[17], OPSPLIT_ODE_NONFINITE);  // a cancelled call keeps the last call's results:
  EXPECT_EQ(rhs_after, rhs_before);            // its first chunk ran 1 -> 5, which takes other counts
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, nullptr, nullptr));
  y.put(states(OPSPLIT_ODE_SOA));
  OPSPLIT_OK(opsplit_ode_integrate(b, 1.0, 5.0));
  OPSPLIT_OK(opsplit_ode_get_results(b, nullptr, nullptr, nullptr, rhs_after.data(), nullptr));
  EXPECT_NE(rhs_after, rhs_before);  // (the comparison above could fail)
}

// ---- cellular automata and lattices -------------------------------------------------------

TEST(DeviceLife, CellsGiveTheHostFormsBits) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const int64_t rows = 37, cols = 100;  // a row of two words, the second partly cells
  std::vector<uint8_t> cells(rows * cols);
  uint32_t x = 12345;
  for (auto& c : cells) {  // 3 in 8 alive, as values 5, 6, 7 (any nonzero byte is alive)
    const auto v = static_cast<uint8_t>((x = x * 1664525u + 1013904223u) >> 29);
    c = v >= 5 ? v : 0;
  }
  for (opsplit_ca_order order : {OPSPLIT_CA_ROW_MAJOR, OPSPLIT_CA_COLUMN_MAJOR}) {
    opsplit_ca host_path = nullptr, device_path = nullptr;
    OPSPLIT_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, rows, cols, &host_path));
    OPSPLIT_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, rows, cols, &device_path));
    std::vector<uint8_t> want(cells.size());
    OPSPLIT_OK(opsplit_ca_set_cells(host_path, cells.data(), order));
    OPSPLIT_OK(opsplit_ca_step(host_path, 5));
    OPSPLIT_OK(opsplit_ca_get_cells(host_path, want.data(), order));
    DeviceArray<uint8_t> in(cells.size()), out(cells.size());
    in.put(cells);
    OPSPLIT_OK(opsplit_ca_set_cells_device(device_path, in.p, order));
    OPSPLIT_OK(opsplit_ca_step(device_path, 5));
    OPSPLIT_OK(opsplit_ca_get_cells_device(device_path, out.p, order));
    EXPECT_EQ(out.get(), want) << "order " << order;
    int64_t population = 0;
    OPSPLIT_OK(opsplit_ca_get_population(device_path, &population));
    EXPECT_GT(population, 0);
    expect_refused(opsplit_ca_set_cells_device(device_path, in.p + 1, order), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "bytes are needed");
    OPSPLIT_OK(opsplit_ca_destroy(&host_path));
    OPSPLIT_OK(opsplit_ca_destroy(&device_path));
  }
}

TEST(DevicePcpd, LatticesGiveTheHostFormsBitsForEveryAlgorithm) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const int64_t L = 16384, replicas = 3;
  std::vector<uint8_t> sites(L);
  for (int64_t i = 0; i < L; ++i) sites[i] = static_cast<uint8_t>((i * 7919) % 5 == 0 ? 3 : 0);  // any nonzero occupied
  for (opsplit_pcpd_algorithm algorithm : {OPSPLIT_PCPD_EXACT, OPSPLIT_PCPD_MULTISPIN, OPSPLIT_PCPD_MULTISPIN32}) {
    opsplit_pcpd host_path = nullptr, device_path = nullptr;
    OPSPLIT_OK(opsplit_pcpd_create(ctx, algorithm, L, replicas, &host_path));
    OPSPLIT_OK(opsplit_pcpd_create(ctx, algorithm, L, replicas, &device_path));
    DeviceArray<uint8_t> in(L), out(L);
    in.put(sites);
    OPSPLIT_OK(opsplit_pcpd_set_lattice(host_path, 1, sites.data()));
    OPSPLIT_OK(opsplit_pcpd_set_lattice_device(device_path, 1, in.p));
    OPSPLIT_OK(opsplit_pcpd_run(host_path, 3.0));
    OPSPLIT_OK(opsplit_pcpd_run(device_path, 3.0));
    for (int64_t r = 0; r < replicas; ++r) {
      std::vector<uint8_t> want(L);
      OPSPLIT_OK(opsplit_pcpd_get_lattice(host_path, r, want.data()));
      OPSPLIT_OK(opsplit_pcpd_get_lattice_device(device_path, r, out.p));
      EXPECT_EQ(out.get(), want) << "algorithm " << algorithm << ", replica " << r;
    }
    std::vector<double> a(2), b(2);
    OPSPLIT_OK(opsplit_pcpd_get_series(host_path, OPSPLIT_PCPD_DENSITY, 2, nullptr, a.data(), nullptr));
    OPSPLIT_OK(opsplit_pcpd_get_series(device_path, OPSPLIT_PCPD_DENSITY, 2, nullptr, b.data(), nullptr));
    EXPECT_EQ(a, b);  // the series started from the lattice set on the device
    expect_refused(opsplit_pcpd_get_lattice_device(device_path, 0, sites.data()), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "sites is host memory");
    expect_refused(opsplit_pcpd_set_lattice(device_path, 0, in.p), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "sites is device memory");
    OPSPLIT_OK(opsplit_pcpd_destroy(&host_path));
    OPSPLIT_OK(opsplit_pcpd_destroy(&device_path));
  }
}

// A lava grid of `model` with a slope, a pool of lava and its temperature, from the host
// forms or from device arrays (every substate set, then 40 steps); its substates after.
std::vector<std::vector<double>> lava_run(const test::Context& ctx, opsplit_ca_model model, bool on_device,
                                          opsplit_ca_order order) {
  const int64_t rows = 30, cols = 45, n = rows * cols;
  std::vector<double> altitude(n), thickness(n), temperature(n);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = order == OPSPLIT_CA_ROW_MAJOR ? r * cols + c : c * rows + r;
      altitude[i] = 1000.0 - 2.0 * static_cast<double>(r) + 0.3 * static_cast<double>(c % 7);
      const bool pool = r >= 3 && r < 8 && c >= 10 && c < 16;
      thickness[i] = pool ? 2.0 + 0.1 * static_cast<double>(c - 10) : 0.0;
      temperature[i] = pool ? 1360.0 : 0.0;
    }
  const char* names[] = {"altitude", "thickness", "temperature", "solidified", "lost"};
  const std::vector<double>* given[] = {&altitude, &thickness, &temperature};
  opsplit_ca g = nullptr;
  EXPECT_EQ(opsplit_ca_create(ctx, model, rows, cols, &g), OPSPLIT_SUCCESS);
  DeviceArray<double> values(n);
  for (int k = 0; k < 3; ++k) {
    if (on_device) {
      values.put(*given[k]);
      EXPECT_EQ(opsplit_ca_set_substate_device(g, names[k], values.p, order), OPSPLIT_SUCCESS)
          << opsplit_last_error_message();
    } else {
      EXPECT_EQ(opsplit_ca_set_substate(g, names[k], given[k]->data(), order), OPSPLIT_SUCCESS);
    }
  }
  EXPECT_EQ(opsplit_ca_step(g, 40), OPSPLIT_SUCCESS);
  std::vector<std::vector<double>> after;
  for (const char* name : names) {
    std::vector<double> v(n);
    if (on_device) {
      EXPECT_EQ(opsplit_ca_get_substate_device(g, name, values.p, order), OPSPLIT_SUCCESS);
      v = values.get();
    } else {
      EXPECT_EQ(opsplit_ca_get_substate(g, name, v.data(), order), OPSPLIT_SUCCESS);
    }
    after.push_back(v);
  }
  after.push_back(thickness);
  EXPECT_EQ(opsplit_ca_destroy(&g), OPSPLIT_SUCCESS);
  return after;
}

TEST(DeviceLava, SubstatesGiveTheHostFormsBits) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  for (opsplit_ca_model model : {OPSPLIT_CA_SCIARA_FV2, OPSPLIT_CA_SCIARA_FV3})
    for (opsplit_ca_order order : {OPSPLIT_CA_ROW_MAJOR, OPSPLIT_CA_COLUMN_MAJOR}) {
      const auto want = lava_run(ctx, model, false, order), got = lava_run(ctx, model, true, order);
      for (size_t k = 0; k < want.size(); ++k)
        EXPECT_TRUE(same_bits(got[k], want[k])) << "model " << model << ", order " << order << ", substate " << k;
      EXPECT_FALSE(same_bits(got[1], got[5])) << "the lava moved";
    }
}

// A bad value on the device is named as the host form names it, and nothing changes.
TEST(DeviceLava, ABadValueIsNamedAndNothingChanges) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const int64_t rows = 20, cols = 30, n = rows * cols;
  opsplit_ca g = nullptr;
  OPSPLIT_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, rows, cols, &g));
  std::vector<double> thickness(n, 0.0);
  thickness[5 * cols + 7] = 1.5;
  DeviceArray<double> values(n), out(n);
  values.put(thickness);
  OPSPLIT_OK(opsplit_ca_set_substate_device(g, "thickness", values.p, OPSPLIT_CA_ROW_MAJOR));
  struct Case {
    const char* name;
    int64_t row, col;
    double value;
    const char* message;
  };
  const Case cases[] = {
      {"thickness", 9, 4, -1.0, "thickness at (9, 4) is -1: it cannot be negative"},
      {"thickness", 0, 12, 2.0, "thickness at (0, 12) is 2: the outermost ring is the sink"},
      {"temperature", 3, 3, std::nan(""), "temperature at (3, 3) is nan: every value must be finite"},
      {"momentum_x", 19, 29, HUGE_VAL, "momentum_x at (19, 29) is inf: every value must be finite"},
  };
  for (const Case& c : cases)
    for (opsplit_ca_order order : {OPSPLIT_CA_ROW_MAJOR, OPSPLIT_CA_COLUMN_MAJOR}) {
      std::vector<double> bad(n, 0.0);
      bad[order == OPSPLIT_CA_ROW_MAJOR ? c.row * cols + c.col : c.col * rows + c.row] = c.value;
      bad[order == OPSPLIT_CA_ROW_MAJOR ? 19 * cols + 29 : 29 * rows + 19] =
          c.row == 19 ? c.value : std::nan("");  // a later bad cell: the first is named
      values.put(bad);
      expect_refused(opsplit_ca_set_substate_device(g, c.name, values.p, order), OPSPLIT_ERROR_INVALID_ARGUMENT,
                     c.message);
      OPSPLIT_OK(opsplit_ca_get_substate_device(g, "thickness", out.p, OPSPLIT_CA_ROW_MAJOR));
      EXPECT_EQ(out.get(), thickness);
    }
  expect_refused(opsplit_ca_set_substate_device(g, "lost", values.p, OPSPLIT_CA_ROW_MAJOR),
                 OPSPLIT_ERROR_INVALID_ARGUMENT, "\"lost\" is read-only");
  expect_refused(opsplit_ca_set_substate_device(g, "altitude", values.p + 1, OPSPLIT_CA_ROW_MAJOR),
                 OPSPLIT_ERROR_INVALID_ARGUMENT, "bytes are needed");
  expect_refused(opsplit_ca_set_substate_device(g, "altitude", thickness.data(), OPSPLIT_CA_ROW_MAJOR),
                 OPSPLIT_ERROR_INVALID_ARGUMENT, "values is host memory");
  expect_refused(opsplit_ca_get_substate(g, "altitude", out.p, OPSPLIT_CA_ROW_MAJOR), OPSPLIT_ERROR_INVALID_ARGUMENT,
                 "values is device memory");
  OPSPLIT_OK(opsplit_ca_step(g, 3));  // the grid still works
  OPSPLIT_OK(opsplit_ca_get_substate_device(g, "thickness", out.p, OPSPLIT_CA_ROW_MAJOR));
  EXPECT_NE(out.get(), thickness);
  OPSPLIT_OK(opsplit_ca_destroy(&g));
}

// ---- ordering --------------------------------------------------------------------------

// Waits about `cycles` clock cycles, then writes value into every element: work the
// host launched that opsplit must wait for.
__global__ void late_fill(double* a, int64_t n, double value, long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    a[i] = value;
}

__global__ void scale(double* a, int64_t n, double by) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    a[i] *= by;
}

TEST(DeviceOrder, WithoutAStreamTheCallFollowsTheLegacyDefaultStream) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const int64_t n = 8 * 8 * 8;
  test::Field f(ctx, 8, 8, 8, 1);
  DeviceArray<double> a(n), b(n);
  late_fill<<<4, 128>>>(a.p, n, 3.0, 200000000LL);  // ~0.1 s on the legacy default stream
  OPSPLIT_OK(opsplit_field_upload_device(f, a.p, OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_field_download_device(f, b.p, OPSPLIT_LAYOUT_PLANAR));
  scale<<<4, 128>>>(b.p, n, 2.0);  // the host's next work sees the download
  EXPECT_EQ(b.get(), std::vector<double>(n, 6.0));
}

TEST(DeviceOrder, WithTheHostsStreamNothingWaitsInBetween) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  OPSPLIT_OK(opsplit_context_set_cuda_stream(ctx, stream));
  {
    Results want;
    const std::vector<double> y_want = host_run(ctx, OPSPLIT_ODE_SOA, want);
    Batch b(ctx);
    DeviceArray<double> y(kNeq * kNsys), p(kNsys), out(kNeq * kNsys);
    CUDA_OK(cudaMemsetAsync(y.p, 0, kNeq * kNsys * sizeof(double), stream));
    late_fill<<<4, 128, 0, stream>>>(p.p, kNsys, 0.0, 100000000LL);
    const std::vector<double> y0 = states(OPSPLIT_ODE_SOA), p0 = parameters();
    CUDA_OK(cudaMemcpyAsync(y.p, y0.data(), y0.size() * sizeof(double), cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaMemcpyAsync(p.p, p0.data(), p0.size() * sizeof(double), cudaMemcpyHostToDevice, stream));
    OPSPLIT_OK(opsplit_ode_set_state_device(b, y.p, OPSPLIT_ODE_SOA));
    OPSPLIT_OK(opsplit_ode_set_parameters_device(b, p.p, OPSPLIT_ODE_SOA));
    OPSPLIT_OK(opsplit_ode_integrate(b, 0.0, 5.0));
    OPSPLIT_OK(opsplit_ode_integrate(b, 5.0, 10.0));
    OPSPLIT_OK(opsplit_ode_get_state_device(b, out.p, OPSPLIT_ODE_SOA));
    scale<<<8, 128, 0, stream>>>(out.p, kNeq * kNsys, 2.0);  // the host's next kernel on its stream
    CUDA_OK(cudaStreamSynchronize(stream));
    std::vector<double> twice = y_want;
    for (double& v : twice) v *= 2.0;
    EXPECT_TRUE(same_bits(out.get(), twice));
  }
  OPSPLIT_OK(opsplit_context_set_cuda_stream(ctx, nullptr));
  CUDA_OK(cudaStreamDestroy(stream));
}

// ---- misuse ----------------------------------------------------------------------------

// Each misuse gives INVALID_ARGUMENT naming what was found; the field and batch work after.
TEST(DeviceMisuse, EveryWrongPointerIsRefusedAndNothingBreaks) {
  require_gpu();
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const int64_t n = 4 * 4 * 4;
  test::Field f(ctx, 4, 4, 4, 1);
  Batch b(ctx);
  const size_t state_bytes = kNeq * kNsys * sizeof(double);
  std::vector<double> on_heap(kNeq * kNsys, 1.0);
  double on_stack[4 * 4 * 4] = {};
  expect_refused(opsplit_field_upload_device(f, on_heap.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_ERROR_INVALID_ARGUMENT,
                 "device is host memory");
  expect_refused(opsplit_field_download_device(f, on_stack, OPSPLIT_LAYOUT_PLANAR), OPSPLIT_ERROR_INVALID_ARGUMENT,
                 "device is host memory");
  expect_refused(opsplit_ode_wrap_state_device(b, on_heap.data()), OPSPLIT_ERROR_INVALID_ARGUMENT, "y is host memory");
  double* pinned = nullptr;
  CUDA_OK(cudaMallocHost(&pinned, state_bytes));
  expect_refused(opsplit_ode_set_state_device(b, pinned, OPSPLIT_ODE_SOA), OPSPLIT_ERROR_INVALID_ARGUMENT,
                 "y is page-locked host memory");
  CUDA_OK(cudaFreeHost(pinned));
  {
    DeviceArray<double> short_by_one(kNeq * kNsys, state_bytes - sizeof(double));
    expect_refused(opsplit_ode_set_state_device(b, short_by_one.p, OPSPLIT_ODE_AOS), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "ends " + std::to_string(state_bytes - 8) + " bytes after it; " + std::to_string(state_bytes) +
                       " bytes are needed");
    expect_refused(opsplit_ode_wrap_state_device(b, short_by_one.p), OPSPLIT_ERROR_INVALID_ARGUMENT, "bytes are needed");
    DeviceArray<double> exact(kNeq * kNsys);
    expect_refused(opsplit_ode_get_state_device(b, exact.p + 1, OPSPLIT_ODE_SOA), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "bytes are needed");  // an interior pointer, one element short
    expect_refused(opsplit_ode_get_state_device(b, reinterpret_cast<double*>(reinterpret_cast<char*>(exact.p) + 1),
                                                OPSPLIT_ODE_SOA),
                   OPSPLIT_ERROR_INVALID_ARGUMENT, "is not aligned to 8 bytes");
    DeviceArray<int> few(kNsys / 2);
    expect_refused(opsplit_ode_get_results_device(b, few.p, nullptr, nullptr, nullptr, nullptr),
                   OPSPLIT_ERROR_INVALID_ARGUMENT, "result lies in an allocation");
    // A device array given to the host forms.
    expect_refused(opsplit_field_upload(f, exact.p, OPSPLIT_LAYOUT_PLANAR), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "is device memory, where a host array is expected");
    expect_refused(opsplit_field_download(f, exact.p, OPSPLIT_LAYOUT_INTERLEAVED), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "is device memory");
    expect_refused(opsplit_ode_set_state(b, exact.p, OPSPLIT_ODE_AOS), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "y is device memory");
    expect_refused(opsplit_ode_get_state(b, exact.p, OPSPLIT_ODE_AOS), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "y is device memory");
    expect_refused(opsplit_ode_get_state(b, exact.p, OPSPLIT_ODE_SOA), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "y is device memory");
    expect_refused(opsplit_ode_get_results(b, reinterpret_cast<int*>(exact.p), nullptr, nullptr, nullptr, nullptr),
                   OPSPLIT_ERROR_INVALID_ARGUMENT, "is device memory");
    opsplit_ca life = nullptr;
    OPSPLIT_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, 8, 8, &life));
    expect_refused(opsplit_ca_set_cells(life, reinterpret_cast<uint8_t*>(exact.p), OPSPLIT_CA_ROW_MAJOR),
                   OPSPLIT_ERROR_INVALID_ARGUMENT, "cells is device memory");
    expect_refused(opsplit_ca_get_cells(life, reinterpret_cast<uint8_t*>(exact.p), OPSPLIT_CA_ROW_MAJOR),
                   OPSPLIT_ERROR_INVALID_ARGUMENT, "cells is device memory");
    OPSPLIT_OK(opsplit_ca_destroy(&life));
  }
  double* freed = nullptr;
  CUDA_OK(cudaMalloc(&freed, state_bytes));
  CUDA_OK(cudaFree(freed));
  expect_refused(opsplit_ode_set_state_device(b, freed, OPSPLIT_ODE_SOA), OPSPLIT_ERROR_INVALID_ARGUMENT,
                 "y is host memory");
  // Accepted: managed memory, and a cudaMallocAsync array of the right size (a short one refused).
  double* managed = nullptr;
  CUDA_OK(cudaMallocManaged(&managed, state_bytes));
  const std::vector<double> y0 = states(OPSPLIT_ODE_SOA);
  std::memcpy(managed, y0.data(), state_bytes);
  OPSPLIT_OK(opsplit_ode_set_state_device(b, managed, OPSPLIT_ODE_SOA));
  CUDA_OK(cudaFree(managed));
  double* pooled = nullptr;
  CUDA_OK(cudaMallocAsync(&pooled, state_bytes, 0));
  CUDA_OK(cudaStreamSynchronize(0));
  OPSPLIT_OK(opsplit_ode_get_state_device(b, pooled, OPSPLIT_ODE_SOA));
  double* pooled_short = nullptr;
  CUDA_OK(cudaMallocAsync(&pooled_short, state_bytes / 2, 0));
  CUDA_OK(cudaStreamSynchronize(0));
  expect_refused(opsplit_ode_get_state_device(b, pooled_short, OPSPLIT_ODE_SOA), OPSPLIT_ERROR_INVALID_ARGUMENT,
                 "bytes are needed");
  std::vector<double> back(kNeq * kNsys);
  CUDA_OK(cudaMemcpy(back.data(), pooled, state_bytes, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(same_bits(back, y0));
  CUDA_OK(cudaFreeAsync(pooled, 0));
  CUDA_OK(cudaFreeAsync(pooled_short, 0));
  CUDA_OK(cudaStreamSynchronize(0));
  // Memory of another CUDA context on the same GPU (what an OpenACC runtime may make).
  CUcontext mine = nullptr, other = nullptr;
  ASSERT_EQ(cuCtxGetCurrent(&mine), CUDA_SUCCESS);
  CUdevice dev = 0;
  ASSERT_EQ(cuCtxGetDevice(&dev), CUDA_SUCCESS);
  CUctxCreateParams params{};
  if (cuCtxCreate(&other, &params, 0, dev) == CUDA_SUCCESS) {
    CUdeviceptr foreign = 0;
    ASSERT_EQ(cuMemAlloc(&foreign, state_bytes), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxSetCurrent(mine), CUDA_SUCCESS);
    expect_refused(opsplit_ode_set_state_device(b, reinterpret_cast<double*>(foreign), OPSPLIT_ODE_SOA),
                   OPSPLIT_ERROR_INVALID_ARGUMENT, "another CUDA context");
    ASSERT_EQ(cuCtxSetCurrent(other), CUDA_SUCCESS);
    cuMemFree(foreign);
    ASSERT_EQ(cuCtxSetCurrent(mine), CUDA_SUCCESS);
    cuCtxDestroy(other);
  } else {
    ADD_FAILURE() << "cuCtxCreate failed: the other-context case was not checked";
  }
  // Everything still works.
  std::vector<double> fv(n, 2.0), fo(n);
  OPSPLIT_OK(opsplit_field_upload(f, fv.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_field_download(f, fo.data(), OPSPLIT_LAYOUT_PLANAR));
  EXPECT_EQ(fo, fv);
  OPSPLIT_OK(opsplit_ode_set_parameters(b, parameters().data(), OPSPLIT_ODE_SOA));
  OPSPLIT_OK(opsplit_ode_integrate(b, 0.0, 1.0));
}

// Another GPU's memory, both ways, with peer access on (the copy would then work, on the
// wrong GPU's time: refused all the same). Its own ctest (label multi_gpu), run by
// scripts/gpu-check on a machine of two GPUs or more, where every GPU is visible.
TEST(TwoGpus, AnotherGpusMemoryIsRefused) {
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  ASSERT_GE(devices, 2) << "this test needs two GPUs (ctest -L multi_gpu on a machine of two)";
  for (int mine = 0; mine < 2; ++mine) {
    const int other = 1 - mine;
    opsplit_context ctx = nullptr;
    OPSPLIT_OK(opsplit_context_create_on_device(mine, &ctx));
    {
      test::Field f(ctx, 4, 4, 4, 1);
      const size_t n = 4 * 4 * 4;
      CUDA_OK(cudaSetDevice(mine));
      cudaDeviceEnablePeerAccess(other, 0);  // where the GPUs can: this GPU's kernels could then read theirs
      cudaGetLastError();                    // (already enabled by the first round: not an error here)
      CUDA_OK(cudaSetDevice(other));
      DeviceArray<double> theirs(n);
      CUDA_OK(cudaSetDevice(mine));
      expect_refused(opsplit_field_upload_device(f, theirs.p, OPSPLIT_LAYOUT_PLANAR), OPSPLIT_ERROR_INVALID_ARGUMENT,
                     "device is memory of GPU " + std::to_string(other) + "; this context works on GPU " +
                         std::to_string(mine));
      DeviceArray<double> own(n);
      std::vector<double> v(n, 3.0);
      own.put(v);
      OPSPLIT_OK(opsplit_field_upload_device(f, own.p, OPSPLIT_LAYOUT_PLANAR));  // the context still works
      std::vector<double> back(n);
      OPSPLIT_OK(opsplit_field_download(f, back.data(), OPSPLIT_LAYOUT_PLANAR));
      EXPECT_EQ(back, v);
      CUDA_OK(cudaSetDevice(other));  // theirs is freed on its own GPU
    }
    CUDA_OK(cudaSetDevice(0));
    OPSPLIT_OK(opsplit_context_destroy(&ctx));
  }
}

}  // namespace
