//! [`RedisStore`]: the page server's pages in Redis, so any replica serves
//! any page and the answer reaches the replica that asked.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use crate::Content;
use crate::sensitive::{Binding, End, PageId, PageState, Record, Store, StoreError, Submission};

use super::records::{Records, backend};
use super::{Redis, SealingKeys};

/// The page server's [`Store`] in Redis (features `redis` and
/// `sensitive`): every replica behind one URL serves every page, whichever
/// opened it, and the answer reaches the replica whose agent waits for it.
///
/// What is where (under the prefix of [`Redis`]):
///
/// | key | holds | until |
/// |---|---|---|
/// | `page:<id>` (hash) | the page's record (message, schema, the user it is for, expiry) as JSON; its state; its browser binding **sealed** | the page's expiry + 10 minutes |
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
    records: Records,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("redis", &self.records.redis)
            .field("keys", &self.records.keys)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Pages in `redis`, what must
    /// not be read there sealed with `keys`.
    pub fn new(redis: Redis, keys: SealingKeys) -> Self {
        Self {
            records: Records::new(redis, keys, "page", "pages:open"),
        }
    }
}

/// A record or an end this store cannot read back (another deployment's
/// key, a changed byte): refused, never guessed.
#[derive(Debug)]
struct Unreadable(PageId);
impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self(e) => write!(
                f,
                "page `{e}` in Redis does not open with these sealing keys, or is not a page's"
            ),
        }
    }
}

impl std::error::Error for Unreadable {}

fn unreadable(id: &PageId) -> StoreError {
    StoreError::Backend(Box::new(Unreadable(*id)))
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

/// Ends an open page: its state, its sealed end for the waiter (out of the
/// open set in a step of its own: the set is in another slot on a
/// cluster). Only the first end counts. An answer after the page's expiry,
/// by Redis's clock (one clock for every replica, whatever their own say),
/// ends it as expired instead (`ARGV[4]`, the sealed expired end) and
/// counts as no end. The end list's name is then published on the end
/// notices' channel (`ARGV[5]`): the replica whose agent waits reads it.
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
redis.call('PUBLISH', ARGV[5], KEYS[2])
return ended
";

// Its SHA-1 computed once (`EVALSHA`; loaded on first use).
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

fn end_from(plaintext: &[u8]) -> Option<End> {
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
    async fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError> {
        let (state, expires_at) = (state_name(record.state), record.expires_at);
        let stored = Record {
            binding: None,
            ..record
        };
        let json = serde_json::to_vec(&stored).map_err(|e| StoreError::Backend(Box::new(e)))?;
        self.records
            .insert(id, &json, expires_at, max_open, state)
            .await
    }

    async fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
        let fields = self.records.fields(id).await?;
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

    async fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
        let plaintext = Zeroizing::new(
            serde_json::to_vec(&binding).map_err(|e| StoreError::Backend(Box::new(e)))?,
        );
        let place = format!("{}:binding", self.records.key(id));
        let sealed = self.records.seal(&plaintext, &place)?;
        let bound = self.records.bind(id, &sealed).await?;
        bound.map(|sealed| self.binding_of(id, &sealed)).transpose()
    }

    async fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
        let records = &self.records;
        let state = state_name(end.state());
        let (page, list) = (records.key(id), records.end_key(id));
        let sealed = records.seal(&end_plaintext(&end), &list)?;
        let expired = records.seal(&end_plaintext(&End::Expired), &list)?;
        let mut script = END_SCRIPT.prepare_invoke();
        script
            .key(&page)
            .key(&list)
            .arg(state)
            .arg(&sealed)
            .arg(id.to_string())
            .arg(&expired)
            .arg(records.redis.ends_channel());
        let ended: i64 = records.redis.script(script).await.map_err(backend)?;
        // Not accepted until it would survive a failover (if asked).
        records.replicated(page).await?;
        records.unlist(id).await?;
        Ok(ended == 1)
    }

    async fn wait(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let ended = self.records.wait(id).await;
        Ok(ended.and_then(|plaintext| end_from(&plaintext)))
    }

    async fn end_of(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let Some(sealed) = self.records.end_of(id).await? else {
            return Ok(None);
        };
        let list = self.records.end_key(id);
        let plaintext = self
            .records
            .open_sealed(&sealed, &list, || unreadable(id))?;
        end_from(&plaintext).map(Some).ok_or_else(|| unreadable(id))
    }

    async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        self.records.remove(id).await
    }
}

impl RedisStore {
    fn binding_of(&self, id: &PageId, sealed: &[u8]) -> Result<Binding, StoreError> {
        let place = format!("{}:binding", self.records.key(id));
        let plaintext = self
            .records
            .open_sealed(sealed, &place, || unreadable(id))?;
        serde_json::from_slice(&plaintext).map_err(|_| unreadable(id))
    }
}
