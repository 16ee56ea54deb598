//! The page server's OAuth routes: the start page (`<base>/<id>`, a
//! redirect to the provider, reached through the record's own route) and
//! the callback (`<base>/oauth/callback`, where the authorization response
//! arrives and the code is exchanged). The checks they share with a page
//! (host, state and expiry, user, first-visit binding) are the service's.

use std::sync::Arc;

use bytes::Bytes;
use http::StatusCode;
use http::header::{self, HeaderValue};
use http_body_util::Full;

use super::authorize::{AuthState, AuthorizationResponse, Grant};
use super::end::{OAuthFailure, OAuthOutcome};
use super::exchange::{read_token_response, token_request};
use super::flow::Flow;
use super::http::HttpClient;
use crate::fingerprint::Fingerprint;
use crate::sensitive::cookie::SameSite;
use crate::sensitive::html::Notice;
use crate::sensitive::origin::Origin;
use crate::sensitive::response::{PageResponse, notice, refusal, secure_headers, unavailable};
use crate::sensitive::service::checks::{
    CookieRule, bound_browser, set_cookie, user_matches, visiting_browser,
};
use crate::sensitive::shared::Shared;
use crate::sensitive::store::{Answer, End, Kind, Record, State};
use crate::sensitive::token::PageId;

/// How a flow's binding cookie is written: one name per flow, so that two
/// flows in one browser do not overwrite each other's; `SameSite=Lax`, as
/// the provider sends the browser back from another site.
fn cookie_rule(shared: &Shared, id: PageId) -> CookieRule {
    let base = &shared.config.base_path;
    CookieRule {
        name: format!("elicit_oauth_{id}"),
        path: if base.is_empty() {
            "/".to_owned()
        } else {
            base.clone()
        },
        same_site: SameSite::Lax,
    }
}

/// The start page of flow `id`, its record found waiting for this user:
/// binds the flow to this browser on the first visit (refuses any other
/// browser), and sends it to the provider.
pub(crate) async fn start(
    shared: &Arc<Shared>,
    origin: &Origin,
    id: PageId,
    record: &Record,
    parts: &http::request::Parts,
) -> PageResponse {
    note!("oauth start page");
    let Kind::OAuth(flow) = &record.kind else {
        return unavailable();
    };
    let rule = cookie_rule(shared, id);
    let (binding, set) = match visiting_browser(shared, id, record, parts, &rule).await {
        Ok(visit) => visit,
        Err(response) => return response,
    };
    let Ok(location) = HeaderValue::from_str(&flow.authorize_url) else {
        refused!(Internal, step = "authorize url");
        return unavailable();
    };
    let mut response = http::Response::new(Full::new(Bytes::new()));
    *response.status_mut() = StatusCode::SEE_OTHER;
    secure_headers(response.headers_mut());
    response.headers_mut().insert(header::LOCATION, location);
    if set {
        set_cookie(&mut response, &rule, &binding, record, origin);
    }
    response
}

