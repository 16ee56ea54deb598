//! [`Rounds`], the handle a request's closure asks through, and
//! [`FormAsk`], a form asked under a key: each question dispatched to the
//! regime of the call (requests through the flow engine, input-required
//! rounds, a call without a session, a task).

use std::fmt;
use std::future::IntoFuture;
use std::sync::{Arc, Mutex};

use super::super::carrier::no_scope;
use super::input::{self, InputRound};
#[cfg(feature = "sensitive")]
use super::sessionless;
use super::sessionless::Sessionless;
use super::task::Requests;
use crate::Elicit;
use crate::flow::retry::Retry;
use crate::flow::{
    Check, ElicitError, Flows, FormAsked, checker, outcome_event, url_outcome_event,
};
use crate::protocol::Mode;
use crate::protocol::agent::{AgentConnection, Outcome, UrlOutcome, UrlRequest};
use crate::sync::lock;

/// What the tool's closure asks through, in one call: a cheap handle
/// (clones share the call), made by [`Ask::run`](super::Ask::run).
///
/// Each question is awaited where it is asked, and gives `Some(answer)`
/// once there is one; `None` means it was asked in a round that ends this
/// call (MCP 2026-07-28, or `-32042` on a 2025-11-25 call without a
/// session): the closure then returns `None`, which `?` does. On a
/// 2025-11-25 call with a session every question is answered in the call
/// (`elicitation/create`, the flow engine's re-ask, page and completion),
/// so it never gives `None`.
#[derive(Clone)]
pub struct Rounds {
    pub(super) call: Arc<Call>,
}

/// One call: who it is from, and its protocol regime.
pub(super) struct Call {
    /// Who the request is from ([`RoundsConfig::principal`](super::RoundsConfig::principal); `None`: no
    /// one), as the user a page is for.
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    principal: Option<crate::protocol::agent::VerifiedUser>,
    pub(super) regime: Regime,
    /// The tool's arguments, as the model gave them ([`Rounds::arguments`]).
    pub(super) arguments: Option<crate::Content>,
}

/// How this call asks.
pub(super) enum Regime {
    /// Requests, through the flow engine: `elicitation/create` on an MCP
    /// 2025-11-25 session, or a task's input requests (SEP-2663).
    Requests {
        via: Requests,
        connection: Mutex<AgentConnection>,
    },
    /// MCP 2026-07-28: input-required rounds.
    Input(Mutex<InputRound>),
    /// MCP 2025-11-25 without a session: `-32042`.
    Sessionless(Mutex<Sessionless>),
}

impl fmt::Debug for Rounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let regime = match &self.call.regime {
            Regime::Requests {
                via: Requests::Session(_),
                ..
            } => "requests",
            Regime::Requests {
                via: Requests::Task { .. },
                ..
            } => "in a task",
            Regime::Input(_) => "input-required rounds",
            Regime::Sessionless(_) => "without a session",
        };
        f.debug_struct("Rounds")
            .field("regime", &regime)
            .finish_non_exhaustive()
    }
}

impl Rounds {
    pub(super) fn new(
        principal: String,
        regime: Regime,
        arguments: Option<crate::Content>,
    ) -> Self {
        Self {
            call: Arc::new(Call {
                principal: (!principal.is_empty())
                    .then(|| crate::protocol::agent::VerifiedUser::new(principal)),
                regime,
                arguments,
            }),
        }
    }

    /// Whether this request's client accepts elicitation `mode`, by MCP's
    /// rule (on 2026-07-28 the capabilities come with each request): what
    /// every question is checked against.
    pub fn supports(&self, mode: Mode) -> bool {
        match &self.call.regime {
            Regime::Requests { connection, .. } => lock(connection).supports(mode),
            Regime::Input(round) => lock(round).connection.supports(mode),
            Regime::Sessionless(call) => lock(call).connection.supports(mode),
        }
    }

