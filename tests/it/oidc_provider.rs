//! The OpenID provider the OAuth tests run against (`common::oidc`): it
//! starts on loopback from the pinned packages, serves its discovery
//! document for the issuer it printed, and takes PKCE with S256 only.

use std::net::SocketAddr;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use crate::browser::Browser;
use crate::common::Now;
use crate::common::http::Req;
use crate::common::oidc;

#[test]
fn the_test_provider_serves_discovery_for_its_issuer() {
    let Some(installed) = oidc::installed() else {
        return;
    };
    let provider = oidc::start(
        &installed,
        "elicit",
        None,
        &["http://127.0.0.1/oauth/callback"],
    );
    let e = &provider.endpoints;
    assert_eq!(e.issuer, format!("http://127.0.0.2:{}", e.port));
    assert_eq!(e.client_secret, None);
    let addr: SocketAddr = ([127, 0, 0, 2], e.port).into();
    let reply = Req::get("/.well-known/openid-configuration")
        .host(&format!("127.0.0.2:{}", e.port))
        .send(addr);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let doc: serde_json::Value = serde_json::from_str(&reply.body).expect("JSON");
    assert_eq!(doc["issuer"], e.issuer.as_str());
    assert_eq!(
        doc["authorization_endpoint"],
        e.authorization_endpoint.as_str()
    );
    assert_eq!(doc["token_endpoint"], e.token_endpoint.as_str());
    assert_eq!(
        doc["code_challenge_methods_supported"],
        serde_json::json!(["S256"])
    );
    // RFC 9207: the callback carries `iss`, which the agent checks.
    assert_eq!(doc["authorization_response_iss_parameter_supported"], true);
}

/// Percent-encodes what a query or form value needs here (URLs).
fn encode(value: &str) -> String {
    value.replace(':', "%3A").replace('/', "%2F")
}

/// One authorization in the browser, with the test as the redirect target
/// (a listener on 127.0.0.1 that takes the callback and answers "Done"):
/// the callback's query, and the redirect URI the authorization named.
fn authorize(
    browser: &Browser,
    e: &oidc::Endpoints,
    state: &str,
    verifier: &str,
) -> (String, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let redirect_uri = redirect_uri(&listener);
    let callback = std::thread::spawn(move || {
        loop {
            let (mut stream, _) = listener.accept().expect("accept");
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            reader.read_line(&mut line).expect("request line");
            // The headers, to the blank line: the whole request is read
            // before the answer, or closing resets the connection.
            let mut header = String::new();
            while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                header.clear();
            }
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 13\r\n\
                  connection: close\r\n\r\n<h1>Done</h1>",
            );
            if line.starts_with("GET /oauth/callback?") {
                return line;
            }
        }
    });
    browser.goto(&format!(
        "{}?response_type=code&client_id=elicit&redirect_uri={}&scope=openid&state={state}\
         &code_challenge={}&code_challenge_method=S256",
        e.authorization_endpoint,
        encode(&redirect_uri),
        oidc::s256(verifier),
    ));
    let authorized = redirect_uri;
    oidc::sign_in_and_consent(browser, "alice");
    assert_eq!(browser.heading(), "Done");
    let line = callback.join().expect("the callback came");
    let query = line
        .split_whitespace()
        .nth(1)
        .and_then(|target| target.split_once('?'))
        .map(|(_, q)| q.to_owned())
        .expect("a query");
    (query, authorized)
}

fn redirect_uri(listener: &TcpListener) -> String {
    format!(
        "http://127.0.0.1:{}/oauth/callback",
        listener.local_addr().expect("addr").port()
    )
}

fn param(query: &str, name: &str) -> Option<String> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
        .map(str::to_owned)
}

/// A form post to the provider.
fn post(e: &oidc::Endpoints, path: &str, fields: &[(&str, &str)]) -> serde_json::Value {
    let body = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let reply = Req::post(path, body)
        .host(&format!("127.0.0.2:{}", e.port))
        .header("content-type", "application/x-www-form-urlencoded")
        .send(([127, 0, 0, 2], e.port).into());
    let mut json: serde_json::Value = serde_json::from_str(&reply.body)
        .unwrap_or_else(|err| panic!("{path}: {err}: {}", reply.body));
    json["http_status"] = reply.status.into();
    json
}

