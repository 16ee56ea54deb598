//! The token request of the authorization code flow with PKCE, and its
//! reply (the authorization URL and response: `authorize.rs`); the two
//! requests of the flow (RFC 6749
//! section 4.1, RFC 7636), written here rather than through the `oauth2`
//! crate, whose types and their dependencies (a URL parser with IDNA, a
//! date library, a random number generator of its own) cost a user's build
//! more than the rest of this feature together (BENCHMARKS.md, "Build
//! cost"). They send what `oauth2` 5 sent, parameter for parameter, and
//! read the reply as it did: the tests against a real OpenID provider
//! (`tests/it/oidc_provider.rs`) and the scripted ones (`tests/it/oauth.rs`)
//! hold them to it.
//!
//! - The token request: a `POST` of `grant_type=authorization_code`,
//!   `code`, `code_verifier` and `redirect_uri` (the client's id and
//!   secret in HTTP Basic authentication, each form-encoded first as RFC
//!   6749 section 2.3.1 asks, or in the body), accepting JSON.
//! - The reply: HTTP 200 with a JSON token (`access_token`, `token_type`,
//!   and optionally `expires_in`, `refresh_token`, `scope`); any other
//!   status with a JSON error (`error`, `error_description`).

use secrecy::{ExposeSecret, SecretString};
use zeroize::Zeroizing;

use super::encoding::{STANDARD, base64, form_encode, form_encode_value};
use super::end::{OAuthFailure, capped};
use super::pkce::PkceVerifier;
use super::provider::Provider;
use super::token::OAuthToken;

/// The token request for `code`.
pub(crate) fn token_request(
    provider: &Provider,
    redirect_uri: &str,
    code: &str,
    verifier: &PkceVerifier,
) -> Result<http::Request<Vec<u8>>, String> {
    let mut pairs = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("code_verifier", verifier.secret()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_request_sends_the_secret_in_basic_authentication() {
        let provider = Provider::new("https://a.example/a", "https://a.example/t", "id:1")
            .unwrap()
            .client_secret(SecretString::from("p@ss"));
        let verifier = PkceVerifier::for_test("v");
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
