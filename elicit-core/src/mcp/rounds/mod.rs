//! One way to ask inside a request's handler, whatever the MCP version:
//! `elicitation/create` requests through the flow engine on a 2025-11-25
//! peer with a session, input-required rounds on a 2026-07-28 peer
//! (SEP-2322) with the round's state sealed in `requestState`, and
//! `-32042` on a 2025-11-25 call without a session; inside a task
//! (SEP-2663), its input requests.
//!
//! [`Rounds`], the handle the tool's closure asks through, dispatches to
//! the regime of the call (no mode is an `Option` checked at run time).
//! One idea a file:
//!
//! - `arguments.rs`: a tool's own arguments as the form, completed by the
//!   user ([`Rounds::arguments`]), and their [`input_schema`];
//! - `ask.rs`: [`Ask`], a request's right to ask (a tool's, a prompt's, a
//!   resource's, a task's: [`TaskAsk`]), and [`ask`], its shorthand;
//!   `extract.rs`: [`Ask`] as a `#[tool]` function's extractor, through
//!   [`routed`]; `request.rs`: what a round needs of its request, and the
//!   response each method ends a round with ([`RoundResponse`]);
//! - `run.rs`: how a request's rounds run, whatever the regime;
//! - `handle.rs`: [`Rounds`] and [`FormAsk`], each question dispatched to
//!   the call's regime; the requests regime is the flow engine over rmcp's
//!   peer, nothing of its own;
//! - `task.rs`: a task's input requests as the flow engine's carrier
//!   (SEP-2663);
//! - `input.rs`: MCP 2026-07-28's input-required rounds;
//! - `sessionless.rs`: a 2025-11-25 call without a session (`-32042`);
//! - `pages.rs`: a page read by its id across calls (feature `sensitive`);
//! - `state.rs`: the state sealed in `requestState`, bound to the user and
//!   the request; `used.rs`: each state good for one call ([`UsedStates`]);
//! - `config.rs`: [`RoundsConfig`]; `call.rs`: how a call ends ([`Asked`]).

mod arguments;
mod ask;
mod call;
pub(crate) mod config;
mod extract;
mod handle;
mod input;
#[cfg(feature = "sensitive")]
mod pages;
pub(crate) mod request;
mod run;
pub(crate) mod sessionless;
mod state;
mod task;
mod used;

pub use arguments::{ArgumentsAsk, input_schema};
pub use ask::{Ask, TaskAsk, ask};
pub use call::Asked;
pub use config::RoundsConfig;
pub use extract::{PromptReply, Routed, routed};
pub use handle::{FormAsk, Rounds};
pub use request::RoundResponse;
pub(crate) use sessionless::URL_ELICITATION_REQUIRED;
pub use used::{BadStateId, MemoryUsedStates, StateId, UsedStates, UsedStatesError};
