//! The crate's one lock helper.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, poisoned or not. Every lock in the crate guards plain
/// bookkeeping (a connection's ids, a page table, a renderer's state)
/// that a panic elsewhere cannot leave half-written, so a poisoned lock
/// still holds a usable value.
pub(crate) fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
