//! [`StoreError`]: one error for every store and both kinds of record.

use crate::sensitive::token::PageId;

/// A store failed (a shared store's connection, say). The browser sees a
/// generic error page; the cause goes to the agent and the log, never to
/// the page.
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// The store holds as many open pages and flows as it may.
    Full {
        /// The cap.
        max: usize,
    },
    /// The id is taken (an id is 128 random bits: this is a bug).
    Taken(PageId),
    /// The step was not acknowledged by the replicas a store shared by
    /// several replicas asks for: it did not count (nobody saw it), and the
    /// same step may be tried again.
    NotReplicated,
    /// Another answer to the record is being saved: try again in a moment.
    Busy,
    /// The store's own failure.
    Backend(Box<dyn std::error::Error + Send + Sync>),
}

impl StoreError {
    /// Why the step failed, for its event's `cause` field (never the
    /// error's text, which may name a key): `not_replicated`, `busy`,
    /// `redis_unreachable`, `redis_timeout`, `redis_failed`, `unreadable`,
    /// or `backend` (a store of your own).
    pub(crate) fn cause(&self) -> &'static str {
        match self {
            Self::Full { .. } => "full",
            Self::Taken(_) => "taken",
            Self::NotReplicated => "not_replicated",
            Self::Busy => "busy",
            Self::Backend(error) => crate::cause::cause_of(&**error),
        }
    }

    /// The event of a record the store did not take: its cap reached
    /// (`page_cap`), or its failure (`store_failed`).
    pub(crate) fn trace_insert(&self) {
        match self {
            Self::Full { max } => refused!(PageCap, max = max),
            _ => refused!(StoreFailed, step = "insert", cause = self.cause()),
        }
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Full { max } => write!(
                f,
                "too many open pages and OAuth flows (at most {max}): answer or cancel some first"
            ),
            Self::Taken(e) => write!(f, "id `{e}` is already in the store"),
            Self::NotReplicated => f.write_str(
                "the store's replicas did not acknowledge the step: it did not count, try again",
            ),
            Self::Busy => f.write_str("another answer to this record is being saved"),
            Self::Backend(e) => write!(f, "the pages' store failed: {e}"),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Backend(e) => Some(&**e),
            _ => None,
        }
    }
}
