//! [`RedisStore`]: the pages and OAuth flows of the page server in Redis,
//! so any replica serves any of them and the answer reaches the replica
//! that asked. One record per id (a hash, `page:{<id>}`) with its end (a
//! list, `page:{<id>}:end`) and the open ones by expiry (a sorted set), the
//! scripts that change them, the sealing, and the waiter woken by an end
//! notice.

use std::collections::BTreeMap;
use std::sync::LazyLock;
use std::time::{Duration, SystemTime};

use crate::sensitive::PageId;
use crate::sensitive::store::{Binding, End, Record, State, Store, StoreError};

use super::{Redis, SealingKeys};
use crate::cause::Caused;

/// How long a record's keys outlive its expiry: a late visitor still sees
/// how it ended, and a later round (MCP 2026-07-28) can still read its end.
pub(crate) const KEPT_AFTER_EXPIRY: Duration = Duration::from_secs(10 * 60);

/// The page server's [`Store`] in Redis (features `redis` and
/// `sensitive`): every replica behind one URL serves every page and OAuth
/// flow, whichever opened it, and the answer reaches the replica whose
/// agent waits for it.
///
/// What is where (under the prefix of [`Redis`]):
///
/// | key | holds | until |
/// |---|---|---|
/// | `page:{<id>}` (hash) | the record (a page's message, schema and user; or an OAuth flow: provider and client secret, `state`, PKCE verifier, user) **sealed**; its state and expiry; its browser binding **sealed** | the record's expiry + 10 minutes |
/// | `page:{<id>}:end` (list) | how it ended (the submission, or the OAuth outcome with its token) **sealed** | the same |
/// | `pages:open` (sorted set) | the open records' ids by expiry: the cap on open pages and flows, across replicas | each until its record ends or expires |
///
/// Records, ends and bindings are sealed with [`SealingKeys`]
/// (ChaCha20-Poly1305, the key's place as associated data): someone who
/// reads Redis (a dump, a replica of it, its network) finds no secret, no
/// cookie, no CSRF token and no OAuth secret in clear; only each record's
/// state and expiry, which the scripts read, are not sealed.
///
/// Every method is one atomic step: a Lua script (insert, bind, take,
/// end) or one command. Time that matters across replicas is Redis's: the cap on
/// open pages, and whether an answer (or an OAuth callback) came before
/// the expiry (a replica whose clock is behind cannot take one late).
/// Waiting for an answer is a task woken by the end notice the ending
/// replica publishes (see [`Redis`]): no thread, no connection of its own,
/// no polling, and an end pushed before anyone waits is read at once. The
/// end stays until the page's keys expire, so a round on another replica
/// reads it too ([`Store::end_of`]).
///
/// ```no_run
/// use elicit_core::redis::{Redis, RedisStore, SealingKeys};
/// use elicit_core::sensitive::Pages;
///
/// # fn pages(verifier: impl elicit_core::sensitive::UserVerifier) -> Result<Pages, Box<dyn std::error::Error>> {
/// let redis = Redis::open("redis://127.0.0.1:6379/")?;
/// // The same 32 bytes on every replica, from your secret store.
/// let keys = SealingKeys::new(1, [42; 32]);
/// let pages = Pages::hosted("https://agent.example.com/elicit", verifier)?
///     .store(RedisStore::new(redis, keys))
///     .build();
/// # Ok(pages)
/// # }
/// ```
pub struct RedisStore {
    redis: Redis,
    keys: SealingKeys,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("redis", &self.redis)
            .field("keys", &self.keys)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Pages and flows in `redis`, what must not be read there sealed with
    /// `keys`.
    pub fn new(redis: Redis, keys: SealingKeys) -> Self {
        Self { redis, keys }
    }

    /// The record's hash. Its id is its hash tag: on a Redis Cluster, a
    /// record's keys share one slot (one script touches them together).
    fn key(&self, id: &PageId) -> String {
        self.redis.key(format_args!("page:{{{id}}}"))
    }

