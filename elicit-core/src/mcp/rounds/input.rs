//! MCP 2026-07-28's input-required rounds (SEP-2322): each round's
//! questions go back as the tool's result, under their keys, with the
//! call's state sealed in `requestState`; the client calls again with the
//! answers. The re-ask policy and the page's pieces are the flow engine's.

use std::collections::BTreeMap;

use ::rmcp::model::{
    self, ClientCapabilities, ErrorData, InputRequest, InputRequests, InputRequiredResult,
};
use serde_json::Value;

use super::super::carrier::url_params;
use super::super::carrier::{elicitation_capabilities, no_scope};
use super::super::wire::{params_of, response_of};
use super::call::{Asked, asked_nothing};
use super::config::RoundsConfig;
use super::request::{RoundRequest, RoundResponse};
use super::state::State;
use crate::ContentError;
use crate::Elicit;
use crate::flow::partial::Partial;
use crate::flow::retry::Retry;
use crate::flow::{AfterAnswer, ElicitError, FormAsked, after_answer};
use crate::protocol::agent::{AgentConnection, Outcome, PendingUrl, UrlOutcome, UrlRequest};

/// One call's round: the modes this request's client accepts, the answers
/// it brought, the state it carried, and what this round asks.
pub(super) struct InputRound {
    /// This call's connection: the modes this request's client accepts, and
    /// the checks and ids of what it asks (the same rules as every
    /// transport's).
    pub(super) connection: AgentConnection,
    /// This round's answers, per key.
    responses: BTreeMap<String, Value>,
    state: State,
    asks: InputRequests,
}

impl Default for InputRound {
    fn default() -> Self {
        Self {
            connection: AgentConnection::new(None),
            responses: BTreeMap::new(),
            state: State::new(),
            asks: InputRequests::new(),
        }
    }
}

impl InputRound {
    /// The round of `request`, whose state (opened, or new) is `state`.
    /// Only the answers to what the last round asked are read. Without a
    /// state (the first round), the answers are read as answers to the
    /// first round's questions: those depend only on the arguments, and
    /// every answer is checked like any other.
    pub(super) fn new(
        capabilities: Option<&ClientCapabilities>,
        state: State,
        request: &RoundRequest,
    ) -> Self {
        let first = request.request_state.is_none();
        let responses = request
            .input_responses
            .iter()
            .flatten()
            .filter(|(key, _)| first || state.asked.contains(*key))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        Self {
            connection: AgentConnection::new(elicitation_capabilities(capabilities)),
            responses,
            state,
            asks: InputRequests::new(),
        }
    }

    /// The answer to the form `T` under `key`, read (the field rules and
    /// the form's own check): `None` once it is asked (none yet).
    fn read_form<T: Elicit>(
        &mut self,
        key: &str,
        message: &str,
        partial: Option<&Partial>,
    ) -> Option<Result<FormRead<T>, ElicitError>> {
        let (params, pending) = match self.form_params::<T>(message.to_owned(), partial) {
            Ok(built) => built,
            Err(error) => return Some(Err(error)),
        };
        let attempts = self.state.attempts.get(key).copied().unwrap_or(1);
        let Some((raw, result, fresh)) = self.answer_or_ask(key, params) else {
            note!("form asked", attempt = attempts);
            self.state.attempts.insert(key.to_owned(), attempts);
            return None;
        };
        let response = match response_of(&result) {
            Ok(response) => response,
            Err(error) => return Some(Err(ElicitError::Unreadable(error))),
        };
        let read = match partial {
            None => pending.outcome(&response),
            Some(partial) => pending.outcome(&partial.merged(&response)),
        };
        Some(Ok(FormRead {
            read,
            raw,
            attempts,
            fresh,
        }))
    }

