//! The flows through a page of the agent's own (feature `sensitive`): a
//! sensitive form, and (feature `oauth`) an OAuth flow's start page. Each
//! is URL mode or nothing: the page is opened, its URL sent (bound to the
//! verified user, if any), and once the user consented, the page's answer
//! awaited and the elicitation completed.

use crate::protocol::agent::{UrlOutcome, UrlRequest, VerifiedUser};
use crate::protocol::{ElicitationId, ElicitationScope};
use crate::sensitive::{PageError, PageId, Pages, SecretOutcome, SensitiveForm};

use super::{Carrier, ElicitError, Flows};

impl<C: Carrier> Flows<'_, C> {
    /// The sensitive form `T` on a page `pages` serve (for `user`, when the
    /// pages verify users): its checked value, or how it ended. Dropping
    /// the future closes the page and abandons the id.
    pub(crate) async fn secret<T: SensitiveForm + Send>(
        &self,
        scope: ElicitationScope,
        message: String,
        pages: &Pages,
        user: Option<&VerifiedUser>,
    ) -> Result<SecretOutcome<T>, ElicitError> {
        // No page for a client that cannot show one.
        self.lock()
            .require_sensitive()
            .map_err(ElicitError::NotSent)?;
        let page = match user {
            Some(user) => pages.open_for::<T>(user, message.clone()),
            None => pages.open::<T>(message.clone()),
        }
        .map_err(ElicitError::PageNotOpened)?;
        let (id, request) = page_request(page.id(), page.url(), message, user);
        // From here the id is outstanding: abandoned unless completed,
        // whichever way this future ends (dropped included).
        let outstanding = Outstanding {
            flows: self,
            id: &id,
        };
        let answer = self.url(scope, request).await?;
        // Not consented: the page closes as it is dropped.
        if let Some(ended) = SecretOutcome::unless_consented(&answer) {
            return Ok(ended);
        }
        match page.answer().await {
            Ok(value) => {
                self.complete(&id, user).await?;
                std::mem::forget(outstanding);
                Ok(SecretOutcome::Answered(value))
            }
            Err(error) => SecretOutcome::unanswered(error).map_err(ElicitError::Page),
        }
    }

    /// An OAuth flow at `provider` through a start page `pages` serve (for
    /// `user`, when the pages verify users): the token, or how it ended.
    /// Dropping the future ends the flow and abandons the id.
    #[cfg(feature = "oauth")]
    pub(crate) async fn oauth(
        &self,
        scope: ElicitationScope,
        message: String,
        pages: &Pages,
        provider: &crate::sensitive::oauth::Provider,
        user: Option<&VerifiedUser>,
    ) -> Result<crate::sensitive::oauth::OAuthOutcome, ElicitError> {
        use crate::sensitive::oauth::OAuthOutcome;

        // No flow for a client that cannot show a page.
        self.lock()
            .require_sensitive()
            .map_err(ElicitError::NotSent)?;
        let flow = match user {
            Some(user) => pages.open_oauth_for(user, provider),
            None => pages.open_oauth(provider),
        }
        .map_err(ElicitError::PageNotOpened)?;
        let (id, request) = page_request(flow.id(), flow.url(), message, user);
        let outstanding = Outstanding {
            flows: self,
            id: &id,
        };
        let answer = self.url(scope, request).await?;
        // Not consented: the flow ends as it is dropped.
        if let Some(ended) = OAuthOutcome::unless_consented(&answer) {
            return Ok(ended);
        }
        let outcome = flow.outcome().await;
        if outcome.ends_interaction() {
            self.complete(&id, user).await?;
            std::mem::forget(outstanding);
        }
        Ok(outcome)
    }
}

/// The URL request for a page of the agent's (a sensitive form's, or an
/// OAuth flow's start page): sensitive, its id is the page's, and it is
/// bound to `user` when there is one.
pub(crate) fn page_request(
    page: PageId,
    url: &str,
    message: String,
    user: Option<&VerifiedUser>,
) -> (ElicitationId, UrlRequest) {
    let id = ElicitationId::new(page.to_string());
    let request = UrlRequest::new(message, url)
        .elicitation_id(id.clone())
        .sensitive();
    let request = match user {
        Some(user) => request.for_user(user),
        None => request,
    };
    (id, request)
}

/// Abandons a URL elicitation's id when dropped, unless forgotten.
struct Outstanding<'f, 'a, C> {
    flows: &'f Flows<'a, C>,
    id: &'f ElicitationId,
}

impl<C> Drop for Outstanding<'_, '_, C> {
    fn drop(&mut self) {
        super::lock(self.flows.state).abandon(self.id);
    }
}

/// How a secret page's flow reads what the client answered and how the page
/// ended (the flows' rules, for every transport).
impl<T> SecretOutcome<T> {
    /// What the client's answer to the URL request settles: `None` when the
    /// user consented (the page decides then). An unknown action is not
    /// consent: the flow ends as cancelled.
    pub(crate) fn unless_consented(answer: &UrlOutcome) -> Option<Self> {
        match answer {
            UrlOutcome::Consented(_) => None,
            UrlOutcome::Declined => Some(Self::Declined),
            UrlOutcome::Cancelled | UrlOutcome::UnknownAction(_) => Some(Self::Cancelled),
        }
    }

    /// How a page that ended without an answer ends the flow; the other
    /// page errors are failures.
    pub(crate) fn unanswered(error: PageError) -> Result<Self, PageError> {
        match error {
            PageError::Expired => Ok(Self::Expired),
            PageError::Cancelled => Ok(Self::Cancelled),
            error => Err(error),
        }
    }
}

/// How an OAuth flow reads what the client answered, and when it tells the
/// client it is complete.
#[cfg(feature = "oauth")]
impl crate::sensitive::oauth::OAuthOutcome {
    /// What the client's answer to the URL request settles: `None` when
    /// the user consented (the provider and the callback decide then). An
    /// unknown action is not consent: the flow ends as cancelled.
    pub(crate) fn unless_consented(answer: &UrlOutcome) -> Option<Self> {
        match answer {
            UrlOutcome::Consented(_) => None,
            UrlOutcome::Declined => Some(Self::Declined),
            UrlOutcome::Cancelled | UrlOutcome::UnknownAction(_) => Some(Self::Cancelled),
        }
    }

    /// Whether the out-of-band interaction finished in the browser (the
    /// provider sent the user back to the callback), so the client is told
    /// with `elicitation/complete`: a token, a denial, or a failure after
    /// the callback. Not for an expiry, a decline or a cancel.
    pub(crate) fn ends_interaction(&self) -> bool {
        matches!(
            self,
            Self::Authorized(_) | Self::Denied { .. } | Self::Failed(_)
        )
    }
}
