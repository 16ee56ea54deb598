//! The derived test types shared by the integration tests: together they
//! cover every row of the type-mapping table and every attribute.
#![allow(dead_code)]

// The test harness's own pieces: the fuzz targets (fuzz/src/lib.rs, which
// includes this file; cargo-fuzz sets `--cfg fuzzing`) use the derived
// types and `page_body` only.
#[cfg(not(fuzzing))]
pub mod examples;
#[cfg(not(fuzzing))]
pub mod http;
#[cfg(not(fuzzing))]
pub mod latency;
/// elicit-core's documented limits, read from its reference page.
pub mod limits;
#[cfg(not(fuzzing))]
pub mod official;
#[cfg(not(fuzzing))]
pub mod oidc;
pub mod page_body;
#[cfg(not(fuzzing))]
pub mod readme;
#[cfg(not(fuzzing))]
pub mod redis;
#[cfg(not(fuzzing))]
pub mod redis_cluster;
#[cfg(not(fuzzing))]
pub mod sensitive;
#[cfg(not(fuzzing))]
pub mod webdriver;

/// The `pattern` of a UUID field, as the wire carries it: the hyphenated
/// form, either case (a test that reads it from elicit would agree with any
/// pattern elicit sent).
#[cfg(feature = "uuid")]
pub const UUID_PATTERN: &str =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
use std::collections::{BTreeSet, HashSet};
use std::num::{NonZero, NonZeroI32, NonZeroU8, NonZeroU16};

use elicit_core::Elicit;

// The spec's refactoring-strategy single-select.
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[elicit(rename_all = "lowercase")]
pub enum Strategy {
    Conservative,
    Balanced,
    Aggressive,
}

// 1. The spec's form-mode example, exactly.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Refactor {
    pub strategy: Strategy,
}

// Where to deploy (titled options: `oneOf`).
#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[elicit(rename_all = "kebab-case")]
pub enum Environment {
    /// Safe to break.
    #[elicit(title = "Staging")]
    Staging,
    #[elicit(title = "Production", description = "Real users: be careful.")]
    Production,
    #[elicit(rename = "dev", title = "Local development")]
    LocalDev,
}

// 2. A deploy form.
/// Deploy the current branch.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(title = "Deploy")]
pub struct Deploy {
    /// Which environment to deploy to.
    pub env: Environment,
    #[elicit(range(min = 1, max = 16), default = 2)]
    pub replicas: u8,
    pub notify: Option<bool>,
}

// 3. Strings: lengths, pattern and every known format.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Profile {
    #[elicit(title = "Display name", length(min = 2, max = 20))]
    pub name: String,
    #[elicit(pattern = "^[a-z][a-z0-9_]*$", length(max = 16))]
    pub handle: String,
    #[elicit(email)]
    pub email: String,
    #[elicit(uri)]
    pub homepage: Option<String>,
    #[elicit(date)]
    pub birthday: Option<String>,
    #[elicit(date_time, description = "When to call you back (RFC 3339).")]
    pub callback_at: Option<String>,
}

// 4. Every integer type, with its own range, some narrowed by `range`.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Integers {
    pub a_i8: i8,
    pub a_i16: i16,
    #[elicit(range(min = -5, max = 5))]
    pub a_i32: i32,
    pub a_i64: i64,
    pub a_u8: u8,
    #[elicit(range(max = 1000))]
    pub a_u16: u16,
    pub a_u32: u32,
    pub a_u64: u64,
    pub a_isize: isize,
    #[elicit(range(min = 1))]
    pub a_usize: usize,
}

// 5. Numbers: `f32` and `f64`, with float and integer bounds and a default.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Numbers {
    #[elicit(range(min = 0.0, max = 1.0), default = 0.5)]
    pub ratio: f32,
    #[elicit(range(min = -273.15))]
    pub temperature: f64,
    #[elicit(range(min = 0, max = 100))]
    pub percent: f64,
}

// 6. `Option` of every kind of field.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Optionals {
    pub text: Option<String>,
    pub flag: Option<bool>,
    pub count: Option<u32>,
    pub amount: Option<f64>,
    pub strategy: Option<Strategy>,
    pub envs: Option<Vec<Environment>>,
}

// 7. Multi-selects: `Vec`, `BTreeSet`, `HashSet`; titled (`anyOf`) and not.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct MultiSelects {
    #[elicit(length(min = 1, max = 2))]
    pub strategies: Vec<Strategy>,
    #[elicit(title = "Environments", default = BTreeSet::from([Environment::Staging]))]
    pub envs: BTreeSet<Environment>,
    pub any_of: HashSet<Strategy>,
}

