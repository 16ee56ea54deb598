//! [`Store`] behind a pointer: what the pages hold. Each method boxes the
//! store's future (one allocation a call), so `Store` keeps its `async fn`
//! methods and the pages need no generic parameter.

use std::future::Future;

use super::error::StoreError;
use super::record::{Binding, End, Record, State};
use super::seam::Store;
use crate::sensitive::token::PageId;

/// A boxed `Send` future, borrowing for `'a`.
pub(crate) type BoxFuture<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// [`Store`], object-safe.
pub(crate) trait DynStore: Send + Sync + 'static {
    fn insert(
        &self,
        id: PageId,
        record: Record,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>>;
    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Record>, StoreError>>;
    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        binding: Binding,
    ) -> BoxFuture<'a, Result<Option<Binding>, StoreError>>;
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    fn take<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<State>, StoreError>>;
    fn end<'a>(&'a self, id: &'a PageId, end: End) -> BoxFuture<'a, Result<bool, StoreError>>;
    fn wait<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<End>, StoreError>>;
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    fn end_of<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<End>, StoreError>>;
    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<(), StoreError>>;
}

impl<S: Store> DynStore for S {
    fn insert(
        &self,
        id: PageId,
        record: Record,
        max_open: usize,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(Store::insert(self, id, record, max_open))
    }
    fn get<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<Record>, StoreError>> {
        Box::pin(Store::get(self, id))
    }
    fn bind<'a>(
        &'a self,
        id: &'a PageId,
        binding: Binding,
    ) -> BoxFuture<'a, Result<Option<Binding>, StoreError>> {
        Box::pin(Store::bind(self, id, binding))
    }
    fn take<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<State>, StoreError>> {
        Box::pin(Store::take(self, id))
    }
    fn end<'a>(&'a self, id: &'a PageId, end: End) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(Store::end(self, id, end))
    }
    fn wait<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<End>, StoreError>> {
        Box::pin(Store::wait(self, id))
    }
    fn end_of<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<Option<End>, StoreError>> {
        Box::pin(Store::end_of(self, id))
    }
    fn remove<'a>(&'a self, id: &'a PageId) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(Store::remove(self, id))
    }
}
