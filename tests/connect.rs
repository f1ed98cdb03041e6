//! Kafka Connect distributed-herder groups (facts G, on the classic protocol of
//! facts B). Invariants are checked after every step.

mod common;

use common::connect::*;
use common::TestWorld;
use groupscope::connect::ConnectProtocolCompatibility::*;

#[test]
fn smoke() {
    let mut t = TestWorld::new(cluster(3, 4, |_| {}));
    t.sleep(20_000);
    for n in t.notes() { println!("{n}"); }
    for i in 1..=3 { println!("w{i}: {:?}", tasks(&t.world, i)); }
    let _ = EAGER;
}