    /// The record's end list (the same slot as its hash).
    fn end_key(&self, id: &PageId) -> String {
        self.redis.key(format_args!("page:{{{id}}}:end"))
    }

    /// The open set.
    fn open_key(&self) -> String {
        self.redis.key(format_args!("pages:open"))
    }

    /// `plaintext` sealed, `place` (a key's name) its associated data.
    fn seal(&self, plaintext: &[u8], place: &str) -> Result<Vec<u8>, StoreError> {
        self.keys
            .seal(plaintext, place.as_bytes())
            .map_err(|error| StoreError::Backend(Box::new(error)))
    }

    /// What `sealed` (kept at `place`) holds, read by `read`: a blob that
    /// does not open, or does not read, is refused ([`Unreadable`]), never
    /// guessed.
    fn opened<T>(
        &self,
        id: &PageId,
        sealed: &[u8],
        place: &str,
        read: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Result<T, StoreError> {
        self.keys
            .open(sealed, place.as_bytes())
            .and_then(|plaintext| read(&plaintext))
            .ok_or_else(|| unreadable(id))
    }

    /// Takes the record out of the open set (it ended, or never opened):
    /// a step of its own, since the set is one key every replica shares
    /// (its own slot on a cluster). If it fails, the place is given back
    /// at the record's expiry (the set's scores).
    async fn unlist(&self, id: &PageId) -> Result<(), StoreError> {
        let mut command = redis::cmd("ZREM");
        command.arg(self.open_key()).arg(id.to_string());
        self.redis.query::<i64>(command).await.map_err(backend)?;
        Ok(())
    }

    /// Waits until the write just made on `key` reached the replicas
    /// [`Redis::replicated_writes`] asks for.
    async fn replicated(&self, key: String) -> Result<(), StoreError> {
        match self.redis.replicated(key).await {
            Ok(true) => Ok(()),
            Ok(false) => Err(StoreError::NotReplicated),
            Err(error) => Err(backend(error)),
        }
    }

    /// An end in one step, visible at once: for a Redis whose writes wait
    /// for no replica.
    async fn end_at_once(&self, id: &PageId, end: &End) -> Result<bool, StoreError> {
        let (key, list) = (self.key(id), self.end_key(id));
        let sealed = self.seal(&end.to_bytes(), &list)?;
        let expired = self.seal(&End::Expired.to_bytes(), &list)?;
        let mut script = END_SCRIPT.prepare_invoke();
        script
            .key(&key)
            .key(&list)
            .arg(end.state().as_str())
            .arg(&sealed)
            .arg(&expired)
            .arg(self.redis.ends_channel());
        let ended: i64 = self.redis.script(script).await.map_err(backend)?;
        let _ = self.unlist(id).await;
        Ok(ended == 1)
    }

    /// An end that must survive a failover, in two steps: staged (where no
    /// waiter looks) until the replicas acknowledge it, then committed (the
    /// end list and its notice). An end whose stage is not acknowledged is
    /// taken back and did not count; one whose stage is acknowledged counts,
    /// and is committed on whichever master holds the record, through a
    /// failover ([`commit`]).
    async fn end_staged(&self, id: &PageId, end: &End) -> Result<bool, StoreError> {
        let (key, list) = (self.key(id), self.end_key(id));
        let sealed = self.seal(&end.to_bytes(), &list)?;
        let expired = self.seal(&End::Expired.to_bytes(), &list)?;
        let nonce = Nonce::random().map_err(|error| StoreError::Backend(Box::new(error)))?;
        let lease = i64::try_from(ANSWER_LEASE.as_millis()).unwrap_or(i64::MAX);
        let counts = loop {
            let mut stage = STAGE_SCRIPT.prepare_invoke();
            stage
                .key(&key)
                .arg(end.state().as_str())
                .arg(&sealed)
                .arg(&expired)
                .arg(&nonce.0)
                .arg(lease);
            let staged: String = self.redis.script(stage).await.map_err(backend)?;
            match staged.as_str() {
                "ended" => return Ok(false),
                "1" => break true,
                "0" => break false,
                // Another answer is being saved: an answer is refused (the
                // page says to try again); an expiry or a cancellation
                // waits for that answer's fate.
                _ if matches!(end, End::Answered(_)) => return Err(StoreError::Busy),
                _ => self.redis.sleep(BUSY_RETRY).await,
            }
        };
        if let Err(error) = self.replicated(key.clone()).await {
            // Taken back where it still can be: not acknowledged, it must
            // not count later. Where it cannot (its master gone), the stage
            // waits unseen until its lease ends.
            let mut revert = REVERT_SCRIPT.prepare_invoke();
            revert.key(&key).arg(&nonce.0);
            let _ = self.redis.script::<i64>(revert).await;
            return Err(error);
        }
        // It counts. The poster waits a moment for the commit; the commit
        // goes on without it through a failover.
        let committed = commit(
            self.redis.clone(),
            Commit {
                key,
                list,
                nonce: nonce.0,
                channel: self.redis.ends_channel(),
            },
        );
        let _ = committed.await;
        let _ = self.unlist(id).await;
        Ok(counts)
    }
}

/// How long an answer being saved holds its record against another post,
/// an expiry or a cancellation: longer than a failover (Redis Cluster's
/// `cluster-node-timeout` plus its election), so that an acknowledged
/// answer is committed on the promoted master before anything else can
/// end the record there.
pub(crate) const ANSWER_LEASE: Duration = Duration::from_secs(30);

/// How long the poster waits for its answer's commit before it answers the
/// browser (the commit goes on after).
const COMMIT_WAIT: Duration = Duration::from_secs(2);

/// How soon an expiry or a cancellation that found an answer being saved
/// tries again.
const BUSY_RETRY: Duration = Duration::from_millis(500);

/// The id of one post's end: its stage is committed, or taken back, only
/// by the post that staged it.
struct Nonce(String);

impl Nonce {
    fn random() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)?;
        Ok(Self(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }
}

/// A staged end to commit.
struct Commit {
    key: String,
    list: String,
    nonce: String,
    channel: String,
}

/// Commits an acknowledged stage, and waits until the commit is
/// acknowledged too, on whichever master holds the record: tried again
/// (backing off to 5 s) through a failover, until it holds, another end
/// took the record (its lease over), or the record is gone. A task on the
/// `Redis`'s runtime; the returned receiver is told when it is done or
/// after [`COMMIT_WAIT`], whichever comes first, and the task goes on.
fn commit(redis: Redis, commit: Commit) -> tokio::sync::oneshot::Receiver<()> {
    let (done, told) = tokio::sync::oneshot::channel();
    let task = redis.clone();
    redis.spawn(async move {
        let work = async move {
            let mut pause = Duration::from_millis(100);
            loop {
                let mut script = COMMIT_SCRIPT.prepare_invoke();
                script
                    .key(&commit.key)
                    .key(&commit.list)
                    .arg(&commit.nonce)
                    .arg(&commit.channel);
                match task.script::<String>(script).await.as_deref() {
                    Ok("lost") => return,
                    Ok(_) if task.replicated(commit.key.clone()).await.unwrap_or(false) => return,
                    _ => {}
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(5));
            }
        };
        let mut work = std::pin::pin!(work);
        if tokio::time::timeout(COMMIT_WAIT, &mut work).await.is_err() {
            let _ = done.send(());
            work.await;
        } else {
            let _ = done.send(());
        }
    });
    told
}

/// A state as `TAKE` says it: an answer being saved is an answer on its
/// way ([`State::Taken`]).
fn state_named(name: &str) -> Option<State> {
    match name {
        "answering" => Some(State::Taken),
        name => State::from_name(name),
    }
}

/// A record or an end this store cannot read back (another deployment's
/// key, a changed byte).
#[derive(Debug)]
struct Unreadable(PageId);

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self(id) = self;
        write!(
            f,
            "record `{id}` in Redis does not open with these sealing keys, or is not a record's"
        )
    }
}

