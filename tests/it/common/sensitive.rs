//! What the sensitive-input tests share: a sensitive form, a secret, and a
//! user who answers a page over raw HTTP.

use elicit_core::Elicit;
use elicit_core::sensitive::SecretString;

use super::http::Req;

/// Connect a provider.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
pub struct Connect {
    /// The account name.
    #[elicit(length(min = 2, max = 20))]
    pub account: String,
    /// The API token.
    #[secret]
    #[elicit(length(min = 8, max = 64))]
    pub token: SecretString,
}

/// A secret the tests type, and look for where it must not be.
pub const SECRET: &str = "sk-correct-horse-battery";

/// Answers the page at `url` as its user's browser does: a first visit,
/// then a post of `fields` (`name=value&...`, already encoded) with the
/// binding cookie and the page's CSRF token. Returns the post's status.
pub fn answer_page(url: &str, fields: &str) -> u16 {
    answer_page_seen(url, fields).status
}

/// A page's post, with what its browser held: the binding cookie
/// (`name=value`) and the CSRF token.
#[derive(Debug, Clone)]
pub struct Answered {
    pub status: u16,
    /// The page as its visit showed it (HTML).
    pub page: String,
    pub cookie: String,
    pub csrf: String,
}

/// [`answer_page`], with the cookie and the CSRF token it used.
pub fn answer_page_seen(url: &str, fields: &str) -> Answered {
    let (addr, path) = super::http::split_url(url);
    let page = Req::get(path).send(addr);
    let cookie = page.cookie().expect("a binding cookie");
    let csrf = page.csrf().expect("a CSRF token");
    let status = Req::post(path, format!("csrf={csrf}&{fields}"))
        .header("cookie", &cookie)
        .same_origin(addr)
        .send(addr)
        .status;
    Answered {
        status,
        page: page.body,
        cookie,
        csrf,
    }
}

/// A page's answer as the tests hold it: the form when the page was
/// answered, else how it ended (or failed), in words.
pub trait Answer<T> {
    /// The answered form, or why there is none.
    fn answered(self) -> Result<T, String>;
}

impl<T> Answer<T>
    for Result<elicit_core::sensitive::SecretOutcome<T>, elicit_core::sensitive::PageError>
{
    fn answered(self) -> Result<T, String> {
        use elicit_core::sensitive::SecretOutcome;
        match self {
            Ok(SecretOutcome::Answered(value)) => Ok(value),
            Ok(SecretOutcome::Expired) => Err("expired".to_owned()),
            Ok(SecretOutcome::Cancelled) => Err("cancelled".to_owned()),
            Ok(_) => Err("not answered".to_owned()),
            Err(error) => Err(error.to_string()),
        }
    }
}

/// A store as several replicas share one (Redis, SQL), in memory: every
/// record and end goes through its bytes on its way in and out, and its
/// reads are counted. Clones share it.
#[derive(Clone, Default)]
pub struct SharedStore {
    inner: std::sync::Arc<elicit_core::sensitive::store::MemoryStore>,
    reads: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl SharedStore {
    /// How many records were read (`get`).
    pub fn reads(&self) -> usize {
        self.reads.load(std::sync::atomic::Ordering::SeqCst)
    }
}

mod shared_store {
    use elicit_core::sensitive::PageId;
    use elicit_core::sensitive::store::{Binding, End, Record, State, Store, StoreError};

    use super::SharedStore;

    impl Store for SharedStore {
        async fn insert(&self, id: PageId, record: Record, max: usize) -> Result<(), StoreError> {
            let record = Record::from_bytes(&record.to_bytes()).expect("a record reads back");
            self.inner.insert(id, record, max).await
        }
        async fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
            self.reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let record = self.inner.get(id).await?;
            Ok(record.map(|r| Record::from_bytes(&r.to_bytes()).expect("a record reads back")))
        }
        async fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
            self.inner.bind(id, binding).await
        }
        async fn take(&self, id: &PageId) -> Result<Option<State>, StoreError> {
            self.inner.take(id).await
        }
        async fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
            let end = End::from_bytes(&end.to_bytes()).expect("an end reads back");
            self.inner.end(id, end).await
        }
        async fn wait(&self, id: &PageId) -> Result<Option<End>, StoreError> {
            self.inner.wait(id).await
        }
        async fn end_of(&self, id: &PageId) -> Result<Option<End>, StoreError> {
            self.inner.end_of(id).await
        }
        async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
            self.inner.remove(id).await
        }
    }
}
