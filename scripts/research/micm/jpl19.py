import math, sys
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import formulas; formulas.VERSION = "1.4.0"
from formulas import k_from_micm, T, rho
p = dict(k0_A=2.0, k0_B=-2.1, k0_C=30.0, k0_D=298.0, kinf_A=0.5, kinf_B=1.3, kinf_C=-20.0, kinf_D=290.0,
         kint_A=0.3, kint_B=0.5, kint_C=-65.0, kint_D=298.0, Fc=0.6, N=1.3)
rx = dict(type="TERNARY_CHEMICAL_ACTIVATION_JPL19", reactants=[{"species name": "A"}], products=[{"species name": "B"}], **p)
k = k_from_micm(rx)
arr = lambda A, B, C, D: A * math.exp(C / T) * (T / D) ** B
k0, ki, kint = arr(p["k0_A"], p["k0_B"], p["k0_C"], p["k0_D"]), arr(p["kinf_A"], p["kinf_B"], p["kinf_C"], p["kinf_D"]), arr(p["kint_A"], p["kint_B"], p["kint_C"], p["kint_D"])
r = k0 * rho / ki
for Nform, expo in [("N/(N+log^2)", p["N"] / (p["N"] + math.log10(r) ** 2)), ("1/(1+(log/N)^2)", 1 / (1 + (math.log10(r) / p["N"]) ** 2))]:
    kf = k0 * rho / (1 + r) * p["Fc"] ** expo
    print(f"{Nform}: kf + kint(1-kf/kinf) = {kf + kint * (1 - kf / ki):.10e}   kf={kf:.4e} kint={kint:.4e}")
print(f"micm k = {k:.10e}")
