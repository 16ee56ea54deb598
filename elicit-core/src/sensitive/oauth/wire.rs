//! A flow and an outcome as bytes, for a store that every replica shares
//! (`FlowRecord::to_bytes`, `OAuthOutcome::to_bytes`): the store seals them, since they hold the PKCE
//! verifier, the client's secret, the `state` and the token. The buffers
//! are zeroed when dropped.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use super::client::HttpError;
use super::outcome::{NEITHER, NO_VERIFIER, OAuthFailure, OAuthOutcome, REPEATED};
use super::provider::Provider;
use super::table::Flow;
use super::token::OAuthToken;
use crate::sensitive::token::Token;

#[derive(Serialize, Deserialize)]
struct ProviderWire<S> {
    authorization_url: String,
    token_url: String,
    client_id: String,
    client_secret: Option<S>,
    secret_in_body: bool,
    scopes: Vec<String>,
    issuer: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct FlowWire<S> {
    provider: ProviderWire<S>,
    authorize_url: String,
    redirect_uri: String,
    state: Token,
    verifier: S,
    user: Option<String>,
    expires_at: u64,
}

/// The flow, to be sealed.
pub(crate) fn flow_bytes(flow: &Flow) -> Zeroizing<Vec<u8>> {
    let p = &flow.provider;
    let wire = FlowWire::<&str> {
        provider: ProviderWire {
            authorization_url: p.authorization_url.clone(),
            token_url: p.token_url.clone(),
            client_id: p.client_id.clone(),
            client_secret: p.client_secret.as_ref().map(|s| s.expose_secret()),
            secret_in_body: p.secret_in_body,
            scopes: p.scopes.clone(),
            issuer: p.issuer.clone(),
        },
        authorize_url: flow.authorize_url.clone(),
        redirect_uri: flow.redirect_uri.clone(),
        state: flow.state,
        verifier: flow.verifier.expose_secret(),
        user: flow.user.clone(),
        expires_at: millis(flow.expires_at),
    };
    let mut buffer = Zeroizing::new(Vec::new());
    serde_json::to_writer(&mut *buffer, &wire).expect("a flow serializes");
    buffer
}

/// The flow `flow_bytes` wrote, or `None`.
pub(crate) fn flow_of(bytes: &[u8]) -> Option<Flow> {
    let wire: FlowWire<String> = serde_json::from_slice(bytes).ok()?;
    let p = wire.provider;
    Some(Flow {
        provider: Provider {
            authorization_url: p.authorization_url,
            token_url: p.token_url,
            client_id: p.client_id,
            client_secret: p.client_secret.map(SecretString::from),
            secret_in_body: p.secret_in_body,
            scopes: p.scopes,
            issuer: p.issuer,
        },
        authorize_url: wire.authorize_url,
        redirect_uri: wire.redirect_uri,
        state: wire.state,
        verifier: SecretString::from(wire.verifier),
        user: wire.user,
        expires_at: at(wire.expires_at),
    })
}

#[derive(Serialize, Deserialize)]
struct TokenWire<S> {
    access_token: S,
    token_type: String,
    refresh_token: Option<S>,
    expires_in: Option<u64>,
    expires_at: Option<u64>,
    scopes: Option<Vec<String>>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "end", rename_all = "snake_case")]
