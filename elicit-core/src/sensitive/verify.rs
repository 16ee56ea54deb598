//! Who sent a request: the user verifier of hosted pages.

use crate::protocol::agent::VerifiedUser;

/// Who sent a request to a hosted page: the identity your web server's own
/// authentication established (a session cookie, a bearer token...), or
/// `None`. A page opened for a [`VerifiedUser`] is served only to requests
/// this finds the same user in (the protocol's MUST: the user who completes
/// the interaction is the user who started it).
///
/// Any `Fn(&http::request::Parts) -> Option<VerifiedUser>` is one.
pub trait UserVerifier: Send + Sync + 'static {
    /// The user who sent this request, if any.
    fn user(&self, request: &http::request::Parts) -> Option<VerifiedUser>;
}

impl<F> UserVerifier for F
where
    F: Fn(&http::request::Parts) -> Option<VerifiedUser> + Send + Sync + 'static,
{
    fn user(&self, request: &http::request::Parts) -> Option<VerifiedUser> {
        self(request)
    }
}
