//! Presenter mode: full screen, the clicker's keys, the blank screen, and
//! running on to the next event worth a caption.

use super::*;
use groupscope::page::keys::key;
use groupscope::page::{Flag, Tab};

/// What `k` does on the page now.
fn press_key(page: &mut Page, k: &str) -> Option<bool> {
    let found = {
        let run = page.run();
        key(k, page.state.presenter, run.lesson.as_ref())
    };
    found.map(|found| {
        page.send(found.msg);
        found.take
    })
}

#[test]
fn presenter_mode_asks_for_full_screen_and_leaving_it_leaves_full_screen() {
    let mut page = Page::open();
    assert_eq!(press_key(&mut page, "p"), Some(false), "p toggles presenter mode; the browser may see it too");
    assert!(page.state.presenter);
    assert_eq!(page.effects, vec![Effect::FullScreen(true)]);
    page.send(Msg::Toggle(Flag::Presenter));
    assert!(!page.state.presenter);
    assert_eq!(page.effects.last(), Some(&Effect::FullScreen(false)));
}

#[test]
fn the_clickers_blank_key_pauses_the_run_and_pressing_it_again_comes_back() {
    let mut page = Page::open();
    page.send(Msg::Set(Flag::Presenter, true));
    page.send(Msg::Play);
    page.frame();
    assert_eq!(press_key(&mut page, "b"), Some(true));
    assert!(page.state.blank && !page.playing(), "the room looks at the teacher; nothing plays unseen");
    let now = page.now();
    page.frame();
    assert_eq!(page.now(), now);
    press_key(&mut page, ".");
    assert!(!page.state.blank);
}

#[test]
fn leaving_presenter_mode_leaves_the_blank_screen_too() {
    let mut page = Page::open();
    page.send(Msg::Set(Flag::Presenter, true));
    page.send(Msg::Set(Flag::Blank, true));
    page.send(Msg::Set(Flag::Presenter, false));
    assert!(!page.state.blank);
}

#[test]
fn outside_presenter_mode_b_does_nothing_and_the_arrows_step() {
    let mut page = Page::open();
    assert_eq!(press_key(&mut page, "b"), None);
    assert_eq!(press_key(&mut page, "ArrowRight"), Some(true));
    assert!(page.now() > 0 || !page.run().player.world.trace.is_empty(), "one event on");
    assert_eq!(press_key(&mut page, " "), Some(true), "Space plays, and does not scroll the page");
    assert!(page.playing());
}

#[test]
fn presenting_pagedown_runs_on_to_the_next_event_worth_a_caption() {
    let mut page = Page::open();
    page.send(Msg::Set(Flag::Presenter, true));
    assert_eq!(press_key(&mut page, "PageDown"), Some(true));
    let run = page.run();
    assert!(!run.player.playing, "it stops there, for the presenter to talk");
    assert!(run.player.world.trace.iter().any(groupscope::narrate::worth_a_caption), "it stopped on such an event");
}

#[test]
fn on_the_side_by_side_tab_the_clickers_next_steps_the_panes() {
    let mut page = Page::open();
    page.send(Msg::Set(Flag::Presenter, true));
    page.send(Msg::SetTab(Tab::Compare));
    page.send(Msg::RunToCaption);
    assert_eq!(page.now(), 0, "the main run waits");
    let run = page.run();
    let panes = run.compare.as_ref().expect("the panes open with the tab");
    assert!(panes.sbs.lanes.iter().all(|l| !l.world.trace.is_empty()), "every pane took a step");
}

#[test]
fn in_a_lesson_the_clickers_pagedown_reveals_a_waiting_question() {
    let mut page = Page::open();
    page.send(Msg::Set(Flag::Presenter, true));
    page.lesson(LessonMsg::Open(1, 1));
    assert_eq!(press_key(&mut page, "PageDown"), Some(true));
    assert_eq!(page.phase(), Phase::Running);
    assert_eq!(page.session().prediction().map(|f| f.chosen.clone()), Some(None), "revealed, nobody chose");
}
