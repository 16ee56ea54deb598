//! Feature `tracing` (`elicit_core::trace`): no secret in any event or span.
//!
//! Every flow runs under a capturing subscriber at `TRACE`: a secret page
//! (loopback, on the ACP SDK's both sides, with a wrong CSRF token, another
//! browser and a cross-site post before the right post), an OAuth flow
//! against the scripted loopback provider (a forged `state`, then the code
//! exchanged for tokens) and one against the real OpenID provider in
//! headless Chromium (`common::oidc`; skipped without them unless
//! required), the MCP rounds at both versions (a `requestState` answered,
//! replayed and tampered with; a secret page posted), a sessionless
//! 2025-11-25 call (`-32042`) answered by the MCP host's retry, the MCP
//! host's side, the client guard's `-32602` and a URL its review refuses,
//! and hosted pages on the Redis store (the wrong user, then Redis
//! stopped). Each added flow is checked to have emitted (`captured`).
//! Then every field of every event and span, whoever
//! emitted it, is searched for each value the test put in or took from the
//! wire (secrets, binding cookies, CSRF tokens, page ids, OAuth `state`,
//! PKCE verifier, code and tokens, `requestState`, sealing and state keys),
//! written plain, in hex, in base64 (standard and URL-safe, padded or not)
//! and URL-encoded. None may be in elicit's events and spans, at any
//! level, nor in any crate's at `INFO` and above, but rmcp's at `ERROR`
//! only; a dependency's own events below those (rmcp logs whole messages
//! at `DEBUG`, error responses at `WARN` and notifications at `INFO`) are
//! listed in the output, not refused: keep those crates at those levels.
//!
//! The subscriber is the process's global one, so that the threads elicit
//! and its dependencies start (the page server's, Redis's, the renderer's)
//! are captured too: the sweep runs in a child process of this test binary
//! (`child`, ignored unless `ELICIT_TRACE_SWEEP` is set), which the test
//! `no_secret_in_any_event_or_span` starts and checks.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

use base64::Engine as _;
use elicit_core::protocol::agent::VerifiedUser;
use elicit_core::protocol::client::UrlAnswer;
use elicit_core::protocol::{CreateElicitationRequest, ElicitationId, ElicitationScope};
use elicit_core::sensitive::Pages;
use serde_json::{Value, json};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;

use crate::acp_sdk::{Flow, Got, Script, form_and_url, form_only, run, shown_url};
use crate::common::Now;
use crate::common::http::Req;

/// The environment variable that makes `child` run.
const CHILD: &str = "ELICIT_TRACE_SWEEP";

/// The secret typed into the pages.
const SECRET: &str = "dt-sweep-3c9e41f07a2b";

/// What the subscriber saw: one entry per event, span and record.
#[derive(Debug, Clone)]
struct Seen {
    /// `event`, `span` or `record` (a span's fields recorded later).
    kind: &'static str,
    level: Level,
    target: String,
    name: String,
    fields: Vec<(String, String)>,
}

impl Seen {
    fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Everything it holds, as text.
    fn text(&self) -> String {
        let mut text = format!("{} {} {} ", self.kind, self.target, self.name);
        for (name, value) in &self.fields {
            let _ = write!(text, "{name}={value} ");
        }
        text
    }
}

fn seen() -> &'static Mutex<Vec<Seen>> {
    static SEEN: OnceLock<Mutex<Vec<Seen>>> = OnceLock::new();
    SEEN.get_or_init(Mutex::default)
}

/// Records every field as text: `Debug` for what is not a string (a
/// `Display` value recorded with `%` is written by its `Display`).
#[derive(Default)]
struct Fields(Vec<(String, String)>);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push((field.name().to_owned(), value.to_owned()));
    }
}

/// The capturing layer: every span (at its creation and each record) and
/// every event, whatever its level and target.
struct Capture;

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Capture {
    fn on_new_span(&self, attrs: &Attributes<'_>, _: &Id, _: Context<'_, S>) {
        let mut fields = Fields::default();
        attrs.record(&mut fields);
        let meta = attrs.metadata();
        push("span", meta, fields);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let mut fields = Fields::default();
        values.record(&mut fields);
        if let Some(span) = ctx.span(id) {
            push("record", span.metadata(), fields);
        }
    }

    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        push("event", event.metadata(), fields);
    }
}

fn push(kind: &'static str, meta: &tracing::Metadata<'_>, fields: Fields) {
    seen().lock().unwrap().push(Seen {
        kind,
        level: *meta.level(),
        target: meta.target().to_owned(),
        name: meta.name().to_owned(),
        fields: fields.0,
    });
}

