// CPU/CUDA parity of ODE batches (label cuda): 10^5 randomly perturbed systems of
// stiff networks (ROBER and the 20-species POLLU, Rosenbrock) and of a mildly stiff one (OREGO; RKCK45 and RKC)
// on both backends. The integrators are the same code; the backends' exp, pow and
// division rounding differ in the last bit, which can move step sequences, so the
// results agree to the tolerance they were computed with, not bitwise: |cpu - cuda| <=
// rtol |cpu| + atol per value. On an H100 (2026-11-22) the worst was 1.2e-3 of that
// (OREGO, RKCK45) and 18-38 % of the values were bitwise equal.
#include <cmath>
#include <random>
#include <vector>

#include "helpers.hpp"
#include "pollu.h"

namespace {

struct Network {
  const char* name;
  int n;
  std::vector<std::vector<int>> reactants, products;
  std::vector<double> k;
  std::vector<double> y0;
  double t1;
};

Network rober() {
  return {"ROBER", 3, {{0}, {1, 2}, {1, 1}}, {{1}, {0, 2}, {1, 2}}, {0.04, 1e4, 3e7}, {1, 0, 0}, 100.0};
}

Network orego() {
  const double s = 77.27;
  return {"OREGO", 3,
          {{1}, {0}, {0, 0}, {0, 1}, {2}, {1}, {0, 1}, {0}, {2}},
          {{0, 1}, {0, 0}, {0}, {1}, {2, 1}, {}, {0}, {0, 2}, {}},
          {s, s, s * 8.375e-6, s, 1 / s, 1 / s, 1 / s, 0.161, 0.161},
          {1, 2, 3},
          1.0};
}

// The benchmark's network (20 species: the CUDA kernel for neq <= 32).
Network pollu() {
  Network net{"POLLU", POLLU_NSPECIES, {}, {}, {}, {pollu_y0, pollu_y0 + POLLU_NSPECIES}, 60.0};
  for (int r = 0; r < POLLU_NREACTIONS; ++r) {
    net.reactants.emplace_back();
    net.products.emplace_back();
    for (int i : pollu_reactants[r])
      if (i >= 0) net.reactants.back().push_back(i);
    for (int i : pollu_products[r])
      if (i >= 0) net.products.back().push_back(i);
    net.k.push_back(pollu_k[r]);
  }
  return net;
}

std::vector<double> run(opsplit_backend backend, const Network& net, opsplit_ode_method method, int64_t nsys,
                        const std::vector<double>& y0, double rtol, double atol) {
  test::Context ctx(backend);
  opsplit_mechanism m = nullptr;
  EXPECT_EQ(opsplit_mechanism_create(ctx, &m), OPSPLIT_SUCCESS);
  for (int i = 0; i < net.n; ++i) {
    const char name[2] = {static_cast<char>('A' + i), 0};
    EXPECT_EQ(opsplit_mechanism_add_species(m, name, nullptr), OPSPLIT_SUCCESS);
  }
  for (size_t r = 0; r < net.k.size(); ++r) {
    int index = -1;
    EXPECT_EQ(opsplit_mechanism_add_reaction(m, static_cast<int>(net.reactants[r].size()), net.reactants[r].data(),
                                             nullptr, static_cast<int>(net.products[r].size()),
                                             net.products[r].data(), nullptr, &index),
              OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
    EXPECT_EQ(opsplit_mechanism_set_rate(m, index, OPSPLIT_RATE_CONSTANT, net.k[r], 0, 0, 0), OPSPLIT_SUCCESS);
  }
  opsplit_ode ode = nullptr;
  EXPECT_EQ(opsplit_ode_create(ctx, net.n, nsys, 0, &ode), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_mechanism(ode, m), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_method(ode, method), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_tolerances(ode, rtol, atol), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, net.t1), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  std::vector<double> y(y0.size());
  EXPECT_EQ(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&m);
  return y;
}

void expect_parity(const Network& net, opsplit_ode_method method) {
  const int64_t nsys = 100000;
  const double rtol = 1e-6, atol = 1e-10;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> perturb(0.8, 1.2);
  std::vector<double> y0(static_cast<size_t>(nsys * net.n));
  for (int64_t s = 0; s < nsys; ++s)
    for (int e = 0; e < net.n; ++e) y0[static_cast<size_t>(s * net.n + e)] = net.y0[static_cast<size_t>(e)] * perturb(rng);
  const auto cpu = run(OPSPLIT_BACKEND_CPU, net, method, nsys, y0, rtol, atol);
  const auto gpu = run(OPSPLIT_BACKEND_CUDA, net, method, nsys, y0, rtol, atol);
  ASSERT_EQ(cpu.size(), gpu.size());
  double worst = 0;
  size_t bitwise = 0;
  for (size_t i = 0; i < cpu.size(); ++i) {
    worst = std::max(worst, std::fabs(cpu[i] - gpu[i]) / (rtol * std::fabs(cpu[i]) + atol));
    bitwise += cpu[i] == gpu[i];
  }
  EXPECT_LE(worst, 1.0) << net.name << ", method " << method;
  ::testing::Test::RecordProperty(std::string(net.name) + "_worst_in_tolerances", std::to_string(worst));
  ::testing::Test::RecordProperty(std::string(net.name) + "_bitwise_equal_values", std::to_string(bitwise));
}

TEST(OdeParity, RoberRosenbrock) { expect_parity(rober(), OPSPLIT_ODE_ROSENBROCK); }
TEST(OdeParity, PolluRosenbrock) { expect_parity(pollu(), OPSPLIT_ODE_ROSENBROCK); }
TEST(OdeParity, OregoRkck45) { expect_parity(orego(), OPSPLIT_ODE_RKCK45); }
TEST(OdeParity, OregoRkc) { expect_parity(orego(), OPSPLIT_ODE_RKC); }
TEST(OdeParity, OregoRosenbrock) { expect_parity(orego(), OPSPLIT_ODE_ROSENBROCK); }

}  // namespace