// 8. Renames: container rule, field `rename`, and serde's renames honoured.
#[derive(Elicit, Debug, Clone, PartialEq, serde::Deserialize)]
#[elicit(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    pub first_name: String,
    #[elicit(rename = "surname")]
    #[serde(rename = "surname")]
    pub last_name: String,
    #[serde(rename = "yearsOfAge")]
    pub age: u8,
}

// 9. serde's `rename_all` on the container, when elicit has none.
#[derive(Elicit, Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct SerdeRenamed {
    pub max_retries: u8,
    #[elicit(rename = "dryRun")]
    pub dry_run: bool,
}

// 10. `skip`, `deny_unknown_fields`, and container title + description.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(
    title = "Feedback",
    description = "Tell us how it went.",
    deny_unknown_fields
)]
pub struct Feedback {
    #[elicit(range(min = 1, max = 5))]
    pub stars: u8,
    pub comment: Option<String>,
    #[elicit(skip)]
    pub internal_id: u64,
}

// 11. Defaults of every kind; each field with a default is not required.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Defaults {
    #[elicit(default = "main")]
    pub branch: String,
    #[elicit(default = true)]
    pub force: bool,
    #[elicit(default = Strategy::Balanced)]
    pub strategy: Strategy,
    #[elicit(default = -1)]
    pub offset: i64,
    #[elicit(default = 3)]
    pub retries: Option<u8>,
}

// The runtime re-exported, as a wrapper crate would have it.
pub mod sdk {
    pub use elicit_core as elicit;
}

// 12. `crate = ".."` for re-exporters, plus doc comments as descriptions.
/// A re-exported form.
///
/// The second paragraph is kept.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(crate = "crate::common::sdk::elicit")]
pub struct Reexported {
    /// A plain question
    /// over two lines.
    pub question: String,
    /// Overridden by the attribute.
    #[elicit(description = "The attribute wins.")]
    pub answer: bool,
}

// 13. A generic form over any single-select.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Pick<C: elicit_core::Choice> {
    pub choice: C,
    pub more: Vec<C>,
}

// 14. Typed std fields: `NonZero` (unsigned; signed with a `range` leaving
// 0 out), `char`, `transparent` newtypes (tuple and named, with their own
// rules) and a type converted with `try_from`/`into`.
#[derive(Elicit, Debug, Clone, Copy, PartialEq)]
#[elicit(transparent)]
pub struct Port(#[elicit(range(min = 1024, max = 65535))] pub u16);

#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(transparent)]
pub struct Contact {
    /// Where to write.
    #[elicit(email, title = "E-mail")]
    pub address: String,
}

/// A lowercase handle, 2 to 16 characters: it validates itself.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(try_from = "String", into = "String")]
pub struct Handle(String);

impl Handle {
    pub fn new(s: &str) -> Self {
        Self::try_from(s.to_owned()).expect("a valid handle")
    }
}

impl TryFrom<String> for Handle {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        if !(2..=16).contains(&s.chars().count()) {
            return Err(format!(
                "a handle has 2 to 16 characters, not {}",
                s.chars().count()
            ));
        }
        if !s
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            return Err("a handle has only lowercase ASCII letters and digits".to_owned());
        }
        Ok(Self(s))
    }
}

impl From<Handle> for String {
    fn from(h: Handle) -> String {
        h.0
    }
}

#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct StdTyped {
    pub workers: NonZeroU8,
    #[elicit(range(max = 64))]
    pub threads: Option<NonZeroU16>,
    #[elicit(range(min = 1, max = 10))]
    pub step: NonZeroI32,
    #[elicit(range(max = -1))]
    pub back: NonZero<i64>,
    pub initial: char,
    #[elicit(default = 'y')]
    pub answer: char,
    pub port: Port,
    #[elicit(title = "Fallback port")]
    pub fallback: Option<Port>,
    pub contact: Contact,
    #[elicit(default = "ops@example.com")]
    pub escalation: Contact,
    pub handle: Handle,
}

