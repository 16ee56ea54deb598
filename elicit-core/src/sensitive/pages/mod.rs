//! [`Pages`]: the pending pages of one agent and how they are reached. One
//! idea a file:
//!
//! - `builder.rs`: [`PagesBuilder`], how they are set up
//!   ([`Pages::loopback`], [`Pages::hosted`]), and the defaults.
//! - `handle.rs`: [`Pages`], the handle every flow and the page service
//!   share.
//! - `error.rs`: why they could not be set up, why a page could not be
//!   opened, how a page ended without an answer.
//! - `open.rs`: opening a page.
//! - `pending.rs`: [`PendingPage`], one page as the agent that opened it
//!   waits for it.
//! - `answer.rs`: the one function that turns a page's end into its typed
//!   answer (a page the MCP rounds read by its id across calls is theirs:
//!   `mcp/rounds/pages.rs`).

mod answer;
pub(crate) mod builder;
mod error;
mod handle;
mod open;
mod pending;

pub(crate) use answer::answer_of;
pub use builder::PagesBuilder;
pub use error::{ConfigError, OpenError, PageError};
pub use handle::Pages;
pub use pending::PendingPage;
