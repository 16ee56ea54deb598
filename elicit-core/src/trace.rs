//! What an operator sees (feature `tracing`): a span per flow and an event
//! at every refusal and failure, each event with a stable
//! [`reason`](#reasons) to count and alert on, and never a secret.
//!
//! elicit emits through [`tracing`](https://docs.rs/tracing), as rmcp, the
//! ACP SDK, hyper and redis-rs do: install any subscriber
//! (`tracing-subscriber`'s `fmt` with `RUST_LOG`, say) and the events
//! arrive with theirs, under targets that start with `elicit_core`.
//!
//! # Spans
//!
//! | span | where | fields |
//! |---|---|---|
//! | `flow` | each call of the flow engine: a form, a URL request, a secret page, an OAuth flow, on the ACP SDK and on rmcp (MCP 2025-11-25) | `transport` (`acp`, `mcp`), `protocol_version` (ACP: `1`; MCP: the negotiated one), `flow` (`form`, `url`, `secret`, `oauth`), `mode`, `form` (the Rust type), `elicitation_id`, `page` |
//! | `rounds` | each request an `mcp::Ask` runs (`tools/call`, `prompts/get`, `resources/read`) | `transport` (`mcp`), `protocol_version`, `method`, `name` (the tool's or the prompt's; the resource's URI without its user info, query and fragment), `regime` (`requests`, `input_rounds`, `sessionless`), `round` |
//! | `page_request` | each request to the page server (pages, OAuth start and callback) | `method`, `page` |
//! | `client_request` | each `elicitation/create` a client (the ACP SDK's handler, the MCP host's) answers | `transport`, `mode`, `elicitation_id` |
//!
//! Spans are at `INFO`, so the context of a refusal prints with it.
//!
//! # Events
//!
//! Every refusal and failure is one event with a `reason` field
//! (`reason="replay"`, [the table below](#reasons)), at the reason's own
//! level: `WARN` for what looks like an
//! attack, `INFO` for a user's decline or cancel and for a limit reached,
//! `ERROR` for a store that failed. Each message and round is a `DEBUG`
//! event without a `reason` (`elicitation/create sent` carries the
//! `attempt`; each round of a 2026-07-28 call logs `call` with its `round`
//! and `answers`, `false` on the first).
//!
//! Each flow that ends is one `INFO` event, `flow ended`, with its
//! `outcome` (`accepted`, `consented`, `answered`, `authorized`,
//! `denied`, `declined`, `cancelled`, `expired`, `invalid`, `failed`) and, where one process saw
//! it whole (every flow but a 2026-07-28 call's question, whose rounds may
//! run on several replicas), `duration_ms`: count completed flows at
//! `INFO` without a value ever logged.
//!
//! # Never a secret
//!
//! No event or span holds a secret: no submitted value, binding cookie,
//! CSRF token, OAuth `state`, PKCE verifier, authorization code or token,
//! `requestState`, sealing key, nor a user's name. Ids are logged as their
//! [`fingerprint`]: a page's id is in its URL and grants the first visit,
//! and a page flow's `elicitationId` is the page's id. Fields are named,
//! never their values; errors by kind, never their text (a client's or a
//! provider's text can hold anything). The integration test
//! `tests/it/trace_sweep.rs` runs every flow under a subscriber at `TRACE`
//! and searches every field for the values it put in.
//!
//! Other crates' events are theirs: some dependencies log whole messages.
//! rmcp logs the JSON-RPC messages it sends and receives at `DEBUG` and
//! `TRACE` (a `requestState`, a page's URL), every error response it sends
//! at `WARN` (a `-32042`'s data lists its pages' URLs) and every
//! notification it receives at `INFO` (an `elicitation/complete` names a
//! page's id). Keep rmcp at `ERROR`, the others at `INFO`:
//! `RUST_LOG=info,rmcp=error,elicit_core=debug`.
//!
//! # In production
//!
//! Set `RUST_LOG=warn,rmcp=error,elicit_core=info`: elicit's refusals and
//! failures (each with its `reason`) and one `flow ended` line per flow,
//! the other crates' warnings. Never run rmcp at `DEBUG` or `TRACE` in
//! production: it logs every JSON-RPC message whole, and so every form
//! answer (a name, an email), every `requestState` (a bearer of the call's
//! answers until it is used) and every page URL (the first visit to a page
//! is by its URL). At `WARN` it logs its error responses, whose data can
//! hold page URLs: `rmcp=error`. `elicit_core=debug` adds a line per
//! message and round, still without a value: for a trial, not for every
//! day. The reasons to alert on are the `ERROR` ones: `not_replicated`
//! (give each Redis master the replicas asked for, take the replica out of
//! the balancer while `Redis::ready` fails), `redis_unreachable` and
//! `redis_timeout` (Redis down, partitioned, or failing over),
//! `store_failed` and `used_states_failed` (their `cause` says which of
//! these).
//!
//! # Reasons
//!
//! Every refusal and failure is one event with a `reason` field, one of
//! these, at the reason's level. The set is closed: a reason not listed
//! here is never emitted (a test of the crate checks this table against
//! the code, and the trace sweep checks what a run emits against it); a
//! release may add one, never rename one.
//!
//! | `reason` | level | when | where |
//! |---|---|---|---|
//! | `wrong_user` | `WARN` | a page, or an OAuth flow's start page or callback, was requested by another verified user than the one it was opened for (page server: `403`). | `sensitive::service` (a page request), `sensitive::oauth::routes` (the start page) |
//! | `other_browser` | `WARN` | a page or an OAuth flow bound to one browser was requested without its binding cookie (another browser, or a second first visit that lost the race): `403`. | `sensitive::service` (a visit or a post), `sensitive::oauth::routes` (the start page, the callback) |
//! | `cross_site_post` | `WARN` | a page's form posted from another origin (`Sec-Fetch-Site`, `Origin`): `403`. | `sensitive::service` |
//! | `csrf` | `WARN` | a page's form posted without its CSRF token, or with another: `403`. | `sensitive::service` |
//! | `wrong_host` | `WARN` | a request to the page server named another host than the pages' own (DNS rebinding): `421`. | `sensitive::service` |
//! | `replay` | `WARN` | a `requestState` used before, sent again (MCP 2026-07-28 rounds): `-32602`. | `mcp::rounds::state` (`State::use_once`) |
//! | `invalid_state` | `WARN` | a `requestState` that does not open: tampered, expired, sealed for another user, request or key, or of an old format (MCP 2026-07-28 rounds): `-32602`. | `mcp::rounds::state` (`State::open`) |
//! | `oauth_state` | `WARN` | an OAuth callback whose `state` is missing, unknown or wrong (forged, or a flow ended long ago): `400`. | `sensitive::oauth::routes` (the callback) |
//! | `oauth_issuer` | `WARN` | an OAuth callback whose `iss` is not the provider's (a mix-up attack): the flow fails. | `sensitive::oauth::routes` (the callback) |
//! | `oauth_bad_response` | `WARN` | an OAuth callback with a repeated parameter, or with neither a code nor an error: the flow fails. | `sensitive::oauth::routes` (the callback) |
//! | `url_refused` | `WARN` | a client's URL review refused the URL of a URL request (a look-alike host, an unsafe scheme, ...) when the renderer consented: it is shown again with the problem. | `protocol::client::answer` (every client side) |
//! | `guard_refused` | `WARN` | a client's guard refused an `elicitation/create` with `-32602`: a mode it did not advertise, a form it cannot render, a URL id already outstanding or too many. | `protocol::client::ClientConnection::receive` (every client side) |
//! | `client_refused` | `WARN` | the client answered an `elicitation/create` with a JSON-RPC error (`-32602` when its guard refused it); the field `code` holds the code. | the flow engine (`flow`), on the ACP SDK and rmcp |
//! | `unreadable_answer` | `WARN` | the client's answer could not be read (content that is not an object, an unknown action). | the flow engine, and the MCP 2026-07-28 rounds (`mcp::rounds`) |
//! | `completion_refused` | `WARN` | a URL elicitation's completion was refused: not outstanding, completed twice, or by another user. | the flow engine (`complete`) |
//! | `declined` | `INFO` | the user declined a form or a URL request. | the flow engine and the rounds (the asking side); `protocol::client::answer` (the client side) |
//! | `cancelled` | `INFO` | the user cancelled a form or a URL request (or the client answered an action elicit does not know), or a page was given up (cancelled elsewhere, or gone from its store: a `page_unknown` or `store_failed` event says which). | the flow engine and the rounds (the asking side); `protocol::client::answer` (the client side) |
//! | `page_expired` | `INFO` | a page or an OAuth flow expired before its answer, or was visited after (`410`). | `sensitive::service`, `sensitive::oauth::routes`; the flow that waited for the page |
//! | `page_used` | `INFO` | a page or an OAuth flow visited or posted again after it was answered or cancelled (`410`). | `sensitive::service`, `sensitive::oauth::routes` |
//! | `page_unknown` | `INFO` | a request for a page id the server does not hold (`404`): gone long ago, or guessed. | `sensitive::service`; `mcp::rounds::pages` (a round that reads its page) |
//! | `page_cap` | `INFO` | a page was not opened: the store holds as many open pages as it may. | `sensitive::store` (`Pages::open*`, `Pages::open_oauth*`) |
//! | `body_too_large` | `INFO` | a page's post exceeded the body limit (`413`). | `sensitive::service` |
//! | `bad_request` | `INFO` | a page request the server does not serve: a method other than `GET` and `POST`, a body that is not the page's form or did not arrive whole. | `sensitive::service`, `sensitive::oauth::routes` |
//! | `invalid_submission` | `INFO` | a page's post broke the form's rules: the page is shown again with the errors (the fields are named in `fields`, never their values); or a page's answer passed the page's checks but not the form's own rules (a `try_from`), read by the flow that asked: asked again on a new page within `.retry(n)`. | `sensitive::service`, the flow engine and the rounds |
//! | `check_refused` | `INFO` | a rule of the agent's own (a form's `check`, a call's `.check`) refused an answer: it is asked again with the errors while attempts are left (the fields are named in `fields`, never their values). | the flow engine and the rounds |
//! | `retries_exhausted` | `INFO` | every answer to a form broke its rules, the last attempt included. | the flow engine and the rounds |
//! | `max_rounds` | `INFO` | a tool call asked more input-required rounds than `RoundsConfig::max_rounds`. | `mcp::rounds::input` (the round that would be one too many) |
//! | `not_sent` | `INFO` | an elicitation was refused before anything was sent: the client lacks the mode, sensitive input needs URL mode, an unsafe URL, a form that cannot be sent, no session. | the flow engine and the rounds |
//! | `used_states_full` | `INFO` | the in-memory used-state store is full: the call fails closed until some states expire. | `mcp::rounds::state` (`State::use_once`) |
//! | `oauth_denied` | `INFO` | the OAuth provider answered with an error (the user did not authorize): the flow ends denied. | `sensitive::oauth::routes` (the callback) |
//! | `render_gave_up` | `INFO` | a client's renderer gave no valid answer in `MAX_RENDER_ATTEMPTS` tries: the request is answered `-32603`. | `protocol::client::answer` (every client side) |
//! | `request_failed` | `INFO` | an `elicitation/create` got no answer: the connection closed, it timed out or was cancelled, or the transport could not send it. | the flow engine, on the ACP SDK and rmcp |
//! | `pages_closed` | `INFO` | a request to the page server after its pages were dropped, or before any was opened (`503`). | `sensitive::service` |
//! | `store_failed` | `ERROR` | the pages' store (its pages and OAuth flows) failed: the request is answered `503`, or the page not opened. The field `step` says which step, `cause` why: `not_replicated`, `redis_unreachable`, `redis_timeout`, `redis_failed`, `unreadable` (a record that does not open with the sealing keys), `busy` (another answer to the page is being saved), or `backend` (a store of your own). | `sensitive::service`, `sensitive::oauth::routes`, `sensitive::store` (opening), `mcp::rounds::pages`; the flow that waited for the page |
//! | `used_states_failed` | `ERROR` | the used-state store could not record a `requestState`'s use: the call fails closed (`-32603`); the field `cause` says why, as `store_failed`'s. | `mcp::rounds::state` (`State::use_once`) |
//! | `not_replicated` | `ERROR` | a write that must survive a failover (a page's answer, an OAuth `state`'s use, a used `requestState`) was not acknowledged by the replicas `Redis::replicated_writes` asks for (fields `asked`, `acknowledged`): it did not count, nothing saw it, and the page (or the call) can be sent again. What to do: give each master the replicas asked for (the redis guide's topology: two per master for one), and take the replica out of the balancer while `Redis::ready` fails. | `redis::conn` (the step's acknowledgement); the store's `store_failed` or `used_states_failed` follows with `cause="not_replicated"` |
//! | `redis_unreachable` | `ERROR` | no connection to Redis: refused, dropped, or another I/O failure (field `kind`). The connection is opened again in the background. What to do: check that Redis runs and that this replica reaches it. | `redis::conn` (every command) |
//! | `redis_timeout` | `ERROR` | Redis did not answer a command within the command timeout (`Redis::command_timeout`, 2 s by default): a stalled or overloaded Redis, a network partition, or a failover in progress. What to do: if it lasts, check Redis's latency (`redis-cli --latency`) and the failover's progress. | `redis::conn` (every command) |
//! | `redis_failed` | `ERROR` | Redis answered a command with an error (field `kind`: `server`): out of memory, a cluster slot not served (`CLUSTERDOWN`), a script error. What to do: read Redis's own log. | `redis::conn` (every command) |
//! | `check_failed` | `ERROR` | a call's `.check` could not decide (it returned an error of its own: a database down): the flow ends, nothing is asked again. | the flow engine and the rounds |
//! | `oauth_exchange_failed` | `ERROR` | the token request to the OAuth provider failed, or its answer was unusable: the flow fails. | `sensitive::oauth::routes` (the callback) |
//! | `internal` | `ERROR` | the OS RNG, a `requestState`'s seal or the renderer's thread failed. | `sensitive::service`, `sensitive::oauth::routes`, `mcp::rounds`, `flow::render` (the renderer's thread) |
//!
//! # Counting
//!
//! Any `tracing` layer turns the reasons into counters by reading the
//! `reason` field of each event whose target starts with `elicit_core`.
//! The repository's `examples/count_reasons.rs` is one, a small
//! `tracing_subscriber::Layer`.

