//! The OAuth flows of a [`RedisStore`](super::RedisStore)'s pages (feature
//! `oauth`): the start page and the callback on any replica, the outcome
//! delivered to the replica whose agent waits.
//!
//! | key | holds | until |
//! |---|---|---|
//! | `oauth:<id>` (hash) | the flow **sealed** (the provider with its client secret, the authorization URL, the `state` token, the PKCE verifier, the user); its phase; its expiry; the browser's binding cookie **sealed** | the flow's expiry + [`KEPT_AFTER_EXPIRY`](super::KEPT_AFTER_EXPIRY) |
//! | `oauth:<id>:end` (list) | how it ended, the token included, **sealed** | the same |
//! | `oauth:open` (sorted set) | the open flows' ids by expiry: the cap, across replicas | each until its flow is used or expires |

use std::sync::LazyLock;
use std::time::SystemTime;

use zeroize::Zeroizing;

use crate::sensitive::oauth::{
    FlowCookie, FlowPhase, FlowRecord, FlowStore, OAuthOutcome, StoredFlow,
};
use crate::sensitive::token::Token;
use crate::sensitive::{PageId, StoreError};

use super::records::{Records, backend};
use super::{Redis, SealingKeys};

/// Uses an open flow's `state`, by Redis's clock: returns the phase it was
/// in (`open`: this call used it). Past its expiry it ends as expired
/// (`ARGV[1]`, the sealed expired end).
const USE: &str = r"
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return false end
if state ~= 'open' then return state end
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
local expires = tonumber(redis.call('HGET', KEYS[1], 'expires'))
if expires and now_ms > expires then
  redis.call('HSET', KEYS[1], 'state', 'expired')
  if redis.call('LLEN', KEYS[2]) == 0 then
    redis.call('RPUSH', KEYS[2], ARGV[1])
    local ttl = redis.call('PTTL', KEYS[1])
    if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
    redis.call('PUBLISH', ARGV[3], KEYS[2])
  end
  return 'expired'
end
redis.call('HSET', KEYS[1], 'state', 'used')
return 'open'
";

/// Ends a flow once: an open one (its phase becomes `ARGV[4]`), or a used
/// one unless `ARGV[1]` is `1` (only open). `1` if this call ended it.
const FINISH: &str = r"
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return 0 end
if state == 'open' then
  redis.call('HSET', KEYS[1], 'state', ARGV[4])
elseif ARGV[1] == '1' or state ~= 'used' then
  return 0
end
if redis.call('LLEN', KEYS[2]) > 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('PUBLISH', ARGV[5], KEYS[2])
return 1
";

static USE_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(USE));
static FINISH_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(FINISH));

/// The OAuth flows of the pages in Redis (features `redis` and `oauth`), a
/// [`FlowStore`]: every replica serves every flow's start page and
/// callback, and the outcome reaches the replica whose agent waits. Give
/// it to the pages with
/// [`PagesBuilder::oauth_store`](crate::sensitive::PagesBuilder::oauth_store), with the
/// same [`Redis`] and [`SealingKeys`] as their [`RedisStore`](super::RedisStore):
///
/// ```no_run
/// use elicit_core::redis::{Redis, RedisFlowStore, RedisStore, SealingKeys};
/// use elicit_core::sensitive::Pages;
///
/// # fn pages(verifier: impl elicit_core::sensitive::UserVerifier) -> Result<Pages, Box<dyn std::error::Error>> {
/// let redis = Redis::open("redis://127.0.0.1:6379/")?;
/// let keys = SealingKeys::new(1, [42; 32]);
/// let pages = Pages::hosted("https://agent.example.com/elicit", verifier)?
///     .store(RedisStore::new(redis.clone(), keys.clone()))
///     .oauth_store(RedisFlowStore::new(redis, keys))
///     .build();
/// # Ok(pages)
/// # }
/// ```
///
/// What is where: the module's table (`oauth:<id>`, `oauth:<id>:end`,
/// `oauth:open`). The flow, its binding cookie and its outcome are sealed.
pub struct RedisFlowStore {
    records: Records,
}

impl std::fmt::Debug for RedisFlowStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisFlowStore")
            .field("records", &self.records)
            .finish()
    }
}

/// A flow this store cannot read back (another deployment's key, a changed
/// byte): refused, never guessed.
#[derive(Debug)]
struct Unreadable(PageId);
impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self(e) => write!(
                f,
                "OAuth flow `{e}` in Redis does not open with these sealing keys"
            ),
        }
    }
}

impl std::error::Error for Unreadable {}

fn unreadable(id: &PageId) -> StoreError {
    StoreError::Backend(Box::new(Unreadable(*id)))
}

impl RedisFlowStore {
    /// OAuth flows in `redis`, what must not be read there sealed with
    /// `keys`.
    pub fn new(redis: Redis, keys: SealingKeys) -> Self {
        Self {
            records: Records::new(redis, keys, "oauth", "oauth:open"),
        }
    }

