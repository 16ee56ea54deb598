//! The engine: the seam a transport implements ([`Carrier`]), the re-ask
//! policy ([`after_answer`]) and the flows of one connection ([`Flows`]).

use std::future::Future;
use std::sync::{Mutex, MutexGuard};

use super::ElicitError;
use super::check::FormAsked;
use crate::Elicit;
use crate::error::ContentError;
use crate::fingerprint::Fingerprint;
use crate::flow::retry::Retry;
use crate::protocol::agent::{AgentConnection, Outcome, UrlOutcome, UrlRequest, VerifiedUser};
use crate::protocol::{
    CompleteElicitationNotification, CreateElicitationRequest, CreateElicitationResponse,
    ElicitationAction, ElicitationId, ElicitationScope,
};

/// What a transport does for the flows: one request, one notification.
pub(crate) trait Carrier: Sync {
    /// The transport's name in a flow's span (`acp`, `mcp`).
    const TRANSPORT: &'static str;

    /// The protocol version the peer negotiated, for a flow's span (empty
    /// when the transport does not say).
    fn protocol_version(&self) -> String {
        String::new()
    }

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

/// What to do after a form's (or a secret page's) answer was read: the
/// policy of [`Retry`], once for every transport.
pub(crate) enum AfterAnswer<O> {
    /// The user's answer: done.
    Done(O),
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
/// the message ([`ContentError::retry_message`]) while attempts are left; a decline or a
/// cancel is an answer, returned at once. `attempts` counts the forms sent,
/// this one included.
pub(crate) fn after_answer<O>(
    read: Result<O, ContentError>,
    original_message: &str,
    attempts: u32,
    retry: Retry,
) -> AfterAnswer<O> {
    match read {
        Ok(outcome) => AfterAnswer::Done(outcome),
        Err(errors) if attempts > retry.again() => AfterAnswer::GiveUp { errors, attempts },
        Err(errors) => AfterAnswer::AskAgain(errors.retry_message(original_message)),
    }
}

/// The flows of one connection: its state and its transport.
pub(crate) struct Flows<'a, C> {
    pub(super) state: &'a Mutex<AgentConnection>,
    pub(super) carrier: &'a C,
}

impl<'a, C: Carrier> Flows<'a, C> {
    /// The flows of the connection whose state is `state`, carried by
    /// `carrier`.
    pub(crate) fn new(state: &'a Mutex<AgentConnection>, carrier: &'a C) -> Self {
        Self { state, carrier }
    }

    pub(super) fn lock(&self) -> MutexGuard<'a, AgentConnection> {
        crate::sync::lock(self.state)
    }

    /// The form `T`, asked again (up to `ask.retry`) while its answer
    /// breaks the form's rules or the call's check.
    pub(crate) async fn form<T: Elicit>(
        &self,
        scope: ElicitationScope,
        ask: FormAsked<'_, T>,
    ) -> Result<Outcome<T>, ElicitError> {
        let span = span!(
            "flow",
            transport = C::TRANSPORT,
            protocol_version = self.carrier.protocol_version(),
            flow = "form",
            mode = "form",
            form = std::any::type_name::<T>()
        );
        let asked = self.form_attempts::<T>(scope, ask);
        in_flow(span, asked, outcome_event).await
    }

