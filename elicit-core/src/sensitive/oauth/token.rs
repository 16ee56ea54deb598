//! [`OAuthToken`]: what an authorized flow returns.

use std::fmt;
use std::time::{Duration, SystemTime};

use secrecy::SecretString;

/// The token an authorized flow returns: the access token and what the
/// provider said about it. `Debug` shows no token.
#[derive(Clone)]
pub struct OAuthToken {
    pub(super) access_token: SecretString,
    pub(super) token_type: String,
    pub(super) refresh_token: Option<SecretString>,
    pub(super) expires_in: Option<Duration>,
    pub(super) expires_at: Option<SystemTime>,
    pub(super) scopes: Option<Vec<String>>,
}

impl OAuthToken {
    /// The token from the token endpoint's response, received now (its
    /// [`expires_at`](Self::expires_at) counts from here).
    pub(crate) fn received(
        access_token: SecretString,
        token_type: String,
        refresh_token: Option<SecretString>,
        expires_in: Option<u64>,
        scopes: Option<Vec<String>>,
    ) -> Self {
        let received = SystemTime::now();
        let expires_in = expires_in.map(Duration::from_secs);
        Self {
            access_token,
            token_type,
            refresh_token,
            expires_in,
            expires_at: expires_in.and_then(|d| received.checked_add(d)),
            scopes,
        }
    }

    /// The access token (`expose_secret()` to read it).
    pub fn access_token(&self) -> &SecretString {
        &self.access_token
    }

    /// The token's type, lowercase (`bearer`).
    pub fn token_type(&self) -> &str {
        &self.token_type
    }

    /// The refresh token, if the provider gave one.
    pub fn refresh_token(&self) -> Option<&SecretString> {
        self.refresh_token.as_ref()
    }

    /// How long the access token lives, if the provider said.
    pub fn expires_in(&self) -> Option<Duration> {
        self.expires_in
    }

    /// When the access token expires: when the response was received plus
    /// [`expires_in`](Self::expires_in).
    pub fn expires_at(&self) -> Option<SystemTime> {
        self.expires_at
    }

    /// The scopes granted, as the provider listed them (space-separated in
    /// the response). `None` when the response had no `scope`: then the
    /// scopes asked for were granted (RFC 6749, section 5.1). GitHub
    /// separates them with commas: that is one item here.
    pub fn scopes(&self) -> Option<&[String]> {
        self.scopes.as_deref()
    }
}

/// Shows everything but the tokens.
impl fmt::Debug for OAuthToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthToken")
            .field("access_token", &"[REDACTED]")
            .field("token_type", &self.token_type)
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "[REDACTED]"),
            )
            .field("expires_in", &self.expires_in)
            .field("scopes", &self.scopes)
            .finish()
    }
}
