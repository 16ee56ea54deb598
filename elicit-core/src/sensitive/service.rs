//! The page service: every request to a page goes through
//! [`respond`], which applies the threat model's server checks in order.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Weak};
use std::task::{Context, Poll};
use std::time::SystemTime;

use http::header::{self, HeaderMap, HeaderValue};
use http::{Method, Request, StatusCode};
use http_body::Body;
use http_body_util::{BodyExt, Limited};

use super::body::read;
use super::cookie::{self, Cookie, SameSite};
use super::form::check_submission;
use super::origin::Origin;
use super::page::{Notice, PageForm};
use super::response::{PageResponse, notice, page, refusal, unavailable};
use super::shared::Shared;
use super::store::{Binding, End, PageState, Record};
use super::token::{PageId, Token};
use crate::fingerprint::Fingerprint;

/// The name of the hidden field that carries the CSRF token.
pub(crate) const CSRF_FIELD: &str = "csrf";
/// The name of the cookie that binds a page to its first browser.
pub(crate) const COOKIE: &str = "elicit_binding";

/// The `tower` service that serves [`Pages`](super::Pages): from
/// [`Pages::service`](super::Pages::service). Mount it at the path of the
/// pages' public URL; it answers `<path>/<id>` and `/<id>` (what a router
/// that strips the mount path passes on), and `404` to anything else.
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

/// Answers one request, in its span (`page_request`: the method, and the
/// page's fingerprint once it is read).
pub(crate) async fn respond<B>(shared: &Weak<Shared>, request: Request<B>) -> PageResponse
where
    B: Body + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let span = span!("page_request", method = request.method(); page);
    in_span!(span, checked(shared, request)).await
}

