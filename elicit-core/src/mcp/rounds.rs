//! One tool handler for both MCP versions: `elicitation/create` requests on
//! a 2025-11-25 peer, input-required rounds on a 2026-07-28 peer (SEP-2322),
//! with the round's state sealed in `requestState`.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use ::rmcp::RoleServer;
use ::rmcp::model::{
    self, CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities,
    ContentBlock, ErrorData, InputRequest, InputRequests, InputRequiredResult, RequestStateCodec,
};
use ::rmcp::service::RequestContext;
use serde_json::Value;

use super::carrier::{elicitation_capabilities, no_scope, params_of, response_of, send};
use super::state::{State, associated_data};
use super::used::{DynUsedStates, MemoryUsedStates, UsedStates};
use crate::Elicit;
use crate::flow::{AfterAnswer, ElicitError, after_answer};
use crate::protocol::Mode;
use crate::protocol::agent::{
    AgentConnection, Outcome, PendingUrl, Retry, SendError, UrlOutcome, UrlRequest,
};

/// How long a sealed `requestState` is accepted unless told otherwise: 10
/// minutes.
pub const DEFAULT_STATE_TTL: Duration = Duration::from_secs(10 * 60);
/// How many input-required rounds one tool call may take unless told
/// otherwise. rmcp's client stops after 9 such answers and the TypeScript
/// client after 10, so 8 leaves the tool the last word.
pub const DEFAULT_MAX_ROUNDS: u32 = 8;

/// How [`run_tool`] keeps a tool call's state between rounds on a
/// 2026-07-28 peer: sealed into `requestState` (HMAC-SHA256 with rmcp's
/// `RequestStateCodec`, with a TTL), bound to the user and to the request.
///
/// The state holds the round number, the attempts per key and the answers
/// of earlier rounds (the user's own answers: signed, not encrypted, so
/// never put a secret in a form; forms cannot hold one anyway).
///
/// **Keys.** [`RoundsConfig::with_random_key`] draws a key from the OS RNG
/// for this process: right for a stdio server, where one process serves
/// every round. Several processes behind one URL need the same keys:
/// [`RoundsConfig::new`] with `RequestStateCodec::new_with_keyring(active,
/// keys)`, the keys (32 bytes or more each) from your secret store. A
/// restarted server with the same keys accepts the states it sealed before.
///
/// **Rotation.** Add the new key (a new key id) to every replica's keyring,
/// then make it the active one everywhere, then remove the old key once
/// the TTL has passed: a state sealed with the old key stays readable
/// until it expires anyway.
///
/// **Single use.** Each state carries a random id; the call that opens it
/// records the id in [`UsedStates`] ([`MemoryUsedStates`] unless told
/// otherwise: [`RoundsConfig::used_states`]), and any later call with the
/// same state is refused like a forged one. So a completed call cannot be
/// replayed, nor an earlier round answered again, and of two concurrent
/// calls with one state at most one goes on. Ids are remembered until
/// their state expires, no longer. Clones of a config share the store:
/// build the config once and keep it. Several replicas need a store they
/// share, as they need the same keys.
#[derive(Clone)]
pub struct RoundsConfig {
    codec: RequestStateCodec,
    ttl: Duration,
    max_rounds: u32,
    principal: Principal,
    used: Arc<dyn DynUsedStates>,
    /// The key that names a sessionless 2025-11-25 call's pages, if the
    /// server has no sessions ([`RoundsConfig::without_sessions`]).
    without_sessions: Option<Arc<zeroize::Zeroizing<[u8; 32]>>>,
}

/// Who a request is from: [`RoundsConfig::principal`].
type Principal = Arc<dyn Fn(&RequestContext<RoleServer>) -> String + Send + Sync>;

impl fmt::Debug for RoundsConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RoundsConfig")
            .field("ttl", &self.ttl)
            .field("max_rounds", &self.max_rounds)
            .finish_non_exhaustive()
    }
}

impl RoundsConfig {
    /// Seals with `codec`.
    pub fn new(codec: RequestStateCodec) -> Self {
        Self {
            codec,
            ttl: DEFAULT_STATE_TTL,
            max_rounds: DEFAULT_MAX_ROUNDS,
            principal: Arc::new(|_| String::new()),
            used: Arc::new(MemoryUsedStates::new()),
            without_sessions: None,
        }
    }

