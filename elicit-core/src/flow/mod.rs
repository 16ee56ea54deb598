//! Every elicitation flow, written once for every transport (the ACP SDK,
//! rmcp's server peer on MCP 2025-11-25, rmcp's input-required rounds on
//! MCP 2026-07-28), the calls they return: [`FormCall`] (a form with its
//! bounded re-ask) and, with feature `sensitive`, [`PageCall`] (a secret
//! page, an OAuth flow); and their one error, [`ElicitError`].
//!
//! You meet these types as what `elicit_form`, `elicit_secret` and
//! `elicit_oauth` return on every transport, and `.await` them after their
//! options (`.retry(n)`, `.for_user(&user)`); and [`ElicitError`], why a
//! call returned no answer, the same on every transport.
//!
//! Inside, the state of a connection (the modes its client advertised, the
//! outstanding URL ids with their user binding, completion once) is an
//! [`AgentConnection`]; a transport only sends one `elicitation/create`
//! and reads the answer into elicit's wire model, and sends
//! `elicitation/complete`. The steps between (re-ask, consent, page,
//! completion) are here, once. The re-ask policy is also what the MCP
//! 2026-07-28 rounds apply, across calls.
//!
//! How it is cut, for whoever adds a transport: the state is sans-IO, as
//! in `quinn-proto` or `rustls` ([`AgentConnection`] builds each request,
//! reads each answer and keeps the ids, and does no I/O); the flows are
//! `async` sequences over a two-method seam a request transport
//! implements (send `elicitation/create` and wait for the answer, send
//! `elicitation/complete`), the shape of rmcp's `Peer` and the ACP SDK's
//! `ConnectionTo`. A transport that cannot wait for an answer in one call
//! (the 2026-07-28 rounds, where each round ends the tool call) drives the
//! sans-IO state itself and shares the policy (the re-ask, the page's URL
//! request). A new request transport is one file: the seam's two methods
//! and its `Elicitor`.

use std::future::Future;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::Elicit;
use crate::error::ContentError;
use crate::protocol::agent::{
    AgentConnection, Outcome, Retry, UrlOutcome, UrlRequest, VerifiedUser,
};
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationId, ElicitationScope,
};

mod call;
mod error;
#[cfg(feature = "sensitive")]
pub(crate) mod page;

#[cfg(feature = "rmcp")]
pub(crate) use call::BoxFuture;
pub use call::FormCall;
#[cfg(feature = "oauth")]
pub use call::OAuthCall;
#[cfg(feature = "oauth")]
pub(crate) use call::oauth_call;
#[cfg(feature = "sensitive")]
pub(crate) use call::secret_call;
pub(crate) use call::{Asker, form_call};
#[cfg(feature = "sensitive")]
pub use call::{PageCall, SecretCall};
pub use error::{ElicitError, RequestError, RequestFailure};

/// What a transport does for the flows: one request, one notification.
pub(crate) trait Carrier: Sync {
    /// Sends `elicitation/create` and waits for the client's answer, read
    /// into elicit's wire model (a transport that cannot carry the request,
    /// or cannot read the answer, says so in its error).
    fn create(
        &self,
        request: CreateElicitationRequest,
    ) -> impl Future<Output = Result<CreateElicitationResponse, ElicitError>> + Send;

    /// Sends `elicitation/complete` to this client.
    fn complete(
        &self,
        notification: CompleteElicitationNotification,
    ) -> impl Future<Output = Result<(), ElicitError>> + Send;
}

/// What to do after a form's answer was read: the policy of
/// [`Retry`], once for every transport.
pub(crate) enum AfterAnswer<T> {
    /// The user's answer: done.
    Done(Outcome<T>),
    /// Invalid, and retries are left: send the form again with this message.
    AskAgain(String),
    /// Invalid after the last attempt.
    GiveUp {
        /// The last answer's errors.
        errors: ContentError,
        /// How many forms were sent.
        attempts: u32,
    },
}

