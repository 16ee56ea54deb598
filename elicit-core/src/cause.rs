//! [`Caused`]: a backend's failure with the reason an operator acts on, so
//! that the seams (the pages' store, the used-state store) name the cause
//! of a failure in their events without knowing the backend.

use std::error::Error;
use std::fmt;

/// A backend's error and its cause, as a `reason` names it
/// (`redis_unreachable`, `redis_timeout`, `redis_failed`, `unreadable`).
#[derive(Debug)]
pub(crate) struct Caused {
    cause: &'static str,
    error: Box<dyn Error + Send + Sync>,
}

impl Caused {
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn new(cause: &'static str, error: impl Into<Box<dyn Error + Send + Sync>>) -> Self {
        Self {
            cause,
            error: error.into(),
        }
    }
}

impl fmt::Display for Caused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl Error for Caused {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&*self.error)
    }
}

/// The cause of a backend's `error`: its own if the backend named one,
/// `backend` otherwise (a store of your own).
#[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
pub(crate) fn cause_of(error: &(dyn Error + 'static)) -> &'static str {
    error
        .downcast_ref::<Caused>()
        .map_or("backend", |caused| caused.cause)
}
