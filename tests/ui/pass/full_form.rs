//! Every supported field kind and every attribute, in the style of
//! tests/it/common/mod.rs.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};

use elicit_core::Elicit;

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[elicit(rename_all = "lowercase")]
enum Strategy {
    Conservative,
    Balanced,
    Aggressive,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[elicit(rename_all = "kebab-case")]
enum Environment {
    /// Safe to break.
    #[elicit(title = "Staging")]
    Staging,
    #[elicit(title = "Production", description = "Real users: be careful.")]
    Production,
    #[elicit(rename = "dev", title = "Local development")]
    LocalDev,
}

#[derive(Elicit, Debug, Clone, PartialEq)]
struct Contact {
    #[elicit(email)]
    email: String,
    phone: Option<String>,
}

/// Everything at once.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(
    title = "Everything",
    description = "Every field kind.",
    rename_all = "camelCase",
    deny_unknown_fields
)]
struct Full {
    /// Shown as the description.
    #[elicit(title = "Display name", length(min = 2, max = 20))]
    display_name: String,
    #[elicit(pattern = "^[a-z][a-z0-9_]*$", length(max = 16), default = "me")]
    handle: String,
    #[elicit(uri)]
    homepage: Option<String>,
    #[elicit(date)]
    birthday: Option<String>,
    #[elicit(date_time)]
    callback_at: Option<String>,
    #[elicit(format = "hostname")]
    host: Option<String>,
    #[elicit(default = true)]
    force: bool,
    a_i8: i8,
    a_i16: i16,
    #[elicit(range(min = -5, max = 5))]
    a_i32: i32,
    a_i64: i64,
    #[elicit(range(min = 1, max = 16), default = 2)]
    a_u8: u8,
    a_u16: u16,
    a_u32: Option<u32>,
    a_u64: u64,
    a_isize: isize,
    a_usize: usize,
    #[elicit(range(min = 0.0, max = 1.0), default = 0.5)]
    ratio: f32,
    #[elicit(range(min = -273.15))]
    temperature: f64,
    #[elicit(default = Strategy::Balanced)]
    strategy: Strategy,
    env: Option<Environment>,
    #[elicit(length(min = 1, max = 2))]
    strategies: Vec<Strategy>,
    #[elicit(default = BTreeSet::from([Environment::Staging]))]
    envs: BTreeSet<Environment>,
    any_of: HashSet<Strategy>,
    maybe_many: Option<Vec<Environment>>,
    #[elicit(rename = "surname")]
    last_name: String,
    #[elicit(skip)]
    internal_id: u64,
    #[elicit(flatten)]
    contact: Contact,
}

// serde's renames are honoured.
#[derive(Elicit, Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct SerdeRenamed {
    max_retries: u8,
    #[serde(rename = "yearsOfAge")]
    age: u8,
    #[elicit(rename = "dryRun")]
    dry_run: bool,
}

// `crate = ".."` for re-exporters.
mod sdk {
    pub use elicit_core as elicit;
}

#[derive(Elicit)]
#[elicit(crate = "crate::full_form::sdk::elicit")]
struct Reexported {
    question: String,
}

#[derive(Elicit)]
#[elicit(allow_empty)]
struct Confirm {}

pub fn main() {
    let _ = Full::schema();
    let _ = Confirm::schema();
    let _ = SerdeRenamed::schema();
    let _ = Reexported::schema();
}
