//! [`RedisUsedStates`]: single-use `requestState`s across replicas.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::mcp::{StateId, UsedStates, UsedStatesError};

use super::Redis;

/// [`UsedStates`] in Redis (features `redis` and `rmcp`): a state used on
/// one replica is refused on every other. One command per call,
/// `SET <prefix>:state:<id> 1 NX PXAT <expiry + skew>`: of two calls with
/// one state, on any replicas, exactly one sets the key. The key outlives
/// the state's expiry by the clock skew the replicas may have
/// (5 minutes unless told otherwise): a replica whose clock is
/// behind still opens the state that long, and must still find it used.
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
    skew: Duration,
}

/// How far apart the replicas' clocks may be, unless told otherwise: 5
/// minutes.
pub(crate) const DEFAULT_CLOCK_SKEW: Duration = Duration::from_secs(5 * 60);

impl RedisUsedStates {
    /// Records used states in `redis`.
    pub fn new(redis: Redis) -> Self {
        Self {
            redis,
            skew: DEFAULT_CLOCK_SKEW,
        }
    }

    /// How far apart the replicas' clocks may be (default
    /// 5 minutes): a used state is remembered that much longer
    /// than it opens.
    #[must_use]
    pub fn clock_skew(mut self, skew: Duration) -> Self {
        self.skew = skew;
        self
    }
}

impl UsedStates for RedisUsedStates {
    async fn first_use(
        &self,
        id: &StateId,
        expires_at: SystemTime,
    ) -> Result<bool, UsedStatesError> {
        let key = self.redis.key(format_args!("state:{id}"));
        // At least one millisecond: `PXAT` in the past is refused.
        let at = (expires_at + self.skew)
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_millis().max(1));
        // This use's own mark: taken back only by this call.
        let mut mark = [0u8; 16];
        getrandom::fill(&mut mark).map_err(|error| UsedStatesError::Backend(Box::new(error)))?;
        let mark: String = mark.iter().map(|b| format!("{b:02x}")).collect();
        let mut command = redis::cmd("SET");
        command
            .arg(&key)
            .arg(&mark)
            .arg("NX")
            .arg("PXAT")
            .arg(u64::try_from(at).unwrap_or(u64::MAX));
        let set: Option<String> = self.redis.query(command).await.map_err(backend)?;
        if set.is_some() {
            // Used only once it would survive a failover (if asked): a
            // replay must not find it unused on the promoted replica. Not
            // acknowledged, the use is taken back (where its master still
            // runs): the call failed, and the same state may come again.
            let acknowledged = self.redis.replicated(key.clone()).await.map_err(backend)?;
            if !acknowledged {
                let mut unuse = UNUSE_SCRIPT.prepare_invoke();
                unuse.key(&key).arg(&mark);
                let _ = self.redis.script::<i64>(unuse).await;
                return Err(UsedStatesError::NotReplicated);
            }
        }
        Ok(set.is_some())
    }
}

/// A Redis failure, as the store's, with its cause.
fn backend(error: redis::RedisError) -> UsedStatesError {
    UsedStatesError::Backend(Box::new(crate::cause::Caused::new(
        super::conn::cause(&error).as_str(),
        error,
    )))
}

/// Forgets the use `ARGV[1]` of `KEYS[1]` (its replicas did not
/// acknowledge it), and only that one.
const UNUSE: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
";

static UNUSE_SCRIPT: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(UNUSE));
