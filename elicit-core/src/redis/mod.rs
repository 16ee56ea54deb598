//! Several replicas behind one URL (feature `redis`): the stores of a hosted
//! server in Redis, so that no request needs the replica that began its
//! flow.
//!
//! - [`RedisStore`] (with feature `sensitive`): the page server's pages,
//!   and with feature `oauth` its OAuth flows. Any replica serves any page,
//!   any flow's start page and callback; the answer reaches the replica
//!   whose agent waits for it (`BLMOVE`, no polling). The submitted secret,
//!   the binding tokens, the flow's `state`, PKCE verifier and client
//!   secret, and the token are sealed with [`SealingKeys`] before they
//!   reach Redis.
//! - [`RedisUsedStates`] (with feature `rmcp`): a sealed `requestState` of
//!   the MCP 2026-07-28 rounds is good for one call on any replica.
//!
//! Each store method is one atomic step (a Lua script or one command), and
//! every key expires. The replicas share one [`Redis`] address, one
//! keyring for `requestState` (`RoundsConfig::new` with rmcp's
//! `RequestStateCodec::new_with_keyring`) and one [`SealingKeys`].
//!
//! # Threat model, the store's rows
//!
//! | who | can | finds |
//! |---|---|---|
//! | reads Redis (a dump, its replica, its network) | read every key | messages, schemas, user ids, page and flow states: no secret, no binding cookie, no CSRF token, no OAuth `state`, PKCE verifier, client secret or token (sealed) |
//! | writes Redis | change or swap blobs | a blob that does not open (its key's place is its associated data): the page shows an error, the flow fails, nothing is accepted |
//! | kills the replica that runs an OAuth callback, during the token exchange | leave a used flow without an end | the flow's `state` is used (no replay); the agent waiting on its replica sees the flow cancelled when its keys expire (`KEPT_AFTER_EXPIRY` after its expiry) |
//! | replays a `requestState` on another replica | call the tool again | `-32602`: the state's id is recorded once in Redis |
//! | stops Redis | fail every step | the pages and calls in flight fail cleanly (an error page, a failed tool call); the next command opens a new connection |
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
#[cfg(feature = "sensitive")]
pub use pages::RedisStore;
#[cfg(feature = "sensitive")]
pub use records::KEPT_AFTER_EXPIRY;
pub use seal::SealingKeys;
#[cfg(feature = "rmcp")]
pub use used::{DEFAULT_CLOCK_SKEW, RedisUsedStates};
