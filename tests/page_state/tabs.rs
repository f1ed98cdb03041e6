//! Tabs mid-run, and the Side by side tab on the toolbar's one clock.

use super::*;
use groupscope::compare::clock::THIS_RUN;
use groupscope::examples::COMPARISONS;
use groupscope::page::explain::ExplainMsg;
use groupscope::page::Tab;

fn panes_now(page: &Page) -> Vec<Millis> {
    let run = page.run();
    run.compare.as_ref().expect("the panes").sbs.lanes.iter().map(|l| l.world.now).collect()
}

#[test]
fn switching_tabs_mid_run_keeps_the_run_playing_and_its_faults() {
    let mut page = Page::open();
    page.send(Msg::Play);
    page.frames_until(30, |_| false);
    page.send(Msg::Action(Action::Inject(groupscope::sim::Fault::CrashConsumer { consumer: 3 })));
    for tab in [Tab::Config, Tab::Lab, Tab::Lessons, Tab::Explain] {
        let before = page.now();
        page.send(Msg::SetTab(tab));
        page.frames_until(30, |_| false);
        assert!(page.now() > before, "the run plays on behind the {tab:?} tab");
    }
    page.send(Msg::SetTab(Tab::Simulation));
    assert!(page.playing());
    assert_eq!(page.run().player.script.len(), 1, "the fault injected before is still there");
}

#[test]
fn the_side_by_side_tab_takes_the_toolbars_clock_and_the_main_run_waits() {
    let mut page = Page::open();
    page.send(Msg::Play);
    page.send(Msg::SetTab(Tab::Compare));
    assert_eq!(page.run().compare.as_ref().map(|c| c.id.clone()), Some(COMPARISONS[0].0.to_string()));
    page.send(Msg::Action(Action::TogglePlay));
    let main = page.now();
    page.frames_until(60, |_| false);
    assert_eq!(page.now(), main, "the main run waits while the panes play");
    let now = panes_now(&page);
    assert!(now[0] > 0, "the panes play");
    assert!(now.iter().all(|t| *t == now[0]), "one clock for every pane: {now:?}");
    page.send(Msg::Action(Action::Step));
    let stepped = panes_now(&page);
    assert!(stepped.iter().all(|t| *t == stepped[0]), "stepped together: {stepped:?}");
}

#[test]
fn the_speed_is_one_for_the_main_run_and_the_panes() {
    let mut page = Page::open();
    page.send(Msg::SetTab(Tab::Compare));
    page.send(Msg::Action(Action::SetSpeed(10.0)));
    assert_eq!(page.run().player.speed, 10.0);
    page.send(Msg::SetTab(Tab::Simulation));
    assert_eq!(page.run().player.speed, 10.0, "the run comes back at the speed chosen");
}

#[test]
fn comparing_this_run_puts_its_scenario_and_faults_in_the_panes() {
    let mut page = Page::open();
    page.play_to(2_000);
    page.send(Msg::Action(Action::Inject(groupscope::sim::Fault::CrashConsumer { consumer: 1 })));
    page.send(Msg::SetTab(Tab::Compare));
    page.send(Msg::CompareThisRun);
    let run = page.run();
    let panes = run.compare.as_ref().expect("the panes");
    assert_eq!(panes.id, THIS_RUN);
    assert_eq!(page.state.notice, None);
}

#[test]
fn the_configuration_draft_and_the_pasted_logs_wait_while_other_tabs_are_open() {
    let mut page = Page::open();
    page.send(Msg::SetTab(Tab::Config));
    let draft = Rc::new((groupscope::sim::Scenario::demo(), "{ \"name\": \"mine\"".to_string()));
    page.send(Msg::ConfigDraft(Some(Rc::clone(&draft))));
    page.send(Msg::SetTab(Tab::Explain));
    page.send(Msg::Explain(ExplainMsg::Text("JoinGroup ...".into())));
    page.send(Msg::SetTab(Tab::Simulation));
    page.send(Msg::Play);
    page.frames_until(10, |_| false);
    assert_eq!(page.state.config_draft.as_ref().map(|d| d.1.as_str()), Some(draft.1.as_str()));
    assert_eq!(page.state.explain.text.as_str(), "JoinGroup ...");
}

#[test]
fn a_lesson_steps_comparison_opens_on_the_side_by_side_tab_and_the_lesson_waits() {
    let mut page = Page::open();
    page.lesson(LessonMsg::Open(18, 4));
    let (step, phase) = (page.session().step, page.phase());
    page.lesson(LessonMsg::Compare);
    assert_eq!(page.state.tab, Tab::Compare);
    let id = page.run().compare.as_ref().map(|c| c.id.clone());
    assert_eq!(id.as_deref(), Some("lesson-storms-compared-static-deploy"));
    let now = page.now();
    page.frames_until(30, |_| false);
    assert_eq!(page.now(), now, "the lesson's run waits while the comparison shows");
    page.send(Msg::SetTab(Tab::Simulation));
    assert_eq!((page.session().step, page.phase()), (step, phase), "back to the lesson where it was");
}

#[test]
fn a_new_read_of_logs_stops_the_last_and_a_stopped_reads_late_end_changes_nothing() {
    use groupscope::page::explain::Shown;
    use std::cell::Cell;
    let mut page = Page::open();
    page.send(Msg::SetTab(Tab::Explain));
    let first = Rc::new(Cell::new(false));
    page.send(Msg::Explain(ExplainMsg::Started(100, Rc::clone(&first))));
    let second = Rc::new(Cell::new(false));
    page.send(Msg::Explain(ExplainMsg::Started(200, Rc::clone(&second))));
    assert!(first.get(), "the read before is told to stop");
    page.send(Msg::Explain(ExplainMsg::Done(first, None)));
    assert_eq!(page.state.explain.reading, Some((0, 200)), "its late end changes nothing");
    page.send(Msg::Explain(ExplainMsg::Progress(Rc::clone(&second), 150)));
    assert_eq!(page.state.explain.reading, Some((150, 200)));
    page.send(Msg::Explain(ExplainMsg::Stop));
    assert!(second.get());
    assert_eq!(page.state.explain.reading, None);
    assert!(matches!(page.state.explain.shown, Shown::Cancelled));
}
