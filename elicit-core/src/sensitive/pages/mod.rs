//! [`Pages`]: the open pages and OAuth flows of one agent and how they are
//! reached. One idea a file:
//!
//! - `builder.rs`: [`PagesBuilder`], how they are set up
//!   ([`Pages::loopback`], [`Pages::hosted`]), and the defaults.
//! - `handle.rs`: [`Pages`], the handle every flow and the page service
//!   share.
//! - `error.rs`: why they could not be set up, why a page could not be
//!   opened, why an open page gave no outcome.
//! - `open.rs`: opening a page, and storing any record (a page, a flow).
//! - `pending.rs`: what the agent holds of an open record (one drop rule
//!   for a page and a flow), and [`PendingPage`].
//! - `answer.rs`: [`SecretOutcome`], and the one function that turns a
//!   page's end into it (a page the MCP rounds read by its id across calls
//!   is theirs: `mcp/rounds/pages.rs`).

mod answer;
pub(crate) mod builder;
mod error;
mod handle;
mod open;
pub(crate) mod pending;

pub use answer::SecretOutcome;
pub(crate) use answer::answer_of;
pub use builder::PagesBuilder;
pub use error::{ConfigError, OpenError, PageError};
pub use handle::Pages;
pub use pending::PendingPage;
