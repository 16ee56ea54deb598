//! The two requests of the authorization code flow with PKCE (RFC 6749
//! section 4.1, RFC 7636), written here rather than through the `oauth2`
//! crate, whose types and their dependencies (a URL parser with IDNA, a
//! date library, a random number generator of its own) cost a user's build
//! more than the rest of this feature together (BENCHMARKS.md, "Build
//! cost"). They send what `oauth2` 5 sent, parameter for parameter, and
//! read the reply as it did: the tests against a real OpenID provider
//! (`tests/it/oidc_provider.rs`) and the scripted ones (`tests/it/oauth.rs`)
//! hold them to it.
//!
//! - The authorization URL: the provider's, with `response_type=code`,
//!   `client_id`, `state`, `code_challenge`, `code_challenge_method=S256`,
//!   `redirect_uri` and `scope` (space-separated) appended to its query,
//!   `application/x-www-form-urlencoded`.
//! - The token request: a `POST` of `grant_type=authorization_code`,
//!   `code`, `code_verifier` and `redirect_uri` (the client's id and
//!   secret in HTTP Basic authentication, each form-encoded first as RFC
//!   6749 section 2.3.1 asks, or in the body), accepting JSON.
//! - The reply: HTTP 200 with a JSON token (`access_token`, `token_type`,
//!   and optionally `expires_in`, `refresh_token`, `scope`); any other
//!   status with a JSON error (`error`, `error_description`).

use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::outcome::OAuthFailure;
use super::provider::Provider;
use super::routes::capped;
use super::token::OAuthToken;

/// A PKCE verifier: 32 random bytes, base64url (43 characters).
pub(crate) fn new_verifier() -> Result<SecretString, getrandom::Error> {
    let mut bytes = Zeroizing::new([0u8; 32]);
    getrandom::fill(&mut *bytes)?;
    Ok(SecretString::from(base64(&*bytes, URL_SAFE, false)))
}

/// The `S256` challenge of a verifier.
pub(crate) fn challenge(verifier: &SecretString) -> String {
    let digest = Sha256::digest(verifier.expose_secret().as_bytes());
    base64(&digest, URL_SAFE, false)
}

/// The provider's authorization URL with the flow's parameters.
pub(crate) fn authorize_url(
    provider: &Provider,
    redirect_uri: &str,
    state: &str,
    challenge: &str,
) -> String {
    let mut pairs = vec![
        ("response_type", "code"),
        ("client_id", provider.client_id.as_str()),
        ("state", state),
        ("code_challenge", challenge),
        ("code_challenge_method", "S256"),
        ("redirect_uri", redirect_uri),
    ];
    let scopes = provider.scopes.join(" ");
    if !scopes.is_empty() {
        pairs.push(("scope", &scopes));
    }
    let base = &provider.authorization_url;
    let separator = match base.split_once('?') {
        None => "?",
        Some((_, "")) => "",
        Some(_) if base.ends_with('&') => "",
        Some(_) => "&",
    };
    format!("{base}{separator}{}", form_encode(&pairs))
}

/// The token request for `code`.
pub(crate) fn token_request(
    provider: &Provider,
    redirect_uri: &str,
    code: &str,
    verifier: &SecretString,
) -> Result<http::Request<Vec<u8>>, String> {
    let mut pairs = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("code_verifier", verifier.expose_secret()),
    ];
    let mut request = http::Request::post(&provider.token_url)
        .header(http::header::ACCEPT, "application/json")
        .header(
            http::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        );
    match &provider.client_secret {
        Some(secret) if !provider.secret_in_body => {
            let credentials = Zeroizing::new(format!(
                "{}:{}",
                form_encode_value(&provider.client_id),
                form_encode_value(secret.expose_secret())
            ));
            let value = Zeroizing::new(format!(
                "Basic {}",
                base64(credentials.as_bytes(), STANDARD, true)
            ));
            let mut header = http::HeaderValue::from_str(&value).map_err(|e| e.to_string())?;
            header.set_sensitive(true);
            request = request.header(http::header::AUTHORIZATION, header);
        }
        secret => {
            pairs.push(("client_id", &provider.client_id));
            if let Some(secret) = secret {
                pairs.push(("client_secret", secret.expose_secret()));
            }
        }
    }
    pairs.push(("redirect_uri", redirect_uri));
    let body = Zeroizing::new(form_encode(&pairs));
    request
        .body(body.as_bytes().to_vec())
        .map_err(|e| e.to_string())
}

