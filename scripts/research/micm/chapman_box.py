"""Tiny MICM box model via musica 0.17.2 on the v1 Chapman mechanism (one and several cells)."""
import time
import musica
from musica.micm.solver_result import SolverState
from musica.constants import GAS_CONSTANT, AVOGADRO

CFG = "/work/shared/data/atmospheric/micm/musica-configs/v1/chapman/config.json"

def run(n_cells, solver_type, dt=60.0, t_end=3600.0, verbose=True):
    params = (musica.micm.RosenbrockSolverParameters(relative_tolerance=1e-6)
              if "rosenbrock" in solver_type.name else None)
    solver = musica.MICM(config_path=CFG, solver_type=solver_type, solver_parameters=params)
    state = solver.create_state(n_cells)
    T = [206.6374207 + 2.0 * i for i in range(n_cells)]          # K
    P = [6152.049805] * n_cells                                   # Pa
    state.set_conditions(temperatures=T, pressures=P)             # air density = P/(R T) [mol m-3]
    rho = state.get_conditions()["air_density"]
    conc = {"N2": [0.78084 * r for r in rho], "O2": [0.20946 * r for r in rho],
            "O3": [8.1e-6] * n_cells, "O": [0.0] * n_cells, "O1D": [0.0] * n_cells}   # mol m-3
    state.set_concentrations(conc)
    state.set_user_defined_rate_parameters({"PHOTO.jo2_b": [1.0e-11] * n_cells,   # s-1
                                            "PHOTO.jo3_a": [1.0e-3] * n_cells,
                                            "PHOTO.jo3_b": [1.0e-5] * n_cells})
    t, steps, t0 = 0.0, 0, time.perf_counter()
    while t < t_end:
        elapsed = 0.0
        while elapsed < dt:                      # MICM may return before the full step
            res = solver.solve(state, dt - elapsed)
            elapsed += res.stats.final_time
            steps += res.stats.accepted
            if res.state != SolverState.Converged:
                print("  not converged:", res.state)
        t += dt
    wall = time.perf_counter() - t0
    c = state.get_concentrations()
    if verbose:
        print(f"{solver_type.name} cells={n_cells}: air density={rho[0]:.6g} mol m-3, "
              f"O3={c['O3'][0]:.6e} O={c['O'][0]:.6e} O1D={c['O1D'][0]:.6e} mol m-3; "
              f"accepted steps={steps}; wall={wall*1e3:.1f} ms; last stats: {res.stats}")
    return c

if __name__ == "__main__":
    print("musica", musica.__version__, "micm", musica.micm.__version__, "vector size",
          musica.micm.micm.vector_size(musica.SolverType.rosenbrock))
    run(1, musica.SolverType.rosenbrock_standard_order)
    a = run(4, musica.SolverType.rosenbrock_standard_order)
    b = run(4, musica.SolverType.rosenbrock)   # vector-ordered (4 cells per group)
    print("max rel diff standard vs vector order:",
          max(abs(a[k][i] - b[k][i]) / max(abs(a[k][i]), 1e-300) for k in a for i in range(4)))
    be = run(1, musica.SolverType.backward_euler_standard_order)
