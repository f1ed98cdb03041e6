//! What the page's "Explain logs" tab draws, as plain data: readable member names, the
//! clock, the rebalances on a time axis and who owned which partition in each generation.
//! Native like the rest of the engine, so it is tested with it (`tests/explain.rs`).

use super::model::{Cause, Group};
use std::collections::BTreeMap;

/// `HH:MM:SS.mmm` of an epoch-ms instant (the time of day as the lines gave it).
pub fn clock(ms: i64) -> String {
    let day = ms.rem_euclid(86_400_000);
    format!("{:02}:{:02}:{:02}.{:03}", day / 3_600_000, day / 60_000 % 60, day / 1000 % 60, day % 1000)
}

/// `YYYY-MM-DD` of an epoch-ms instant; `None` for lines that gave only a time of day (or
/// no year), which the reader keeps within the first year after the epoch.
pub fn date(ms: i64) -> Option<String> {
    if ms < 366 * 86_400_000 {
        return None;
    }
    // civil_from_days (the inverse of clock::days_from_civil)
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

/// Member processes in order of first appearance: their index (from 0, the colour) and
/// name, and which process each member id belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    pub processes: Vec<String>,
    by_member: BTreeMap<String, usize>,
}

impl Names {
    pub fn of(g: &Group) -> Names {
        let mut procs: Vec<&super::model::Process> = g.processes.iter().filter(|p| !p.member_ids.is_empty()).collect();
        procs.sort_by_key(|p| (p.first_ms, p.name.clone()));
        let mut n = Names { processes: procs.iter().map(|p| p.name.clone()).collect(), by_member: BTreeMap::new() };
        for (i, p) in procs.iter().enumerate() {
            for m in &p.member_ids {
                n.by_member.insert(m.clone(), i);
            }
        }
        // members no process line claimed: by client id, else on their own
        for m in &g.members {
            if n.by_member.contains_key(&m.id) {
                continue;
            }
            let name = m.client_id.clone().filter(|c| !c.is_empty()).unwrap_or_else(|| m.id.clone());
            let i = n.processes.iter().position(|p| *p == name).unwrap_or_else(|| {
                n.processes.push(name);
                n.processes.len() - 1
            });
            n.by_member.insert(m.id.clone(), i);
        }
        n
    }

    /// The process index of a member id.
    pub fn index(&self, member: &str) -> Option<usize> {
        self.by_member.get(member).copied()
    }

    /// A readable name for a member id: its process (client id), else the id itself.
    pub fn name<'a>(&'a self, member: &'a str) -> &'a str {
        self.index(member).map_or(member, |i| self.processes[i].as_str())
    }
}

/// Who owned each partition in each generation whose assignment was logged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ownership {
    /// (generation, start ms) of each column.
    pub columns: Vec<(i64, i64)>,
    /// Partition (`topic-n`, in topic then number order) → the owning process per column.
    pub rows: Vec<(String, Vec<Option<usize>>)>,
}

fn partition_key(tp: &str) -> (String, i64) {
    match tp.rsplit_once('-') {
        Some((t, n)) => (t.to_string(), n.parse().unwrap_or(-1)),
        None => (tp.to_string(), -1),
    }
}

/// `None` when no generation's assignment was logged.
pub fn ownership(g: &Group, names: &Names) -> Option<Ownership> {
    let gens: Vec<_> = g.generations.iter().filter(|gen| gen.assignment.values().any(|ps| !ps.is_empty())).collect();
    if gens.is_empty() {
        return None;
    }
    let mut parts: BTreeMap<(String, i64), String> = BTreeMap::new();
    for gen in &gens {
        for ps in gen.assignment.values() {
            for p in ps {
                parts.insert(partition_key(p), p.clone());
            }
        }
    }
    let rows = parts
        .into_values()
        .map(|p| {
            let owners = gens
                .iter()
                .map(|gen| gen.assignment.iter().find(|(_, ps)| ps.contains(&p)).and_then(|(m, _)| names.index(m)))
                .collect();
            (p, owners)
        })
        .collect();
    Some(Ownership { columns: gens.iter().map(|gen| (gen.generation, gen.start_ms)).collect(), rows })
}

/// A mark on the group's time axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A rebalance (index into `g.rebalances`): from its start to its end (or the logs' end).
    Rebalance { index: usize, from_ms: i64, to_ms: i64, cause: Cause },
    /// The coordinator moved to this broker.
    Coordinator { at_ms: i64, broker: i32 },
}

/// The axis (first and last time the group's lines show) and its marks.
pub fn marks(g: &Group) -> ((i64, i64), Vec<Mark>) {
    let from = g.first_ms;
    let to = g.last_ms.max(from + 1);
    let mut out: Vec<Mark> = g
        .rebalances
        .iter()
        .enumerate()
        .map(|(index, r)| Mark::Rebalance {
            index,
            from_ms: r.start_ms,
            to_ms: r.end_ms.unwrap_or(to),
            // the cause that names what happened (joins come along with most rebalances)
            cause: r
                .causes
                .iter()
                .copied()
                .find(|c| *c != Cause::MemberJoined)
                .or(r.causes.first().copied())
                .unwrap_or(Cause::Other),
        })
        .collect();
    out.extend(g.coordinators.iter().skip(1).map(|&(at_ms, broker)| Mark::Coordinator { at_ms, broker }));
    ((from, to), out)
}
