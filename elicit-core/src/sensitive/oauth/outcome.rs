//! How an OAuth flow ends: [`OAuthOutcome`], and [`OAuthFailure`].

use super::client::HttpError;
use super::token::OAuthToken;

/// How an OAuth flow ended. No variant holds the authorization code or the
/// PKCE verifier; only [`Authorized`](Self::Authorized) holds a token.
#[derive(Debug)]
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
    /// The outcome as bytes (JSON, the token included, in memory zeroed
    /// when dropped), for a [`FlowStore`](super::FlowStore) that keeps it
    /// outside this process: seal it.
    pub fn to_bytes(&self) -> zeroize::Zeroizing<Vec<u8>> {
        super::wire::outcome_bytes(self)
    }

    /// The outcome [`to_bytes`](Self::to_bytes) wrote, or `None`.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        super::wire::outcome_of(bytes)
    }

    /// The token, if the flow was authorized.
    pub fn authorized(self) -> Option<OAuthToken> {
        match self {
            Self::Authorized(token) => Some(token),
            _ => None,
        }
    }
}

/// [`OAuthFailure::BadAuthorizationResponse`]: a parameter is repeated.
pub(crate) const REPEATED: &str = "a parameter is repeated";
/// [`OAuthFailure::BadAuthorizationResponse`]: no `code`, no `error`.
pub(crate) const NEITHER: &str = "neither `code` nor `error`";
/// [`OAuthFailure::BadAuthorizationResponse`]: the flow lost its verifier.
pub(crate) const NO_VERIFIER: &str = "the flow has no verifier";

/// Why an OAuth flow failed. The texts hold no code, token, verifier or
/// response body.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    BadAuthorizationResponse(&'static str),
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
