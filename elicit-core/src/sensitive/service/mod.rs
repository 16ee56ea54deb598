//! The page service: every request to the pages and OAuth flows goes
//! through [`respond`], which checks the pages are served and the host,
//! then routes by path and method before anything is read: a record's
//! page (`<base>/<id>`: a sensitive form's page, or an OAuth flow's start
//! page, by what the one store read finds) or the OAuth callback
//! (`<base>/oauth/callback`, no record read until its `state` names one).
//! The checks the routes share are `checks.rs`, each written once.

pub(crate) mod checks;
mod page;

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Weak;
use std::task::{Context, Poll};

use http::header::{self, HeaderValue};
use http::{Method, Request, StatusCode};
use http_body::Body;

use checks::waiting_record;

use super::html::Notice;
use super::response::{PageResponse, notice, refusal};
use super::shared::Shared;
use super::store::Kind;
use super::token::PageId;
use crate::fingerprint::Fingerprint;

/// The `tower` service that serves [`Pages`](super::Pages): from
/// [`Pages::service`](super::Pages::service). Mount it at the path of the
/// pages' public URL; it answers `<path>/<id>` and `/<id>` (what a router
/// that strips the mount path passes on), the OAuth callback
/// `<path>/oauth/callback` the same way, and `404` to anything else.
///
/// It holds the pages weakly: once every [`Pages`](super::Pages) clone is
/// dropped it answers `503`.
#[derive(Clone)]
pub struct PageService {
    shared: Weak<Shared>,
}

impl fmt::Debug for PageService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PageService(..)")
    }
}

impl PageService {
    pub(crate) fn new(shared: Weak<Shared>) -> Self {
        Self { shared }
    }
}

impl<B> tower_service::Service<Request<B>> for PageService
where
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = PageResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<PageResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let shared = self.shared.clone();
        Box::pin(async move { Ok(respond(&shared, request).await) })
    }
}

/// Where a request goes, by its path alone.
enum Route {
    /// `<base>/<id>`: a page, or an OAuth flow's start page.
    Record(PageId),
    /// `<base>/oauth/callback`.
    #[cfg(feature = "oauth")]
    Callback,
    /// Anything else.
    Unknown,
}

impl Route {
    /// The route of `path`, under `base` or without it (what a router that
    /// strips the mount path passes on).
    fn of(path: &str, base: &str) -> Self {
        let rest = path
            .strip_prefix(base)
            .filter(|rest| rest.starts_with('/'))
            .unwrap_or(path);
        #[cfg(feature = "oauth")]
        if rest == super::oauth::flow::CALLBACK {
            return Self::Callback;
        }
        match rest.strip_prefix('/').map(str::parse) {
            Some(Ok(id)) => Self::Record(id),
            _ => Self::Unknown,
        }
    }
}

/// Answers one request, in its span (`page_request`: the method, and the
/// record's fingerprint once it is read).
pub(crate) async fn respond<B>(shared: &Weak<Shared>, request: Request<B>) -> PageResponse
where
    B: Body + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let span = span!("page_request", method = request.method(); page);
    in_span!(span, routed(shared, request)).await
}

/// Answers one request: the checks of the module's threat model, in order,
/// each refusal an event with its reason.
async fn routed<B>(shared: &Weak<Shared>, request: Request<B>) -> PageResponse
where
    B: Body + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let Some(shared) = shared.upgrade() else {
        refused!(PagesClosed);
        return refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "Not available",
            "These pages are closed.",
        );
    };
    let (parts, body) = request.into_parts();
    let Some(origin) = shared.origin() else {
        refused!(PagesClosed);
        return refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "Not available",
            "No page is open.",
        );
    };
    // DNS rebinding: another site's hostname pointed at this address.
    if !checks::host_matches(&parts, &origin) {
        refused!(WrongHost);
        return refusal(
            StatusCode::MISDIRECTED_REQUEST,
            "Wrong address",
            "This server answers only at its own address.",
        );
    }
    let id = match Route::of(parts.uri.path(), &shared.config.base_path) {
        Route::Unknown => {
            refused!(PageUnknown);
            return notice(StatusCode::NOT_FOUND, Notice::Expired);
        }
        #[cfg(feature = "oauth")]
        Route::Callback if parts.method == Method::GET => {
            return super::oauth::routes::callback(&shared, &parts).await;
        }
        #[cfg(feature = "oauth")]
        Route::Callback => return not_allowed("GET"),
        Route::Record(id) => id,
    };
    record!(page = Fingerprint(id));
    if parts.method != Method::GET && parts.method != Method::POST {
        return not_allowed("GET, POST");
    }
    let record = match waiting_record(&shared, id, &parts).await {
        Ok(record) => record,
        Err(response) => return response,
    };
    match &record.kind {
        Kind::Page(_) => page::respond(&shared, &origin, id, record, parts, body).await,
        #[cfg(feature = "oauth")]
        Kind::OAuth(_) if parts.method == Method::GET => {
            super::oauth::routes::start(&shared, &origin, id, &record, &parts).await
        }
        #[cfg(feature = "oauth")]
        Kind::OAuth(_) => not_allowed("GET"),
    }
}

/// `405`, with the methods the route allows.
pub(crate) fn not_allowed(allow: &'static str) -> PageResponse {
    refused!(BadRequest, problem = "method");
    let mut response = refusal(
        StatusCode::METHOD_NOT_ALLOWED,
        "Not allowed",
        "This page is only viewed and posted.",
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allow));
    response
}

/// `408`: the request did not arrive in time (the loopback server's
/// timeout).
pub(crate) fn timed_out() -> PageResponse {
    refused!(BadRequest, problem = "timed out");
    refusal(
        StatusCode::REQUEST_TIMEOUT,
        "Too slow",
        "The form did not arrive in time. Try again.",
    )
}
