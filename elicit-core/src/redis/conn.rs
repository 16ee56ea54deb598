//! [`Redis`]: one connection to the Redis every replica shares, opened
//! again after a failure.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How long one command may take before it fails (and the connection is
/// opened afresh for the next one): request handlers call the stores, so a
/// Redis that stopped answering must not hold them.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);

/// The Redis that the replicas behind one URL share: where
/// [`RedisStore`](super::RedisStore) keeps pages and
/// [`RedisUsedStates`](super::RedisUsedStates) the used `requestState`s.
/// Cheap to clone: every clone is one connection, opened on first use and
/// again after a failure (a restarted Redis costs the commands that failed
/// while it was down, not a restart of the server).
///
/// Every key is under a prefix (`elicit` unless told otherwise), so one
/// Redis can serve several deployments.
#[derive(Clone)]
pub struct Redis {
    inner: Arc<Inner>,
}

// With neither store compiled (feature `redis` alone) nothing uses it.
#[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
struct Inner {
    client: redis::Client,
    prefix: String,
    connection: Mutex<Option<redis::Connection>>,
}

impl fmt::Debug for Redis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redis")
            .field("prefix", &self.inner.prefix)
            .finish_non_exhaustive()
    }
}

impl Redis {
    /// The Redis at `url` (`redis://host:port/db`), connected on first use.
    ///
    /// # Errors
    ///
    /// redis-rs's, for a URL it cannot read.
    pub fn open(url: &str) -> Result<Self, redis::RedisError> {
        Ok(Self {
            inner: Arc::new(Inner {
                client: redis::Client::open(url)?,
                prefix: "elicit".to_owned(),
                connection: Mutex::new(None),
            }),
        })
    }

    /// Puts every key under `prefix` instead of `elicit`.
    #[must_use]
    pub fn prefix(self, prefix: impl Into<String>) -> Self {
        Self {
            inner: Arc::new(Inner {
                client: self.inner.client.clone(),
                prefix: prefix.into(),
                connection: Mutex::new(None),
            }),
        }
    }

    /// The key `<prefix>:<rest>`.
    #[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
    pub(crate) fn key(&self, rest: std::fmt::Arguments<'_>) -> String {
        format!("{}:{rest}", self.inner.prefix)
    }

    #[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
    /// Runs `f` on the shared connection, opened first if needed; a
    /// connection that failed is dropped, so the next call opens a new one.
    pub(crate) fn with<T>(
        &self,
        f: impl FnOnce(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> redis::RedisResult<T> {
        let mut slot = self
            .inner
            .connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let connection = match &mut *slot {
            Some(connection) => connection,
            None => slot.insert(self.connect()?),
        };
        let result = f(connection);
        if let Err(error) = &result
            && (error.is_io_error()
                || error.is_timeout()
                || error.is_connection_dropped()
                || error.is_unrecoverable_error())
        {
            *slot = None;
        }
        result
    }

    #[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
    /// A connection of its own (for a command that blocks, such as
    /// `BLPOP`), with `read_timeout` (`None`: none) for its reads.
    pub(crate) fn dedicated(
        &self,
        read_timeout: Option<Duration>,
    ) -> redis::RedisResult<redis::Connection> {
        let connection = self
            .inner
            .client
            .get_connection_with_timeout(COMMAND_TIMEOUT)?;
        connection.set_read_timeout(read_timeout)?;
        connection.set_write_timeout(Some(COMMAND_TIMEOUT))?;
        Ok(connection)
    }

    #[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
    fn connect(&self) -> redis::RedisResult<redis::Connection> {
        self.dedicated(Some(COMMAND_TIMEOUT))
    }
}
