//! A pattern means on the agent what it means in a JavaScript client: the
//! committed tables in `tests/patterns/` hold JavaScript's verdicts
//! (`new RegExp(p, "u")` and `.test(input)`, written by
//! `tests/patterns/generate.mjs` under Node), and every one must be
//! elicit's verdict too. No Node is needed here.
//!
//! A pattern JavaScript accepts may be refused only for what a linear-time
//! engine cannot run (lookaround, backreferences, the size limits, a
//! property the engine's Unicode version lacks), each named as such; every
//! other refusal, every acceptance of what JavaScript refuses, and every
//! differing match is a disagreement.

use std::path::Path;

use elicit_core::Pattern;
use elicit_pattern::{PatternErrorKind, compile};
use serde::Deserialize;

#[derive(Deserialize)]
struct Table {
    node: String,
    patterns: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    p: String,
    valid: bool,
    #[serde(default)]
    cases: Vec<(String, bool)>,
}

#[derive(Default, Debug)]
struct Tally {
    patterns: usize,
    cases: usize,
    refused_by_javascript: usize,
    refused_for_linear_time: usize,
    disagreements: Vec<String>,
}

fn check(file: &str) -> Tally {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/patterns")
        .join(file);
    check_path(&path)
}

fn check_path(path: &Path) -> Tally {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let table: Table = serde_json::from_str(&text).expect("the table is JSON");
    assert!(
        table.node.starts_with('v'),
        "the table names its Node version"
    );
    let mut t = Tally::default();
    for e in &table.patterns {
        t.patterns += 1;
        let ours = compile(&e.p);
        // elicit-core's `Pattern` gives the same verdict as the dialect.
        let core = Pattern::new(e.p.as_str());
        assert_eq!(core.is_match("").is_ok(), ours.is_ok(), "{:?}", e.p);
        match (ours, e.valid) {
            (Ok(_), false) => t.disagreements.push(format!(
                "{:?}: JavaScript refuses it, elicit accepts it",
                e.p
            )),
            (Err(err), true) if !err.is_valid_javascript() => t.disagreements.push(format!(
                "{:?}: JavaScript accepts it, elicit refuses it as not JavaScript: {err}",
                e.p
            )),
            (Err(err), true) => {
                assert!(matches!(
                    err.kind(),
                    PatternErrorKind::Lookaround(_)
                        | PatternErrorKind::Backreference(_)
                        | PatternErrorKind::UnknownToEngine(_)
                        | PatternErrorKind::TooBig(_)
                ));
                t.refused_for_linear_time += 1;
            }
            (Err(_), false) => t.refused_by_javascript += 1,
            (Ok(regex), true) => {
                for (input, javascript) in &e.cases {
                    t.cases += 1;
                    let elicit = regex.is_match(input);
                    assert_eq!(core.is_match(input), Ok(elicit));
                    if elicit != *javascript {
                        t.disagreements.push(format!(
                            "{:?} on {input:?}: JavaScript says {javascript}, elicit {elicit}",
                            e.p
                        ));
                    }
                }
            }
        }
    }
    t
}

fn assert_agrees(file: &str, min_patterns: usize, min_cases: usize) {
    report(file, check(file), min_patterns, min_cases);
}

fn report(file: &str, t: Tally, min_patterns: usize, min_cases: usize) {
    eprintln!(
        "{file}: {} patterns, {} cases; refused by JavaScript {}, refused for linear time {}; \
         {} disagreements",
        t.patterns,
        t.cases,
        t.refused_by_javascript,
        t.refused_for_linear_time,
        t.disagreements.len()
    );
    assert!(t.patterns >= min_patterns && t.cases >= min_cases, "{t:?}");
    assert!(
        t.disagreements.is_empty(),
        "{} disagreements with JavaScript:\n{}",
        t.disagreements.len(),
        t.disagreements.join("\n")
    );
}

/// The hand-written cases (`tests/patterns/cases.mjs`).
#[test]
fn every_written_case_gets_javascripts_verdict() {
    assert_agrees("ecma-cases.json", 300, 1500);
}

/// Cases nobody wrote: random patterns and inputs from a seeded grammar
/// (`tests/patterns/random.mjs`).
#[test]
fn every_generated_case_gets_javascripts_verdict() {
    assert_agrees("ecma-generated.json", 2500, 10_000);
}

/// A larger table nobody committed:
/// `node tests/patterns/generate.mjs --random 7 20000 /tmp/ecma-7.json`, then
/// `ELICIT_ECMA_TABLE=/tmp/ecma-7.json cargo test --test it ecma_patterns -- --ignored`.
#[test]
#[ignore = "needs a table written by `generate.mjs --random` in ELICIT_ECMA_TABLE"]
fn every_case_of_a_fresh_table_gets_javascripts_verdict() {
    let path = std::env::var("ELICIT_ECMA_TABLE").expect("ELICIT_ECMA_TABLE names a table");
    report(&path, check_path(Path::new(&path)), 1, 1);
}
