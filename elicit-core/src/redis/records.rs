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
pub(crate) const KEPT_AFTER_EXPIRY: Duration = Duration::from_secs(10 * 60);

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

    /// The record's hash. Its id is its hash tag: on a Redis Cluster, a
    /// record's keys share one slot (one script touches them together).
    pub(super) fn key(&self, id: &PageId) -> String {
        self.redis.key(format_args!("{}:{{{id}}}", self.kind))
    }

    /// The record's end list (the same slot as its hash).
    pub(super) fn end_key(&self, id: &PageId) -> String {
        self.redis.key(format_args!("{}:{{{id}}}:end", self.kind))
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
    /// `max_open` are open or the id is taken. Two steps: its place in the
    /// open set (the cap, on the one key every replica shares), then its
    /// record (its own slot); a record refused then gives its place back.
    pub(super) async fn insert(
        &self,
        id: PageId,
        record: &[u8],
        expires_at: SystemTime,
        max_open: usize,
        state: &str,
    ) -> Result<(), StoreError> {
        let (until, kept) = from_now(expires_at);
        let (key, open) = (self.key(&id), self.open_key());
        // The expiry is the open set's Redis's clock (its master's, on a
        // cluster): a replica whose clock is off opens pages that expire
        // when the others' do.
        let mut expires = String::new();
        if state == "open" {
            let mut reserve = RESERVE_SCRIPT.prepare_invoke();
            reserve
                .key(&open)
                .arg(id.to_string())
                .arg(until)
                .arg(max_open);
            let answer: String = self.redis.script(reserve).await.map_err(backend)?;
            match answer.as_str() {
                "full" => return Err(StoreError::Full { max: max_open }),
                "taken" => return Err(StoreError::Taken(id)),
                at => at.clone_into(&mut expires),
            }
        }
        let mut script = INSERT_SCRIPT.prepare_invoke();
        script
            .key(&key)
            .arg(record)
            .arg(until)
            .arg(kept)
            .arg(state)
            .arg(&expires);
        let refused = match self.redis.script::<String>(script).await {
            Ok(answer) if answer == "ok" => return Ok(()),
            Ok(_) => StoreError::Taken(id),
            Err(error) => backend(error),
        };
        if state == "open" {
            // Its place back (or it expires with its score).
            let _ = self.unlist(&id).await;
        }
        Err(refused)
    }

    /// Takes the record out of the open set (it ended, or never opened):
    /// a step of its own, since the set is one key every replica shares
    /// (its own slot on a cluster). If it fails, the place is given back
    /// at the record's expiry (the set's scores).
    pub(super) async fn unlist(&self, id: &PageId) -> Result<(), StoreError> {
        let mut command = redis::cmd("ZREM");
        command.arg(self.open_key()).arg(id.to_string());
        self.redis.query::<i64>(command).await.map_err(backend)?;
        Ok(())
    }

    /// Waits until the write just made on `key` reached the replicas
    /// [`Redis::replicated_writes`] asks for.
    pub(super) async fn replicated(&self, key: String) -> Result<(), StoreError> {
        self.redis.replicated(key).await.map_err(backend)
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
        let mut command = redis::cmd("DEL");
        command.arg(self.key(id)).arg(self.end_key(id));
        self.redis.query::<i64>(command).await.map_err(backend)?;
        self.unlist(id).await
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

/// Reserves a place in the open set (`KEYS[1]`) for `ARGV[1]`, unless
/// `ARGV[3]` are open (the expired ones forgotten first) or it is there:
/// the expiry (`ARGV[2]` ms from now, by this Redis's clock), or `full`, or
/// `taken`. The cap counts the open pages of every replica.
const RESERVE: &str = r"
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'taken' end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
local expires = now_ms + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], expires, ARGV[1])
return tostring(expires)
";

/// Adds a record (`KEYS[1]`) unless its id is taken: its fields, its state
/// (`ARGV[4]`), its expiry (`ARGV[5]`, the reservation's, or `ARGV[2]` ms
/// from now by this Redis's clock), its keys' lifetime (`ARGV[3]` ms).
const INSERT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 'taken' end
local expires = tonumber(ARGV[5])
if not expires then
  local now = redis.call('TIME')
  expires = now[1] * 1000 + math.floor(now[2] / 1000) + tonumber(ARGV[2])
end
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'state', ARGV[4], 'expires', expires)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
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
static RESERVE_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(RESERVE));
static INSERT_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(INSERT));
static BIND_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(BIND));