    /// Seals with a 256-bit key drawn from the OS RNG: states this process
    /// sealed open only in this process.
    ///
    /// # Errors
    ///
    /// The OS RNG's.
    pub fn with_random_key() -> Result<Self, getrandom::Error> {
        let mut key = zeroize::Zeroizing::new([0u8; 32]);
        getrandom::fill(key.as_mut())?;
        let codec = RequestStateCodec::try_new(key.to_vec())
            .expect("32 bytes is RequestStateCodec::MIN_KEY_LENGTH");
        Ok(Self::new(codec))
    }

    /// How long a sealed state is accepted (default: 10 minutes).
    #[must_use]
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// How many input-required rounds one call may take (default: 8);
    /// then the tool call ends with a tool error.
    #[must_use]
    pub fn max_rounds(mut self, max: u32) -> Self {
        self.max_rounds = max;
        self
    }

    /// Who the request is from, as your server's authentication knows it
    /// (an HTTP server: from the request's extensions). A state sealed for
    /// one principal does not open for another, and on pages that verify
    /// users ([`Pages::hosted`](crate::sensitive::Pages::hosted), feature
    /// `sensitive`), a page [`Rounds::secret`] opens is for this principal
    /// (as a verified user): served to them only, as the protocol requires.
    /// Default: the empty string, right for stdio, where the process serves
    /// one user.
    #[must_use]
    pub fn principal(
        mut self,
        principal: impl Fn(&RequestContext<RoleServer>) -> String + Send + Sync + 'static,
    ) -> Self {
        self.principal = Arc::new(principal);
        self
    }

    /// For a server whose MCP 2025-11-25 calls have no session to send
    /// requests on (stateless Streamable HTTP behind a balancer). There a
    /// sensitive form ([`Rounds::secret`], feature `sensitive`) ends the
    /// call with `-32042` (URL elicitation required), its page in
    /// `data.elicitations`; the client lets the user complete the page and
    /// retries the call, on any replica, which reads the answer (pages in a
    /// store the replicas share). The page of a call is named by an
    /// HMAC-SHA256 under `key` (32 bytes from your secret store, the same on
    /// every replica) of the user ([`principal`](Self::principal)), the
    /// tool and its arguments, so the retry finds it; once read, it is
    /// forgotten, and the same call later opens a new page. Such pages must
    /// verify users ([`Pages::hosted`](crate::sensitive::Pages::hosted)):
    /// otherwise the call is refused (`OpenError::NoVerifier`). Forms and plain
    /// URL requests need a session: in such a call they are refused
    /// ([`SendError::NoSession`](crate::protocol::agent::SendError::NoSession)).
    /// Such a call usually knows nothing of the client's `initialize`: its
    /// URL mode is then assumed (a client without it fails the call with the
    /// error). MCP 2026-07-28 calls are not affected.
    #[must_use]
    pub fn without_sessions(mut self, key: [u8; 32]) -> Self {
        self.without_sessions = Some(Arc::new(zeroize::Zeroizing::new(key)));
        self
    }

    /// Where used states are remembered (default: a [`MemoryUsedStates`] of
    /// this config and its clones). Several replicas behind one URL need one
    /// they share, or a state used on one replica can be used again on
    /// another.
    #[must_use]
    pub fn used_states(mut self, used: impl UsedStates) -> Self {
        self.used = Arc::new(used);
        self
    }
}

/// What [`run_tool`] gives the tool: the answers, or the response that
/// ends this call.
#[derive(Debug)]
#[must_use = "an input-required round must be returned as the tool's response"]
// Matched once, right where it is returned: boxing the response would only
// make every caller write `*response`.
#[allow(clippy::large_enum_variant)]
pub enum Asked<T> {
    /// Every question is answered: what the `ask` closure returned. Do the
    /// tool's work and return its result.
    Answered(T),
    /// Return this as the tool's response: an input-required round (MCP
    /// 2026-07-28), or the tool error that ends a call that took more than
    /// [`RoundsConfig::max_rounds`] rounds.
    Respond(CallToolResponse),
}

