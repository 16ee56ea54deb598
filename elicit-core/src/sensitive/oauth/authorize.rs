//! The front channel of the authorization code flow: the authorization
//! URL the start page redirects to (the provider's, with
//! `response_type=code`, `client_id`, `state`, `code_challenge`,
//! `code_challenge_method=S256`, `redirect_uri` and `scope`
//! (space-separated) appended to its query), the `state` that names the
//! flow ([`AuthState`]), and the authorization response the provider sends
//! the browser back with ([`AuthorizationResponse`]).

use super::encoding::{form_encode, form_pairs};
use super::end::{MalformedResponse, capped};
use super::pkce::PkceChallenge;
use super::provider::Provider;
use crate::sensitive::token::{PageId, Token};

/// The `state` parameter of a flow: its id (public, in the start page's
/// URL already: one lookup finds the flow on any replica), then 128 secret
/// bits no one else has, compared in constant time.
#[derive(Clone, Copy)]
pub(crate) struct AuthState {
    pub(crate) id: PageId,
    pub(crate) secret: Token,
}

impl AuthState {
    pub(crate) fn new(id: PageId, secret: Token) -> Self {
        Self { id, secret }
    }

    /// The state `text` writes (64 hex digits), if it is one.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let (id, secret) = (text.get(..32)?, text.get(32..)?);
        Some(Self::new(id.parse().ok()?, Token::parse(secret)?))
    }
}

impl std::fmt::Display for AuthState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.id, self.secret)
    }
}

/// The provider's authorization URL with the flow's parameters.
pub(crate) fn authorize_url(
    provider: &Provider,
    redirect_uri: &str,
    state: &AuthState,
    challenge: &PkceChallenge,
) -> String {
    let state = state.to_string();
    let mut pairs = vec![
        ("response_type", "code"),
        ("client_id", provider.client_id.as_str()),
        ("state", &state),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", PkceChallenge::METHOD),
        ("redirect_uri", redirect_uri),
    ];
    let scopes = provider.scopes.join(" ");
    if !scopes.is_empty() {
        pairs.push(("scope", &scopes));
    }
    let base = &provider.authorization_url;
    let separator = match base.split_once('?') {
        None => "?",
        Some((_, "")) => "",
        Some(_) if base.ends_with('&') => "",
        Some(_) => "&",
    };
    format!("{base}{separator}{}", form_encode(&pairs))
}

/// The authorization response (RFC 6749, section 4.1.2; RFC 9207's `iss`),
/// read from the callback's query.
pub(crate) struct AuthorizationResponse {
    /// The `state` it names, if it is one.
    pub(crate) state: Option<AuthState>,
    /// Whether it carried a `state` at all.
    pub(crate) has_state: bool,
    /// The issuer it names (`iss`).
    pub(crate) iss: Option<String>,
    /// What it says.
    pub(crate) answer: Result<Grant, MalformedResponse>,
}

/// What an authorization response says.
pub(crate) enum Grant {
    /// The code to exchange.
    Code(String),
    /// The provider's refusal: its `error` and `error_description` (at
    /// most 256 characters each).
    Denied {
        error: String,
        description: Option<String>,
    },
}

impl AuthorizationResponse {
    /// The response in `query`: a repeated parameter, or neither a code nor
    /// an error, is [`MalformedResponse`].
    pub(crate) fn read(query: &str) -> Self {
        let (mut state, mut code, mut error, mut description, mut iss) =
            (None, None, None, None, None);
        let mut repeated = false;
        for (name, value) in form_pairs(query) {
            let slot = match name.as_str() {
                "state" => &mut state,
                "code" => &mut code,
                "error" => &mut error,
                "error_description" => &mut description,
                "iss" => &mut iss,
                _ => continue,
            };
            repeated |= slot.is_some();
            *slot = Some(value);
        }
        let answer = match (repeated, error, code) {
            (true, _, _) => Err(MalformedResponse::RepeatedParameter),
            (false, Some(error), _) => Ok(Grant::Denied {
                error: capped(&error),
                description: description.as_deref().map(capped),
            }),
            (false, None, Some(code)) => Ok(Grant::Code(code)),
            (false, None, None) => Err(MalformedResponse::NeitherCodeNorError),
        };
        Self {
            has_state: state.is_some(),
            state: state.as_deref().and_then(AuthState::parse),
            iss,
            answer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensitive::oauth::pkce::PkceVerifier;

    #[test]
    fn the_authorization_url_keeps_the_providers_query() {
        let provider = Provider::new(
            "https://auth.example.com/authorize?audience=api",
            "https://auth.example.com/token",
            "my client",
        )
        .unwrap()
        .scopes(["read", "write"]);
        let id = "00112233445566778899aabbccddeeff".parse().unwrap();
        let state = AuthState::new(
            id,
            Token::parse("ffeeddccbbaa99887766554433221100").unwrap(),
        );
        let challenge = PkceVerifier::for_test("v").challenge();
        assert_eq!(
            authorize_url(&provider, "http://127.0.0.1:1/cb", &state, &challenge),
            format!(
                "https://auth.example.com/authorize?audience=api&response_type=code&client_id=my+client\
                 &state=00112233445566778899aabbccddeeffffeeddccbbaa99887766554433221100\
                 &code_challenge={}&code_challenge_method=S256\
                 &redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb&scope=read+write",
                challenge.as_str()
            )
        );
    }

    #[test]
    fn an_authorization_response_is_a_code_an_error_or_malformed() {
        let read = AuthorizationResponse::read("code=c&state=x&iss=https%3A%2F%2Fa");
        assert!(matches!(read.answer, Ok(Grant::Code(ref c)) if c == "c"));
        assert!(read.has_state && read.state.is_none());
        assert_eq!(read.iss.as_deref(), Some("https://a"));
        let denied = AuthorizationResponse::read("error=access_denied&error_description=no");
        assert!(
            matches!(denied.answer, Ok(Grant::Denied { ref error, .. }) if error == "access_denied")
        );
        assert!(matches!(
            AuthorizationResponse::read("code=a&code=b").answer,
            Err(MalformedResponse::RepeatedParameter)
        ));
        assert!(matches!(
            AuthorizationResponse::read("state=s").answer,
            Err(MalformedResponse::NeitherCodeNorError)
        ));
    }
}
