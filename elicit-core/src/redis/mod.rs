//! Several replicas behind one URL (feature `redis`): the stores of a hosted
//! server in Redis, so that no request needs the replica that began its
//! flow.
//!
//! A hosted MCP server on several replicas behind a load balancer, with no
//! sticky routing: on MCP 2026-07-28 every round of a tool call is its own
//! request, and a page's visits and post come from the user's browser, so
//! any replica may serve any of them. With this feature, what a flow keeps
//! between requests lives in Redis, and the replicas share nothing else:
//!
//! - The rounds' state travels in `requestState`, sealed with one keyring
//!   every replica shares, and is good for one call across replicas:
//!   [`RedisUsedStates`] (with feature `rmcp`).
//! - The pages and OAuth flows live in [`RedisStore`] (with feature
//!   `sensitive`), one store for both: any replica serves any page and any
//!   flow's start page and callback (the `state` names the flow, so no
//!   lookup scans), any replica's round reads a page's answer, and the
//!   answer (or the token) reaches the replica whose agent waits for it
//!   (an end notice on the replica's one connection wakes the waiting task:
//!   no polling, no thread or connection per waiter). Every record, end
//!   and binding is sealed with [`SealingKeys`] (ChaCha20-Poly1305) before
//!   it reaches Redis; an answer after a record's expiry is refused by
//!   Redis's clock.
//!
//! Each store method is one atomic step (a Lua script or one command), and
//! every key expires. Everything is async and nothing blocks: each replica
//! keeps one multiplexed connection ([`Redis`]), each command has a
//! timeout (2 seconds by default, [`Redis::command_timeout`]), and a stalled or distant Redis holds
//! only the requests that need it. The replicas share one [`Redis`]
//! address, one keyring for `requestState` ([`RoundsConfig::new`] with
//! rmcp's `RequestStateCodec::new_with_keyring`: its keys have ids, so a
//! key can be rotated while the replicas run, as [`RoundsConfig`] says) and
//! one [`SealingKeys`].
//!
//! [`RoundsConfig`]: crate::mcp::RoundsConfig
//! [`RoundsConfig::new`]: crate::mcp::RoundsConfig::new
//!
//! # A replica
//!
//! A replica's `[dependencies]` (the repository's `tests/user-crates/replica`
//! builds `examples/replica.rs`, a whole replica, from these lines alone):
//!
//! ```toml
//! [dependencies]
//! elicit-core = { path = "../elicit/elicit-core", features = ["rmcp", "sensitive", "redis", "tracing"] }
//! rmcp = { version = "3.11", features = ["server", "request-state", "transport-streamable-http-server"] }
//! tokio = { version = "1", features = ["macros", "rt", "net"] }
//! hyper = { version = "1", features = ["server", "http1"] }
//! hyper-util = { version = "0.1", features = ["tokio"] }
//! http = "1"
//! http-body-util = "0.1"
//! tower-service = "0.3"
//! tracing-subscriber = { version = "0.3", features = ["env-filter"] }
//! ```
//!
//! rmcp's `request-state` is its `RequestStateCodec`, and
//! `transport-streamable-http-server` its `StreamableHttpService`, the MCP
//! endpoint; the next five lines serve it and the pages on one port (each
//! crate is already in the tree, for elicit-core's page server).
//! `tracing-subscriber` writes the log ([below](#what-an-operator-sees)),
//! with elicit-core's `tracing` feature.
//!
//! The setup of every replica (`user_of` is your authentication, who sent
//! a request, and `key` reads a 32-byte key from your secret store):
//!
//! ```no_run
//! # #[cfg(all(feature = "rmcp", feature = "sensitive"))]
//! # mod guide {
//! use elicit_core::mcp::RoundsConfig;
//! use elicit_core::protocol::agent::VerifiedUser;
//! use elicit_core::redis::{Redis, RedisStore, RedisUsedStates, SealingKeys};
//! use elicit_core::sensitive::Pages;
//! use rmcp::model::RequestStateCodec;
//! # // Who sent the request: a header the proxy in front sets once the
//! # // user has signed in.
//! # fn user_of(parts: &http::request::Parts) -> Option<String> {
//! #     Some(parts.headers.get("x-user")?.to_str().ok()?.to_owned())
//! # }
//! # // A 32-byte key, as 64 hex digits in the environment.
//! # fn key(name: &str) -> [u8; 32] {
//! #     let hex = std::env::var(name).expect("the key in the environment");
//! #     let mut key = [0; 32];
//! #     for (i, byte) in key.iter_mut().enumerate() {
//! #         let digits = hex.get(2 * i..2 * i + 2).expect("64 hex digits");
//! #         *byte = u8::from_str_radix(digits, 16).expect("64 hex digits");
//! #     }
//! #     key
//! # }
//!
//! pub fn replica(
//!     redis_url: &str,
//!     public_url: &str, // the balancer's address: the pages' URLs point there
//! ) -> Result<(Pages, RoundsConfig), Box<dyn std::error::Error>> {
//!     // Every replica: the same Redis, the same keys (from your secret
//!     // store), the same user verification.
//!     let redis = Redis::open(redis_url)?;
//!     let pages = Pages::hosted(
//!         &format!("{public_url}/elicit"),
//!         |parts: &http::request::Parts| user_of(parts).map(VerifiedUser::new),
//!     )?
//!     .store(RedisStore::new(
//!         redis.clone(),
//!         SealingKeys::new(1, key("ELICIT_SEALING_KEY")),
//!     ))
//!     .build();
//!     // The keyring: seals with key "1". A rotation adds "2" everywhere,
//!     // then makes it the active one, then drops "1" after the TTL.
//!     let keys = [("1", key("ELICIT_STATE_KEY"))];
//!     let codec = RequestStateCodec::new_with_keyring("1", keys)?;
//!     let config = RoundsConfig::new(codec)
//!         .principal(|context| {
//!             context
//!                 .extensions
//!                 .get::<http::request::Parts>()
//!                 .and_then(user_of)
//!                 .unwrap_or_default()
//!         })
//!         .used_states(RedisUsedStates::new(redis))
//!         // MCP 2025-11-25 clients: no session, so a page is asked with -32042.
//!         .without_sessions(key("ELICIT_CALL_KEY"));
//!     Ok((pages, config))
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! Ask with [`ask`](crate::mcp::ask) and that config in your
//! `ServerHandler`'s `call_tool`, and serve it with rmcp's
//! `StreamableHttpService`, stateless (`legacy_session_mode = false` in its
//! `StreamableHttpServerConfig`: any request to any replica) and for the
//! balancer's host (its `with_allowed_hosts`: rmcp answers only loopback
//! `Host`s unless told otherwise). The balancer passes the `Host` on: the
//! pages check it against the public URL too.
//!
//! # The pages and MCP on one port
//!
//! [`pages.service()`](crate::sensitive::Pages::service) is a `tower`
//! service. It answers `GET` and `POST` on `<path>/<id>`, where `<path>` is
//! the public URL's path (`/elicit` above), and the same without `<path>`
//! (`/<id>`), what a router that strips the mount path passes on; an OAuth
//! flow's start page and `<path>/oauth/callback` (feature `oauth`) the same
//! way. Anything else is `404`. So either way works:
//!
//! - With axum, nest both services; `nest_service` strips `/elicit`, and
//!   the pages read `/<id>`:
//!   `Router::new().nest_service("/mcp", mcp).nest_service("/elicit", pages.service())`.
//! - With hyper alone (what `examples/replica.rs` does), nothing is
//!   stripped: route by the path, `/mcp` to rmcp's service and the rest to
//!   the pages, which read `/elicit/<id>`:
//!
//! ```no_run
//! # #[cfg(feature = "sensitive")]
//! # mod guide {
//! use std::convert::Infallible;
//!
//! use elicit_core::sensitive::Pages;
//! use http_body_util::BodyExt;
//! use http_body_util::combinators::BoxBody;
//! use hyper::body::{Bytes, Incoming};
//! use hyper::service::service_fn;
//! use hyper_util::rt::TokioIo;
//! use tower_service::Service;
//!
//! /// What rmcp's `StreamableHttpService` answers; the pages' answers, boxed.
//! type Response = http::Response<BoxBody<Bytes, Infallible>>;
//!
//! /// `mcp` (rmcp's `StreamableHttpService`) at `/mcp`, the pages at the
//! /// rest, on one listener.
//! pub async fn serve<M>(
//!     listener: tokio::net::TcpListener,
//!     mcp: M,
//!     pages: Pages,
//! ) -> std::io::Result<()>
//! where
//!     M: Service<http::Request<Incoming>, Response = Response, Error = Infallible>,
//!     M: Clone + Send + 'static,
//!     M::Future: Send,
//! {
//!     loop {
//!         let (stream, _) = listener.accept().await?;
//!         let (mcp, pages) = (mcp.clone(), pages.service());
//!         tokio::spawn(async move {
//!             let service = service_fn(move |request: http::Request<Incoming>| {
//!                 let (mut mcp, mut pages) = (mcp.clone(), pages.clone());
//!                 async move {
//!                     if request.uri().path().starts_with("/mcp") {
//!                         mcp.call(request).await
//!                     } else {
//!                         Ok(pages.call(request).await?.map(|body| body.boxed()))
//!                     }
//!                 }
//!             });
//!             let _ = hyper::server::conn::http1::Builder::new()
//!                 .serve_connection(TokioIo::new(stream), service)
//!                 .await;
//!         });
//!     }
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! `pages.service()` holds the pages weakly (it answers `503` once every
//! [`Pages`](crate::sensitive::Pages) is dropped): keep the `Pages` alive
//! as long as you serve, as `serve` does. The repository's
//! `examples/replica.rs` is a whole replica: this setup, rmcp's service
//! over a tool, and this routing (commands: `examples/README.md`).
//!
//! # Redis Cluster
//!
//! [`Redis::cluster`] in place of [`Redis::open`], with the nodes' URLs
//! (any of them: the client finds the rest), and the stores work
//! unchanged:
//!
//! ```no_run
//! use elicit_core::redis::Redis;
//!
//! # fn open() -> Result<Redis, redis::RedisError> {
//! let redis = Redis::cluster(["redis://10.0.0.1:7000/", "redis://10.0.0.2:7000/"])?;
//! # Ok(redis)
//! # }
//! ```
//!
//! - **Slots.** A page's (or flow's) keys share its id as hash tag
//!   (`page:{<id>}`, `page:{<id>}:end`): each script touches one slot, and
//!   the pages spread over the masters.
//! - **The cap on open pages** needs the one key every replica shares, the
//!   open set (`pages:open`, a slot of its own). It is kept in steps of its
//!   own, around the record's: a place is reserved there first (refused
//!   when the cap is reached), the record is added after, and an ended
//!   page gives its place back in a step after its end. A replica that
//!   dies between two steps leaves a place taken until the page's expiry
//!   (the set's scores): the cap errs on the side of refusing, never of
//!   admitting more. The same steps run on a single Redis.
//! - **Failover.** Redis replicates asynchronously: a master that dies
//!   right after a write can take the write with it. The writes whose loss
//!   would accept something twice wait for a replica's acknowledgement
//!   (`WAIT`, [`Redis::replicated_writes`]: one replica on a cluster): a
//!   used `requestState`, a page's answer, an OAuth flow's used `state`.
//!   Without it, the step fails closed and is taken back: the call fails
//!   and the same `requestState` may come again; the page says "Not saved"
//!   (`503`) and takes the post again; the OAuth callback may come again.
//! - **One truth for an answer.** A page's answer (or an OAuth flow's
//!   outcome) is written in two steps: staged where no waiter looks, and
//!   made visible (the end list and its notice) only once the replicas
//!   acknowledged the stage. The agent never sees an answer the page
//!   reported as not saved, and an answer the page reported as saved is
//!   the agent's: it is committed on whichever master holds the page, the
//!   promoted replica included (a task tries again through the failover).
//!   While an answer is being saved (30 s at most), the page refuses
//!   another post, and its expiry and cancellation wait.
//!
//! ## The topology to run
//!
//! A Redis Cluster with **two replicas per master** (`redis-cli --cluster
//! create ... --cluster-replicas 2`) and [`Redis::cluster`]'s default of
//! one acknowledging replica. When a master dies, one of its replicas is
//! promoted and the other follows it, so the promoted master still has a
//! replica: calls fail only during the failover itself (the
//! `cluster-node-timeout` and the election; keep it under 20 s, below the
//! 30 s an answer being saved holds its page) and a few seconds while the
//! other replica resyncs. With one replica per master, the promoted master
//! has none: every step that must survive a failover fails on its slots
//! (`not_replicated`) until the failed node is back as its replica.
//!
//! A replica of the agent that cannot make writes count says so:
//! [`Redis::ready`] checks that every master has the replicas asked for,
//! and `examples/replica.rs` logs why at start and serves it as `/ready`
//! (`200`, or `503` with the reason in its log): point your balancer's
//! health check there, so it sends no work to a replica that would fail
//! it (on the first start, until the replicas' initial sync is done; after
//! a failover with one replica per master, until a replica follows the
//! promoted master).
//! - **End notices** are `PUBLISH`ed, which a cluster carries to every
//!   node; the connection's subscription moves with a failover, and every
//!   waiter reads its end again when it does.
//!
//! `tests/it/cluster.rs` runs them on a three-master cluster with two
//! replicas each (Debian's `redis-server`, `redis-cli --cluster create`, on
//! loopback): a master killed between a post and its acknowledgement, and
//! just after it, and the page, the agent and the log agree each time;
//! then calls at a steady rate through a master's death, every failure
//! within the failover plus 5 s, nothing accepted twice (the figures:
//! BENCHMARKS.md, "Through a failover").
//!
//! # What an operator sees
//!
//! With elicit-core's `tracing` feature, each replica logs a span per flow
//! and an event with a stable `reason` at every refusal and failure, never a
//! secret (`elicit_core::trace`); `examples/replica.rs` writes them to
//! stderr with `tracing-subscriber` when `RUST_LOG` is set
//! (`RUST_LOG=elicit_core=info` here; in production
//! `RUST_LOG=warn,rmcp=error,elicit_core=info`, and never rmcp at `debug`:
//! it logs every message whole, form answers and `requestState`s included;
//! its `warn` and `info` lines name pages' URLs and ids; `elicit_core::trace`,
//! "In production"). What each fault the deploy tests
//! inject looks like, copied from their run (`ELICIT_REPLICA_LOG=dir
//! RUST_LOG=elicit_core=info cargo test --all-features --test it deploy::`
//! writes each replica's log to `dir`), a line per replica that logged:
//!
//! - **The wrong user**: Bob opens Alice's page, on whichever replica the
//!   balancer picked (`403`); Alice's own visit and post log nothing.
//!
//!   ```text
//!   2026-12-07T22:13:39.101422Z  WARN page_request{method=GET page=ea9fb8b8000e}: elicit_core::sensitive::service::checks: refused: another user than the page's reason="wrong_user" verified=true
//!   ```
//!
//! - **A replica killed** (`kill -9` of the one that opened the page): the
//!   others log nothing but Bob's refusal; the page lives in Redis, the
//!   flow completes on them.
//!
//! - **Redis restarted, empty, mid-flow**: the page is gone. Every visit
//!   and post is a `404` on the replica that got it, and the round that
//!   reads the page ends the flow as cancelled:
//!
//!   ```text
//!   2026-12-07T22:14:35.610998Z  INFO page_request{method=GET page=ec5108d522de}: elicit_core::sensitive::service::checks: no such page reason="page_unknown"
//!   2026-12-07T22:14:35.705164Z  INFO page_request{method=POST page=ec5108d522de}: elicit_core::sensitive::service::checks: no such page reason="page_unknown"
//!   2026-12-07T22:14:35.717017Z  INFO rounds{transport=mcp protocol_version=2026-07-28 method=tools/call name=connect regime=input_rounds round=2}: elicit_core::mcp::rounds::pages: no such page reason="page_unknown" step=round page=ec5108d522de
//!   2026-12-07T22:14:35.717108Z  INFO rounds{transport=mcp protocol_version=2026-07-28 method=tools/call name=connect regime=input_rounds round=2}: elicit_core::flow::page: cancelled: by the user, or the page was given up reason="cancelled"
//!   ```
//!
//! - **Redis stopped**: each command fails after its timeout, or at once
//!   when the connection is refused; the step that needed it says which
//!   (copied from `tests/it/trace_sweep.rs`'s run with
//!   `ELICIT_TRACE_SWEEP_LOG=1`, which stops its Redis and opens a page):
//!
//!   ```text
//!   2026-12-08T01:40:27.211835Z ERROR elicit_core::redis::conn: Redis is unreachable reason="redis_unreachable" kind=connection_refused
//!   2026-12-08T01:40:27.212441Z ERROR elicit_core::sensitive::store::error: the page store failed reason="store_failed" step=insert cause=redis_unreachable
//!   ```
//!
//! - **A write no replica acknowledged** (a master without the replicas
//!   asked for): the post did not count, the page says "Not saved" and
//!   takes it again; the reason says why, the store's failure its cause
//!   (`tests/it/audience.rs`). Take the replica out of the balancer while
//!   [`Redis::ready`] fails (`/ready` in `examples/replica.rs`), and give
//!   the master its replicas:
//!
//!   ```text
//!   ERROR elicit_core::redis::conn: not acknowledged by the replicas asked for: it did not count reason="not_replicated" asked=1 acknowledged=0
//!   ERROR page_request{method=POST page=..}: elicit_core::sensitive::service::page: the page store failed reason="store_failed" step=end cause=not_replicated
//!   ```
//!
//! - **Every flow that ends** is one `INFO` line with its outcome (count
//!   them; no value is in it):
//!
//!   ```text
//!   2026-12-08T01:40:19.503441Z  INFO flow{transport=acp protocol_version=1 flow=secret mode=url form=DeployToken page=1b38a2273777 elicitation_id=1b38a2273777}: elicit_core::flow::engine: flow ended outcome="answered" duration_ms=10
//!   ```
//!
//! - **A replay** (a `requestState` sent again, on any replica), and a
//!   tampered one (the same run):
//!
//!   ```text
//!   2026-12-07T22:12:25.801036Z  WARN rounds{transport=mcp protocol_version=2026-07-28 method=tools/call name=deploy regime=input_rounds}: elicit_core::mcp::rounds::state: refused: a requestState used before reason="replay" round=1
//!   2026-12-07T22:12:25.802063Z  WARN rounds{transport=mcp protocol_version=2026-07-28 method=tools/call name=deploy regime=input_rounds}: elicit_core::mcp::rounds::state: refused: a requestState that does not open reason="invalid_state" problem=does not open
//!   ```
//!
//! A page is named by its fingerprint (`page=0cc2527f6158`), never its id:
//! `elicit_core::trace::fingerprint` of an id you hold finds
//! its lines. Count the reasons with any `tracing` layer
//! (`examples/count_reasons.rs`) and alert on the `WARN` and `ERROR` ones.
//!
//! # Tested as deployed
//!
//! The repository's `tests/it/deploy.rs` runs `examples/replica.rs` as
//! deployed: `redis-server`, three replicas and `haproxy` (round robin) on
//! loopback, the official TypeScript client over HTTP at both MCP versions,
//! the page in headless Chromium; and the faults: the replica that opened a
//! page killed (`kill -9`) before the user opens it, Redis restarted
//! mid-flow. MCP 2025-11-25 clients, which would need a session for a
//! request in the middle of a call, get `-32042` (URL elicitation required)
//! with the page to complete, then retry on any replica. Replicas whose
//! clocks are a minute off (`faketime`) agree on every flow and expiry:
//! Redis's clock sets it. `tests/it/replicas.rs` runs the stores as
//! several replicas on one real Redis.
//!
//! Under load, through haproxy on a 2-core machine (everything on it):
//! about 10,000 form rounds a second with one or three replicas, p99 under
//! 8 ms a round, half a Redis command a round, and a secret page's view and
//! post p99 under 8 ms (BENCHMARKS.md, "Several replicas under load", with
//! the command that reproduces it; `tests/it/load.rs`). With Redis a
//! round trip of 1 or 5 ms away (a latency proxy between the replicas and
//! Redis), form rounds keep their rate (87-120 % at 1 ms), and twenty
//! concurrent rounds on one replica cost one round trip more, not twenty:
//! their commands are in flight together ("Redis at a distance"). What it
//! costs to build: BENCHMARKS.md, "Dependencies".
//!
//! # Threat model, the store's rows
//!
//! | who | can | finds |
//! |---|---|---|
//! | reads Redis (a dump, its replica, its network) | read every key | messages, schemas, user ids, page and flow states: no secret, no binding cookie, no CSRF token, no OAuth `state`, PKCE verifier, client secret or token (sealed) |
//! | writes Redis | change or swap blobs | a blob that does not open (its key's place is its associated data): the page shows an error, the flow fails, nothing is accepted |
//! | kills the replica that runs an OAuth callback, during the token exchange | leave a used flow without an end | the flow's `state` is used (no replay); the agent waiting on its replica sees the flow cancelled when its keys expire (`KEPT_AFTER_EXPIRY` after its expiry) |
//! | replays a `requestState` on another replica | call the tool again | `-32602`: the state's id is recorded once in Redis |
//! | stops Redis | fail every step | the pages and calls in flight fail cleanly after their timeout (an error page, a failed tool call); requests that need no Redis are answered meanwhile; the connection is opened again in the background |
//! | kills a Redis master (a cluster's, or a single Redis with a replica) | lose the writes its replica did not have yet | nothing accepted twice: a used `requestState`, a page's answer and an OAuth `state`'s use count only once a replica acknowledged them (`WAIT`), and an answer is visible to the agent only then; the page and the agent agree on it. What can be lost is what counted for nothing yet: a page opened or bound just before (the user opens it again or the flow fails), a place in the open set (given back at its expiry) |
//! | runs a replica with a clock off (behind or ahead) | accept what the others consider expired, or open pages that outlive theirs | a page's or flow's expiry is set by Redis's clock (the opener sends a duration, so its skew cancels out), and an answer or callback after it is refused by Redis's clock, not the replica's; a used `requestState` is remembered for its lifetime plus the replicas' clock skew (5 minutes unless [`RedisUsedStates::clock_skew`] says otherwise), so a replica whose clock is behind still finds it used |

pub(crate) mod conn;
mod seal;
#[cfg(feature = "sensitive")]
pub(crate) mod store;
#[cfg(feature = "rmcp")]
pub(crate) mod used;

pub use conn::{NotReady, Redis};
pub use seal::SealingKeys;
#[cfg(feature = "sensitive")]
pub use store::RedisStore;
#[cfg(feature = "rmcp")]
pub use used::RedisUsedStates;
