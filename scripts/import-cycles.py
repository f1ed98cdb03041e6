#!/usr/bin/env python3
"""Lists import cycles between the files of the simulation core (src/sim).

A file imports another when it names a path into it (`use crate::sim::a::b`,
`super::x`, `crate::sim::a::b::Item` in code). Prints each cycle found and
exits 1 if there is any; run by scripts/test.sh."""
import os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'sim')
files = {}
for d, _, fs in os.walk(ROOT):
    for f in fs:
        if f.endswith('.rs'):
            p = os.path.relpath(os.path.join(d, f), ROOT)
            mod = p[:-3].replace(os.sep, '::')
            mod = mod[:-len('::mod')] if mod.endswith('::mod') else ('' if mod == 'mod' else mod)
            files[mod] = os.path.join(d, f)

def resolve(segments):
    """The longest module prefix of `segments` that is a file."""
    for n in range(len(segments), -1, -1):
        m = '::'.join(segments[:n])
        if m in files:
            return m
    return None

graph = {m: set() for m in files}
path_re = re.compile(r'\b(crate::sim|super(?:::super)*)((?:::\w+)+)')
group_re = re.compile(r'\b(crate::sim|super(?:::super)*)((?:::\w+)*)::\{([^}]*)\}')
for mod, path in files.items():
    text = open(path).read()
    # Test modules inside a file refer to the file itself with `super`.
    text = re.split(r'#\[cfg\(test\)\]\s*mod tests', text)[0]
    here = mod.split('::') if mod else []
    is_dir = path.endswith('mod.rs')
    def base(prefix):
        if prefix == 'crate::sim':
            return []
        ups = prefix.count('super')
        parent = here if is_dir else here[:-1]
        return parent[:len(parent) - (ups - 1)] if ups > 1 else parent
    targets = []
    for m in group_re.finditer(text):
        b = base(m.group(1)) + [s for s in m.group(2).split('::') if s]
        for item in m.group(3).split(','):
            item = item.strip().split(' as ')[0]
            if item and item != 'self':
                targets.append(b + [s for s in item.split('::') if s])
            elif item == 'self':
                targets.append(b)
    for m in path_re.finditer(text):
        targets.append(base(m.group(1)) + [s for s in m.group(2).split('::') if s])
    for t in targets:
        r = resolve(t)
        if r is not None and r != mod and not mod.startswith(r + '::') and r != '':
            graph[mod].add(r)

# Tarjan's strongly connected components.
index, low, stack, on, out = {}, {}, [], set(), []
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = len(index); stack.append(v); on.add(v)
    for w in sorted(graph[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: out.append(sorted(comp))
for v in sorted(graph):
    if v not in index: visit(v)
for comp in out:
    print('import cycle in src/sim:', ', '.join(comp))
    for a in comp:
        print('   ', a, '->', ', '.join(sorted(b for b in graph[a] if b in comp)))
print(f'import-cycles: {len(files)} files, {sum(map(len, graph.values()))} imports, {len(out)} cycles')
sys.exit(1 if out else 0)