/// Every way the test can think of to write `value`: plain, URL-encoded,
/// hex and base64 of its bytes, and, for a value written in hex (a token),
/// base64 of the bytes it stands for.
fn encodings(value: &str) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    let mut bytes = vec![value.as_bytes().to_vec()];
    if value.len().is_multiple_of(2) && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        let decoded = (0..value.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&value[i..i + 2], 16).unwrap())
            .collect();
        bytes.push(decoded);
    }
    all.insert(value.to_owned());
    all.insert(url::form_urlencoded::byte_serialize(value.as_bytes()).collect());
    for bytes in bytes {
        all.insert(bytes.iter().map(|b| format!("{b:02x}")).collect());
        all.insert(bytes.iter().map(|b| format!("{b:02X}")).collect());
        for engine in [
            &base64::engine::general_purpose::STANDARD,
            &base64::engine::general_purpose::STANDARD_NO_PAD,
            &base64::engine::general_purpose::URL_SAFE,
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
        ] {
            all.insert(engine.encode(&bytes));
        }
        // A Rust `Debug` of the bytes.
        all.insert(format!("{bytes:?}"));
    }
    all
}

/// The values the flows put in or took from the wire, with what they are.
#[derive(Default)]
struct Secrets(Vec<(&'static str, String)>);

impl Secrets {
    fn add(&mut self, what: &'static str, value: impl Into<String>) {
        let value = value.into();
        assert!(value.len() >= 8, "{what} is too short to search: {value:?}");
        self.0.push((what, value));
    }
}

#[test]
fn no_secret_in_any_event_or_span() {
    let exe = std::env::current_exe().unwrap();
    let output = std::process::Command::new(exe)
        .args([
            "trace_sweep::child",
            "--exact",
            "--include-ignored",
            "--test-threads=1",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the sweep failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("1 passed") && stdout.contains("trace sweep: searched"),
        "the sweep did not run:\n{stdout}\n{stderr}"
    );
}

/// The sweep itself, in a process of its own (see the module's docs).
#[test]
#[ignore = "run by no_secret_in_any_event_or_span, in a process of its own"]
fn child() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    // With `ELICIT_TRACE_SWEEP_LOG` set too, what an operator sees (elicit's
    // events at `INFO` and above, on stderr): the guides quote it.
    let log = std::env::var_os("ELICIT_TRACE_SWEEP_LOG").map(|_| {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .with_filter(tracing_subscriber::EnvFilter::new("elicit_core=info"))
    });
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(Capture).with(log))
        .expect("the only subscriber of this process");
    let mut secrets = Secrets::default();
    secret_page_on_acp(&mut secrets);
    oauth_on_acp(&mut secrets);
    let real_provider = oauth_with_the_real_provider(&mut secrets);
    guard_refusal_on_acp();
    url_refused_on_acp();
    rounds_at_both_versions(&mut secrets);
    secret_page_in_rounds_at_both_versions(&mut secrets);
    sessionless_page_and_the_hosts_retry(&mut secrets);
    mcp_host_at_both_versions();
    hosted_pages(
        &crate::sensitive_server::hosted::pages(),
        &mut secrets,
        None,
    );
    #[cfg(feature = "redis")]
    let redis = hosted_pages_on_redis(&mut secrets);
    #[cfg(not(feature = "redis"))]
    let redis = false;

    // A rule of the agent's refuses an answer, then accepts the next.
    let (_, refused) = captured(|| {
        use crate::behaviour::{Answer, Rule, acp_sdk};
        acp_sdk(true, &[Answer::Taken, Answer::Valid], 1, Rule::Taken)
    });

    let seen = seen().lock().unwrap().clone();
    assert!(seen.len() > 50, "too little was captured: {seen:?}");
    documented_fields(&seen, &refused);
    // elicit's own events and spans hold no secret at any level; nor does
    // anything any crate emits at `INFO` and above (what an operator runs
    // with), but rmcp, held to `ERROR`: it logs whole messages at `DEBUG`,
    // every error response at `WARN` (a `-32042`'s data lists its pages'
    // URLs) and every notification received at `INFO` (a page's
    // `elicitation/complete` names its id), which the module `trace` docs
    // say. Below those levels dependencies' events are theirs: counted,
    // not refused.
    let held_to = |target: &str| {
        if target.starts_with("elicit_core") {
            Level::TRACE
        } else if target.starts_with("rmcp") {
            Level::ERROR
        } else {
            Level::INFO
        }
    };
    let mut hits = Vec::new();
    let mut dependencies = BTreeSet::new();
    for (what, value) in &secrets.0 {
        for written in encodings(value) {
            for entry in &seen {
                if !entry.text().contains(&written) {
                    continue;
                }
                if entry.level <= held_to(&entry.target) {
                    hits.push(format!("{what} ({written}) in {}", entry.text()));
                } else {
                    dependencies.insert(format!("{} at {}: {what}", entry.target, entry.level));
                }
            }
        }
    }
    assert!(hits.is_empty(), "secrets in the log:\n{}", hits.join("\n"));
    let elicit = seen
        .iter()
        .filter(|e| e.target.starts_with("elicit_core"))
        .count();
    assert!(elicit > 50, "too little of elicit's was captured: {elicit}");

    // The events it must have seen, at their levels.
    let reasons: BTreeSet<(String, Level)> = seen
        .iter()
        .filter(|e| e.kind == "event")
        .filter_map(|e| Some((e.field("reason")?.to_owned(), e.level)))
        .collect();
    let mut expected = vec![
        ("csrf", Level::WARN),
        ("other_browser", Level::WARN),
        ("cross_site_post", Level::WARN),
        ("wrong_host", Level::WARN),
        ("page_used", Level::INFO),
        ("page_unknown", Level::INFO),
        ("oauth_state", Level::WARN),
        ("wrong_user", Level::WARN),
        ("guard_refused", Level::WARN),
        ("url_refused", Level::WARN),
        ("client_refused", Level::WARN),
        ("replay", Level::WARN),
        ("invalid_state", Level::WARN),
        ("declined", Level::INFO),
        ("cancelled", Level::INFO),
    ];
    if redis {
        expected.extend([
            ("redis_unreachable", Level::ERROR),
            ("store_failed", Level::ERROR),
        ]);
    }
    for (reason, level) in expected {
        assert!(
            reasons.contains(&(reason.to_owned(), level)),
            "no {reason} at {level}: {reasons:?}"
        );
    }
    // Every reason is one of the documented set, at its documented level:
    // the table of `elicit_core::trace`'s docs.
    let page = include_str!("../../elicit-core/src/trace.rs");
    let section = &page[page.find("//! # Reasons").unwrap()..page.find("//! # Counting").unwrap()];
    for (reason, level) in &reasons {
        // The table's row: `| `reason` | `LEVEL` | when | where |`.
        assert!(
            section.contains(&format!("//! | `{reason}` | `{level}` |")),
            "an undocumented reason or level: {reason} at {level}"
        );
    }
    // The flows' spans carry their transport and, for a page, its
    // fingerprint (not its id).
    let flows: Vec<&Seen> = seen
        .iter()
        .filter(|e| e.kind == "span" && e.name == "flow")
        .collect();
    for transport in ["acp", "mcp"] {
        assert!(
            flows
                .iter()
                .any(|s| s.field("transport") == Some(transport)),
            "no flow span on {transport}"
        );
    }
    assert!(
        seen.iter().any(|e| e.kind == "record"
            && e.name == "flow"
            && e.field("page").is_some_and(|p| p.len() == 12)),
        "no page fingerprint recorded"
    );
    if !real_provider {
        println!("trace sweep: skipped the OAuth flow against the real provider");
    }
    println!(
        "trace sweep: searched {} entries ({elicit} of elicit's) for {} values ({} reasons seen)",
        seen.len(),
        secrets.0.len(),
        reasons.len()
    );
    let kinds: BTreeSet<&str> = secrets.0.iter().map(|(what, _)| *what).collect();
    println!("trace sweep: the values searched for: {kinds:?}");
    for found in dependencies {
        println!("trace sweep: a dependency's own event, below its level, holds {found}");
    }
}

/// The events and spans an operator reads say what happened, with the
/// fields the module `trace` documents: `check_refused` names the fields
/// in `fields`; the `flow` span has no `attempt` (each attempt's
/// `elicitation/create sent` event has it), so nothing is recorded twice;
/// each round of an MCP 2026-07-28 call logs `call` with its `round` and
/// `answers` (`false` on the first); every ended flow is one `INFO` line,
/// `flow ended`, with its `outcome` (and `duration_ms` where one process
/// saw it whole).
fn documented_fields(seen: &[Seen], refused: &[Seen]) {
    let elicit = |e: &&Seen| e.target.starts_with("elicit_core");
    let message = |e: &Seen| e.field("message").unwrap_or_default().to_owned();
    let check = refused
        .iter()
        .filter(elicit)
        .find(|e| e.field("reason") == Some("check_refused"))
        .unwrap_or_else(|| panic!("no check_refused: {refused:#?}"));
    assert_eq!(check.field("fields"), Some("replicas"), "{}", check.text());
    assert_eq!(check.field("errors"), Some("1"), "{}", check.text());
    let sent: Vec<&str> = refused
        .iter()
        .filter(elicit)
        .filter(|e| message(e) == "elicitation/create sent")
        .filter_map(|e| e.field("attempt"))
        .collect();
    assert_eq!(sent, ["1", "2"], "each attempt's request names it");
    for entry in seen.iter().filter(elicit) {
        assert!(
            !(entry.name == "flow" && entry.field("attempt").is_some()),
            "a flow span records `attempt`: {}",
            entry.text()
        );
    }
    let calls: Vec<(&str, &str)> = seen
        .iter()
        .filter(elicit)
        .filter(|e| message(e) == "call")
        .map(|e| {
            (
                e.field("round").unwrap_or_default(),
                e.field("answers").unwrap_or_default(),
            )
        })
        .collect();
    assert!(calls.contains(&("1", "false")), "a first call: {calls:?}");
    assert!(
        !calls.contains(&("1", "true")),
        "a first call has no answers: {calls:?}"
    );
    assert!(calls.contains(&("2", "true")), "a second round: {calls:?}");
    let ended: Vec<&Seen> = seen
        .iter()
        .filter(elicit)
        .filter(|e| message(e) == "flow ended")
        .collect();
    for line in &ended {
        assert_eq!(line.level, Level::INFO, "{}", line.text());
        assert!(line.field("outcome").is_some(), "{}", line.text());
    }
    let outcomes: BTreeSet<(&str, bool)> = ended
        .iter()
        .filter_map(|e| Some((e.field("outcome")?, e.field("duration_ms").is_some())))
        .collect();
    for expected in [("accepted", true), ("declined", true), ("answered", true)] {
        assert!(
            outcomes.contains(&expected),
            "no flow ended {expected:?}: {outcomes:?}"
        );
    }
    assert!(
        outcomes
            .iter()
            .any(|(outcome, timed)| *outcome == "accepted" && !timed),
        "a 2026-07-28 question's end, without a duration: {outcomes:?}"
    );
}

/// Runs `flow`; what was captured meanwhile. The flows run one after
/// another, so what a flow emitted is in it (with, at most, the last
/// events of the flow before it, on threads of its own).
fn captured<T>(flow: impl FnOnce() -> T) -> (T, Vec<Seen>) {
    let from = seen().lock().unwrap().len();
    let out = flow();
    (out, seen().lock().unwrap()[from..].to_vec())
}

/// Asserts that `captured` holds an entry of elicit's that `what`
/// describes and `is` matches: the flow did emit.
fn assert_captured(captured: &[Seen], what: &str, is: impl Fn(&Seen) -> bool) {
    assert!(
        captured
            .iter()
            .any(|e| e.target.starts_with("elicit_core") && is(e)),
        "no {what} captured: {:#?}",
        captured.iter().map(Seen::text).collect::<Vec<_>>()
    );
}

/// The page's id in its URL.
fn page_id(url: &str) -> String {
    url.rsplit('/').next().unwrap().to_owned()
}

/// A secret page on the ACP SDK, answered by a browser that first tries a
/// wrong CSRF token, another browser, a cross-site post, another host's
/// name and a guessed id.
fn secret_page_on_acp(secrets: &mut Secrets) {
    let script = Script {
        urls: [UrlAnswer::Consent].into(),
        ..Script::default()
    };
    let shown = script.shown.clone();
    let browser = std::thread::spawn(move || {
        let url = shown_url(&shown);
        let (addr, path) = crate::common::http::split_url(&url);
        let page = Req::get(path).send(addr);
        assert_eq!(page.status, 200, "{}", page.body);
        let cookie = page.cookie().unwrap();
        let csrf = page.csrf().unwrap();
        let body = |csrf: &str| format!("csrf={csrf}&token={SECRET}");
        let wrong_csrf = "0".repeat(32);
        let refused = [
            Req::post(path, body(&wrong_csrf))
                .header("cookie", &cookie)
                .same_origin(addr),
            Req::post(path, body(&csrf)).same_origin(addr),
            Req::post(path, body(&csrf))
                .header("cookie", &cookie)
                .header("origin", "https://evil.example"),
        ];
        for post in refused {
            assert_eq!(post.send(addr).status, 403);
        }
        let elsewhere = Req::get(path).host("rebound.example").send(addr);
        assert_eq!(elsewhere.status, 421);
        let guessed = Req::get(&format!("/elicit/{}", "f".repeat(32))).send(addr);
        assert_eq!(guessed.status, 404);
        let done = Req::post(path, body(&csrf))
            .header("cookie", &cookie)
            .same_origin(addr)
            .send(addr);
        assert_eq!(done.status, 200, "{}", done.body);
        (url, cookie, csrf)
    });
    let pages = Pages::loopback().build();
    let ran = run(form_and_url(), script, Flow::Secret(pages));
    let (url, cookie, csrf) = browser.join().unwrap();
    let Got::Secret(Ok(Some(token))) = ran.got else {
        panic!("the token: {:?}", ran.got);
    };
    assert_eq!(token, SECRET);
    secrets.add("the secret", SECRET);
    secrets.add("the page id", page_id(&url));
    secrets.add("the page URL", url);
    secrets.add(
        "the binding cookie",
        cookie.split_once('=').unwrap().1.to_owned(),
    );
    secrets.add("the CSRF token", csrf);

    // A declined page, and a cancelled one.
    for answer in [UrlAnswer::Decline, UrlAnswer::Cancel] {
        let script = Script {
            urls: [answer].into(),
            ..Script::default()
        };
        let ran = run(
            form_and_url(),
            script,
            Flow::Secret(Pages::loopback().build()),
        );
        assert!(matches!(ran.got, Got::Secret(Ok(None))), "{:?}", ran.got);
    }
}

/// An OAuth flow on the ACP SDK against the scripted loopback provider: a
/// callback with a forged `state` first, then the provider's real answer.
fn oauth_on_acp(secrets: &mut Secrets) {
    use crate::oauth::{ACCESS, CODE, REFRESH, Script as Provider, Scripted};
    use elicit_core::sensitive::oauth::OAuthOutcome;

    let scripted = std::sync::Arc::new(Scripted::start(Provider::Token));
    let script = Script {
        urls: [UrlAnswer::Consent].into(),
        ..Script::default()
    };
    let shown = script.shown.clone();
    let provider = scripted.provider();
    let at_provider = scripted.clone();
    let browser = std::thread::spawn(move || {
        let url = shown_url(&shown);
        let (addr, path) = crate::common::http::split_url(&url);
        let start = Req::get(path).send(addr);
        assert_eq!(start.status, 303, "{}", start.body);
        let cookie = start.cookie().unwrap();
        let location = start.header("location").unwrap().to_owned();
        let query = location.split_once('?').unwrap().1;
        let params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        let get = |name: &str| {
            params
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        at_provider.keep_challenge(&get("code_challenge"));
        let state = get("state");
        let callback = |query: &str| {
            Req::get(&format!("/elicit/oauth/callback?{query}"))
                .header("cookie", &cookie)
                .send(addr)
                .status
        };
        let forged = format!("{}{}", &state[..state.len() - 4], "0000");
        assert_eq!(callback(&format!("code={CODE}&state={forged}")), 400);
        assert_eq!(callback(&format!("code={CODE}&state={state}")), 200);
        (url, cookie, state, get("code_challenge"))
    });
    let pages = Pages::loopback().build();
    let ran = run(
        form_and_url(),
        script,
        Flow::OAuth(pages, Box::new(provider)),
    );
    let (url, cookie, state, challenge) = browser.join().unwrap();
    let Got::OAuth(Ok(OAuthOutcome::Authorized(_))) = ran.got else {
        panic!("a token: {:?}", ran.got);
    };
    secrets.add("the OAuth start page id", page_id(&url));
    secrets.add(
        "the OAuth binding cookie",
        cookie.split_once('=').unwrap().1.to_owned(),
    );
    secrets.add("the OAuth state", state);
    secrets.add("the PKCE challenge", challenge);
    for verifier in scripted.verifiers() {
        secrets.add("the PKCE verifier", verifier);
    }
    secrets.add("the authorization code", CODE);
    secrets.add("the access token", ACCESS);
    secrets.add("the refresh token", REFRESH);
}

/// An OAuth flow on the ACP SDK against the real OpenID provider
/// (`common::oidc`), the user signing in and consenting in headless
/// Chromium: the start page's id, the browser's cookies for the agent's
/// pages, the callback's `state` and authorization code (the browser ends
/// on the callback's URL) and the tokens. The PKCE challenge and verifier
/// cannot be seen from here (the challenge is in a redirect the provider
/// answers with another; the verifier never leaves the agent):
/// [`oauth_on_acp`] takes both from its scripted provider. The client is
/// public: there is no client secret. Whether it ran (not without Node's
/// `oidc-provider` or a browser, unless required).
fn oauth_with_the_real_provider(secrets: &mut Secrets) -> bool {
    use crate::common::oidc;
    use elicit_core::sensitive::ExposeSecret;
    use elicit_core::sensitive::oauth::OAuthOutcome;

    let Some(installed) = oidc::installed() else {
        return false;
    };
    let Some(browser) = crate::browser::Browser::start() else {
        return false;
    };
    let (provider, oauth) = oidc::start_for_pages(&installed, "elicit");
    assert!(
        provider.endpoints.client_secret.is_none(),
        "a public client"
    );
    let script = Script {
        urls: [UrlAnswer::Consent].into(),
        ..Script::default()
    };
    let shown = script.shown.clone();
    let user = std::thread::spawn(move || {
        let url = shown_url(&shown);
        browser.goto(&url);
        oidc::sign_in_and_consent(&browser, "carol");
        let callback = browser.url();
        let cookies: Vec<String> = browser
            .cookies()
            .into_iter()
            .map(|cookie| cookie.value)
            .collect();
        (url, callback, cookies)
    });
    let pages = Pages::loopback().build();
    let (ran, captured) = captured(|| {
        let ran = run(form_and_url(), script, Flow::OAuth(pages, Box::new(oauth)));
        (ran, user.join().unwrap())
    });
    let (ran, (url, callback, cookies)) = ran;
    let Got::OAuth(Ok(OAuthOutcome::Authorized(token))) = ran.got else {
        panic!("a token: {:?}", ran.got);
    };
    assert_captured(&captured, "OAuth flow span", |e| {
        e.kind == "span" && e.name == "flow" && e.field("flow") == Some("oauth")
    });
    assert_captured(&captured, "callback request", |e| {
        e.kind == "record" && e.name == "page_request"
    });
    secrets.add("the real provider's start page id", page_id(&url));
    let query = callback
        .split_once('?')
        .unwrap_or_else(|| panic!("the callback's query: {callback}"))
        .1;
    let params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    for (name, what) in [
        ("state", "the real provider's OAuth state"),
        ("code", "the real provider's authorization code"),
    ] {
        let (_, value) = params
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no {name} in the callback: {callback}"));
        secrets.add(what, value.clone());
    }
    for cookie in cookies.into_iter().filter(|value| value.len() >= 8) {
        secrets.add("a cookie of the agent's pages (real provider)", cookie);
    }
    secrets.add(
        "the real provider's access token",
        token.access_token().expose_secret(),
    );
    if let Some(refresh) = token.refresh_token() {
        secrets.add("the real provider's refresh token", refresh.expose_secret());
    }
    drop(provider);
    true
}

/// An agent that skips the checks sends a URL request to a client without
/// URL mode: its guard answers `-32602`.
fn guard_refusal_on_acp() {
    let request = crate::acp_sdk::unadvertised_url_request();
    let ran = run(form_only(), Script::default(), Flow::Raw(Box::new(request)));
    assert!(matches!(ran.got, Got::Raw(Err(_))), "{:?}", ran.got);
}

/// An agent that skips the checks sends a URL the client's review refuses
/// (`javascript:`): the renderer's consent is not taken (`url_refused`),
/// the URL is shown again, and the user declines.
fn url_refused_on_acp() {
    let request = CreateElicitationRequest::url(
        ElicitationScope::session("s1"),
        "Open this",
        ElicitationId::new("raw-2"),
        "javascript:alert(1)",
    );
    let script = Script {
        urls: [UrlAnswer::Consent, UrlAnswer::Decline].into(),
        ..Script::default()
    };
    let (ran, captured) = captured(|| run(form_and_url(), script, Flow::Raw(Box::new(request))));
    let Got::Raw(Ok(answer)) = &ran.got else {
        panic!("an answer: {:?}", ran.got);
    };
    assert_eq!(answer["action"], "decline", "{answer}");
    let shown = ran
        .shown
        .iter()
        .filter(|s| s.starts_with("url from"))
        .count();
    assert_eq!(shown, 2, "{:?}", ran.shown);
    assert_captured(&captured, "url_refused event", |e| {
        e.field("reason") == Some("url_refused")
    });
}

/// The example server's `deploy` in rounds: at MCP 2025-11-25 declined,
/// then refused by a client that answers with an error;
/// at 2026-07-28 a `requestState` answered once, replayed, and tampered
/// with.
fn rounds_at_both_versions(secrets: &mut Secrets) {
    use ::rmcp::ServiceExt;
    use ::rmcp::model::{CallToolRequestParams, CallToolResponse, RequestStateCodec};
    use elicit_core::mcp::RoundsConfig;

    use crate::rmcp::{ScriptedClient, Version, connect_at, form_mode, mcp_server, runtime};

    const KEY: [u8; 32] = *b"the sweep's requestState key....";

    let (declining, _) = ScriptedClient::with(form_mode(), vec![json!({"action": "decline"})]);
    let text = crate::rmcp::rounds::call(None, &declining, Version::Legacy);
    assert_eq!(text, "Not deploying.");
    // A client that answers with an error (`client_refused`).
    let (refusing, _) = ScriptedClient::with(form_mode(), vec![]);
    let text = crate::rmcp::rounds::call(None, &refusing, Version::Legacy);
    assert!(text.starts_with("Could not ask"), "{text}");

    let config = || RoundsConfig::new(RequestStateCodec::try_new(KEY.to_vec()).unwrap());
    let client = ScriptedClient::with(form_mode(), vec![]).0;
    let state = runtime().block_on(async move {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let running = mcp_server::DeployServer::with_rounds(config())
                .serve(server_io)
                .await
                .unwrap();
            running.waiting().await.unwrap();
        });
        let running = connect_at(&client, client_io, Version::Modern).await;
        let deploy = || CallToolRequestParams::new(mcp_server::DEPLOY_TOOL);
        let first = running.call_tool_once(deploy()).await.unwrap();
        let CallToolResponse::InputRequired(first) = first else {
            panic!("an input-required round: {first:?}");
        };
        let state = first.request_state.unwrap();
        let answers: std::collections::BTreeMap<String, Value> = [(
            mcp_server::DEPLOY_TOOL.to_owned(),
            json!({"action": "accept", "content": {"env": "staging"}}),
        )]
        .into_iter()
        .collect();
        let answered = |state: String| {
            deploy()
                .with_input_responses(answers.clone())
                .with_request_state(state)
        };
        let done = running.call_tool_once(answered(state.clone())).await;
        assert!(
            matches!(done, Ok(CallToolResponse::Complete(_))),
            "{done:?}"
        );
        let replayed = running.call_tool_once(answered(state.clone())).await;
        assert!(replayed.is_err(), "{replayed:?}");
        let at = state.len() / 2;
        let flipped = if &state[at..=at] == "A" { "B" } else { "A" };
        let tampered = format!("{}{flipped}{}", &state[..at], &state[at + 1..]);
        assert!(running.call_tool_once(answered(tampered)).await.is_err());
        running.cancel().await.unwrap();
        server.await.unwrap();
        state
    });
    secrets.add("the requestState", state);
    secrets.add(
        "the requestState key",
        KEY.iter().map(|b| format!("{b:02x}")).collect::<String>(),
    );
    secrets.add(
        "the requestState key",
        String::from_utf8(KEY.to_vec()).unwrap(),
    );
}