use std::fmt;

use tracing::Level;

/// Why a flow or a request was refused, or failed: the `reason` field of
/// every event elicit emits at a refusal or a failure. Each variant says
/// where it is emitted and at which [`level`](Self::level); its
/// [`as_str`](Self::as_str) is the field's value, stable across releases
/// (a new reason may be added: the enum is `#[non_exhaustive]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(dead_code)] // Each reason is emitted by its feature's module.
pub(crate) enum Reason {
    // --- WARN: what looks like an attack -------------------------------
    /// `wrong_user` (`WARN`): a page, or an OAuth flow's start page or
    /// callback, was requested by another verified user than the one it
    /// was opened for (page server: `403`).
    ///
    /// Where: `sensitive::service` (a page request), `sensitive::oauth::routes` (the start page).
    WrongUser,
    /// `other_browser` (`WARN`): a page or an OAuth flow bound to one
    /// browser was requested without its binding cookie (another browser,
    /// or a second first visit that lost the race): `403`.
    ///
    /// Where: `sensitive::service` (a visit or a post), `sensitive::oauth::routes` (the start page, the callback).
    OtherBrowser,
    /// `cross_site_post` (`WARN`): a page's form posted from another
    /// origin (`Sec-Fetch-Site`, `Origin`): `403`.
    ///
    /// Where: `sensitive::service`.
    CrossSitePost,
    /// `csrf` (`WARN`): a page's form posted without its CSRF token, or
    /// with another: `403`.
    ///
    /// Where: `sensitive::service`.
    Csrf,
    /// `wrong_host` (`WARN`): a request to the page server named another
    /// host than the pages' own (DNS rebinding): `421`.
    ///
    /// Where: `sensitive::service`.
    WrongHost,
    /// `replay` (`WARN`): a `requestState` used before, sent again
    /// (MCP 2026-07-28 rounds): `-32602`.
    ///
    /// Where: `mcp::rounds::state` (`State::use_once`).
    Replay,
    /// `invalid_state` (`WARN`): a `requestState` that does not open:
    /// tampered, expired, sealed for another user, request or key, or of
    /// an old format (MCP 2026-07-28 rounds): `-32602`.
    ///
    /// Where: `mcp::rounds::state` (`State::open`).
    InvalidState,
    /// `oauth_state` (`WARN`): an OAuth callback whose `state` is missing,
    /// unknown or wrong (forged, or a flow ended long ago): `400`.
    ///
    /// Where: `sensitive::oauth::routes` (the callback).
    OAuthState,
    /// `oauth_issuer` (`WARN`): an OAuth callback whose `iss` is not the
    /// provider's (a mix-up attack): the flow fails.
    ///
    /// Where: `sensitive::oauth::routes` (the callback).
    OAuthIssuer,
    /// `oauth_bad_response` (`WARN`): an OAuth callback with a repeated
    /// parameter, or with neither a code nor an error: the flow fails.
    ///
    /// Where: `sensitive::oauth::routes` (the callback).
    OAuthBadResponse,
    /// `url_refused` (`WARN`): a client's URL review refused the URL of a
    /// URL request (a look-alike host, an unsafe scheme, ...) when the
    /// renderer consented: it is shown again with the problem.
    ///
    /// Where: `protocol::client::answer` (every client side).
    UrlRefused,
    /// `guard_refused` (`WARN`): a client's guard refused an
    /// `elicitation/create` with `-32602`: a mode it did not advertise, a
    /// form it cannot render, a URL id already outstanding or too many.
    ///
    /// Where: `protocol::client::ClientConnection::receive` (every client side).
    GuardRefused,
    /// `client_refused` (`WARN`): the client answered an
    /// `elicitation/create` with a JSON-RPC error (`-32602` when its guard
    /// refused it); the field `code` holds the code.
    ///
    /// Where: the flow engine (`flow`), on the ACP SDK and rmcp.
    ClientRefused,
    /// `unreadable_answer` (`WARN`): the client's answer could not be read
    /// (content that is not an object, an unknown action).
    ///
    /// Where: the flow engine, and the MCP 2026-07-28 rounds (`mcp::rounds`).
    UnreadableAnswer,
    /// `completion_refused` (`WARN`): a URL elicitation's completion was
    /// refused: not outstanding, completed twice, or by another user.
    ///
    /// Where: the flow engine (`complete`).
    CompletionRefused,

