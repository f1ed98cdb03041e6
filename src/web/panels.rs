//! Side panels: group state, partition ownership, the event log, fidelity notes.

use super::topology::colour;
use crate::i18n::{tr, trf, Lang};
use crate::inspect::Selection;
use crate::lesson::conceal::{Concealed, Kind};
use crate::sim::World;
use crate::view::{self, PartitionStatus};
use yew::prelude::*;

/// `concealed`: what the open lesson's question hides now.
pub fn group_panel(world: &World, lang: Lang, concealed: &Concealed) -> Html {
    html! {
        <div class="groups">
            { for view::groups(world).into_iter().map(|g| html! {
                <div class="group" data-group={g.group_id.clone()} data-group-state={g.state.clone()} data-generation={g.generation.to_string()}>
                    <h2>{ trf(lang, "group.title", &[&g.group_id]) }</h2>
                    <p class="state">{ format!("{} · {}", if g.state == "(no group yet)" { tr(lang, "group.none").to_string() } else { g.state.clone() }, match g.assignment_epoch {
                        Some(a) => trf(lang, "group.epochs", &[&g.generation, &a]),
                        None => trf(lang, "group.generation", &[&g.generation]),
                    }) }
                        { g.protocol.map(|p| format!(" · {p}")).unwrap_or_default() }
                        { g.leader.filter(|_| !concealed.hides(Kind::Leader, &g.group_id)).map(|l| format!(" · {}", trf(lang, "group.leader", &[&l]))).unwrap_or_default() }</p>
                    if !concealed.hides(Kind::Status, &g.group_id) { { super::streams::statuses(&g.statuses, lang) } }
                    // A lesson question may conceal the coordinator (the arithmetic gives it away).
                    if !concealed.hides(Kind::Coordinator, &g.group_id) {
                        <p class="coord-math">
                            { trf(lang, "group.coordinator", &[&g.group_id, &g.hash, &g.partitions_count, &g.partition,
                                &g.coordinator.map_or(tr(lang, "nobody").to_string(), |b| format!("broker-{b}"))]) }
                        </p>
                    }
                </div>
            }) }
        </div>
    }
}

/// The palette as classes (`static/style.css`), in `topology::PALETTE` order.
const OWNER_CLASS: [&str; 8] = ["o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7"];

/// More partitions than this and the table becomes a grid of cells plus a
/// per-owner summary (a table of 1,000 rows helps nobody).
pub const LARGE_TABLE: usize = 60;

/// The compact ownership view: one cell per partition, coloured by owner,
/// and how many partitions each member owns.
fn partition_grid(rows: &[crate::view::PartitionRow], lang: Lang, on_select: &Callback<Option<Selection>>) -> Html {
    let mut per_owner: std::collections::BTreeMap<Option<u32>, usize> = std::collections::BTreeMap::new();
    for r in rows {
        *per_owner.entry(r.owner).or_default() += 1;
    }
    let redelivered: i64 = rows.iter().map(|r| r.redelivered).sum();
    html! {
        <div id="ownership" class="ownership-grid" data-partitions={rows.len().to_string()}>
            <h3>{ tr(lang, "ownership") }</h3>
            <p class="summary">
                { for per_owner.iter().map(|(o, n)| html! {
                    <span class="owner-count" data-owner={o.map(|o| format!("c{o}")).unwrap_or_default()}>
                        { format!("{}: {n} ", o.map_or(tr(lang, "unowned").to_string(), |o| format!("c{o}"))) }
                    </span>
                }) }
                { for [PartitionStatus::Revoking, PartitionStatus::Pending].into_iter().map(|st| {
                    let n = rows.iter().filter(|r| r.status == st).count();
                    html! { if n > 0 { <span class={classes!("status-count", st.name())}>{ format!(" · {}: {n}", tr(lang, if st == PartitionStatus::Revoking { "status.revoking" } else { "status.pending" })) }</span> } }
                }) }
                { format!(" · {}: {redelivered}", tr(lang, "col.redelivered")) }
            </p>
            // One listener for all cells: the cell names its partition.
            <div class="cells" onclick={on_select.reform(|e: MouseEvent| {
                let el = e.target_unchecked_into::<web_sys::Element>();
                let tp = el.get_attribute("data-partition")?;
                let (topic, p) = tp.rsplit_once('-')?;
                Some(Selection::Partition(crate::assign::TopicPartition::new(topic, p.parse().ok()?)))
            })}>
                // Colour by class, not by a style string per cell: 1,000 cells redraw every frame.
                { for rows.iter().map(|r| {
                    let owner = r.owner.map(|o| OWNER_CLASS[(o as usize + OWNER_CLASS.len() - 1) % OWNER_CLASS.len()]);
                    let status = (r.status != PartitionStatus::Owned).then_some(r.status.name());
                    html! { <span class={classes!("cell", owner, status, (r.redelivered > 0).then_some("dup"))}
                        data-partition={r.partition.to_string()} /> }
                }) }
            </div>
        </div>
    }
}

