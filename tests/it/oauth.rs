//! Feature `oauth`: the authorization code flow with PKCE on the page
//! server, against a provider the test scripts (a token endpoint and a
//! discovery document on `127.0.0.1`, `std::net`). The test plays the
//! browser: it visits the start page, reads where it is sent, and comes
//! back to the callback as the provider would send it. One test per check
//! of the module's threat model (`elicit_core::sensitive::oauth`).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use elicit_core::sensitive::oauth::{
    HttpError, MalformedResponse, OAuthFailure, OAuthOutcome, PendingOAuth, Provider, ProviderError,
};
use elicit_core::sensitive::{ExposeSecret, Pages, SecretString};

use crate::common::Now;
use crate::common::http::{DEADLINE, Reply, Req};
use crate::common::oidc;

/// The code the scripted provider accepts.
pub(crate) const CODE: &str = "code-4f1e9b";
/// The tokens it returns.
pub(crate) const ACCESS: &str = "access-token-7d0c2a";
pub(crate) const REFRESH: &str = "refresh-token-91b3e4";

/// What the scripted token endpoint answers.
#[derive(Clone)]
pub(crate) enum Script {
    /// A token for [`CODE`] with the verifier of the flow's challenge,
    /// else `invalid_grant`.
    Token,
    /// This status, content type and body.
    Raw(u16, &'static str, String),
}

#[derive(Default)]
struct Seen {
    /// The form of each token request.
    token_requests: Vec<Vec<(String, String)>>,
    /// The PKCE challenge the test read from the redirect.
    challenge: Option<String>,
}

/// A provider on `127.0.0.1`: `/token`, and `/.well-known/openid-configuration`.
pub(crate) struct Scripted {
    addr: SocketAddr,
    script: Arc<Mutex<Script>>,
    discovery: Arc<Mutex<String>>,
    seen: Arc<Mutex<Seen>>,
}

impl Scripted {
    pub(crate) fn start(script: Script) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let scripted = Self {
            addr,
            script: Arc::new(Mutex::new(script)),
            discovery: Arc::default(),
            seen: Arc::default(),
        };
        let (script, discovery, seen) = (
            scripted.script.clone(),
            scripted.discovery.clone(),
            scripted.seen.clone(),
        );
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let (path, body) = read_request(&mut stream);
                let (status, kind, reply) = if path == "/.well-known/openid-configuration" {
                    (200, "application/json", discovery.lock().unwrap().clone())
                } else {
                    let form: Vec<(String, String)> =
                        url::form_urlencoded::parse(&body).into_owned().collect();
                    let mut seen = seen.lock().unwrap();
                    let answer = match script.lock().unwrap().clone() {
                        Script::Token => token_reply(&form, seen.challenge.as_deref()),
                        Script::Raw(status, kind, body) => (status, kind, body),
                    };
                    seen.token_requests.push(form);
                    answer
                };
                let head = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\
                     location: http://127.0.0.1:9/elsewhere\r\nconnection: close\r\n\r\n",
                    reply.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        scripted
    }

    pub(crate) fn provider(&self) -> Provider {
        Provider::new(
            &format!("http://{}/authorize", self.addr),
            &format!("http://{}/token", self.addr),
            "elicit-test",
        )
        .unwrap()
        .scopes(["read:user", "repo"])
    }

    /// The provider keeps `challenge` with the code it hands out (the test
    /// read it from the authorization request).
    pub(crate) fn keep_challenge(&self, challenge: &str) {
        self.seen.lock().unwrap().challenge = Some(challenge.to_owned());
    }

    /// The `code_verifier` of each token request.
    pub(crate) fn verifiers(&self) -> Vec<String> {
        let seen = self.seen.lock().unwrap();
        let verifier = |form: &Vec<(String, String)>| {
            form.iter()
                .find(|(n, _)| n == "code_verifier")
                .map(|(_, v)| v.clone())
        };
        seen.token_requests.iter().filter_map(verifier).collect()
    }

    fn token_requests(&self) -> usize {
        self.seen.lock().unwrap().token_requests.len()
    }
}

