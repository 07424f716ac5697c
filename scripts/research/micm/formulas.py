"""Check MICM rate-constant formulas: one first-order reaction A -> B per mechanism, measure k from the decay."""
import math, os, json, tempfile
import musica
from musica.constants import GAS_CONSTANT, BOLTZMANN, AVOGADRO
T, P = 250.0, 50000.0
VERSION = "1.0.0"
rho = P / (GAS_CONSTANT * T)           # mol m-3
base_species = [{"name": "A", "molecular weight [kg mol-1]": 0.03}, {"name": "B"}, {"name": "M", "is third body": True}]

def k_from_micm(rxn, extra_params=None, species=None, extra_yaml=None):
    cfg = {"version": VERSION, "name": "t", "species": species or base_species,
           "phases": [{"name": "gas", "species": [s["name"] if s["name"] != "A" else {"name": "A", "diffusion coefficient [m2 s-1]": 2e-5}
                                                  for s in (species or base_species)]}],
           "reactions": [dict(rxn, **{"gas phase": "gas"})]}
    d = tempfile.mkdtemp()
    path = os.path.join(d, "c.json"); json.dump(cfg, open(path, "w"))
    s = musica.MICM(config_path=path, solver_type=musica.SolverType.rosenbrock_standard_order)
    s.set_solver_parameters(musica.micm.RosenbrockSolverParameters(relative_tolerance=1e-12, absolute_tolerances=[1e-30] * 2))
    st = s.create_state(1)
    st.set_conditions(temperatures=T, pressures=P)
    st.set_concentrations({"A": 1.0, "B": 0.0})
    if extra_params: st.set_user_defined_rate_parameters(extra_params)
    dt = 1e-3
    t = 0.0
    while t < dt: t += s.solve(st, dt - t).stats.final_time
    a = st.get_concentrations()["A"][0]
    return -math.log(a) / dt

def troe_like(k0A, k0B, k0C, kiA, kiB, kiC, Fc, N, scale):
    k0 = k0A * math.exp(k0C / T) * (T / 300) ** k0B
    ki = kiA * math.exp(kiC / T) * (T / 300) ** kiB
    r = k0 * rho / ki
    return k0 * scale / (1 + r) * Fc ** (N / (N + math.log10(r) ** 2))   # MICM form
def troe_std(k0A, k0B, k0C, kiA, kiB, kiC, Fc, N):
    k0 = k0A * math.exp(k0C / T) * (T / 300) ** k0B
    ki = kiA * math.exp(kiC / T) * (T / 300) ** kiB
    r = k0 * rho / ki
    return k0 * rho / (1 + r) * Fc ** (1 / (1 + (math.log10(r) / N) ** 2))  # textbook (N squared)

if __name__ == "__main__":
    cases = []
    R = lambda typ, **kw: dict(type=typ, reactants=[{"species name": "A", "coefficient": 1}],
                               products=[{"species name": "B", "coefficient": 1}], **kw)
    cases.append(("ARRHENIUS A,B,C,D,E", R("ARRHENIUS", A=2.0, B=1.5, C=-300.0, D=280.0, E=1e-5),
                  2.0 * math.exp(-300 / T) * (T / 280) ** 1.5 * (1 + 1e-5 * P)))
    cases.append(("ARRHENIUS Ea", R("ARRHENIUS", A=2.0, Ea=2.0e-21), 2.0 * math.exp(-2.0e-21 / BOLTZMANN / T)))
    cases.append(("ARRHENIUS defaults", R("ARRHENIUS"), 1.0))
    cases.append(("ARRHENIUS with M reactant", dict(R("ARRHENIUS", A=0.3), reactants=[{"species name": "A"}, {"species name": "M"}]), 0.3 * rho))
    tp = dict(k0_A=5.0, k0_B=-2.0, k0_C=100.0, kinf_A=3.0, kinf_B=1.0, kinf_C=-50.0, Fc=0.45, N=1.7)
    cases.append(("TROE (N=1.7)", R("TROE", **tp), troe_like(5, -2, 100, 3, 1, -50, 0.45, 1.7, rho)))
    cases.append(("TROE defaults", R("TROE"), troe_like(1, 0, 0, 1, 0, 0, 0.6, 1.0, rho)))
    cases.append(("TERNARY_CHEMICAL_ACTIVATION", R("TERNARY_CHEMICAL_ACTIVATION", **tp), troe_like(5, -2, 100, 3, 1, -50, 0.45, 1.7, 1.0)))
    cases.append(("TUNNELING", R("TUNNELING", A=4.0, B=300.0, C=1.0e7), 4.0 * math.exp(-300 / T + 1.0e7 / T ** 3)))
    cases.append(("TAYLOR_SERIES", R("TAYLOR_SERIES", A=2.0, C=-100.0, **{"taylor coefficients": [1.0, 0.01, 1e-5]}),
                  (1 + 0.01 * T + 1e-5 * T * T) * 2.0 * math.exp(-100 / T)))
    cases.append(("PHOTOLYSIS scaling 2", dict(R("PHOTOLYSIS", name="j", **{"scaling factor": 2.0})), 2.0 * 0.7, {"PHOTO.j": 0.7}))
    cases.append(("USER_DEFINED scaling 3", dict(R("USER_DEFINED", name="u", **{"scaling factor": 3.0})), 3.0 * 0.2, {"USER.u": 0.2}))
    cases.append(("FIRST_ORDER_LOSS", dict(type="FIRST_ORDER_LOSS", name="l", reactants=[{"species name": "A"}]), 0.4, {"LOSS.l": 0.4}))
    # SURFACE: k = 4 N pi r^2 / (r/Dg + 4/(v gamma)), v = sqrt(8 R T/(pi Mw))
    r, Np, gam, Dg, Mw = 1e-7, 1e12, 0.1, 2e-5, 0.03
    v = math.sqrt(8 * GAS_CONSTANT * T / (math.pi * Mw))
    cases.append(("SURFACE", dict(type="SURFACE", name="s", **{"reaction probability": gam, "gas-phase species": "A",
                  "gas-phase products": [{"species name": "B"}]}), 4 * Np * math.pi * r * r / (r / Dg + 4 / (v * gam)),
                  {"SURF.s.effective radius [m]": r, "SURF.s.particle number concentration [# m-3]": Np}))
    for case in cases:
        name, rxn, k_expect = case[:3]
        extra = case[3] if len(case) > 3 else None
        try:
            k = k_from_micm(rxn, extra)
            print(f"{name:32s} k_micm={k:.10e} k_formula={k_expect:.10e} rel={abs(k - k_expect) / k_expect:.1e}")
        except Exception as e:
            print(f"{name:32s} FAILED {type(e).__name__}: {str(e)[:200]}")
    print("textbook Troe (N squared) for the N=1.7 case would be", troe_std(5, -2, 100, 3, 1, -50, 0.45, 1.7))
    # Branched (Wennberg) alkoxy + nitrate: total loss of A = X exp(-Y/T)
    br = dict(type="BRANCHED_NO_RO2", X=1e-2, Y=200.0, a0=0.15, n=9, reactants=[{"species name": "A"}],
              **{"alkoxy products": [{"species name": "B"}], "nitrate products": [{"species name": "B"}]})
    print("BRANCHED total", k_from_micm(br), "expected X exp(-Y/T) =", 1e-2 * math.exp(-200 / T))

