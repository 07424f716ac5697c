import sys; sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import musica, time
from ts1_box import read_ic, integrate, R
# Robertson: v0 folder, rates given as PHOTO.r1..r3 (k1=0.04, k2=3e7, k3=1e4)
s = musica.MICM(config_path=R + "/v0/robertson")
s.set_solver_parameters(musica.micm.RosenbrockSolverParameters(relative_tolerance=1e-8, absolute_tolerances=[1e-14] * 3))
st = s.create_state(1)
st.set_conditions(temperatures=272.5, pressures=101253.3)
st.set_concentrations({"A": 1.0, "B": 0.0, "C": 0.0})
st.set_user_defined_rate_parameters({"PHOTO.r1": 0.04, "PHOTO.r2": 3e7, "PHOTO.r3": 1e4})
integrate(s, st, 40.0, 40.0)
print("Robertson t=40 s:", {k: f"{v[0]:.6e}" for k, v in st.get_concentrations().items()}, "(classic: A=7.158e-01 B=9.185e-06 C=2.842e-01)")
# CB5 1 h
ic = read_ic(R + "/v0/carbon_bond_5/initial_conditions.csv")
s = musica.MICM(config_path=R + "/v0/carbon_bond_5"); st = s.create_state(1)
st.set_conditions(temperatures=ic["ENV.temperature"][0], pressures=ic["ENV.pressure"][0])
sp = st.get_species_ordering(); up = st.get_user_defined_rate_parameters_ordering()
st.set_concentrations({k[5:]: v[0] for k, v in ic.items() if k.startswith("CONC.") and k[5:] in sp})
st.set_user_defined_rate_parameters({k: v[0] for k, v in ic.items() if k in up})
print("CB5 params not in CSV:", sorted(set(up) - set(ic)), "CSV CONC not species:", sorted(k for k in ic if k.startswith("CONC.") and k[5:] not in sp))
t0 = time.perf_counter(); n, f = integrate(s, st, 60.0, 3600.0)
c = st.get_concentrations()
print(f"CB5 1 h: accepted={n} failed={f} wall={time.perf_counter()-t0:.3f}s O3={c['O3'][0]:.6e} NO={c['NO'][0]:.6e} NO2={c['NO2'][0]:.6e}")
for atol in [1e-3, 1e-12, 1e-18]:
    s = musica.MICM(config_path=R + "/v0/carbon_bond_5"); st = s.create_state(1)
    s.set_solver_parameters(musica.micm.RosenbrockSolverParameters(relative_tolerance=1e-6, absolute_tolerances=[atol] * len(sp)))
    st = s.create_state(1)
    st.set_conditions(temperatures=ic["ENV.temperature"][0], pressures=ic["ENV.pressure"][0])
    st.set_concentrations({k[5:]: v[0] for k, v in ic.items() if k.startswith("CONC.") and k[5:] in sp})
    st.set_user_defined_rate_parameters({k: v[0] for k, v in ic.items() if k in up})
    hist = []
    for i in range(6):
        n, f = integrate(s, st, 60.0, 600.0); c = st.get_concentrations(); hist.append(f"{c['O3'][0]:.3e}")
    print(f"CB5 atol={atol}: O3 every 10 min: {hist}; last accepted={n} failed={f}")