/// Answers one request: the checks of the module's threat model, in order,
/// each refusal an event with its reason.
async fn checked<B>(shared: &Weak<Shared>, request: Request<B>) -> PageResponse
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
    if !host_matches(&parts, &origin) {
        refused!(WrongHost);
        return refusal(
            StatusCode::MISDIRECTED_REQUEST,
            "Wrong address",
            "This server answers only at its own address.",
        );
    }
    let Some(id) = page_id(parts.uri.path(), &shared.config.base_path) else {
        return extension_or_gone(&shared, &origin, &parts).await;
    };
    record!(page = Fingerprint(id));
    if parts.method != Method::GET && parts.method != Method::POST {
        refused!(BadRequest, problem = "method");
        let mut response = refusal(
            StatusCode::METHOD_NOT_ALLOWED,
            "Not allowed",
            "This page is only viewed and posted.",
        );
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, POST"));
        return response;
    }
    let store = &shared.store;
    let record = match store.get(&id).await {
        Ok(Some(record)) => record,
        Ok(None) => return extension_or_gone(&shared, &origin, &parts).await,
        Err(_) => {
            refused!(StoreFailed, step = "get");
            return unavailable();
        }
    };
    match record.state {
        PageState::Open if SystemTime::now() >= record.expires_at => {
            refused!(PageExpired);
            let _ = store.end(&id, End::Expired).await;
            return notice(StatusCode::GONE, Notice::Expired);
        }
        PageState::Open => {}
        PageState::Expired => {
            refused!(PageExpired);
            return notice(StatusCode::GONE, Notice::Expired);
        }
        PageState::Answered | PageState::Cancelled => {
            refused!(PageUsed);
            return notice(StatusCode::GONE, Notice::Used);
        }
    }
    // The user the page was opened for, and no one else (hosted pages).
    if let Some(user) = &record.user {
        let verified = shared
            .config
            .verifier
            .as_ref()
            .and_then(|verifier| verifier.user(&parts));
        if verified.as_ref().map(|v| v.as_str()) != Some(user.as_str()) {
            refused!(WrongUser, verified = verified.is_some());
            return notice(StatusCode::FORBIDDEN, Notice::Refused);
        }
    }
    let cookie = cookie::read(&parts.headers, COOKIE);
    if parts.method == Method::GET {
        return show(&shared, &origin, id, &record, cookie).await;
    }
    // Cross-site posts: the browser says where the post comes from.
    if !same_origin_post(&parts.headers, &origin) {
        refused!(CrossSitePost);
        return refusal(
            StatusCode::FORBIDDEN,
            "Refused",
            "This form can only be sent from its own page.",
        );
    }
    // The browser the page is bound to, and no other.
    let Some(binding) = record.binding else {
        refused!(OtherBrowser, step = "post before any visit");
        return notice(StatusCode::FORBIDDEN, Notice::Refused);
    };
    if !cookie.is_some_and(|c| c.matches(&binding.cookie)) {
        refused!(OtherBrowser, step = "post", cookie = cookie.is_some());
        return notice(StatusCode::FORBIDDEN, Notice::Refused);
    }
    if !is_form_urlencoded(&parts.headers) {
        refused!(BadRequest, problem = "content-type");
        return refusal(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Unsupported",
            "This page accepts only its own form.",
        );
    }
    let limit = shared.config.body_limit;
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return too_large();
    }
    let bytes = match Limited::new(body, limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error) if error.is::<http_body_util::LengthLimitError>() => return too_large(),
        Err(_) => {
            refused!(BadRequest, problem = "body");
            return refusal(
                StatusCode::BAD_REQUEST,
                "Not received",
                "The form did not arrive whole.",
            );
        }
    };
    let secrets: Vec<&str> = record.secrets.iter().map(String::as_str).collect();
    let posted = match read(&bytes, &record.schema, &secrets, &[CSRF_FIELD]) {
        Ok(posted) => posted,
        Err(error) => {
            refused!(BadRequest, problem = "form");
            return refusal(StatusCode::BAD_REQUEST, "Not readable", &error.to_string());
        }
    };
    // Cross-site request forgery: the token the page gave this browser.
    let token = posted.extra.get(CSRF_FIELD).and_then(|t| Token::parse(t));
    if !token.is_some_and(|t| t.matches(&binding.csrf)) {
        refused!(Csrf, token = token.is_some());
        return refusal(
            StatusCode::FORBIDDEN,
            "Refused",
            "This form can only be sent from its own page. Reload it and try again.",
        );
    }
    let submission = posted.submission;
    if let Err(errors) = check_submission(&record.schema, &record.secrets, &submission) {
        // Shown again, with the errors; the page stays open.
        refused!(InvalidSubmission, errors = errors.errors().len());
        let csrf = binding.csrf.to_string();
        let html = PageForm::new(&record.message, &record.schema)
            .secrets(&secrets)
            .previous(submission.values())
            .errors(errors.errors())
            .hidden(CSRF_FIELD, &csrf)
            .render();
        return match html {
            Ok(html) => page(StatusCode::UNPROCESSABLE_ENTITY, html),
            Err(_) => unavailable(),
        };
    }
    match store.end(&id, End::Answered(submission)).await {
        Ok(true) => {
            note!("page answered");
            notice(StatusCode::OK, Notice::Done)
        }
        // Answered, expired or cancelled meanwhile: the first end counts.
        Ok(false) => {
            refused!(PageUsed);
            notice(StatusCode::GONE, Notice::Used)
        }
        Err(_) => {
            refused!(StoreFailed, step = "end");
            unavailable()
        }
    }
}

/// `GET`: binds the page to this browser on its first visit, refuses any
/// other browser, and shows the form.
async fn show(
    shared: &Arc<Shared>,
    origin: &Origin,
    id: PageId,
    record: &Record,
    cookie: Option<Token>,
) -> PageResponse {
    let (binding, set_cookie) = match record.binding {
        Some(binding) => {
            if !cookie.is_some_and(|c| c.matches(&binding.cookie)) {
                refused!(OtherBrowser, step = "visit", cookie = cookie.is_some());
                return notice(StatusCode::FORBIDDEN, Notice::Refused);
            }
            (binding, false)
        }
        None => {
            let (Ok(cookie), Ok(csrf)) = (Token::random(), Token::random()) else {
                refused!(Internal, step = "random");
                return unavailable();
            };
            match shared.store.bind(&id, Binding { cookie, csrf }).await {
                // Another visit bound it first: that browser's page.
                Ok(Some(bound)) if !bound.cookie.matches(&cookie) => {
                    refused!(OtherBrowser, step = "first visit raced");
                    return notice(StatusCode::FORBIDDEN, Notice::Refused);
                }
                Ok(Some(bound)) => {
                    note!("page bound to its first browser");
                    (bound, true)
                }
                Ok(None) => {
                    refused!(PageUsed);
                    return notice(StatusCode::GONE, Notice::Used);
                }
                Err(_) => {
                    refused!(StoreFailed, step = "bind");
                    return unavailable();
                }
            }
        }
    };
    let secrets: Vec<&str> = record.secrets.iter().map(String::as_str).collect();
    let csrf = binding.csrf.to_string();
    // A page that asks again shows why the last answer was refused.
    let errors: Vec<crate::FieldError> = record
        .errors
        .iter()
        .map(|(field, message)| crate::FieldError::rule(field, message))
        .collect();
    let Ok(html) = PageForm::new(&record.message, &record.schema)
        .secrets(&secrets)
        .errors(&errors)
        .hidden(CSRF_FIELD, &csrf)
        .render()
    else {
        return unavailable();
    };
    let mut response = page(StatusCode::OK, html);
    if set_cookie {
        cookie::set(
            response.headers_mut(),
            &Cookie {
                name: COOKIE,
                value: binding.cookie,
                path: &format!("{}/{id}", shared.config.base_path),
                expires_at: record.expires_at,
                same_site: SameSite::Strict,
                secure: origin.is_secure(),
            },
        );
    }
    response
}

