//! The responses of the page server: every one carries the same security
//! headers.

use bytes::Bytes;
use http::header::{self, HeaderMap, HeaderValue};
use http::{Response, StatusCode};
use http_body_util::Full;

use super::html::{Notice, STYLE_HASH, notice_page};

/// What [`PageService`](super::PageService) answers with: an HTML page (or
/// nothing).
pub(crate) type PageResponse = Response<Full<Bytes>>;

/// The `Content-Security-Policy` of every response: nothing but the
/// page's one stylesheet, posting only to itself, never framed.
pub(crate) fn content_security_policy() -> String {
    format!(
        "default-src 'none'; style-src {STYLE_HASH}; form-action 'self'; \
         frame-ancestors 'none'; base-uri 'none'"
    )
}

/// An HTML response with the headers every response carries.
pub(crate) fn page(status: StatusCode, html: String) -> PageResponse {
    let mut response = Response::new(Full::new(Bytes::from(html)));
    *response.status_mut() = status;
    secure_headers(response.headers_mut());
    response
}

/// The headers of every response, whatever its status.
pub(crate) fn secure_headers(headers: &mut HeaderMap) {
    let csp = HeaderValue::from_str(&content_security_policy())
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"));
    headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
}

pub(crate) fn notice(status: StatusCode, notice: Notice) -> PageResponse {
    page(status, notice.render())
}

pub(crate) fn refusal(status: StatusCode, title: &str, text: &str) -> PageResponse {
    page(status, notice_page(title, text))
}

/// `503` for an answer that did not count (the store could not make it
/// survive a failover, or another answer is being saved): the page is
/// still open, and takes the post again.
pub(crate) fn not_saved() -> PageResponse {
    let mut response = refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        "Not saved",
        "Your answer was not saved. Go back and send it again in a moment.",
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("2"));
    response
}

pub(crate) fn unavailable() -> PageResponse {
    refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        "Not available",
        "The page could not be served. Return to your client.",
    )
}