/// One run of the tool handler: the answers in so far, and what this run
/// asks. Made by [`run_tool`].
pub struct Rounds {
    /// This run's connection: the modes this request's client accepts, the
    /// checks and ids of what this run asks (the same rules as every
    /// transport's).
    connection: AgentConnection,
    /// This round's answers, per key.
    responses: BTreeMap<String, Value>,
    /// Requests that failed on a 2025-11-25 peer, per key.
    failures: BTreeMap<String, ElicitError>,
    state: State,
    asks: InputRequests,
    /// Pages asked this run, per key: on 2025-11-25 a consent is followed by
    /// waiting for the page.
    #[cfg(feature = "sensitive")]
    page_asks: BTreeMap<String, (crate::sensitive::Pages, crate::sensitive::PageId)>,
    /// What the sensitive pages need of their store, around the runs.
    #[cfg(feature = "sensitive")]
    pages: super::page_work::PageWork,
    /// Who the request is from ([`RoundsConfig::principal`]; empty: no one).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    principal: String,
    /// A 2025-11-25 call without a session: the key its pages are named
    /// under ([`RoundsConfig::without_sessions`]).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    call: Option<[u8; 32]>,
    /// The URL elicitations that call needs (`-32042`'s list).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    required: Vec<Value>,
}

impl fmt::Debug for Rounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rounds")
            .field("round", &self.state.round)
            .field("asks", &self.asks.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl Rounds {
    fn new(capabilities: Option<ClientCapabilities>, state: State, principal: String) -> Self {
        Self {
            principal,
            connection: AgentConnection::new(elicitation_capabilities(capabilities.as_ref())),
            responses: BTreeMap::new(),
            failures: BTreeMap::new(),
            state,
            asks: InputRequests::new(),
            #[cfg(feature = "sensitive")]
            page_asks: BTreeMap::new(),
            #[cfg(feature = "sensitive")]
            pages: super::page_work::PageWork::default(),
            call: None,
            required: Vec::new(),
        }
    }

    /// A new run of `ask` (the next round, on 2025-11-25 in the same call):
    /// what the last run asked is answered now, so its ids are no longer
    /// outstanding.
    fn next_run(&mut self) {
        self.connection = AgentConnection::new(self.connection.capabilities().cloned());
    }

    /// `ask` once, or again while it needs the page store (a page it named
    /// is read, the pages it opened are added: each awaited here, between
    /// runs, since `ask` is not async). A run again starts from the
    /// answers and the state the first one saw.
    async fn run<T>(&mut self, ask: &mut impl FnMut(&mut Rounds) -> Option<T>) -> Option<T> {
        #[cfg(feature = "sensitive")]
        {
            // Each run again reads or opens what the one before named: a
            // closure that names new pages forever is stopped here.
            for _ in 0..MAX_RUNS {
                let (responses, state) = (self.responses.clone(), self.state.clone());
                let asked = ask(self);
                if asked.is_some() {
                    self.pages.finish().await;
                    return asked;
                }
                let Some(failed) = self.pages.after_asking().await else {
                    self.pages.finish().await;
                    return None;
                };
                self.responses = responses;
                self.state = state;
                for (key, error) in failed {
                    self.failures.insert(key, ElicitError::PageNotOpened(error));
                }
                self.asks.clear();
                self.page_asks.clear();
                self.required.clear();
                self.pages.again();
                self.next_run();
            }
            None
        }
        #[cfg(not(feature = "sensitive"))]
        ask(self)
    }

    /// Whether this request's client accepts elicitation `mode` (on
    /// 2026-07-28 the capabilities come with each request), by MCP's rule:
    /// what this run's asks are checked against.
    pub fn supports(&self, mode: Mode) -> bool {
        self.connection.supports(mode)
    }

    /// How many rounds were asked before this run.
    pub fn round(&self) -> u32 {
        self.state.round
    }

    /// The form `T` under `key` (one key per question of the tool): its
    /// typed answer once there is one, or `None` once it is asked (then the
    /// `ask` closure returns `None`: `?` does it). Several forms asked in one
    /// run go out in one round.
    pub fn form<T: Elicit>(&mut self, key: &str, message: impl Into<String>) -> FormAsk<'_, T> {
        FormAsk {
            rounds: self,
            key: key.to_owned(),
            message: message.into(),
            retry: Retry::NEVER,
            form: PhantomData,
        }
    }

    /// The URL request under `key` (URL mode): the user's answer once it is
    /// in, or `None` once it is asked. As with
    /// `Elicitor::elicit_url`, `Consented` only means the user
    /// agreed to open the URL; on 2026-07-28 there is no completion
    /// notification: the interaction is done when your own out-of-band
    /// callback says so (check it in a later round, or tell the user to call
    /// the tool again). The `elicitationId` is the request's, or else `key`
    /// (the same in every round). Refused without asking when this
    /// request's client has no URL mode, the URL fails `check_url`, or the
    /// id is empty.
    pub fn url(
        &mut self,
        key: &str,
        request: UrlRequest,
    ) -> Option<Result<UrlOutcome, ElicitError>> {
        if let Some(failed) = self.failures.remove(key) {
            return Some(Err(failed));
        }
        if self.call.is_some() {
            return Some(Err(ElicitError::NotSent(SendError::NoSession)));
        }
        let request = match request.id() {
            Some(_) => request,
            None => request.elicitation_id(key),
        };
        let (params, pending) = match self.url_params(request) {
            Ok(built) => built,
            Err(error) => return Some(Err(error)),
        };
        let found = self
            .responses
            .remove(key)
            .or_else(|| self.state.answers.get(key).cloned());
        let Some(raw) = found else {
            self.ask(key.to_owned(), params);
            return None;
        };
        // Not an answer at all: asked again.
        let Ok(result) = serde_json::from_value::<model::ElicitResult>(raw.clone()) else {
            self.state.answers.remove(key);
            self.ask(key.to_owned(), params);
            return None;
        };
        self.state.answers.insert(key.to_owned(), raw);
        Some(self.url_answer(pending, &result))
    }

    /// `request` as this run's URL request, checked by its connection, in
    /// MCP's shape.
    fn url_params(
        &mut self,
        request: UrlRequest,
    ) -> Result<(model::ElicitRequestParams, PendingUrl), ElicitError> {
        let (request, pending) = self
            .connection
            .url(no_scope(), request)
            .map_err(ElicitError::NotSent)?;
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

    /// The sensitive form `T` under `key`, on a page `pages` serve (feature
    /// `sensitive`): its typed answer once the page is submitted, or `None`
    /// while it is asked. URL mode or nothing: a client without it gets
    /// `SendError::SensitiveInputNeedsUrlMode`, and no page is opened.
    ///
    /// The first run opens the page and asks the URL. On 2025-11-25 a
    /// consent is followed by waiting for the page, in the same call. On
    /// 2026-07-28 the client calls back after the consent, usually before
    /// the page is submitted: the URL is then asked again, with "When you
    /// have submitted the page, accept this to continue", until the page
    /// has its answer. A decline or a cancel closes the page.
    ///
    /// The secret never travels in `requestState` (only the page's id
    /// does), and it is read once: ask a sensitive form in the last round
    /// (its answer is not there for a later run).
    ///
    /// The page's store is asked around `ask`, never inside it (`ask` is not
    /// async): a page `ask` names that was not read yet returns `None`, and
    /// `ask` runs again, from the same answers, once it was read; a page it
    /// opens is added to the store once `ask` returns (a page that could not
    /// be added is this call's `Err`, in the run after). So `ask` may run
    /// more than once in one request: keep it free of side effects, as each
    /// round already asks.
    #[cfg(feature = "sensitive")]
    pub fn secret<T: crate::sensitive::SensitiveForm + 'static>(
        &mut self,
        key: &str,
        message: impl Into<String>,
        pages: &crate::sensitive::Pages,
    ) -> Option<Result<crate::sensitive::SecretOutcome<T>, ElicitError>> {
        use crate::sensitive::SecretOutcome;

        if let Some(failed) = self.failures.remove(key) {
            return Some(Err(failed));
        }
        let message = message.into();
        // Pages that verify users serve it to this request's user only (no
        // principal: refused, `OpenError::UserRequired`).
        let user = (pages.verifies_users() && !self.principal.is_empty())
            .then(|| crate::protocol::agent::VerifiedUser::new(self.principal.clone()));
        if let Some(call) = self.call {
            return self.secret_without_session::<T>(call, key, message, pages, user.as_ref());
        }
        let Some(&id) = self.state.pages.get(key) else {
            if let Err(error) = self.connection.require_sensitive() {
                return Some(Err(ElicitError::NotSent(error)));
            }
            // Opened once this run returns (`Rounds::run`).
            let prepared = crate::sensitive::PageId::random()
                .map_err(crate::sensitive::OpenError::Random)
                .and_then(|id| Ok((id, pages.prepare::<T>(id, user.as_ref(), message.clone())?)));
            let (id, prepared) = match prepared {
                Ok(prepared) => prepared,
                Err(error) => return Some(Err(ElicitError::PageNotOpened(error))),
            };
            let url = prepared.url().to_owned();
            self.pages.open(key, pages, id, prepared);
            self.state.pages.insert(key.to_owned(), id);
            let (_, request) = crate::flow::page::page_request(id, &url, message, user.as_ref());
            let error = self.ask_page(key, request, pages, id).err()?;
            self.pages.unopen(id);
            self.state.pages.remove(key);
            return Some(Err(error));
        };
        // The page first: an answer there settles it. Not read yet: it is
        // before `ask` runs again.
        if let Some(end) = self.pages.read(pages, id)?.answer::<T>() {
            self.state.pages.remove(key);
            return Some(match end {
                Ok(value) => Ok(SecretOutcome::Answered(value)),
                Err(error) => SecretOutcome::unanswered(error).map_err(ElicitError::Page),
            });
        }
        let answer = self
            .responses
            .remove(key)
            .and_then(|raw| serde_json::from_value::<model::ElicitResult>(raw).ok());
        let message = if answer.is_some() {
            format!("{message}\n\nWhen you have submitted the page, accept this to continue.")
        } else {
            message
        };
        let (_, request) =
            crate::flow::page::page_request(id, &pages.url_of(id), message, user.as_ref());
        let pending = match self.ask_page(key, request, pages, id) {
            Ok(pending) => pending,
            Err(error) => return Some(Err(error)),
        };
        // Asked again, unless the last round's answer ended it.
        let ended = answer
            .and_then(|result| self.url_answer(pending, &result).ok())
            .and_then(|outcome| SecretOutcome::<T>::unless_consented(&outcome));
        if let Some(ended) = ended {
            self.asks.remove(key);
            self.pages.cancel(pages, id);
            self.state.pages.remove(key);
            return Some(Ok(ended));
        }
        None
    }

    /// [`secret`](Self::secret) in a 2025-11-25 call without a session: the
    /// page named by the call and `key` is opened (or found again), and
    /// listed for `-32042`, until it has ended; then its answer is read and
    /// the page forgotten.
    #[cfg(feature = "sensitive")]
    fn secret_without_session<T: crate::sensitive::SensitiveForm + 'static>(
        &mut self,
        call: [u8; 32],
        key: &str,
        message: String,
        pages: &crate::sensitive::Pages,
        user: Option<&crate::protocol::agent::VerifiedUser>,
    ) -> Option<Result<crate::sensitive::SecretOutcome<T>, ElicitError>> {
        use crate::sensitive::{PageRead, SecretOutcome};

        if let Err(error) = self.connection.require_sensitive() {
            return Some(Err(ElicitError::NotSent(error)));
        }
        // The page's id is the call's (every retry finds it): only a user
        // the pages verify may open it, never the first browser to come.
        if !pages.verifies_users() {
            return Some(Err(ElicitError::PageNotOpened(
                crate::sensitive::OpenError::NoVerifier,
            )));
        }
        let id = super::state::page_of_call(&call, key);
        // Not read yet: it is before `ask` runs again.
        match self.pages.read(pages, id)? {
            PageRead::Unknown | PageRead::Failed => {
                let prepared = match pages.prepare::<T>(id, user, message.clone()) {
                    Ok(prepared) => prepared,
                    Err(error) => return Some(Err(ElicitError::PageNotOpened(error))),
                };
                let url = prepared.url().to_owned();
                // Opened once this run returns (`Rounds::run`).
                self.pages.open(key, pages, id, prepared);
                self.require_page(id, &url, message, user).err().map(Err)
            }
            PageRead::Open => {
                let url = pages.url_of(id);
                self.require_page(id, &url, message, user).err().map(Err)
            }
            read @ PageRead::Ended(_) => {
                let answer = read.answer::<T>()?;
                self.pages.forget(pages, id);
                Some(match answer {
                    Ok(value) => Ok(SecretOutcome::Answered(value)),
                    Err(error) => SecretOutcome::unanswered(error).map_err(ElicitError::Page),
                })
            }
        }
    }

    /// Lists the page `id` for `-32042`: its URL request, checked by this
    /// call's connection as any URL request is.
    #[cfg(feature = "sensitive")]
    fn require_page(
        &mut self,
        id: crate::sensitive::PageId,
        url: &str,
        message: String,
        user: Option<&crate::protocol::agent::VerifiedUser>,
    ) -> Result<(), ElicitError> {
        let (_, request) = crate::flow::page::page_request(id, url, message, user);
        let (params, _) = self.url_params(request)?;
        let model::ElicitRequestParams::UrlElicitationParams {
            message,
            url,
            elicitation_id,
            ..
        } = params
        else {
            return Ok(());
        };
        self.required.push(serde_json::json!({
            "mode": "url",
            "elicitationId": elicitation_id,
            "url": url,
            "message": message,
        }));
        Ok(())
    }

    /// Asks the page's URL request under `key` (on 2025-11-25, a consent is
    /// followed by waiting for the page).
    #[cfg(feature = "sensitive")]
    fn ask_page(
        &mut self,
        key: &str,
        request: UrlRequest,
        pages: &crate::sensitive::Pages,
        id: crate::sensitive::PageId,
    ) -> Result<PendingUrl, ElicitError> {
        let (params, pending) = self.url_params(request)?;
        self.page_asks.insert(key.to_owned(), (pages.clone(), id));
        self.ask(key.to_owned(), params);
        Ok(pending)
    }

    fn ask(&mut self, key: String, params: model::ElicitRequestParams) {
        self.asks.insert(
            key,
            InputRequest::Elicitation(model::ElicitRequest::new(params)),
        );
    }
}