/// The token endpoint's answer: a token if the code is [`CODE`] and the
/// verifier's S256 is the challenge.
fn token_reply(form: &[(String, String)], challenge: Option<&str>) -> (u16, &'static str, String) {
    let get = |name: &str| {
        form.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let verified = get("code_verifier").is_some_and(|v| Some(oidc::s256(v).as_str()) == challenge);
    if get("grant_type") == Some("authorization_code") && get("code") == Some(CODE) && verified {
        let body = format!(
            r#"{{"access_token":"{ACCESS}","token_type":"Bearer","refresh_token":"{REFRESH}","expires_in":3600,"scope":"read:user repo"}}"#
        );
        (200, "application/json", body)
    } else {
        (
            400,
            "application/json",
            r#"{"error":"invalid_grant","error_description":"PKCE check failed"}"#.to_owned(),
        )
    }
}

/// The request's path and body (by its `Content-Length`).
fn read_request(stream: &mut TcpStream) -> (String, Vec<u8>) {
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    let mut raw = Vec::new();
    let mut byte = [0; 1];
    while !raw.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
        raw.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&raw).to_string();
    let path = head.split(' ').nth(1).unwrap_or_default().to_owned();
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse::<usize>().unwrap())
        })
        .unwrap_or(0);
    let mut body = vec![0; length];
    stream.read_exact(&mut body).unwrap();
    (path, body)
}

/// An open flow on its own loopback pages.
struct Flow {
    _pages: Option<Pages>,
    flow: Option<PendingOAuth>,
    addr: SocketAddr,
    path: String,
}

impl Flow {
    fn open(pages: &Pages, provider: &Provider) -> Self {
        let flow = pages.open_oauth(provider).now().unwrap();
        let addr = pages.local_addr().unwrap();
        let path = flow
            .url()
            .strip_prefix(&format!("http://{addr}"))
            .unwrap()
            .to_owned();
        Self {
            _pages: Some(pages.clone()),
            flow: Some(flow),
            addr,
            path,
        }
    }

    /// The start page at `url` of a flow the test does not hold.
    fn at(url: &str) -> Self {
        let (addr, path) = crate::common::http::split_url(url);
        Self {
            _pages: None,
            flow: None,
            addr,
            path: path.to_owned(),
        }
    }

    fn outcome(&mut self) -> OAuthOutcome {
        let flow = self.flow.take().unwrap();
        futures::executor::block_on(flow.outcome()).expect("the store answers")
    }
}

/// What the start page sent the browser to.
struct Redirect {
    /// `name=value` of the binding cookie.
    cookie: String,
    /// The authorization request's parameters.
    params: Vec<(String, String)>,
    location: String,
}

impl Redirect {
    fn get(&self, name: &str) -> &str {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {name} in the authorization request"))
    }

    fn state(&self) -> &str {
        self.get("state")
    }
}

/// The browser visits the start page; the scripted provider is told the
/// challenge (as a provider would keep it with the code).
fn visit(flow: &Flow, scripted: &Scripted) -> Redirect {
    let reply = Req::get(&flow.path).send(flow.addr);
    assert_eq!(reply.status, 303, "{}", reply.body);
    let location = reply.header("location").unwrap().to_owned();
    let set = reply.header("set-cookie").unwrap();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Lax"),
        "{set}"
    );
    let cookie = reply.cookie().unwrap();
    let query = location.split_once('?').unwrap().1;
    let params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let redirect = Redirect {
        cookie,
        params,
        location,
    };
    scripted.keep_challenge(redirect.get("code_challenge"));
    redirect
}

/// A flow on `pages` whose start page the browser has visited, with the
/// scripted provider behind it.
fn visited(script: Script, pages: Pages) -> (Scripted, Flow, Redirect) {
    let scripted = Scripted::start(script);
    let flow = Flow::open(&pages, &scripted.provider());
    let redirect = visit(&flow, &scripted);
    (scripted, flow, redirect)
}