    /// The form `T` under `key` once its answer is read and checked: the
    /// re-ask policy of every transport (here the next attempt is the next
    /// round), `None` once it is asked again.
    fn settle_form<T: Elicit>(
        &mut self,
        key: &str,
        message: &str,
        retry: Retry,
        answer: FormRead<T>,
        mut partial: Option<Partial>,
    ) -> Option<Result<Outcome<T>, ElicitError>> {
        let FormRead {
            read,
            raw,
            attempts,
            ..
        } = answer;
        // A merged answer refused for a value kept from the model: that
        // field is asked too, from the next round on (the state says so).
        if let (Some(partial), Err(errors)) = (&mut partial, &read)
            && partial.widen::<T>(errors)
        {
            self.state
                .fields
                .insert(key.to_owned(), partial.fields().to_vec());
        }
        match after_answer(read, message, attempts, retry) {
            AfterAnswer::Done(answer) => {
                self.state.answers.insert(key.to_owned(), raw);
                Some(Ok(answer))
            }
            AfterAnswer::GiveUp { errors, attempts } => {
                self.state.answers.remove(key);
                Some(Err(ElicitError::Invalid { errors, attempts }))
            }
            AfterAnswer::AskAgain(next) => {
                note!("answer invalid: asked again", attempt = attempts);
                self.state.answers.remove(key);
                self.state.attempts.insert(key.to_owned(), attempts + 1);
                match self.form_params::<T>(next, partial.as_ref()) {
                    Ok((params, _)) => self.ask(key, params),
                    Err(error) => return Some(Err(error)),
                }
                None
            }
        }
    }

    /// The URL request under `key`: the user's answer, or `None` once it is
    /// asked.
    pub(super) fn url(
        &mut self,
        key: &str,
        request: UrlRequest,
    ) -> Option<Result<UrlOutcome, ElicitError>> {
        let (params, pending) = match url_params(&mut self.connection, request) {
            Ok(built) => built,
            Err(error) => return Some(Err(error)),
        };
        let (raw, result, _) = self.answer_or_ask(key, params)?;
        self.state.answers.insert(key.to_owned(), raw);
        Some(self.url_answer(pending, &result))
    }

    /// The client's answer under `key` (this round's, or one an earlier
    /// round kept), raw and read, and whether it is this round's (fresh:
    /// not yet past the call's check); otherwise (none, or not an answer at
    /// all: a client bug, or a forged one) `params` is asked under `key`,
    /// and `None`.
    fn answer_or_ask(
        &mut self,
        key: &str,
        params: model::ElicitRequestParams,
    ) -> Option<(Value, model::ElicitResult, bool)> {
        let found = match self.responses.remove(key) {
            Some(raw) => Some((raw, true)),
            None => self.state.answers.get(key).cloned().map(|raw| (raw, false)),
        };
        let read = found.and_then(|(raw, fresh)| {
            let result = serde_json::from_value::<model::ElicitResult>(raw.clone()).ok()?;
            Some((raw, result, fresh))
        });
        if read.is_none() {
            self.state.answers.remove(key);
            self.ask(key, params);
        }
        read
    }

    /// The form `T` as this call's connection sends it: refused, as on
    /// every transport, when the client has no form mode or the form cannot
    /// be sent (or MCP cannot carry it).
    fn form_params<T: Elicit>(
        &mut self,
        message: String,
        partial: Option<&Partial>,
    ) -> Result<
        (
            model::ElicitRequestParams,
            crate::protocol::agent::PendingForm<T>,
        ),
        ElicitError,
    > {
        let built = match partial {
            None => self.connection.form::<T>(no_scope(), message),
            Some(partial) => {
                self.connection
                    .form_narrowed::<T>(no_scope(), message, partial.schema())
            }
        };
        let (request, pending) = built.map_err(ElicitError::NotSent)?;
        Ok((params_of(request)?, pending))
    }

    /// The client's answer to the URL request `pending`.
    fn url_answer(
        &mut self,
        pending: PendingUrl,
        result: &model::ElicitResult,
    ) -> Result<UrlOutcome, ElicitError> {
        let response = response_of(result).map_err(ElicitError::Unreadable)?;
        self.connection
            .url_outcome(pending, &response)
            .map_err(ElicitError::Url)
    }

    fn ask(&mut self, key: &str, params: model::ElicitRequestParams) {
        self.asks.insert(
            key.to_owned(),
            InputRequest::Elicitation(model::ElicitRequest::new(params)),
        );
    }

    /// The response that ends this call: the round's questions under their
    /// keys with the state sealed (bound to `bound`), or, past the cap,
    /// the method's end ([`RoundResponse::out_of_rounds`]).
    pub(super) fn respond<T, R: RoundResponse>(
        mut self,
        config: &RoundsConfig,
        bound: &[u8],
    ) -> Result<Asked<T, R>, ErrorData> {
        if self.asks.is_empty() {
            refused!(Internal, step = "asked nothing");
            return Err(asked_nothing());
        }
        if self.state.round >= config.max_rounds {
            refused!(MaxRounds, max = config.max_rounds);
            return R::out_of_rounds(config.max_rounds).map(Asked::Respond);
        }
        self.state.round += 1;
        self.state.asked = self.asks.keys().cloned().collect();
        note!(
            "round asked",
            round = self.state.round,
            questions = self.asks.len()
        );
        let sealed = self.state.seal(&config.codec, bound, config.ttl)?;
        Ok(Asked::Respond(
            InputRequiredResult::new(Some(self.asks), Some(sealed)).into(),
        ))
    }
}

