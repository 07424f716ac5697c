"""TS1 box model via musica: v1 ts1.json vs v0 TS1 folder, same inputs; timing for 1 and N cells."""
import csv, sys, time
import musica
from musica.micm.solver_result import SolverState
R = "/work/shared/data/atmospheric/micm/musica-configs"

def read_ic(path):
    rows = {}
    for r in csv.reader(open(path)):
        if r: rows[r[0]] = [float(x) for x in r[1:] if x != ""]
    return rows

def setup(cfg, n, ic, atol=None, rtol=1e-6):
    p = musica.micm.RosenbrockSolverParameters(relative_tolerance=rtol, absolute_tolerances=atol)
    solver = musica.MICM(config_path=cfg, solver_type=musica.SolverType.rosenbrock_standard_order)
    st0 = solver.create_state(1)
    nsp = len(st0.get_species_ordering())
    if atol is not None:
        p.absolute_tolerances = [atol] * nsp
    solver.set_solver_parameters(p)          # before create_state: tolerances are copied into new states
    st = solver.create_state(n)
    st.set_conditions(temperatures=[ic["ENV.temperature"][0]] * n, pressures=[ic["ENV.pressure"][0]] * n)
    sp = st.get_species_ordering(); up = st.get_user_defined_rate_parameters_ordering()
    st.set_concentrations({k[5:]: [v[0]] * n for k, v in ic.items() if k.startswith("CONC.") and k[5:] in sp})
    params = {}
    for k, v in ic.items():
        if k.startswith(("PHOTO.", "USER.")) and k in up:
            params[k] = [v[0]] * n
        elif k.startswith("SURF.") and k + ".effective radius [m]" in up:
            params[k + ".effective radius [m]"] = [v[0]] * n
            params[k + ".particle number concentration [# m-3]"] = [v[1]] * n
    st.set_user_defined_rate_parameters(params)
    unset = sorted(set(up) - set(params))
    return solver, st, unset

def integrate(solver, st, dt, t_end):
    t = 0.0; nsteps = 0; nfail = 0
    while t < t_end - 1e-9:
        el = 0.0
        while el < dt - 1e-9:
            r = solver.solve(st, dt - el)
            el += r.stats.final_time; nsteps += r.stats.accepted
            if r.state != SolverState.Converged: nfail += 1
        t += dt
    return nsteps, nfail

if __name__ == "__main__":
    ic1 = read_ic(R + "/v0/TS1/initial_conditions.csv")     # has ENV, USER.het*, USER.usr_*, SURF (13), PHOTO
    out = {}
    for label, cfg in [("v1", R + "/v1/ts1/ts1.json"), ("v0", R + "/v0/TS1")]:
        s, st, unset = setup(cfg, 1, ic1)
        print(label, "unset params:", unset, "conditions:", {k: v[0] for k, v in st.get_conditions().items()})
        t0 = time.perf_counter(); n, f = integrate(s, st, 60.0, 3600.0); w = time.perf_counter() - t0
        out[label] = st.get_concentrations()
        c = out[label]
        print(f"{label}: 1 cell 1 h dt=60s: accepted={n} failed={f} wall={w:.3f}s O3={c['O3'][0]:.6e} OH={c['OH'][0]:.6e} NO={c['NO'][0]:.6e}")
    d = max(abs(out['v0'][k][0] - out['v1'][k][0]) / max(abs(out['v1'][k][0]), 1e-30) for k in out['v1'])
    print("max rel diff v0 vs v1 TS1 after 1 h:", d)
    for n in [1, 16, 256]:
        s, st, _ = setup(R + "/v1/ts1/ts1.json", n, ic1)
        t0 = time.perf_counter(); k, f = integrate(s, st, 60.0, 600.0); w = time.perf_counter() - t0
        print(f"v1 TS1 rosenbrock_standard_order cells={n}: 10 min @60 s: accepted={k} wall={w:.3f}s -> {w/n*1e3:.3f} ms/cell")