/// The whole authorization code flow with PKCE against the provider,
/// driven by headless Chromium, with the test as the redirect target: what
/// the agent's page server does, step by step, so the provider, the
/// browser and the pages are known to work together. The code is bound to
/// its PKCE verifier, and the token it buys is active.
#[test]
fn a_browser_signs_in_and_the_code_is_exchanged_for_an_active_token() {
    let Some(installed) = oidc::installed() else {
        return;
    };
    let Some(browser) = Browser::start() else {
        return;
    };
    let provider = oidc::start(
        &installed,
        "elicit",
        None,
        &["http://127.0.0.1/oauth/callback"],
    );
    let e = &provider.endpoints;
    for (state, right_verifier) in [("first-flow", false), ("second-flow", true)] {
        let verifier =
            oidc::base64url(format!("{state}: a verifier of 32 bytes or more").as_bytes());
        let (query, redirect_uri) = authorize(&browser, e, state, &verifier);
        assert_eq!(param(&query, "state").as_deref(), Some(state));
        // RFC 9207: the issuer comes back with the code.
        assert_eq!(param(&query, "iss"), Some(encode(&e.issuer)));
        let code = param(&query, "code").expect("a code");
        let verifier = if right_verifier {
            verifier
        } else {
            oidc::base64url(b"another verifier, also 32 bytes or more")
        };
        let token = post(
            e,
            "/token",
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                // The one authorized, port included (the provider matched
                // the registered one on any port, RFC 8252).
                ("redirect_uri", &redirect_uri),
                ("client_id", "elicit"),
                ("code_verifier", &verifier),
            ],
        );
        if !right_verifier {
            assert_eq!(token["http_status"], 400, "{token}");
            assert_eq!(token["error"], "invalid_grant", "{token}");
            continue;
        }
        assert_eq!(token["http_status"], 200, "{token}");
        assert_eq!(token["token_type"], "Bearer", "{token}");
        let access = token["access_token"].as_str().expect("an access token");
        let introspection = post(
            e,
            "/token/introspection",
            &[("token", access), ("client_id", "elicit")],
        );
        assert_eq!(introspection["active"], true, "{introspection}");
        assert_eq!(introspection["sub"], "alice", "{introspection}");
    }
}

/// Issue 25's end to end: the agent's one flow (`Pages::open_oauth` with a
/// provider found by discovery) against the real provider, the user signing
/// in and consenting in headless Chromium. The agent ends with a token the
/// provider's introspection and userinfo endpoints accept, and the browser
/// with the agent's done page.
#[test]
fn the_agent_gets_a_token_the_real_provider_accepts() {
    use elicit_core::sensitive::ExposeSecret;
    use elicit_core::sensitive::Pages;
    use elicit_core::sensitive::oauth::OAuthOutcome;

    let Some(installed) = oidc::installed() else {
        return;
    };
    let Some(browser) = Browser::start() else {
        return;
    };
    let (provider, oauth) = oidc::start_for_pages(&installed, "elicit");
    let e = &provider.endpoints;
    assert_eq!(oauth.expected_issuer(), Some(e.issuer.as_str()));
    let pages = Pages::loopback().build();
    let pending = pages.open_oauth(&oauth).now().expect("a flow");
    let start = pending.url().to_owned();
    assert!(start.starts_with("http://127.0.0.1:"), "{start}");
    let agent = std::thread::spawn(move || {
        futures::executor::block_on(pending.outcome()).expect("the store answers")
    });

    browser.goto(&start);
    assert!(browser.url().starts_with(&e.issuer), "{}", browser.url());
    oidc::sign_in_and_consent(&browser, "alice");
    let outcome = agent.join().expect("the agent's flow ends");
    let done = browser.page_text();
    let OAuthOutcome::Authorized(token) = outcome else {
        panic!("{outcome:?}; the browser shows: {done}");
    };
    assert!(
        browser.url().starts_with("http://127.0.0.1:"),
        "{}",
        browser.url()
    );
    assert!(!done.contains(token.access_token().expose_secret()));

    let access = token.access_token().expose_secret();
    let introspection = post(
        e,
        "/token/introspection",
        &[("token", access), ("client_id", "elicit")],
    );
    assert_eq!(introspection["active"], true, "{introspection}");
    assert_eq!(introspection["sub"], "alice", "{introspection}");
    let userinfo = oidc::userinfo(e, access);
    assert_eq!(userinfo.status, 200, "{}", userinfo.body);
    let claims: serde_json::Value = serde_json::from_str(&userinfo.body).expect("JSON");
    assert_eq!(claims["sub"], "alice");
    assert_eq!(token.token_type(), "bearer");
    assert!(token.expires_in().is_some());
}
