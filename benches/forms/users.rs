//! Forms that look like what users write (issue 10), each with its serde +
//! schemars twin, and valid content for both.
//!
//! - `Signup`: the 10-field form: a string with `length` + `pattern`,
//!   an `email`, a 50-character string, a `u8` and a `u16` with `range`, an
//!   `f64`, a `bool`, a single-select, a multi-select and an optional `date`.
//! - `Contact`: string-heavy: patterns and formats on every field.
//! - `Limits`: number-heavy: integers of every width and floats, all ranged.
//! - `Survey`: enum-heavy: titled single-selects and several multi-selects.
//! - `Shape`: the form of `bench/build-cost.sh shapes` (issue 47): a
//!   single-select and a multi-select of its own enum, an `email` and a
//!   `date`, an integer and a float range, a length.
//!
//! One macro writes both structs of a pair from one field list, so the form
//! and its twin cannot drift apart.
#![allow(dead_code)]

use elicit_core::Elicit;
use serde::Deserialize;
use serde_json::{Value, json};

/// A form (`#[derive(Elicit)]`) and its twin (`#[derive(Deserialize,
/// JsonSchema)]`) from one list of fields: `name: Type [elicit attrs]
/// [schemars attrs]`.
macro_rules! pair {
    (
        $(#[$meta:meta])* $form:ident / $twin:ident {
            $( $(#[doc = $doc:literal])* $field:ident : $ty:ty [$($e:tt)*] [$($s:tt)*] ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Elicit, Debug, Clone, PartialEq)]
        pub struct $form {
            $( $(#[doc = $doc])* #[elicit($($e)*)] pub $field: $ty, )+
        }

        /// The twin: plain serde (no validation) plus schemars for the schema.
        #[derive(Deserialize, schemars::JsonSchema, Debug, Clone, PartialEq)]
        pub struct $twin {
            $( $(#[doc = $doc])* #[schemars($($s)*)] pub $field: $ty, )+
        }
    };
}

/// A single-select with untitled options.
#[derive(Elicit, Deserialize, schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[elicit(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Team,
    Enterprise,
}

/// Multi-select options.
#[derive(Elicit, Deserialize, schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[elicit(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Topic {
    Releases,
    Security,
    Billing,
    Community,
}

pair! {
    /// The 10-field sign-up form.
    Signup / SignupTwin {
        /// A lowercase handle.
        handle: String [pattern = "^[a-z][a-z0-9_]*$", length(min = 3, max = 16)]
            [regex(pattern = "^[a-z][a-z0-9_]*$"), length(min = 3, max = 16)],
        /// Where to write to.
        email: String [email] [email],
        /// The name shown to others.
        display_name: String [length(max = 50)] [length(max = 50)],
        /// Age in years.
        age: u8 [range(min = 13, max = 120)] [range(min = 13, max = 120)],
        /// The port to listen on.
        port: u16 [range(min = 1024, max = 65535)] [range(min = 1024, max = 65535)],
        /// The share of traffic, from 0 to 1.
        ratio: f64 [] [],
        /// Whether to subscribe.
        newsletter: bool [] [],
        /// The plan.
        plan: Plan [] [],
        /// What to hear about.
        topics: Vec<Topic> [length(max = 4)] [length(max = 4)],
        /// Start date, if any.
        start: Option<String> [date] [extend("format" = "date")],
    }
}

/// Valid content for `Signup` / `SignupTwin`.
pub fn signup() -> Value {
    json!({
        "handle": "ada_l",
        "email": "ada@example.com",
        "display_name": "Ada Lovelace, Countess of Lovelace",
        "age": 36,
        "port": 8080,
        "ratio": 0.25,
        "newsletter": true,
        "plan": "team",
        "topics": ["releases", "security"],
        "start": "2026-12-03",
    })
}

pair! {
    /// String-heavy: every field has a pattern or a format.
    Contact / ContactTwin {
        /// Given name.
        given: String [length(min = 1, max = 40)] [length(min = 1, max = 40)],
        /// Family name.
        family: String [length(min = 1, max = 40)] [length(min = 1, max = 40)],
        /// Work email.
        email: String [email] [email],
        /// Home page.
        homepage: String [uri] [url],
        /// Phone number, E.164.
        phone: String [pattern = "^\\+[1-9][0-9]{6,14}$"] [regex(pattern = "^\\+[1-9][0-9]{6,14}$")],
        /// ISO 3166 country code.
        country: String [pattern = "^[A-Z]{2}$"] [regex(pattern = "^[A-Z]{2}$")],
        /// Postal code.
        postcode: String [pattern = "^[A-Z0-9][A-Z0-9 -]{2,9}$"]
            [regex(pattern = "^[A-Z0-9][A-Z0-9 -]{2,9}$")],
        /// Date of birth.
        born: String [date] [extend("format" = "date")],
        /// When to call back.
        call_at: String [date_time] [extend("format" = "date-time")],
        /// Anything else.
        note: Option<String> [length(max = 280)] [length(max = 280)],
    }
}

/// Valid content for `Contact` / `ContactTwin`.
pub fn contact() -> Value {
    json!({
        "given": "Ada",
        "family": "Lovelace",
        "email": "ada.lovelace@example.co.uk",
        "homepage": "https://example.com/people/ada?tab=notes",
        "phone": "+442071234567",
        "country": "GB",
        "postcode": "SW1A 1AA",
        "born": "1815-12-10",
        "call_at": "2026-12-03T09:30:00+00:00",
        "note": "Prefers letters to calls; ask about the Analytical Engine.",
    })
}

pair! {
    /// Number-heavy: integers of every width and floats, all ranged.
    Limits / LimitsTwin {
        /// CPU cores.
        cpus: f64 [range(min = 0.1, max = 64.0)] [range(min = 0.1, max = 64.0)],
        /// Memory in MiB.
        memory_mib: u32 [range(min = 64, max = 1048576)] [range(min = 64, max = 1048576)],
        /// Replicas.
        replicas: u8 [range(min = 1, max = 16)] [range(min = 1, max = 16)],
        /// Port.
        port: u16 [range(min = 1024)] [range(min = 1024)],
        /// Timeout in milliseconds.
        timeout_ms: i64 [range(min = 1, max = 600000)] [range(min = 1, max = 600000)],
        /// Sampling rate.
        sample_rate: f32 [range(min = 0.0, max = 1.0)] [range(min = 0.0, max = 1.0)],
        /// Retries.
        retries: u8 [range(max = 10)] [range(max = 10)],
        /// Alert threshold.
        threshold: f64 [] [],
        /// Scheduling priority.
        priority: i16 [range(min = -20, max = 19)] [range(min = -20, max = 19)],
        /// Request budget.
        budget: u64 [] [],
    }
}

/// Valid content for `Limits` / `LimitsTwin`.
pub fn limits() -> Value {
    json!({
        "cpus": 2.5,
        "memory_mib": 4096,
        "replicas": 3,
        "port": 8443,
        "timeout_ms": 30000,
        "sample_rate": 0.05,
        "retries": 3,
        "threshold": 0.875,
        "priority": -5,
        "budget": 1000000,
    })
}

/// A titled single-select.
#[derive(Elicit, Deserialize, schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
#[elicit(rename_all = "kebab-case")]
pub enum Region {
    /// Frankfurt.
    #[elicit(title = "Europe (Frankfurt)")]
    EuCentral,
    /// Dublin.
    #[elicit(title = "Europe (Dublin)")]
    EuWest,
    /// Virginia.
    #[elicit(title = "US East (Virginia)")]
    UsEast,
    /// Oregon.
    #[elicit(title = "US West (Oregon)")]
    UsWest,
    /// Tokyo.
    #[elicit(title = "Asia Pacific (Tokyo)")]
    ApNortheast,
}

/// A seven-option multi-select.
#[derive(
    Elicit,
    Deserialize,
    schemars::JsonSchema,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
)]
#[serde(rename_all = "lowercase")]
#[elicit(rename_all = "lowercase")]
pub enum Day {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

/// An eight-option multi-select.
#[derive(Elicit, Deserialize, schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[elicit(rename_all = "snake_case")]
pub enum Feature {
    DarkMode,
    Notifications,
    Analytics,
    Sso,
    AuditLog,
    Webhooks,
    ApiAccess,
    Backups,
}

/// A three-option single-select.
#[derive(Elicit, Deserialize, schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
#[elicit(rename_all = "lowercase")]
pub enum Level {
    Low,
    Medium,
    High,
}

pair! {
    /// Enum-heavy: titled single-selects and several multi-selects.
    Survey / SurveyTwin {
        /// Primary region.
        region: Region [] [],
        /// Fallback region.
        fallback: Option<Region> [] [],
        /// Plan.
        plan: Plan [] [],
        /// Urgency.
        urgency: Level [] [],
        /// Working days.
        days: Vec<Day> [length(min = 1)] [length(min = 1)],
        /// Quiet days.
        quiet_days: std::collections::BTreeSet<Day> [] [],
        /// Features to enable.
        features: Vec<Feature> [length(max = 8)] [length(max = 8)],
        /// Topics.
        topics: Vec<Topic> [] [],
        /// Severity.
        severity: Level [] [],
        /// Whether to apply now.
        apply_now: bool [] [],
    }
}

/// Valid content for `Survey` / `SurveyTwin`.
pub fn survey() -> Value {
    json!({
        "region": "eu-central",
        "fallback": "us-east",
        "plan": "enterprise",
        "urgency": "medium",
        "days": ["monday", "tuesday", "wednesday", "thursday", "friday"],
        "quiet_days": ["saturday", "sunday"],
        "features": ["dark_mode", "sso", "audit_log", "webhooks"],
        "topics": ["security", "billing"],
        "severity": "high",
        "apply_now": false,
    })
}

pair! {
    /// The form of `bench/build-cost.sh shapes`: a multi-select and two
    /// formats.
    Shape / ShapeTwin {
        /// The name shown to others.
        name: String [length(min = 2, max = 40)] [length(min = 2, max = 40)],
        /// Where to write to.
        email: String [email] [email],
        /// The day it starts.
        start: String [date] [extend("format" = "date")],
        /// How many replicas to run.
        replicas: i32 [range(min = 1, max = 64)] [range(min = 1, max = 64)],
        /// The level.
        level: Level [] [],
        /// The levels to watch.
        levels: Vec<Level> [length(min = 1, max = 3)] [length(min = 1, max = 3)],
        /// Whether to notify the team.
        notify: Option<bool> [] [],
        /// The share of traffic, from 0 to 1.
        ratio: f64 [range(min = 0.0, max = 1.0)] [range(min = 0.0, max = 1.0)],
        /// A note, if any.
        note: Option<String> [] [],
        /// How many to keep.
        keep: u16 [] [],
    }
}

/// Valid content for `Shape` / `ShapeTwin`.
pub fn shape() -> Value {
    json!({
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "start": "2026-12-07",
        "replicas": 3,
        "level": "medium",
        "levels": ["low", "high"],
        "notify": true,
        "ratio": 0.25,
        "note": "first run",
        "keep": 7,
    })
}