    /// The form `T` under `key` (one key per question of the tool), sent
    /// when awaited: `Some` with its typed answer (every rule checked
    /// again), or `None` once it is asked in a round that ends this call.
    /// With [`retry(n)`](FormAsk::retry), an invalid answer is asked again
    /// with the errors in the message, `n` more times at most (in the call
    /// on 2025-11-25, in the next rounds on 2026-07-28). Refused without
    /// asking when the client has no form mode or the form cannot be sent.
    pub fn form<'r, T: Elicit + Send + 'r>(
        &'r self,
        key: &str,
        message: impl Into<String>,
    ) -> FormAsk<'r, T> {
        FormAsk::new(key, message.into(), move |key, ask| {
            Box::pin(async move { self.form_asked(&key, ask).await })
        })
    }

    /// [`form`](Self::form), once awaited: `ask` in this call's regime.
    pub(super) async fn form_asked<T: Elicit + Send>(
        &self,
        key: &str,
        ask: FormAsked<'_, T>,
    ) -> Option<Result<Outcome<T>, ElicitError>> {
        match &self.call.regime {
            Regime::Requests { via, connection } => Some(
                Flows::new(connection, &via.carrier(key))
                    .form::<T>(no_scope(), ask)
                    .await,
            ),
            Regime::Input(round) => traced(input::form(round, key, ask).await, outcome_event::<T>),
            Regime::Sessionless(_) => traced(
                Some(Err(ElicitError::NotSent(
                    crate::protocol::agent::SendError::NoSession,
                ))),
                outcome_event::<T>,
            ),
        }
    }

    /// The URL request under `key` (URL mode): `Some` with the user's
    /// answer, or `None` once it is asked in a round that ends this call.
    /// `Consented` only means the user agreed to open the URL: the
    /// interaction is done when your own out-of-band callback says so. The
    /// `elicitationId` is the request's, or else `key`. Refused without
    /// asking when the client has no URL mode, the URL fails `check_url`,
    /// or the id is empty.
    pub async fn url(
        &self,
        key: &str,
        request: UrlRequest,
    ) -> Option<Result<UrlOutcome, ElicitError>> {
        let request = match request.id() {
            Some(_) => request,
            None => request.elicitation_id(key),
        };
        match &self.call.regime {
            Regime::Requests { via, connection } => Some(
                Flows::new(connection, &via.carrier(key))
                    .url(no_scope(), request)
                    .await,
            ),
            Regime::Input(round) => traced(lock(round).url(key, request), url_outcome_event),
            Regime::Sessionless(_) => traced(
                Some(Err(ElicitError::NotSent(
                    crate::protocol::agent::SendError::NoSession,
                ))),
                url_outcome_event,
            ),
        }
    }

    /// The sensitive form `T` under `key`, on a page `pages` serve (feature
    /// `sensitive`): `Some` with its checked value or how it ended, or
    /// `None` once it is asked in a round that ends this call. URL mode or
    /// nothing: a client without it gets
    /// `SendError::SensitiveInputNeedsUrlMode`, and no page is opened. On
    /// pages that verify users, the page is for this request's user
    /// ([`RoundsConfig::principal`](super::RoundsConfig::principal)).
    ///
    /// - On 2025-11-25 with a session: the flow engine's secret page, as
    ///   `Elicitor::elicit_secret` runs it: the URL asked, the page awaited
    ///   after a consent, and `notifications/elicitation/complete` sent once
    ///   it is submitted.
    /// - On 2026-07-28 the first round opens the page and asks its URL. The
    ///   client calls back after the consent, usually before the page is
    ///   submitted: the URL is then asked again, with "When you have
    ///   submitted the page, accept this to continue", until the page has
    ///   its answer. A decline or a cancel closes the page. The secret never
    ///   travels in `requestState` (only the page's id does), and it is read
    ///   once: ask a sensitive form in the last round.
    /// - On 2025-11-25 without a session ([`RoundsConfig::without_sessions`](super::RoundsConfig::without_sessions)):
    ///   the page is listed in `-32042` until it has ended.
    ///
    /// With [`retry(n)`](FormAsk::retry) and [`check`](FormAsk::check), a
    /// refused answer (by the form's own rules, or by the check) is asked
    /// again on a new page, which shows the errors on their fields, as
    /// [`PageCall::check`](crate::flow::PageCall::check) does: in the call
    /// on 2025-11-25, in the next round on 2026-07-28 (the attempts counted
    /// in the sealed state); without a session, in the `-32042` that ends
    /// this call (at most 8 pages, named by the call, the key and the
    /// attempt, so the client's retry finds the attempt it is at).
    #[cfg(feature = "sensitive")]
    pub fn secret<'r, T: crate::sensitive::SensitiveForm + Send + 'r>(
        &'r self,
        key: &str,
        message: impl Into<String>,
        pages: &'r crate::sensitive::Pages,
    ) -> FormAsk<'r, T, crate::sensitive::SecretOutcome<T>> {
        FormAsk::new(key, message.into(), move |key, ask| {
            Box::pin(async move { self.secret_asked(&key, ask, pages).await })
        })
    }

    /// [`secret`](Self::secret), once awaited.
    #[cfg(feature = "sensitive")]
    async fn secret_asked<'r, T: crate::sensitive::SensitiveForm + Send + 'r>(
        &'r self,
        key: &str,
        ask: FormAsked<'r, T>,
        pages: &crate::sensitive::Pages,
    ) -> Option<Result<crate::sensitive::SecretOutcome<T>, ElicitError>> {
        let FormAsked {
            message,
            retry,
            check,
            partial: _,
        } = ask;
        let check = check.map(crate::flow::secret_checker);
        // Pages that verify users serve it to this request's user only (no
        // principal: refused, `OpenError::UserRequired`).
        let user = (self.call.principal.as_ref()).filter(|_| pages.verifies_users());
        let ask = crate::flow::PageAsked { user, retry, check };
        match &self.call.regime {
            Regime::Requests { via, connection } => Some(
                Flows::new(connection, &via.carrier(key))
                    .secret(no_scope(), message, pages, ask)
                    .await,
            ),
            Regime::Input(round) => traced(
                input::secret(round, key, input::SecretAsked::new(message, &ask), pages).await,
                crate::flow::page::PageOutcome::trace,
            ),
            Regime::Sessionless(call) => traced(
                sessionless::secret(call, key, input::SecretAsked::new(message, &ask), pages).await,
                crate::flow::page::PageOutcome::trace,
            ),
        }
    }
}

