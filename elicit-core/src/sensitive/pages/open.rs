//! Opening a page: [`Pages::open`] and [`Pages::open_for`] in one step,
//! or, for a flow that opens it later (the MCP rounds' `Rounds::secret`),
//! [`Pages::prepare`] and then [`Pages::insert`]; and
//! [`Pages::insert_record`], where a page and an OAuth flow are stored
//! alike.

use std::marker::PhantomData;
use std::time::{Instant, SystemTime};

use super::pending::Handle;
use super::{OpenError, Pages, PendingPage};
use crate::fingerprint::Fingerprint;
use crate::protocol::agent::VerifiedUser;
use crate::sensitive::form::SensitiveForm;
use crate::sensitive::html::PageForm;
use crate::sensitive::store::Record;
use crate::sensitive::token::PageId;

impl Pages {
    /// Opens a page for the sensitive form `T`, with the agent's `message`
    /// at its top. The page waits for one answer until its
    /// [`expiry`](super::PagesBuilder::expiry); send its
    /// [`url`](PendingPage::url) to the client (URL mode) and await
    /// [`PendingPage::answer`].
    ///
    /// # Errors
    ///
    /// [`OpenError`]: these pages verify users (use
    /// [`open_for`](Self::open_for)), the loopback server could not start,
    /// or the store is full.
    pub async fn open<T: SensitiveForm>(
        &self,
        message: impl Into<String>,
    ) -> Result<PendingPage<T>, OpenError> {
        let id = PageId::random().map_err(OpenError::Random)?;
        let prepared = self.prepare::<T>(id, None, message.into())?;
        self.insert(prepared).await
    }

    /// [`open`](Self::open) for the verified user `user`: only requests the
    /// [`UserVerifier`](crate::sensitive::UserVerifier) finds `user` in are
    /// served.
    ///
    /// # Errors
    ///
    /// [`OpenError::NoVerifier`] if these pages have no verifier, and
    /// those of [`open`](Self::open).
    pub async fn open_for<T: SensitiveForm>(
        &self,
        user: &VerifiedUser,
        message: impl Into<String>,
    ) -> Result<PendingPage<T>, OpenError> {
        let id = PageId::random().map_err(OpenError::Random)?;
        let prepared = self.prepare::<T>(id, Some(user), message.into())?;
        self.insert(prepared).await
    }

    /// The user a record opened for `user` is kept for: refused without a
    /// user on pages that verify users, and with one on pages that do not.
    pub(crate) fn user_for_record(
        &self,
        user: Option<&VerifiedUser>,
    ) -> Result<Option<String>, OpenError> {
        match (user, self.shared().config.verifier.is_some()) {
            (None, true) => Err(OpenError::UserRequired),
            (Some(_), false) => Err(OpenError::NoVerifier),
            (user, _) => Ok(user.map(|u| u.as_str().to_owned())),
        }
    }

    /// The page `T` under `id` (for `user`: refused as
    /// [`open_for`](Self::open_for) refuses it without a verifier, and as
    /// [`open`](Self::open) without a user on pages that verify users),
    /// ready to be added to the store: everything short of it, without I/O
    /// but the loopback server's start.
    pub(crate) fn prepare<T: SensitiveForm>(
        &self,
        id: PageId,
        user: Option<&VerifiedUser>,
        message: String,
    ) -> Result<Prepared<T>, OpenError> {
        let user = self.user_for_record(user)?;
        // Refuse a form the page cannot show before anything is sent.
        PageForm::new(&message, &T::schema())
            .secrets(T::SECRET_FIELDS)
            .render()
            .map_err(OpenError::NotRenderable)?;
        let origin = self.ensure_origin()?;
        let expires_at = SystemTime::now() + self.shared().config.expiry;
        let mut record = Record::page::<T>(message, expires_at);
        record.user = user;
        let url = format!("{}{}/{id}", origin.as_str(), self.shared().config.base_path);
        Ok(Prepared {
            id,
            url,
            record,
            form: PhantomData,
        })
    }

    /// Adds a prepared page to the store and schedules its expiry.
    pub(crate) async fn insert<T: SensitiveForm>(
        &self,
        prepared: Prepared<T>,
    ) -> Result<PendingPage<T>, OpenError> {
        let Prepared {
            id, url, record, ..
        } = prepared;
        let handle = self.insert_record(id, record, url).await?;
        Ok(PendingPage::new(handle))
    }

    /// Adds `record` (a page or an OAuth flow) to the store under `id` and
    /// schedules its expiry: the one way a record is opened.
    pub(crate) async fn insert_record(
        &self,
        id: PageId,
        record: Record,
        url: String,
    ) -> Result<Handle, OpenError> {
        let shared = self.shared();
        let (is_page, max_open) = (record.is_page(), shared.config.max_open);
        if let Err(error) = shared.store.insert(id, record, max_open).await {
            error.trace_insert();
            return Err(OpenError::Store(error));
        }
        let what = if is_page { "page" } else { "oauth flow" };
        note!("opened", page = Fingerprint(id), what = what);
        let expiry = shared.config.expiry;
        shared
            .reaper
            .schedule(&shared.store, Instant::now() + expiry, expiry, id);
        Ok(Handle::new(id, url, std::sync::Arc::clone(shared)))
    }

    /// [`open`](Self::open) (or, for `user`, [`open_for`](Self::open_for))
    /// of a page that asks again after a refused answer: it shows `errors`
    /// on their fields.
    #[cfg_attr(not(any(feature = "acp-sdk", feature = "rmcp")), allow(dead_code))]
    pub(crate) async fn open_again<T: SensitiveForm>(
        &self,
        user: Option<&VerifiedUser>,
        message: String,
        errors: &crate::ContentError,
    ) -> Result<PendingPage<T>, OpenError> {
        let id = PageId::random().map_err(OpenError::Random)?;
        let prepared = self.prepare::<T>(id, user, message)?.errors(errors);
        self.insert(prepared).await
    }
}

impl<T> Prepared<T> {
    /// This page, showing `errors` (the refused answer's, by field: the
    /// field's wire name and the error's message, never a value).
    #[cfg_attr(not(any(feature = "acp-sdk", feature = "rmcp")), allow(dead_code))]
    pub(crate) fn errors(mut self, errors: &crate::ContentError) -> Self {
        if let Some(page) = self.record.asked_page_mut() {
            page.errors = errors
                .errors()
                .iter()
                .map(|error| (error.field().to_owned(), error.kind().to_string()))
                .collect();
        }
        self
    }
}

/// A page ready to be added to the store ([`Pages::prepare`]).
pub(crate) struct Prepared<T> {
    id: PageId,
    url: String,
    record: Record,
    form: PhantomData<fn() -> T>,
}
