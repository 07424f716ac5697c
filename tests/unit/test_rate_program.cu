// Compiled rate expressions run on the GPU (kernels/chem/rate_program.cuh's device side)
// against the same code run on the host, for 10^4 cells of different inputs. + - * / and
// SQRT are correctly rounded on both sides: those programs give the same bits. EXP, LOG
// and ** differ by the libraries' last bits (CUDA's exp and log within 1 ulp, pow within
// 2, glibc's within 1): a program of a few of them agrees to 1e-14 relative.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "chem/rate_expression.hpp"

namespace {

namespace chem = opsplit::chem;
constexpr int kInputs = 4;  // TEMP, M, O2, N2

__global__ void evaluate_kernel(const int* code, int length, const double* constants,
                                const double* inputs, int ncells, double* out) {
  const int cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (cell < ncells) out[cell] = chem::evaluate_rate(code, length, constants, inputs + kInputs * cell);
}

template <class T>
T* to_device(const std::vector<T>& v) {
  T* d = nullptr;
  EXPECT_EQ(cudaMalloc(&d, std::max<size_t>(1, v.size() * sizeof(T))), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  return d;
}

// The program of `text` on every cell, on the device and on the host; the largest
// relative difference.
double worst_difference(const std::string& text) {
  chem::RateNames names;
  names.values["KMT01"] = "1.0D-31*M*(TEMP/300)**(-1.6)";
  names.functions["ARR2"] = chem::RateFunction{{"A0", "B0"}, "A0*EXP(-B0/TEMP)"};
  names.input = [](const std::string& name, int index) {
    if (index >= 0) return -1;
    return name == "TEMP" ? 0 : name == "M" ? 1 : name == "O2" ? 2 : name == "N2" ? 3 : -1;
  };
  chem::RateProgram program;
  chem::RateError error;
  EXPECT_TRUE(chem::compile_rate_expression(text, names, program, error)) << error.message;
  const int ncells = 10000;
  std::vector<double> inputs(static_cast<size_t>(kInputs * ncells));
  for (int c = 0; c < ncells; ++c) {
    double* in = &inputs[static_cast<size_t>(kInputs * c)];
    in[0] = 200.0 + 0.01 * c, in[1] = 2.5e19 * (1 - 1e-5 * c), in[2] = 0.21 * in[1], in[3] = 0.78 * in[1];
  }
  program.constants.push_back(0);  // never empty on the device
  auto* code = to_device(program.code);
  auto* constants = to_device(program.constants);
  auto* cells = to_device(inputs);
  double* out = nullptr;
  EXPECT_EQ(cudaMalloc(&out, ncells * sizeof(double)), cudaSuccess);
  evaluate_kernel<<<(ncells + 127) / 128, 128>>>(code, program.length(), constants, cells, ncells, out);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<double> device(ncells);
  EXPECT_EQ(cudaMemcpy(device.data(), out, ncells * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(code), cudaFree(constants), cudaFree(cells), cudaFree(out);
  double worst = 0;
  for (int c = 0; c < ncells; ++c) {
    const double host = program.evaluate(&inputs[static_cast<size_t>(kInputs * c)]);
    EXPECT_TRUE(std::isfinite(host)) << text;
    worst = std::fmax(worst, std::fabs(device[c] - host) / std::fabs(host));
  }
  return worst;
}

TEST(RateProgramCuda, ArithmeticGivesTheHostsBits) {
  EXPECT_EQ(worst_difference("1.5e-12*M*O2/(TEMP - 100.) + SQRT(TEMP)*N2 - MIN(TEMP, 300.)*MAX(M, 1e19)"), 0);
  EXPECT_EQ(worst_difference("-(TEMP*TEMP)/(O2+N2) + ABS(250. - TEMP)"), 0);
}

TEST(RateProgramCuda, TranscendentalsAgreeToTheLastBits) {
  EXPECT_LE(worst_difference("8.0E-12*EXP(-2060./TEMP)"), 1e-14);
  EXPECT_LE(worst_difference("5.6E-34*N2*(TEMP/300.)**(-2.6)*O2"), 1e-14);
  EXPECT_LE(worst_difference("KMT01*0.6 + ARR2(1.8e-12, 1500.0)*LOG(TEMP)*LOG10(M)"), 1e-14);
}

}  // namespace
