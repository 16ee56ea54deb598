//! The page server's OAuth routes: the start page (`<base>/<id>`, a
//! redirect to the provider) and the callback (`<base>/oauth/callback`,
//! where the authorization response arrives and the code is exchanged).

use std::sync::Arc;

use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::{Method, StatusCode};
use http_body_util::Full;

use super::client::HttpClient;
use super::outcome::{NEITHER, NO_VERIFIER, OAuthFailure, OAuthOutcome, REPEATED};
use super::table::{CALLBACK, DynFlowStore, Flow, FlowCookie, FlowPhase, FlowState, StoredFlow};
use crate::fingerprint::Fingerprint;
use crate::sensitive::cookie::{self, Cookie, SameSite};
use crate::sensitive::origin::Origin;
use crate::sensitive::page::Notice;
use crate::sensitive::response::{PageResponse, notice, refusal, secure_headers, unavailable};
use crate::sensitive::shared::Shared;
use crate::sensitive::token::{PageId, Token};

/// The most characters of a provider's `error` or `error_description`
/// kept.
const TEXT_LIMIT: usize = 256;

/// The response to an OAuth route, or `None` if the request is for
/// another page.
pub(crate) async fn route(
    table: &dyn DynFlowStore,
    shared: &Arc<Shared>,
    origin: &Origin,
    parts: &http::request::Parts,
) -> Option<PageResponse> {
    let path = parts.uri.path();
    let base = &shared.config.base_path;
    let rest = path
        .strip_prefix(base.as_str())
        .filter(|rest| rest.starts_with('/'))
        .unwrap_or(path);
    if rest == CALLBACK {
        if parts.method != Method::GET {
            return Some(not_allowed());
        }
        return Some(callback(table, shared, parts).await);
    }
    let id: PageId = rest.strip_prefix('/')?.parse().ok()?;
    let found = match table.get(&id).await {
        Ok(found) => found?,
        Err(_) => {
            refused!(StoreFailed, step = "oauth get");
            return Some(unavailable());
        }
    };
    if parts.method != Method::GET {
        return Some(not_allowed());
    }
    Some(start(table, shared, origin, id, found, parts).await)
}

/// The start page: binds the flow to this browser on the first visit
/// (refuses any other browser), and sends it to the provider.
async fn start(
    table: &dyn DynFlowStore,
    shared: &Arc<Shared>,
    origin: &Origin,
    id: PageId,
    found: StoredFlow,
    parts: &http::request::Parts,
) -> PageResponse {
    note!("oauth start page");
    match found.phase {
        FlowPhase::Open => {}
        FlowPhase::Expired => {
            refused!(PageExpired);
            return notice(StatusCode::GONE, Notice::Expired);
        }
        FlowPhase::Used => {
            refused!(PageUsed);
            return notice(StatusCode::GONE, Notice::Used);
        }
    }
    let flow = &found.record.0;
    if !user_matches(shared, flow, parts) {
        refused!(WrongUser, step = "oauth start");
        return notice(StatusCode::FORBIDDEN, Notice::Refused);
    }
    let presented = cookie::read(&parts.headers, &cookie_name(id));
    let set_cookie = match found.cookie.map(|FlowCookie(bound)| bound) {
        Some(bound) => {
            if !presented.is_some_and(|c| c.matches(&bound)) {
                refused!(
                    OtherBrowser,
                    step = "oauth start",
                    cookie = presented.is_some()
                );
                return notice(StatusCode::FORBIDDEN, Notice::Refused);
            }
            None
        }
        None => {
            let Ok(cookie) = Token::random() else {
                refused!(Internal, step = "random");
                return unavailable();
            };
            match table.bind(&id, FlowCookie(cookie)).await {
                // This visit bound it.
                Ok(Some(FlowCookie(bound))) if bound.matches(&cookie) => Some(cookie),
                // Another visit bound it first: it is that browser's.
                Ok(Some(_)) => {
                    refused!(OtherBrowser, step = "oauth first visit raced");
                    return notice(StatusCode::FORBIDDEN, Notice::Refused);
                }
                Ok(None) => {
                    refused!(PageExpired);
                    return notice(StatusCode::GONE, Notice::Expired);
                }
                Err(_) => {
                    refused!(StoreFailed, step = "oauth bind");
                    return unavailable();
                }
            }
        }
    };
    let Ok(location) = HeaderValue::from_str(&flow.authorize_url) else {
        refused!(Internal, step = "authorize url");
        return unavailable();
    };
    let mut response = http::Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::SEE_OTHER;
    secure_headers(response.headers_mut());
    response.headers_mut().insert(header::LOCATION, location);
    if let Some(value) = set_cookie {
        let base = &shared.config.base_path;
        cookie::set(
            response.headers_mut(),
            &Cookie {
                name: &cookie_name(id),
                value,
                path: if base.is_empty() { "/" } else { base.as_str() },
                expires_at: flow.expires_at,
                same_site: SameSite::Lax,
                secure: origin.is_secure(),
            },
        );
    }
    response
}

