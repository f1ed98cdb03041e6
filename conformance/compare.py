#!/usr/bin/env python3
"""Compares one scenario's real run (Runner's real.json and the logs beside it) with
GroupScope's `simulate` of the same scenario, outcome by outcome.

usage: compare.py WRAPPER.json REAL_DIR SIMULATE_BINARY [--json OUT]

REAL_DIR is a run's folder (real.json, broker.log) or the logs a run kept
(tests/fixtures/real-kafka-logs/NAME: ground-truth.json, broker.log).

Outcomes (each: match, differ or n/a):
  rebalances   classic: how often the group entered PreparingRebalance (broker log
               "Preparing to rebalance group" vs the simulation's count);
               consumer protocol: the final group epoch (Admin describe vs simulation)
  generations  classic: each member's generation at each onPartitionsAssigned;
               consumer protocol: the final member epoch of each live process still in
               the group (epoch > 0)
  leader       classic: the leader of each generation (broker log "Assignment received
               from leader" vs the simulation's leader note), by client c<n>; with
               "leader": "any" only which generations had a leader
  assignment   each live member's final partitions ("exact"), or the sorted list of
               their counts plus full coverage ("sizes", for assignors whose choice
               depends on random member ids)
  callbacks    each member's sequence of rebalance callbacks (kind and partitions; with
               "sizes", kind and count, the members taken as a multiset)
  errors       each member's set of exceptions the application sees (poll(), commitSync(),
               commitAsync()'s callback; auto-commit failures are only logged, so not here)
  times        each member's onPartitionsAssigned times: the first within
               `firstToleranceMs` (default 1500), later ones within `toleranceMs`
               (default 1000) after subtracting the first one's offset (with "sizes",
               all members' times together, sorted)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

IDX = re.compile(r'-(\d+)-[0-9a-f]{8}-[0-9a-f]{4}-')


def client_of(member_id):
    m = IDX.search(member_id or '')
    return f"c{m.group(1)}" if m else member_id


def run_sim(wrapper, binary):
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump(wrapper['scenario'], f)
        path = f.name
    out = subprocess.run([binary, '--scenario', path, '--until', str(wrapper.get('until', 60000)), '--trace'],
                         capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    trace = []
    i = 0
    while i < len(lines) and lines[i].startswith('{"id"'):
        trace.append(json.loads(lines[i]))
        i += 1
    summary = json.loads('\n'.join(lines[i:]))
    return summary, trace


def node_client(node):
    return f"c{node['Client']}" if isinstance(node, dict) and 'Client' in node else None


EXC = re.compile(r'\b([A-Z][A-Za-z]+Exception)\b')


def code_to_exception(code):
    return ''.join(w.capitalize() for w in code.split('_')) + 'Exception'


def sim_view(summary, trace, protocol):
    v = {'callbacks': {}, 'assigned_times': {}, 'generations': {}, 'leaders': {}, 'errors': {}}
    gen = {}
    epoch = {}
    for e in trace:
        k = e['kind']
        if 'StateChanged' in k:
            s = k['StateChanged']
            c = node_client(s['node'])
            m = re.search(r'generation (\d+)', s['trigger'])
            if c and m and s['machine'] == 'Member':
                gen[c] = int(m.group(1))
        elif 'MessageDelivered' in k:
            d = k['MessageDelivered']
            c = node_client(d['to'])
            m = re.match(r'ConsumerGroupHeartbeat ← epoch=(-?\d+)', d['label'])
            if c and m:
                epoch[c] = int(m.group(1))
        elif 'CallbackInvoked' in k:
            cb = k['CallbackInvoked']
            c = node_client(cb['node'])
            kind = {'OnPartitionsAssigned': 'assigned', 'OnPartitionsRevoked': 'revoked',
                    'OnPartitionsLost': 'lost'}.get(cb['callback'], cb['callback'])
            v['callbacks'].setdefault(c, []).append((kind, sorted(cb['partitions'], key=pkey)))
            if kind == 'assigned':
                v['assigned_times'].setdefault(c, []).append(e['at'])
                v['generations'].setdefault(c, []).append(gen.get(c) if protocol == 'classic' else epoch.get(c))
        elif 'Note' in k:
            n = k['Note']
            m = re.match(r'(\S+) is the leader of generation (\d+)', n['text'])
            if m:
                v['leaders'][int(m.group(2))] = client_of(m.group(1))
            c = node_client(n['node'])
            # Only what the application sees: commitSync() raising, commitAsync()'s callback
            # (auto-commit and onJoinPrepare failures are only logged by the client).
            if c and re.match(r'commit(Sync|Async)\(\) failed', n['text']):
                for x in EXC.findall(n['text']):
                    v['errors'].setdefault(c, set()).add(x)
    v['final'] = {}
    v['final_epoch'] = {}
    for c in summary['consumers']:
        if c['fatal']:
            v['errors'].setdefault(c['name'], set()).add(code_to_exception(c['fatal'].split(':')[0].split()[0]))
        if c['alive']:
            v['final'][c['name']] = sorted(c['owned'], key=pkey)
            if c.get('memberEpoch') is not None and c['memberEpoch'] > 0:
                v['final_epoch'][c['name']] = c['memberEpoch']
    g = summary['groups'][0]
    v['rebalances'] = summary['rebalances'] if protocol == 'classic' else g.get('groupEpoch')
    return v


def pkey(p):
    t, _, n = p.rpartition('-')
    return (t, int(n))


def real_view(real, logdir, protocol, group):
    v = {'callbacks': {}, 'assigned_times': {}, 'generations': {}, 'leaders': {}, 'errors': {}, 'final': {},
         'final_epoch': {}}
    for e in real['events']:
        c = e['member']
        if e['ev'] in ('assigned', 'revoked', 'lost'):
            v['callbacks'].setdefault(c, []).append((e['ev'], sorted(e['partitions'], key=pkey)))
            if e['ev'] == 'assigned':
                v['assigned_times'].setdefault(c, []).append(e['t'])
                v['generations'].setdefault(c, []).append(e['generation'])
        elif e['ev'] == 'error':
            v['errors'].setdefault(c, set()).add(e['kind'])
        elif e['ev'] == 'final':
            v['final'][c] = sorted(e['owned'], key=pkey)
            if e.get('fatal'):
                pass
    broker = open(f"{logdir}/broker.log", encoding='utf-8', errors='replace').read()
    if protocol == 'classic':
        v['rebalances'] = len(re.findall(rf'Preparing to rebalance group {re.escape(group)} ', broker))
    else:
        snaps = [a for a in real['admin'] if a['group'] == group]
        v['rebalances'] = snaps[-1].get('groupEpoch') if snaps else None
        if snaps:
            for m in snaps[-1]['members']:
                c = 'c' + m['clientId'].rsplit('-', 1)[1]
                if c in v['final'] and (m.get('memberEpoch') or 0) > 0:
                    v['final_epoch'][c] = m.get('memberEpoch')
    for m in re.finditer(rf'Assignment received from leader (\S+) for group {re.escape(group)} for generation (\d+)',
                         broker):
        v['leaders'][int(m.group(2))] = client_of(m.group(1))
    return v


def sizes(final):
    return sorted(len(p) for p in final.values())


def compare(wrapper, real, logdir, binary):
    sc = wrapper['scenario']
    g0 = sc['groups'][0]
    protocol = g0.get('config', {}).get('group.protocol', 'classic')
    group = g0['groupId']
    mode = wrapper.get('assignment', 'exact')
    summary, trace = run_sim(wrapper, binary)
    s = sim_view(summary, trace, protocol)
    r = real_view(real, logdir, protocol, group)
    out = {}

    def put(name, real_v, sim_v, ok=None, note=''):
        if ok is None:
            ok = real_v == sim_v
        out[name] = {'status': 'match' if ok else 'differ', 'real': real_v, 'sim': sim_v}
        if note:
            out[name]['note'] = note

    put('rebalances', r['rebalances'], s['rebalances'])
    if protocol == 'classic':
        put('generations', r['generations'], s['generations'])
        rl = {str(k): v for k, v in sorted(r['leaders'].items())}
        sl = {str(k): v for k, v in sorted(s['leaders'].items())}
        if wrapper.get('leader') == 'any':
            # The leader left: Kafka picks the first member id of a HashMap (ClassicGroup.remove),
            # random UUIDs on both sides; compare only which generations had a leader.
            put('leader', rl, sl, sorted(rl) == sorted(sl),
                'leader choice after the leader left is HashMap order over random member ids: only the generations are compared')
        else:
            put('leader', rl, sl)
    else:
        put('generations', r['final_epoch'], s['final_epoch'])
        out['leader'] = {'status': 'n/a'}
    if mode == 'exact':
        put('assignment', r['final'], s['final'])
        put('callbacks', r['callbacks'], s['callbacks'])
    else:
        def cov(f):
            return sorted(p for ps in f.values() for p in ps)
        put('assignment', {'sizes': sizes(r['final']), 'covered': cov(r['final'])},
            {'sizes': sizes(s['final']), 'covered': sorted(cov(s['final']), key=pkey)})
        # Which member gets which share depends on random member ids (HashMap order in the
        # server assignors): compare the members' callback shapes as a multiset.
        shape = lambda cbs: sorted([[k, len(p)] for k, p in l] for l in cbs.values())
        put('callbacks', shape(r['callbacks']), shape(s['callbacks']))
    put('errors', {c: sorted(x) for c, x in sorted(r['errors'].items())},
        {c: sorted(x) for c, x in sorted(s['errors'].items())})
    tol = wrapper.get('toleranceMs', 1000)
    first_tol = wrapper.get('firstToleranceMs', 1500)
    firsts = [(min(r['assigned_times'][c]), min(s['assigned_times'][c])) for c in r['assigned_times']
              if s['assigned_times'].get(c)]
    offset = min(a for a, _ in firsts) - min(b for _, b in firsts) if firsts else 0
    worst = 0
    ok = bool(firsts) and abs(offset) <= first_tol
    if mode == 'exact':
        pairs = [(r['assigned_times'].get(c, []), s['assigned_times'].get(c, []))
                 for c in sorted(set(r['assigned_times']) | set(s['assigned_times']))]
    else:
        # members are interchangeable (see callbacks): all assignment times, sorted
        pairs = [(sorted(t for l in r['assigned_times'].values() for t in l),
                  sorted(t for l in s['assigned_times'].values() for t in l))]
    for rt, st in pairs:
        if len(rt) != len(st):
            ok = False
        for a, b in zip(rt, st):
            worst = max(worst, abs(a - offset - b))
    ok = ok and worst <= tol
    put('times', {c: t for c, t in sorted(r['assigned_times'].items())},
        {c: t for c, t in sorted(s['assigned_times'].items())}, ok,
        f'first assignment offset {offset} ms (tolerance {first_tol}); worst later difference {worst} ms '
        f'after the offset (tolerance {tol})')
    return out


def main():
    wrapper = json.load(open(sys.argv[1]))
    d = sys.argv[2]
    # a run's folder (real.json) or its kept logs (tests/fixtures/real-kafka-logs/NAME, ground-truth.json)
    real = json.load(open(f"{d}/real.json" if os.path.exists(f"{d}/real.json") else f"{d}/ground-truth.json"))
    res = compare(wrapper, real, sys.argv[2], sys.argv[3])
    if '--json' in sys.argv:
        json.dump(res, open(sys.argv[sys.argv.index('--json') + 1], 'w'), indent=1, default=list)
    for k, v in res.items():
        line = f"  {k:12} {v['status']}"
        if v['status'] == 'differ':
            line += f"\n      real: {json.dumps(v['real'], default=list)}\n      sim:  {json.dumps(v['sim'], default=list)}"
        if v.get('note'):
            line += f"\n      {v['note']}"
        print(line)


if __name__ == '__main__':
    main()