impl std::error::Error for Unreadable {}

fn unreadable(id: &PageId) -> StoreError {
    StoreError::Backend(Box::new(Caused::new("unreadable", Unreadable(*id))))
}

/// A Redis failure, as the store's, with its cause.
fn backend(error: redis::RedisError) -> StoreError {
    StoreError::Backend(Box::new(Caused::new(
        super::conn::cause(&error).as_str(),
        error,
    )))
}

impl Store for RedisStore {
    /// Two steps: its place in the open set (the cap, on the one key every
    /// replica shares), then its record (its own slot); a record refused
    /// then gives its place back.
    async fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError> {
        let (until, kept) = from_now(record.expires_at);
        let (key, open) = (self.key(&id), self.open_key());
        let state = record.state;
        let mut stored = record;
        stored.binding = None;
        let sealed = self.seal(&stored.to_bytes(), &format!("{key}:record"))?;
        // The expiry is the open set's Redis's clock (its master's, on a
        // cluster): a replica whose clock is off opens records that expire
        // when the others' do.
        let mut expires = String::new();
        if state == State::Open {
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
            .arg(&sealed)
            .arg(until)
            .arg(kept)
            .arg(state.as_str())
            .arg(&expires);
        let refused = match self.redis.script::<String>(script).await {
            Ok(answer) if answer == "ok" => return Ok(()),
            Ok(_) => StoreError::Taken(id),
            Err(error) => backend(error),
        };
        if state == State::Open {
            // Its place back (or it expires with its score).
            let _ = self.unlist(&id).await;
        }
        Err(refused)
    }

    async fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
        let key = self.key(id);
        let mut command = redis::cmd("HGETALL");
        command.arg(&key);
        let fields: BTreeMap<String, Vec<u8>> = self.redis.query(command).await.map_err(backend)?;
        let Some(sealed) = fields.get("record") else {
            return Ok(None);
        };
        let place = format!("{key}:record");
        let mut record = self.opened(id, sealed, &place, Record::from_bytes)?;
        // An answer being saved is not seen: the record is as it was
        // before (a post finds it busy, and is told to send again).
        let state = match fields.get("state") {
            Some(state) if state.as_slice() == b"answering" => fields.get("prior"),
            state => state,
        };
        record.state = state
            .and_then(|state| State::from_name(std::str::from_utf8(state).ok()?))
            .ok_or_else(|| unreadable(id))?;
        if let Some(sealed) = fields.get("binding") {
            let place = format!("{key}:binding");
            record.binding = Some(self.opened(id, sealed, &place, Binding::from_bytes)?);
        }
        Ok(Some(record))
    }

