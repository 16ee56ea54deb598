//! What the page store and the OAuth flows keep in Redis the same way: a
//! record per id (a hash, `<kind>:<id>`) with its end (a list,
//! `<kind>:<id>:end`) and the open ones by expiry (a sorted set), the
//! scripts that insert and bind them, the sealing, and the waiter that is
//! woken by an end notice.

use std::collections::BTreeMap;
use std::sync::LazyLock;
use std::time::{Duration, SystemTime};

use zeroize::Zeroizing;

use crate::sensitive::{PageId, StoreError};

use super::{Redis, SealingKeys};

/// How long a record's keys outlive its expiry: a late visitor still sees
/// how it ended, and a later round (MCP 2026-07-28) can still read its end.
pub const KEPT_AFTER_EXPIRY: Duration = Duration::from_secs(10 * 60);

/// One kind of record in Redis.
#[derive(Clone)]
pub(super) struct Records {
    pub(super) redis: Redis,
    pub(super) keys: SealingKeys,
    /// `page` or `oauth`: the keys' middle part.
    kind: &'static str,
    /// The open set's name.
    open: &'static str,
}

impl std::fmt::Debug for Records {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records")
            .field("redis", &self.redis)
            .field("keys", &self.keys)
            .field("kind", &self.kind)
            .finish()
    }
}

impl Records {
    pub(super) fn new(
        redis: Redis,
        keys: SealingKeys,
        kind: &'static str,
        open: &'static str,
    ) -> Self {
        Self {
            redis,
            keys,
            kind,
            open,
        }
    }

    /// The record's hash.
    pub(super) fn key(&self, id: &PageId) -> String {
        self.redis.key(format_args!("{}:{id}", self.kind))
    }

    /// The record's end list.
    pub(super) fn end_key(&self, id: &PageId) -> String {
        self.redis.key(format_args!("{}:{id}:end", self.kind))
    }

    /// The open set.
    pub(super) fn open_key(&self) -> String {
        self.redis.key(format_args!("{}", self.open))
    }

    /// `plaintext` sealed, `place` (a key's name) its associated data.
    pub(super) fn seal(&self, plaintext: &[u8], place: &str) -> Result<Vec<u8>, StoreError> {
        self.keys
            .seal(plaintext, place.as_bytes())
            .map_err(|error| StoreError::Backend(Box::new(error)))
    }

    /// A record this store cannot read back is `unreadable`.
    pub(super) fn open_sealed(
        &self,
        sealed: &[u8],
        place: &str,
        unreadable: impl FnOnce() -> StoreError,
    ) -> Result<Zeroizing<Vec<u8>>, StoreError> {
        self.keys
            .open(sealed, place.as_bytes())
            .ok_or_else(unreadable)
    }

    /// Adds an open record (`record`, the hash's `record` field, in
    /// `state`) expiring at `expires_at` by the opener's clock, unless
    /// `max_open` are open or the id is taken.
    pub(super) async fn insert(
        &self,
        id: PageId,
        record: &[u8],
        expires_at: SystemTime,
        max_open: usize,
        state: &str,
    ) -> Result<(), StoreError> {
        let (expires, kept) = from_now(expires_at);
        let (key, open) = (self.key(&id), self.open_key());
        let mut script = INSERT_SCRIPT.prepare_invoke();
        script
            .key(&key)
            .key(&open)
            .arg(id.to_string())
            .arg(record)
            .arg(expires)
            .arg(kept)
            .arg(max_open)
            .arg(state);
        let answer: String = self.redis.script(script).await.map_err(backend)?;
        match answer.as_str() {
            "ok" => Ok(()),
            "full" => Err(StoreError::Full { max: max_open }),
            _ => Err(StoreError::Taken(id)),
        }
    }

    /// The record's fields (none once it is gone).
    pub(super) async fn fields(
        &self,
        id: &PageId,
    ) -> Result<BTreeMap<String, Vec<u8>>, StoreError> {
        let mut command = redis::cmd("HGETALL");
        command.arg(self.key(id));
        self.redis.query(command).await.map_err(backend)
    }