pub fn partition_table(
    world: &World,
    lang: Lang,
    on_select: &Callback<Option<Selection>>,
    highlights: &[String],
    concealed: &Concealed,
) -> Html {
    let mut rows = crate::view::partitions(world);
    // A lesson question may conceal owners (who reads what) or statuses (where partitions are heading).
    for r in &mut rows {
        if concealed.hides(Kind::Owners, &r.group) {
            r.owner = None;
            r.also_read_by.clear();
        }
        if concealed.hides(Kind::Status, &r.group) || concealed.hides(Kind::Owners, &r.group) {
            r.status = PartitionStatus::Owned;
        }
    }
    if rows.len() > LARGE_TABLE {
        return partition_grid(&rows, lang, on_select);
    }
    // Several groups: one row per group and partition, with a group column.
    let groups = rows.iter().map(|r| r.group.as_str()).collect::<std::collections::BTreeSet<_>>().len();
    html! {
        <table id="ownership" class="ownership">
            <caption>{ tr(lang, "ownership") }</caption>
            <thead><tr>
                if groups > 1 { <th>{ tr(lang, "col.group") }</th> }
                { for ["col.partition", "col.owner", "col.leader", "col.end", "col.committed", "col.processed", "col.redelivered"].iter().map(|k| html! { <th>{ tr(lang, k) }</th> }) }
            </tr></thead>
            <tbody>
            { for rows.into_iter().map(|r| {
                let owner = r.owner.iter().chain(&r.also_read_by).map(|o| format!("c{o}")).collect::<Vec<_>>().join(" ");
                let style = r.owner.map(|o| format!("background:{}", colour(o))).unwrap_or_default();
                let tp = r.partition.clone();
                let select = on_select.reform(move |_: MouseEvent| Some(Selection::Partition(tp.clone())));
                html! {
                    <tr data-partition={r.partition.to_string()} data-owner={owner.clone()} data-group={r.group.clone()} data-status={r.status.name()}
                        class={classes!(highlights.contains(&r.partition.to_string()).then_some("highlight"))}>
                        if groups > 1 { <td>{ r.group.clone() }</td> }
                        <td><button class="linklike" onclick={select}>{ r.partition.to_string() }</button></td>
                        <td class="owner" style={style}>{ status_text(r.status, &owner, lang) }</td>
                        <td>{ r.leader.map(|l| format!("broker-{l}")).unwrap_or("—".into()) }</td>
                        <td>{ r.end_offset }</td>
                        <td>{ r.committed.map(|c| c.to_string()).unwrap_or("—".into()) }</td>
                        <td>{ r.processed }</td>
                        <td class={classes!((r.redelivered > 0).then_some("dup"))}>{ r.redelivered }</td>
                    </tr>
                }
            }) }
            </tbody>
        </table>
    }
}

/// The owner cell: `c2`, `c2 (revoking)`, `pending` or `unowned`.
fn status_text(status: PartitionStatus, owner: &str, lang: Lang) -> String {
    match status {
        PartitionStatus::Owned => owner.to_string(),
        PartitionStatus::Revoking => format!("{owner} ({})", tr(lang, "status.revoking")),
        PartitionStatus::Pending => tr(lang, "status.pending").to_string(),
        PartitionStatus::Unowned => tr(lang, "unowned").to_string(),
    }
}

