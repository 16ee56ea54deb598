//! [`RedisStore`]: the page server's pages in Redis, so any replica serves
//! any page and the answer reaches the replica that asked.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use futures::channel::oneshot;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use crate::Content;
use crate::sensitive::{
    Binding, End, PageId, PageState, Record, Store, StoreError, Submission, Waiting,
};

use super::{Redis, SealingKeys};

/// How long a page's keys outlive its expiry: a late visitor still sees how
/// it ended, and a later round (MCP 2026-07-28) can still read its answer.
pub const KEPT_AFTER_EXPIRY: Duration = Duration::from_secs(10 * 60);

/// The page server's [`Store`] in Redis (features `redis` and
/// `sensitive`): every replica behind one URL serves every page, whichever
/// opened it, and the answer reaches the replica whose agent waits for it.
///
/// What is where (under the prefix of [`Redis`]):
///
/// | key | holds | until |
/// |---|---|---|
/// | `page:<id>` (hash) | the page's record (message, schema, the user it is for, expiry) as JSON; its state; its browser binding **sealed** | the page's expiry + [`KEPT_AFTER_EXPIRY`] |
/// | `page:<id>:end` (list) | how it ended, the submission included, **sealed** | the same |
/// | `pages:open` (sorted set) | the open pages' ids by expiry: the cap on open pages, across replicas | each until its page ends or expires |
/// | `oauth:<id>`, `oauth:<id>:end`, `oauth:open` (feature `oauth`) | an OAuth flow, the same way: the flow (provider and client secret, `state`, PKCE verifier, user) **sealed**, its phase, its binding cookie **sealed**; its outcome, the token included, **sealed**; the cap | the same |
///
/// The submitted secret and the binding tokens are sealed with
/// [`SealingKeys`] (ChaCha20-Poly1305, the key's place as associated data):
/// someone who reads Redis (a dump, a replica of it, its network) finds no
/// secret, no cookie and no CSRF token in clear. The message, the schema
/// and the user's id are not secret and stay readable.
///
/// Every method is one atomic step: a Lua script (insert, bind, end) or
/// one command. Time that matters across replicas is Redis's: the cap on
/// open pages, and whether an answer (or an OAuth callback) came before
/// the expiry (a replica whose clock is behind cannot take one late). Waiting for an answer blocks in Redis (`BLMOVE` of the
/// page's end list onto itself), on a connection of its own in a thread of
/// its own: no polling, and an end pushed before anyone waits is not lost.
/// The end stays until the page's keys expire, so a round on another
/// replica reads it too ([`Store::take_end`]).
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
///     .store(RedisStore::new(redis, keys));
/// # Ok(pages)
/// # }
/// ```
pub struct RedisStore {
    redis: Redis,
    keys: SealingKeys,
    /// The pages this process waits for: one waiter per page.
    waited: Arc<Mutex<HashSet<PageId>>>,
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
    /// Pages (and OAuth flows, with feature `oauth`) in `redis`, what must
    /// not be read there sealed with `keys`.
    pub fn new(redis: Redis, keys: SealingKeys) -> Self {
        Self {
            redis,
            keys,
            waited: Arc::default(),
        }
    }

    /// The OAuth flows that go with these pages.
    #[cfg(feature = "oauth")]
    fn flows(&self) -> super::flows::RedisFlows {
        super::flows::RedisFlows::new(self.redis.clone(), self.keys.clone())
    }

    fn page_key(&self, id: &PageId) -> String {
        self.redis.key(format_args!("page:{id}"))
    }

    fn end_key(&self, id: &PageId) -> String {
        self.redis.key(format_args!("page:{id}:end"))
    }

    fn open_key(&self) -> String {
        self.redis.key(format_args!("pages:open"))
    }

    fn seal(&self, plaintext: &[u8], place: &str) -> Result<Vec<u8>, StoreError> {
        self.keys
            .seal(plaintext, place.as_bytes())
            .map_err(|error| StoreError::Backend(Box::new(error)))
    }
}

/// A Redis failure, as the store's.
pub(super) fn backend(error: redis::RedisError) -> StoreError {
    StoreError::Backend(Box::new(error))
}

