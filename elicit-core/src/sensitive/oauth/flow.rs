//! Opening a flow ([`Pages::open_oauth`]) and waiting for it
//! ([`PendingOAuth`]).

use std::fmt;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use super::exchange;
use super::outcome::OAuthOutcome;
use super::provider::Provider;
use super::table::{CALLBACK, Flow, FlowRecord, FlowState, flows};
use crate::protocol::agent::VerifiedUser;
use crate::sensitive::shared::Shared;
use crate::sensitive::token::{PageId, Token};
use crate::sensitive::{OpenError, Pages, PagesBuilder};

impl PagesBuilder {
    /// Keeps the OAuth flows in `store` instead of this process's memory
    /// (see [`FlowStore`](super::FlowStore)): with a store every replica
    /// shares (`elicit_core::redis::RedisFlowStore`), every replica serves
    /// every flow's start page and callback.
    pub fn oauth_store(self, store: impl super::FlowStore) -> Self {
        self.extensions().replace(Arc::new(super::table::Flows {
            table: Box::new(store),
        }));
        self
    }
}

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
    /// the code is exchanged.
    ///
    /// # Errors
    ///
    /// [`OpenError`]: these pages verify users (use
    /// [`open_oauth_for`](Self::open_oauth_for)), the loopback server could
    /// not start, too many flows are open, or the provider's endpoints are
    /// unusable.
    pub async fn open_oauth(&self, provider: &Provider) -> Result<PendingOAuth, OpenError> {
        if self.shared().config.verifier.is_some() {
            return Err(OpenError::UserRequired);
        }
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
        if self.shared().config.verifier.is_none() {
            return Err(OpenError::NoVerifier);
        }
        self.open_flow(provider, Some(user.as_str().to_owned()))
            .await
    }

    async fn open_flow(
        &self,
        provider: &Provider,
        user: Option<String>,
    ) -> Result<PendingOAuth, OpenError> {
        let shared = self.shared();
        let origin = self.ensure_origin()?;
        let base = &shared.config.base_path;
        let redirect_uri = format!("{}{base}{CALLBACK}", origin.as_str());
        let id = PageId::random().map_err(OpenError::Random)?;
        let state = Token::random().map_err(OpenError::Random)?;
        let verifier = exchange::new_verifier().map_err(OpenError::Random)?;
        let authorize_url = exchange::authorize_url(
            provider,
            &redirect_uri,
            &FlowState::write(id, state),
            &exchange::challenge(&verifier),
        );
        let expiry = shared.config.expiry;
        let flow = Flow {
            provider: provider.clone(),
            authorize_url,
            redirect_uri,
            state,
            verifier,
            user,
            expires_at: SystemTime::now() + expiry,
        };
        let extension = flows(shared);
        let table = &extension.table;
        table
            .insert(id, FlowRecord(flow), shared.config.max_open)
            .await
            .map_err(|error| {
                error.trace_insert();
                OpenError::Store(error)
            })?;
        note!(
            "oauth flow opened",
            page = crate::fingerprint::Fingerprint(id)
        );
        let expire: Arc<dyn crate::sensitive::reaper::Expire> = extension;
        shared
            .reaper
            .schedule_extension(&expire, Instant::now() + expiry, id);
        Ok(PendingOAuth {
            id,
            url: format!("{}{base}/{id}", origin.as_str()),
            shared: Arc::clone(shared),
        })
    }
}

/// One open OAuth flow, as the agent waits for its outcome. Dropping it
/// (or [`cancel`](Self::cancel)) ends the flow: a later visit or callback
/// is refused.
#[must_use = "the flow is cancelled when this is dropped"]
pub struct PendingOAuth {
    id: PageId,
    url: String,
    shared: Arc<Shared>,
}

impl fmt::Debug for PendingOAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PendingOAuth")
            .field("id", &self.id)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl PendingOAuth {
    /// The flow's id: its start page's last segment, and the URL
    /// elicitation's `elicitationId`.
    pub fn id(&self) -> PageId {
        self.id
    }

    /// The agent's own start page: all it carries is the id (no `state`,
    /// no challenge, nothing of the provider's).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Waits for the flow's end: the token, or why there is none.
    pub async fn outcome(self) -> OAuthOutcome {
        let table = flows(&self.shared);
        match table.table.wait(&self.id).await {
            Ok(Some(outcome)) => outcome,
            // Let go without an end, or the store failed: no token.
            Ok(None) | Err(_) => OAuthOutcome::Cancelled,
        }
    }

    /// Ends the flow now.
    pub fn cancel(self) {}
}

impl Drop for PendingOAuth {
    fn drop(&mut self) {
        // Not awaited here (no I/O in `Drop`): the pages' background
        // runtime forgets it.
        let (flows, id) = (flows(&self.shared), self.id);
        self.shared.reaper.run_now(async move {
            let _ = flows.table.remove(&id).await;
        });
    }
}