    async fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
        let key = self.key(id);
        let place = format!("{key}:binding");
        let sealed = self.seal(&binding.to_bytes(), &place)?;
        let mut script = BIND_SCRIPT.prepare_invoke();
        script.key(&key).arg(&sealed);
        let bound: Option<Vec<u8>> = self.redis.script(script).await.map_err(backend)?;
        bound
            .map(|sealed| self.opened(id, &sealed, &place, Binding::from_bytes))
            .transpose()
    }

    async fn take(&self, id: &PageId) -> Result<Option<State>, StoreError> {
        let (key, list) = (self.key(id), self.end_key(id));
        let expired = self.seal(&End::Expired.to_bytes(), &list)?;
        let mut script = TAKE_SCRIPT.prepare_invoke();
        script
            .key(&key)
            .key(&list)
            .arg(&expired)
            .arg(self.redis.ends_channel());
        let was: Option<String> = self.redis.script(script).await.map_err(backend)?;
        let Some(was) = was else {
            return Ok(None);
        };
        if was == "open" {
            // Taken only once it would survive a failover (if asked): a
            // replay must not find it open again. Not acknowledged, it is
            // given back (where its master still runs), and the callback
            // may come again.
            if let Err(error) = self.replicated(key.clone()).await {
                let mut untake = UNTAKE_SCRIPT.prepare_invoke();
                untake.key(&key);
                let _ = self.redis.script::<i64>(untake).await;
                return Err(error);
            }
            let _ = self.unlist(id).await;
        }
        state_named(&was).map(Some).ok_or_else(|| unreadable(id))
    }

    /// With [`Redis::replicated_writes`], an end is visible to waiters
    /// (its list and its notice) only once the replicas acknowledged it:
    /// an `Err` is an end nobody saw, and the record takes another.
    async fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
        if self.redis.replicas() == 0 {
            self.end_at_once(id, &end).await
        } else {
            self.end_staged(id, &end).await
        }
    }

    async fn wait(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let list = self.end_key(id);
        let ended = self.redis.wait_end(self.key(id), list.clone());
        let keys = self.keys.clone();
        let sealed = ended.await;
        Ok(sealed.and_then(|sealed| End::from_bytes(&keys.open(&sealed, list.as_bytes())?)))
    }

    async fn end_of(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let list = self.end_key(id);
        let mut command = redis::cmd("LINDEX");
        command.arg(&list).arg(0);
        let sealed: Option<Vec<u8>> = self.redis.query(command).await.map_err(backend)?;
        sealed
            .map(|sealed| self.opened(id, &sealed, &list, End::from_bytes))
            .transpose()
    }

    async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        let mut command = redis::cmd("DEL");
        command.arg(self.key(id)).arg(self.end_key(id));
        self.redis.query::<i64>(command).await.map_err(backend)?;
        self.unlist(id).await
    }
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