// 15. chrono: dates and date-times, with compile-time-checked defaults.
#[cfg(feature = "chrono")]
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct ChronoTyped {
    pub day: chrono::NaiveDate,
    #[elicit(default = "2026-01-01")]
    pub start: chrono::NaiveDate,
    pub at: chrono::DateTime<chrono::Utc>,
    pub local: Option<chrono::DateTime<chrono::FixedOffset>>,
    #[elicit(default = "2026-01-01T09:00:00+01:00")]
    pub meeting: chrono::DateTime<chrono::FixedOffset>,
}

// 16. time.
#[cfg(feature = "time")]
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct TimeTyped {
    pub day: time::Date,
    #[elicit(default = "2026-01-01")]
    pub start: time::Date,
    pub at: time::OffsetDateTime,
    pub until: Option<time::OffsetDateTime>,
    #[elicit(default = "2026-01-01T09:00:00Z")]
    pub meeting: time::OffsetDateTime,
}

// 17. jiff.
#[cfg(feature = "jiff")]
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct JiffTyped {
    pub day: jiff::civil::Date,
    #[elicit(default = "2026-01-01")]
    pub start: jiff::civil::Date,
    pub at: jiff::Timestamp,
    #[elicit(default = "2026-01-01T09:00:00Z")]
    pub meeting: jiff::Timestamp,
    pub end: Option<jiff::civil::Date>,
}

// 18. url.
#[cfg(feature = "url")]
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct UrlTyped {
    /// Where the service runs.
    pub endpoint: url::Url,
    #[elicit(default = "https://example.com/docs")]
    pub docs: url::Url,
    pub mirror: Option<url::Url>,
}

// 19. uuid.
#[cfg(feature = "uuid")]
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct UuidTyped {
    pub id: uuid::Uuid,
    #[elicit(default = "67e55044-10b1-426f-9247-bb680e5fe0c8")]
    pub parent: uuid::Uuid,
    pub other: Option<uuid::Uuid>,
}

/// A loopback port free a moment ago, for a server the test starts.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// What a test needs (a browser, Node, an npm package) is not installed.
/// Under `CI` or `required_by` (a variable `.ci/run` sets) that fails the
/// test with `note`; otherwise the test is skipped, saying `note` on stderr.
/// Always `None`, for the caller to return.
pub fn not_installed<T>(required_by: &str, note: &str) -> Option<T> {
    let required = ["CI", required_by]
        .iter()
        .any(|name| std::env::var_os(name).is_some());
    assert!(!required, "{note}");
    eprintln!("skipped, {note}");
    None
}

/// Every derived test form's schema but the typed ones (`StdTyped`,
/// `ChronoTyped`, ..), with a name for messages: what the ACP and MCP
/// conversion tests run through.
pub fn derived_schemas() -> Vec<(&'static str, elicit_core::ElicitationSchema)> {
    vec![
        ("Refactor", Refactor::schema()),
        ("Deploy", Deploy::schema()),
        ("Profile", Profile::schema()),
        ("Integers", Integers::schema()),
        ("Numbers", Numbers::schema()),
        ("Optionals", Optionals::schema()),
        ("MultiSelects", MultiSelects::schema()),
        ("Renamed", Renamed::schema()),
        ("SerdeRenamed", SerdeRenamed::schema()),
        ("Feedback", Feedback::schema()),
        ("Defaults", Defaults::schema()),
        ("Reexported", Reexported::schema()),
        ("Pick<Strategy>", Pick::<Strategy>::schema()),
        ("Pick<Environment>", Pick::<Environment>::schema()),
    ]
}

/// Awaits a future on the calling thread: the tests' harness is blocking,
/// and elicit-core's futures (its stores', its pages') need no runtime.
#[cfg(not(fuzzing))]
pub trait Now: std::future::Future + Sized {
    /// The future's output, blocking until it is ready.
    fn now(self) -> Self::Output {
        futures::executor::block_on(self)
    }
}

#[cfg(not(fuzzing))]
impl<F: std::future::Future> Now for F {}

/// A client's refusal of a form it cannot render, on either protocol: the
/// guard's `-32602`, its message, and `data.notRenderable` naming the
/// `colour` property of the wire type `_color` (the tests' form).
pub(crate) fn assert_refused_as_unrenderable(
    code: i64,
    message: &str,
    data: Option<serde_json::Value>,
) {
    assert_eq!(code, -32602, "{message}");
    assert!(
        message.starts_with("Invalid params: the requestedSchema cannot be rendered"),
        "{message}"
    );
    let data = data.expect("data");
    assert_eq!(data["notRenderable"][0]["property"], "colour");
    assert_eq!(data["notRenderable"][0]["type"], "_color");
}