/// The token endpoint's reply read as a token, or why it is not one.
pub(crate) fn read_token_response(
    response: &http::Response<Vec<u8>>,
) -> Result<OAuthToken, OAuthFailure> {
    #[derive(serde::Deserialize)]
    struct TokenBody {
        access_token: String,
        token_type: String,
        #[serde(default)]
        expires_in: Option<u64>,
        #[serde(default)]
        refresh_token: Option<String>,
        #[serde(default)]
        scope: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct ErrorBody {
        error: String,
        #[serde(default)]
        error_description: Option<String>,
    }
    let body = response.body().as_slice();
    if response.status() != http::StatusCode::OK {
        if body.is_empty() {
            return Err(OAuthFailure::BadTokenResponse(
                "the server returned an empty error response".to_owned(),
            ));
        }
        let refusal: ErrorBody = parse(body)?;
        return Err(OAuthFailure::TokenRefused {
            error: capped(&refusal.error),
            description: refusal.error_description.as_deref().map(capped),
        });
    }
    if let Some(kind) = response.headers().get(http::header::CONTENT_TYPE) {
        let json = kind
            .to_str()
            .is_ok_and(|k| k.to_ascii_lowercase().starts_with("application/json"));
        if !json {
            return Err(OAuthFailure::BadTokenResponse(capped(&format!(
                "unexpected response Content-Type: {kind:?}, should be `application/json`"
            ))));
        }
    }
    if body.is_empty() {
        return Err(OAuthFailure::BadTokenResponse(
            "the server returned an empty response body".to_owned(),
        ));
    }
    let token: TokenBody = parse(body)?;
    let token_type = if token.token_type.eq_ignore_ascii_case("bearer")
        || token.token_type.eq_ignore_ascii_case("mac")
    {
        token.token_type.to_ascii_lowercase()
    } else {
        token.token_type
    };
    Ok(OAuthToken::received(
        SecretString::from(token.access_token),
        token_type,
        token.refresh_token.map(SecretString::from),
        token.expires_in,
        token
            .scope
            .map(|scope| scope.split(' ').map(str::to_owned).collect()),
    ))
}

/// JSON read with the path of the first thing wrong, never the body's text.
fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, OAuthFailure> {
    serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_slice(body)).map_err(
        |error| {
            let what = match error.inner().classify() {
                serde_json::error::Category::Data => "a field is missing or of the wrong type",
                _ => "not JSON",
            };
            OAuthFailure::BadTokenResponse(format!("{what} (at `{}`)", error.path()))
        },
    )
}

// ---------------------------------------------------------------------------
// application/x-www-form-urlencoded and base64

/// `name=value&..`, each form-encoded.
fn form_encode(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (name, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(&form_encode_value(name));
        out.push('=');
        out.push_str(&form_encode_value(value));
    }
    out
}

/// The URL Standard's `application/x-www-form-urlencoded` byte serializer:
/// ASCII letters, digits and `*-._` as they are, a space as `+`, any other
/// byte as `%XX`.
fn form_encode_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
        }
    }
    out
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The pairs of a form-encoded query, decoded (`+` is a space; invalid
/// UTF-8 becomes U+FFFD), as the URL Standard's parser reads them.
pub(crate) fn form_pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query.split('&').filter(|p| !p.is_empty()).map(|pair| {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        (form_decode(name), form_decode(value))
    })
}

