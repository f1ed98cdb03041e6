fn main() {
    let mut w = groupscope::sim::World::new(groupscope::sim::Scenario::demo()).unwrap();
    w.schedule(12000, groupscope::sim::Fault::CrashConsumer{consumer:2});
    w.run_until(30000);
    for e in &w.trace {
        match &e.kind {
            groupscope::sim::trace::EventKind::MessageSent{..} | groupscope::sim::trace::EventKind::MessageDelivered{..} | groupscope::sim::trace::EventKind::TimerFired{..} | groupscope::sim::trace::EventKind::OffsetsCommitted{..} | groupscope::sim::trace::EventKind::RecordsProcessed{..} => {}
            k => println!("{:>6} {:?}", e.at, k),
        }
    }
    for c in w.consumers.values() { println!("c{} {:?} gen={} owned={:?}", c.idx, c.state, c.generation, c.owned.iter().map(|t| t.to_string()).collect::<Vec<_>>()); }
    println!("{:?}", groupscope::sim::invariants::check(&w));
}