/// A secret page in MCP rounds (`mcp::ask` with `Rounds::secret`), at both
/// versions (on 2026-07-28 in an input-required round): the user opens
/// the page, posts it, and says yes.
fn secret_page_in_rounds_at_both_versions(secrets: &mut Secrets) {
    use elicit_core::mcp::RoundsConfig;

    use crate::rmcp::VERSIONS;
    use crate::rmcp::rounds::{PageUser, call_result, text_of, token};

    for version in VERSIONS {
        let user = PageUser::default();
        let config = RoundsConfig::with_random_key().unwrap();
        let (text, captured) =
            captured(|| text_of(call_result(config, Some(token), &user, version)));
        assert_eq!(text, "a token of 14 characters", "{version:?}");
        assert_captured(&captured, "rounds span", |e| {
            e.kind == "span" && e.name == "rounds"
        });
        assert_captured(&captured, "page post", |e| {
            e.kind == "span" && e.name == "page_request" && e.field("method") == Some("POST")
        });
        let answered = user.answered.lock().unwrap().clone();
        assert_eq!(answered.len(), 1, "{version:?}");
        for (url, page) in answered {
            secrets.add("the rounds' page id", page_id(&url));
            secrets.add("the rounds' page URL", url);
            secrets.add(
                "the rounds' binding cookie",
                page.cookie.split_once('=').unwrap().1.to_owned(),
            );
            secrets.add("the rounds' CSRF token", page.csrf);
        }
    }
    secrets.add("the rounds' secret", ROUNDS_SECRET);
}

