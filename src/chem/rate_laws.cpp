#include "chem/rate_laws.hpp"

namespace opsplit::chem {

// Names with two underscores are the shared pieces, not meant for files.
const std::map<std::string, RateFunction>& kpp_rate_laws() {
  static const std::map<std::string, RateFunction> laws = {
      {"KPP__ARR", {{"A", "B", "C"}, "A*EXP(-B/TEMP)*(TEMP/300.)**C"}},
      {"KPP__TROE", {{"K0", "KI", "FC"}, "K0/(1.+K0/KI)*FC**(1./(1.+LOG10(K0/KI)**2))"}},
      {"ARR_ABC", {{"A0", "B0", "C0"}, "KPP__ARR(A0, B0, C0)"}},
      {"ARR_AB", {{"A0", "B0"}, "A0*EXP(-B0/TEMP)"}},
      {"ARR_AC", {{"A0", "C0"}, "A0*(TEMP/300.)**C0"}},
      {"EP2", {{"A0", "C0", "A2", "C2", "A3", "C3"}, "KPP__EP2(A0*EXP(-C0/TEMP), A2*EXP(-C2/TEMP), "
                                                       "A3*EXP(-C3/TEMP)*CFACTOR*1.0E6)"}},
      {"KPP__EP2", {{"K0", "K2", "K3"}, "K0+K3/(1.+K3/K2)"}},
      {"EP3", {{"A1", "C1", "A2", "C2"}, "A1*EXP(-C1/TEMP)+A2*EXP(-C2/TEMP)*(1.0E6*CFACTOR)"}},
      {"FALL", {{"A0", "B0", "C0", "A1", "B1", "C1", "CF"}, "KPP__TROE(KPP__ARR(A0, B0, C0)*CFACTOR*1.0E6, "
                                                             "KPP__ARR(A1, B1, C1), CF)"}},
      {"K3RD_JPL", {{"CAIR", "K0", "N", "KINF", "M", "FC"},
                    "KPP__TROE(K0*(300./TEMP)**N*CAIR, KINF*(300./TEMP)**M, FC)"}},
      {"K3RD_IUPAC", {{"CAIR", "K0", "N", "KINF", "M", "FC"},
                      "KPP__IUPAC(K0*(300./TEMP)**N*CAIR, KINF*(300./TEMP)**M, FC)"}},
      {"KPP__IUPAC", {{"K0", "KI", "FC"},
                      "K0/(1.+K0/KI)*FC**(1./(1.+(LOG10(K0/KI)/(0.75-1.27*LOG10(FC)))**2))"}},
  };
  return laws;
}

// MICM's constants: N_A, and R = N_A k_B.
#define MICM_AVOGADRO "6.02214076E23"
#define MICM_GAS_CONSTANT "8.31446261815324"
#define MICM_PI "3.14159265358979324"

const std::map<std::string, RateFunction>& micm_rate_laws() {
  static const std::map<std::string, RateFunction> laws = {
      {"MICM__K", {{"A", "B", "C", "D"}, "A*EXP(C/TEMP)*(TEMP/D)**B"}},
      {"ARRHENIUS", {{"A", "B", "C", "D", "E"}, "MICM__K(A, B, C, D)*(1.+E*PRESS)"}},
      // Falloff with MICM's broadening exponent N/(N + log10(r)^2) (not IUPAC's).
      {"MICM__TROE", {{"K0", "KINF", "FC", "N"}, "K0*M/(1.+K0*M/KINF)*FC**(N/(N+LOG10(K0*M/KINF)**2))"}},
      {"MICM__TCA", {{"K0", "KINF", "FC", "N"}, "K0/(1.+K0*M/KINF)*FC**(N/(N+LOG10(K0*M/KINF)**2))"}},
      {"TROE", {{"K0_A", "K0_B", "K0_C", "KINF_A", "KINF_B", "KINF_C", "FC", "N"},
                "MICM__TROE(MICM__K(K0_A, K0_B, K0_C, 300.), MICM__K(KINF_A, KINF_B, KINF_C, 300.), FC, N)"}},
      {"TERNARY_CHEMICAL_ACTIVATION", {{"K0_A", "K0_B", "K0_C", "KINF_A", "KINF_B", "KINF_C", "FC", "N"},
                                       "MICM__TCA(MICM__K(K0_A, K0_B, K0_C, 300.), "
                                       "MICM__K(KINF_A, KINF_B, KINF_C, 300.), FC, N)"}},
      {"MICM__JPL19", {{"K0", "KINF", "KINT", "FC", "N"},
                       "MICM__TROE(K0, KINF, FC, N)+KINT*(1.-MICM__TROE(K0, KINF, FC, N)/KINF)"}},
      {"TERNARY_CHEMICAL_ACTIVATION_JPL19",
       {{"K0_A", "K0_B", "K0_C", "K0_D", "KINF_A", "KINF_B", "KINF_C", "KINF_D", "KINT_A", "KINT_B", "KINT_C",
         "KINT_D", "FC", "N"},
        "MICM__JPL19(MICM__K(K0_A, K0_B, K0_C, K0_D), MICM__K(KINF_A, KINF_B, KINF_C, KINF_D), "
        "MICM__K(KINT_A, KINT_B, KINT_C, KINT_D), FC, N)"}},
      {"TUNNELING", {{"A", "B", "C"}, "A*EXP(-B/TEMP+C/TEMP**3)"}},
      // Wennberg et al. (2018): A(T, M, n), its value at 293 K and 2.45e19 molecules
      // cm^-3 (in mol m^-3) setting z, and the alkoxy share z/(z + A).
      {"MICM__WENNBERG_FALLOFF", {{"A", "B"}, "A/(1.+A/B)*0.41**(1./(1.+LOG10(A/B)**2))"}},
      {"MICM__WENNBERG_A", {{"T", "MAIR", "N"},
                            "MICM__WENNBERG_FALLOFF(2.0E-22*" MICM_AVOGADRO "*1.0E-6*EXP(N)*MAIR, 0.43*(T/298.)**(-8))"}},
      {"MICM__WENNBERG_Z", {{"A0", "N"}, "MICM__WENNBERG_A(293., 2.45E19/" MICM_AVOGADRO "*1.0E6, N)*(1.-A0)/A0"}},
      {"BRANCHED_ALKOXY", {{"X", "Y", "A0", "N"},
                           "X*EXP(-Y/TEMP)*MICM__WENNBERG_Z(A0, N)/(MICM__WENNBERG_Z(A0, N)+MICM__WENNBERG_A(TEMP, M, N))"}},
      {"BRANCHED_NITRATE", {{"X", "Y", "A0", "N"},
                            "X*EXP(-Y/TEMP)*MICM__WENNBERG_A(TEMP, M, N)/(MICM__WENNBERG_A(TEMP, M, N)+MICM__WENNBERG_Z(A0, N))"}},
      {"SURFACE", {{"R", "NUMBER", "DG", "MW", "GAMMA"},
                   "4.*NUMBER*" MICM_PI "*R**2/(R/DG+4./(SQRT(8.*" MICM_GAS_CONSTANT "*TEMP/(" MICM_PI "*MW))*GAMMA))"}},
  };
  return laws;
}

const std::map<std::string, RateFunction>& all_rate_laws() {
  static const std::map<std::string, RateFunction> laws = [] {
    std::map<std::string, RateFunction> all = kpp_rate_laws();
    all.insert(micm_rate_laws().begin(), micm_rate_laws().end());
    return all;
  }();
  return laws;
}

}  // namespace opsplit::chem