/// Binds an open, unbound record; the binding in force afterwards.
const BIND: &str = r"
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return false end
local bound = redis.call('HGET', KEYS[1], 'binding')
if bound then return bound end
redis.call('HSET', KEYS[1], 'binding', ARGV[1])
return ARGV[1]
";

/// Takes an open record (`KEYS[1]`) for the answer on its way, by Redis's
/// clock: the state it was in (`open`: this call took it). Past its expiry
/// it ends as expired (`ARGV[1]`, the sealed expired end, pushed on
/// `KEYS[2]` and announced on `ARGV[2]`).
const TAKE: &str = r"
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return false end
if state ~= 'open' then return state end
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
local expires = tonumber(redis.call('HGET', KEYS[1], 'expires'))
if expires and now_ms > expires then
  redis.call('HSET', KEYS[1], 'state', 'expired')
  redis.call('RPUSH', KEYS[2], ARGV[1])
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
  redis.call('PUBLISH', ARGV[2], KEYS[2])
  return 'expired'
end
redis.call('HSET', KEYS[1], 'state', 'taken')
return 'open'
";

/// Ends an open or taken record (`KEYS[1]`) in state `ARGV[1]` with its
/// sealed end `ARGV[2]` (pushed on `KEYS[2]` for the waiter): only the
/// first end counts, an expiry does not end a taken record, and an answer
/// to an open record after its expiry, by Redis's clock (one clock for
/// every replica, whatever their own say), ends it as expired instead
/// (`ARGV[3]`, the sealed expired end) and counts as no end. The end
/// list's name is then published on the end notices' channel (`ARGV[4]`):
/// the replica whose agent waits reads it.
const END: &str = r"
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'open' and state ~= 'taken' then return 0 end
if state == 'taken' and ARGV[1] == 'expired' then return 0 end
local next, sealed, counts = ARGV[1], ARGV[2], 1
if state == 'open' and next == 'answered' then
  local now = redis.call('TIME')
  local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
  local expires = tonumber(redis.call('HGET', KEYS[1], 'expires'))
  if expires and now_ms > expires then next, sealed, counts = 'expired', ARGV[3], 0 end
