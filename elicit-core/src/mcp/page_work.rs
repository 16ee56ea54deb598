//! What [`Rounds::secret`](super::Rounds::secret) needs of the page store,
//! done around the `ask` closure, which is not async: a page the closure
//! names is read before it runs again, the pages it opens are added once it
//! returns, and the pages it gives up are cancelled or forgotten after its
//! last run. Every step awaits the store; none blocks.

use std::collections::HashMap;

use crate::sensitive::{OpenError, PageId, PageRead, Pages, Prepared, SensitiveForm};

/// A prepared page, whatever its form.
trait Opening: Send {
    fn open(self: Box<Self>)
    -> crate::sensitive::shared::BoxFuture<'static, Result<(), OpenError>>;
}

struct Open<T> {
    pages: Pages,
    prepared: Prepared<T>,
}

impl<T: SensitiveForm + 'static> Opening for Open<T> {
    fn open(
        self: Box<Self>,
    ) -> crate::sensitive::shared::BoxFuture<'static, Result<(), OpenError>> {
        Box::pin(async move {
            // Detached: the rounds read it by id.
            self.pages.insert(self.prepared).await?.detach();
            Ok(())
        })
    }
}

/// The store work of one call's runs of `ask`.
#[derive(Default)]
pub(super) struct PageWork {
    /// The pages read for this call, by id: what a run sees of them.
    read: HashMap<PageId, PageRead>,
    /// The pages this run named that were not read yet.
    unread: Vec<(Pages, PageId)>,
    /// The pages this run opens, by key.
    opening: Vec<(String, PageId, Box<dyn Opening>)>,
    /// The pages this run gave up.
    cancel: Vec<(Pages, PageId)>,
    /// The pages this run read for the last time.
    forget: Vec<(Pages, PageId)>,
}

impl PageWork {
    /// The page `id` as read for this call; `None` if it was not read yet:
    /// it is read before `ask` runs again.
    pub(super) fn read(&mut self, pages: &Pages, id: PageId) -> Option<PageRead> {
        if let Some(read) = self.read.get(&id) {
            return Some(read.clone());
        }
        if !self.unread.iter().any(|(_, unread)| *unread == id) {
            self.unread.push((pages.clone(), id));
        }
        None
    }

    /// What the page `id` is now (read after the call waited for it).
    pub(super) fn set_read(&mut self, id: PageId, read: PageRead) {
        self.read.insert(id, read);
    }

    /// Opens `prepared` under `key` once the run returns.
    pub(super) fn open<T: SensitiveForm + 'static>(
        &mut self,
        key: &str,
        pages: &Pages,
        id: PageId,
        prepared: Prepared<T>,
    ) {
        let opening = Box::new(Open {
            pages: pages.clone(),
            prepared,
        });
        self.opening.push((key.to_owned(), id, opening));
    }

    /// Does not open `id` after all (its question could not be asked).
    pub(super) fn unopen(&mut self, id: PageId) {
        self.opening.retain(|(_, opening, _)| *opening != id);
    }

    /// Cancels the page `id` after the last run.
    pub(super) fn cancel(&mut self, pages: &Pages, id: PageId) {
        self.cancel.push((pages.clone(), id));
    }

    /// Forgets the page `id` after the last run.
    pub(super) fn forget(&mut self, pages: &Pages, id: PageId) {
        self.forget.push((pages.clone(), id));
    }

    /// After a run that returned `None`: reads the pages it named first,
    /// else opens the pages it opened. `Some` when `ask` must run again:
    /// with the keys whose page could not be opened, and why.
    pub(super) async fn after_asking(&mut self) -> Option<Vec<(String, OpenError)>> {
        if !self.unread.is_empty() {
            for (pages, id) in std::mem::take(&mut self.unread) {
                let read = pages.read(id).await;
                self.read.insert(id, read);
            }
            return Some(Vec::new());
        }
        let mut failed = Vec::new();
        for (key, _, opening) in std::mem::take(&mut self.opening) {
            if let Err(error) = opening.open().await {
                failed.push((key, error));
            }
        }
        (!failed.is_empty()).then_some(failed)
    }

    /// Before a run again: what the last run would have done is dropped
    /// (it runs again from the same state).
    pub(super) fn again(&mut self) {
        self.unread.clear();
        self.opening.clear();
        self.cancel.clear();
        self.forget.clear();
    }

    /// After the last run: cancels and forgets what it gave up.
    pub(super) async fn finish(&mut self) {
        self.opening.clear();
        for (pages, id) in std::mem::take(&mut self.cancel) {
            pages.cancel(id).await;
        }
        for (pages, id) in std::mem::take(&mut self.forget) {
            pages.forget(id).await;
        }
    }
}
