//! How an OAuth flow ends: [`OAuthOutcome`], [`OAuthFailure`] and
//! [`MalformedResponse`]; how an outcome is written for a store to seal
//! ([`outcome_serde`]); and [`capped`], how much of a provider's text is
//! kept.

use serde::{Deserialize, Serialize};

use super::http::HttpError;
use super::token::OAuthToken;

/// The most characters of a provider's `error` or `error_description`
/// kept.
const TEXT_LIMIT: usize = 256;

/// At most [`TEXT_LIMIT`] characters of a provider's text.
pub(crate) fn capped(text: &str) -> String {
    text.chars().take(TEXT_LIMIT).collect()
}

/// How an OAuth flow ended. No variant holds the authorization code or the
/// PKCE verifier; only [`Authorized`](Self::Authorized) holds a token.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum OAuthOutcome {
    /// The provider authorized access, and the code was exchanged: the
    /// token.
    Authorized(OAuthToken),
    /// The user declined to open the start page (the client's answer to
    /// the URL request; set by the one-call methods on the SDKs).
    Declined,
    /// The user dismissed the request (the client's answer), the flow was
    /// cancelled, or its pages were closed.
    Cancelled,
    /// The provider refused: its `error` code (`access_denied` when the
    /// user said no) and `error_description`, as it sent them (at most
    /// 256 characters each).
    Denied {
        /// The provider's `error` code.
        error: String,
        /// The provider's `error_description`, if any.
        description: Option<String>,
    },
    /// No authorization response came back before the flow's expiry (or
    /// it came after).
    Expired,
    /// The flow failed: why.
    Failed(OAuthFailure),
}

impl OAuthOutcome {
    /// The token, if the flow was authorized.
    pub fn authorized(self) -> Option<OAuthToken> {
        match self {
            Self::Authorized(token) => Some(token),
            _ => None,
        }
    }
}

/// What is wrong with an authorization response that is neither a code
/// nor an error the provider sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum MalformedResponse {
    /// A parameter is repeated.
    RepeatedParameter,
    /// It has neither a `code` nor an `error`.
    NeitherCodeNorError,
}

impl std::fmt::Display for MalformedResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::RepeatedParameter => "a parameter is repeated",
            Self::NeitherCodeNorError => "neither `code` nor `error`",
        })
    }
}

/// Why an OAuth flow failed. The texts hold no code, token, verifier or
/// response body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", content = "detail", rename_all = "snake_case")]
#[non_exhaustive]
pub enum OAuthFailure {
    /// The authorization response came back to a browser that did not
    /// start this flow (its binding cookie is missing or another flow's),
    /// or for another user: the flow is ended, nothing was exchanged.
    OtherBrowser,
    /// The authorization response's `iss` is missing or not the provider's
    /// issuer (RFC 9207: a mix-up attack, or a misconfigured provider).
    WrongIssuer,
    /// The authorization response has neither a `code` nor an `error`, or
    /// repeats a parameter.
    BadAuthorizationResponse(MalformedResponse),
    /// The token endpoint refused the code: its `error` code and
    /// `error_description` (an error sent with HTTP 200, as GitHub does,
    /// counts too).
    TokenRefused {
        /// The endpoint's `error` code.
        error: String,
        /// Its `error_description`, if any.
        description: Option<String>,
    },
    /// The token endpoint's reply is not a token response (not JSON, or
    /// JSON of another shape): where it went wrong, never what it held.
    BadTokenResponse(String),
    /// The token endpoint could not be reached, or answered a redirect, a
    /// server error, too much or too late.
    TokenRequest(HttpError),
    /// The provider's endpoints could not be used (a bad URL).
    Provider(String),
}

impl std::fmt::Display for OAuthFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OtherBrowser => f.write_str(
                "the authorization response came back to another browser or user than the one that \
         started the flow",
            ),
            Self::WrongIssuer => {
                f.write_str("the authorization response's `iss` is not the provider's issuer")
            }
            Self::BadAuthorizationResponse(e) => {
                write!(f, "the authorization response is malformed: {e}")
            }
            Self::TokenRefused { error, description } => write!(
                f,
                "the token endpoint refused the code: {error}{}",
                description
                    .as_ref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            ),
            Self::BadTokenResponse(e) => {
                write!(f, "the token endpoint's reply is not a token response: {e}")
            }
            Self::TokenRequest(e) => write!(f, "the token request failed: {e}"),
            Self::Provider(e) => write!(f, "the provider is misconfigured: {e}"),
        }
    }
}

impl std::error::Error for OAuthFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::TokenRequest(e) => Some(e),
            _ => None,
        }
    }
}

/// An outcome written in clear, token included, for the bytes a store
/// seals (`#[serde(with = "outcome_serde")]`): serde's remote definitions
/// of [`OAuthOutcome`] and [`OAuthToken`], so that neither implements
/// `Serialize` for anyone else.
pub(crate) mod outcome_serde {
    use std::time::{Duration, SystemTime};

    use secrecy::SecretString;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{OAuthFailure, OAuthOutcome, OAuthToken};
    use crate::sensitive::oauth::exposed;

    pub(crate) fn serialize<S: Serializer>(
        outcome: &OAuthOutcome,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        OutcomeDef::serialize(outcome, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OAuthOutcome, D::Error> {
        OutcomeDef::deserialize(d)
    }

    #[derive(Serialize, Deserialize)]
    #[serde(remote = "OAuthOutcome", tag = "outcome", rename_all = "snake_case")]
    enum OutcomeDef {
        Authorized(#[serde(with = "TokenDef")] OAuthToken),
        Declined,
        Cancelled,
        Denied {
            error: String,
            description: Option<String>,
        },
        Expired,
        Failed(OAuthFailure),
    }

    #[derive(Serialize, Deserialize)]
    #[serde(remote = "OAuthToken")]
    struct TokenDef {
        #[serde(with = "exposed")]
        access_token: SecretString,
        token_type: String,
        #[serde(with = "exposed::option")]
        refresh_token: Option<SecretString>,
        expires_in: Option<Duration>,
        expires_at: Option<SystemTime>,
        scopes: Option<Vec<String>>,
    }
}
