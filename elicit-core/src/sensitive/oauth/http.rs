//! The HTTP client of the token exchange and of discovery: hyper-util's
//! client on a runtime of its own, TLS by rustls (`ring`, webpki-roots).
//! It follows no redirect, speaks plain `http` only to a loopback host,
//! caps the reply's size and time, and turns an HTTP 200 whose JSON is an
//! error into the 400 it should have been (GitHub's token endpoint).

use std::future::Future;

use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode, Uri};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use crate::sensitive::origin::is_loopback;

/// The largest reply read: 256 KiB (a token or discovery document is a few
/// KiB).
pub(crate) const BODY_LIMIT: usize = 256 * 1024;
/// How long a request may take, connection and reply included.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(30);

/// Why a request to the provider failed. Never holds a body, a header or a
/// query: nothing secret.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum HttpError {
    /// Not `https`, nor `http` to a loopback host.
    Insecure,
    /// The connection, TLS or HTTP exchange failed.
    Connect(String),
    /// The endpoint answered with a redirect, which is not followed.
    Redirect(u16),
    /// The endpoint answered with a server error.
    Status(u16),
    /// The reply is larger than the cap.
    TooLarge,
    /// No whole reply in time.
    Timeout,
    /// The thread or runtime that runs the request could not start.
    Runtime(String),
}

impl std::fmt::Display for HttpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Insecure => {
                f.write_str("the endpoint must be https (http only on a loopback host)")
            }
            Self::Connect(e) => write!(f, "the endpoint could not be reached: {e}"),
            Self::Redirect(e) => write!(
                f,
                "the endpoint answered a redirect (HTTP {e}), which is not followed"
            ),
            Self::Status(e) => write!(f, "the endpoint answered HTTP {e}"),
            Self::TooLarge => write!(f, "the endpoint's reply is larger than {BODY_LIMIT} bytes"),
            Self::Timeout => write!(
                f,
                "the endpoint did not answer within {} seconds",
                TIMEOUT.as_secs()
            ),
            Self::Runtime(e) => write!(f, "the request could not be run: {e}"),
        }
    }
}

impl std::error::Error for HttpError {}

/// The client: every request runs as a task on one runtime of its own (a
/// current-thread tokio runtime on one thread for the whole process,
/// started with the first request), so the caller's future is
/// runtime-neutral (like the page server's) and a request costs no thread.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HttpClient;

/// The requests' runtime, once started (`None`: it could not start).
static REQUESTS: std::sync::OnceLock<Option<crate::background::Background>> =
    std::sync::OnceLock::new();

impl HttpClient {
    /// Sends `request` and reads its reply.
    pub(crate) fn send(
        request: Request<Vec<u8>>,
    ) -> impl Future<Output = Result<Response<Vec<u8>>, HttpError>> + Send + 'static {
        let started = check_uri(request.uri()).and_then(|()| {
            let requests = REQUESTS
                .get_or_init(|| crate::background::Background::start("elicit-oauth-http").ok())
                .as_ref()
                .ok_or_else(|| HttpError::Runtime("the requests' thread did not start".into()))?;
            Ok(requests.run(async {
                tokio::time::timeout(TIMEOUT, exchange(request))
                    .await
                    .unwrap_or(Err(HttpError::Timeout))
            }))
        });
        async move {
            started?
                .await
                .unwrap_or_else(|| Err(HttpError::Runtime("the request's runtime stopped".into())))
        }
    }
}

/// `https`, or `http` to a loopback host.
pub(crate) fn check_uri(uri: &Uri) -> Result<(), HttpError> {
    match uri.scheme_str() {
        Some("https") => Ok(()),
        Some("http") if uri.host().is_some_and(is_loopback) => Ok(()),
        _ => Err(HttpError::Insecure),
    }
}

async fn exchange(request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, HttpError> {
    // ring, not aws-lc-rs (a C build): rustls 0.23.48 deprecates ring's
    // provider for lacking post-quantum key exchange, which a token
    // request does not need more than any other TLS 1.3 client.
    #[allow(deprecated)]
    let provider = rustls::crypto::ring::default_provider();
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_provider_and_webpki_roots(provider)
        .map_err(|e| HttpError::Connect(e.to_string()))?
        .https_or_http()
        .enable_http1()
        .wrap_connector({
            let mut http = HttpConnector::new();
            http.enforce_http(false);
            http
        });
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).build(connector);
    let (parts, body) = request.into_parts();
    let request = Request::from_parts(parts, Full::new(Bytes::from(body)));
    let response = client
        .request(request)
        .await
        .map_err(|e| HttpError::Connect(chain(&e)))?;
    let status = response.status();
    if status.is_redirection() {
        return Err(HttpError::Redirect(status.as_u16()));
    }
    if status.is_server_error() || status.is_informational() {
        return Err(HttpError::Status(status.as_u16()));
    }
    let (mut parts, body) = response.into_parts();
    let body = match Limited::new(body, BODY_LIMIT).collect().await {
        Ok(collected) => collected.to_bytes().to_vec(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => return Err(HttpError::TooLarge),
        Err(e) => return Err(HttpError::Connect(e.to_string())),
    };
    if parts.status == StatusCode::OK && is_error_body(&body) {
        parts.status = StatusCode::BAD_REQUEST;
    }
    Ok(Response::from_parts(parts, body))
}

/// Whether `body` is a JSON object with `error` and no `access_token`: an
/// error response sent with HTTP 200 (GitHub's token endpoint does).
fn is_error_body(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe {
        error: Option<serde::de::IgnoredAny>,
        access_token: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<Probe>(body)
        .is_ok_and(|probe| probe.error.is_some() && probe.access_token.is_none())
}

/// An error and its sources, on one line (hyper's own text is terse).
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_only_to_loopback() {
        let ok = |u: &str| check_uri(&u.parse().unwrap()).is_ok();
        assert!(ok("https://example.com/token"));
        assert!(ok("http://127.0.0.1:8080/token"));
        assert!(ok("http://127.0.0.2/token"));
        assert!(ok("http://[::1]:80/token"));
        assert!(ok("http://localhost/token"));
        assert!(!ok("http://example.com/token"));
        assert!(!ok("http://127.0.0.1.example.com/token"));
        assert!(!ok("ftp://127.0.0.1/token"));
    }

    #[test]
    fn an_error_sent_with_200_is_an_error() {
        assert!(is_error_body(br#"{"error":"bad_verification_code"}"#));
        assert!(!is_error_body(
            br#"{"access_token":"x","token_type":"bearer"}"#
        ));
        assert!(!is_error_body(br#"{"access_token":"x","error":"odd"}"#));
        assert!(!is_error_body(b"not json"));
    }
}