    /// [`form`](Self::form)'s attempts, in its span.
    async fn form_attempts<T: Elicit>(
        &self,
        scope: ElicitationScope,
        ask: FormAsked<'_, T>,
    ) -> Result<Outcome<T>, ElicitError> {
        let FormAsked {
            message,
            retry,
            check,
            mut partial,
        } = ask;
        let mut next = message.clone();
        let mut attempts: u32 = 0;
        loop {
            attempts = attempts.saturating_add(1);
            let built = match &partial {
                None => self.lock().form::<T>(scope.clone(), next),
                Some(partial) => {
                    self.lock()
                        .form_narrowed::<T>(scope.clone(), next, partial.schema())
                }
            };
            let (request, pending) = built.map_err(ElicitError::NotSent)?;
            note!("elicitation/create sent", mode = "form", attempt = attempts);
            let response = self.carrier.create(request).await?;
            note!("answer received", action = action_name(&response.action));
            let read = match &partial {
                None => pending.outcome(&response),
                Some(partial) => pending.outcome(&partial.merged(&response)),
            };
            let read = match &check {
                Some(check) => check(read).await?,
                None => read,
            };
            // A merged answer refused for a value kept from the model: that
            // field is asked too.
            if let (Some(partial), Err(errors)) = (&mut partial, &read) {
                partial.widen::<T>(errors);
            }
            match after_answer(read, &message, attempts, retry) {
                AfterAnswer::Done(outcome) => return Ok(outcome),
                AfterAnswer::AskAgain(message) => {
                    note!("answer invalid: asked again", attempt = attempts);
                    next = message;
                }
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
        let span = span!(
            "flow",
            transport = C::TRANSPORT,
            protocol_version = self.carrier.protocol_version(),
            flow = "url",
            mode = "url",
            elicitation_id = Fingerprint(request.id().map_or("", |id| id.as_str()))
        );
        in_flow(span, self.url_request(scope, request), url_outcome_event).await
    }

    /// [`url`](Self::url) without its span and events: a step of a page's
    /// flow, which has its own.
    pub(super) async fn url_request(
        &self,
        scope: ElicitationScope,
        request: UrlRequest,
    ) -> Result<UrlOutcome, ElicitError> {
        let built = self.lock().url(scope, request);
        let (request, pending) = built.map_err(ElicitError::NotSent)?;
        let id = pending.id().clone();
        note!("elicitation/create sent", mode = "url");
        let response = match self.carrier.create(request).await {
            Ok(response) => response,
            Err(error) => {
                self.lock().abandon(&id);
                return Err(error);
            }
        };
        note!("answer received", action = action_name(&response.action));
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
        let result = self.complete_id(id, completed_by).await;
        if let Err(error) = &result {
            error.trace();
        }
        result
    }

    /// [`complete`](Self::complete) without its event: a step of a page's
    /// flow, which has its own.
    pub(super) async fn complete_id(
        &self,
        id: &ElicitationId,
        completed_by: Option<&VerifiedUser>,
    ) -> Result<(), ElicitError> {
        let notification = self
            .lock()
            .complete(id, completed_by)
            .map_err(ElicitError::Completion)?;
        note!(
            "elicitation/complete sent",
            elicitation_id = Fingerprint(id)
        );
        self.carrier.complete(notification).await
    }
}

/// The event of a form's answer: a decline or a cancel (`INFO`), an
/// unknown action (a cancel); an accept is a `DEBUG` note.
/// `asked`, a flow, run in its `span`, and how it ended traced: `ended`
/// for an answer, the error's reason otherwise. Every flow of the engine
/// (a form, a URL, a page) goes through it.
pub(crate) async fn in_flow<O>(
    span: crate::traced::Span,
    asked: impl std::future::Future<Output = Result<O, ElicitError>>,
    ended: impl Fn(&O) -> &'static str,
) -> Result<O, ElicitError> {
    let asked = async {
        let began = std::time::Instant::now();
        let result = asked.await;
        let outcome = match &result {
            Ok(outcome) => ended(outcome),
            Err(error) => {
                error.trace();
                "failed"
            }
        };
        flow_ended!(outcome, began.elapsed());
        result
    };
    in_span!(span, asked).await
}

pub(crate) fn outcome_event<T>(outcome: &Outcome<T>) -> &'static str {
    match outcome {
        Outcome::Accepted(_) => {
            note!("accepted");
            "accepted"
        }
        Outcome::Declined => {
            refused!(Declined);
            "declined"
        }
        Outcome::Cancelled | Outcome::UnknownAction(_) => {
            refused!(Cancelled);
            "cancelled"
        }
    }
}

/// The event of a URL request's answer, as [`outcome_event`]'s.
pub(crate) fn url_outcome_event(outcome: &UrlOutcome) -> &'static str {
    match outcome {
        UrlOutcome::Consented(_) => {
            note!("consented");
            "consented"
        }
        UrlOutcome::Declined => {
            refused!(Declined);
            "declined"
        }
        UrlOutcome::Cancelled | UrlOutcome::UnknownAction(_) => {
            refused!(Cancelled);
            "cancelled"
        }
    }
}

/// An answer's action, as the wire names it (another action: `other`,
/// its text is the client's).
pub(crate) fn action_name(action: &ElicitationAction) -> &'static str {
    match action {
        ElicitationAction::Accept { .. } => "accept",
        ElicitationAction::Decline => "decline",
        ElicitationAction::Cancel => "cancel",
        ElicitationAction::Other(_) => "other",
    }
}