/// The authorization response's parameters.
#[derive(Default)]
struct Params {
    state: Option<String>,
    code: Option<String>,
    error: Option<String>,
    description: Option<String>,
    iss: Option<String>,
    repeated: bool,
}

impl Params {
    fn read(query: &str) -> Self {
        let mut params = Self::default();
        for (name, value) in super::exchange::form_pairs(query) {
            let slot = match name.as_str() {
                "state" => &mut params.state,
                "code" => &mut params.code,
                "error" => &mut params.error,
                "error_description" => &mut params.description,
                "iss" => &mut params.iss,
                _ => continue,
            };
            if slot.is_some() {
                params.repeated = true;
            }
            *slot = Some(value);
        }
        params
    }
}

/// What the callback found for the `state` it was given.
enum Lookup {
    /// No flow has this state: nothing happens.
    Unknown,
    /// The flow ended already (its state used, or expired).
    Ended(FlowPhase),
    /// The flow's table failed: nothing changed.
    Failed,
    /// The flow, now used: its parts needed to finish it.
    Taken(PageId, Box<Taken>),
}

/// A used flow: what its callback needs to end it.
struct Taken {
    /// Whether the callback came from the browser (and user) that started
    /// the flow.
    bound: bool,
    provider: super::provider::Provider,
    redirect_uri: String,
    verifier: Option<secrecy::SecretString>,
}

/// The callback: finds the flow by `state` (used once), checks that the
/// browser (and user) that started it is the one that came back, the
/// issuer, then ends the flow with the provider's error or the exchanged
/// token.
async fn callback(
    table: &dyn DynFlowStore,
    shared: &Arc<Shared>,
    parts: &http::request::Parts,
) -> PageResponse {
    let params = Params::read(parts.uri.query().unwrap_or(""));
    let state = params.state.as_deref().and_then(FlowState::read);
    let found = match state {
        None => Lookup::Unknown,
        Some((id, state)) => take(table, shared, parts, id, state).await,
    };
    let (id, mut taken) = match found {
        Lookup::Unknown => {
            refused!(OAuthState, state = params.state.is_some());
            return refusal(
                StatusCode::BAD_REQUEST,
                "Unknown sign-in",
                "This sign-in was not started here, or was already used. Return to your client.",
            );
        }
        Lookup::Failed => {
            refused!(StoreFailed, step = "oauth callback");
            return unavailable();
        }
        Lookup::Ended(FlowPhase::Expired) => {
            refused!(PageExpired);
            return notice(StatusCode::GONE, Notice::Expired);
        }
        Lookup::Ended(_) => {
            refused!(PageUsed);
            return notice(StatusCode::GONE, Notice::Used);
        }
        Lookup::Taken(id, taken) => (id, taken),
    };
    record!(page = Fingerprint(id));
    let (status, outcome) = finish(&mut taken, params).await;
    let response = match &outcome {
        OAuthOutcome::Authorized(_) => notice(StatusCode::OK, Notice::Done),
        OAuthOutcome::Denied { .. } => refusal(
            StatusCode::OK,
            "Not authorized",
            "The provider did not authorize access. Return to your client.",
        ),
        _ if status == StatusCode::FORBIDDEN => notice(status, Notice::Refused),
        _ => refusal(
            status,
            "Sign-in failed",
            "The sign-in could not be completed. Return to your client.",
        ),
    };
    // The flow ends with this outcome, for its waiter on whichever
    // replica opened it. If the table failed, it ends at its expiry.
    let _ = table.end(&id, outcome, false).await;
    response
}

