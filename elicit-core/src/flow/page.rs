//! The flows through a page of the agent's own (feature `sensitive`): a
//! sensitive form, and (feature `oauth`) an OAuth flow's start page. Each
//! is URL mode or nothing: the page is opened, its URL sent (bound to the
//! verified user, if any), and once the user consented, the page's answer
//! awaited and the elicitation completed.

use crate::ContentError;
use crate::protocol::agent::{UrlOutcome, UrlRequest, VerifiedUser};
use crate::protocol::{ElicitationId, ElicitationScope};
use crate::sensitive::{
    OpenError, PageError, PageId, Pages, PendingPage, SecretOutcome, SensitiveForm,
};

use super::check::PageAsked;
use super::engine::{AfterAnswer, after_answer, in_flow};
use super::{Carrier, ElicitError, Flows};
use crate::fingerprint::Fingerprint;

impl<C: Carrier> Flows<'_, C> {
    /// The sensitive form `T` on a page `pages` serve (for `ask.user`, when
    /// the pages verify users): its checked value, or how it ended; a
    /// refused answer (the form's own rules, or `ask.check`) asked again on
    /// a new page, up to `ask.retry`. Dropping the future closes the page
    /// and abandons the id.
    pub(crate) async fn secret<T: SensitiveForm + Send>(
        &self,
        scope: ElicitationScope,
        message: String,
        pages: &Pages,
        ask: PageAsked<'_, SecretOutcome<T>>,
    ) -> Result<SecretOutcome<T>, ElicitError> {
        let span = self.page_span("secret", Some(std::any::type_name::<T>()));
        let asked = self.secret_attempts(scope, message, pages, ask);
        in_flow(span, asked, PageOutcome::trace).await
    }

    /// [`secret`](Self::secret)'s attempts, in its span: each a page (the
    /// first with `message`, the next ones showing the refused answer's
    /// errors on their fields, their URL asked with
    /// [`ContentError::retry_message`]), the re-ask policy of a form's.
    async fn secret_attempts<T: SensitiveForm + Send>(
        &self,
        scope: ElicitationScope,
        message: String,
        pages: &Pages,
        ask: PageAsked<'_, SecretOutcome<T>>,
    ) -> Result<SecretOutcome<T>, ElicitError> {
        let PageAsked { user, retry, check } = ask;
        let mut refused: Option<ContentError> = None;
        let mut next = message.clone();
        let mut attempts: u32 = 0;
        loop {
            attempts = attempts.saturating_add(1);
            let open = async {
                match &refused {
                    None => open_page::<T>(pages, user, message.clone()).await,
                    Some(errors) => pages.open_again::<T>(user, message.clone(), errors).await,
                }
            };
            let (read, page) = self.page_flow(scope.clone(), next, user, open).await?;
            let read = match (&check, read) {
                (Some(check), Ok(outcome)) => match check(outcome).await {
                    Ok(read) => read,
                    Err(error) => {
                        forget(pages, page).await;
                        return Err(error);
                    }
                },
                (_, read) => read,
            };
            // The refused answer is gone (dropped as it was refused), but
            // for the end its page's record holds: forgotten now.
            refused = read.as_ref().err().cloned();
            if refused.is_some() {
                forget(pages, page).await;
            }
            match after_answer(read, &message, attempts, retry) {
                AfterAnswer::Done(outcome) => return Ok(outcome),
                AfterAnswer::AskAgain(message) => {
                    note!(
                        "answer refused: asked again on a new page",
                        attempt = attempts
                    );
                    next = message;
                }
                AfterAnswer::GiveUp { errors, attempts } => {
                    return Err(ElicitError::Invalid { errors, attempts });
                }
            }
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
        let open = async {
            match user {
                Some(user) => pages.open_oauth_for(user, provider).await,
                None => pages.open_oauth(provider).await,
            }
        };
        let span = self.page_span("oauth", None);
        let asked = async {
            let (outcome, _) = self.page_flow(scope, message, user, open).await?;
            Ok(outcome)
        };
        in_flow(span, asked, PageOutcome::trace).await
    }

    /// The span of `flow` (`secret`, `oauth`) through a page: the form's
    /// type, if any; the attempt, the elicitation id and the page once
    /// known.
    fn page_span(&self, flow: &'static str, form: Option<&'static str>) -> crate::traced::Span {
        span!(
            "flow",
            transport = C::TRANSPORT,
            protocol_version = self.carrier.protocol_version(),
            flow = flow,
            mode = "url",
            form = form.unwrap_or("-");
            elicitation_id,
            page
        )
    }

    /// The flow through a page of the agent's, whatever the page: URL mode
    /// or nothing (no page is opened for a client without it); the page
    /// opened, its URL sent (sensitive, bound to `user`), and once the user
    /// consented, the page's end awaited and, if the interaction ended in
    /// the browser, the elicitation completed. Whichever way it ends
    /// without a completion (dropped included), the id is abandoned. How
    /// it ended, and the page's id.
    async fn page_flow<P: Opened>(
        &self,
        scope: ElicitationScope,
        message: String,
        user: Option<&VerifiedUser>,
        open: impl std::future::Future<Output = Result<P, OpenError>>,
    ) -> Result<(P::Outcome, PageId), ElicitError> {
        self.lock()
            .require_sensitive()
            .map_err(ElicitError::NotSent)?;
        let page = open.await.map_err(ElicitError::PageNotOpened)?;
        let page_id = page.id();
        record!(page = Fingerprint(page_id));
        record!(elicitation_id = Fingerprint(page_id));
        note!("page opened");
        let (id, request) = page_request(page_id, page.url(), message, user);
        let outstanding = Outstanding {
            flows: self,
            id: &id,
        };
        let answer = self.url_request(scope, request).await?;
        // Not consented: the page closes as it is dropped.
        if let Some(ended) = P::Outcome::unless_consented(&answer) {
            return Ok((ended, page_id));
        }
        note!("consented: waiting for the page");
        let (outcome, ended_in_browser) = page.settle().await?;
        if ended_in_browser {
            self.complete_id(&id, user).await?;
            std::mem::forget(outstanding);
        }
        Ok((outcome, page_id))
    }
}