/// An answer to a form, read: what the call's check decides on.
struct FormRead<T> {
    /// The answer, read (the field rules, the form's own check).
    read: Result<Outcome<T>, ContentError>,
    /// The client's answer as it came, kept in the state once accepted.
    raw: Value,
    /// Which attempt it answers.
    attempts: u32,
    /// This round's answer (not one the state kept: those passed the
    /// call's check when they came).
    fresh: bool,
}

/// The form `T` under `key` in a round: its answer read under the lock,
/// checked by the call's check without it (a fresh answer only), then
/// settled by the re-ask policy; `None` once it is asked.
pub(super) async fn form<T: Elicit + Send>(
    round: &std::sync::Mutex<InputRound>,
    key: &str,
    ask: FormAsked<'_, T>,
) -> Option<Result<Outcome<T>, ElicitError>> {
    let FormAsked {
        message,
        retry,
        check,
        partial,
    } = ask;
    // A partial form widened in an earlier round asks those fields again.
    let partial = partial.map(|mut partial| {
        if let Some(fields) = crate::sync::lock(round).state.fields.get(key) {
            partial.ask_too::<T>(fields);
        }
        partial
    });
    let answer = crate::sync::lock(round).read_form::<T>(key, &message, partial.as_ref())?;
    let FormRead {
        read,
        raw,
        attempts,
        fresh,
    } = match answer {
        Ok(answer) => answer,
        Err(error) => return Some(Err(error)),
    };
    let read = match &check {
        Some(check) if fresh => match check(read).await {
            Ok(read) => read,
            Err(error) => return Some(Err(error)),
        },
        _ => read,
    };
    let answer = FormRead {
        read,
        raw,
        attempts,
        fresh,
    };
    crate::sync::lock(round).settle_form(key, &message, retry, answer, partial)
}

/// What a round asks of a sensitive form: its message, the user its page
/// is for, and the options of [`FormAsk`](super::FormAsk).
#[cfg(feature = "sensitive")]
pub(super) struct SecretAsked<'a, 'c, T> {
    pub(super) message: String,
    pub(super) user: Option<&'a crate::protocol::agent::VerifiedUser>,
    pub(super) retry: Retry,
    pub(super) check: Option<&'a crate::flow::SecretChecker<'c, T>>,
}

#[cfg(feature = "sensitive")]
impl<'a, 'c, T> SecretAsked<'a, 'c, T> {
    /// What a round asks: `message`, and the page's options as the flow
    /// engine has them (which a round borrows: it may run again).
    pub(super) fn new(
        message: String,
        page: &'a crate::flow::PageAsked<'c, crate::sensitive::SecretOutcome<T>>,
    ) -> Self {
        Self {
            message,
            user: page.user,
            retry: page.retry,
            check: page.check.as_ref(),
        }
    }
}

