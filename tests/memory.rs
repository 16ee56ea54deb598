//! Memory bounds: what one call allocates on hostile input.
//!
//! A counting global allocator measures the peak of live bytes during the
//! call under test, above what was live before it (the input is built
//! first and not counted). The stated bounds (`elicit_core::reference::validation`):
//!
//! - Reading content (`T::from_content`, `T::from_content_owned`,
//!   `ElicitationSchema::validate`) allocates at most [`CONTENT_BOUND`]
//!   bytes for these forms, whatever the content: 10 MiB strings, 100,000
//!   keys, 100,000-deep arrays, 100,000 items. An error repeats at most
//!   `MAX_ECHOED_CHARS` characters of a value, and a `deny_unknown_fields`
//!   form lists at most `MAX_UNKNOWN_FIELDS_LISTED` unknown keys.
//! - The client's guard (`ClientConnection::receive_value`) allocates at
//!   most [`REQUEST_FACTOR`] times the request's JSON size (it builds the
//!   schema it was sent) plus [`CONTENT_BOUND`]; its refusals never repeat
//!   a huge value.
//! - The id tables of both sides stay at their limits
//!   (`MAX_PENDING_URLS`, `MAX_OUTSTANDING_URLS`, the remembered
//!   completions).

use std::alloc::{GlobalAlloc, Layout, System};
use std::mem::ManuallyDrop;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

#[path = "it/common/limits.rs"]
mod limits;
use elicit_core::protocol::agent::AgentConnection;
use elicit_core::protocol::agent::{SendError, UrlRequest};
use elicit_core::protocol::client::ClientConnection;
use elicit_core::protocol::{ElicitationCapabilities, ElicitationScope};
use elicit_core::{Content, ContentError, Elicit, FieldErrorKind};
use limits::{MAX_ECHOED_CHARS, MAX_OUTSTANDING_URLS, MAX_PENDING_URLS, MAX_UNKNOWN_FIELDS_LISTED};
use serde_json::{Map, Value, json};

/// The most bytes one content read may allocate, for the forms here.
const CONTENT_BOUND: usize = 64 << 10;

/// The guard's allocation, per byte of the request's JSON: it builds the
/// schema it was sent (each unknown property kept as its own JSON map) and
/// lists every problem; measured about 26 for 100,000 unknown properties.
const REQUEST_FACTOR: usize = 32;

/// 10 MiB.
const HUGE: usize = 10 << 20;

/// 100,000.
const MANY: usize = 100_000;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; the counters are
// only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// One test at a time: the counters are process-wide, so every test holds
/// this for its whole run (another test building a 10 MiB input would
/// count in this one's measurement).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// The peak of bytes live during `f` above those live before it, and `f`'s
/// result (dropped outside the measurement).
fn peak_of<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let result = f();
    (PEAK.load(Ordering::SeqCst).saturating_sub(before), result)
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq)]
#[elicit(rename_all = "lowercase")]
enum Env {
    Staging,
    Production,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq)]
#[elicit(rename_all = "kebab-case")]
enum Region {
    EuWest,
    UsEast,
}

#[derive(Elicit, Debug)]
struct Deploy {
    #[elicit(length(max = 32), pattern = "^[a-z][a-z0-9-]*$")]
    service: String,
    env: Env,
    #[elicit(range(min = 1, max = 16))]
    replicas: u8,
    regions: Vec<Region>,
    #[elicit(email)]
    report_to: Option<String>,
}

#[derive(Elicit, Debug)]
#[elicit(deny_unknown_fields)]
struct Strict {
    name: String,
}

fn huge() -> String {
    "a".repeat(HUGE)
}

/// An array nested `MANY` deep around `"staging"`, built without recursion.
fn deep() -> Value {
    let mut value = json!("staging");
    for _ in 0..MANY {
        value = Value::Array(vec![value]);
    }
    value
}

fn many_keys() -> Content {
    (0..MANY).map(|i| (format!("k{i}"), Value::Null)).collect()
}

/// Valid answers for every field but the ones `over` replaces (moved in:
/// a deep value is never cloned, which would recurse).
fn deploy_with(over: Vec<(&str, Value)>) -> Content {
    let mut content: Content = json!({
        "service": "web", "env": "staging", "replicas": 2, "regions": ["eu-west"]
    })
    .as_object()
    .cloned()
    .unwrap_or_default();
    for (key, value) in over {
        content.insert(key.to_owned(), value);
    }
    content
}

/// A hostile content for `Deploy`.
struct Case {
    name: &'static str,
    /// Never dropped if a test fails (see `deep`).
    content: ManuallyDrop<Content>,
    /// The fields it must fail.
    failing: Vec<&'static str>,
    /// Holds a `MANY`-deep value: serde_json drops (and clones) a `Value`
    /// recursively, so this one is never dropped. A `Value` parsed from
    /// text is at most 128 deep (serde_json's limit), so only a program can
    /// build one; `from_content` reads it without recursing.
    deep: bool,
}