enum OutcomeWire<S> {
    Authorized {
        token: TokenWire<S>,
    },
    Declined,
    Cancelled,
    Denied {
        error: String,
        description: Option<String>,
    },
    Expired,
    Failed {
        failure: FailureWire,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
enum FailureWire {
    OtherBrowser,
    WrongIssuer,
    BadAuthorizationResponse {
        reason: String,
    },
    TokenRefused {
        error: String,
        description: Option<String>,
    },
    BadTokenResponse {
        reason: String,
    },
    TokenRequest {
        error: HttpError,
    },
    Provider {
        reason: String,
    },
}

/// The outcome, to be sealed.
pub(crate) fn outcome_bytes(outcome: &OAuthOutcome) -> Zeroizing<Vec<u8>> {
    let wire: OutcomeWire<&str> = match outcome {
        OAuthOutcome::Authorized(token) => OutcomeWire::Authorized {
            token: TokenWire {
                access_token: token.access_token.expose_secret(),
                token_type: token.token_type.clone(),
                refresh_token: token.refresh_token.as_ref().map(|t| t.expose_secret()),
                expires_in: token
                    .expires_in
                    .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
                expires_at: token.expires_at.map(millis),
                scopes: token.scopes.clone(),
            },
        },
        OAuthOutcome::Declined => OutcomeWire::Declined,
        OAuthOutcome::Cancelled => OutcomeWire::Cancelled,
        OAuthOutcome::Denied { error, description } => OutcomeWire::Denied {
            error: error.clone(),
            description: description.clone(),
        },
        OAuthOutcome::Expired => OutcomeWire::Expired,
        OAuthOutcome::Failed(failure) => OutcomeWire::Failed {
            failure: match failure {
                OAuthFailure::OtherBrowser => FailureWire::OtherBrowser,
                OAuthFailure::WrongIssuer => FailureWire::WrongIssuer,
                OAuthFailure::BadAuthorizationResponse(reason) => {
                    FailureWire::BadAuthorizationResponse {
                        reason: (*reason).to_owned(),
                    }
                }
                OAuthFailure::TokenRefused { error, description } => FailureWire::TokenRefused {
                    error: error.clone(),
                    description: description.clone(),
                },
                OAuthFailure::BadTokenResponse(reason) => FailureWire::BadTokenResponse {
                    reason: reason.clone(),
                },
                OAuthFailure::TokenRequest(error) => FailureWire::TokenRequest {
                    error: error.clone(),
                },
                OAuthFailure::Provider(reason) => FailureWire::Provider {
                    reason: reason.clone(),
                },
            },
        },
    };
    let mut buffer = Zeroizing::new(Vec::new());
    serde_json::to_writer(&mut *buffer, &wire).expect("an outcome serializes");
    buffer
}

/// The outcome `outcome_bytes` wrote, or `None`.
pub(crate) fn outcome_of(bytes: &[u8]) -> Option<OAuthOutcome> {
    let wire: OutcomeWire<String> = serde_json::from_slice(bytes).ok()?;
    Some(match wire {
        OutcomeWire::Authorized { token } => OAuthOutcome::Authorized(OAuthToken {
            access_token: SecretString::from(token.access_token),
            token_type: token.token_type,
            refresh_token: token.refresh_token.map(SecretString::from),
            expires_in: token.expires_in.map(Duration::from_millis),
            expires_at: token.expires_at.map(at),
            scopes: token.scopes,
        }),
        OutcomeWire::Declined => OAuthOutcome::Declined,
        OutcomeWire::Cancelled => OAuthOutcome::Cancelled,
        OutcomeWire::Denied { error, description } => OAuthOutcome::Denied { error, description },
        OutcomeWire::Expired => OAuthOutcome::Expired,
        OutcomeWire::Failed { failure } => OAuthOutcome::Failed(match failure {
            FailureWire::OtherBrowser => OAuthFailure::OtherBrowser,
            FailureWire::WrongIssuer => OAuthFailure::WrongIssuer,
            FailureWire::BadAuthorizationResponse { reason } => {
                OAuthFailure::BadAuthorizationResponse(
                    [REPEATED, NEITHER, NO_VERIFIER]
                        .into_iter()
                        .find(|known| *known == reason)
                        .unwrap_or("malformed"),
                )
            }
            FailureWire::TokenRefused { error, description } => {
                OAuthFailure::TokenRefused { error, description }
            }
            FailureWire::BadTokenResponse { reason } => OAuthFailure::BadTokenResponse(reason),
            FailureWire::TokenRequest { error } => OAuthFailure::TokenRequest(error),
            FailureWire::Provider { reason } => OAuthFailure::Provider(reason),
        }),
    })
}

fn millis(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn at(millis: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(millis)
}
