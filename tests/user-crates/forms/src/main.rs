//! Defaults syn reads without `full` (a literal, a path, a call) and ones it
//! does not (an array in a call, a `const` block, a turbofish with a comma),
//! each filling its field when the content leaves it out.

use std::collections::{BTreeSet, HashSet};
use std::num::NonZeroU8;

use elicit_core::{Content, Elicit};

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Env {
    Dev,
    Prod,
}

#[derive(Elicit, Debug)]
struct Defaults {
    #[elicit(default = -3, range(min = -5, max = 5))]
    offset: i32,
    #[elicit(default = "main", length(max = 8))]
    branch: String,
    #[elicit(default = Env::Dev)]
    env: Env,
    #[elicit(default = BTreeSet::from([Env::Prod]))]
    targets: BTreeSet<Env>,
    #[elicit(default = const { NonZeroU8::new(4).unwrap() })]
    workers: NonZeroU8,
    #[elicit(default = HashSet::<Env, std::hash::RandomState>::from_iter([Env::Dev]), rename = "pool")]
    fallback: HashSet<Env>,
}

fn main() {
    let form = Defaults::from_content(&Content::new()).expect("every field has a default");
    assert_eq!(form.offset, -3);
    assert_eq!(form.branch, "main");
    assert_eq!(form.env, Env::Dev);
    assert_eq!(form.targets, BTreeSet::from([Env::Prod]));
    assert_eq!(form.workers.get(), 4);
    assert_eq!(form.fallback, HashSet::from([Env::Dev]));
    let schema = Defaults::schema_json();
    assert!(schema.contains(r#""pool":{"type":"array""#), "{schema}");
    println!("ok: every default read, with syn's smaller parser or as written");
}
