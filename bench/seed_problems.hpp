// The seed problems set up through the public C API, shared by the CPU and GPU
// benchmark programs: seed 000's Table 1 (Molnar et al. 2011) and seed 003's 3D
// Cahn-Hilliard (Playne & Hawick 2009), with the seeds' Table 6 speeds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "opsplit/core.h"
#include "opsplit/field.h"
#include "api_check.hpp"

namespace bench {

enum class Problem { turing, precipitation, advection, cahn_hilliard };
constexpr Problem kProblems[] = {Problem::turing, Problem::precipitation, Problem::advection, Problem::cahn_hilliard};

struct ProblemInfo {
  const char* name;
  int ncomp;
  double seed_gtx275_mpoints;  // Table 6: reference Mpoints/s x the best GTX 275 speedup
  double seed_cpu_mpoints;     // Table 6: the serial 2.8 GHz Core 2 Duo reference
};

inline ProblemInfo problem_info(Problem p) {
  switch (p) {
    case Problem::turing: return {"turing", 2, 31.1 * 36.7, 31.1};
    case Problem::precipitation: return {"precipitation", 3, 11.1 * 42.3, 11.1};
    case Problem::advection: return {"advection", 1, 61.6 * 24.4, 61.6};
    default: return {"cahn_hilliard", 1, 11.1 * 42.3, 11.1};  // seed 003 has no Mpoints/s
  }
}

// The model and its nx x ny x nz initial field (seed 000 Table 1, 19-point stencil; seed
// 003 for Cahn-Hilliard) and its dt. On failure: false, with `error` naming the call.
inline bool make_seed_problem(opsplit_context ctx, int64_t nx, int64_t ny, int64_t nz, Problem p,
                              opsplit_precision prec, opsplit_rd* rd, opsplit_field* field, double* dt,
                              std::string& error) {
  const ProblemInfo info = problem_info(p);
  const int64_t cells = nx * ny * nz;
  API_CHECK_RET(opsplit_rd_create(ctx, info.ncomp, rd), false);
  API_CHECK_RET(opsplit_field_create(ctx, nx, ny, nz, info.ncomp, prec, field), false);
  API_CHECK_RET(opsplit_rd_set_stencil(*rd, OPSPLIT_STENCIL_19POINT), false);
  std::vector<double> init(static_cast<size_t>(cells * info.ncomp));
  uint64_t state = 12345;
  auto noise = [&state] {  // uniform in [-1, 1)
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 4503599627370496.0 - 1.0;
  };
  double h = 1.0;
  switch (p) {
    case Problem::turing:
      h = 6.2e-3, *dt = 5e-4;
      API_CHECK_RET(opsplit_rd_set_reaction(*rd, OPSPLIT_REACTION_TURING), false);
      API_CHECK_RET(opsplit_rd_set_diffusion(*rd, 0, 5e-5), false);
      API_CHECK_RET(opsplit_rd_set_diffusion(*rd, 1, 5e-3), false);
      for (double& v : init) v = 1.0 + 5e-4 * noise();
      break;
    case Problem::precipitation:
      *dt = 0.02;
      API_CHECK_RET(opsplit_rd_set_reaction(*rd, OPSPLIT_REACTION_PRECIPITATION), false);
      API_CHECK_RET(opsplit_rd_set_diffusion(*rd, 0, 1.0), false);
      API_CHECK_RET(opsplit_rd_set_diffusion(*rd, 1, 1.0), false);
      API_CHECK_RET(opsplit_rd_set_boundary(*rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, 10.0), false);
      for (int64_t c = 0; c < cells; ++c) init[c] = 0.0, init[cells + c] = 1.0, init[2 * cells + c] = -1.0;
      break;
    case Problem::advection:
      h = 100.0, *dt = 5.0;
      API_CHECK_RET(opsplit_rd_set_diffusion(*rd, 0, 100.0), false);
      API_CHECK_RET(opsplit_rd_set_velocity(*rd, 0, 5.0, 0.0, 0.0, 0.0), false);
      API_CHECK_RET(opsplit_rd_set_velocity(*rd, 1, 1.0, 0.0, 0.0, 0.0), false);
      API_CHECK_RET(opsplit_rd_set_velocity(*rd, 2, 0.0, 5.0, 1.0 / 500.0, 0.0), false);
      API_CHECK_RET(opsplit_rd_add_source(*rd, 0, nx / 4, ny / 2, nz / 2, 10.0), false);
      break;
    case Problem::cahn_hilliard:
      API_CHECK_RET(opsplit_rd_set_cahn_hilliard(*rd, 0, 1.0, 1.0, 1.0, 1.0), false);
      for (double& v : init) v = 0.1 * noise();
      break;
  }
  API_CHECK_RET(opsplit_field_set_spacing(*field, h, h, h), false);
  if (p == Problem::cahn_hilliard) {
    API_CHECK_RET(opsplit_rd_max_stable_dt(*rd, *field, dt), false);
    *dt *= 0.9;
  }
  if (prec == OPSPLIT_FLOAT64) {
    API_CHECK_RET(opsplit_field_upload(*field, init.data(), OPSPLIT_LAYOUT_PLANAR), false);
  } else {
    const std::vector<float> f(init.begin(), init.end());
    API_CHECK_RET(opsplit_field_upload(*field, f.data(), OPSPLIT_LAYOUT_PLANAR), false);
  }
  API_CHECK_RET(opsplit_context_synchronize(ctx), false);
  return true;
}

// The same on n^3.
inline bool make_seed_problem(opsplit_context ctx, int64_t n, Problem p, opsplit_precision prec, opsplit_rd* rd,
                              opsplit_field* field, double* dt, std::string& error) {
  return make_seed_problem(ctx, n, n, n, p, prec, rd, field, dt, error);
}



}  // namespace bench
