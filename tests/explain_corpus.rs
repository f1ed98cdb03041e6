//! The explainer on real logs users posted publicly (issue 35): every file under
//! `tests/fixtures/real-logs/` is kept as posted, with a sidecar `.json` naming its source,
//! its client library and what a person reads in it (groups, generations or member epochs,
//! rebalances, causes). The test reads every file, checks that none panics or hangs, compares
//! the reconstruction with the labels and reports how many are fully explained.

use groupscope::explain::explain_text;
use groupscope::explain::model::Report;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// Files fully explained when last measured; the test fails below it.
const EXPLAINED_FLOOR: usize = 49;

/// What a person reads in a log.
#[derive(Debug)]
struct Labels {
    groups: Vec<String>,
    generations: Vec<i64>,
    rebalances: usize,
    causes: Vec<String>,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-logs")
}

fn corpus() -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("the corpus folder")
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    names.sort();
    for p in names {
        let text = String::from_utf8_lossy(&std::fs::read(&p).expect("a corpus log")).into_owned();
        let side = p.with_extension("json");
        let meta: Value = serde_json::from_str(
            &std::fs::read_to_string(&side).unwrap_or_else(|_| panic!("{} has no sidecar", p.display())),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", side.display()));
        out.push((p.file_name().unwrap().to_string_lossy().into_owned(), text, meta));
    }
    out
}

fn labels(meta: &Value) -> Labels {
    let l = &meta["labels"];
    let strs = |k: &str| -> Vec<String> {
        l[k].as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect()).unwrap_or_default()
    };
    Labels {
        groups: strs("groups"),
        generations: l["generations"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_i64).collect())
            .unwrap_or_default(),
        rebalances: l["rebalances"].as_u64().unwrap_or(0) as usize,
        causes: strs("causes"),
    }
}

/// What the reconstruction misses of the labels (empty: fully explained).
fn missing(r: &Report, l: &Labels) -> Vec<String> {
    let mut out = Vec::new();
    let mut gens = BTreeSet::new();
    let mut causes = BTreeSet::new();
    let mut rebalances = 0;
    for want in &l.groups {
        let Some(g) = r.groups.iter().find(|g| &g.group_id == want) else {
            out.push(format!("group {want}"));
            continue;
        };
        rebalances += g.rebalances.len();
        for gen in &g.generations {
            gens.insert(gen.generation);
        }
        for rb in &g.rebalances {
            gens.extend(rb.from_generation);
            gens.extend(rb.to_generation);
            causes.extend(rb.causes.iter().map(|c| c.as_str().to_string()));
        }
    }
    for want in &l.generations {
        if !gens.contains(want) {
            out.push(format!("generation {want}"));
        }
    }
    if rebalances < l.rebalances {
        out.push(format!("{} of {} rebalances", rebalances, l.rebalances));
    }
    for want in &l.causes {
        if !causes.contains(want) {
            out.push(format!("cause {want}"));
        }
    }
    out
}

/// Explains `text` on another thread; None if it panicked or took longer than 20 s.
fn explain_guarded(text: String) -> Option<Report> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(|| explain_text(&text));
        let _ = tx.send(r.ok());
    });
    rx.recv_timeout(Duration::from_secs(20)).ok().flatten()
}

#[test]
fn the_corpus_has_forty_logs_from_ten_libraries_with_their_sources() {
    let c = corpus();
    assert!(c.len() >= 40, "{} logs", c.len());
    let mut libs = BTreeSet::new();
    for (name, _, meta) in &c {
        let src = meta["source"].as_str().unwrap_or("");
        assert!(!src.is_empty(), "{name} names its source");
        let lib = meta["library"].as_str().unwrap_or("");
        assert!(!lib.is_empty(), "{name} names its library");
        assert!(meta["labels"]["groups"].as_array().is_some_and(|g| !g.is_empty()), "{name} names its groups");
        libs.insert(meta["client"].as_str().unwrap_or("").to_string());
    }
    libs.remove("broker");
    assert!(libs.len() >= 10, "client libraries besides the broker: {libs:?}");
    println!("{} logs; client libraries besides the broker: {libs:?}", c.len());
}

