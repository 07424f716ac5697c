import re, collections, sys
sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from kppstats import load, os
TOK = re.compile(r'\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?)|(?P<id>[A-Za-z_][A-Za-z_0-9]*)|(?P<op>\*\*|[-+*/(),]))')
def tokens(s):
    pos = 0; out = []
    s = s.strip()
    while pos < len(s):
        m = TOK.match(s, pos)
        if not m or m.end() == pos: raise ValueError('bad char at %r' % s[pos:])
        kind = m.lastgroup; out.append((kind, m.group(kind))); pos = m.end()
    return out
base = '/work/shared/data/atmospheric/kpp'
for top in (base + '/small_strato.def', base + '/saprc99.def', base + '/mcm/mcm.kpp'):
    secs = load(top, os.path.dirname(top), [])
    eqs = []
    for c, b in secs:
        if c == 'EQUATIONS':
            eqs += [' '.join(x.split()) for x in b.split(';') if x.strip()]
    funcs = collections.Counter(); ids = collections.Counter(); ops = collections.Counter(); nums = collections.Counter()
    forms = collections.Counter(); funcs_rxn = collections.Counter(); ids_rxn = collections.Counter()
    numfmt = collections.Counter(); maxdepth = 0; pow_neg = 0
    examples = {}
    for e in eqs:
        rate = e.split(':', 1)[1]
        t = tokens(rate)
        sig = []
        fr = set(); ir = set(); depth = 0
        for i, (k, v) in enumerate(t):
            if k == 'id':
                if i + 1 < len(t) and t[i + 1] == ('op', '('):
                    funcs[v] += 1; fr.add(v)
                else:
                    ids[v] += 1; ir.add(v)
                sig.append(v)
            elif k == 'num':
                nums[v] += 1; sig.append('N')
                f = ('trailing-dot ' if re.match(r'^\d+\.(?!\d)', v) else '') + ('exp-E ' if re.search('[eE]', v) else '') + ('exp-D ' if re.search('[dD]', v) else '') + ('no-dot-int' if re.match(r'^\d+$', v) else '')
                numfmt[f.strip() or 'plain-decimal'] += 1
            else:
                ops[v] += 1; sig.append(v)
                if v == '(': depth += 1; maxdepth = max(maxdepth, depth)
                if v == ')': depth -= 1
                if v == '**' and i + 2 < len(t) and t[i+1] == ('op','(') and t[i+2] == ('op','-'): pow_neg += 1
        s = ''.join(sig); forms[s] += 1; examples.setdefault(s, rate.strip())
        for f in fr: funcs_rxn[f] += 1
        for f in ir: ids_rxn[f] += 1
    print('=' * 20, top, len(eqs), 'eqs')
    print('functions (calls):', dict(funcs.most_common()))
    print('functions (#reactions using):', dict(funcs_rxn.most_common()))
    print('identifiers (#reactions using):', dict(ids_rxn.most_common()))
    print('operators:', dict(ops.most_common())); print('pow with negative parenthesised exponent:', pow_neg)
    print('number formats:', dict(numfmt.most_common())); print('max paren depth', maxdepth)
    print('distinct forms:', len(forms))
    for s, n in forms.most_common(200 if 'mcm' in top else 30):
        print('  %5d  %-60s e.g. %s' % (n, s, examples[s]))
