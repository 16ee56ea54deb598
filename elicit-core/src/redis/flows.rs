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

use crate::sensitive::oauth::OAuthOutcome;
use crate::sensitive::oauth::table::{Flow, FlowTable, Found, Phase, WaitingOAuth};
use crate::sensitive::oauth::wire::{flow_bytes, flow_of, outcome_bytes, outcome_of};
use crate::sensitive::shared::BoxFuture;
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
redis.call('ZREM', KEYS[3], ARGV[2])
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
redis.call('ZREM', KEYS[3], ARGV[3])
redis.call('PUBLISH', ARGV[5], KEYS[2])
return 1
";

static USE_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(USE));
static FINISH_SCRIPT: LazyLock<redis::Script> = LazyLock::new(|| redis::Script::new(FINISH));

/// The flows in Redis: every replica serves every flow's start page and
/// callback.
pub(crate) struct RedisFlows {
    records: Records,
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

impl RedisFlows {
    pub(crate) fn new(redis: Redis, keys: SealingKeys) -> Self {
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

impl FlowTable for RedisFlows {
    fn insert(
        &self,
        id: PageId,
        flow: Flow,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async move {
            let place = format!("{}:flow", self.records.key(&id));
            let sealed = self.records.seal(&flow_bytes(&flow), &place)?;
            self.records
                .insert(id, &sealed, flow.expires_at, max_open, "open")
                .await
        })
    }

    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Found>, StoreError>> {
        Box::pin(async move {
            let key = self.records.key(id);
            let fields = self.records.fields(id).await?;
            let Some(sealed) = fields.get("record") else {
                return Ok(None);
            };
            let plaintext = self.opened(id, sealed, &format!("{key}:flow"))?;
            let flow = flow_of(&plaintext).ok_or_else(|| unreadable(id))?;
            let phase = match fields.get("state").map(Vec::as_slice) {
                // By this replica's clock, to show the page; the callback's
                // use of the state decides by Redis's.
                Some(b"open") if SystemTime::now() < flow.expires_at => Phase::Open,
                Some(b"open" | b"expired" | b"cancelled") => Phase::Expired,
                Some(b"used") => Phase::Used,
                _ => return Err(unreadable(id)),
            };
            let cookie = match fields.get("binding") {
                None => None,
                Some(sealed) => Some(self.cookie_of(id, sealed)?),
            };
            Ok(Some(Found {
                flow,
                phase,
                cookie,
            }))
        })
    }

    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        cookie: Token,
    ) -> BoxFuture<'a, Result<Option<Token>, StoreError>> {
        Box::pin(async move {
            let place = format!("{}:binding", self.records.key(id));
            let sealed = self.records.seal(cookie.to_string().as_bytes(), &place)?;
            let bound = self.records.bind(id, &sealed).await?;
            bound.map(|sealed| self.cookie_of(id, &sealed)).transpose()
        })
    }

    fn use_state<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Phase>, StoreError>> {
        Box::pin(async move {
            let records = &self.records;
            let (key, list, open) = (records.key(id), records.end_key(id), records.open_key());
            let expired = records.seal(&outcome_bytes(&OAuthOutcome::Expired), &list)?;
            let mut script = USE_SCRIPT.prepare_invoke();
            script
                .key(&key)
                .key(&list)
                .key(&open)
                .arg(&expired)
                .arg(id.to_string())
                .arg(records.redis.ends_channel());
            let was: Option<String> = records.redis.script(script).await.map_err(backend)?;
            Ok(was.map(|was| match was.as_str() {
                "open" => Phase::Open,
                "used" => Phase::Used,
                _ => Phase::Expired,
            }))
        })
    }

    fn end<'a>(
        &'a self,
        id: &'a PageId,
        outcome: OAuthOutcome,
        only_open: bool,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let records = &self.records;
            let (key, list, open) = (records.key(id), records.end_key(id), records.open_key());
            let phase = match outcome {
                OAuthOutcome::Expired => "expired",
                _ => "cancelled",
            };
            let sealed = records.seal(&outcome_bytes(&outcome), &list)?;
            let mut script = FINISH_SCRIPT.prepare_invoke();
            script
                .key(&key)
                .key(&list)
                .key(&open)
                .arg(if only_open { "1" } else { "0" })
                .arg(&sealed)
                .arg(id.to_string())
                .arg(phase)
                .arg(records.redis.ends_channel());
            let ended: i64 = records.redis.script(script).await.map_err(backend)?;
            Ok(ended == 1)
        })
    }

    fn wait(&self, id: &PageId) -> Result<WaitingOAuth, StoreError> {
        let ended = self.records.wait(id);
        Ok(Box::pin(async move { outcome_of(&ended.await?) }))
    }

    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, ()> {
        // A failure leaves keys that expire on their own.
        Box::pin(async move {
            let _ = self.records.remove(id).await;
        })
    }
}

impl RedisFlows {
    fn cookie_of(&self, id: &PageId, sealed: &[u8]) -> Result<Token, StoreError> {
        let place = format!("{}:binding", self.records.key(id));
        let plaintext = self.opened(id, sealed, &place)?;
        std::str::from_utf8(&plaintext)
            .ok()
            .and_then(Token::parse)
            .ok_or_else(|| unreadable(id))
    }
}