/// A form asked under a key, from [`Rounds::form`].
#[must_use = "nothing is asked until `answer` is called"]
pub struct FormAsk<'r, T> {
    rounds: &'r mut Rounds,
    key: String,
    message: String,
    retry: Retry,
    form: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for FormAsk<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FormAsk")
            .field("key", &self.key)
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

impl<T: Elicit> FormAsk<'_, T> {
    /// Asks again, up to `again` more times, when the answer breaks the
    /// form's rules, with the errors in the message (the same policy as
    /// `ElicitExt::elicit_form(..).retry(n)`).
    pub fn retry(mut self, again: u32) -> Self {
        self.retry = Retry::times(again);
        self
    }

    /// The typed answer, every rule checked again; `None` when the form was
    /// asked in this run (the `ask` closure then returns `None`). Refused
    /// without asking,
    /// like `elicit_form`, when this request's client has no form mode or
    /// the form cannot be sent.
    pub fn answer(self) -> Option<Result<Outcome<T>, ElicitError>> {
        let Self {
            rounds,
            key,
            message,
            retry,
            ..
        } = self;
        if let Some(failed) = rounds.failures.remove(&key) {
            return Some(Err(failed));
        }
        if rounds.call.is_some() {
            return Some(Err(ElicitError::NotSent(SendError::NoSession)));
        }
        // The form as this run's connection sends it: refused, as on every
        // transport, when the client has no form mode or the form cannot be
        // sent (or MCP cannot carry it).
        let form = |rounds: &mut Rounds, message: String| {
            let (request, pending) = rounds
                .connection
                .form::<T>(no_scope(), message)
                .map_err(ElicitError::NotSent)?;
            Ok::<_, ElicitError>((params_of(request)?, pending))
        };
        let (params, pending) = match form(rounds, message.clone()) {
            Ok(built) => built,
            Err(error) => return Some(Err(error)),
        };
        let found = rounds
            .responses
            .remove(&key)
            .or_else(|| rounds.state.answers.get(&key).cloned());
        let attempts = rounds.state.attempts.get(&key).copied().unwrap_or(1);
        let Some(raw) = found else {
            rounds.state.attempts.insert(key.clone(), attempts);
            rounds.ask(key, params);
            return None;
        };
        // Not an answer at all (a client bug, or a forged one): asked again.
        let Ok(result) = serde_json::from_value::<model::ElicitResult>(raw.clone()) else {
            rounds.state.answers.remove(&key);
            rounds.state.attempts.insert(key.clone(), attempts);
            rounds.ask(key, params);
            return None;
        };
        let response = match response_of(&result) {
            Ok(response) => response,
            Err(error) => return Some(Err(ElicitError::Unreadable(error))),
        };
        // The re-ask policy of every transport; here the next attempt is
        // the next round.
        match after_answer(pending.outcome(&response), &message, attempts, retry) {
            AfterAnswer::Done(answer) => {
                rounds.state.answers.insert(key, raw);
                Some(Ok(answer))
            }
            AfterAnswer::GiveUp { errors, attempts } => {
                rounds.state.answers.remove(&key);
                Some(Err(ElicitError::Invalid { errors, attempts }))
            }
            AfterAnswer::AskAgain(next) => {
                rounds.state.answers.remove(&key);
                rounds.state.attempts.insert(key.clone(), attempts + 1);
                match form(rounds, next) {
                    Ok((params, _)) => rounds.ask(key, params),
                    Err(error) => return Some(Err(error)),
                }
                None
            }
        }
    }
}

