//! Permalinks and replays: a bad link says why and loses nothing, a good one
//! opens at its moment, a replay of logs can be undone.

use super::*;
use groupscope::i18n::trf;
use groupscope::permalink::VERSION;
use groupscope::sim::{Fault, Scenario};

fn link(scenario: Scenario, script: Vec<(Millis, Fault)>, at: Millis) -> Permalink {
    Permalink { v: VERSION, scenario, script, at }
}

#[test]
fn a_link_that_cannot_be_read_opens_the_demo_and_says_why() {
    let page = Page::opened_with(Some(Err("the link is cut short".into())));
    assert_eq!(page.run().player.scenario, Scenario::demo());
    assert_eq!(page.state.notice, Some(trf(Lang::En, "notice.badlink", &[&"the link is cut short"])));
    assert!(!page.playing());
}

#[test]
fn a_link_to_a_scenario_that_cannot_run_names_the_reason() {
    let mut bad = Scenario::demo();
    bad.brokers = 0;
    let why = groupscope::player::Player::new(bad.clone()).err().expect("no brokers cannot run");
    let page = Page::opened_with(Some(Ok(link(bad, Vec::new(), 0))));
    assert_eq!(page.state.notice, Some(trf(Lang::En, "notice.badlink", &[&why])));
    assert_eq!(page.run().player.scenario, Scenario::demo(), "the demo instead");
}

#[test]
fn a_good_link_opens_at_its_moment_with_its_faults() {
    let script = vec![(2_000, Fault::CrashConsumer { consumer: 1 })];
    let page = Page::opened_with(Some(Ok(link(Scenario::demo(), script.clone(), 5_000))));
    assert_eq!(page.state.notice, None);
    assert_eq!(page.now(), 5_000);
    assert_eq!(page.run().player.script, script);
}

#[test]
fn a_bad_link_pasted_mid_run_is_only_a_notice_the_run_goes_on() {
    let mut page = Page::open();
    page.send(Msg::Play);
    page.frames_until(20, |_| false);
    let (now, version) = (page.now(), page.state.run_version);
    page.send(Msg::Notice(Some(trf(Lang::En, "notice.badlink.kept", &[&"not a link"]))));
    assert_eq!(page.now(), now);
    assert_eq!(page.state.run_version, version, "the run was not touched");
    page.frame();
    assert!(page.now() > now, "and it keeps playing");
}

#[test]
fn a_replay_of_logs_opens_on_the_simulation_tab_and_the_old_run_comes_back() {
    let mut page = Page::open();
    page.play_to(3_000);
    page.send(Msg::Action(Action::Inject(Fault::CrashConsumer { consumer: 2 })));
    page.send(Msg::SetTab(groupscope::page::Tab::Explain));
    let mut replay = Scenario::demo();
    replay.name = "from logs".into();
    page.send(Msg::Replay(Box::new(replay)));
    assert_eq!(page.state.tab, groupscope::page::Tab::Simulation);
    assert_eq!(page.run().player.scenario.name, "from logs");
    assert_eq!(page.state.replayed.as_ref().map(|r| r.group.as_str()), Some("demo"));
    page.send(Msg::ReplayBack);
    assert_eq!(page.now(), 3_000, "back at the moment it was");
    assert_eq!(page.run().player.script, vec![(3_000, Fault::CrashConsumer { consumer: 2 })]);
    assert!(page.state.replayed.is_none());
}

#[test]
fn a_replay_that_cannot_run_says_why_and_keeps_the_run() {
    let mut page = Page::open();
    page.play_to(3_000);
    let mut bad = Scenario::demo();
    bad.brokers = 0;
    page.send(Msg::Replay(Box::new(bad)));
    assert!(page.state.notice.is_some());
    assert_eq!(page.now(), 3_000);
    assert!(page.state.replayed.is_none());
}