/// A record or an end this store cannot read back (another deployment's
/// key, a changed byte): refused, never guessed.
#[derive(Debug, thiserror::Error)]
#[error("page `{0}` in Redis does not open with these sealing keys, or is not a page's")]
struct Unreadable(PageId);

fn unreadable(id: &PageId) -> StoreError {
    StoreError::Backend(Box::new(Unreadable(*id)))
}

/// A page waited for in this process, until dropped.
struct Waited {
    waited: Arc<Mutex<HashSet<PageId>>>,
    id: PageId,
}

impl Drop for Waited {
    fn drop(&mut self) {
        lock(&self.waited).remove(&self.id);
    }
}

fn lock(waited: &Mutex<HashSet<PageId>>) -> std::sync::MutexGuard<'_, HashSet<PageId>> {
    waited.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An expiry as this replica's clock says it, as durations from now (ms):
/// until it, and until the keys go ([`KEPT_AFTER_EXPIRY`] later). Redis
/// adds them to its own clock, so the replica's skew cancels out.
pub(super) fn from_now(expires_at: SystemTime) -> (i64, i64) {
    let millis = |at: SystemTime| match at.duration_since(SystemTime::now()) {
        Ok(ahead) => i64::try_from(ahead.as_millis()).unwrap_or(i64::MAX),
        Err(behind) => -i64::try_from(behind.duration().as_millis()).unwrap_or(i64::MAX),
    };
    let until = millis(expires_at);
    let kept = i64::try_from(KEPT_AFTER_EXPIRY.as_millis()).unwrap_or(i64::MAX);
    (until, until.saturating_add(kept).max(1))
}

fn state_name(state: PageState) -> &'static str {
    match state {
        PageState::Open => "open",
        PageState::Answered => "answered",
        PageState::Expired => "expired",
        PageState::Cancelled => "cancelled",
    }
}

fn state_of(name: &str) -> Option<PageState> {
    Some(match name {
        "open" => PageState::Open,
        "answered" => PageState::Answered,
        "expired" => PageState::Expired,
        "cancelled" => PageState::Cancelled,
        _ => return None,
    })
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

/// Ends an open page: its state, its sealed end for the waiter, out of the
/// open set. Only the first end counts. An answer after the page's expiry,
/// by Redis's clock (one clock for every replica, whatever their own say),
/// ends it as expired instead (`ARGV[4]`, the sealed expired end) and
/// counts as no end.
const END: &str = r"
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
local state, sealed, ended = ARGV[1], ARGV[2], 1
if state == 'answered' then
  local now = redis.call('TIME')
  local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
  local expires = tonumber(redis.call('HGET', KEYS[1], 'expires'))
  if expires and now_ms > expires then state, sealed, ended = 'expired', ARGV[4], 0 end
end
redis.call('HSET', KEYS[1], 'state', state)
redis.call('RPUSH', KEYS[2], sealed)
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('ZREM', KEYS[3], ARGV[3])
return ended
";

// The scripts, their SHA-1 computed once (`EVALSHA`; loaded on first use).
pub(super) static INSERT_SCRIPT: LazyLock<redis::Script> =
    LazyLock::new(|| redis::Script::new(INSERT));
pub(super) static BIND_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(BIND));
static END_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(END));

/// How a page ended, as sealed: the submission's values and its secrets.
#[derive(Serialize)]
struct EndOut<'a> {
    end: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<&'a Content>,
    secrets: BTreeMap<&'a str, &'a str>,
}

#[derive(Deserialize)]
struct EndIn {
    end: String,
    #[serde(default)]
    values: Option<Content>,
    #[serde(default)]
    secrets: BTreeMap<String, String>,
}

fn end_plaintext(end: &End) -> Zeroizing<Vec<u8>> {
    let out = match end {
        End::Answered(submission) => EndOut {
            end: "answered",
            values: Some(&submission.values),
            secrets: submission
                .secrets
                .iter()
                .map(|(name, secret)| (name.as_str(), secret.expose_secret()))
                .collect(),
        },
        End::Expired => EndOut {
            end: "expired",
            values: None,
            secrets: BTreeMap::new(),
        },
        End::Cancelled => EndOut {
            end: "cancelled",
            values: None,
            secrets: BTreeMap::new(),
        },
    };
    let mut buffer = Zeroizing::new(Vec::new());
    serde_json::to_writer(&mut *buffer, &out).expect("an end serializes");
    buffer
}

