//! The view model the page draws: ownership rows agree with the world.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::TestWorld;
use groupscope::sim::trace::EventKind;
use groupscope::view;
use std::collections::BTreeMap;

#[test]
fn ownership_rows_show_owner_and_last_committed_offset() {
    let mut t = TestWorld::demo();
    t.sleep(13_000);
    let mut last_commit = BTreeMap::new();
    for e in &t.world.trace {
        if let EventKind::OffsetsCommitted { offsets, .. } = &e.kind {
            for (tp, o) in offsets {
                last_commit.insert(tp.clone(), *o);
            }
        }
    }
    let rows = view::partitions(&t.world);
    assert_eq!(rows.len(), 6);
    for r in rows {
        assert_eq!(r.committed, last_commit.get(&r.partition).copied(), "{}", r.partition);
        let owner = r.owner.expect("every partition is owned once Stable");
        assert!(t.consumer(owner).owned.contains(&r.partition));
        assert!(r.processed <= r.end_offset);
    }
}
