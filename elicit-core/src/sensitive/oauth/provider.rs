//! [`Provider`]: where the user authorizes, and where the code is
//! exchanged.

use secrecy::SecretString;

use super::http::{HttpClient, HttpError};

/// GitHub's authorization endpoint.
const GITHUB_AUTHORIZE: &str = "https://github.com/login/oauth/authorize";
/// GitHub's token endpoint.
const GITHUB_TOKEN: &str = "https://github.com/login/oauth/access_token";

/// Why a [`Provider`] could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProviderError {
    /// An endpoint or issuer is not an absolute `https` URL (`http` only on
    /// a loopback host) without user info or a fragment.
    BadUrl(String),
    /// The discovery document could not be fetched.
    Fetch(HttpError),
    /// The discovery request got a status other than 200.
    Status(u16),
    /// The discovery document is not an OpenID provider configuration.
    BadDocument(String),
    /// The discovery document names another issuer than the one asked
    /// (OpenID Connect Discovery, section 4.3).
    IssuerMismatch {
        /// The issuer asked for.
        expected: String,
        /// The issuer the document names.
        found: String,
    },
    /// The provider does not support PKCE with `S256`.
    NoPkce,
}

impl std::fmt::Display for ProviderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BadUrl(e) => write!(
                f,
                "`{e}` must be an absolute https URL (http only on a loopback host) with no user info or fragment"
            ),
            Self::Fetch(e) => write!(f, "the discovery document could not be fetched: {e}"),
            Self::Status(e) => write!(f, "the discovery document's request got HTTP {e}"),
            Self::BadDocument(e) => write!(
                f,
                "the discovery document is not a provider configuration: {e}"
            ),
            Self::IssuerMismatch { expected, found } => write!(
                f,
                "the discovery document's issuer is `{found}`, not `{expected}`"
            ),
            Self::NoPkce => f.write_str("the provider does not support PKCE with S256"),
        }
    }
}

impl std::error::Error for ProviderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Fetch(e) => Some(e),
            _ => None,
        }
    }
}

/// An OAuth 2.0 provider: its authorization and token endpoints, the
/// client registered with it, and the scopes to ask for. Build one with
/// [`new`](Self::new), [`github`](Self::github) or
/// [`discover`](Self::discover); `Debug` shows no secret.
///
/// ```
/// use elicit_core::sensitive::oauth::Provider;
///
/// let provider = Provider::new(
///     "https://auth.example.com/authorize",
///     "https://auth.example.com/token",
///     "my-client",
/// )?
/// .scopes(["read", "write"])
/// .issuer("https://auth.example.com");
/// assert!(Provider::new("http://auth.example.com/a", "https://auth.example.com/t", "c").is_err());
/// # Ok::<(), elicit_core::sensitive::oauth::ProviderError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Provider {
    pub(super) authorization_url: String,
    pub(super) token_url: String,
    pub(super) client_id: String,
    pub(super) client_secret: Option<SecretString>,
    pub(super) secret_in_body: bool,
    pub(super) scopes: Vec<String>,
    pub(super) issuer: Option<String>,
}

impl Provider {
    /// A provider with these endpoints, for the public client `client_id`
    /// (add a secret with [`client_secret`](Self::client_secret)).
    ///
    /// # Errors
    ///
    /// [`ProviderError::BadUrl`] if an endpoint is not `https` (or `http`
    /// on a loopback host).
    pub fn new(
        authorization_url: &str,
        token_url: &str,
        client_id: impl Into<String>,
    ) -> Result<Self, ProviderError> {
        Ok(Self {
            authorization_url: checked(authorization_url)?,
            token_url: checked(token_url)?,
            client_id: client_id.into(),
            client_secret: None,
            secret_in_body: false,
            scopes: Vec::new(),
            issuer: None,
        })
    }

    /// GitHub (an OAuth app or a GitHub App): its endpoints, and the
    /// client's id and secret (GitHub asks for the secret even with PKCE).
    /// Add scopes with [`scopes`](Self::scopes) (an OAuth app; a GitHub
    /// App has none). GitHub's redirect URI may carry any port on
    /// `127.0.0.1`: register `http://127.0.0.1/elicit/oauth/callback`.
    pub fn github(client_id: impl Into<String>, client_secret: SecretString) -> Self {
        Self {
            authorization_url: GITHUB_AUTHORIZE.to_owned(),
            token_url: GITHUB_TOKEN.to_owned(),
            client_id: client_id.into(),
            client_secret: Some(client_secret),
            secret_in_body: true,
            scopes: Vec::new(),
            issuer: None,
        }
    }

