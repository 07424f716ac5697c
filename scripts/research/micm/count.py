import json, yaml, os, sys, collections, glob
ROOT = "/work/shared/data/atmospheric/micm/musica-configs"
EX = "/work/shared/data/atmospheric/micm/examples"

def load(p):
    with open(p) as f:
        return yaml.safe_load(f) if p.endswith(('.yaml', '.yml')) else json.load(f)

def v1_report(path):
    d = load(path)
    base = os.path.dirname(path)
    def expand(key):
        v = d.get(key, [])
        if isinstance(v, dict) and 'files' in v:
            out = []
            for f in v['files']:
                out += load(os.path.join(base, f))
            return out
        return v
    sp = expand('species'); ph = expand('phases'); rx = expand('reactions')
    types = collections.Counter(r['type'] for r in rx)
    feats = collections.Counter()
    for s in sp:
        for k in s:
            if k != 'name': feats['species:' + k] += 1
    names = [s['name'] for s in sp]
    dup = [n for n, c in collections.Counter(names).items() if c > 1]
    frac = 0; multi = 0; named = 0; sf = 0; ea = 0; anyD = 0; anyE = 0; nocoef = 0
    keys = collections.Counter()
    for r in rx:
        for k in r: keys[r['type'] + ':' + k] += 1
        comps = []
        for k in ('reactants', 'products', 'alkoxy products', 'nitrate products', 'gas-phase products'):
            v = r.get(k)
            if isinstance(v, dict): v = [v]
            comps += v or []
        for c in comps:
            co = c.get('coefficient', None)
            if co is None: nocoef += 1
            elif float(co) != int(float(co)): frac += 1
            elif float(co) > 1: multi += 1
        if 'name' in r: named += 1
        if 'scaling factor' in r: sf += 1
        if 'Ea' in r: ea += 1
    print(f"== {os.path.relpath(path, ROOT) if path.startswith(ROOT) else path}: version={d.get('version')} name={d.get('name')!r}")
    print(f"   species={len(sp)} phases={[(p['name'], len(p.get('species', []))) for p in ph]} reactions={len(rx)} dup_species={dup}")
    print(f"   types={dict(types)}")
    print(f"   species attrs={dict(feats)}")
    print(f"   components: fractional coeff={frac} integer>1={multi} no-coeff={nocoef}; named rxns={named}; scaling factor={sf}; Ea={ea}")
    extra = sorted(set(d) - {'version', 'name', 'species', 'phases', 'reactions'})
    if extra: print(f"   other top-level keys={extra}")
    return keys

def v0_report(folder):
    cfg = load(os.path.join(folder, 'config.json'))
    files = cfg['camp-files']
    data = []
    for f in files:
        data += load(os.path.join(folder, f))['camp-data']
    chem = [x for x in data if x['type'] == 'CHEM_SPEC']
    rel = [x for x in data if x['type'] == 'RELATIVE_TOLERANCE']
    mechs = [x for x in data if x['type'] == 'MECHANISM']
    rx = [r for m in mechs for r in m['reactions']]
    types = collections.Counter(r['type'] for r in rx)
    feats = collections.Counter(k for s in chem for k in s if k not in ('name', 'type'))
    tb = [s['name'] for s in chem if s.get('tracer type') == 'THIRD_BODY' or s.get('__is third body')]
    keys = collections.Counter(r['type'] + ':' + k for r in rx for k in r)
    print(f"== v0/{os.path.basename(folder)}: camp-files={files} mechanisms={[m['name'] for m in mechs]}")
    print(f"   CHEM_SPEC={len(chem)} RELATIVE_TOLERANCE={[x.get('value') for x in rel]} other camp-data types={sorted(set(x['type'] for x in data) - {'CHEM_SPEC','MECHANISM','RELATIVE_TOLERANCE'})}")
    print(f"   reactions={len(rx)} types={dict(types)}")
    print(f"   species attrs={dict(feats)}")
    frac = sum(1 for r in rx for sect in ('reactants', 'products') for s, v in (r.get(sect) or {}).items()
               if isinstance(v, dict) and ('yield' in v or 'qty' in v) and float(v.get('yield', v.get('qty', 1))) != int(float(v.get('yield', v.get('qty', 1)))))
    qty = sum(1 for r in rx for s, v in (r.get('reactants') or {}).items() if isinstance(v, dict) and 'qty' in v)
    print(f"   fractional yields={frac} reactants with qty={qty}")
    return keys

allkeys = collections.Counter()
for f in sorted(glob.glob(ROOT + "/v0/*")):
    allkeys += v0_report(f)
for f in ["v1/chapman/config.json", "v1/chapman/config.yaml", "v1/analytical/config.json", "v1/emissions/config.json",
          "v1/full_configuration/full_configuration.json", "v1/full_configuration/full_configuration.yaml",
          "v1/cam_cloud_chemistry/config.json", "v1/miem_nox/mechanism.json", "v1/ts1/ts1.json", "v1/ts1/t1s2.json"]:
    try:
        allkeys += v1_report(os.path.join(ROOT, f))
    except Exception as e:
        print("!!", f, type(e).__name__, e)
for f in [EX + "/v1/config/json/main.json", EX + "/v1/config/yaml/main.yaml", EX + "/v1/full_configuration.json"]:
    try: v1_report(f)
    except Exception as e: print("!!", f, type(e).__name__, e)
if '-k' in sys.argv:
    for k, c in sorted(allkeys.items()): print(f"   key {k}: {c}")
