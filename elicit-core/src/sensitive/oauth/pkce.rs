//! PKCE (RFC 7636): the verifier a flow keeps, and the `S256` challenge
//! its authorization URL carries.

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::encoding::{URL_SAFE, base64};

/// A PKCE verifier: 32 random bytes, base64url (43 characters). It never
/// leaves the server but to the token endpoint; `Debug` shows nothing of
/// it.
#[derive(Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub(crate) struct PkceVerifier(#[serde(with = "crate::sensitive::oauth::exposed")] SecretString);

impl PkceVerifier {
    /// A fresh verifier from the OS RNG.
    pub(crate) fn random() -> Result<Self, getrandom::Error> {
        let mut bytes = Zeroizing::new([0u8; 32]);
        getrandom::fill(&mut *bytes)?;
        Ok(Self(SecretString::from(base64(&*bytes, URL_SAFE, false))))
    }

    /// Its `S256` challenge.
    pub(crate) fn challenge(&self) -> PkceChallenge {
        let digest = Sha256::digest(self.0.expose_secret().as_bytes());
        PkceChallenge(base64(&digest, URL_SAFE, false))
    }

    /// A verifier of the test's choosing.
    #[cfg(test)]
    pub(crate) fn for_test(verifier: &str) -> Self {
        Self(SecretString::from(verifier))
    }

    /// The verifier, for the token request.
    pub(crate) fn secret(&self) -> &str {
        self.0.expose_secret()
    }
}

impl std::fmt::Debug for PkceVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PkceVerifier(..)")
    }
}

/// The `S256` challenge of a [`PkceVerifier`]: public, in the
/// authorization URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PkceChallenge(String);

impl PkceChallenge {
    /// The challenge method: always `S256`.
    pub(crate) const METHOD: &'static str = "S256";

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenge_is_rfc_7636s() {
        // RFC 7636, appendix B.
        let verifier = PkceVerifier(SecretString::from(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
        ));
        assert_eq!(
            verifier.challenge().as_str(),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        let fresh = PkceVerifier::random().unwrap();
        assert_eq!(fresh.secret().len(), 43);
        assert_ne!(fresh.secret(), PkceVerifier::random().unwrap().secret());
    }
}