/// What the rounds' users type into their pages (`rmcp::rounds`).
const ROUNDS_SECRET: &str = "tok-0123456789";

/// A 2025-11-25 server without sessions (`RoundsConfig::without_sessions`)
/// asks for a secret page on hosted pages: its call answers `-32042`
/// listing the page; the MCP host (`ElicitationHandler::call_tool`) shows
/// it, the user posts it and consents, and the host retries the call,
/// which reads the answer.
fn sessionless_page_and_the_hosts_retry(secrets: &mut Secrets) {
    use ::rmcp::model::CallToolRequestParams;
    use elicit_core::mcp::RoundsConfig;
    use elicit_core::mcp::client::ClientElicitations;
    use elicit_core::protocol::ElicitationCapabilities;

    use crate::rmcp::Version;
    use crate::rmcp::rounds::{hosted_token, principal_is_client_name, serve_rounds, text_of};

    const KEY: [u8; 32] = *b"the sweep's sessionless call key";
    let user = HostedUser::default();
    let client = ClientElicitations::new(ElicitationCapabilities::form_and_url())
        .handler("alice", user.clone());
    let config =
        principal_is_client_name(RoundsConfig::with_random_key().unwrap()).without_sessions(KEY);
    let (result, captured) = captured(|| {
        serve_rounds(
            config,
            Some(hosted_token),
            &client,
            Version::Legacy,
            async |running| {
                client
                    .call_tool(running, CallToolRequestParams::new("tool"))
                    .await
            },
        )
    });
    assert_eq!(text_of(result), "a token of 14 characters");
    assert_captured(&captured, "sessionless rounds", |e| {
        e.kind == "record" && e.name == "rounds" && e.field("regime") == Some("sessionless")
    });
    assert_captured(&captured, "the host's retry", |e| {
        e.target.ends_with("mcp::client::retry")
            && e.field("message") == Some("-32042: consenting, then retrying")
    });
    let answered = user.answered.lock().unwrap().clone();
    assert_eq!(answered.len(), 1, "{answered:?}");
    for (url, page) in answered {
        secrets.add("the sessionless page id", page_id(&url));
        secrets.add("the sessionless page URL", url);
        secrets.add(
            "the sessionless binding cookie",
            page.cookie.split_once('=').unwrap().1.to_owned(),
        );
        secrets.add("the sessionless CSRF token", page.csrf);
    }
    secrets.add(
        "the sessionless call key",
        KEY.iter().map(|b| format!("{b:02x}")).collect::<String>(),
    );
    secrets.add(
        "the sessionless call key",
        String::from_utf8(KEY.to_vec()).unwrap(),
    );
}