/// `answer` once its event is emitted (the regimes that do not run the
/// flow engine, which emits its own): how it ended (`event`), or the
/// error's reason; nothing while it is asked.
fn traced<O>(
    answer: Option<Result<O, ElicitError>>,
    event: impl FnOnce(&O) -> &'static str,
) -> Option<Result<O, ElicitError>> {
    let outcome = match &answer {
        Some(Ok(outcome)) => event(outcome),
        Some(Err(error)) => {
            error.trace();
            "failed"
        }
        None => return answer,
    };
    flow_ended!(outcome);
    answer
}

/// A form asked under a key, sent when awaited: [`Rounds::form`] (`O` is
/// [`Outcome<T>`]), and, with feature `sensitive`, a sensitive form on a
/// page, [`Rounds::secret`] (`O` is
/// [`SecretOutcome<T>`](crate::sensitive::SecretOutcome)).
#[must_use = "nothing is asked until the form is awaited"]
pub struct FormAsk<'r, T, O = Outcome<T>> {
    key: String,
    ask: FormAsked<'r, T>,
    run: AskRun<'r, T, O>,
}

/// What a [`FormAsk`] runs once awaited, given its key and options.
type AskRun<'r, T, O> = Box<
    dyn FnOnce(
            String,
            FormAsked<'r, T>,
        ) -> crate::flow::BoxFuture<'r, Option<Result<O, ElicitError>>>
        + Send
        + 'r,
>;

impl<T, O> fmt::Debug for FormAsk<'_, T, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormAsk")
            .field("key", &self.key)
            .field("retry", &self.ask.retry)
            .field("check", &self.ask.check.is_some())
            .finish_non_exhaustive()
    }
}

impl<'r, T, O> FormAsk<'r, T, O> {
    /// A question under `key` that runs `run(key, ask)` when awaited.
    pub(super) fn new(
        key: &str,
        message: String,
        run: impl FnOnce(
            String,
            FormAsked<'r, T>,
        ) -> crate::flow::BoxFuture<'r, Option<Result<O, ElicitError>>>
        + Send
        + 'r,
    ) -> Self {
        Self {
            key: key.to_owned(),
            ask: FormAsked::new(message),
            run: Box::new(run),
        }
    }

    /// Asks again, up to `again` more times, when the answer breaks the
    /// form's rules, with the errors in the message (the policy of every
    /// transport: [`FormCall::retry`](crate::flow::FormCall::retry); for a
    /// secret page, each attempt a new page showing the errors:
    /// [`PageCall::retry`](crate::flow::PageCall::retry)).
    pub fn retry(mut self, again: u32) -> Self {
        self.ask.retry = Retry::times(again);
        self
    }

    /// Runs `check`, a rule of your own, on each answer that passed the
    /// form's rules; what it refuses is asked again within the same
    /// [`retry`](Self::retry), and an error of its own ends the question
    /// with [`ElicitError::Check`]: the policy of every transport
    /// ([`FormCall::check`](crate::flow::FormCall::check), which shows the
    /// shape). On 2026-07-28 it runs in the call that brings the answer
    /// (between rounds), once: an answer it accepted is kept, sealed in
    /// the round's state, and not checked again by later rounds (a secret
    /// page's answer is read once, and never sealed).
    pub fn check<C>(mut self, check: C) -> Self
    where
        T: Send + Sync + 'r,
        C: for<'f> Check<'f, T> + 'r,
    {
        self.ask.check = Some(checker(check));
        self
    }
}

impl<'r, T, O> IntoFuture for FormAsk<'r, T, O> {
    type Output = Option<Result<O, ElicitError>>;
    type IntoFuture = crate::flow::BoxFuture<'r, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        (self.run)(self.key, self.ask)
    }
}
