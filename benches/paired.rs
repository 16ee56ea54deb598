//! Paired runtime ratios: `cargo bench -p elicit-benches --bench paired` (see BENCHMARKS.md,
//! "Reading at serde's floor").
//!
//! Each elicit path and its serde counterpart run in alternating batches
//! (64 reads each, the order swapped every round, 2,000 rounds), and the
//! ratio is the median of the rounds' ratios. On a shared machine whose
//! speed shifts for seconds at a time, both sides of a round run at the
//! same speed, which two divan benchmarks run one after the other do not.
//! Each read's output is dropped inside its batch on both sides (the same
//! field types); an owned path's inputs are cloned before its batch, outside
//! the timing.
//!
//! The second table holds serde's read followed by the form's own rules,
//! checked by hand on the twin with the checks elicit runs (`email`, `uri`,
//! `date`, the compiled pattern, lengths, ranges, no item twice): the floor
//! of any reader that checks those rules, against which elicit's read is
//! then measured.
//!
//! Benchmarks are never asserted; the checks only make sure each path does
//! what its name says.

mod forms;

use std::hint::black_box;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use elicit_core::__private::{is_date, is_email, is_uri};
use elicit_core::{Content, Elicit};
use forms::users::{Shape, ShapeTwin};
use forms::{Bare10, Form10, Twin10};
use serde::de::DeserializeOwned;
use serde_json::Value;

const BATCH: usize = 64;
const ROUNDS: usize = 2000;

fn object(value: Value) -> Content {
    match value {
        Value::Object(map) => map,
        other => panic!("content must be an object, got {other}"),
    }
}

/// One side of a pair: a batch of `BATCH` reads, timed.
trait Side {
    fn batch(&self) -> Duration;
}

/// Reads borrowed content with `read`.
struct Borrowed<I, F> {
    input: I,
    read: F,
}

impl<I, T, F: Fn(&I) -> T> Side for Borrowed<I, F> {
    fn batch(&self) -> Duration {
        let start = Instant::now();
        for _ in 0..BATCH {
            black_box((self.read)(black_box(&self.input)));
        }
        start.elapsed()
    }
}

/// Consumes a fresh clone of the input with `read`; the clones are made
/// before the timing.
struct Owned<I, F> {
    input: I,
    read: F,
}

impl<I: Clone, T, F: Fn(I) -> T> Side for Owned<I, F> {
    fn batch(&self) -> Duration {
        let inputs: Vec<I> = (0..BATCH).map(|_| self.input.clone()).collect();
        let start = Instant::now();
        for input in inputs {
            black_box((self.read)(black_box(input)));
        }
        start.elapsed()
    }
}