/// A page's answer, read by a flow that reads it by its id (the MCP
/// rounds) and checked by `check`: how the page ended, or the errors of an
/// answer refused by the form's own rules or by the check (the answer
/// dropped); [`ElicitError::Check`] when the check could not decide, and
/// the other page errors as [`SecretOutcome::from_page`] has them.
#[cfg(feature = "rmcp")]
pub(crate) async fn checked_answer<T>(
    answer: Result<SecretOutcome<T>, PageError>,
    check: Option<&super::SecretChecker<'_, T>>,
) -> Result<PageAnswer<T>, ElicitError> {
    let outcome = match answer {
        Err(PageError::Invalid(errors)) => {
            refused!(InvalidSubmission, errors = errors.errors().len());
            return Ok(Err(errors));
        }
        answer => SecretOutcome::from_page(answer)?,
    };
    match check {
        Some(check) => check(outcome).await,
        None => Ok(Ok(outcome)),
    }
}

/// Forgets the page `id` (its record, and the end it holds: a refused
/// answer's secrets).
async fn forget(pages: &Pages, id: PageId) {
    let _ = pages.shared().store.remove(&id).await;
}

/// What the page flow needs of the page it opened: a sensitive form's
/// page, an OAuth flow's start page.
trait Opened: Send {
    /// How the flow ends.
    type Outcome: PageOutcome;
    fn id(&self) -> PageId;
    fn url(&self) -> &str;
    /// The page's end, and whether the interaction ended in the browser
    /// (the client is then told with `elicitation/complete`).
    fn settle(
        self,
    ) -> impl std::future::Future<Output = Result<(Self::Outcome, bool), ElicitError>> + Send;
}

/// A secret page's answer, read: how the page ended, or the errors of an
/// answer the form's own rules refused (the answer dropped).
pub(crate) type PageAnswer<T> = Result<SecretOutcome<T>, ContentError>;

impl<T: SensitiveForm + Send> Opened for PendingPage<T> {
    type Outcome = PageAnswer<T>;

    fn id(&self) -> PageId {
        PendingPage::id(self)
    }

    fn url(&self) -> &str {
        PendingPage::url(self)
    }

    async fn settle(self) -> Result<(PageAnswer<T>, bool), ElicitError> {
        match self.answer().await {
            // Submitted in the browser, and refused here: asked again.
            Err(PageError::Invalid(errors)) => {
                refused!(InvalidSubmission, errors = errors.errors().len());
                Ok((Err(errors), true))
            }
            answer => {
                let outcome = SecretOutcome::from_page(answer)?;
                let ended_in_browser = matches!(outcome, SecretOutcome::Answered(_));
                Ok((Ok(outcome), ended_in_browser))
            }
        }
    }
}

#[cfg(feature = "oauth")]
impl Opened for crate::sensitive::oauth::PendingOAuth {
    type Outcome = crate::sensitive::oauth::OAuthOutcome;

