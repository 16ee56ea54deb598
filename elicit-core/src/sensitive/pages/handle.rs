//! [`Pages`], the handle every flow and the page service share: where the
//! pages are served, and the store they are kept in.

use std::fmt;
use std::sync::Arc;

use super::error::OpenError;
use crate::sensitive::loopback::{Limits, LoopbackServer};
use crate::sensitive::origin::Origin;
use crate::sensitive::service::{PageService, respond, timed_out};
use crate::sensitive::shared::Shared;
use crate::sync::lock;

/// The pending pages of one agent: where they are served, how long they
/// wait, where they are kept. Cheap to clone; every clone is the same set.
///
/// Two ways to serve them, each set up on a [`PagesBuilder`](crate::sensitive::PagesBuilder) and made with
/// [`build`](crate::sensitive::PagesBuilder::build):
/// - [`Pages::loopback`]: the agent's own server on `127.0.0.1`, an
///   ephemeral port, started when the first page opens and stopped when the
///   last clone of these `Pages` is dropped. The usual ACP case: the client
///   launched the agent on the user's machine.
/// - [`Pages::hosted`]: mount [`Pages::service`] (a `tower` service) in
///   your own web server, behind TLS, with a [`UserVerifier`](crate::sensitive::UserVerifier).
pub struct Pages {
    pub(super) shared: Arc<Shared>,
}

impl Clone for Pages {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl fmt::Debug for Pages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pages")
            .field("origin", &self.shared.config.origin)
            .field("base_path", &self.shared.config.base_path)
            .field("expiry", &self.shared.config.expiry)
            .field("verifier", &self.shared.config.verifier.is_some())
            .finish_non_exhaustive()
    }
}

impl Pages {
    /// The `tower` service that serves these pages: mount it at the public
    /// URL's path in your web server (axum:
    /// `Router::new().nest_service("/elicit", pages.service())`, which strips
    /// the mount path). Serves `GET` and `POST` on `<path>/<id>` and on
    /// `/<id>` (what a router that strips the mount path passes on), and
    /// the OAuth start pages and callback the same way; everything else is
    /// `404`.
    pub fn service(&self) -> PageService {
        PageService::new(Arc::downgrade(&self.shared))
    }

    /// Whether these pages verify users (a [`UserVerifier`](crate::sensitive::UserVerifier)):
    /// then every page is opened for a user ([`open_for`](Self::open_for)).
    #[cfg(feature = "rmcp")]
    pub(crate) fn verifies_users(&self) -> bool {
        self.shared.config.verifier.is_some()
    }

    /// The loopback server's address, once a page opened it.
    pub fn local_addr(&self) -> Option<std::net::SocketAddr> {
        lock(&self.shared.server)
            .as_ref()
            .map(|(server, _)| server.addr())
    }

    /// The state every clone shares.
    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The origin pages are served from, starting the loopback server if
    /// it is not running.
    pub(crate) fn ensure_origin(&self) -> Result<Origin, OpenError> {
        if let Some(origin) = &self.shared.config.origin {
            return Ok(origin.clone());
        }
        let mut server = lock(&self.shared.server);
        if let Some((_, origin)) = server.as_ref() {
            return Ok(origin.clone());
        }
        let shared = Arc::downgrade(&self.shared);
        let handler = move |request| {
            let shared = shared.clone();
            async move { respond(&shared, request).await }
        };
        let limits = Limits {
            max_connections: self.shared.config.max_connections,
            request_timeout: self.shared.config.request_timeout,
            timed_out,
        };
        let started = LoopbackServer::start(handler, limits).map_err(OpenError::Server)?;
        let origin = Origin::loopback(started.addr());
        *server = Some((started, origin.clone()));
        Ok(origin)
    }
}
