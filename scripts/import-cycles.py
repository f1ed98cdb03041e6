#!/usr/bin/env python3
"""Lists import cycles between the files of the library crate (src/, from
src/lib.rs; the command-line tools in src/bin/ are crates of their own).

A file imports another when it names a path into it: `use crate::a::b`,
`use super::{x, y::z}`, `self::c`, a child module by name (`state::Msg` in the
file that declares `mod state;`), or such a path in code (`crate::a::b::f()`,
`super::x::Item`, also inside `html!`). A path through a name a `use` brought
in (`use crate::view; … view::labels::fit`) counts where it leads. A file may
use what its ancestors define (`super::Item` from a child of the module that
defines `Item`): those edges are not counted, since each folder's `mod.rs`
declares and re-exports its children. Comments, strings and `#[cfg(test)]`
modules are skipped. Prints each cycle found and exits 1 if there is any; run
by scripts/test.sh."""
import os, re, sys

SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src'))


def strip(text):
    """`text` without comments, string and char literals (kept as `""`)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith('/*', i):
                    depth, i = depth + 1, i + 2
                elif text.startswith('*/', i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif re.match(r'b?r(#*)"', text[i:i + 20]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            m = re.match(r'b?r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            i = n if j < 0 else j + len(end)
            out.append('""')
        elif c == '"' or (c == 'b' and text.startswith('b"', i) and (i == 0 or not text[i - 1].isalnum())):
            i += 2 if c == 'b' else 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == '\\' else 1
            i += 1
            out.append('""')
        elif c == "'":
            m = re.match(r"'(\\[^']*|[^\\'])'", text[i:])
            if m:
                i += m.end()
                out.append("' '")
            else:  # a lifetime or a label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def without_test_modules(text):
    """Drops every `#[cfg(test)] mod x { … }` (and `#[cfg(test)] mod x;`)."""
    while True:
        m = re.search(r'#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*([{;])', text)
        if not m:
            return text
        if m.group(1) == ';':
            text = text[:m.start()] + text[m.end():]
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {'{': 1, '}': -1}.get(text[i], 0)
            i += 1
        text = text[:m.start()] + text[i:]


MOD_DECL = re.compile(r'((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*([{;])')


TEST_FILES = set()


def modules():
    """Every file of the crate by module path (a tuple), following `mod` from src/lib.rs.
    Files of `#[cfg(test)] mod x;` go to TEST_FILES (test code: not checked)."""
    files, todo = {}, [((), os.path.join(SRC, 'lib.rs'))]
    while todo:
        mod, path = todo.pop()
        files[mod] = path
        raw = open(path).read()
        text = strip(raw)
        here = os.path.dirname(path)
        owns_dir = os.path.basename(path) in ('lib.rs', 'mod.rs')
        for m in MOD_DECL.finditer(text):
            if m.group(3) != ';' or brace_depth(text, m.start()) != 0:
                continue
            name = m.group(2)
            if re.search(r'#\[path\s*=\s*""\]', m.group(1)):
                # strip() blanked the string: read the attribute from the file itself
                attr = re.search(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+' + name + r'\s*;', raw)
                child = os.path.join(here, attr.group(1))
            else:
                base = here if owns_dir else os.path.join(here, os.path.basename(path)[:-3])
                child = os.path.join(base, name + '.rs')
                if not os.path.exists(child):
                    child = os.path.join(base, name, 'mod.rs')
            if not os.path.exists(child):
                continue
            if '#[cfg(test)]' in m.group(1):
                TEST_FILES.add(os.path.normpath(child))
            else:
                todo.append((mod + (name,), child))
    return files


def brace_depth(text, at):
    return text.count('{', 0, at) - text.count('}', 0, at)


def use_leaves(tree):
    """The paths of a `use` tree: `a::{b, c::{d as e}}` gives (path, bound name) pairs."""
    tree = tree.strip()
    m = re.match(r'^((?:::)?(?:[\w$]+::)*)\{(.*)\}$', tree, re.S)
    if m:
        prefix = [s for s in m.group(1).split('::') if s]
        parts, depth, cur = [], 0, ''
        for ch in m.group(2):
            if ch == ',' and depth == 0:
                parts.append(cur)
                cur = ''
                continue
            depth += {'{': 1, '}': -1}.get(ch, 0)
            cur += ch
        parts.append(cur)
        for p in parts:
            if p.strip() == 'self':
                yield prefix, prefix[-1] if prefix else None
            elif p.strip():
                for path, bound in use_leaves(p):
                    yield prefix + path, bound
        return
    alias = None
    if ' as ' in tree:
        tree, alias = [s.strip() for s in tree.split(' as ', 1)]
    path = [s for s in tree.split('::') if s]
    if path and path[-1] == '*':
        yield path[:-1], None
    elif path:
        yield path, alias or path[-1]


def inline_modules(text):
    """(start, end, name) of each inline `mod name { … }` in `text`."""
    out = []
    for m in MOD_DECL.finditer(text):
        if m.group(3) != '{':
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {'{': 1, '}': -1}.get(text[i], 0)
            i += 1
        out.append((m.start(), i, m.group(2)))
    return out


def main():
    files = modules()
    reached = set(os.path.normpath(p) for p in files.values())
    missed = []
    for d, _, fs in os.walk(SRC):
        for f in fs:
            p = os.path.normpath(os.path.join(d, f))
            if f.endswith('.rs') and p not in reached | TEST_FILES and not p.startswith(os.path.join(SRC, 'bin')):
                missed.append(os.path.relpath(p, SRC))
    children = {}
    for mod in files:
        if mod:
            children.setdefault(mod[:-1], set()).add(mod[-1])

    def resolve(segments):
        """The file holding the longest module prefix of `segments`."""
        for n in range(len(segments), -1, -1):
            if tuple(segments[:n]) in files:
                return tuple(segments[:n])
        return None

    graph = {m: set() for m in files}
    for mod, path in files.items():
        text = without_test_modules(strip(open(path).read()))
        inner = inline_modules(text)

        def module_at(pos):
            """The module a position of the file is in (inside an inline `mod x { … }`: mod::x)."""
            m = list(mod)
            for start, end, name in inner:
                if start < pos < end:
                    m.append(name)
            return m

        aliases = {}

        def absolute(segments, at, local=True):
            """`segments` as a path from the crate root, or None (another crate)."""
            here = module_at(at)
            if not segments:
                return None
            head = segments[0]
            if head == 'crate':
                return segments[1:]
            if head in ('super', 'self'):
                ups = 0
                while ups < len(segments) and segments[ups] == 'super':
                    ups += 1
                rest = segments[ups:] if ups else segments[1:]
                return here[:len(here) - ups] + rest
            if head in children.get(tuple(here), ()) or head in [name for _, _, name in inner]:
                return here + segments
            if local and head in aliases:
                return aliases[head] + segments[1:]
            return None

        targets = []
        for m in re.finditer(r'\buse\s+([^;]+);', text):
            for segments, bound in use_leaves(m.group(1)):
                target = absolute(segments, m.start(), local=False)
                if target is None:
                    continue
                targets.append(target)
                if bound and bound != '_':
                    aliases[bound] = target
        code = re.sub(r'\buse\s+[^;]+;', lambda m: ' ' * len(m.group(0)), text)
        for m in re.finditer(r'(?<![\w:$])((?:[A-Za-z_]\w*::)+[A-Za-z_]\w*)', code):
            segments = m.group(1).split('::')
            target = absolute(segments, m.start())
            if target is not None:
                targets.append(target)
        for t in targets:
            r = resolve(t)
            # An ancestor's items are every descendant's (module docs say what a folder holds).
            if r is not None and r != mod and mod[:len(r)] != r:
                graph[mod].add(r)

    # Tarjan's strongly connected components.
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    name = lambda m: '::'.join(m) or 'crate'
    for comp in out:
        print('import cycle:', ', '.join(map(name, comp)))
        for a in comp:
            print('   ', name(a), '->', ', '.join(name(b) for b in sorted(graph[a]) if b in comp))
    for f in missed:
        print('not reached from src/lib.rs (not checked):', f)
    print(f'import-cycles: {len(files)} files, {sum(map(len, graph.values()))} imports, {len(out)} cycles')
    sys.exit(1 if out or missed else 0)


main()
