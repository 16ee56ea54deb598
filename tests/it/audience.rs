//! Feature `redis`: errors by audience. Every error a browser or a client
//! gets from a failed store is short and stable (no backend text, no
//! count, no key, no address); the cause is in the log, an event with its
//! reason (`not_replicated`, `redis_unreachable`) and the store's failure
//! with its `cause`. Swept on every path from the stores to a response: a
//! page's visit and post, an agent's page, a used `requestState` (the MCP
//! client's message: `rmcp::request_state`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use elicit_core::mcp::{StateId, UsedStates, UsedStatesError};
use elicit_core::protocol::agent::VerifiedUser;
use elicit_core::redis::{Redis, RedisStore, RedisUsedStates, SealingKeys};
use elicit_core::sensitive::Pages;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, SubscriberExt as _};

use crate::common::Now;
use crate::common::redis::start;
use crate::common::sensitive::Connect;
use crate::sensitive_server::hosted::{builder as hosted, call, get};

/// What a backend's text, or a key, has in it: none may reach a browser
/// or a client.
pub(crate) const BACKEND_WORDS: &[&str] = &[
    "Redis",
    "redis",
    "replica",
    "acknowledg",
    "127.0.0.1",
    "elicit:",
    "page:{",
    "WAIT",
    "timed out",
    "connection",
    "refused",
];

/// Asserts that `text`, which a browser or a client got, names no backend.
pub(crate) fn assert_short_and_stable(what: &str, text: &str) {
    for word in BACKEND_WORDS {
        assert!(
            !text.contains(word),
            "{what} names the backend ({word:?}): {text}"
        );
    }
}

/// The `reason` and `cause` fields of elicit's events.
#[derive(Clone, Default)]
pub(crate) struct Reasons(Arc<Mutex<Vec<(String, String)>>>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Reasons {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        #[derive(Default)]
        struct Fields(String, String);
        impl Visit for Fields {
            fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
                let text = format!("{value:?}").trim_matches('"').to_owned();
                match field.name() {
                    "reason" => self.0 = text,
                    "cause" => self.1 = text,
                    _ => {}
                }
            }
            fn record_str(&mut self, field: &Field, value: &str) {
                self.record_debug(field, &value);
            }
        }
        let mut fields = Fields::default();
        event.record(&mut fields);
        if !fields.0.is_empty() {
            self.0.lock().unwrap().push((fields.0, fields.1));
        }
    }
}

impl Reasons {
    /// `f`, under a subscriber that keeps the events of this thread.
    pub(crate) fn during<T>(&self, f: impl FnOnce() -> T) -> T {
        let subscriber = tracing_subscriber::registry().with(self.clone());
        tracing::subscriber::with_default(subscriber, f)
    }

    pub(crate) fn has(&self, reason: &str, cause: &str) -> bool {
        self.0
            .lock()
            .unwrap()
            .iter()
            .any(|(r, c)| r == reason && c == cause)
    }

    pub(crate) fn all(&self) -> Vec<(String, String)> {
        self.0.lock().unwrap().clone()
    }
}

fn pages(redis: Redis) -> Pages {
    hosted()
        .store(RedisStore::new(redis, SealingKeys::new(1, [7; 32])))
        .build()
}

/// Writes that cannot count (a Redis without the replica they wait for):
/// the post is "Not saved" and can be sent again, the used state is
/// refused and taken back; the log says `not_replicated`.
#[test]
fn writes_that_cannot_count_say_not_saved_and_log_not_replicated() {
    let Some(server) = start() else { return };
    let waiting = Redis::open(&server.url()).unwrap().replicated_writes(1);
    let log = Reasons::default();
    let a = pages(waiting.clone());
    let alice = VerifiedUser::new("alice");
    let page = a.open_for::<Connect>(&alice, "Connect Acme").now().unwrap();
    let path = format!("/elicit/{}", page.id());
    let shown = call(&a, get(&path, Some("alice")), "");
    assert_eq!(shown.status, 200);
    let body = format!(
        "csrf={}&account=acme&token=a-long-enough-token",
        shown.csrf()
    );
    let posted = log.during(|| call(&a, shown.post(&path, "alice", &shown.cookie()), &body));
    assert_eq!(posted.status, 503, "{}", posted.body());
    assert!(posted.body().contains("Not saved"), "{}", posted.body());
    assert_eq!(posted.header("retry-after"), "2");
    assert_short_and_stable("the post's page", posted.body());
    assert!(log.has("not_replicated", ""), "{:?}", log.all());
    assert!(log.has("store_failed", "not_replicated"), "{:?}", log.all());
    // Not saved, so still open: the same page is shown again.
    let cookie = shown.cookie();
    let again = call(&a, get(&path, Some("alice")).header("cookie", &cookie), "");
    assert_eq!(again.status, 200, "{}", again.body());

    // A used state that cannot count is taken back: the same state is
    // unused for a Redis that waits for no replica.
    let expires = SystemTime::now() + Duration::from_secs(60);
    let id: StateId = format!("{:032x}", 42).parse().unwrap();
    let refused = log.during(|| RedisUsedStates::new(waiting).first_use(&id, expires).now());
    assert!(
        matches!(refused, Err(UsedStatesError::NotReplicated)),
        "{refused:?}"
    );
    let plain = RedisUsedStates::new(Redis::open(&server.url()).unwrap());
    assert!(plain.first_use(&id, expires).now().unwrap(), "taken back");
}

/// Redis out of reach: the page is "Not available" to the browser, the
/// agent's error names no address to a client; the log says
/// `redis_unreachable`, and the store's failure its cause.
#[test]
fn an_unreachable_redis_is_a_short_page_and_a_cause_in_the_log() {
    let Some(mut server) = start() else { return };
    let redis = Redis::open(&server.url())
        .unwrap()
        .command_timeout(Duration::from_millis(500));
    let a = pages(redis.clone());
    let alice = VerifiedUser::new("alice");
    let page = a.open_for::<Connect>(&alice, "Connect Acme").now().unwrap();
    let path = format!("/elicit/{}", page.id());
    server.stop();
    let log = Reasons::default();
    let shown = log.during(|| call(&a, get(&path, Some("alice")), ""));
    assert_eq!(shown.status, 503, "{}", shown.body());
    assert!(shown.body().contains("Not available"), "{}", shown.body());
    assert_short_and_stable("the page", shown.body());
    // Refused at once, or not answered within the timeout while the
    // connection is tried again: either cause, named twice.
    let cause = ["redis_unreachable", "redis_timeout"]
        .into_iter()
        .find(|cause| log.has(cause, ""))
        .unwrap_or_else(|| panic!("no cause: {:?}", log.all()));
    assert!(
        log.has("store_failed", cause),
        "no store_failed with its cause: {:?}",
        log.all()
    );
    // What an agent's tool sends its client in place of the error.
    let opened = a.open_for::<Connect>(&alice, "Connect Acme").now();
    let error = elicit_core::flow::ElicitError::PageNotOpened(opened.unwrap_err());
    assert_short_and_stable("the tool's text", error.client_message());
    assert!(
        error.to_string().contains("store"),
        "the agent's log names the cause: {error}"
    );
}