fn end_of(plaintext: &[u8]) -> Option<End> {
    let read: EndIn = serde_json::from_slice(plaintext).ok()?;
    Some(match read.end.as_str() {
        "answered" => End::Answered(Submission {
            values: read.values.unwrap_or_default(),
            secrets: read
                .secrets
                .into_iter()
                .map(|(name, secret)| (name, SecretString::from(secret)))
                .collect(),
        }),
        "expired" => End::Expired,
        "cancelled" => End::Cancelled,
        _ => return None,
    })
}

impl Store for RedisStore {
    fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError> {
        let (expires, kept) = from_now(record.expires_at);
        let state = state_name(record.state);
        let stored = Record {
            binding: None,
            ..record
        };
        let json = serde_json::to_string(&stored).map_err(|e| StoreError::Backend(Box::new(e)))?;
        let page = self.page_key(&id);
        let open = self.open_key();
        let answer: String = self
            .redis
            .with(|connection| {
                INSERT_SCRIPT
                    .key(&page)
                    .key(&open)
                    .arg(id.to_string())
                    .arg(&json)
                    .arg(expires)
                    .arg(kept)
                    .arg(max_open)
                    .arg(state)
                    .invoke(connection)
            })
            .map_err(backend)?;
        match answer.as_str() {
            "ok" => Ok(()),
            "full" => Err(StoreError::Full { max: max_open }),
            _ => Err(StoreError::Taken(id)),
        }
    }

    fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
        let page = self.page_key(id);
        let fields: BTreeMap<String, Vec<u8>> = self
            .redis
            .with(|connection| redis::cmd("HGETALL").arg(&page).query(connection))
            .map_err(backend)?;
        let Some(json) = fields.get("record") else {
            return Ok(None);
        };
        let mut record: Record = serde_json::from_slice(json).map_err(|_| unreadable(id))?;
        record.state = fields
            .get("state")
            .and_then(|s| std::str::from_utf8(s).ok())
            .and_then(state_of)
            .ok_or_else(|| unreadable(id))?;
        record.binding = match fields.get("binding") {
            None => None,
            Some(sealed) => Some(self.binding_of(id, sealed)?),
        };
        Ok(Some(record))
    }

    fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
        let page = self.page_key(id);
        let plaintext = Zeroizing::new(
            serde_json::to_vec(&binding).map_err(|e| StoreError::Backend(Box::new(e)))?,
        );
        let sealed = self.seal(&plaintext, &format!("{page}:binding"))?;
        let bound: Option<Vec<u8>> = self
            .redis
            .with(|connection| BIND_SCRIPT.key(&page).arg(&sealed).invoke(connection))
            .map_err(backend)?;
        bound.map(|sealed| self.binding_of(id, &sealed)).transpose()
    }

    fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
        let state = state_name(match &end {
            End::Answered(_) => PageState::Answered,
            End::Expired => PageState::Expired,
            End::Cancelled => PageState::Cancelled,
        });
        let (page, list) = (self.page_key(id), self.end_key(id));
        let sealed = self.seal(&end_plaintext(&end), &list)?;
        let expired = self.seal(&end_plaintext(&End::Expired), &list)?;
        let open = self.open_key();
        let ended: i64 = self
            .redis
            .with(|connection| {
                END_SCRIPT
                    .key(&page)
                    .key(&list)
                    .key(&open)
                    .arg(state)
                    .arg(&sealed)
                    .arg(id.to_string())
                    .arg(&expired)
                    .invoke(connection)
            })
            .map_err(backend)?;
        Ok(ended == 1)
    }

    fn wait(&self, id: &PageId) -> Result<Waiting, StoreError> {
        if !lock(&self.waited).insert(*id) {
            return Err(StoreError::AlreadyWaited(*id));
        }
        let (list, page, redis, keys, waited, id) = (
            self.end_key(id),
            self.page_key(id),
            self.redis.clone(),
            self.keys.clone(),
            Arc::clone(&self.waited),
            *id,
        );
        let guard = Waited {
            waited: Arc::clone(&waited),
            id,
        };
        let ended = wait_for_end(redis, page, list, keys);
        Ok(Waiting::new(async move {
            // This page is waited for as long as this future lives.
            let _guard = guard;
            end_of(&ended.await?)
        }))
    }

    fn shared_by_replicas(&self) -> bool {
        true
    }

    /// The OAuth flows (feature `oauth`): in Redis too.
    #[cfg(feature = "oauth")]
    fn plugged_flows(&self) -> Vec<Box<dyn std::any::Any + Send + Sync>> {
        let flows: Arc<dyn crate::sensitive::shared::Extension> =
            Arc::new(crate::sensitive::oauth::table::Flows {
                table: Box::new(self.flows()),
            });
        vec![Box::new(flows)]
    }

    fn take_end(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let list = self.end_key(id);
        let sealed: Option<Vec<u8>> = self
            .redis
            .with(|connection| redis::cmd("LINDEX").arg(&list).arg(0).query(connection))
            .map_err(backend)?;
        let Some(sealed) = sealed else {
            return Ok(None);
        };
        let plaintext = self
            .keys
            .open(&sealed, list.as_bytes())
            .ok_or_else(|| unreadable(id))?;
        end_of(&plaintext).map(Some).ok_or_else(|| unreadable(id))
    }

    fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        let (page, list, open) = (self.page_key(id), self.end_key(id), self.open_key());
        self.redis
            .with(|connection| {
                redis::pipe()
                    .atomic()
                    .del(&page)
                    .del(&list)
                    .zrem(&open, id.to_string())
                    .query::<()>(connection)
            })
            .map_err(backend)
    }
}