    // --- INFO: the user's answer, and limits reached -------------------
    /// `declined` (`INFO`): the user declined a form or a URL request.
    ///
    /// Where: the flow engine and the rounds (the asking side); `protocol::client::answer` (the client side).
    Declined,
    /// `cancelled` (`INFO`): the user cancelled a form or a URL request
    /// (or the client answered an action elicit does not know), or a page
    /// was given up (cancelled elsewhere, or gone from its store: a
    /// `page_unknown` or `store_failed` event says which).
    ///
    /// Where: the flow engine and the rounds (the asking side); `protocol::client::answer` (the client side).
    Cancelled,
    /// `page_expired` (`INFO`): a page or an OAuth flow expired before its
    /// answer, or was visited after (`410`).
    ///
    /// Where: `sensitive::service`, `sensitive::oauth::routes`; the flow that waited for the page.
    PageExpired,
    /// `page_used` (`INFO`): a page or an OAuth flow visited or posted
    /// again after it was answered or cancelled (`410`).
    ///
    /// Where: `sensitive::service`, `sensitive::oauth::routes`.
    PageUsed,
    /// `page_unknown` (`INFO`): a request for a page id the server does
    /// not hold (`404`): gone long ago, or guessed.
    ///
    /// Where: `sensitive::service`; `mcp::rounds::pages` (a round that reads its page).
    PageUnknown,
    /// `page_cap` (`INFO`): a page was not opened: the store holds as many
    /// open pages as it may.
    ///
    /// Where: `sensitive::store` (`Pages::open*`, `Pages::open_oauth*`).
    PageCap,
    /// `body_too_large` (`INFO`): a page's post exceeded the body limit
    /// (`413`).
    ///
    /// Where: `sensitive::service`.
    BodyTooLarge,
    /// `bad_request` (`INFO`): a page request the server does not serve: a
    /// method other than `GET` and `POST`, a body that is not the page's
    /// form or did not arrive whole.
    ///
    /// Where: `sensitive::service`, `sensitive::oauth::routes`.
    BadRequest,
    /// `invalid_submission` (`INFO`): a page's post broke the form's rules:
    /// the page is shown again with the errors (the fields are named in
    /// `fields`, never their values); or a page's answer passed the page's
    /// checks but not the form's own rules (a `try_from`), read by the flow
    /// that asked: asked again on a new page within `.retry(n)`.
    ///
    /// Where: `sensitive::service`, the flow engine and the rounds.
    InvalidSubmission,
    /// `check_refused` (`INFO`): a rule of the agent's own (a form's
    /// `check`, a call's `.check`) refused an answer: it is asked again
    /// with the errors while attempts are left (the fields are named in
    /// `fields`, never their values).
    ///
    /// Where: the flow engine and the rounds.
    CheckRefused,
    /// `retries_exhausted` (`INFO`): every answer to a form broke its rules,
    /// the last attempt included.
    ///
    /// Where: the flow engine and the rounds.
    RetriesExhausted,
    /// `max_rounds` (`INFO`): a tool call asked more input-required rounds
    /// than `RoundsConfig::max_rounds`.
    ///
    /// Where: `mcp::rounds::input` (the round that would be one too many).
    MaxRounds,
    /// `not_sent` (`INFO`): an elicitation was refused before anything was
    /// sent: the client lacks the mode, sensitive input needs URL mode, an
    /// unsafe URL, a form that cannot be sent, no session.
    ///
    /// Where: the flow engine and the rounds.
    NotSent,
    /// `used_states_full` (`INFO`): the in-memory used-state store is full:
    /// the call fails closed until some states expire.
    ///
    /// Where: `mcp::rounds::state` (`State::use_once`).
    UsedStatesFull,
    /// `oauth_denied` (`INFO`): the OAuth provider answered with an error
    /// (the user did not authorize): the flow ends denied.
    ///
    /// Where: `sensitive::oauth::routes` (the callback).
    OAuthDenied,
    /// `render_gave_up` (`INFO`): a client's renderer gave no valid answer
    /// in `MAX_RENDER_ATTEMPTS` tries: the request is answered `-32603`.
    ///
    /// Where: `protocol::client::answer` (every client side).
    RenderGaveUp,
    /// `request_failed` (`INFO`): an `elicitation/create` got no answer:
    /// the connection closed, it timed out or was cancelled, or the
    /// transport could not send it.
    ///
    /// Where: the flow engine, on the ACP SDK and rmcp.
    RequestFailed,
    /// `pages_closed` (`INFO`): a request to the page server after its
    /// pages were dropped, or before any was opened (`503`).
    ///
    /// Where: `sensitive::service`.
    PagesClosed,

