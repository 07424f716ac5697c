#!/usr/bin/env python3
"""Opcode histogram of the largest backward-branch loop of each function in a cuobjdump -sass dump (stdin)."""
import re, sys, collections
funcs = {}
cur = None
for ln in sys.stdin:
    m = re.match(r"\s+Function : (\S+)", ln)
    if m:
        cur = m.group(1); funcs[cur] = []; continue
    m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9._]*)\s*([^;]*);", ln)
    if m and cur:
        funcs[cur].append((int(m.group(1), 16), m.group(3), m.group(4)))
for f, ins in funcs.items():
    best = None
    for a, op, args in ins:
        if op.startswith("BRA"):
            t = re.search(r"0x([0-9a-f]+)", args)
            if t and int(t.group(1), 16) < a:
                lo = int(t.group(1), 16)
                n = sum(1 for x in ins if lo <= x[0] <= a)
                if best is None or n > best[2]: best = (lo, a, n)
    if not best: continue
    lo, hi, n = best
    h = collections.Counter(op.split(".")[0] for a, op, _ in ins if lo <= a <= hi)
    print(f"{f}: loop {n} instructions; total {len(ins)}")
    print("   " + " ".join(f"{k}:{v}" for k, v in h.most_common(24)))