impl RedisStore {
    fn binding_of(&self, id: &PageId, sealed: &[u8]) -> Result<Binding, StoreError> {
        let place = format!("{}:binding", self.page_key(id));
        let plaintext = self
            .keys
            .open(sealed, place.as_bytes())
            .ok_or_else(|| unreadable(id))?;
        serde_json::from_slice(&plaintext).map_err(|_| unreadable(id))
    }
}

/// The end pushed on `list` (sealed with `keys`, the list's name its
/// associated data), for as long as the key `hash` lives: the waiter of a
/// page or an OAuth flow. Lazy: nothing is asked of Redis until the future
/// is polled, so a page handed to another replica's round (detached, never
/// polled here) costs nothing more and leaves its end in Redis for that
/// replica. `None` when none came, or it does not open.
pub(super) async fn wait_for_end(
    redis: Redis,
    hash: String,
    list: String,
    keys: SealingKeys,
) -> Option<Zeroizing<Vec<u8>>> {
    let (sender, receiver) = oneshot::channel();
    std::thread::Builder::new()
        .name("elicit-redis-wait".to_owned())
        .spawn(move || {
            // Until the keys go: then it has ended, or never will (a key
            // already gone: no end).
            let left: i64 = redis
                .with(|connection| redis::cmd("PTTL").arg(&hash).query(connection))
                .unwrap_or(-2);
            let Ok(left) = u64::try_from(left) else {
                return;
            };
            let until = SystemTime::now() + Duration::from_millis(left);
            let end = blocking_peek(&redis, &list, until)
                .and_then(|sealed| keys.open(&sealed, list.as_bytes()));
            if let Some(end) = end {
                let _ = sender.send(end);
            }
        })
        .ok()?;
    receiver.await.ok()
}

/// The page's end, once `list` has one, until `until`, on a connection of
/// its own: `BLMOVE list list LEFT RIGHT` (the one element moves onto
/// itself: it is read and stays, for another replica's round to read too).
/// `None` when nothing came by then or Redis failed (the waiter then sees
/// no end: the flow fails as cancelled, cleanly).
fn blocking_peek(redis: &Redis, list: &str, until: SystemTime) -> Option<Vec<u8>> {
    let left = until.duration_since(SystemTime::now()).ok()?;
    // The server's timeout, and the socket's a little longer.
    let mut connection = redis.dedicated(Some(left + Duration::from_secs(5))).ok()?;
    redis::cmd("BLMOVE")
        .arg(list)
        .arg(list)
        .arg("LEFT")
        .arg("RIGHT")
        .arg(left.as_secs_f64().max(0.001))
        .query::<Option<Vec<u8>>>(&mut connection)
        .ok()
        .flatten()
}