fn form_decode(text: &str) -> String {
    let spaced = text.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8_lossy()
        .into_owned()
}

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64 (RFC 4648) in `alphabet`, with `=` padding or without.
fn base64(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        let digits = chunk.len() + 1;
        for i in 0..4 {
            if i < digits {
                out.push(char::from(alphabet[(n >> (18 - 6 * i) & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_follows_rfc_4648() {
        // RFC 4648, section 10.
        for (input, padded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes(), STANDARD, true), padded);
            assert_eq!(
                base64(input.as_bytes(), URL_SAFE, false),
                padded.trim_end_matches('=')
            );
        }
        assert_eq!(base64(&[0xFB, 0xFF], URL_SAFE, false), "-_8");
        assert_eq!(base64(&[0xFB, 0xFF], STANDARD, true), "+/8=");
    }

    #[test]
    fn the_challenge_is_rfc_7636s() {
        // RFC 7636, appendix B.
        let verifier = SecretString::from("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        assert_eq!(
            challenge(&verifier),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        let fresh = new_verifier().unwrap();
        assert_eq!(fresh.expose_secret().len(), 43);
        assert_ne!(
            fresh.expose_secret(),
            new_verifier().unwrap().expose_secret()
        );
    }

    #[test]
    fn forms_encode_and_decode_as_the_url_standard() {
        assert_eq!(
            form_encode(&[("scope", "read write"), ("x", "a+b/c?d=é*-._~")]),
            "scope=read+write&x=a%2Bb%2Fc%3Fd%3D%C3%A9*-._%7E"
        );
        let pairs: Vec<_> = form_pairs("state=a%2Bb+c&&code=%E2%82%AC&flag&bad=%FF").collect();
        assert_eq!(
            pairs,
            [
                ("state".to_owned(), "a+b c".to_owned()),
                ("code".to_owned(), "€".to_owned()),
                ("flag".to_owned(), String::new()),
                ("bad".to_owned(), "\u{FFFD}".to_owned()),
            ]
        );
    }

    #[test]
    fn the_authorization_url_keeps_the_providers_query() {
        let provider = Provider::new(
            "https://auth.example.com/authorize?audience=api",
            "https://auth.example.com/token",
            "my client",
        )
        .unwrap()
        .scopes(["read", "write"]);
        assert_eq!(
            authorize_url(&provider, "http://127.0.0.1:1/cb", "s t", "ch"),
            "https://auth.example.com/authorize?audience=api&response_type=code&client_id=my+client\
             &state=s+t&code_challenge=ch&code_challenge_method=S256\
             &redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb&scope=read+write"
        );
    }

    #[test]
    fn the_token_request_sends_the_secret_in_basic_authentication() {
        let provider = Provider::new("https://a.example/a", "https://a.example/t", "id:1")
            .unwrap()
            .client_secret(SecretString::from("p@ss"));
        let verifier = SecretString::from("v");
        let request = token_request(&provider, "https://r.example/cb", "c+1", &verifier).unwrap();
        assert_eq!(request.method(), http::Method::POST);
        assert_eq!(
            request.headers()[http::header::AUTHORIZATION],
            format!("Basic {}", base64(b"id%3A1:p%40ss", STANDARD, true))
        );
        assert_eq!(
            std::str::from_utf8(request.body()).unwrap(),
            "grant_type=authorization_code&code=c%2B1&code_verifier=v\
             &redirect_uri=https%3A%2F%2Fr.example%2Fcb"
        );
        let in_body = provider.secret_in_body();
        let request = token_request(&in_body, "https://r.example/cb", "c", &verifier).unwrap();
        assert!(request.headers().get(http::header::AUTHORIZATION).is_none());
        assert_eq!(
            std::str::from_utf8(request.body()).unwrap(),
            "grant_type=authorization_code&code=c&code_verifier=v&client_id=id%3A1\
             &client_secret=p%40ss&redirect_uri=https%3A%2F%2Fr.example%2Fcb"
        );
    }

    #[test]
    fn replies_are_read_as_oauth2_read_them() {
        let reply = |status: u16, kind: Option<&str>, body: &str| {
            let mut response = http::Response::builder().status(status);
            if let Some(kind) = kind {
                response = response.header(http::header::CONTENT_TYPE, kind);
            }
            read_token_response(&response.body(body.as_bytes().to_vec()).unwrap())
        };
        let token = reply(
            200,
            Some("application/json; charset=utf-8"),
            r#"{"access_token":"t","token_type":"Bearer","expires_in":60,"scope":"a b"}"#,
        )
        .unwrap();
        assert_eq!(token.access_token().expose_secret(), "t");
        assert_eq!(token.token_type(), "bearer");
        assert_eq!(token.expires_in(), Some(std::time::Duration::from_secs(60)));
        assert_eq!(token.scopes(), Some(&["a".to_owned(), "b".to_owned()][..]));
        assert!(token.refresh_token().is_none());
        assert!(matches!(
            reply(400, None, r#"{"error":"invalid_grant","error_description":"used"}"#),
            Err(OAuthFailure::TokenRefused { error, description })
                if error == "invalid_grant" && description.as_deref() == Some("used")
        ));
        assert!(matches!(
            reply(200, None, r#"{"access_token":"t"}"#),
            Err(OAuthFailure::BadTokenResponse(why))
                if why == "a field is missing or of the wrong type (at `.`)"
        ));
        assert!(matches!(
            reply(200, None, r#"{"access_token":"t","token_type":"bearer","expires_in":"soon"}"#),
            Err(OAuthFailure::BadTokenResponse(why))
                if why == "a field is missing or of the wrong type (at `expires_in`)"
        ));
        assert!(matches!(
            reply(200, Some("text/html"), "<html>"),
            Err(OAuthFailure::BadTokenResponse(why)) if why.contains("Content-Type")
        ));
        assert!(matches!(
            reply(401, None, ""),
            Err(OAuthFailure::BadTokenResponse(why)) if why.contains("empty error response")
        ));
    }
}