/// Asks the user what a tool needs, whatever the peer's protocol version,
/// with one closure: `ask` runs from the top each round, and returns the
/// answers once every question has one, or `None` while any is asked
/// ([`Rounds::form`] returns `None` for a question it just asked, so `?`
/// ends the run).
///
/// - On 2025-11-25 and earlier, each round's questions are sent as
///   `elicitation/create` requests (one at a time, in key order) and `ask`
///   runs again with the answers, in this call; the result is
///   [`Asked::Answered`].
/// - On 2026-07-28, where a server no longer sends requests, a round ends
///   the call: [`Asked::Respond`] holds the input-required result (the
///   questions under their keys, the state sealed in `requestState`) to
///   return as the tool's response. The client calls the tool again with
///   the answers and the state; `ask` runs again, and once it has every
///   answer, the result is [`Asked::Answered`].
///
/// `ask` only asks and reads answers (it is not async); the tool's own
/// work comes after, on the answers.
///
/// A `requestState` is good for one call ([single use](RoundsConfig)):
/// each round's result carries a new one.
///
/// A call with `inputResponses` and no `requestState` is read as the
/// answers to the first round's questions (what a client that skipped the
/// first round sends; those questions depend only on the arguments). Such a
/// call starts afresh: round 1, the re-ask count of
/// [`FormAsk::retry`] at its start. So a client that never sends a state is
/// bounded only by its own calls, as a client that calls the tool again
/// would be: each call costs one run of `ask` and one validation, keeps
/// nothing on the server (no used state is recorded; a sensitive page it
/// opens counts against the page server's cap of open pages and expires), and
/// never gets past the questions without valid answers. Limit the rate of
/// calls where you limit any other request.
///
/// # Errors
///
/// A `requestState` that does not open (tampered, expired, sealed for
/// another user or request, another key) or was used before: `-32602` with
/// [`INVALID_STATE_MESSAGE`](super::INVALID_STATE_MESSAGE), whatever the cause. A [`UsedStates`] store
/// that cannot record the use, or an `ask` that returned `None` without
/// asking anything: `-32603`. On a server without sessions
/// ([`RoundsConfig::without_sessions`]), a 2025-11-25 call that needs a page
/// first: `-32042` ([`URL_ELICITATION_REQUIRED`]) with the pages in
/// `data.elicitations`, for the client to complete before it retries. More rounds than
/// [`RoundsConfig::max_rounds`] end with a tool error
/// ([`Asked::Respond`]), not a protocol one.
pub async fn run_tool<T>(
    context: &RequestContext<RoleServer>,
    request: &CallToolRequestParams,
    config: &RoundsConfig,
    mut ask: impl FnMut(&mut Rounds) -> Option<T>,
) -> Result<Asked<T>, ErrorData> {
    let capabilities = context.client_capabilities();
    let principal = (config.principal)(context);
    let modern = context
        .protocol_version()
        .is_some_and(|version| !version.has_initialize());
    if modern {
        let bound = associated_data(&principal, request);
        let state = match &request.request_state {
            Some(sealed) => {
                let state = State::open(&config.codec, sealed, &bound)?;
                state.use_once(&*config.used).await?;
                state
            }
            None => State::new(),
        };
        let mut rounds = Rounds::new(capabilities, state, principal);
        // Only the answers to what the last round asked. Without a state
        // (the first round), the answers are read as answers to the first
        // round's questions: those depend only on the arguments, and every
        // answer is checked like any other.
        if let Some(responses) = &request.input_responses {
            let first = request.request_state.is_none();
            rounds.responses = responses
                .iter()
                .filter(|(key, _)| first || rounds.state.asked.contains(*key))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect();
        }
        if let Some(answers) = rounds.run(&mut ask).await {
            return Ok(Asked::Answered(answers));
        }
        let Some(asks) = next_round(&mut rounds, config)? else {
            return Ok(Asked::Respond(too_many_rounds(config).into()));
        };
        rounds.state.asked = asks.keys().cloned().collect();
        let sealed = rounds.state.seal(&config.codec, &bound, config.ttl)?;
        return Ok(Asked::Respond(
            InputRequiredResult::new(Some(asks), Some(sealed)).into(),
        ));
    }
    if let Some(key) = &config.without_sessions {
        let call = super::state::call_key(key, &associated_data(&principal, request));
        // Without a session, the client's `initialize` (its capabilities)
        // is usually unknown here (rmcp then gives none, or an empty
        // set): `-32042` is the question, and a client without URL mode
        // fails the call with it.
        let known = capabilities
            .as_ref()
            .is_some_and(|c| c.elicitation.is_some());
        let mut rounds = Rounds::new(capabilities, State::new(), principal);
        if !known {
            rounds.connection =
                AgentConnection::new(Some(crate::protocol::ElicitationCapabilities::url_only()));
        }
        rounds.call = Some(call);
        if let Some(answers) = rounds.run(&mut ask).await {
            return Ok(Asked::Answered(answers));
        }
        if rounds.required.is_empty() {
            return Err(ErrorData::internal_error(
                "the tool's `ask` closure returned None without asking anything",
                None,
            ));
        }
        return Err(url_elicitation_required(rounds.required));
    }
    let mut rounds = Rounds::new(capabilities, State::new(), principal);
    loop {
        if let Some(answers) = rounds.run(&mut ask).await {
            return Ok(Asked::Answered(answers));
        }
        let Some(asks) = next_round(&mut rounds, config)? else {
            return Ok(Asked::Respond(too_many_rounds(config).into()));
        };
        for (key, question) in asks {
            let InputRequest::Elicitation(request) = question else {
                continue;
            };
            match send(&context.peer, request.params).await {
                Ok(result) => {
                    // A consent to a sensitive page: wait for the page here.
                    #[cfg(feature = "sensitive")]
                    if let Some((pages, id)) = rounds.page_asks.remove(&key)
                        && matches!(result.action, model::ElicitationAction::Accept)
                    {
                        pages.settled(id).await;
                        rounds.pages.set_read(id, pages.read(id).await);
                    }
                    let value = serde_json::to_value(&result)
                        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                    rounds.responses.insert(key, value);
                }
                Err(error) => {
                    rounds.failures.insert(key, error);
                }
            }
        }
        rounds.next_run();
    }
}

