//! Why [`Pages`](super::Pages) could not be set up ([`ConfigError`]), why a page could
//! not be opened ([`OpenError`]), and why an open page gave no outcome
//! ([`PageError`]).

use std::fmt;

use crate::error::ContentError;
use crate::sensitive::store::StoreError;

/// Why [`Pages`](super::Pages) could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// The public URL is not an absolute `https` URL (`http` only on
    /// loopback), or has a query or fragment.
    BadUrl(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadUrl(e) => write!(
                f,
                "the pages' public URL `{e}` must be https://host[:port][/path] (http only on a loopback \
         host), with no query or fragment"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a page could not be opened. Nothing was sent to the client.
#[derive(Debug)]
#[non_exhaustive]
pub enum OpenError {
    /// These pages verify users: open the page for one
    /// ([`Pages::open_for`](super::Pages::open_for)).
    UserRequired,
    /// These pages have no user verifier, so a page cannot be bound to a
    /// user: give [`Pages::hosted`](super::Pages::hosted) one, or open with
    /// [`Pages::open`](super::Pages::open).
    NoVerifier,
    /// The form's schema has a property the page cannot show.
    NotRenderable(crate::error::NotRenderable),
    /// The loopback server could not start.
    Server(std::io::Error),
    /// The OS RNG failed.
    Random(getrandom::Error),
    /// The store refused the page.
    Store(StoreError),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UserRequired => f.write_str(
                "these pages verify users: open the page for the verified user it is for, with \
         `Pages::open_for`",
            ),
            Self::NoVerifier => f.write_str(
                "these pages have no user verifier: a page opened for a user needs one \
         (`Pages::hosted(url, verifier)`, or `Pages::loopback().verifier(..)`)",
            ),
            Self::NotRenderable(e) => write!(f, "{e}"),
            Self::Server(e) => write!(f, "the page server could not start: {e}"),
            Self::Random(e) => write!(f, "the OS random number generator failed: {e}"),
            Self::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::NotRenderable(e) => Some(e),
            Self::Server(e) => Some(e),
            Self::Store(e) => Some(e),
            _ => None,
        }
    }
}

/// Why a page (or an OAuth flow) the agent waited for gave no outcome.
/// How it ended without an answer is not an error: it is the outcome
/// ([`SecretOutcome`](crate::sensitive::SecretOutcome),
/// [`OAuthOutcome`](crate::sensitive::oauth::OAuthOutcome)).
#[derive(Debug)]
#[non_exhaustive]
pub enum PageError {
    /// The answer passed the page's checks but not the form's own: a rule
    /// the page cannot check (the form's `#[elicit(check = path)]`, a
    /// `try_from`), or a foreign record in a shared store. The flows
    /// (`elicit_secret`) ask again on a new page instead, within
    /// `.retry(n)`.
    Invalid(ContentError),
    /// The store failed.
    Store(StoreError),
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid(e) => write!(f, "the page's answer does not fit the form: {e}"),
            Self::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Invalid(e) => Some(e),
            Self::Store(e) => Some(e),
        }
    }
}
