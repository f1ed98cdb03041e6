//! Faults, forks and undo: a fault injected in the past forks the timeline
//! and the page offers to undo it; Reset keeps the user's faults, "Reset and
//! clear" forgets them; a new run forgets an undo that meant the old one.

use super::*;
use groupscope::sim::Fault;

fn crash(consumer: u32) -> Msg {
    Msg::Action(Action::Inject(Fault::CrashConsumer { consumer }))
}

/// The demo run out to 12 s, then back at 4 s.
fn back_in_the_past() -> Page {
    let mut page = Page::open();
    page.play_to(12_000);
    page.send(Msg::Action(Action::Seek(4_000)));
    assert_eq!((page.now(), page.run().player.horizon), (4_000, 12_000));
    page
}

#[test]
fn a_fault_in_the_past_forks_the_timeline_and_offers_an_undo() {
    let mut page = back_in_the_past();
    page.send(crash(2));
    let undo = page.state.undo.clone().expect("the discarded future can be brought back");
    assert_eq!((undo.at, undo.horizon), (4_000, 12_000));
    assert_eq!(page.run().player.script, vec![(4_000, Fault::CrashConsumer { consumer: 2 })]);
    assert_eq!(page.run().player.horizon, 4_000, "the old future is gone from the timeline");
}

#[test]
fn undo_after_a_fault_brings_back_the_old_timeline_and_playhead() {
    let mut page = back_in_the_past();
    let before = groupscope::sim::trace::trace_hash(&page.run().player.world.trace);
    page.send(crash(2));
    let revision = page.state.revision;
    page.send(Msg::Undo);
    let run = page.run();
    assert!(run.player.script.is_empty(), "the fault is undone");
    assert_eq!((run.player.now(), run.player.horizon), (4_000, 12_000), "the scrubber reaches as far as before");
    assert_eq!(
        groupscope::sim::trace::trace_hash(&run.player.world.trace),
        before,
        "the same world as before the fork"
    );
    drop(run);
    assert_eq!(page.state.undo, None, "one undo per fork");
    assert_eq!(page.state.revision, revision + 1, "the panels redraw at once");
}

#[test]
fn a_fault_at_the_end_of_the_timeline_discards_nothing_and_offers_no_undo() {
    let mut page = Page::open();
    page.play_to(5_000);
    page.send(crash(1));
    assert_eq!(page.state.undo, None);
    assert_eq!(page.run().player.script.len(), 1);
    let same = Rc::clone(&page.state);
    page.send(Msg::Undo);
    assert!(Rc::ptr_eq(&same, &page.state), "nothing to undo: nothing changes");
}

#[test]
fn reset_keeps_the_users_faults_and_reset_and_clear_forgets_them() {
    let mut page = Page::open();
    page.play_to(3_000);
    page.send(crash(1));
    page.send(Msg::Action(Action::Reset));
    assert_eq!(page.now(), 0);
    assert_eq!(
        page.run().player.script,
        vec![(3_000, Fault::CrashConsumer { consumer: 1 })],
        "it happens again at 3 s"
    );
    page.send(Msg::ResetClear);
    assert!(page.run().player.script.is_empty());
    assert_eq!(page.now(), 0);
}

#[test]
fn loading_another_run_forgets_the_undo_and_closes_the_lesson() {
    let mut page = back_in_the_past();
    page.send(crash(2));
    page.send(Msg::SetTab(groupscope::page::Tab::Lessons));
    let fresh = groupscope::player::Player::new(groupscope::sim::Scenario::demo()).expect("the demo runs");
    page.send(Msg::Load(Box::new(fresh)));
    assert_eq!(page.state.undo, None, "an undo would rebuild the run it came from");
    assert_eq!(page.now(), 0);
    assert!(page.run().player.script.is_empty());
}

#[test]
fn dismissing_the_undo_keeps_the_fork() {
    let mut page = back_in_the_past();
    page.send(crash(2));
    page.send(Msg::DismissUndo);
    assert_eq!(page.state.undo, None);
    assert_eq!(page.run().player.script.len(), 1, "the fault stays");
}