/// MCP 2025-11-25's URL elicitation required error: `-32042` with the URL
/// elicitations the call needs.
fn url_elicitation_required(elicitations: Vec<Value>) -> ErrorData {
    ErrorData::new(
        ::rmcp::model::ErrorCode(URL_ELICITATION_REQUIRED),
        "this request needs the user to complete URL elicitation(s) first: open them, then \
         retry the request",
        Some(serde_json::json!({ "elicitations": elicitations })),
    )
}

/// How many times `ask` runs in one request, at most, for the page store
/// (see [`Rounds::run`]).
#[cfg(feature = "sensitive")]
const MAX_RUNS: usize = 32;

/// The JSON-RPC code of MCP 2025-11-25's URL elicitation required error.
pub const URL_ELICITATION_REQUIRED: i32 = -32042;

/// The round's questions, counting the round; `None` past the cap.
fn next_round(
    rounds: &mut Rounds,
    config: &RoundsConfig,
) -> Result<Option<InputRequests>, ErrorData> {
    if rounds.asks.is_empty() {
        return Err(ErrorData::internal_error(
            "the tool's `ask` closure returned None without asking anything",
            None,
        ));
    }
    if rounds.state.round >= config.max_rounds {
        return Ok(None);
    }
    rounds.state.round += 1;
    Ok(Some(std::mem::take(&mut rounds.asks)))
}

fn too_many_rounds(config: &RoundsConfig) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "no answer after {} rounds of questions: nothing was done",
        config.max_rounds
    ))])
}