    /// Binds an open, unbound record to `sealed` (its `binding` field): the
    /// binding in force afterwards, `None` if it is gone or not open.
    pub(super) async fn bind(
        &self,
        id: &PageId,
        sealed: &[u8],
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let mut script = BIND_SCRIPT.prepare_invoke();
        script.key(self.key(id)).arg(sealed);
        self.redis.script(script).await.map_err(backend)
    }

    /// Forgets the record, its end and its place in the open set.
    pub(super) async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        let (key, list, open) = (self.key(id), self.end_key(id), self.open_key());
        let mut pipeline = redis::pipe();
        pipeline
            .atomic()
            .del(&key)
            .del(&list)
            .zrem(&open, id.to_string());
        self.redis.pipe(pipeline).await.map_err(backend)
    }

    /// The record's end, sealed, if it ended (the first end: it stays
    /// for every reader).
    pub(super) async fn end_of(&self, id: &PageId) -> Result<Option<Vec<u8>>, StoreError> {
        let mut command = redis::cmd("LINDEX");
        command.arg(self.end_key(id)).arg(0);
        self.redis.query(command).await.map_err(backend)
    }

    /// The record's end, opened, once one is pushed: woken by the end
    /// notice, no thread and no connection of its own
    /// ([`Redis::wait_end`]). `None` when none came before the keys went,
    /// or it does not open.
    pub(super) fn wait(
        &self,
        id: &PageId,
    ) -> impl std::future::Future<Output = Option<Zeroizing<Vec<u8>>>> + Send + 'static {
        let list = self.end_key(id);
        let ended = self.redis.wait_end(self.key(id), list.clone());
        let keys = self.keys.clone();
        async move {
            let sealed = ended.await?;
            keys.open(&sealed, list.as_bytes())
        }
    }
}

/// A Redis failure, as the store's.
pub(super) fn backend(error: redis::RedisError) -> StoreError {
    StoreError::Backend(Box::new(error))
}

/// An expiry as this replica's clock says it, as durations from now (ms):
/// until it, and until the keys go ([`KEPT_AFTER_EXPIRY`] later). Redis
/// adds them to its own clock, so the replica's skew cancels out.
fn from_now(expires_at: SystemTime) -> (i64, i64) {
    let millis = |at: SystemTime| match at.duration_since(SystemTime::now()) {
        Ok(ahead) => i64::try_from(ahead.as_millis()).unwrap_or(i64::MAX),
        Err(behind) => -i64::try_from(behind.duration().as_millis()).unwrap_or(i64::MAX),
    };
    let until = millis(expires_at);
    let kept = i64::try_from(KEPT_AFTER_EXPIRY.as_millis()).unwrap_or(i64::MAX);
    (until, until.saturating_add(kept).max(1))
}

/// Adds an open page unless the cap is reached or the id is taken. The
/// cap counts the open pages of every replica, by Redis's clock. The
/// expiry comes as a duration from now (`ARGV[3]`, and the keys' lifetime
/// `ARGV[4]`, in ms) and is fixed by Redis's clock: a replica whose clock
/// is off opens pages that expire when the others' do.
const INSERT: &str = r"
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now_ms)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 'full' end
if redis.call('EXISTS', KEYS[1]) == 1 then return 'taken' end
local expires = now_ms + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'record', ARGV[2], 'state', ARGV[6], 'expires', expires)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[6] == 'open' then redis.call('ZADD', KEYS[2], expires, ARGV[1]) end
return 'ok'
";

/// Binds an open, unbound page; the binding in force afterwards.
const BIND: &str = r"
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return false end
local bound = redis.call('HGET', KEYS[1], 'binding')
if bound then return bound end
redis.call('HSET', KEYS[1], 'binding', ARGV[1])
return ARGV[1]
";

// The scripts, their SHA-1 computed once (`EVALSHA`; loaded on first use).
static INSERT_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(INSERT));
static BIND_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(BIND));