pub fn fidelity_notes(lang: Lang) -> Html {
    html! {
        <details class="fidelity" id="fidelity">
            <summary>{ tr(lang, "fidelity.title") }</summary>
            <ul>
                { for crate::fidelity::NOTES.iter().map(|n| html! { <li data-area={n.area}>{ if lang == Lang::Zh { n.zh } else { n.en } }</li> }) }
            </ul>
        </details>
    }
}

/// Every Connect connector and task, who runs it and in what state; tasks a
/// lesson step highlights are marked.
pub fn connect_tasks(world: &World, lang: Lang, highlights: &[String]) -> Html {
    if world.members().all(|m| m.is_consumer()) {
        return html! {};
    }
    let mut rows: Vec<(String, String, String, String)> = Vec::new();
    for c in &world.scenario.connect_clusters {
        for conn in &c.connectors {
            for t in 0..conn.tasks {
                let id = format!("{}-{t}", conn.name);
                let runs: Vec<(String, String)> = crate::view::workers(world)
                    .into_iter()
                    .filter(|w| w.alive && w.group == c.group_id)
                    .filter_map(|w| {
                        w.tasks.iter().find(|(tid, _)| *tid == id).map(|(_, st)| (w.name.clone(), st.clone()))
                    })
                    .collect();
                let (worker, state) = if runs.is_empty() {
                    (tr(lang, "connect.unassigned").to_string(), "UNASSIGNED".to_string())
                } else {
                    (
                        runs.iter().map(|r| r.0.clone()).collect::<Vec<_>>().join(", "),
                        runs.iter().map(|r| r.1.clone()).collect::<Vec<_>>().join(", "),
                    )
                };
                rows.push((c.group_id.clone(), id, worker, state));
            }
        }
    }
    html! {
        <table id="connect-tasks" class="ownership">
            <caption>{ tr(lang, "connect.tasks") }</caption>
            <thead><tr><th>{ tr(lang, "col.group") }</th><th>{ tr(lang, "connect.task") }</th><th>{ tr(lang, "connect.worker") }</th><th>{ tr(lang, "connect.state") }</th></tr></thead>
            <tbody>
            { for rows.into_iter().map(|(g, id, worker, state)| html! {
                <tr data-task={id.clone()} data-worker={worker.clone()} data-task-state={state.clone()}
                    class={classes!(highlights.contains(&id).then_some("highlight"))}>
                    <td>{ g }</td><td>{ id }</td><td>{ worker }</td>
                    <td class={classes!((state == "FAILED").then_some("dup"))}>{ state }</td>
                </tr>
            }) }
            </tbody>
        </table>
    }
}

/// The invariant monitor: green while every invariant holds; each violation
/// (a deliberately wrong setting or a bug) is listed and jumps to its moment.
pub fn invariant_monitor(world: &World, lang: Lang, dispatch: &Callback<crate::player::Action>) -> Html {
    let found: Vec<(u64, String, String)> = world
        .trace
        .iter()
        .filter_map(|e| match &e.kind {
            crate::sim::trace::EventKind::InvariantViolated { invariant, detail } => {
                Some((e.at, invariant.clone(), detail.clone()))
            }
            _ => None,
        })
        .collect();
    if found.is_empty() {
        return html! { <p id="invariants" class="invariants ok" role="status" data-violations="0">{ tr(lang, "inv.ok") }</p> };
    }
    html! {
        <div id="invariants" class="invariants violated" role="alert" data-violations={found.len().to_string()}>
            <p><b>{ trf(lang, "inv.violated", &[&found.len()]) }</b></p>
            <ul>
                { for found.iter().take(5).map(|(at, inv, detail)| {
                    let t = *at;
                    html! { <li>{ format!("{:.1} s · {inv}: {detail} ", t as f64 / 1000.0) }
                        <button class="jump" onclick={dispatch.reform(move |_| crate::player::Action::Seek(t))}>{ tr(lang, "inv.jump") }</button></li> }
                }) }
            </ul>
        </div>
    }
}