fn case(name: &'static str, content: Content, failing: &[&'static str]) -> Case {
    Case {
        name,
        content: ManuallyDrop::new(content),
        failing: failing.to_vec(),
        deep: false,
    }
}

fn hostile() -> Vec<Case> {
    let mut keys = many_keys();
    keys.extend(deploy_with(vec![]));
    vec![
        case(
            "huge text",
            deploy_with(vec![("service", huge().into())]),
            &["service"],
        ),
        case(
            "huge select",
            deploy_with(vec![("env", huge().into())]),
            &["env"],
        ),
        case(
            "huge option",
            deploy_with(vec![("regions", json!([huge()]))]),
            &["regions"],
        ),
        case(
            "huge duplicates",
            deploy_with(vec![("regions", json!(["eu-west", huge(), huge()]))]),
            &["regions"],
        ),
        case(
            "huge email",
            deploy_with(vec![("report_to", huge().into())]),
            &["report_to"],
        ),
        case(
            "huge number text",
            deploy_with(vec![("replicas", huge().into())]),
            &["replicas"],
        ),
        case("many keys", keys, &[]),
        case(
            "many items",
            deploy_with(vec![(
                "regions",
                Value::Array(vec![json!("us-east"); MANY]),
            )]),
            &["regions"],
        ),
        case(
            "many bad items",
            deploy_with(vec![(
                "regions",
                Value::Array(vec![json!("nowhere"); MANY]),
            )]),
            &["regions"],
        ),
        Case {
            deep: true,
            ..case("deep select", deploy_with(vec![("env", deep())]), &["env"])
        },
        Case {
            deep: true,
            ..case(
                "deep multi-select",
                deploy_with(vec![("regions", Value::Array(vec![deep()]))]),
                &["regions"],
            )
        },
    ]
}

/// Builds the forms' schemas and compiles their patterns: done once per
/// process, on first use, and not part of a call's bound.
fn warm_up() {
    let valid = deploy_with(vec![("report_to", json!("ops@example.com"))]);
    assert!(Deploy::from_content(&valid).is_ok());
    assert!(Deploy::schema().validate(&valid).is_ok());
    assert!(
        Strict::from_content(
            &json!({"name": "Ada"})
                .as_object()
                .cloned()
                .unwrap_or_default()
        )
        .is_ok()
    );
}

/// Fails unless `f` stays within `bound` bytes; returns its result.
fn within<R>(what: &str, bound: usize, f: impl FnOnce() -> R) -> R {
    warm_up();
    let (peak, result) = peak_of(f);
    assert!(
        peak <= bound,
        "{what}: allocated {peak} bytes, above {bound}"
    );
    result
}

#[test]
fn reading_hostile_content_allocates_a_bounded_amount() {
    let _serial = serial();
    let schema = Deploy::schema();
    for Case {
        name,
        content,
        failing,
        deep,
    } in hostile()
    {
        let read = within(name, CONTENT_BOUND, || Deploy::from_content(&content));
        assert_eq!(failed(name, read.map(drop)), failing, "{name}");
        let validated = within(name, CONTENT_BOUND, || schema.validate(&content));
        assert_eq!(failed(name, validated), failing, "{name}");
        if deep {
            continue;
        }
        let content = ManuallyDrop::into_inner(content);
        let owned = within(name, CONTENT_BOUND, || Deploy::from_content_owned(content));
        assert_eq!(failed(name, owned.map(drop)), failing, "{name}");
    }
}

/// The failing fields of `read`; its message must stay short.
fn failed(name: &str, read: Result<(), ContentError>) -> Vec<String> {
    match read {
        Ok(()) => Vec::new(),
        Err(errors) => {
            let message = errors.to_string();
            assert!(
                message.len() < 1024,
                "{name}: a {}-byte message",
                message.len()
            );
            errors.fields().map(str::to_owned).collect()
        }
    }
}