end
redis.call('HSET', KEYS[1], 'state', next)
redis.call('RPUSH', KEYS[2], sealed)
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('PUBLISH', ARGV[4], KEYS[2])
return counts
";

/// Stages an end of the record `KEYS[1]` (state `ARGV[1]`, sealed end
/// `ARGV[2]`; `ARGV[3]` the sealed expired end) for post `ARGV[4]`, held
/// for `ARGV[5]` ms: where no waiter looks, until it is committed. The
/// rules of [`END`], plus: a record whose answer is being saved is `busy`
/// until that lease ends (then it is as it was before). `1` (it counts),
/// `0` (an answer past the expiry, staged as expired), `ended` or `busy`.
const STAGE: &str = r"
local state = redis.call('HGET', KEYS[1], 'state')
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
if state == 'answering' then
  local lease = tonumber(redis.call('HGET', KEYS[1], 'lease'))
  if lease and now_ms < lease then return 'busy' end
  state = redis.call('HGET', KEYS[1], 'prior')
end
if state ~= 'open' and state ~= 'taken' then return 'ended' end
if state == 'taken' and ARGV[1] == 'expired' then return 'ended' end
local next, sealed, counts = ARGV[1], ARGV[2], '1'
if state == 'open' and next == 'answered' then
  local expires = tonumber(redis.call('HGET', KEYS[1], 'expires'))
  if expires and now_ms > expires then next, sealed, counts = 'expired', ARGV[3], '0' end
end
redis.call('HSET', KEYS[1], 'state', 'answering', 'prior', state, 'staged', sealed,
  'staged_state', next, 'nonce', ARGV[4], 'lease', now_ms + tonumber(ARGV[5]))
return counts
";

/// Commits the end post `ARGV[1]` staged on `KEYS[1]`: pushed on `KEYS[2]`
/// and announced on `ARGV[2]`. Once committed (a commit tried again after
/// a failover), a write `WAIT` can count from. `lost` when another post's
/// end holds the record, or it is gone.
const COMMIT: &str = r"
if redis.call('HGET', KEYS[1], 'nonce') ~= ARGV[1] then return 'lost' end
if redis.call('HGET', KEYS[1], 'state') ~= 'answering' then
  redis.call('HSET', KEYS[1], 'committed', ARGV[1])
  return 'committed'
end
local sealed = redis.call('HGET', KEYS[1], 'staged')
redis.call('HSET', KEYS[1], 'state', redis.call('HGET', KEYS[1], 'staged_state'), 'committed', ARGV[1])
redis.call('HDEL', KEYS[1], 'staged', 'lease', 'prior')
redis.call('RPUSH', KEYS[2], sealed)
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('PUBLISH', ARGV[2], KEYS[2])
return 'committed'
";

/// Takes back the end post `ARGV[1]` staged on `KEYS[1]` (its replicas did
/// not acknowledge it): the record is as it was before.
const REVERT: &str = r"
if redis.call('HGET', KEYS[1], 'nonce') ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[1], 'state') ~= 'answering' then return 0 end
redis.call('HSET', KEYS[1], 'state', redis.call('HGET', KEYS[1], 'prior'))
redis.call('HDEL', KEYS[1], 'staged', 'staged_state', 'nonce', 'lease', 'prior')
return 1
";

/// Gives back a record (`KEYS[1]`) taken by a callback whose take its
/// replicas did not acknowledge: open again.
const UNTAKE: &str = r"
if redis.call('HGET', KEYS[1], 'state') ~= 'taken' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'open')
return 1
";

// The scripts, their SHA-1 computed once (`EVALSHA`; loaded on first use).
static RESERVE_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(RESERVE));
static INSERT_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(INSERT));
static BIND_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(BIND));
static TAKE_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(TAKE));
static END_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(END));
static STAGE_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(STAGE));
static COMMIT_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(COMMIT));
static REVERT_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(REVERT));
static UNTAKE_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(UNTAKE));