/// Whether the request names exactly the address the pages are served at
/// (`Host`, or the URI's authority for HTTP/2).
fn host_matches(parts: &http::request::Parts, origin: &Origin) -> bool {
    let host = match parts
        .headers
        .get_all(header::HOST)
        .iter()
        .collect::<Vec<_>>()[..]
    {
        [host] => host.to_str().ok(),
        [] => parts.uri.authority().map(http::uri::Authority::as_str),
        _ => None,
    };
    host.is_some_and(|host| host.eq_ignore_ascii_case(origin.authority()))
        && parts
            .uri
            .authority()
            .is_none_or(|a| a.as_str().eq_ignore_ascii_case(origin.authority()))
}

/// The page id in `path`: `<base>/<id>` or `/<id>`.
fn page_id(path: &str, base: &str) -> Option<PageId> {
    let rest = path
        .strip_prefix(base)
        .filter(|rest| rest.starts_with('/'))
        .unwrap_or(path);
    rest.strip_prefix('/')?.parse().ok()
}

/// Whether a post comes from the page itself, as far as the browser says:
/// `Sec-Fetch-Site: same-origin` when it is sent, and an `Origin` that is
/// the page's own when it is sent (`null` is what a browser sends under
/// `Referrer-Policy: no-referrer`, accepted only with `same-origin`). A
/// client that sends neither is no browser: the CSRF token decides.
fn same_origin_post(headers: &HeaderMap, origin: &Origin) -> bool {
    let single = |name| match headers.get_all(name).iter().collect::<Vec<_>>()[..] {
        [] => Ok(None),
        [value] => value.to_str().map(Some).map_err(|_| ()),
        _ => Err(()),
    };
    let (Ok(site), Ok(from)) = (
        single(header::HeaderName::from_static("sec-fetch-site")),
        single(header::ORIGIN),
    ) else {
        return false;
    };
    let site_ok = site.is_none_or(|site| site == "same-origin");
    let origin_ok = match from {
        None => true,
        Some("null") => site == Some("same-origin"),
        Some(from) => from.eq_ignore_ascii_case(origin.as_str()),
    };
    site_ok && origin_ok
}

/// Whether the body is declared `application/x-www-form-urlencoded` (a
/// charset parameter allowed, if it is UTF-8).
fn is_form_urlencoded(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let mut parts = value.split(';').map(str::trim);
    let media = parts.next().unwrap_or_default();
    media.eq_ignore_ascii_case("application/x-www-form-urlencoded")
        && parts.all(|param| {
            param.split_once('=').is_some_and(|(name, value)| {
                name.trim().eq_ignore_ascii_case("charset")
                    && value.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
            })
        })
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

fn too_large() -> PageResponse {
    refused!(BodyTooLarge);
    refusal(
        StatusCode::PAYLOAD_TOO_LARGE,
        "Too large",
        "This form's answer is too large.",
    )
}

/// The response of the flow plugged into the server (OAuth's start page
/// and callback) that serves this request; else the page is gone. Asked
/// only for what is not a pending page, so a page's request costs the
/// flows nothing.
async fn extension_or_gone(
    shared: &Arc<Shared>,
    origin: &Origin,
    parts: &http::request::Parts,
) -> PageResponse {
    for extension in shared.extensions.all() {
        if let Some(response) = extension.route(shared, origin, parts).await {
            return response;
        }
    }
    refused!(PageUnknown);
    notice(StatusCode::NOT_FOUND, Notice::Expired)
}
