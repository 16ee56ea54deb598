//! Opening an OAuth flow ([`Pages::open_oauth`]) and waiting for it
//! ([`PendingOAuth`]): a record of the pages' store, with a page's
//! lifecycle.

use std::fmt;
use std::time::SystemTime;

use super::authorize::{AuthState, authorize_url};
use super::end::OAuthOutcome;
use super::flow::{CALLBACK, Flow};
use super::pkce::PkceVerifier;
use super::provider::Provider;
use crate::protocol::agent::VerifiedUser;
use crate::sensitive::pages::pending::Handle;
use crate::sensitive::pages::{OpenError, PageError, Pages};
use crate::sensitive::store::{Answer, End, Kind, Record};
use crate::sensitive::token::{PageId, Token};

impl Pages {
    /// Opens an OAuth flow with `provider`: authorization code with PKCE
    /// (`S256`). Send the flow's [`url`](PendingOAuth::url), the agent's own
    /// start page, to the client (URL mode) and await
    /// [`PendingOAuth::outcome`].
    ///
    /// The start page redirects the browser to the provider with a fresh
    /// single-use `state` and the PKCE challenge (the verifier stays here),
    /// and binds the flow to that browser with an `HttpOnly`,
    /// `SameSite=Lax` cookie. The provider sends the browser back to
    /// `<pages>/oauth/callback` (on loopback
    /// `http://127.0.0.1:<port>/elicit/oauth/callback`: register
    /// `http://127.0.0.1/elicit/oauth/callback` with the provider), where
    /// the code is exchanged. The flow lives in the pages' [`Store`](crate::sensitive::store::Store),
    /// beside their pages.
    ///
    /// # Errors
    ///
    /// [`OpenError`]: these pages verify users (use
    /// [`open_oauth_for`](Self::open_oauth_for)), the loopback server could
    /// not start, or too many pages and flows are open.
    pub async fn open_oauth(&self, provider: &Provider) -> Result<PendingOAuth, OpenError> {
        self.open_flow(provider, None).await
    }

    /// [`open_oauth`](Self::open_oauth) for the verified user `user`: the
    /// start page and the callback are served only to requests the
    /// [`UserVerifier`](crate::sensitive::UserVerifier) finds `user` in.
    ///
    /// # Errors
    ///
    /// [`OpenError::NoVerifier`] if these pages have no verifier, and those
    /// of [`open_oauth`](Self::open_oauth).
    pub async fn open_oauth_for(
        &self,
        user: &VerifiedUser,
        provider: &Provider,
    ) -> Result<PendingOAuth, OpenError> {
        self.open_flow(provider, Some(user)).await
    }

    async fn open_flow(
        &self,
        provider: &Provider,
        user: Option<&VerifiedUser>,
    ) -> Result<PendingOAuth, OpenError> {
        let user = self.user_for_record(user)?;
        let origin = self.ensure_origin()?;
        let base = &self.shared().config.base_path;
        let redirect_uri = format!("{}{base}{CALLBACK}", origin.as_str());
        let id = PageId::random().map_err(OpenError::Random)?;
        let state = AuthState::new(id, Token::random().map_err(OpenError::Random)?);
        let verifier = PkceVerifier::random().map_err(OpenError::Random)?;
        let flow = Flow {
            authorize_url: authorize_url(provider, &redirect_uri, &state, &verifier.challenge()),
            provider: provider.clone(),
            redirect_uri,
            state: state.secret,
            verifier,
        };
        let expires_at = SystemTime::now() + self.shared().config.expiry;
        let record = Record::open(Kind::OAuth(flow), user, expires_at);
        let url = format!("{}{base}/{id}", origin.as_str());
        let handle = self.insert_record(id, record, url).await?;
        Ok(PendingOAuth { handle })
    }
}

/// One open OAuth flow, as the agent waits for its outcome. Dropping it
/// before its end (or [`cancel`](Self::cancel)) ends the flow as
/// cancelled, as a [`PendingPage`](crate::sensitive::PendingPage) does: a
/// later visit or callback sees "already answered".
#[must_use = "the flow is cancelled when this is dropped"]
pub struct PendingOAuth {
    handle: Handle,
}

impl fmt::Debug for PendingOAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingOAuth")
            .field("id", &self.handle.id())
            .field("url", &self.handle.url())
            .finish_non_exhaustive()
    }
}

impl PendingOAuth {
    /// The flow's id: its start page's last segment, and the URL
    /// elicitation's `elicitationId`.
    pub fn id(&self) -> PageId {
        self.handle.id()
    }

    /// The agent's own start page: all it carries is the id (no `state`,
    /// no challenge, nothing of the provider's).
    pub fn url(&self) -> &str {
        self.handle.url()
    }

    /// Waits for the flow's end: the token, or why there is none.
    ///
    /// # Errors
    ///
    /// [`PageError::Store`] if the store failed.
    pub async fn outcome(self) -> Result<OAuthOutcome, PageError> {
        Ok(match self.handle.end().await? {
            Some(End::Answered(Answer::OAuth(outcome))) => outcome,
            Some(End::Expired) => OAuthOutcome::Expired,
            // Cancelled, let go without an end, or a page's answer in a
            // foreign record: no token.
            _ => OAuthOutcome::Cancelled,
        })
    }

    /// Ends the flow now.
    pub fn cancel(self) {}
}
