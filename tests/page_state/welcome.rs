//! The first visit and the welcome's three doors.

use super::*;
use groupscope::i18n::tr;
use groupscope::page::{Door, Tab};
use groupscope::sim::Scenario;

#[test]
fn a_first_visit_opens_the_demo_paused_on_the_simulation_tab() {
    let page = Page::open();
    let s = &page.state;
    assert_eq!(s.tab, Tab::Simulation);
    assert_eq!(s.notice, None, "nothing went wrong, so nothing is said");
    assert!(!page.playing(), "the page starts paused");
    assert_eq!(page.now(), 0);
    assert_eq!(page.run().player.scenario, Scenario::demo());
    assert!(page.run().lesson.is_none() && page.run().compare.is_none());
}

#[test]
fn the_demo_door_plays_the_demo_and_the_clock_moves_it() {
    let mut page = Page::open();
    page.send(Msg::SetTab(Tab::Lab));
    page.send(Msg::Door(Door::Demo));
    assert_eq!(page.state.tab, Tab::Simulation, "the demo is shown where it plays");
    assert!(page.playing());
    for _ in 0..10 {
        page.frame();
    }
    assert!(page.now() > 0, "ten frames of a playing run move its clock");
    assert!(!page.run().player.world.trace.is_empty());
}

#[test]
fn the_sandbox_door_says_how_to_start_and_leaves_the_run_paused() {
    let mut page = Page::open();
    page.send(Msg::Door(Door::Sandbox));
    assert_eq!(page.state.notice.as_deref(), Some(tr(Lang::En, "welcome.sandbox")));
    assert!(!page.playing());
    page.send(Msg::Notice(None));
    assert_eq!(page.state.notice, None, "the notice closes");
}

#[test]
fn the_course_door_changes_nothing_until_the_course_opens_a_lesson() {
    let mut page = Page::open();
    let before = Rc::clone(&page.state);
    let effects = page.send(Msg::Door(Door::Course));
    assert!(Rc::ptr_eq(&before, &page.state), "the same state: the page is not drawn again");
    assert!(effects.is_empty());
}

#[test]
fn a_frame_while_paused_changes_nothing_and_is_not_drawn() {
    let mut page = Page::open();
    let before = Rc::clone(&page.state);
    page.frame();
    assert!(Rc::ptr_eq(&before, &page.state));
    assert_eq!(page.state.run_version, 0);
}

#[test]
fn a_frame_of_a_playing_run_bumps_the_run_version_the_slower_panels_follow() {
    let mut page = Page::open();
    page.send(Msg::Play);
    let (version, revision) = (page.state.run_version, page.state.revision);
    page.frame();
    assert_eq!(page.state.run_version, version + 1);
    assert_eq!(page.state.revision, revision, "the run moved, it was not replaced");
}
