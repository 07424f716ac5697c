#!/usr/bin/env python3
"""Throwaway: statistics over KPP mechanism files (not part of opsplit)."""
import re, os, sys, collections

KPP_MODELS = '/work/shared/tools/kpp/models'

def resolve(name, cwd):
    # mimic FileName(): as given (relative to cwd), then $KPP_HOME/models; no ext added for #INCLUDE
    for p in (os.path.join(cwd, name), os.path.join(KPP_MODELS, name)):
        if os.path.exists(p):
            # models/atoms in this copy is a text file "atoms.kpp" (flattened symlink)
            if os.path.basename(p) == 'atoms' and open(p).read().strip() == 'atoms.kpp':
                p = os.path.join(KPP_MODELS, 'atoms.kpp')
            return p
    raise FileNotFoundError(name)

def strip_comments(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '{':
            j = text.find('}', i)
            out.append(' ' if j < 0 else '\n' * text.count('\n', i, j))
            i = n if j < 0 else j + 1
        elif text.startswith('//', i):
            j = text.find('\n', i); i = n if j < 0 else j
        else:
            out.append(c); i += 1
    return ''.join(out)

def load(path, cwd, files):
    """Return list of (command, body) with includes expanded; INLINE bodies raw."""
    files.append(path)
    raw = open(path).read()
    sections = []
    # INLINE blocks are raw text (comments not stripped inside them in KPP)
    pos = 0
    pat = re.compile(r'#INLINE\s+(\S+)(.*?)#ENDINLINE', re.S | re.I)
    chunks = []
    for m in pat.finditer(raw):
        chunks.append(('text', raw[pos:m.start()]))
        chunks.append(('inline', (m.group(1), m.group(2))))
        pos = m.end()
    chunks.append(('text', raw[pos:]))
    for kind, val in chunks:
        if kind == 'inline':
            sections.append(('INLINE', val)); continue
        t = strip_comments(val)
        parts = t.split('#')
        if parts[0].strip():
            sections.append(('?PRE', parts[0]))
        for p in parts[1:]:
            m = re.match(r'(\S+)(.*)', p, re.S)
            if not m: continue
            cmd, body = m.group(1).upper(), m.group(2)
            if cmd == 'INCLUDE':
                arg = body.split()[0]
                sections.extend(load(resolve(arg, cwd), cwd, files))
                rest = body.split(None, 1)
            elif cmd in ('MODEL',):
                arg = body.split()[0]
                sections.extend(load(resolve(arg + '.def' if '.' not in arg else arg, cwd), cwd, files))
            else:
                sections.append((cmd, body))
    return sections

NUM = r'(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?'

def parse_terms(side):
    terms = []
    for tok in re.findall(r'[+-]?\s*[^+\-\s][^+]*?(?=\s*[+]|\s*$)', side.strip()):
        pass
    # simpler: split on + (KPP also allows '-' as sign; not used in these models)
    for t in [x.strip() for x in side.split('+') if x.strip()]:
        m = re.match(r'^(' + NUM + r')?\s*(\*)?\s*([A-Za-z_][A-Za-z_0-9]*)$', t)
        if not m:
            terms.append(('??', t, None)); continue
        terms.append((m.group(3), float(m.group(1)) if m.group(1) else 1.0, m.group(2)))
    return terms

def analyse(top):
    cwd = os.path.dirname(top)
    files = []
    secs = load(top, cwd, files)
    st = collections.OrderedDict()
    st['files'] = [os.path.relpath(f, '/work/shared') for f in files]
    st['directives'] = collections.Counter(c for c, _ in secs)
    inl = [v[0].upper() for c, v in secs if c == 'INLINE']
    st['inline_keys'] = collections.Counter(inl)
    defvar, deffix, atoms = [], [], []
    eqs = []
    for c, b in secs:
        if c in ('DEFVAR', 'DEFFIX'):
            for d in [x.strip() for x in b.split(';') if x.strip()]:
                name = d.split('=')[0].strip()
                (defvar if c == 'DEFVAR' else deffix).append(name)
        elif c == 'ATOMS':
            atoms += [x.strip() for x in b.split(';') if x.strip()]
        elif c == 'EQUATIONS':
            # statements end with ';' (rate terminator)
            for s in [x.strip() for x in b.split(';') if x.strip()]:
                eqs.append(' '.join(s.split()))
    st['atoms'] = len(atoms)
    st['n_defvar'] = len(defvar); st['n_deffix'] = len(deffix)
    up = [x.upper() for x in defvar + deffix]
    st['dup_species'] = [k for k, v in collections.Counter(up).items() if v > 1]
    st['n_eq'] = len(eqs)
    used = set(); reactants_used = set()
    rate_funcs = collections.Counter(); rate_idents = collections.Counter()
    forms = collections.Counter(); tags = []
    hv = 0; noreact = 0; coef_react = 0; fracs = 0; star_coef = 0; nprod0 = 0
    maxreact = 0; bad = []; lhs_fix = 0; number_rates = 0; prod_dummy = 0
    hard = []
    for e in eqs:
        m = re.match(r'^(?:<\s*([A-Za-z_0-9]+)\s*>)?\s*(.*?)=(.*?):(.*)$', e)
        if not m: bad.append(e); continue
        tag, lhs, rhs, rate = m.groups()
        if tag: tags.append(tag)
        L = parse_terms(lhs); R = parse_terms(rhs)
        for s, c, star in L + R:
            if s == '??': bad.append(e); continue
            if star: star_coef += 1
            if c != int(c): fracs += 1
            used.add(s.upper())
        Lr = [t for t in L if t[0].upper() not in ('HV',)]
        if any(t[0].upper() == 'HV' for t in L): hv += 1
        if not Lr: noreact += 1
        if any(t[1] != 1.0 for t in L): coef_react += 1
        if any(t[0].upper() in [x.upper() for x in deffix] for t in L): lhs_fix += 1
        if any(t[0].upper() == 'PROD' for t in R): prod_dummy += 1
        if not R: nprod0 += 1
        maxreact = max(maxreact, len(Lr))
        for s, _, _ in Lr: reactants_used.add(s.upper())
        r = rate.replace(' ', '')
        try:
            float(r); number_rates += 1
        except ValueError:
            pass
        for f in re.findall(r'([A-Za-z_][A-Za-z_0-9]*)\s*\(', r):
            rate_funcs[f] += 1
        for idn in re.findall(r'(?<![0-9.])([A-Za-z_][A-Za-z_0-9]*)(?!\s*\()', r):
            # skip exponent letters of numbers like 1.0E-3 handled by lookbehind on digits
            rate_idents[idn] += 1
        # form signature: numbers -> N, identifiers kept
        sig = re.sub(NUM, 'N', r)
        forms[sig] += 1
        hard.append((len(r), tag, r))
    st['n_tags'] = len(tags); st['dup_tags'] = [k for k, v in collections.Counter(tags).items() if v > 1]
    st['species_used'] = len(used - {'HV', 'PROD'})
    decl = set(up)
    st['declared_unused'] = sorted(decl - used)
    st['used_undeclared'] = sorted(used - decl - {'HV', 'PROD'})
    st['hv_reactions'] = hv; st['no_reactant_reactions'] = noreact
    st['reactant_coef_ne1'] = coef_react; st['fractional_coef_terms'] = fracs
    st['star_coef_terms'] = star_coef; st['max_reactants'] = maxreact
    st['reactions_with_fixed_reactant'] = lhs_fix; st['pure_number_rates'] = number_rates
    st['PROD_dummy_products'] = prod_dummy
    st['unparsed'] = bad[:5]
    st['rate_functions'] = rate_funcs
    st['rate_identifiers'] = rate_idents
    st['n_rate_forms'] = len(forms)
    st['top_forms'] = forms.most_common(25)
    st['longest'] = sorted(hard, reverse=True)[:6]
    st['var_unused_as_reactant'] = len([s for s in defvar if s.upper() not in reactants_used])
    return st

if __name__ == '__main__':
    base = '/work/shared/data/atmospheric/kpp'
    for top in (base + '/small_strato.def', base + '/saprc99.def', base + '/mcm/mcm.kpp'):
        print('=' * 30, top)
        for k, v in analyse(top).items():
            if isinstance(v, collections.Counter):
                v = dict(v.most_common())
            print(f'{k}: {v}')
