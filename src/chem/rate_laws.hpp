// The named rate laws of atmospheric mechanisms, as functions of the rate-expression
// language (chem/rate_expression.hpp): one definition each, compiled into the same rate
// programs on both backends. Their inputs are the named per-system parameters TEMP (K)
// and, where a law reads them, PRESS (Pa), M (the air density) and CFACTOR.
#pragma once

#include <map>
#include <string>

#include "chem/rate_expression.hpp"

namespace opsplit::chem {

// KPP's stock rate laws (KPP 3.5, util/UserRateLaws.f90): ARR_ABC, ARR_AB, ARR_AC, EP2,
// EP3, FALL, K3RD_JPL, K3RD_IUPAC. EP2, EP3 and FALL take the third-body density as
// 1e6 CFACTOR, as KPP does.
const std::map<std::string, RateFunction>& kpp_rate_laws();

// MICM's rate constants (MICM 3.14, the laws of MechanismConfiguration v1), over TEMP,
// PRESS and M in MICM's units (K, Pa, mol m-3):
//   ARRHENIUS(A, B, C, D, E)            A exp(C/T) (T/D)^B (1 + E P)
//   TROE(k0_A, k0_B, k0_C, kinf_A, kinf_B, kinf_C, Fc, N)
//                                       k0 M/(1 + r) Fc^(N/(N + log10(r)^2)), r = k0 M/kinf,
//                                       k0 = k0_A exp(k0_C/T) (T/300)^k0_B (kinf alike)
//   TERNARY_CHEMICAL_ACTIVATION(same)   k0/(1 + r) Fc^(N/(N + log10(r)^2))
//   TERNARY_CHEMICAL_ACTIVATION_JPL19(k0_A, k0_B, k0_C, k0_D, kinf_A, ..., kint_A, ...,
//                                       Fc, N): kf + kint (1 - kf/kinf), kf TROE's with
//                                       each k = A exp(C/T) (T/D)^B
//   TUNNELING(A, B, C)                  A exp(-B/T + C/T^3)
//   BRANCHED_ALKOXY(X, Y, a0, n), BRANCHED_NITRATE(X, Y, a0, n)
//                                       the two branches of Wennberg et al.'s RO2 + NO
//   SURFACE(r, N, Dg, MW, gamma)        4 N pi r^2 / (r/Dg + 4/(v gamma)), v = sqrt(8RT/(pi MW))
const std::map<std::string, RateFunction>& micm_rate_laws();

// Both sets: what opsplit_mechanism_set_rate_expression offers.
const std::map<std::string, RateFunction>& all_rate_laws();

}  // namespace opsplit::chem