    // --- ERROR: failures ------------------------------------------------
    /// `store_failed` (`ERROR`): the page store (or the OAuth flows'
    /// table) failed: the request is answered `503`, or the page not
    /// opened.
    ///
    /// Where: `sensitive::service`, `sensitive::oauth::routes`, `sensitive::store` (opening), `mcp::rounds::pages`; the flow that waited for the page.
    StoreFailed,
    /// `used_states_failed` (`ERROR`): the used-state store could not
    /// record a `requestState`'s use: the call fails closed (`-32603`).
    ///
    /// Where: `mcp::rounds::state` (`State::use_once`).
    UsedStatesFailed,
    /// `not_replicated` (`ERROR`): a write that must survive a failover
    /// was not acknowledged by the replicas asked for: it did not count.
    ///
    /// Where: `redis::conn` (the step's acknowledgement).
    NotReplicated,
    /// `redis_unreachable` (`ERROR`): no connection to Redis (field `kind`).
    ///
    /// Where: `redis::conn` (every command).
    RedisUnreachable,
    /// `redis_timeout` (`ERROR`): Redis did not answer within the command
    /// timeout.
    ///
    /// Where: `redis::conn` (every command).
    RedisTimeout,
    /// `redis_failed` (`ERROR`): Redis answered a command with an error
    /// (field `kind`: `server`).
    ///
    /// Where: `redis::conn` (every command).
    RedisFailed,
    /// `check_failed` (`ERROR`): a call's `.check` could not decide (it
    /// returned an error of its own: a database down): the flow ends,
    /// nothing is asked again.
    ///
    /// Where: the flow engine and the rounds.
    CheckFailed,
    /// `oauth_exchange_failed` (`ERROR`): the token request to the OAuth
    /// provider failed, or its answer was unusable: the flow fails.
    ///
    /// Where: `sensitive::oauth::routes` (the callback).
    OAuthExchangeFailed,
    /// `internal` (`ERROR`): the OS RNG, a `requestState`'s seal or the
    /// renderer's thread failed.
    ///
    /// Where: `sensitive::service`, `sensitive::oauth::routes`, `mcp::rounds`, `flow::render` (the renderer's thread).
    Internal,
}