/// The sensitive form `T` under `key` in a round (see
/// [`Rounds::secret`](super::Rounds::secret)): the first round opens the
/// page and asks its URL; later rounds read the page first, then the
/// client's answer to the URL: a decline or a cancel closes the page, a
/// consent before the page was submitted is asked again. A page's answer
/// refused (the form's own rules, or the call's check), with attempts
/// left, is forgotten, and a new page showing the errors is opened and its
/// URL asked in this round (the attempts counted in the sealed state). The
/// lock is never held across the store's calls.
#[cfg(feature = "sensitive")]
pub(super) async fn secret<T: crate::sensitive::SensitiveForm + Send>(
    round: &std::sync::Mutex<InputRound>,
    key: &str,
    asked: SecretAsked<'_, '_, T>,
    pages: &crate::sensitive::Pages,
) -> Option<Result<crate::sensitive::SecretOutcome<T>, ElicitError>> {
    use crate::flow::page::{PageOutcome, checked_answer, page_request};
    use crate::sensitive::SecretOutcome;

    use crate::sync::lock;

    let SecretAsked {
        message,
        user,
        retry,
        check,
    } = asked;
    let known = lock(round).state.pages.get(key).copied();
    let Some(id) = known else {
        let page = OpenPage {
            message: message.clone(),
            errors: None,
            user,
        };
        return page.ask::<T>(round, key, message, pages).await;
    };
    let attempts = lock(round).state.attempts.get(key).copied().unwrap_or(1);
    // The page first: an answer there settles it, or is asked again.
    if let Some(end) = super::pages::read(pages, id).await.answer::<T>() {
        lock(round).state.pages.remove(key);
        let read = match checked_answer(end, check).await {
            Ok(read) => read,
            Err(error) => {
                super::pages::forget(pages, id).await;
                return Some(Err(error));
            }
        };
        // A refused answer is dropped; its page's record, which holds its
        // end, is forgotten.
        let errors = read.as_ref().err().cloned();
        if errors.is_some() {
            super::pages::forget(pages, id).await;
        }
        return match after_answer(read, &message, attempts, retry) {
            AfterAnswer::Done(outcome) => {
                lock(round).state.attempts.remove(key);
                Some(Ok(outcome))
            }
            AfterAnswer::GiveUp { errors, attempts } => {
                lock(round).state.attempts.remove(key);
                Some(Err(ElicitError::Invalid { errors, attempts }))
            }
            AfterAnswer::AskAgain(next) => {
                note!(
                    "answer refused: asked again on a new page",
                    attempt = attempts
                );
                lock(round)
                    .state
                    .attempts
                    .insert(key.to_owned(), attempts.saturating_add(1));
                let page = OpenPage {
                    message,
                    errors: errors.as_ref(),
                    user,
                };
                page.ask::<T>(round, key, next, pages).await
            }
        };
    }
    // A page that asks again: its URL is asked with the errors, as it was.
    let message = match attempts {
        1 => message,
        _ => match super::pages::errors_of(pages, id).await {
            Some(errors) => errors.retry_message(&message),
            None => message,
        },
    };
    let ended = {
        let mut round = lock(round);
        let answer = round
            .responses
            .remove(key)
            .and_then(|raw| serde_json::from_value::<model::ElicitResult>(raw).ok());
        let message = if answer.is_some() {
            format!("{message}\n\nWhen you have submitted the page, accept this to continue.")
        } else {
            message
        };
        let (_, request) = page_request(id, &super::pages::url_of(pages, id), message, user);
        let (params, pending) = match url_params(&mut round.connection, request) {
            Ok(built) => built,
            Err(error) => return Some(Err(error)),
        };
        // Asked again, unless the last round's answer ended it.
        let ended = answer
            .and_then(|result| round.url_answer(pending, &result).ok())
            .and_then(|outcome| SecretOutcome::<T>::unless_consented(&outcome));
        match ended {
            Some(_) => {
                round.state.pages.remove(key);
            }
            None => round.ask(key, params),
        }
        ended
    }?;
    super::pages::cancel(pages, id).await;
    Some(Ok(ended))
}

/// A page a round opens: its message, the errors it shows (when it asks
/// again), the user it is for.
#[cfg(feature = "sensitive")]
struct OpenPage<'a> {
    message: String,
    errors: Option<&'a ContentError>,
    user: Option<&'a crate::protocol::agent::VerifiedUser>,
}

#[cfg(feature = "sensitive")]
impl OpenPage<'_> {
    /// Opens the page of `T` and asks its URL under `key` in this round,
    /// with `request_message`: `None` once asked (or an error, and nothing
    /// asked: the page closes as it is dropped).
    async fn ask<T: crate::sensitive::SensitiveForm + Send>(
        self,
        round: &std::sync::Mutex<InputRound>,
        key: &str,
        request_message: String,
        pages: &crate::sensitive::Pages,
    ) -> Option<Result<crate::sensitive::SecretOutcome<T>, ElicitError>> {
        use crate::flow::page::{open_page, page_request};
        use crate::sync::lock;

        let refused = lock(round).connection.require_sensitive();
        if let Err(error) = refused {
            return Some(Err(ElicitError::NotSent(error)));
        }
        let opened = match self.errors {
            None => open_page::<T>(pages, self.user, self.message).await,
            Some(errors) => pages.open_again::<T>(self.user, self.message, errors).await,
        };
        let page = match opened {
            Ok(page) => page,
            Err(error) => return Some(Err(ElicitError::PageNotOpened(error))),
        };
        let (_, request) = page_request(page.id(), page.url(), request_message, self.user);
        let mut round = lock(round);
        let (params, _) = match url_params(&mut round.connection, request) {
            Ok(built) => built,
            Err(error) => return Some(Err(error)),
        };
        round.ask(key, params);
        round.state.pages.insert(key.to_owned(), page.detach());
        None
    }
}
