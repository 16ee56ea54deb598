//! [`RedisUsedStates`]: single-use `requestState`s across replicas.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::mcp::{StateId, UsedStates, UsedStatesError};

use super::Redis;

/// [`UsedStates`] in Redis (features `redis` and `rmcp`): a state used on
/// one replica is refused on every other. One command per call,
/// `SET <prefix>:state:<id> 1 NX PXAT <expiry>`: of two calls with one
/// state, on any replicas, exactly one sets the key; the key goes when the
/// state expires (its seal no longer opens then anyway).
///
/// ```no_run
/// use elicit_core::mcp::RoundsConfig;
/// use elicit_core::redis::{Redis, RedisUsedStates};
/// use rmcp::model::RequestStateCodec;
///
/// # fn config(codec: RequestStateCodec) -> Result<RoundsConfig, redis::RedisError> {
/// let redis = Redis::open("redis://127.0.0.1:6379/")?;
/// Ok(RoundsConfig::new(codec).used_states(RedisUsedStates::new(redis)))
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RedisUsedStates {
    redis: Redis,
}

impl RedisUsedStates {
    /// Records used states in `redis`.
    pub fn new(redis: Redis) -> Self {
        Self { redis }
    }
}

impl UsedStates for RedisUsedStates {
    fn first_use(&self, id: &StateId, expires_at: SystemTime) -> Result<bool, UsedStatesError> {
        let key = self.redis.key(format_args!("state:{id}"));
        // At least one millisecond: `PXAT` in the past is refused.
        let at = expires_at
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_millis().max(1));
        let set: Option<String> = self
            .redis
            .with(|connection| {
                redis::cmd("SET")
                    .arg(&key)
                    .arg(1)
                    .arg("NX")
                    .arg("PXAT")
                    .arg(u64::try_from(at).unwrap_or(u64::MAX))
                    .query(connection)
            })
            .map_err(|error| UsedStatesError::Backend(Box::new(error)))?;
        Ok(set.is_some())
    }
}
