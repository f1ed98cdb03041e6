//! docs/glossary.md is the one glossary of the Chinese page: every Chinese
//! text of the page's tables, the narration and the fault labels uses its
//! terms (never a word of its "never" column) and leaves none of its English
//! terms untranslated (Kafka's identifiers excepted: configs, states, APIs,
//! errors and callbacks stay as Kafka spells them).

use crate::common::words::plain_words;
use groupscope::i18n::{PAGE, TABLE};
use groupscope::narrate::fault::DESCRIPTIONS;
use groupscope::narrate_zh;

struct Term {
    english: String,
    never: Vec<String>,
}

fn glossary() -> Vec<Term> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/glossary.md")).expect("docs/glossary.md");
    let rows: Vec<Term> = text
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| English"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            Term {
                english: cells[0].to_string(),
                never: cells
                    .get(2)
                    .map(|c| c.split('/').map(|w| w.trim().to_string()).filter(|w| !w.is_empty()).collect())
                    .unwrap_or_default(),
            }
        })
        .collect();
    assert!(rows.len() >= 20, "the glossary table was not read ({} rows)", rows.len());
    rows
}

fn chinese_texts() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        TABLE.iter().chain(PAGE.iter()).map(|(k, _, zh)| (k.to_string(), zh.to_string())).collect();
    for (en, zh) in DESCRIPTIONS {
        out.push((en.to_string(), zh.to_string()));
    }
    out.extend(crate::common::triggers::texts());
    for n in crate::common::notes::one_of_each() {
        out.push((n.en(), narrate_zh::note(&n)));
    }
    out
}

#[test]
fn the_chinese_page_uses_the_glossary_and_leaves_no_glossary_term_in_english() {
    let terms = glossary();
    // Terms the glossary keeps in English in Chinese text.
    let kept = ["broker", "leader", "worker"];
    for (key, zh) in chinese_texts() {
        for t in &terms {
            for never in &t.never {
                assert!(
                    !zh.contains(never.as_str()),
                    "{key}: '{zh}' says '{never}'; the glossary says to use its term for '{}'",
                    t.english
                );
            }
        }
        let words = plain_words(&zh);
        for t in terms.iter().filter(|t| !kept.iter().any(|k| t.english.starts_with(k))) {
            let english: Vec<&str> = t.english.split_whitespace().collect();
            let found =
                words.windows(english.len()).any(|w| w.iter().zip(&english).all(|(a, b)| a.eq_ignore_ascii_case(b)));
            assert!(!found, "{key}: '{zh}' leaves '{}' in English", t.english);
        }
    }
}

#[test]
fn plain_words_skip_kafkas_identifiers() {
    assert_eq!(plain_words("首次再均衡：等待 group.initial.rebalance.delay.ms = 3000 ms"), vec!["ms"]);
    assert_eq!(plain_words("心跳返回 REBALANCE_IN_PROGRESS：下次 poll() 时重新加入"), Vec::<String>::new());
    assert_eq!(plain_words("首次 rebalance"), vec!["rebalance"]);
}