/// Runs the pair and prints each side's median time per read and the median
/// of the rounds' ratios.
fn pair(name: &str, elicit: &dyn Side, serde: &dyn Side) {
    let mut ratios = Vec::with_capacity(ROUNDS);
    let (mut a, mut b) = (Vec::with_capacity(ROUNDS), Vec::with_capacity(ROUNDS));
    for round in 0..ROUNDS {
        let (te, ts) = if round % 2 == 0 {
            let te = elicit.batch();
            (te, serde.batch())
        } else {
            let ts = serde.batch();
            (elicit.batch(), ts)
        };
        ratios.push(te.as_secs_f64() / ts.as_secs_f64());
        a.push(te.as_secs_f64());
        b.push(ts.as_secs_f64());
    }
    let per_read = |v: &mut Vec<f64>| median(v) / BATCH as f64 * 1e9;
    println!(
        "{name:<48} {:>8.1} ns {:>8.1} ns {:>7.2}x",
        per_read(&mut a),
        per_read(&mut b),
        median(&mut ratios)
    );
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn borrowed<F: Elicit, T: DeserializeOwned>(name: &str, content: Value) {
    let map = object(content.clone());
    assert!(F::from_content(&map).is_ok() && T::deserialize(&content).is_ok());
    pair(
        name,
        &Borrowed {
            input: map,
            read: |c: &Content| F::from_content(c),
        },
        &Borrowed {
            input: content,
            read: |v: &Value| T::deserialize(v),
        },
    );
}

fn owned<F: Elicit, T: DeserializeOwned>(name: &str, content: Value) {
    let map = object(content.clone());
    assert!(F::from_content_owned(map.clone()).is_ok());
    assert!(serde_json::from_value::<T>(content.clone()).is_ok());
    pair(
        name,
        &Owned {
            input: map,
            read: F::from_content_owned,
        },
        &Owned {
            input: content,
            read: serde_json::from_value::<T>,
        },
    );
}

/// A twin whose form's rules can be checked by hand once serde has read it.
trait Rules: DeserializeOwned {
    /// Whether the value passes every rule of the form.
    fn rules(&self) -> bool;

    /// serde's borrowed read, then the rules.
    fn read_checked(value: &Value) -> Option<Self> {
        Self::deserialize(value).ok().filter(Self::rules)
    }

    /// serde's consuming read, then the rules.
    fn take_checked(value: Value) -> Option<Self> {
        serde_json::from_value::<Self>(value)
            .ok()
            .filter(Self::rules)
    }
}

/// `Form10`'s handle pattern, compiled once as elicit compiles it.
static HANDLE: LazyLock<elicit_pattern::Regex> = LazyLock::new(|| {
    elicit_pattern::compile("^[a-z][a-z0-9_]*$").expect("the handle pattern compiles")
});

/// `length(min, max)` in characters, settled by the byte length when it
/// can be (as elicit does: a string has between `len / 4` and `len`
/// characters).
fn chars_within(text: &str, min: usize, max: usize) -> bool {
    let bytes = text.len();
    if bytes <= max && bytes.div_ceil(4) >= min {
        return true;
    }
    (min..=max).contains(&text.chars().count())
}

/// `length(min, max)` of a selection with no item twice.
fn selection_within<T: PartialEq>(items: &[T], min: usize, max: usize) -> bool {
    (min..=max).contains(&items.len())
        && items
            .iter()
            .enumerate()
            .all(|(i, item)| !items[..i].contains(item))
}

impl Rules for Twin10 {
    fn rules(&self) -> bool {
        chars_within(&self.name, 2, 40)
            && chars_within(&self.handle, 0, 16)
            && HANDLE.is_match(&self.handle)
            && is_email(&self.email)
            && self.homepage.as_deref().is_none_or(is_uri)
            && (13..=120).contains(&self.age)
            && (1..=64).contains(&self.replicas)
            && (0.0..=1.0).contains(&self.ratio)
            && selection_within(&self.envs, 1, 3)
    }
}

impl Rules for ShapeTwin {
    fn rules(&self) -> bool {
        chars_within(&self.name, 2, 40)
            && is_email(&self.email)
            && is_date(&self.start)
            && (1..=64).contains(&self.replicas)
            && selection_within(&self.levels, 1, 3)
            && (0.0..=1.0).contains(&self.ratio)
    }
}

/// The rules' cost over serde's read, then elicit's reads against serde's
/// with the rules, borrowed and consuming.
fn with_rules<F: Elicit, T: Rules>(form: &str, content: Value) {
    let map = object(content.clone());
    assert!(T::read_checked(&content).is_some() && T::take_checked(content.clone()).is_some());
    assert!(F::from_content(&map).is_ok());
    pair(
        &format!("{form}'s twin + rules / deserialize(&Value)"),
        &Borrowed {
            input: content.clone(),
            read: T::read_checked,
        },
        &Borrowed {
            input: content.clone(),
            read: |v: &Value| T::deserialize(v),
        },
    );
    pair(
        &format!("{form} from_content / twin + rules"),
        &Borrowed {
            input: map.clone(),
            read: |c: &Content| F::from_content(c),
        },
        &Borrowed {
            input: content.clone(),
            read: T::read_checked,
        },
    );
    pair(
        &format!("{form} from_content_owned / from_value + rules"),
        &Owned {
            input: map,
            read: F::from_content_owned,
        },
        &Owned {
            input: content,
            read: T::take_checked,
        },
    );
}

fn main() {
    // `cargo test --benches` runs bench targets once as tests: nothing to
    // time then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    println!(
        "{:<48} {:>11} {:>11} {:>8}",
        "path against serde (median per read)", "elicit", "serde", "ratio"
    );
    borrowed::<Form10, Twin10>(
        "Form10 from_content / deserialize(&Value)",
        forms::valid10(),
    );
    borrowed::<Shape, ShapeTwin>(
        "Shape from_content / deserialize(&Value)",
        forms::users::shape(),
    );
    borrowed::<Bare10, Twin10>(
        "Bare10 from_content / deserialize(&Value)",
        forms::valid10(),
    );
    owned::<Form10, Twin10>("Form10 from_content_owned / from_value", forms::valid10());
    owned::<Shape, ShapeTwin>(
        "Shape from_content_owned / from_value",
        forms::users::shape(),
    );
    println!(
        "\n{:<48} {:>11} {:>11} {:>8}",
        "the same rules by hand after serde", "first", "second", "ratio"
    );
    with_rules::<Form10, Twin10>("Form10", forms::valid10());
    with_rules::<Shape, ShapeTwin>("Shape", forms::users::shape());
    println!(
        "\n{:<48} {:>11} {:>11} {:>8}",
        "a tool's complete arguments, against Parameters<T>", "elicit", "serde", "ratio"
    );
    arguments::<Form10, Twin10>("Form10", forms::valid10());
    arguments::<Shape, ShapeTwin>("Shape", forms::users::shape());
}

/// A tool's complete arguments read as the form (`Rounds::arguments`
/// before it asks: in place, every rule), against rmcp's `Parameters<T>`
/// (serde's consuming read of the arguments it takes), with the same rules
/// checked by hand after it, and without; then with the one copy of the
/// arguments `mcp::routed` makes per call (rmcp's other extractors may take
/// them).
fn arguments<F: Elicit, T: Rules>(form: &str, content: Value) {
    use elicit_core::__private::complete_arguments;
    let map = object(content.clone());
    assert!(complete_arguments::<F>(&map).is_some() && T::take_checked(content.clone()).is_some());
    pair(
        &format!("{form} arguments / Parameters<T> + rules"),
        &Borrowed {
            input: map.clone(),
            read: |c: &Content| complete_arguments::<F>(c),
        },
        &Owned {
            input: content.clone(),
            read: T::take_checked,
        },
    );
    pair(
        &format!("{form} arguments / Parameters<T>, no rule"),
        &Borrowed {
            input: map.clone(),
            read: |c: &Content| complete_arguments::<F>(c),
        },
        &Owned {
            input: content.clone(),
            read: serde_json::from_value::<T>,
        },
    );
    pair(
        &format!("{form} copy + arguments / Parameters<T> + rules"),
        &Borrowed {
            input: map,
            read: |c: &Content| complete_arguments::<F>(&c.clone()),
        },
        &Owned {
            input: content,
            read: T::take_checked,
        },
    );
}
