#!/usr/bin/env python3
"""Prints the conformance table (Markdown) from conformance/results/*.json:
one row per scenario, the outcomes that matched and those that differed, and the
per-outcome totals. usage: python3 conformance/table.py"""
import glob
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
OUTCOMES = ['rebalances', 'generations', 'leader', 'assignment', 'callbacks', 'errors', 'times']
rows = []
totals = {o: [0, 0] for o in OUTCOMES}
for path in sorted(glob.glob(f"{here}/results/*.json")):
    name = os.path.basename(path)[:-5]
    res = json.load(open(path))
    desc = json.load(open(f"{here}/scenarios/{name}.json")).get('description', '')
    matched = [o for o in OUTCOMES if res.get(o, {}).get('status') == 'match']
    differed = [o for o in OUTCOMES if res.get(o, {}).get('status') == 'differ']
    for o in matched:
        totals[o][0] += 1
    for o in differed:
        totals[o][1] += 1
    rows.append(f"| `{name}` | {desc} | {', '.join(matched) or '-'} | {', '.join(differed) or '-'} |")
print("| scenario | what happens | matched | differed |")
print("|---|---|---|---|")
print('\n'.join(rows))
print()
print("| outcome | matched | differed | not compared |")
print("|---|---|---|---|")
n = len(rows)
for o in OUTCOMES:
    m, d = totals[o]
    print(f"| {o} | {m} | {d} | {n - m - d} |")
full = sum(1 for p in glob.glob(f"{here}/results/*.json")
           if all(v.get('status') != 'differ' for v in json.load(open(p)).values()))
print()
print(f"{full} of {n} scenarios match on every compared outcome.")
