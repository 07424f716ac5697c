import math, os, json, tempfile
import musica
from musica.constants import GAS_CONSTANT
R = "/work/shared/data/atmospheric/micm/musica-configs"
T, P = 250.0, 50000.0; rho = P / (GAS_CONSTANT * T)

def write(text, ext):
    d = tempfile.mkdtemp(); p = os.path.join(d, "c." + ext); open(p, "w").write(text); return p

def decay(path, conc, params=None, dt=1e-3, tol=True):
    s = musica.MICM(config_path=path, solver_type=musica.SolverType.rosenbrock_standard_order)
    st = s.create_state(1)
    if tol:
        n = len(st.get_species_ordering())
        s.set_solver_parameters(musica.micm.RosenbrockSolverParameters(relative_tolerance=1e-12, absolute_tolerances=[1e-30] * n))
        st = s.create_state(1)
    st.set_conditions(temperatures=T, pressures=P)
    st.set_concentrations(conc)
    if params: st.set_user_defined_rate_parameters(params)
    t = 0.0
    while t < dt: t += s.solve(st, dt - t).stats.final_time
    return st.get_species_ordering(), {k: v[0] for k, v in st.get_concentrations().items()}

def try_(label, f):
    try: print(label, "->", f())
    except Exception as e: print(label, "-> ERROR", type(e).__name__, str(e)[:250].replace("\n", " | "))

# 1. fractional reactant coefficient: A + 1.5 B? use A with coefficient 1.5 -> rate k[A]^n
frac = """version: 1.0.0
species: [{name: A}, {name: B}]
phases: [{name: gas, species: [A, B]}]
reactions:
  - type: ARRHENIUS
    gas phase: gas
    A: 1.0
    reactants: [{species name: A, coefficient: 1.5}]
    products: [{species name: B, coefficient: 1}]
"""
def f1():
    _, c = decay(write(frac, "yaml"), {"A": 0.5, "B": 0.0})
    dA = 0.5 - c["A"]; dB = c["B"]
    return f"dA={dA:.4e} dB={dB:.4e}; k[A]^2*dt*2={2*0.25e-3:.4e} (2 copies of A), k[A]*dt*1.5={1.5*0.5e-3:.4e}"
try_("reactant coefficient 1.5", f1)
bare = frac.replace("reactants: [{species name: A, coefficient: 1.5}]", "reactants: [A]")
try_("bare-string reactant", lambda: decay(write(bare, "yaml"), {"A": 1.0})[1])
# 2. YAML anchors / aliases + bare-string components + 'name' instead of 'species name'
anch = """version: 1.1.0
species: [{name: A}, {name: B}]
phases: [{name: gas, species: [A, B]}]
common: &arr {A: 2.0, C: -100.0}
reactions:
  - type: ARRHENIUS
    gas phase: gas
    <<: *arr
    reactants: [{species name: A}]
    products: [{name: B, coefficient: 1}]
"""
try_("yaml anchors + unknown top-level key", lambda: decay(write(anch, "yaml"), {"A": 1.0})[1])
anch2 = anch.replace("common: &arr {A: 2.0, C: -100.0}\n", "").replace("    <<: *arr\n", "    A: &a 2.0\n    C: -100.0\n    D: *a\n")
try_("yaml scalar anchor, bare-string reactant, 'name' key", lambda: (lambda c: f"k={-math.log(c['A'])/1e-3:.6f} expect {2*math.exp(-100/T)*(T/2.0)**0:.6f}")(decay(write(anch2, "yaml"), {"A": 1.0})[1]))
# 3. duplicate species
dup = frac.replace("species: [{name: A}, {name: B}]", "species: [{name: A}, {name: B}, {name: A}]").replace("coefficient: 1.5", "coefficient: 1")
try_("duplicate species", lambda: decay(write(dup, "yaml"), {"A": 1.0})[0])
# 4. unknown key without __
bad = frac.replace("    A: 1.0\n", "    A: 1.0\n    foo: 3\n").replace("coefficient: 1.5", "coefficient: 1")
try_("unknown reaction key 'foo'", lambda: decay(write(bad, "yaml"), {"A": 1.0})[0])
# 5. constant concentration / mixing ratio species as reactants
const = json.dumps({"version": "1.0.0", "species": [{"name": "A"}, {"name": "B"}, {"name": "K", "constant concentration [mol m-3]": 2.0},
   {"name": "X", "constant mixing ratio [mol mol-1]": 0.1}], "phases": [{"name": "gas", "species": ["A", "B", "K", "X"]}],
   "reactions": [{"type": "ARRHENIUS", "gas phase": "gas", "A": 1.0, "reactants": [{"name": "A"}, {"name": "K"}], "products": [{"name": "B"}]},
                 {"type": "ARRHENIUS", "gas phase": "gas", "A": 1.0, "reactants": [{"name": "B"}, {"name": "X"}], "products": [{"name": "A"}]}]})
def f5():
    sp, c = decay(write(const, "json"), {"A": 1.0, "B": 0.0})
    return f"state species={sorted(sp)}; dB={c['B']:.6e} expect ~{2.0*1e-3:.6e} (k*[K]*dt), X=0.1*rho={0.1*rho:.4f}"
try_("constant concentration / mixing ratio", f5)
# 6. v0 robertson r3 (PHOTOLYSIS with two reactants B + C -> A + C)
def f6():
    _, c = decay(R + "/v0/robertson", {"A": 0.0, "B": 1e-3, "C": 0.5}, {"PHOTO.r1": 0.0, "PHOTO.r2": 0.0, "PHOTO.r3": 1.0})
    return f"dA={c['A']:.4e}; k[B][C]dt={1e-3*0.5*1e-3:.4e}, k[B]dt={1e-3*1e-3:.4e}"
try_("v0 robertson r3 (2-reactant PHOTOLYSIS)", f6)
def f6b():
    _, c = decay(R + "/v0/robertson", {"A": 0.0, "B": 1e-2, "C": 0.0}, {"PHOTO.r1": 0.0, "PHOTO.r2": 1.0, "PHOTO.r3": 0.0})
    return f"dC={c['C']:.4e}; k[B]^2 dt={1e-4*1e-3:.4e}"
try_("v0 robertson r2 (B qty 2)", f6b)
# 7. v0 chapman O2 'tracer type: CONSTANT'
def f7():
    sp, c = decay(R + "/v0/chapman", {"O2": 1.0, "O3": 1e-5, "O": 0.0, "O1D": 0.0}, {"PHOTO.jO2": 1e-2, "PHOTO.jO3->O": 0.0, "PHOTO.jO3->O1D": 0.0}, dt=10.0)
    return f"O2 after 10 s with jO2=1e-2: {c['O2']:.6f}"
try_("v0 chapman O2 CONSTANT", f7)
# 8. v0 Arrhenius A conversion: analytical R1 A=0.004 (1 reactant, unchanged); chapman R2 A=8.018e-17 -> *6.022e17
p8 = musica.mechanism_configuration.parse(R + "/v0/chapman")
try_("v0 chapman parsed arrhenius A values", lambda: [(r.A, [(x.name if hasattr(x,'name') else str(x)) for x in r.reactants]) for r in p8.reactions.arrhenius] if hasattr(p8.reactions, 'arrhenius') else dir(p8.reactions))
