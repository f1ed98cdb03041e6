//! Side panels: group state, partition ownership, the event log, fidelity notes.

use super::topology::colour;
use crate::narrate;
use crate::sim::World;
use crate::view;
use yew::prelude::*;

pub fn group_panel(world: &World) -> Html {
    html! {
        <div class="groups">
            { for view::groups(world).into_iter().map(|g| html! {
                <div class="group" data-group={g.group_id.clone()} data-group-state={g.state.clone()} data-generation={g.generation.to_string()}>
                    <h2>{ format!("group {}", g.group_id) }</h2>
                    <p class="state">{ format!("{} · generation {}", g.state, g.generation) }
                        { g.protocol.map(|p| format!(" · {p}")).unwrap_or_default() }
                        { g.leader.map(|l| format!(" · leader {l}")).unwrap_or_default() }</p>
                    <p class="coord-math">
                        { format!("coordinator: abs(\"{}\".hashCode() = {}) % {} = {} → leader of __consumer_offsets-{} is {}",
                            g.group_id, g.hash, g.partitions_count, g.partition, g.partition,
                            g.coordinator.map_or("nobody".to_string(), |b| format!("broker-{b}"))) }
                    </p>
                </div>
            }) }
        </div>
    }
}

pub fn partition_table(world: &World) -> Html {
    html! {
        <table id="ownership" class="ownership">
            <caption>{"Partition ownership"}</caption>
            <thead><tr><th>{"partition"}</th><th>{"owner"}</th><th>{"leader"}</th><th>{"log end"}</th><th>{"committed"}</th><th>{"processed"}</th><th>{"redelivered"}</th></tr></thead>
            <tbody>
            { for view::partitions(world).into_iter().map(|r| {
                let owner = r.owner.map(|o| format!("c{o}")).unwrap_or_default();
                let style = r.owner.map(|o| format!("background:{}", colour(o))).unwrap_or_default();
                html! {
                    <tr data-partition={r.partition.to_string()} data-owner={owner.clone()}>
                        <td>{ r.partition.to_string() }</td>
                        <td class="owner" style={style}>{ if owner.is_empty() { "— unowned".to_string() } else { owner } }</td>
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

pub fn event_log(world: &World) -> Html {
    let lines: Vec<(u64, String)> = world
        .trace
        .iter()
        .rev()
        .filter_map(|e| narrate::sentence(world, e).map(|s| (e.at, s)))
        .take(300)
        .collect();
    let latest = lines.first().map(|(_, s)| s.clone()).unwrap_or_default();
    html! {
        <div class="log">
            <h2>{"What is happening"}</h2>
            <p id="narration" class="sr-only" aria-live="polite">{ latest }</p>
            <ol id="event-log" reversed=true>
                { for lines.into_iter().map(|(at, s)| html! {
                    <li><span class="t">{ format!("{:>6.1}s", at as f64 / 1000.0) }</span>{" "}{ s }</li>
                }) }
            </ol>
        </div>
    }
}

pub fn fidelity_notes() -> Html {
    html! {
        <details class="fidelity" id="fidelity">
            <summary>{"Fidelity notes: where this simulation simplifies Kafka"}</summary>
            <ul>
                { for crate::fidelity::NOTES.iter().map(|n| html! { <li data-area={n.area}>{ n.en }</li> }) }
            </ul>
        </details>
    }
}