/// What the callback found for the `state` it was given.
enum Lookup {
    /// No flow has this state: nothing happens.
    Unknown,
    /// The flow ended already (its state used, or expired).
    Ended(State),
    /// The store failed (why): nothing changed, the callback may come
    /// again.
    Failed(&'static str),
    /// The flow, now taken: whether the callback came from the browser
    /// (and user) that started it, and the flow.
    Taken { bound: bool, flow: Box<Flow> },
}

/// The callback: finds the flow by `state` (used once), checks that the
/// browser (and user) that started it is the one that came back, the
/// issuer, then ends the flow with the provider's error or the exchanged
/// token.
pub(crate) async fn callback(shared: &Arc<Shared>, parts: &http::request::Parts) -> PageResponse {
    let response = AuthorizationResponse::read(parts.uri.query().unwrap_or(""));
    let found = match response.state {
        None => Lookup::Unknown,
        Some(state) => take(shared, parts, state).await,
    };
    let (id, bound, flow) = match (found, response.state) {
        (Lookup::Taken { bound, flow }, Some(state)) => (state.id, bound, flow),
        (Lookup::Unknown | Lookup::Taken { .. }, _) => {
            refused!(OAuthState, state = response.has_state);
            return refusal(
                StatusCode::BAD_REQUEST,
                "Unknown sign-in",
                "This sign-in was not started here, or was already used. Return to your client.",
            );
        }
        (Lookup::Failed(cause), _) => {
            refused!(StoreFailed, step = "oauth callback", cause = cause);
            return unavailable();
        }
        (Lookup::Ended(State::Expired), _) => {
            refused!(PageExpired);
            return notice(StatusCode::GONE, Notice::Expired);
        }
        (Lookup::Ended(_), _) => {
            refused!(PageUsed);
            return notice(StatusCode::GONE, Notice::Used);
        }
    };
    record!(page = Fingerprint(id));
    let (status, outcome) = finish(bound, &flow, response).await;
    let page = match &outcome {
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
    // The flow ends with this outcome, for its waiter on whichever replica
    // opened it. If that did not count, the page says so: the agent never
    // gets an outcome the page reported as failed (the flow, its `state`
    // used, ends at its keys' expiry).
    let end = End::Answered(Answer::OAuth(outcome));
    match shared.store.end(&id, end).await {
        Ok(_) => page,
        Err(error) => {
            refused!(StoreFailed, step = "oauth end", cause = error.cause());
            refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                "Sign-in not saved",
                "The sign-in could not be saved. Return to your client and start again.",
            )
        }
    }
}

/// Finds the flow whose state is `state` and takes it: from now on it
/// ends with this callback's outcome, whatever it is. A wrong `state`
/// changes nothing.
async fn take(shared: &Shared, parts: &http::request::Parts, state: AuthState) -> Lookup {
    let store = &shared.store;
    let id = state.id;
    let record = match store.get(&id).await {
        Ok(Some(record)) => record,
        Ok(None) => return Lookup::Unknown,
        Err(error) => return Lookup::Failed(error.cause()),
    };
    let Kind::OAuth(flow) = &record.kind else {
        return Lookup::Unknown;
    };
    if !flow.state.matches(&state.secret) {
        return Lookup::Unknown;
    }
    match store.take(&id).await {
        Ok(Some(State::Open)) => {}
        Ok(Some(ended)) => return Lookup::Ended(ended),
        Ok(None) => return Lookup::Unknown,
        Err(error) => return Lookup::Failed(error.cause()),
    }
    let bound = bound_browser(&record, parts, &cookie_rule(shared, id).name)
        && user_matches(shared, &record, parts);
    let Kind::OAuth(flow) = record.kind else {
        return Lookup::Unknown;
    };
    Lookup::Taken {
        bound,
        flow: Box::new(flow),
    }
}

/// The outcome of a taken flow's authorization response, and the status
/// of the page that says so.
async fn finish(
    bound: bool,
    flow: &Flow,
    response: AuthorizationResponse,
) -> (StatusCode, OAuthOutcome) {
    let failed = |status, failure| (status, OAuthOutcome::Failed(failure));
    if !bound {
        refused!(OtherBrowser, step = "oauth callback");
        return failed(StatusCode::FORBIDDEN, OAuthFailure::OtherBrowser);
    }
    let grant = match response.answer {
        Err(malformed @ super::end::MalformedResponse::RepeatedParameter) => {
            refused!(OAuthBadResponse, problem = "repeated parameter");
            return failed(
                StatusCode::BAD_REQUEST,
                OAuthFailure::BadAuthorizationResponse(malformed),
            );
        }
        grant => grant,
    };
    if let Some(issuer) = flow.provider.expected_issuer()
        && response.iss.as_deref() != Some(issuer)
    {
        refused!(OAuthIssuer, iss = response.iss.is_some());
        return failed(StatusCode::BAD_REQUEST, OAuthFailure::WrongIssuer);
    }
    let code = match grant {
        Ok(Grant::Denied { error, description }) => {
            refused!(OAuthDenied);
            return (StatusCode::OK, OAuthOutcome::Denied { error, description });
        }
        Ok(Grant::Code(code)) => code,
        Err(malformed) => {
            refused!(OAuthBadResponse, problem = "neither code nor error");
            return failed(
                StatusCode::BAD_REQUEST,
                OAuthFailure::BadAuthorizationResponse(malformed),
            );
        }
    };
    let request = match token_request(&flow.provider, &flow.redirect_uri, &code, &flow.verifier) {
        Ok(request) => request,
        Err(reason) => {
            refused!(OAuthExchangeFailed, step = "token request");
            return failed(StatusCode::BAD_GATEWAY, OAuthFailure::Provider(reason));
        }
    };
    note!("oauth token request sent");
    let result = match HttpClient::send(request).await {
        Ok(response) => read_token_response(&response),
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