/// The provider sends the browser back with `query`.
fn callback(flow: &Flow, query: &str, cookie: Option<&str>) -> Reply {
    let req = Req::get(&format!("/elicit/oauth/callback?{query}"));
    let req = match cookie {
        Some(cookie) => req.header("cookie", cookie),
        None => req,
    };
    req.send(flow.addr)
}

/// The browser's part of the flow whose start page is `url`, with
/// `scripted` behind it: visits the start page, then comes back to the
/// callback as the provider sends it, with the code or, when `deny`,
/// `access_denied`. The statuses it saw.
pub(crate) fn browser(scripted: &Scripted, url: &str, deny: bool) -> Vec<u16> {
    let flow = Flow::at(url);
    let redirect = visit(&flow, scripted);
    let query = if deny {
        format!("error=access_denied&state={}", redirect.state())
    } else {
        format!("code={CODE}&state={}", redirect.state())
    };
    vec![303, callback(&flow, &query, Some(&redirect.cookie)).status]
}

/// The provider's answer with the code, for the `state` of `redirect`,
/// with `cookie` (or none).
fn code_callback(flow: &Flow, redirect: &Redirect, cookie: Option<&str>) -> Reply {
    callback(
        flow,
        &format!("code={CODE}&state={}", redirect.state()),
        cookie,
    )
}