    fn id(&self) -> PageId {
        crate::sensitive::oauth::PendingOAuth::id(self)
    }

    fn url(&self) -> &str {
        crate::sensitive::oauth::PendingOAuth::url(self)
    }

    async fn settle(self) -> Result<(Self::Outcome, bool), ElicitError> {
        let outcome = self.outcome().await.map_err(ElicitError::Page)?;
        let ended_in_browser = outcome.ends_interaction();
        Ok((outcome, ended_in_browser))
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
        crate::sync::lock(self.flows.state).abandon(self.id);
    }
}

/// How a flow through a page ends before the page decides: what the
/// client's answer to the URL request settles.
pub(crate) trait PageOutcome: Sized {
    /// Its event: how the flow ended (a denial or a failure at the OAuth
    /// callback has its own, where it happened).
    fn trace(&self) -> &'static str;

    /// The user declined to open the page.
    const DECLINED: Self;
    /// The user cancelled, or the client answered with an action it does
    /// not know.
    const CANCELLED: Self;

    /// What the client's answer to the URL request settles: `None` when the
    /// user consented (the page decides then). An unknown action is not
    /// consent: the flow ends as cancelled.
    fn unless_consented(answer: &UrlOutcome) -> Option<Self> {
        match answer {
            UrlOutcome::Consented(_) => None,
            UrlOutcome::Declined => Some(Self::DECLINED),
            UrlOutcome::Cancelled | UrlOutcome::UnknownAction(_) => Some(Self::CANCELLED),
        }
    }
}

/// How a page flow ended without an answer.
enum Unanswered {
    Expired,
    Declined,
    Cancelled,
}

/// The event of a page flow that ended without an answer: its outcome.
fn ended_unanswered(how: Unanswered) -> &'static str {
    match how {
        Unanswered::Expired => {
            refused!(PageExpired);
            "expired"
        }
        Unanswered::Declined => {
            refused!(Declined);
            "declined"
        }
        Unanswered::Cancelled => {
            refused!(Cancelled);
            "cancelled"
        }
    }
}

impl<T> PageOutcome for SecretOutcome<T> {
    fn trace(&self) -> &'static str {
        match self {
            Self::Answered(_) => {
                note!("page answered");
                "answered"
            }
            Self::Expired => ended_unanswered(Unanswered::Expired),
            Self::Declined => ended_unanswered(Unanswered::Declined),
            Self::Cancelled => ended_unanswered(Unanswered::Cancelled),
        }
    }

    const DECLINED: Self = Self::Declined;
    const CANCELLED: Self = Self::Cancelled;
}

impl<T> PageOutcome for PageAnswer<T> {
    fn trace(&self) -> &'static str {
        // A refusal is traced as it was read (`settle`).
        match self {
            Ok(outcome) => outcome.trace(),
            Err(_) => "invalid",
        }
    }

    const DECLINED: Self = Ok(SecretOutcome::Declined);
    const CANCELLED: Self = Ok(SecretOutcome::Cancelled);
}

impl<T> SecretOutcome<T> {
    /// How the page's answer ends the flow: its outcome; a page error is a
    /// failure.
    pub(crate) fn from_page(answer: Result<Self, PageError>) -> Result<Self, ElicitError> {
        answer.map_err(ElicitError::Page)
    }
}

/// The page of the sensitive form `T` on `pages`, for `user` when there is
/// one.
pub(crate) async fn open_page<T: SensitiveForm>(
    pages: &Pages,
    user: Option<&VerifiedUser>,
    message: String,
) -> Result<PendingPage<T>, OpenError> {
    match user {
        Some(user) => pages.open_for::<T>(user, message).await,
        None => pages.open::<T>(message).await,
    }
}

/// The provider and the callback decide after a consent.
#[cfg(feature = "oauth")]
impl PageOutcome for crate::sensitive::oauth::OAuthOutcome {
    fn trace(&self) -> &'static str {
        match self {
            Self::Authorized(_) => {
                note!("authorized");
                "authorized"
            }
            Self::Expired => ended_unanswered(Unanswered::Expired),
            Self::Declined => ended_unanswered(Unanswered::Declined),
            Self::Cancelled => ended_unanswered(Unanswered::Cancelled),
            // Emitted at the callback, where the provider's answer arrived.
            Self::Denied { .. } => "denied",
            Self::Failed(_) => "failed",
        }
    }

    const DECLINED: Self = Self::Declined;
    const CANCELLED: Self = Self::Cancelled;
}

/// When an OAuth flow tells the client it is complete.
#[cfg(feature = "oauth")]
impl crate::sensitive::oauth::OAuthOutcome {
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