/// Alice, as the MCP host's renderer: a URL of the hosted pages is posted
/// (as Alice, `ROUNDS_SECRET`) then consented to; a form is cancelled.
#[derive(Clone, Default)]
struct HostedUser {
    answered: std::sync::Arc<Mutex<Vec<(String, crate::common::sensitive::Answered)>>>,
}

impl elicit_core::protocol::client::Render for HostedUser {
    fn form(
        &mut self,
        _: &str,
        _: &elicit_core::protocol::client::FormElicitation,
        _: Option<&elicit_core::protocol::client::AnswerError>,
    ) -> elicit_core::protocol::client::FormAnswer {
        elicit_core::protocol::client::FormAnswer::Cancel
    }

    fn url(
        &mut self,
        _: &str,
        url: &elicit_core::protocol::client::UrlElicitation,
        _: Option<&elicit_core::protocol::url::UrlRejection>,
    ) -> UrlAnswer {
        use crate::rmcp::rounds::HOSTED;
        use crate::sensitive_server::hosted::submitted_as;

        let path = url
            .url()
            .strip_prefix("https://agent.example.com")
            .expect("the hosted pages' URL");
        let page = submitted_as(&HOSTED, path, "alice", &format!("token={ROUNDS_SECRET}"));
        assert_eq!(page.status, 200);
        self.answered
            .lock()
            .unwrap()
            .push((url.url().to_owned(), page));
        UrlAnswer::Consent
    }
}

