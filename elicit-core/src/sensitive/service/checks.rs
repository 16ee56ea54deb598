//! The checks every record's route shares, a page's and an OAuth flow's
//! alike, each written once: the request's host, a post's origin and
//! content type, the record's state and expiry, its user, and the browser
//! its first visit binds.

use std::sync::Arc;
use std::time::SystemTime;

use http::StatusCode;
use http::header::{self, HeaderMap};

use crate::sensitive::cookie::{self, Cookie, SameSite};
use crate::sensitive::html::Notice;
use crate::sensitive::origin::Origin;
use crate::sensitive::response::{PageResponse, notice, unavailable};
use crate::sensitive::shared::Shared;
use crate::sensitive::store::{Binding, End, Record, State};
use crate::sensitive::token::PageId;

/// Whether the request names exactly the address the pages are served at
/// (`Host`, or the URI's authority for HTTP/2): DNS rebinding points
/// another site's hostname at this address.
pub(crate) fn host_matches(parts: &http::request::Parts, origin: &Origin) -> bool {
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

/// Whether a post comes from the page itself, as far as the browser says:
/// `Sec-Fetch-Site: same-origin` when it is sent, and an `Origin` that is
/// the page's own when it is sent (`null` is what a browser sends under
/// `Referrer-Policy: no-referrer`, accepted only with `same-origin`). A
/// client that sends neither is no browser: the CSRF token decides.
pub(crate) fn same_origin_post(headers: &HeaderMap, origin: &Origin) -> bool {
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
pub(crate) fn is_form_urlencoded(headers: &HeaderMap) -> bool {
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

/// Whether the request carries the user `record` was opened for (always,
/// if it was opened for none).
#[cfg_attr(not(feature = "oauth"), allow(dead_code))]
pub(crate) fn user_matches(shared: &Shared, record: &Record, parts: &http::request::Parts) -> bool {
    user_check(shared, record, parts).is_ok()
}

/// [`user_matches`], or whether the request carried a verified user at all.
fn user_check(shared: &Shared, record: &Record, parts: &http::request::Parts) -> Result<(), bool> {
    let Some(user) = &record.user else {
        return Ok(());
    };
    let verified = shared
        .config
        .verifier
        .as_ref()
        .and_then(|verifier| verifier.user(parts));
    match verified {
        Some(verified) if verified.as_str() == user => Ok(()),
        verified => Err(verified.is_some()),
    }
}

/// The record `id` a request may be served: found, still waiting for its
/// answer (one open past its expiry is ended as expired here), and for the
/// user the request carries. Else the response that says why.
pub(crate) async fn waiting_record(
    shared: &Shared,
    id: PageId,
    parts: &http::request::Parts,
) -> Result<Record, PageResponse> {
    let store = &shared.store;
    let record = match store.get(&id).await {
        Ok(Some(record)) => record,
        Ok(None) => {
            refused!(PageUnknown);
            return Err(notice(StatusCode::NOT_FOUND, Notice::Expired));
        }
        Err(error) => {
            refused!(StoreFailed, step = "get", cause = error.cause());
            return Err(unavailable());
        }
    };
    match record.state {
        State::Open if SystemTime::now() >= record.expires_at => {
            refused!(PageExpired);
            let _ = store.end(&id, End::Expired).await;
            return Err(notice(StatusCode::GONE, Notice::Expired));
        }
        State::Open => {}
        State::Expired => {
            refused!(PageExpired);
            return Err(notice(StatusCode::GONE, Notice::Expired));
        }
        State::Taken | State::Answered | State::Cancelled => {
            refused!(PageUsed);
            return Err(notice(StatusCode::GONE, Notice::Used));
        }
    }
    // The user the record was opened for, and no one else (hosted pages).
    if let Err(verified) = user_check(shared, &record, parts) {
        refused!(WrongUser, verified = verified);
        return Err(notice(StatusCode::FORBIDDEN, Notice::Refused));
    }
    Ok(record)
}

/// How a record's binding cookie is written: a page's is `SameSite=Strict`
/// on the page's own path; an OAuth flow's `SameSite=Lax` (the provider
/// sends the browser back from another site), one name per flow.
pub(crate) struct CookieRule {
    pub(crate) name: String,
    pub(crate) path: String,
    pub(crate) same_site: SameSite,
}

/// The browser of a visit to record `id`: the first visit binds the record
/// to it (a cookie to set), any other browser is refused. The binding in
/// force, and whether this visit set it.
pub(crate) async fn visiting_browser(
    shared: &Arc<Shared>,
    id: PageId,
    record: &Record,
    parts: &http::request::Parts,
    rule: &CookieRule,
) -> Result<(Binding, bool), PageResponse> {
    let presented = cookie::read(&parts.headers, &rule.name);
    if let Some(binding) = record.binding {
        if !presented.is_some_and(|c| c.matches(&binding.cookie)) {
            refused!(OtherBrowser, step = "visit", cookie = presented.is_some());
            return Err(notice(StatusCode::FORBIDDEN, Notice::Refused));
        }
        return Ok((binding, false));
    }
    let Ok(fresh) = Binding::random() else {
        refused!(Internal, step = "random");
        return Err(unavailable());
    };
    match shared.store.bind(&id, fresh).await {
        // Another visit bound it first: that browser's.
        Ok(Some(bound)) if !bound.cookie.matches(&fresh.cookie) => {
            refused!(OtherBrowser, step = "first visit raced");
            Err(notice(StatusCode::FORBIDDEN, Notice::Refused))
        }
        Ok(Some(bound)) => {
            note!("bound to its first browser");
            Ok((bound, true))
        }
        Ok(None) => {
            refused!(PageUsed);
            Err(notice(StatusCode::GONE, Notice::Used))
        }
        Err(error) => {
            refused!(StoreFailed, step = "bind", cause = error.cause());
            Err(unavailable())
        }
    }
}

/// Sets `binding`'s cookie on `response`, as `rule` writes it.
pub(crate) fn set_cookie(
    response: &mut PageResponse,
    rule: &CookieRule,
    binding: &Binding,
    record: &Record,
    origin: &Origin,
) {
    cookie::set(
        response.headers_mut(),
        &Cookie {
            name: &rule.name,
            value: binding.cookie,
            path: &rule.path,
            expires_at: record.expires_at,
            same_site: rule.same_site,
            secure: origin.is_secure(),
        },
    );
}

/// Whether the browser presents `record`'s binding cookie under `name`.
#[cfg_attr(not(feature = "oauth"), allow(dead_code))]
pub(crate) fn bound_browser(record: &Record, parts: &http::request::Parts, name: &str) -> bool {
    match (record.binding, cookie::read(&parts.headers, name)) {
        (Some(binding), Some(presented)) => binding.cookie.matches(&presented),
        _ => false,
    }
}
