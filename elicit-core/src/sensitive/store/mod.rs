//! Where pages and OAuth flows live between requests: the [`Store`] seam,
//! what it keeps ([`Record`], [`Binding`], [`State`], [`End`]), its
//! errors, and [`MemoryStore`], the default. For store implementers: an
//! agent that keeps the default needs none of it.
//!
//! A page and an OAuth flow are one kind of record with one lifecycle:
//!
//! ```text
//! insert ──▶ Open ──bind──▶ Open (bound) ──take──▶ Taken ──end──▶ Answered
//!              │                 │                   │
//!              └──── end ────────┴───────────────────┴──▶ Answered | Expired | Cancelled
//! ```
//!
//! A page's post ends it at once (`Open` to `Answered`); an OAuth callback
//! first takes its flow (its `state` is used once, by the store's clock),
//! then ends it with the exchange's outcome. The first end counts, wakes
//! every waiter and stays until [`Store::remove`], so a late visit sees
//! how it ended and a later round reads it ([`Store::end_of`]). Every
//! store, every replica and both kinds share one drop rule (a handle
//! dropped before the end ends its record as `Cancelled`), one cap on
//! open records, and one error ([`StoreError`]).

mod boxed;
mod error;
mod memory;
mod record;
mod seam;

pub(crate) use boxed::DynStore;
pub use error::StoreError;
pub use memory::MemoryStore;
pub use record::{Answer, Binding, End, Record, State};
pub(crate) use record::{Kind, PageAsk};
pub use seam::Store;
