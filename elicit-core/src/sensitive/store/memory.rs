//! [`MemoryStore`]: the default [`Store`], a map in this process's memory.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use futures_channel::oneshot;

use super::error::StoreError;
use super::record::{Binding, End, Record, State};
use super::seam::Store;
use crate::sensitive::token::PageId;

/// The default [`Store`]: a map in this process's memory, its clock this
/// process's. Its futures are ready at once.
#[derive(Default)]
pub struct MemoryStore {
    records: Mutex<Records>,
}

#[derive(Default)]
struct Records {
    slots: HashMap<PageId, Slot>,
}

struct Slot {
    record: Record,
    /// How it ended, once it has.
    end: Option<End>,
    /// Who waits for the end, until it comes.
    waiters: Vec<oneshot::Sender<End>>,
}

impl fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryStore")
            .field("records", &self.lock().slots.len())
            .finish()
    }
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, Records> {
        // No code panics while holding the lock, and it is never held
        // across an await: a poisoned map is whole.
        self.records.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Records {
    /// Ends `id` with `end` if it waits: its waiters, to be sent the end
    /// outside the lock; `None` if it did not end here.
    fn end(&mut self, id: &PageId, end: &End) -> Option<Vec<oneshot::Sender<End>>> {
        let slot = self.slots.get_mut(id)?;
        let state = slot.record.state;
        let ends = match end {
            End::Expired => state == State::Open,
            _ => state.is_waiting(),
        };
        if !ends {
            return None;
        }
        slot.record.state = end.state();
        slot.end = Some(end.clone());
        Some(std::mem::take(&mut slot.waiters))
    }
}

/// Sends `end` to `waiters` (a waiter that is gone is not an error).
fn wake(waiters: Vec<oneshot::Sender<End>>, end: &End) {
    for waiter in waiters {
        let _ = waiter.send(end.clone());
    }
}

/// Whether `record` is open past its expiry, by this process's clock.
fn overdue(record: &Record) -> bool {
    record.state == State::Open && SystemTime::now() >= record.expires_at
}

/// Each step at once, under the lock.
impl Store for MemoryStore {
    async fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError> {
        let mut records = self.lock();
        let open = records.slots.values();
        if open.filter(|slot| slot.record.state == State::Open).count() >= max_open {
            return Err(StoreError::Full { max: max_open });
        }
        if records.slots.contains_key(&id) {
            return Err(StoreError::Taken(id));
        }
        let slot = Slot {
            record,
            end: None,
            waiters: Vec::new(),
        };
        records.slots.insert(id, slot);
        Ok(())
    }

    async fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
        Ok(self.lock().slots.get(id).map(|slot| slot.record.clone()))
    }

    async fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
        let mut records = self.lock();
        let Some(slot) = records.slots.get_mut(id) else {
            return Ok(None);
        };
        if slot.record.state != State::Open {
            return Ok(None);
        }
        Ok(Some(*slot.record.binding.get_or_insert(binding)))
    }

    async fn take(&self, id: &PageId) -> Result<Option<State>, StoreError> {
        let mut records = self.lock();
        let (was, late) = match records.slots.get(id) {
            Some(slot) => (slot.record.state, overdue(&slot.record)),
            None => return Ok(None),
        };
        if late {
            let waiters = records.end(id, &End::Expired);
            drop(records);
            wake(waiters.unwrap_or_default(), &End::Expired);
            return Ok(Some(State::Expired));
        }
        if was == State::Open
            && let Some(slot) = records.slots.get_mut(id)
        {
            slot.record.state = State::Taken;
        }
        Ok(Some(was))
    }

    async fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
        let mut records = self.lock();
        let late = matches!(end, End::Answered(_))
            && records
                .slots
                .get(id)
                .is_some_and(|slot| overdue(&slot.record));
        let (end, counts) = if late {
            (End::Expired, false)
        } else {
            (end, true)
        };
        let waiters = records.end(id, &end);
        drop(records);
        let Some(waiters) = waiters else {
            return Ok(false);
        };
        wake(waiters, &end);
        Ok(counts)
    }

    async fn wait(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let receiver = {
            let mut records = self.lock();
            let Some(slot) = records.slots.get_mut(id) else {
                return Ok(None);
            };
            if let Some(end) = &slot.end {
                return Ok(Some(end.clone()));
            }
            let (sender, receiver) = oneshot::channel();
            slot.waiters.retain(|waiter| !waiter.is_canceled());
            slot.waiters.push(sender);
            receiver
        };
        // A record removed before it ended drops its waiters: no end.
        Ok(receiver.await.ok())
    }

    async fn end_of(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        Ok(self.lock().slots.get(id).and_then(|slot| slot.end.clone()))
    }

    async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        self.lock().slots.remove(id);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::sensitive::store::Answer;
    use crate::sensitive::{SecretString, SensitiveForm, Submission};

    /// A one-field sensitive form, by hand.
    struct Key;

    impl SensitiveForm for Key {
        const SECRET_FIELDS: &'static [&'static str] = &["key"];
        fn schema() -> crate::ElicitationSchema {
            crate::ElicitationSchema::default()
        }
        fn from_submission(_: Submission) -> Result<Self, crate::ContentError> {
            Ok(Self)
        }
    }

    /// A memory store's step, which is ready at once: polled once.
    fn now<F: std::future::Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(out) => out,
            std::task::Poll::Pending => panic!("a memory store's step waited"),
        }
    }

    fn id(n: u8) -> PageId {
        PageId::from_bytes([n; 16])
    }

    fn answer() -> End {
        End::Answered(Answer::Page(
            Submission::new().secret("key", SecretString::from("k")),
        ))
    }

    #[test]
    fn the_lifecycle_the_seam_documents() {
        let store = MemoryStore::new();
        let later = SystemTime::now() + Duration::from_secs(600);
        let past = SystemTime::now() - Duration::from_secs(1);

        // A late answer to an open record ends it expired, and counts as no end.
        now(store.insert(id(1), Record::page::<Key>("m", past), 8)).unwrap();
        assert!(!now(store.end(&id(1), answer())).unwrap());
        assert_eq!(
            now(store.get(&id(1))).unwrap().unwrap().state,
            State::Expired
        );
        assert!(matches!(
            now(store.end_of(&id(1))).unwrap(),
            Some(End::Expired)
        ));

        // Taken: exactly one take is told `Open`; an expiry does not end it,
        // its answer does, once.
        now(store.insert(id(2), Record::page::<Key>("m", later), 8)).unwrap();
        assert_eq!(now(store.take(&id(2))).unwrap(), Some(State::Open));
        assert_eq!(now(store.take(&id(2))).unwrap(), Some(State::Taken));
        assert!(!now(store.end(&id(2), End::Expired)).unwrap());
        assert!(now(store.end(&id(2), answer())).unwrap());
        assert!(!now(store.end(&id(2), End::Cancelled)).unwrap());
        assert_eq!(
            now(store.get(&id(2))).unwrap().unwrap().state,
            State::Answered
        );

        // A take past the expiry ends the record expired.
        now(store.insert(id(3), Record::page::<Key>("m", past), 8)).unwrap();
        assert_eq!(now(store.take(&id(3))).unwrap(), Some(State::Expired));
        assert!(matches!(
            now(store.wait(&id(3))).unwrap(),
            Some(End::Expired)
        ));

        // Only open records count against the cap; a removed one is gone.
        now(store.insert(id(4), Record::page::<Key>("m", later), 1)).unwrap();
        assert!(matches!(
            now(store.insert(id(5), Record::page::<Key>("m", later), 1)),
            Err(StoreError::Full { max: 1 })
        ));
        now(store.remove(&id(4))).unwrap();
        assert!(now(store.get(&id(4))).unwrap().is_none());
        now(store.insert(id(5), Record::page::<Key>("m", later), 1)).unwrap();
    }
}
