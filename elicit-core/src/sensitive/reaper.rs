//! Page expiry: one thread per [`Pages`](super::Pages).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};
use std::thread;
use std::time::{Duration, Instant};

use super::store::{End, Store};
use super::token::PageId;

/// What the reaper tells a flow that plugged into the server (an OAuth
/// flow table): one of its ids reached the expiry it scheduled
/// ([`Reaper::schedule_extension`]).
pub(crate) trait Expire: Send + Sync {
    /// Ends `id` as expired if it still waits.
    fn expire(&self, id: PageId);
}

/// Ends pages at their expiry and forgets them one expiry later (until
/// then a visit sees how the page ended): one thread, started with the
/// first page, that stops when its `Pages` are dropped.
#[derive(Default)]
pub(crate) struct Reaper {
    state: Arc<(Mutex<ReaperState>, Condvar)>,
}

#[derive(Default)]
struct ReaperState {
    due: BinaryHeap<Reverse<(Instant, Due)>>,
    started: bool,
    /// The extensions whose ids are due too ([`Due::Extension`] holds the
    /// index).
    extensions: Vec<Weak<dyn Expire>>,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Due {
    /// The page's answer is due: end it as expired, and forget it this
    /// much later.
    Expire(IdKey, Duration),
    /// Forget the page.
    Remove(IdKey),
    /// Tell the extension of this index that the id expired (an OAuth
    /// flow: forgotten when its `PendingOAuth` is dropped).
    Extension(IdKey, usize),
}

/// A page id as plain bytes (the heap needs an order).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct IdKey([u8; 16]);

impl IdKey {
    fn new(id: PageId) -> Self {
        Self(id.bytes())
    }

    fn id(self) -> PageId {
        PageId::from_bytes(self.0)
    }
}

impl Reaper {
    /// Ends `id` as expired in `store` at `at`, and forgets it `keep` later.
    pub(crate) fn schedule(&self, store: &Arc<dyn Store>, at: Instant, keep: Duration, id: PageId) {
        let mut guard = lock(&self.state.0);
        guard
            .due
            .push(Reverse((at, Due::Expire(IdKey::new(id), keep))));
        self.start(guard, store);
    }

    /// Tells `extension` at `at` that its `id` expired
    /// ([`Expire::expire`]).
    #[allow(dead_code)] // Only flows behind features (OAuth) plug in.
    pub(crate) fn schedule_extension(
        &self,
        store: &Arc<dyn Store>,
        extension: Arc<dyn Expire>,
        at: Instant,
        id: PageId,
    ) {
        let mut guard = lock(&self.state.0);
        let weak = Arc::downgrade(&extension);
        let index = match guard.extensions.iter().position(|e| e.ptr_eq(&weak)) {
            Some(index) => index,
            None => {
                guard.extensions.push(weak);
                guard.extensions.len() - 1
            }
        };
        guard
            .due
            .push(Reverse((at, Due::Extension(IdKey::new(id), index))));
        self.start(guard, store);
    }

    /// Starts the thread if it is not running, and wakes it.
    fn start(&self, mut guard: MutexGuard<'_, ReaperState>, store: &Arc<dyn Store>) {
        let wake = &self.state.1;
        if !guard.started {
            guard.started = true;
            let state = Arc::clone(&self.state);
            let store = Arc::downgrade(store);
            // If the thread cannot start, pages still expire when visited
            // and when their `PendingPage` is dropped.
            let started = thread::Builder::new()
                .name("elicit-page-expiry".to_owned())
                .spawn(move || reap(&state, &store));
            guard.started = started.is_ok();
        }
        wake.notify_one();
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        // Wakes the thread, which finds its store gone and stops.
        self.state.1.notify_one();
    }
}

fn reap(state: &Arc<(Mutex<ReaperState>, Condvar)>, store: &Weak<dyn Store>) {
    let (mutex, wake) = &**state;
    let mut guard = lock(mutex);
    loop {
        let Some(pages) = store.upgrade() else {
            return;
        };
        let now = Instant::now();
        let mut due = Vec::new();
        while let Some(Reverse((at, _))) = guard.due.peek() {
            if *at > now {
                break;
            }
            if let Some(Reverse(entry)) = guard.due.pop() {
                due.push(entry);
            }
        }
        let next = guard.due.peek().map(|Reverse((at, _))| *at);
        let extensions = guard.extensions.clone();
        drop(guard);
        let mut later = Vec::new();
        for (_, what) in due {
            match what {
                Due::Expire(key, keep) => {
                    let _ = pages.end(&key.id(), End::Expired);
                    later.push(Reverse((now + keep, Due::Remove(key))));
                }
                Due::Remove(key) => {
                    let _ = pages.remove(&key.id());
                }
                Due::Extension(key, index) => {
                    if let Some(extension) = extensions.get(index).and_then(Weak::upgrade) {
                        extension.expire(key.id());
                    }
                }
            }
        }
        drop(pages);
        guard = lock(mutex);
        guard.due.extend(later);
        let next = guard.due.peek().map(|Reverse((at, _))| *at).or(next);
        guard = match next {
            Some(at) => {
                let wait = at.saturating_duration_since(Instant::now());
                wake.wait_timeout(guard, wait)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
            // Nothing due: sleep a while and look whether the pages are
            // still there.
            None => {
                wake.wait_timeout(guard, Duration::from_secs(60))
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
        };
    }
}

/// Locks the reaper's state; nothing panics while it is held.
fn lock(mutex: &Mutex<ReaperState>) -> MutexGuard<'_, ReaperState> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