#[test]
fn every_real_log_is_read_without_a_panic_or_a_hang_and_most_are_explained() {
    let c = corpus();
    let mut explained = 0;
    let mut report = Vec::new();
    for (name, text, meta) in c.iter() {
        let Some(r) = explain_guarded(text.clone()) else {
            panic!("{name}: the explainer panicked or hung");
        };
        let miss = missing(&r, &labels(meta));
        if miss.is_empty() {
            explained += 1;
        } else {
            report.push(format!("  {name}: missing {}", miss.join(", ")));
        }
    }
    println!("real logs fully explained: {explained} of {}", c.len());
    for l in &report {
        println!("{l}");
    }
    assert!(explained >= EXPLAINED_FLOOR, "{explained} explained, below the floor of {EXPLAINED_FLOOR}");
}

/// docs/explain-dialects.md lists every dialect with its sources and one example line, as
/// `dialects::markdown` (and `explain --dialects`) print them.
#[test]
fn the_dialect_page_is_the_dialects_own_list() {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/explain-dialects.md"))
        .expect("docs/explain-dialects.md");
    assert!(
        page == groupscope::explain::dialects::markdown(),
        "docs/explain-dialects.md is out of date: cargo run --bin explain -- --dialects > docs/explain-dialects.md"
    );
}

/// Each dialect's example line, read in a paste, gives a group.
#[test]
fn every_dialect_example_explains_a_group() {
    for d in groupscope::explain::dialects::DIALECTS {
        let r = explain_text(d.example());
        assert!(!r.groups.is_empty(), "{}: {:?}", d.name(), d.example());
    }
}

/// java.util.logging's SimpleFormatter prints each record on two lines: the time, class and
/// method, then `LEVEL: message`. The message takes the first line's time, and the first line
/// is neither a fact nor an unread line.
#[test]
fn java_util_logging_two_line_records_take_their_first_line_time() {
    let log = "Jul 17, 2026 1:50:29 PM org.apache.kafka.clients.consumer.internals.AbstractCoordinator requestRejoin\n\
INFO: [Consumer clientId=consumer-demo-1, groupId=demo] Request joining group due to: rebalance failed due to 'This is not the correct coordinator.' (NotCoordinatorException)\n\
Jul 17, 2026 1:50:29 PM org.apache.kafka.clients.consumer.internals.AbstractCoordinator sendJoinGroupRequest\n\
INFO: [Consumer clientId=consumer-demo-1, groupId=demo] (Re-)joining group\n\
Jul 17, 2026 1:50:32 PM org.apache.kafka.clients.consumer.internals.AbstractCoordinator$JoinGroupResponseHandler handle\n\
INFO: [Consumer clientId=consumer-demo-1, groupId=demo] Successfully joined group with generation Generation{generationId=7, memberId='consumer-demo-1-9f', protocol='range'}\n";
    let r = explain_text(log);
    assert_eq!(r.lines_unparsed, 0, "{:?}", r.unread);
    let g = r.groups.iter().find(|g| g.group_id == "demo").expect("group demo");
    let rb = &g.rebalances[0];
    // 2026-07-17 13:50:29 UTC
    let t0 = 1_784_296_229_000;
    assert_eq!(rb.start_ms, t0);
    assert_eq!(rb.to_generation, Some(7));
    assert_eq!(g.generations[0].start_ms, t0 + 3_000);
    assert!(rb.causes.contains(&groupscope::explain::model::Cause::CoordinatorMoved), "{:?}", rb.causes);
    let quote = rb.why.iter().find_map(|w| w.quote.clone()).expect("the cause's line is quoted");
    assert!(quote.contains("This is not the correct coordinator"), "{quote}");
}

/// A line that looks like group coordination but that no dialect reads is listed, with its
/// file and line number; lines about something else are not.
#[test]
fn lines_about_the_group_that_no_dialect_reads_are_listed() {
    let log = "2024-05-01 10:00:00,000 INFO [main] app - starting the shop\n\
2024-05-01 10:00:01,000 INFO [main] o.a.k.c.c.internals.ConsumerCoordinator - [Consumer clientId=c-1, groupId=shop] (Re-)joining group\n\
2024-05-01 10:00:02,000 WARN [main] some.framework.Listener - rebalance listener threw, will retry on the next generation\n";
    let r = explain_text(log);
    assert_eq!(r.lines_unparsed, 2);
    assert_eq!(r.unread_count, 1);
    assert_eq!(r.unread[0].line, 3);
    assert!(r.unread[0].text.contains("rebalance listener threw"));
}