/// The re-ask policy: an invalid accept is asked again with the errors in
/// the message ([`Retry::message`]) while attempts are left; a decline or a
/// cancel is an answer, returned at once. `attempts` counts the forms sent,
/// this one included.
pub(crate) fn after_answer<T>(
    read: Result<Outcome<T>, ContentError>,
    original_message: &str,
    attempts: u32,
    retry: Retry,
) -> AfterAnswer<T> {
    match read {
        Ok(outcome) => AfterAnswer::Done(outcome),
        Err(errors) if attempts > retry.again() => AfterAnswer::GiveUp { errors, attempts },
        Err(errors) => AfterAnswer::AskAgain(Retry::message(original_message, &errors)),
    }
}

/// The flows of one connection: its state and its transport.
pub(crate) struct Flows<'a, C> {
    state: &'a Mutex<AgentConnection>,
    carrier: &'a C,
}

impl<'a, C: Carrier> Flows<'a, C> {
    /// The flows of the connection whose state is `state`, carried by
    /// `carrier`.
    pub(crate) fn new(state: &'a Mutex<AgentConnection>, carrier: &'a C) -> Self {
        Self { state, carrier }
    }

    fn lock(&self) -> MutexGuard<'a, AgentConnection> {
        lock(self.state)
    }

    /// The form `T`, asked again (up to `retry`) while its answer breaks
    /// the form's rules.
    pub(crate) async fn form<T: Elicit>(
        &self,
        scope: ElicitationScope,
        message: String,
        retry: Retry,
    ) -> Result<Outcome<T>, ElicitError> {
        let mut next = message.clone();
        let mut attempts: u32 = 0;
        loop {
            attempts = attempts.saturating_add(1);
            let (request, pending) = self
                .lock()
                .form::<T>(scope.clone(), next)
                .map_err(ElicitError::NotSent)?;
            let response = self.carrier.create(request).await?;
            match after_answer(pending.outcome(&response), &message, attempts, retry) {
                AfterAnswer::Done(outcome) => return Ok(outcome),
                AfterAnswer::AskAgain(message) => next = message,
                AfterAnswer::GiveUp { errors, attempts } => {
                    return Err(ElicitError::Invalid { errors, attempts });
                }
            }
        }
    }

    /// A URL request (a sensitive one: URL mode or nothing, never a form),
    /// and its answer. The id stays outstanding on a consent, until
    /// [`complete`](Self::complete) or abandoned; it is abandoned when the
    /// request fails or the answer is an unknown action.
    pub(crate) async fn url(
        &self,
        scope: ElicitationScope,
        request: UrlRequest,
    ) -> Result<UrlOutcome, ElicitError> {
        let built = self.lock().url(scope, request);
        let (request, pending) = built.map_err(ElicitError::NotSent)?;
        let id = pending.id().clone();
        let response = match self.carrier.create(request).await {
            Ok(response) => response,
            Err(error) => {
                self.lock().abandon(&id);
                return Err(error);
            }
        };
        let outcome = self.lock().url_outcome(pending, &response);
        match outcome {
            Ok(UrlOutcome::UnknownAction(other)) => {
                self.lock().abandon(&id);
                Ok(UrlOutcome::UnknownAction(other))
            }
            Ok(outcome) => Ok(outcome),
            Err(error) => Err(ElicitError::Url(error)),
        }
    }

    /// Completes `id` and tells the client with `elicitation/complete`,
    /// once: refused, and nothing sent, when `id` is not outstanding,
    /// already completed, or bound to another user than `completed_by`.
    pub(crate) async fn complete(
        &self,
        id: &ElicitationId,
        completed_by: Option<&VerifiedUser>,
    ) -> Result<(), ElicitError> {
        let notification = self
            .lock()
            .complete(id, completed_by)
            .map_err(ElicitError::Completion)?;
        self.carrier.complete(notification).await
    }
}

/// The connection's state. Nothing panics while the lock is held (the
/// connection's methods are plain bookkeeping), so a poisoned lock still
/// holds a consistent state.
pub(crate) fn lock(state: &Mutex<AgentConnection>) -> MutexGuard<'_, AgentConnection> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}
