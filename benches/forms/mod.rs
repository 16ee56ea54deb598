//! The forms the runtime benchmarks (and the `from_content` fuzz target)
//! measure, each with its plain serde + schemars "twin": the struct an rmcp
//! user would write for the same form.
//!
//! `Form10` is the 10-field form: strings with length, pattern and
//! format rules, integers with ranges, a number, a bool, a single-select and a
//! multi-select. `Form50` repeats the same ten fields five times; `Form1` is
//! the first field alone. Each twin carries the same rules as schemars
//! attributes, so both sides describe the same schema.
#![allow(dead_code)]

pub mod users;

use elicit_core::Elicit;
use serde::Deserialize;
use serde_json::{Value, json};

/// A single-select (used by both sides: elicit and serde agree on the wire
/// names through `rename_all`).
#[derive(Elicit, Deserialize, schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[elicit(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    Conservative,
    Balanced,
    Aggressive,
}

/// The options of the multi-select.
#[derive(Elicit, Deserialize, schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[elicit(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    Dev,
    Staging,
    Production,
}

/// One form (`#[derive(Elicit)]`) and its twin (`#[derive(Deserialize,
/// JsonSchema)]`), made of groups of the same ten fields; the names of each
/// group's fields are given.
macro_rules! forms {
    ($form:ident, $twin:ident; $([
        $name:ident $handle:ident $email:ident $homepage:ident $age:ident
        $replicas:ident $ratio:ident $notify:ident $strategy:ident $envs:ident
    ])+) => {
        /// A benchmark form.
        #[derive(Elicit, Debug, Clone, PartialEq)]
        pub struct $form {
            $(
                /// The name shown to others.
                #[elicit(length(min = 2, max = 40))]
                pub $name: String,
                /// A lowercase handle.
                #[elicit(pattern = "^[a-z][a-z0-9_]*$", length(max = 16))]
                pub $handle: String,
                /// Where to write to.
                #[elicit(email)]
                pub $email: String,
                /// A home page, if any.
                #[elicit(uri)]
                pub $homepage: Option<String>,
                /// Age in years.
                #[elicit(range(min = 13, max = 120))]
                pub $age: u8,
                /// How many replicas to run.
                #[elicit(range(min = 1, max = 64))]
                pub $replicas: i32,
                /// The share of traffic, from 0 to 1.
                #[elicit(range(min = 0.0, max = 1.0))]
                pub $ratio: f64,
                /// Whether to notify the team.
                pub $notify: bool,
                /// How aggressive to be.
                pub $strategy: Strategy,
                /// Where to deploy.
                #[elicit(length(min = 1, max = 3))]
                pub $envs: Vec<Environment>,
            )+
        }

        /// The twin: plain serde (no validation) plus schemars for the schema.
        #[derive(Deserialize, schemars::JsonSchema, Debug, Clone, PartialEq)]
        pub struct $twin {
            $(
                /// The name shown to others.
                #[schemars(length(min = 2, max = 40))]
                pub $name: String,
                /// A lowercase handle.
                #[schemars(regex(pattern = "^[a-z][a-z0-9_]*$"), length(max = 16))]
                pub $handle: String,
                /// Where to write to.
                #[schemars(email)]
                pub $email: String,
                /// A home page, if any.
                #[schemars(url)]
                pub $homepage: Option<String>,
                /// Age in years.
                #[schemars(range(min = 13, max = 120))]
                pub $age: u8,
                /// How many replicas to run.
                #[schemars(range(min = 1, max = 64))]
                pub $replicas: i32,
                /// The share of traffic, from 0 to 1.
                #[schemars(range(min = 0.0, max = 1.0))]
                pub $ratio: f64,
                /// Whether to notify the team.
                pub $notify: bool,
                /// How aggressive to be.
                pub $strategy: Strategy,
                /// Where to deploy.
                #[schemars(length(min = 1, max = 3))]
                pub $envs: Vec<Environment>,
            )+
        }
    };
}

forms!(Form10, Twin10; [name handle email homepage age replicas ratio notify strategy envs]);

forms!(Form50, Twin50;
    [name0 handle0 email0 homepage0 age0 replicas0 ratio0 notify0 strategy0 envs0]
    [name1 handle1 email1 homepage1 age1 replicas1 ratio1 notify1 strategy1 envs1]
    [name2 handle2 email2 homepage2 age2 replicas2 ratio2 notify2 strategy2 envs2]
    [name3 handle3 email3 homepage3 age3 replicas3 ratio3 notify3 strategy3 envs3]
    [name4 handle4 email4 homepage4 age4 replicas4 ratio4 notify4 strategy4 envs4]
);

/// `Form10` without its attributes' rules (no `length`, `pattern`, format
/// or `range`; the types' own rules stay: `u8` and `i32` bounds, options,
/// no item twice). `Form10` against it is what the rules cost; it against
/// `Twin10`, what reading costs besides them.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Bare10 {
    /// The name shown to others.
    pub name: String,
    /// A lowercase handle.
    pub handle: String,
    /// Where to write to.
    pub email: String,
    /// A home page, if any.
    pub homepage: Option<String>,
    /// Age in years.
    pub age: u8,
    /// How many replicas to run.
    pub replicas: i32,
    /// The share of traffic, from 0 to 1.
    pub ratio: f64,
    /// Whether to notify the team.
    pub notify: bool,
    /// How aggressive to be.
    pub strategy: Strategy,
    /// Where to deploy.
    pub envs: Vec<Environment>,
}

/// The 1-field form: the first field of `Form10`.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Form1 {
    /// The name shown to others.
    #[elicit(length(min = 2, max = 40))]
    pub name: String,
}

/// The twin of `Form1`.
#[derive(Deserialize, schemars::JsonSchema, Debug, Clone, PartialEq)]
pub struct Twin1 {
    /// The name shown to others.
    #[schemars(length(min = 2, max = 40))]
    pub name: String,
}

/// Valid content for `Form10` / `Twin10`: every field present and valid.
pub fn valid10() -> Value {
    json!({
        "name": "Ada Lovelace",
        "handle": "ada_l",
        "email": "ada@example.com",
        "homepage": "https://example.com/ada",
        "age": 36,
        "replicas": 3,
        "ratio": 0.25,
        "notify": true,
        "strategy": "balanced",
        "envs": ["staging", "production"],
    })
}

/// Invalid content for `Form10` / `Twin10`: six fields break a rule (length,
/// pattern, format, range, a wrong type and an unknown option); the rest are
/// valid. serde alone sees only the last two (a type error and an unknown
/// variant); elicit and jsonschema report all six.
pub fn invalid10() -> Value {
    json!({
        "name": "A",
        "handle": "Ada-L",
        "email": "not an email",
        "homepage": "https://example.com/ada",
        "age": 200,
        "replicas": 3,
        "ratio": 0.25,
        "notify": "yes",
        "strategy": "reckless",
        "envs": ["staging"],
    })
}

/// Valid content for `Form50` / `Twin50`: `valid10` five times, with suffixes.
pub fn valid50() -> Value {
    let ten = valid10();
    let mut content = serde_json::Map::new();
    for group in 0..5 {
        for (key, value) in ten.as_object().expect("an object") {
            content.insert(format!("{key}{group}"), value.clone());
        }
    }
    Value::Object(content)
}

/// Valid content for `Form1` / `Twin1`.
pub fn valid1() -> Value {
    json!({"name": "Ada Lovelace"})
}