#[test]
fn an_echoed_value_is_cut() {
    let _serial = serial();
    let content = deploy_with(vec![("env", huge().into())]);
    let errors = Deploy::from_content(&content).expect_err("not an option");
    match errors.errors()[0].kind() {
        FieldErrorKind::NotAnOption { value, allowed } => {
            assert_eq!(value.chars().count(), MAX_ECHOED_CHARS + 1);
            assert!(value.ends_with('…'), "{value}");
            assert_eq!(allowed, &["staging", "production"]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_keys_are_listed_up_to_a_limit_then_counted() {
    let _serial = serial();
    let mut content = many_keys();
    content.insert("name".to_owned(), json!("Ada"));
    let errors = within("strict", CONTENT_BOUND, || Strict::from_content(&content))
        .expect_err("unknown keys");
    assert_eq!(errors.errors().len(), MAX_UNKNOWN_FIELDS_LISTED + 1);
    let last = &errors.errors()[MAX_UNKNOWN_FIELDS_LISTED];
    assert_eq!(
        last.kind(),
        &FieldErrorKind::UnknownFieldAndMore {
            more: MANY - MAX_UNKNOWN_FIELDS_LISTED - 1
        }
    );
    assert_eq!(
        last.to_string(),
        format!(
            "`k16` is not a field of this form, nor are {} more keys (not listed)",
            MANY - MAX_UNKNOWN_FIELDS_LISTED - 1
        )
    );

    // A huge unknown key is named by its first characters.
    let mut content = Map::new();
    content.insert(huge(), Value::Null);
    content.insert("name".to_owned(), json!("Ada"));
    let errors = within("huge key", CONTENT_BOUND, || Strict::from_content(&content))
        .expect_err("unknown key");
    assert_eq!(
        errors.errors()[0].field().chars().count(),
        MAX_ECHOED_CHARS + 1
    );
}

/// `(name, params)` of hostile `elicitation/create` requests.
fn hostile_requests() -> Vec<(&'static str, Value)> {
    let properties: Map<String, Value> = (0..MANY)
        .map(|i| (format!("p{i}"), json!({"type": "_unknown"})))
        .collect();
    let options: Vec<Value> = (0..MANY).map(|i| json!(format!("o{i}"))).collect();
    vec![
        (
            "huge message",
            json!({"sessionId": "s", "mode": "form", "message": huge(),
                   "requestedSchema": {"type": "object", "properties": {}}}),
        ),
        (
            "many properties",
            json!({"sessionId": "s", "mode": "form", "message": "m",
                   "requestedSchema": {"type": "object", "properties": properties}}),
        ),
        (
            "many options",
            json!({"sessionId": "s", "mode": "form", "message": "m",
                   "requestedSchema": {"type": "object", "properties": {
                       "pick": {"type": "string", "enum": options}}}}),
        ),
        (
            "huge id",
            json!({"sessionId": "s", "mode": "url", "message": "m",
                   "elicitationId": huge(), "url": "https://example.com/"}),
        ),
        (
            "huge url",
            json!({"sessionId": "s", "mode": "url", "message": "m", "elicitationId": "e",
                   "url": format!("https://example.com/{}", huge())}),
        ),
        (
            "huge wrong type",
            json!({"sessionId": huge(), "mode": "form", "message": 7,
                   "requestedSchema": {"type": "object", "properties": {}}}),
        ),
        (
            "huge unknown mode",
            json!({"sessionId": "s", "mode": huge(), "message": "m"}),
        ),
    ]
}

#[test]
fn the_client_guard_allocates_in_proportion_to_the_request() {
    let _serial = serial();
    for (name, params) in hostile_requests() {
        let size = serde_json::to_string(&params).map(|s| s.len()).unwrap_or(0);
        let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
        let bound = REQUEST_FACTOR * size + CONTENT_BOUND;
        let result = within(name, bound, || client.receive_value(params));
        if let Err(refusal) = &result {
            assert!(
                refusal.message.len() < 4096,
                "{name}: a {}-byte refusal",
                refusal.message.len()
            );
        }
    }
}

fn url_request(i: usize) -> UrlRequest {
    UrlRequest::new("Connect", format!("https://example.com/connect/{i}"))
}

fn scope() -> ElicitationScope {
    ElicitationScope::session("s")
}

#[test]
fn the_id_tables_stay_bounded() {
    let _serial = serial();
    // Agent: at most MAX_OUTSTANDING_URLS outstanding; one abandoned frees
    // a place.
    let mut agent = AgentConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let mut ids = Vec::new();
    for i in 0..MAX_OUTSTANDING_URLS {
        let (_, pending) = agent.url(scope(), url_request(i)).expect("below the limit");
        ids.push(pending.id().clone());
    }
    assert!(matches!(
        agent.url(scope(), url_request(MAX_OUTSTANDING_URLS)),
        Err(SendError::TooManyOutstanding)
    ));
    assert_eq!(agent.outstanding().count(), MAX_OUTSTANDING_URLS);
    assert!(agent.abandon(&ids[0]));
    assert!(agent.url(scope(), url_request(0)).is_ok());

    // Completed ids leave the outstanding table: after completing them all,
    // a full table's worth can be sent again.
    let outstanding: Vec<_> = agent.outstanding().cloned().collect();
    for id in &outstanding {
        agent.complete(id, None).expect("outstanding");
    }
    assert_eq!(agent.outstanding().count(), 0);
    for i in 0..MAX_OUTSTANDING_URLS {
        let _ = agent
            .url(scope(), url_request(i))
            .expect("the table emptied");
    }

    // Client: at most MAX_PENDING_URLS tracked; the next is -32602.
    let mut client = ClientConnection::new(Some(ElicitationCapabilities::form_and_url()));
    let request = |i: usize| {
        json!({"sessionId": "s", "mode": "url", "message": "m",
               "elicitationId": format!("e{i}"), "url": "https://example.com/"})
    };
    for i in 0..MAX_PENDING_URLS {
        client.receive_value(request(i)).expect("below the limit");
    }
    let refusal = client
        .receive_value(request(MAX_PENDING_URLS))
        .expect_err("above the limit");
    assert_eq!(refusal.code, -32602);
    assert!(
        refusal.message.contains("too many outstanding"),
        "{refusal}"
    );
}
