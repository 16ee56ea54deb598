//! The state every clone of [`Pages`](super::Pages), its service and its
//! loopback server share, and the seam through which a flow plugs into the
//! server without the server knowing it ([`Extension`]: its routes, its
//! table, its expiry; the OAuth flow is one, `oauth::table::Flows`).

use std::any::Any;
use std::sync::{Arc, Mutex};

use crate::sync::lock;
use std::time::Duration;

use super::origin::Origin;
use super::reaper::{Expire, Reaper};
use super::response::PageResponse;
use super::server::LoopbackServer;
use super::store::DynStore;
use super::verify::UserVerifier;

pub(crate) struct Config {
    /// `None` until the loopback server is bound.
    pub(crate) origin: Option<Origin>,
    pub(crate) base_path: String,
    pub(crate) expiry: Duration,
    pub(crate) max_open: usize,
    pub(crate) body_limit: usize,
    pub(crate) max_connections: usize,
    pub(crate) request_timeout: Duration,
    pub(crate) verifier: Option<Arc<dyn UserVerifier>>,
}

pub(crate) struct Shared {
    pub(crate) config: Config,
    pub(crate) store: Arc<dyn DynStore>,
    /// The loopback server and the origin it is bound to, once started.
    pub(crate) server: Mutex<Option<(LoopbackServer, Origin)>>,
    pub(crate) reaper: Reaper,
    /// The flows plugged into the server besides its pages (OAuth's).
    pub(crate) extensions: Extensions,
}

impl Shared {
    /// The origin pages are served from (the loopback server's, once it
    /// runs).
    pub(crate) fn origin(&self) -> Option<Origin> {
        self.config.origin.clone().or_else(|| {
            lock(&self.server)
                .as_ref()
                .map(|(_, origin)| origin.clone())
        })
    }
}

/// A boxed `Send` future, borrowing for `'a` (the stores', where the page
/// server's seams are).
pub(crate) use super::store::BoxFuture;

/// A flow served by the page server besides its pages: one value per
/// [`Pages`](super::Pages), added by the flow when it first opens (see
/// [`Extensions::get_or_add`]).
pub(crate) trait Extension: Expire + Any {
    /// The response to a request this flow serves, or `None` when the
    /// request is for something else (another flow). Asked after the
    /// server's own checks of the request (its host), for a request that
    /// is not for a pending page.
    fn route<'a>(
        &'a self,
        shared: &'a Arc<Shared>,
        origin: &'a Origin,
        parts: &'a http::request::Parts,
    ) -> BoxFuture<'a, Option<PageResponse>>;
}

/// The extensions of one [`Pages`](super::Pages), in the order they were
/// added.
#[derive(Default)]
pub(crate) struct Extensions {
    list: Mutex<Vec<Arc<dyn Extension>>>,
}

impl Extensions {
    /// The extension of type `T`, added with `make` the first time.
    // Only flows behind features (OAuth) add themselves.
    #[allow(dead_code)]
    pub(crate) fn get_or_add<T: Extension>(&self, make: impl FnOnce() -> T) -> Arc<T> {
        let mut list = lock(&self.list);
        if let Some(found) = list.iter().find_map(|e| downcast::<T>(e)) {
            return found;
        }
        let added = Arc::new(make());
        list.push(added.clone());
        added
    }

    /// Puts `extension` in place of the one of its type, if any (a flow's
    /// own store, given before the first flow opens).
    #[allow(dead_code)] // Only flows behind features (OAuth) plug in.
    pub(crate) fn replace<T: Extension>(&self, extension: Arc<T>) {
        let mut list = lock(&self.list);
        list.retain(|e| downcast::<T>(e).is_none());
        list.push(extension);
    }

    /// The extension of type `T`, if it was added.
    #[allow(dead_code)]
    pub(crate) fn get<T: Extension>(&self) -> Option<Arc<T>> {
        lock(&self.list).iter().find_map(|e| downcast::<T>(e))
    }

    /// Every extension, to route a request through.
    pub(crate) fn all(&self) -> Vec<Arc<dyn Extension>> {
        lock(&self.list).clone()
    }
}

fn downcast<T: Extension>(extension: &Arc<dyn Extension>) -> Option<Arc<T>> {
    let any: Arc<dyn Any + Send + Sync> = extension.clone();
    any.downcast::<T>().ok()
}
