import sys, time
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import musica
from ts1_box import read_ic, setup, integrate, R
ic = read_ic(R + "/v0/TS1/initial_conditions.csv")
s = musica.MICM(config_path=R + "/v0/TS1", solver_type=musica.SolverType.rosenbrock_standard_order)
print("v0 TS1 default params:", s.get_solver_parameters())
ref = None
for atol, rtol in [(None, 1e-6), (1e-15, 1e-6), (1e-20, 1e-8), (1e-20, 1e-10)]:
    solver, st, _ = setup(R + "/v1/ts1/ts1.json", 1, ic, atol=atol, rtol=rtol)
    t0 = time.perf_counter(); n, f = integrate(solver, st, 60.0, 3600.0); w = time.perf_counter() - t0
    c = {k: v[0] for k, v in st.get_concentrations().items()}
    if ref is None: ref = c
    worst = sorted(((abs(c[k] - ref[k]) / max(abs(c[k]), 1e-300), k) for k in c if abs(c[k]) > 1e-25), reverse=True)[:3]
    print(f"atol={atol} rtol={rtol}: accepted={n} failed={f} wall={w:.3f}s O3={c['O3']:.8e} OH={c['OH']:.8e} "
          f"NO={c['NO']:.8e}  worst rel diff of default-tol run vs this: {[(f'{d:.2e}', k) for d, k in worst]}")
for n in [16, 256]:
    for stype in [musica.SolverType.rosenbrock_standard_order, musica.SolverType.rosenbrock]:
        p = musica.micm.RosenbrockSolverParameters(relative_tolerance=1e-6)
        solver = musica.MICM(config_path=R + "/v1/ts1/ts1.json", solver_type=stype)
        st = solver.create_state(n)
        st.set_conditions(temperatures=[287.45] * n, pressures=[101319.9] * n)
        sp = st.get_species_ordering(); up = st.get_user_defined_rate_parameters_ordering()
        st.set_concentrations({k[5:]: [v[0]] * n for k, v in ic.items() if k.startswith("CONC.") and k[5:] in sp})
        prm = {k: [v[0]] * n for k, v in ic.items() if k in up}
        for k, v in ic.items():
            if k.startswith("SURF."):
                prm[k + ".effective radius [m]"] = [v[0]] * n; prm[k + ".particle number concentration [# m-3]"] = [v[1]] * n
        st.set_user_defined_rate_parameters(prm)
        t0 = time.perf_counter(); k, f = integrate(solver, st, 60.0, 600.0); w = time.perf_counter() - t0
        print(f"{stype.name} cells={n}: 10 min @ 60 s, accepted={k}, wall={w:.3f}s, {w/n*1e3:.3f} ms/cell")
