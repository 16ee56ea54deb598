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
//! - The pages live in [`RedisStore`] (with feature `sensitive`): any
//!   replica serves any page, any replica's round reads its answer, and the
//!   answer reaches the replica whose agent waits for it (an end notice on
//!   the replica's one connection wakes the waiting task: no polling, no
//!   thread or connection per waiter). The submitted secret and the page's binding tokens are
//!   sealed with [`SealingKeys`] (ChaCha20-Poly1305) before they reach
//!   Redis; an answer after a page's expiry is refused by Redis's clock.
//! - With feature `oauth`, `RedisFlowStore` keeps the OAuth flows
//!   (`Pages::oauth_store`, the same `Redis` and keys as the pages):
//!   any replica serves a flow's start page and its callback (the `state`
//!   names the flow, so no lookup scans), and the token reaches the replica
//!   whose agent waits; the `state`, the PKCE verifier, the client secret
//!   and the token are sealed there.
//!
//! Each store method is one atomic step (a Lua script or one command), and
//! every key expires. Everything is async and nothing blocks: each replica
//! keeps one multiplexed connection ([`Redis`]), each command has a
//! timeout ([`COMMAND_TIMEOUT`]), and a stalled or distant Redis holds
//! only the requests that need it. The replicas share one [`Redis`] address, one
//! keyring for `requestState` (`RoundsConfig::new` with rmcp's
//! `RequestStateCodec::new_with_keyring`) and one [`SealingKeys`].
//!
//! The setup of every replica (a Streamable HTTP server with the MCP
//! endpoint and the pages on one port; `user_of` is your authentication,
//! who sent a request, and `key` reads a 32-byte key from your secret
//! store):
//!
//! ```no_run
//! # #[cfg(all(feature = "rmcp", feature = "sensitive"))]
//! # mod guide {
//! use elicit_core::mcp::RoundsConfig;
//! use elicit_core::protocol::agent::VerifiedUser;
//! use elicit_core::redis::{Redis, RedisStore, RedisUsedStates, SealingKeys};
//! use elicit_core::sensitive::Pages;
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
//!     ));
//!     let codec = rmcp::model::RequestStateCodec::try_new(key("ELICIT_STATE_KEY").to_vec())?;
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
//! Serve `pages.service()` and rmcp's Streamable HTTP service (stateless)
//! on the same port, and ask with [`run_tool`](crate::mcp::run_tool) and
//! that config. The repository's `examples/replica.rs` is a whole replica
//! (commands: `examples/README.md`).
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
//! the command that reproduces it; `tests/it/load.rs`). What it costs to
//! build: BENCHMARKS.md, "Dependencies".
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
//! | runs a replica with a clock off (behind or ahead) | accept what the others consider expired, or open pages that outlive theirs | a page's or flow's expiry is set by Redis's clock (the opener sends a duration, so its skew cancels out), and an answer or callback after it is refused by Redis's clock, not the replica's; a used `requestState` is remembered for its lifetime plus the replicas' clock skew ([`DEFAULT_CLOCK_SKEW`]), so a replica whose clock is behind still finds it used |

mod conn;
#[cfg(feature = "oauth")]
mod flows;
#[cfg(feature = "sensitive")]
mod pages;
#[cfg(feature = "sensitive")]
mod records;
mod seal;
#[cfg(feature = "rmcp")]
mod used;

pub use conn::{COMMAND_TIMEOUT, Redis};
#[cfg(feature = "oauth")]
pub use flows::RedisFlowStore;
#[cfg(feature = "sensitive")]
pub use pages::RedisStore;
#[cfg(feature = "sensitive")]
pub use records::KEPT_AFTER_EXPIRY;
pub use seal::SealingKeys;
#[cfg(feature = "rmcp")]
pub use used::{DEFAULT_CLOCK_SKEW, RedisUsedStates};
