//! An OAuth flow as its record keeps it ([`Flow`]): plain data, which the
//! store writes (sealed) like a page's.

use serde::{Deserialize, Serialize};

use super::pkce::PkceVerifier;
use super::provider::Provider;
use crate::sensitive::token::Token;

/// The callback's path under the pages' base path.
pub(crate) const CALLBACK: &str = "/oauth/callback";

/// What every replica needs to serve a flow's start page and callback: the
/// content of its [`Record`]. It holds secrets (the client's, the
/// `state`'s, the verifier): sealed wherever a store writes it.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Flow {
    #[serde(with = "provider_serde")]
    pub(crate) provider: Provider,
    /// The provider's authorization URL with this flow's parameters.
    pub(crate) authorize_url: String,
    pub(crate) redirect_uri: String,
    /// The secret half of the `state` parameter: single use.
    pub(crate) state: Token,
    pub(crate) verifier: PkceVerifier,
}

/// A [`Provider`] written with its client secret in clear, for the bytes a
/// store seals: serde's remote definition, so that `Provider` implements
/// no `Serialize` for anyone else.
mod provider_serde {
    use secrecy::SecretString;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Provider;
    use crate::sensitive::oauth::exposed;

    pub(super) fn serialize<S: Serializer>(provider: &Provider, s: S) -> Result<S::Ok, S::Error> {
        ProviderDef::serialize(provider, s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Provider, D::Error> {
        ProviderDef::deserialize(d)
    }

    #[derive(Serialize, Deserialize)]
    #[serde(remote = "Provider")]
    struct ProviderDef {
        authorization_url: String,
        token_url: String,
        client_id: String,
        #[serde(with = "exposed::option")]
        client_secret: Option<SecretString>,
        secret_in_body: bool,
        scopes: Vec<String>,
        issuer: Option<String>,
    }
}