fn failure(outcome: OAuthOutcome) -> OAuthFailure {
    match outcome {
        OAuthOutcome::Failed(failure) => failure,
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn the_code_is_exchanged_with_the_pkce_verifier_for_a_typed_token() {
    let (scripted, mut flow, redirect) = visited(Script::Token, Pages::loopback().build());
    assert!(
        redirect
            .location
            .starts_with(&format!("http://{}/authorize?", scripted.addr))
    );
    assert_eq!(redirect.get("response_type"), "code");
    assert_eq!(redirect.get("client_id"), "elicit-test");
    assert_eq!(redirect.get("code_challenge_method"), "S256");
    assert_eq!(redirect.get("scope"), "read:user repo");
    assert_eq!(
        redirect.get("redirect_uri"),
        format!("http://{}/elicit/oauth/callback", flow.addr)
    );
    // The flow's id (in the start URL already), then 128 secret bits.
    let id = flow.flow.as_ref().unwrap().id().to_string();
    let (state_id, secret) = redirect.state().split_at(32);
    assert_eq!(state_id, id);
    assert_eq!(secret.len(), 32);
    assert!(secret.bytes().all(|b| b.is_ascii_hexdigit()));

    let reply = code_callback(&flow, &redirect, Some(&redirect.cookie));
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.body.contains("return to your client"));
    assert!(!reply.body.contains(ACCESS) && !reply.body.contains(CODE));

    let token = flow.outcome().authorized().expect("authorized");
    assert_eq!(token.access_token().expose_secret(), ACCESS);
    assert_eq!(token.refresh_token().unwrap().expose_secret(), REFRESH);
    assert_eq!(token.token_type(), "bearer");
    assert_eq!(token.expires_in(), Some(Duration::from_secs(3600)));
    assert!(token.expires_at().is_some());
    assert_eq!(token.scopes().unwrap(), ["read:user", "repo"]);
    let debug = format!("{token:?}");
    assert!(
        !debug.contains(ACCESS) && !debug.contains(REFRESH),
        "{debug}"
    );

    // The token endpoint saw the verifier (checked against the challenge)
    // and the same redirect URI; the browser never did.
    let seen = scripted.seen.lock().unwrap();
    let form = &seen.token_requests[0];
    let verifier = &form.iter().find(|(n, _)| n == "code_verifier").unwrap().1;
    assert!(verifier.len() >= 43);
    assert!(!redirect.location.contains(verifier.as_str()));
    assert!(
        form.iter()
            .any(|(n, v)| n == "redirect_uri" && *v == redirect.get("redirect_uri"))
    );
}

#[test]
fn the_start_url_carries_nothing_but_the_flow_id() {
    let scripted = Scripted::start(Script::Token);
    let pages = Pages::loopback().build();
    let flow = Flow::open(&pages, &scripted.provider());
    let url = flow.flow.as_ref().unwrap().url().to_owned();
    let id = flow.flow.as_ref().unwrap().id().to_string();
    assert_eq!(url, format!("http://{}/elicit/{id}", flow.addr));
    let redirect = visit(&flow, &scripted);
    for secret in [
        redirect.state(),
        redirect.get("code_challenge"),
        "authorize",
    ] {
        assert!(!url.contains(secret), "{url} holds {secret}");
    }
}

#[test]
fn another_browser_cannot_use_the_start_page() {
    let (_scripted, flow, redirect) = visited(Script::Token, Pages::loopback().build());
    // A second visit without the cookie (another browser) is refused ...
    let other = Req::get(&flow.path).send(flow.addr);
    assert_eq!(other.status, 403);
    assert!(other.header("location").is_none());
    // ... and the first browser may come again.
    let again = Req::get(&flow.path)
        .header("cookie", &redirect.cookie)
        .send(flow.addr);
    assert_eq!(again.status, 303);
}

#[test]
fn an_unknown_state_is_refused_and_changes_nothing() {
    let (scripted, mut flow, redirect) = visited(Script::Token, Pages::loopback().build());
    for query in [
        format!("code={CODE}&state=00000000000000000000000000000000"),
        // This flow's id with another token: refused, the flow still open.
        format!(
            "code={CODE}&state={}{}",
            &redirect.state()[..32],
            "0".repeat(32)
        ),
        format!("code={CODE}&state=not-a-state"),
        format!("code={CODE}"),
    ] {
        let reply = callback(&flow, &query, Some(&redirect.cookie));
        assert_eq!(reply.status, 400, "{query}: {}", reply.body);
    }
    assert_eq!(scripted.token_requests(), 0);
    let reply = code_callback(&flow, &redirect, Some(&redirect.cookie));
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(flow.outcome().authorized().is_some());
}

#[test]
fn a_replayed_callback_is_refused() {
    let (scripted, mut flow, redirect) = visited(Script::Token, Pages::loopback().build());
    let query = format!("code={CODE}&state={}", redirect.state());
    assert_eq!(callback(&flow, &query, Some(&redirect.cookie)).status, 200);
    let replay = callback(&flow, &query, Some(&redirect.cookie));
    assert_eq!(replay.status, 410, "{}", replay.body);
    assert!(replay.body.contains("already answered"));
    assert_eq!(scripted.token_requests(), 1);
    assert!(flow.outcome().authorized().is_some());
}

#[test]
fn a_callback_after_expiry_ends_the_flow_as_expired() {
    let (scripted, mut flow, redirect) = visited(
        Script::Token,
        Pages::loopback().expiry(Duration::from_millis(300)).build(),
    );
    thread::sleep(Duration::from_millis(500));
    let reply = code_callback(&flow, &redirect, Some(&redirect.cookie));
    assert_eq!(reply.status, 410, "{}", reply.body);
    assert!(reply.body.contains("expired"));
    assert!(matches!(flow.outcome(), OAuthOutcome::Expired));
    assert_eq!(scripted.token_requests(), 0);
}

#[test]
fn a_flow_with_no_callback_expires() {
    let scripted = Scripted::start(Script::Token);
    let pages = Pages::loopback().expiry(Duration::from_millis(200)).build();
    let mut flow = Flow::open(&pages, &scripted.provider());
    assert!(matches!(flow.outcome(), OAuthOutcome::Expired));
    // Its record stays, ended, for a late visitor (one drop rule for a
    // page and a flow: the pages' expiry forgets it).
    let late = Req::get(&flow.path).send(flow.addr);
    assert_eq!(late.status, 410);
    assert!(late.body.contains("expired"), "{}", late.body);
}

#[test]
fn an_authorization_response_for_another_flow_is_refused() {
    let scripted = Scripted::start(Script::Token);
    let pages = Pages::loopback().build();
    let mut a = Flow::open(&pages, &scripted.provider());
    let mut b = Flow::open(&pages, &scripted.provider());
    let ra = visit(&a, &scripted);
    // B's start page, in another browser.
    let rb = visit(&b, &scripted);
    // A's authorization response arrives in B's browser: refused, and A
    // ends without an exchange.
    let reply = code_callback(&a, &ra, Some(&rb.cookie));
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert_eq!(failure(a.outcome()), OAuthFailure::OtherBrowser);
    assert_eq!(scripted.token_requests(), 0);
    // B is untouched (its challenge is the one the provider holds).
    let reply = code_callback(&b, &rb, Some(&rb.cookie));
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(b.outcome().authorized().is_some());
}

#[test]
fn a_callback_without_the_binding_cookie_is_refused() {
    let (scripted, mut flow, redirect) = visited(Script::Token, Pages::loopback().build());
    let reply = code_callback(&flow, &redirect, None);
    assert_eq!(reply.status, 403);
    assert_eq!(failure(flow.outcome()), OAuthFailure::OtherBrowser);
    assert_eq!(scripted.token_requests(), 0);
}

#[test]
fn the_providers_error_is_denied() {
    let (scripted, mut flow, redirect) = visited(Script::Token, Pages::loopback().build());
    let reply = callback(
        &flow,
        &format!(
            "error=access_denied&error_description=The+user+said+no&state={}",
            redirect.state()
        ),
        Some(&redirect.cookie),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    match flow.outcome() {
        OAuthOutcome::Denied { error, description } => {
            assert_eq!(error, "access_denied");
            assert_eq!(description.as_deref(), Some("The user said no"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(scripted.token_requests(), 0);
}

#[test]
fn the_issuer_is_checked_when_the_provider_has_one() {
    let scripted = Scripted::start(Script::Token);
    let pages = Pages::loopback().build();
    let provider = scripted.provider().issuer("https://issuer.example");
    for iss in ["", "&iss=https%3A%2F%2Fevil.example"] {
        let mut flow = Flow::open(&pages, &provider);
        let redirect = visit(&flow, &scripted);
        let reply = callback(
            &flow,
            &format!("code={CODE}&state={}{iss}", redirect.state()),
            Some(&redirect.cookie),
        );
        assert_eq!(reply.status, 400, "{iss}");
        assert_eq!(failure(flow.outcome()), OAuthFailure::WrongIssuer);
    }
    assert_eq!(scripted.token_requests(), 0);
    let mut flow = Flow::open(&pages, &provider);
    let redirect = visit(&flow, &scripted);
    let reply = callback(
        &flow,
        &format!(
            "code={CODE}&state={}&iss=https%3A%2F%2Fissuer.example",
            redirect.state()
        ),
        Some(&redirect.cookie),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(flow.outcome().authorized().is_some());
}

/// Runs one flow whose token endpoint answers `script`; its failure.
fn failed_exchange(script: Script) -> OAuthFailure {
    let (scripted, mut flow, redirect) = visited(script, Pages::loopback().build());
    let reply = code_callback(&flow, &redirect, Some(&redirect.cookie));
    assert_eq!(reply.status, 502, "{}", reply.body);
    let failure = failure(flow.outcome());
    let verifier = scripted.seen.lock().unwrap().token_requests[0]
        .iter()
        .find(|(n, _)| n == "code_verifier")
        .unwrap()
        .1
        .clone();
    for text in [failure.to_string(), format!("{failure:?}"), reply.body] {
        for secret in [CODE, ACCESS, verifier.as_str(), redirect.state()] {
            assert!(!text.contains(secret), "{text} holds {secret}");
        }
    }
    failure
}

#[test]
fn a_token_endpoint_that_answers_garbage_fails_clearly() {
    let html = format!("<html>{ACCESS}</html>");
    let failure = failed_exchange(Script::Raw(200, "text/html", html.clone()));
    assert!(
        matches!(&failure, OAuthFailure::BadTokenResponse(why) if why.contains("Content-Type")),
        "{failure:?}"
    );
    let failure = failed_exchange(Script::Raw(200, "application/json", html));
    assert!(
        matches!(&failure, OAuthFailure::BadTokenResponse(why) if why.contains("not JSON")),
        "{failure:?}"
    );
    let wrong = format!(r#"{{"access_token":"{ACCESS}","expires_in":"soon"}}"#);
    let failure = failed_exchange(Script::Raw(200, "application/json", wrong));
    assert!(
        matches!(&failure, OAuthFailure::BadTokenResponse(why) if why.contains("missing or of the wrong type")),
        "{failure:?}"
    );
    let failure = failed_exchange(Script::Raw(400, "application/json", "{}".into()));
    assert!(
        matches!(failure, OAuthFailure::BadTokenResponse(_)),
        "{failure:?}"
    );
}

#[test]
fn a_token_endpoint_server_error_or_redirect_fails_clearly() {
    let failure = failed_exchange(Script::Raw(500, "text/plain", "oops".into()));
    assert_eq!(failure, OAuthFailure::TokenRequest(HttpError::Status(500)));
    // Not followed: the scripted reply's `Location` goes elsewhere.
    let failure = failed_exchange(Script::Raw(302, "text/plain", String::new()));
    assert_eq!(
        failure,
        OAuthFailure::TokenRequest(HttpError::Redirect(302))
    );
    let huge = "x".repeat(300 * 1024);
    let failure = failed_exchange(Script::Raw(200, "application/json", huge));
    assert_eq!(failure, OAuthFailure::TokenRequest(HttpError::TooLarge));
}

#[test]
fn a_token_error_is_refused_even_with_http_200() {
    let github = r#"{"error":"bad_verification_code","error_description":"The code passed is incorrect or expired."}"#;
    let failure = failed_exchange(Script::Raw(200, "application/json", github.into()));
    assert_eq!(
        failure,
        OAuthFailure::TokenRefused {
            error: "bad_verification_code".into(),
            description: Some("The code passed is incorrect or expired.".into()),
        }
    );
    let failure = failed_exchange(Script::Raw(
        400,
        "application/json",
        r#"{"error":"invalid_grant"}"#.into(),
    ));
    assert_eq!(
        failure,
        OAuthFailure::TokenRefused {
            error: "invalid_grant".into(),
            description: None,
        }
    );
}

#[test]
fn a_wrong_verifier_is_refused_by_the_provider() {
    // The scripted provider checks PKCE: with another challenge on record,
    // the flow's verifier does not match.
    let (scripted, mut flow, redirect) = visited(Script::Token, Pages::loopback().build());
    scripted.seen.lock().unwrap().challenge = Some(oidc::s256("another verifier"));
    let reply = code_callback(&flow, &redirect, Some(&redirect.cookie));
    assert_eq!(reply.status, 502);
    assert!(matches!(
        failure(flow.outcome()),
        OAuthFailure::TokenRefused { error, .. } if error == "invalid_grant"
    ));
}

#[test]
fn endpoints_must_be_https_but_on_loopback() {
    let bad = |a: &str, t: &str| matches!(Provider::new(a, t, "c"), Err(ProviderError::BadUrl(_)));
    assert!(bad("http://auth.example/a", "https://auth.example/t"));
    assert!(bad("https://auth.example/a", "http://auth.example/t"));
    assert!(bad("https://auth.example/a#f", "https://auth.example/t"));
    assert!(bad("https://user@auth.example/a", "https://auth.example/t"));
    assert!(!bad("https://auth.example/a", "http://127.0.0.1:9/t"));
    let github = Provider::github("id", SecretString::from("secret-value"));
    assert!(!format!("{github:?}").contains("secret-value"));
}

#[test]
fn discovery_reads_the_providers_document_and_checks_its_issuer() {
    let scripted = Scripted::start(Script::Token);
    let issuer = format!("http://{}", scripted.addr);
    let document = |issuer: &str| {
        format!(
            r#"{{"issuer":"{issuer}","authorization_endpoint":"{issuer}/auth",
            "token_endpoint":"{issuer}/token","code_challenge_methods_supported":["S256"],
            "authorization_response_iss_parameter_supported":true}}"#
        )
    };
    *scripted.discovery.lock().unwrap() = document(&issuer);
    let provider = futures::executor::block_on(Provider::discover(&issuer, "elicit-test")).unwrap();
    assert_eq!(provider.authorization_url(), format!("{issuer}/auth"));
    assert_eq!(provider.token_url(), format!("{issuer}/token"));
    assert_eq!(provider.expected_issuer(), Some(issuer.as_str()));

    *scripted.discovery.lock().unwrap() = document("https://evil.example");
    let error = futures::executor::block_on(Provider::discover(&issuer, "elicit-test"));
    assert!(
        matches!(error, Err(ProviderError::IssuerMismatch { .. })),
        "{error:?}"
    );
    let error =
        futures::executor::block_on(Provider::discover("http://issuer.example", "elicit-test"));
    assert!(matches!(error, Err(ProviderError::BadUrl(_))), "{error:?}");
}

#[test]
fn a_flow_opened_for_a_user_is_served_to_that_user_only() {
    use elicit_core::protocol::agent::VerifiedUser;
    let scripted = Scripted::start(Script::Token);
    let verifier = |parts: &http::request::Parts| {
        let user = parts.headers.get("x-user")?.to_str().ok()?;
        Some(VerifiedUser::new(user))
    };
    let pages = Pages::loopback().verifier(verifier).build();
    assert!(pages.open_oauth(&scripted.provider()).now().is_err());
    let alice = VerifiedUser::new("alice");
    let open = |user: &VerifiedUser| {
        let flow = pages
            .open_oauth_for(user, &scripted.provider())
            .now()
            .unwrap();
        let addr = pages.local_addr().unwrap();
        let path = flow
            .url()
            .strip_prefix(&format!("http://{addr}"))
            .unwrap()
            .to_owned();
        Flow {
            _pages: Some(pages.clone()),
            flow: Some(flow),
            addr,
            path,
        }
    };
    let mut flow = open(&alice);
    // The start page: not for another user, nor for no user.
    assert_eq!(Req::get(&flow.path).send(flow.addr).status, 403);
    let bob = Req::get(&flow.path).header("x-user", "bob").send(flow.addr);
    assert_eq!(bob.status, 403);
    let reply = Req::get(&flow.path)
        .header("x-user", "alice")
        .send(flow.addr);
    assert_eq!(reply.status, 303, "{}", reply.body);
    let cookie = reply.cookie().unwrap();
    let location = reply.header("location").unwrap();
    let state = url::form_urlencoded::parse(location.split_once('?').unwrap().1.as_bytes())
        .find(|(n, _)| n == "state")
        .unwrap()
        .1
        .into_owned();
    // The callback, with alice's cookie but as bob: refused, the flow ends.
    let reply = Req::get(&format!("/elicit/oauth/callback?code={CODE}&state={state}"))
        .header("cookie", &cookie)
        .header("x-user", "bob")
        .send(flow.addr);
    assert_eq!(reply.status, 403);
    assert_eq!(failure(flow.outcome()), OAuthFailure::OtherBrowser);
    assert_eq!(scripted.token_requests(), 0);
}

#[test]
fn a_malformed_authorization_response_fails_clearly() {
    let scripted = Scripted::start(Script::Token);
    let pages = Pages::loopback().build();
    for (extra, why) in [
        ("code=a&code=b", MalformedResponse::RepeatedParameter),
        ("", MalformedResponse::NeitherCodeNorError),
    ] {
        let mut flow = Flow::open(&pages, &scripted.provider());
        let redirect = visit(&flow, &scripted);
        let reply = callback(
            &flow,
            &format!("{extra}&state={}", redirect.state()),
            Some(&redirect.cookie),
        );
        assert_eq!(reply.status, 400, "{extra}");
        assert_eq!(
            failure(flow.outcome()),
            OAuthFailure::BadAuthorizationResponse(why)
        );
    }
    assert_eq!(scripted.token_requests(), 0);
    let flow = Flow::open(&pages, &scripted.provider());
    let post = Req::post("/elicit/oauth/callback", "state=x").send(flow.addr);
    assert_eq!(post.status, 405);
    let post = Req::post(&flow.path, "x=y").send(flow.addr);
    assert_eq!(post.status, 405);
}

/// The `sensitive::oauth` module docs' snippet, compiled (its discovery URL is an example).
#[allow(dead_code)]
mod readme_oauth {
    // README snippet start
    use elicit_core::acp::sdk::Elicitor;
    use elicit_core::protocol::ElicitationScope;
    use elicit_core::sensitive::Pages;
    use elicit_core::sensitive::oauth::{OAuthOutcome, OAuthToken, Provider};

    /// In a turn started with `AgentElicitations::spawn`.
    async fn sign_in(
        elicitor: &Elicitor,
        scope: ElicitationScope,
        pages: &Pages,
    ) -> Result<Option<OAuthToken>, Box<dyn std::error::Error>> {
        // Any OpenID provider by discovery (or `Provider::github(id, secret)`,
        // or `Provider::new(authorize_url, token_url, client_id)`).
        let provider = Provider::discover("https://accounts.example.com", "my-agent")
            .await?
            .scopes(["openid", "email"]);
        Ok(
            match elicitor
                .elicit_oauth(scope, "Sign in to Example", pages, &provider)
                .await?
            {
                // The access token is a `SecretString`; it never reaches the client.
                OAuthOutcome::Authorized(token) => Some(token),
                // Declined, cancelled, denied at the provider, expired, or failed.
                _ => None,
            },
        )
    }
    // README snippet end
}

#[test]
fn the_oauth_docs_snippet_is_this_code() {
    assert_eq!(
        crate::common::readme::lines(crate::common::readme::snippet(include_str!("oauth.rs"))),
        crate::common::readme::lines(&crate::common::readme::docs_block(
            include_str!("../../elicit-core/src/sensitive/oauth/mod.rs"),
            "returns a typed token"
        ))
    );
}

/// The page service routes before it reads: a callback reads no record
/// until its `state` names one, and a flow's start page and callback each
/// read their own record once (one store for pages and flows: no page
/// read first, no second lookup).
#[test]
fn each_oauth_route_reads_only_its_own_record() {
    use crate::common::sensitive::SharedStore;

    let store = SharedStore::default();
    let reads = || store.reads();
    let scripted = Scripted::start(Script::Token);
    let pages = Pages::loopback().store(store.clone()).build();
    let mut flow = Flow::open(&pages, &scripted.provider());
    assert_eq!(reads(), 0);
    for query in [
        "code=x",
        "code=x&state=not-a-state",
        "code=x&state=x&state=y",
    ] {
        assert_eq!(callback(&flow, query, None).status, 400, "{query}");
    }
    assert_eq!(reads(), 0, "a callback without a state reads nothing");
    let redirect = visit(&flow, &scripted);
    assert_eq!(reads(), 1, "the start page reads its flow once");
    let reply = code_callback(&flow, &redirect, Some(&redirect.cookie));
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reads(), 2, "the callback reads its flow once");
    assert!(flow.outcome().authorized().is_some());
}

/// One store, one cap: pages and OAuth flows count together against
/// `max_open`, and a flow dropped before its end (the one drop rule) gives
/// its place back as a page does.
#[test]
fn pages_and_flows_share_one_cap() {
    use crate::common::sensitive::Connect;
    use elicit_core::sensitive::OpenError;
    use elicit_core::sensitive::store::StoreError;

    let scripted = Scripted::start(Script::Token);
    let pages = Pages::loopback().max_open(2).build();
    let page = pages.open::<Connect>("m").now().unwrap();
    let flow = pages.open_oauth(&scripted.provider()).now().unwrap();
    let full = pages.open::<Connect>("m").now().unwrap_err();
    assert!(
        matches!(full, OpenError::Store(StoreError::Full { max: 2 })),
        "{full:?}"
    );
    let full = pages.open_oauth(&scripted.provider()).now().unwrap_err();
    assert!(
        matches!(full, OpenError::Store(StoreError::Full { max: 2 })),
        "{full:?}"
    );
    drop(flow);
    let _again = pages.open_oauth(&scripted.provider()).now().unwrap();
    drop(page);
    let _page = pages.open::<Connect>("m").now().unwrap();
}
