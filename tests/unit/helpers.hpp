// Small RAII owners and helpers for tests that drive the C API from C++.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "opsplit/opsplit.h"

#define OPSPLIT_OK(call) ASSERT_EQ((call), OPSPLIT_SUCCESS) << opsplit_last_error_message()

namespace test {

struct Context {
  opsplit_context ctx = nullptr;
  // AUTO: the backend comes from OPSPLIT_BACKEND, which each ctest registration sets.
  explicit Context(opsplit_backend backend = OPSPLIT_BACKEND_AUTO) {
    opsplit_status s = opsplit_context_create(backend, &ctx);
    EXPECT_EQ(s, OPSPLIT_SUCCESS) << opsplit_last_error_message();
  }
  ~Context() { EXPECT_EQ(opsplit_context_destroy(&ctx), OPSPLIT_SUCCESS) << opsplit_last_error_message(); }
  operator opsplit_context() const { return ctx; }
};

struct Field {
  opsplit_field f = nullptr;
  Field(opsplit_context ctx, int64_t nx, int64_t ny, int64_t nz, int ncomp, opsplit_precision p = OPSPLIT_FLOAT64) {
    EXPECT_EQ(opsplit_field_create(ctx, nx, ny, nz, ncomp, p, &f), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  }
  ~Field() { opsplit_field_destroy(&f); }
  operator opsplit_field() const { return f; }
};

struct Rd {
  opsplit_rd rd = nullptr;
  Rd(opsplit_context ctx, int ncomp) {
    EXPECT_EQ(opsplit_rd_create(ctx, ncomp, &rd), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  }
  ~Rd() { opsplit_rd_destroy(&rd); }
  operator opsplit_rd() const { return rd; }
  void boundary_all(int comp, opsplit_bc bc, double value = 0.0) {
    for (int face = 0; face < 6; ++face)
      EXPECT_EQ(opsplit_rd_set_boundary(rd, static_cast<opsplit_face>(face), comp, bc, value), OPSPLIT_SUCCESS);
  }
};

// A mechanism built through the API, reaction by reaction.
struct Mechanism {
  opsplit_mechanism m = nullptr;
  explicit Mechanism(opsplit_context ctx) {
    EXPECT_EQ(opsplit_mechanism_create(ctx, &m), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  }
  ~Mechanism() { opsplit_mechanism_destroy(&m); }
  Mechanism(const Mechanism&) = delete;
  Mechanism& operator=(const Mechanism&) = delete;
  operator opsplit_mechanism() const { return m; }
  int species(const char* name) {
    int i = -1;
    EXPECT_EQ(opsplit_mechanism_add_species(m, name, &i), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    return i;
  }
  // reactants -> products at constant rate k (species repeated for higher coefficients).
  int reaction(std::vector<int> reactants, std::vector<int> products, double k) {
    int r = -1;
    EXPECT_EQ(opsplit_mechanism_add_reaction(m, static_cast<int>(reactants.size()), reactants.data(), nullptr,
                                             static_cast<int>(products.size()), products.data(), nullptr, &r),
              OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
    constant_rate(r, k);
    return r;
  }
  // from -> yields of `to` at rate k [from] (a first-order step of a decay chain).
  int decay(int from, std::vector<int> to, std::vector<double> yields, double k) {
    int r = -1;
    EXPECT_EQ(opsplit_mechanism_add_reaction_yields(m, 1, &from, nullptr, static_cast<int>(to.size()), to.data(),
                                                    yields.data(), &r),
              OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
    constant_rate(r, k);
    return r;
  }

 private:
  void constant_rate(int r, double k) {
    EXPECT_EQ(opsplit_mechanism_set_rate(m, r, OPSPLIT_RATE_CONSTANT, k, 0, 0, 0), OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
  }
};

template <class T>
constexpr opsplit_precision precision_of() {
  return sizeof(T) == sizeof(double) ? OPSPLIT_FLOAT64 : OPSPLIT_FLOAT32;
}

inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::fmax(m, std::fabs(x));
  return m;
}

// max |a - b| / max |b|
template <class A, class B>
double relative_error(const std::vector<A>& a, const std::vector<B>& b) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::fmax(diff, std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
    scale = std::fmax(scale, std::fabs(static_cast<double>(b[i])));
  }
  return diff / scale;
}

// The eigenvalue of the discrete operator for angles theta (inactive axes: theta 0),
// derived here independently of the library: 7-point sum_a (2cos - 2)/h_a^2; 19-point
// from its second-difference form sum_a d2_a/h_a^2 + sum_{a<b} e_ab d2_a d2_b with
// symbol(d2_a) = -4 sin^2(theta_a/2), e_ab = (h_a^2 + h_b^2)/(12 h_a^2 h_b^2). For
// cubic cells the test also checks this against the seed's weights directly.
inline double stencil_eigenvalue(int points, const double h[3], const double theta[3]) {
  double s[3], lam = 0;
  for (int a = 0; a < 3; ++a) {
    s[a] = -4 * std::pow(std::sin(theta[a] / 2), 2);
    lam += s[a] / (h[a] * h[a]);
  }
  if (points == 19)
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b)
        lam += (h[a] * h[a] + h[b] * h[b]) / (12 * h[a] * h[a] * h[b] * h[b]) * s[a] * s[b];
  return lam;
}

}  // namespace test

namespace test {
// An input a test cannot read or load stops the test with one failure that names it:
// GoogleTest reports the exception's message and ends the test, where an EXPECT would let
// it go on with empty data (and crash). Usable in helpers that return values, where
// ASSERT cannot be.
struct MissingInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};
inline void require_input(bool ok, const std::string& what) {
  if (!ok) throw MissingInput("cannot read the test's input: " + what);
}
// A loader's status: SUCCESS, or the failure with the library's message.
inline void require_loaded(opsplit_status status, const std::string& path) {
  require_input(status == OPSPLIT_SUCCESS, path + " (" + opsplit_last_error_message() + ")");
}

// A data folder: the environment variable when it is set (a build tree carried to
// another machine), else the path compiled in.
inline std::string data_folder(const char* variable, const char* compiled) {
  const char* from_env = std::getenv(variable);
  return from_env != nullptr && *from_env != '\0' ? from_env : compiled;
}
}  // namespace test