impl Reason {
    /// Every reason, in the order above (the table of the module docs).
    #[cfg(test)]
    pub(crate) const ALL: &'static [Reason] = &[
        Self::WrongUser,
        Self::OtherBrowser,
        Self::CrossSitePost,
        Self::Csrf,
        Self::WrongHost,
        Self::Replay,
        Self::InvalidState,
        Self::OAuthState,
        Self::OAuthIssuer,
        Self::OAuthBadResponse,
        Self::UrlRefused,
        Self::GuardRefused,
        Self::ClientRefused,
        Self::UnreadableAnswer,
        Self::CompletionRefused,
        Self::Declined,
        Self::Cancelled,
        Self::PageExpired,
        Self::PageUsed,
        Self::PageUnknown,
        Self::PageCap,
        Self::BodyTooLarge,
        Self::BadRequest,
        Self::InvalidSubmission,
        Self::CheckRefused,
        Self::RetriesExhausted,
        Self::MaxRounds,
        Self::NotSent,
        Self::UsedStatesFull,
        Self::OAuthDenied,
        Self::RenderGaveUp,
        Self::RequestFailed,
        Self::PagesClosed,
        Self::StoreFailed,
        Self::UsedStatesFailed,
        Self::NotReplicated,
        Self::RedisUnreachable,
        Self::RedisTimeout,
        Self::RedisFailed,
        Self::CheckFailed,
        Self::OAuthExchangeFailed,
        Self::Internal,
    ];

    /// The value of the event's `reason` field.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::WrongUser => "wrong_user",
            Self::OtherBrowser => "other_browser",
            Self::CrossSitePost => "cross_site_post",
            Self::Csrf => "csrf",
            Self::WrongHost => "wrong_host",
            Self::Replay => "replay",
            Self::InvalidState => "invalid_state",
            Self::OAuthState => "oauth_state",
            Self::OAuthIssuer => "oauth_issuer",
            Self::OAuthBadResponse => "oauth_bad_response",
            Self::UrlRefused => "url_refused",
            Self::GuardRefused => "guard_refused",
            Self::ClientRefused => "client_refused",
            Self::UnreadableAnswer => "unreadable_answer",
            Self::CompletionRefused => "completion_refused",
            Self::Declined => "declined",
            Self::Cancelled => "cancelled",
            Self::PageExpired => "page_expired",
            Self::PageUsed => "page_used",
            Self::PageUnknown => "page_unknown",
            Self::PageCap => "page_cap",
            Self::BodyTooLarge => "body_too_large",
            Self::BadRequest => "bad_request",
            Self::InvalidSubmission => "invalid_submission",
            Self::CheckRefused => "check_refused",
            Self::RetriesExhausted => "retries_exhausted",
            Self::MaxRounds => "max_rounds",
            Self::NotSent => "not_sent",
            Self::UsedStatesFull => "used_states_full",
            Self::OAuthDenied => "oauth_denied",
            Self::RenderGaveUp => "render_gave_up",
            Self::RequestFailed => "request_failed",
            Self::PagesClosed => "pages_closed",
            Self::StoreFailed => "store_failed",
            Self::UsedStatesFailed => "used_states_failed",
            Self::NotReplicated => "not_replicated",
            Self::RedisUnreachable => "redis_unreachable",
            Self::RedisTimeout => "redis_timeout",
            Self::RedisFailed => "redis_failed",
            Self::CheckFailed => "check_failed",
            Self::OAuthExchangeFailed => "oauth_exchange_failed",
            Self::Internal => "internal",
        }
    }

    /// The level of its event: `WARN` for what looks like an attack,
    /// `INFO` for the user's answer and limits reached, `ERROR` for
    /// failures.
    pub(crate) const fn level(self) -> Level {
        match self {
            Self::WrongUser
            | Self::OtherBrowser
            | Self::CrossSitePost
            | Self::Csrf
            | Self::WrongHost
            | Self::Replay
            | Self::InvalidState
            | Self::OAuthState
            | Self::OAuthIssuer
            | Self::OAuthBadResponse
            | Self::UrlRefused
            | Self::GuardRefused
            | Self::ClientRefused
            | Self::UnreadableAnswer
            | Self::CompletionRefused => Level::WARN,
            Self::Declined
            | Self::Cancelled
            | Self::PageExpired
            | Self::PageUsed
            | Self::PageUnknown
            | Self::PageCap
            | Self::BodyTooLarge
            | Self::BadRequest
            | Self::InvalidSubmission
            | Self::CheckRefused
            | Self::RetriesExhausted
            | Self::MaxRounds
            | Self::NotSent
            | Self::UsedStatesFull
            | Self::OAuthDenied
            | Self::RenderGaveUp
            | Self::RequestFailed
            | Self::PagesClosed => Level::INFO,
            Self::StoreFailed
            | Self::UsedStatesFailed
            | Self::NotReplicated
            | Self::RedisUnreachable
            | Self::RedisTimeout
            | Self::RedisFailed
            | Self::CheckFailed
            | Self::OAuthExchangeFailed
            | Self::Internal => Level::ERROR,
        }
    }

    /// The event's message: what happened, in a few words.
    pub(crate) const fn message(self) -> &'static str {
        match self {
            Self::WrongUser => "refused: another user than the page's",
            Self::OtherBrowser => "refused: another browser than the one the page is bound to",
            Self::CrossSitePost => "refused: a post from another origin",
            Self::Csrf => "refused: a post without the page's CSRF token",
            Self::WrongHost => "refused: a request for another host",
            Self::Replay => "refused: a requestState used before",
            Self::InvalidState => "refused: a requestState that does not open",
            Self::OAuthState => "refused: an OAuth callback with an unknown state",
            Self::OAuthIssuer => "refused: an OAuth callback from another issuer",
            Self::OAuthBadResponse => "refused: a malformed OAuth authorization response",
            Self::UrlRefused => "refused: the URL review refused the URL",
            Self::GuardRefused => "refused: the guard answered -32602",
            Self::ClientRefused => "the client answered with a JSON-RPC error",
            Self::UnreadableAnswer => "the client's answer cannot be read",
            Self::CompletionRefused => "refused: a completion",
            Self::Declined => "the user declined",
            Self::Cancelled => "cancelled: by the user, or the page was given up",
            Self::PageExpired => "the page expired",
            Self::PageUsed => "the page was already answered",
            Self::PageUnknown => "no such page",
            Self::PageCap => "limit reached: the page store is full",
            Self::BodyTooLarge => "limit reached: the post is too large",
            Self::BadRequest => "refused: not a request the page server serves",
            Self::InvalidSubmission => "the page's post broke the form's rules",
            Self::CheckRefused => "a rule of the agent's refused the answer",
            Self::RetriesExhausted => "limit reached: no valid answer after the last attempt",
            Self::MaxRounds => "limit reached: too many rounds",
            Self::NotSent => "not sent",
            Self::UsedStatesFull => "limit reached: the used-state store is full",
            Self::OAuthDenied => "the OAuth provider denied the authorization",
            Self::RenderGaveUp => "the renderer gave no valid answer",
            Self::RequestFailed => "the request got no answer",
            Self::PagesClosed => "the pages are closed",
            Self::StoreFailed => "the page store failed",
            Self::UsedStatesFailed => "the used-state store failed",
            Self::NotReplicated => "not acknowledged by the replicas asked for: it did not count",
            Self::RedisUnreachable => "Redis is unreachable",
            Self::RedisTimeout => "Redis did not answer in time",
            Self::RedisFailed => "Redis answered with an error",
            Self::CheckFailed => "the answer's check failed",
            Self::OAuthExchangeFailed => "the OAuth token exchange failed",
            Self::Internal => "an internal failure",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How an id (a page's, an `elicitationId`) is logged: 12 hex digits of
/// its 64-bit FNV-1a hash, the same on every replica and in every release.
/// An operator finds the events of an id they know by its fingerprint;
/// the id cannot be read back from it (a page's id is 128 random bits, of
/// which 48 at most are told).
///
/// ```
/// use elicit_core::trace::fingerprint;
///
/// let fp = fingerprint("00112233445566778899aabbccddeeff");
/// assert_eq!(fp.len(), 12);
/// assert_eq!(fp, fingerprint("00112233445566778899aabbccddeeff"));
/// assert_ne!(fp, fingerprint("00112233445566778899aabbccddeefe"));
/// ```
pub fn fingerprint(id: &str) -> String {
    crate::fingerprint::Fingerprint(id).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_table_is_every_reason_at_its_level_and_names_are_distinct() {
        let page = include_str!("trace.rs");
        let section =
            &page[page.find("//! # Reasons").unwrap()..page.find("//! # Counting").unwrap()];
        let documented: Vec<(String, String)> = section
            .lines()
            .filter_map(|line| line.strip_prefix("//! | `"))
            .filter(|row| !row.starts_with("reason`"))
            .map(|row| {
                let mut cells = row.split(" | ");
                let name = cells.next().unwrap().trim_end_matches('`').to_owned();
                let level = cells.next().unwrap().trim_matches('`').to_owned();
                (name, level)
            })
            .collect();
        let code: Vec<(String, String)> = Reason::ALL
            .iter()
            .map(|r| (r.as_str().to_owned(), r.level().to_string()))
            .collect();
        assert_eq!(documented, code);
        let mut names: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        for reason in Reason::ALL {
            assert!(!reason.message().is_empty());
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Reason::ALL.len());
    }

    #[test]
    fn attacks_warn_limits_inform_stores_err() {
        assert_eq!(Reason::Replay.level(), Level::WARN);
        assert_eq!(Reason::Csrf.level(), Level::WARN);
        assert_eq!(Reason::Declined.level(), Level::INFO);
        assert_eq!(Reason::PageCap.level(), Level::INFO);
        assert_eq!(Reason::StoreFailed.level(), Level::ERROR);
    }

    #[test]
    fn a_fingerprint_is_12_hex_digits_and_not_the_id() {
        let id = "00112233445566778899aabbccddeeff";
        let fp = fingerprint(id);
        assert_eq!(fp.len(), 12);
        assert!(fp.bytes().all(|b| b.is_ascii_hexdigit()));
        assert!(!id.contains(&fp));
        // FNV-1a 64 of "" is its offset basis.
        assert_eq!(fingerprint(""), "cbf29ce48422");
    }
}