    /// An OpenID provider, by its discovery document
    /// (`<issuer>/.well-known/openid-configuration`, fetched with the same
    /// client as the token exchange), for the client `client_id`. The
    /// document must name `issuer` exactly and allow PKCE with `S256` (if
    /// it lists methods); if it says the provider sends `iss` in
    /// authorization responses (RFC 9207), they are checked against it.
    /// Add `openid` to the [`scopes`](Self::scopes) for an ID token.
    ///
    /// Runtime-neutral: the request runs on a thread of its own.
    ///
    /// # Errors
    ///
    /// [`ProviderError`]: a bad issuer URL, the document could not be
    /// fetched or read, or it names another issuer.
    pub async fn discover(
        issuer: &str,
        client_id: impl Into<String>,
    ) -> Result<Self, ProviderError> {
        #[derive(serde::Deserialize)]
        struct Document {
            issuer: String,
            authorization_endpoint: String,
            token_endpoint: String,
            #[serde(default)]
            code_challenge_methods_supported: Option<Vec<String>>,
            #[serde(default)]
            authorization_response_iss_parameter_supported: bool,
        }
        checked(issuer)?;
        let url = format!(
            "{}/.well-known/openid-configuration",
            issuer.trim_end_matches('/')
        );
        let request = http::Request::get(&url)
            .header(http::header::ACCEPT, "application/json")
            .body(Vec::new())
            .map_err(|_| ProviderError::BadUrl(issuer.to_owned()))?;
        let response = HttpClient::send(request)
            .await
            .map_err(ProviderError::Fetch)?;
        if response.status() != http::StatusCode::OK {
            return Err(ProviderError::Status(response.status().as_u16()));
        }
        let document: Document = serde_json::from_slice(response.body())
            .map_err(|e| ProviderError::BadDocument(e.to_string()))?;
        if document.issuer != issuer {
            return Err(ProviderError::IssuerMismatch {
                expected: issuer.to_owned(),
                found: document.issuer,
            });
        }
        if document
            .code_challenge_methods_supported
            .is_some_and(|methods| !methods.iter().any(|m| m == "S256"))
        {
            return Err(ProviderError::NoPkce);
        }
        let provider = Self::new(
            &document.authorization_endpoint,
            &document.token_endpoint,
            client_id,
        )?;
        Ok(if document.authorization_response_iss_parameter_supported {
            provider.issuer(issuer)
        } else {
            provider
        })
    }

    /// The client's secret: sent to the token endpoint with HTTP Basic
    /// authentication (GitHub's preset sends it in the body).
    #[must_use]
    pub fn client_secret(mut self, secret: SecretString) -> Self {
        self.client_secret = Some(secret);
        self
    }

    /// Sends the client's id and secret in the token request's body instead
    /// of HTTP Basic authentication.
    #[must_use]
    pub fn secret_in_body(mut self) -> Self {
        self.secret_in_body = true;
        self
    }

    /// The scopes to ask for (replacing any set before).
    #[must_use]
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The provider's issuer: an authorization response must then carry
    /// this exact `iss` (RFC 9207), or the flow fails.
    #[must_use]
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The authorization endpoint.
    pub fn authorization_url(&self) -> &str {
        &self.authorization_url
    }

    /// The token endpoint.
    pub fn token_url(&self) -> &str {
        &self.token_url
    }

    /// The client's id.
    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    /// The issuer authorization responses are checked against, if any.
    pub fn expected_issuer(&self) -> Option<&str> {
        self.issuer.as_deref()
    }
}

/// `url` if it is an absolute `https` URL (`http` on a loopback host)
/// without user info or a fragment.
fn checked(url: &str) -> Result<String, ProviderError> {
    // The agent's own URL check (`https`, or `http` on a loopback host; no
    // user info; a host a browser reads as written), and no fragment.
    if url.contains('#') || crate::protocol::url::check_url(url).is_err() {
        return Err(ProviderError::BadUrl(url.to_owned()));
    }
    Ok(url.to_owned())
}
