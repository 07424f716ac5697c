import musica, musica.micm as mm
from musica.mechanism_configuration import parse
R = "/work/shared/data/atmospheric/micm/musica-configs"
for label, path in [("v1 chapman json", R+"/v1/chapman/config.json"), ("v1 chapman yaml", R+"/v1/chapman/config.yaml"),
                    ("v0 chapman dir", R+"/v0/chapman"), ("v1 full_configuration", R+"/v1/full_configuration/full_configuration.json"),
                    ("v0 TS1 dir", R+"/v0/TS1"), ("v1 ts1", R+"/v1/ts1/ts1.json"), ("v0 cb5", R+"/v0/carbon_bond_5"),
                    ("v0 surface", R+"/v0/surface"), ("v0 analytical", R+"/v0/analytical"), ("v0 robertson", R+"/v0/robertson"),
                    ("v1 analytical", R+"/v1/analytical/config.json"), ("v1 miem_nox", R+"/v1/miem_nox/mechanism.json"), ("v1 t1s2", R+"/v1/ts1/t1s2.json")]:
    try:
        s = musica.MICM(config_path=path, solver_type=musica.SolverType.rosenbrock_standard_order)
        st = s.create_state(1)
        sp = st.get_species_ordering(); up = st.get_user_defined_rate_parameters_ordering()
        print(f"{label}: config_path OK; {len(sp)} state species; {len(up)} rate params")
        if len(sp) < 12: print("   species:", sp)
        if len(up) < 12: print("   params:", up)
        else:
            import collections
            print("   param prefixes:", collections.Counter(k.split('.')[0] for k in up), "e.g.", [k for k in up if k.startswith('SURF')][:2])
    except Exception as e:
        print(f"{label}: config_path FAILED {type(e).__name__}: {str(e)[:300]}")
    try:
        mech = parse(path)
        print(f"   parse() OK: version={mech.version}, species={len(mech.species)}")
    except Exception as e:
        print(f"   parse() FAILED {type(e).__name__}: {str(e)[:200]}")