/// Finds the flow `id` whose state is `state` and uses it: from now on it
/// ends with this callback's outcome, whatever it is. A wrong `state`
/// changes nothing.
async fn take(
    table: &dyn DynFlowStore,
    shared: &Arc<Shared>,
    parts: &http::request::Parts,
    id: PageId,
    state: Token,
) -> Lookup {
    let found = match table.get(&id).await {
        Ok(Some(found)) if found.record.0.state.matches(&state) => found,
        Ok(_) => return Lookup::Unknown,
        Err(_) => return Lookup::Failed,
    };
    match table.use_state(&id).await {
        Ok(Some(FlowPhase::Open)) => {}
        Ok(Some(ended)) => return Lookup::Ended(ended),
        Ok(None) => return Lookup::Unknown,
        Err(_) => return Lookup::Failed,
    }
    let cookie_ok = match (found.cookie, cookie::read(&parts.headers, &cookie_name(id))) {
        (Some(FlowCookie(bound)), Some(presented)) => bound.matches(&presented),
        _ => false,
    };
    let bound = cookie_ok && user_matches(shared, &found.record.0, parts);
    let flow = found.record.0;
    Lookup::Taken(
        id,
        Box::new(Taken {
            bound,
            provider: flow.provider,
            redirect_uri: flow.redirect_uri,
            verifier: Some(flow.verifier),
        }),
    )
}

/// The outcome of a used flow's authorization response, and the status of
/// the page that says so.
async fn finish(taken: &mut Taken, params: Params) -> (StatusCode, OAuthOutcome) {
    let failed = |status, failure| (status, OAuthOutcome::Failed(failure));
    if !taken.bound {
        refused!(OtherBrowser, step = "oauth callback");
        return failed(StatusCode::FORBIDDEN, OAuthFailure::OtherBrowser);
    }
    if params.repeated {
        refused!(OAuthBadResponse, problem = "repeated parameter");
        return failed(
            StatusCode::BAD_REQUEST,
            OAuthFailure::BadAuthorizationResponse(REPEATED),
        );
    }
    if let Some(issuer) = taken.provider.expected_issuer()
        && params.iss.as_deref() != Some(issuer)
    {
        refused!(OAuthIssuer, iss = params.iss.is_some());
        return failed(StatusCode::BAD_REQUEST, OAuthFailure::WrongIssuer);
    }
    if let Some(error) = params.error {
        refused!(OAuthDenied);
        return (
            StatusCode::OK,
            OAuthOutcome::Denied {
                error: capped(&error),
                description: params.description.as_deref().map(capped),
            },
        );
    }
    let Some(code) = params.code else {
        refused!(OAuthBadResponse, problem = "neither code nor error");
        return failed(
            StatusCode::BAD_REQUEST,
            OAuthFailure::BadAuthorizationResponse(NEITHER),
        );
    };
    let Some(verifier) = taken.verifier.take() else {
        refused!(Internal, step = "no verifier");
        return failed(
            StatusCode::BAD_GATEWAY,
            OAuthFailure::BadAuthorizationResponse(NO_VERIFIER),
        );
    };
    let request = match super::exchange::token_request(
        &taken.provider,
        &taken.redirect_uri,
        &code,
        &verifier,
    ) {
        Ok(request) => request,
        Err(reason) => {
            refused!(OAuthExchangeFailed, step = "token request");
            return failed(StatusCode::BAD_GATEWAY, OAuthFailure::Provider(reason));
        }
    };
    note!("oauth token request sent");
    let result = match HttpClient::send(request).await {
        Ok(response) => super::exchange::read_token_response(&response),
        Err(error) => Err(OAuthFailure::TokenRequest(error)),
    };
    match result {
        Ok(token) => {
            note!("oauth token received");
            (StatusCode::OK, OAuthOutcome::Authorized(token))
        }
        Err(failure) => {
            refused!(OAuthExchangeFailed, step = "token response");
            failed(StatusCode::BAD_GATEWAY, failure)
        }
    }
}

/// Whether the request carries the user the flow was opened for (always,
/// if it was opened for none).
fn user_matches(shared: &Shared, flow: &Flow, parts: &http::request::Parts) -> bool {
    let Some(user) = &flow.user else {
        return true;
    };
    let verified = shared
        .config
        .verifier
        .as_ref()
        .and_then(|verifier| verifier.user(parts));
    verified.as_ref().map(|v| v.as_str()) == Some(user.as_str())
}

/// The name of flow `id`'s binding cookie: one per flow, so that two flows
/// in one browser do not overwrite each other's.
fn cookie_name(id: PageId) -> String {
    format!("elicit_oauth_{id}")
}

/// At most [`TEXT_LIMIT`] characters of a provider's text.
pub(super) fn capped(text: &str) -> String {
    text.chars().take(TEXT_LIMIT).collect()
}

fn not_allowed() -> PageResponse {
    refused!(BadRequest, problem = "method");
    let mut response = refusal(
        StatusCode::METHOD_NOT_ALLOWED,
        "Not allowed",
        "This page is only visited.",
    );
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET"));
    response
}