/// The MCP host's side (`mcp::client`) at both versions: a form accepted,
/// then one cancelled.
fn mcp_host_at_both_versions() {
    use elicit_core::mcp::client::ClientElicitations;
    use elicit_core::protocol::ElicitationCapabilities;
    use elicit_core::protocol::client::FormAnswer;

    use crate::mcp_client::{Scripted, call_deploy, content};
    use crate::rmcp::VERSIONS;

    for version in VERSIONS {
        for answer in [
            FormAnswer::Accept(content(json!({"env": "production", "replicas": 3}))),
            FormAnswer::Cancel,
        ] {
            let render = Scripted::forms([answer]);
            let client = ClientElicitations::new(ElicitationCapabilities::form_only())
                .handler("sweep-host", render);
            let result = call_deploy(&client, version);
            assert!(!result.content.is_empty(), "the tool answered: {result:?}");
        }
    }
}

/// Hosted pages on `pages`: Bob is refused Alice's page, Alice answers
/// it, and posts again.
fn hosted_pages(pages: &Pages, secrets: &mut Secrets, sealing: Option<&[u8; 32]>) {
    use elicit_core::sensitive::ExposeSecret;

    use crate::common::sensitive::Answer as _;
    use crate::common::sensitive::Connect;
    use crate::sensitive_server::hosted::{call, get};

    let alice = VerifiedUser::new("alice");
    let page = pages.open_for::<Connect>(&alice, "Connect").now().unwrap();
    let id = page.id().to_string();
    let path = format!("/elicit/{id}");
    let waiter = std::thread::spawn(move || page.answer().now().answered());
    assert_eq!(call(pages, get(&path, Some("bob")), "").status, 403);
    let shown = call(pages, get(&path, Some("alice")), "");
    assert_eq!(shown.status, 200, "{}", shown.body());
    let cookie = shown.cookie();
    let body = format!("csrf={}&account=acme&token={SECRET}", shown.csrf());
    let done = call(pages, shown.post(&path, "alice", &cookie), &body);
    assert_eq!(done.status, 200, "{}", done.body());
    let again = call(pages, shown.post(&path, "alice", &cookie), &body);
    assert_eq!(again.status, 410, "{}", again.body());
    let connect = waiter.join().unwrap().unwrap();
    assert_eq!(connect.token.expose_secret(), SECRET);
    secrets.add("the hosted page id", id);
    secrets.add(
        "the hosted binding cookie",
        cookie.split_once('=').unwrap().1.to_owned(),
    );
    secrets.add("the hosted CSRF token", shown.csrf());
    if let Some(key) = sealing {
        secrets.add(
            "the sealing key",
            key.iter().map(|b| format!("{b:02x}")).collect::<String>(),
        );
        secrets.add("the sealing key", String::from_utf8(key.to_vec()).unwrap());
    }
}

/// [`hosted_pages`] on the Redis store; then Redis stops and a page cannot
/// be opened. Whether it ran (not without `redis-server`, unless
/// required).
#[cfg(feature = "redis")]
fn hosted_pages_on_redis(secrets: &mut Secrets) -> bool {
    use elicit_core::redis::{Redis, RedisStore, SealingKeys};

    use crate::common::sensitive::Connect;
    use crate::sensitive_server::hosted::builder;

    let Some(mut server) = crate::common::redis::start() else {
        return false;
    };
    const SEALING: [u8; 32] = *b"the sweep's sealing key, 32 byte";
    let redis = Redis::open(&server.url()).unwrap();
    let pages = builder()
        .store(RedisStore::new(redis, SealingKeys::new(1, SEALING)))
        .build();
    hosted_pages(&pages, secrets, Some(&SEALING));
    server.stop();
    let alice = VerifiedUser::new("alice");
    let refused = pages.open_for::<Connect>(&alice, "Connect").now();
    assert!(refused.is_err(), "opened without Redis");
    true
}