    fn opened(
        &self,
        id: &PageId,
        sealed: &[u8],
        place: &str,
    ) -> Result<Zeroizing<Vec<u8>>, StoreError> {
        self.records.open_sealed(sealed, place, || unreadable(id))
    }
}

impl FlowStore for RedisFlowStore {
    async fn insert(
        &self,
        id: PageId,
        flow: FlowRecord,
        max_open: usize,
    ) -> Result<(), StoreError> {
        let place = format!("{}:flow", self.records.key(&id));
        let sealed = self.records.seal(&flow.to_bytes(), &place)?;
        self.records
            .insert(id, &sealed, flow.expires_at(), max_open, "open")
            .await
    }

    async fn get(&self, id: &PageId) -> Result<Option<StoredFlow>, StoreError> {
        let key = self.records.key(id);
        let fields = self.records.fields(id).await?;
        let Some(sealed) = fields.get("record") else {
            return Ok(None);
        };
        let plaintext = self.opened(id, sealed, &format!("{key}:flow"))?;
        let record = FlowRecord::from_bytes(&plaintext).ok_or_else(|| unreadable(id))?;
        let phase = match fields.get("state").map(Vec::as_slice) {
            // By this replica's clock, to show the page; the callback's use
            // of the state decides by Redis's.
            Some(b"open") if SystemTime::now() < record.expires_at() => FlowPhase::Open,
            Some(b"open" | b"expired" | b"cancelled") => FlowPhase::Expired,
            Some(b"used") => FlowPhase::Used,
            _ => return Err(unreadable(id)),
        };
        let cookie = match fields.get("binding") {
            None => None,
            Some(sealed) => Some(self.cookie_of(id, sealed)?),
        };
        Ok(Some(StoredFlow {
            record,
            phase,
            cookie,
        }))
    }

    async fn bind(
        &self,
        id: &PageId,
        cookie: FlowCookie,
    ) -> Result<Option<FlowCookie>, StoreError> {
        let place = format!("{}:binding", self.records.key(id));
        let sealed = self.records.seal(cookie.0.to_string().as_bytes(), &place)?;
        let bound = self.records.bind(id, &sealed).await?;
        bound.map(|sealed| self.cookie_of(id, &sealed)).transpose()
    }

    async fn use_state(&self, id: &PageId) -> Result<Option<FlowPhase>, StoreError> {
        let records = &self.records;
        let (key, list) = (records.key(id), records.end_key(id));
        let expired = records.seal(&OAuthOutcome::Expired.to_bytes(), &list)?;
        let mut script = USE_SCRIPT.prepare_invoke();
        script
            .key(&key)
            .key(&list)
            .arg(&expired)
            .arg(id.to_string())
            .arg(records.redis.ends_channel());
        let was: Option<String> = records.redis.script(script).await.map_err(backend)?;
        if was.is_some() {
            // The `state` is used only once it would survive a failover
            // (if asked): a replay must not find it open again.
            records.replicated(key).await?;
            records.unlist(id).await?;
        }
        Ok(was.map(|was| match was.as_str() {
            "open" => FlowPhase::Open,
            "used" => FlowPhase::Used,
            _ => FlowPhase::Expired,
        }))
    }

    async fn end(
        &self,
        id: &PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> Result<bool, StoreError> {
        let records = &self.records;
        let (key, list) = (records.key(id), records.end_key(id));
        let phase = match outcome {
            OAuthOutcome::Expired => "expired",
            _ => "cancelled",
        };
        let sealed = records.seal(&outcome.to_bytes(), &list)?;
        let mut script = FINISH_SCRIPT.prepare_invoke();
        script
            .key(&key)
            .key(&list)
            .arg(if only_open { "1" } else { "0" })
            .arg(&sealed)
            .arg(id.to_string())
            .arg(phase)
            .arg(records.redis.ends_channel());
        let ended: i64 = records.redis.script(script).await.map_err(backend)?;
        records.unlist(id).await?;
        Ok(ended == 1)
    }

    async fn wait(&self, id: &PageId) -> Result<Option<OAuthOutcome>, StoreError> {
        let ended = self.records.wait(id).await;
        Ok(ended.and_then(|plaintext| OAuthOutcome::from_bytes(&plaintext)))
    }

    async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        self.records.remove(id).await
    }
}

impl RedisFlowStore {
    fn cookie_of(&self, id: &PageId, sealed: &[u8]) -> Result<FlowCookie, StoreError> {
        let place = format!("{}:binding", self.records.key(id));
        let plaintext = self.opened(id, sealed, &place)?;
        std::str::from_utf8(&plaintext)
            .ok()
            .and_then(Token::parse)
            .map(FlowCookie)
            .ok_or_else(|| unreadable(id))
    }
}
