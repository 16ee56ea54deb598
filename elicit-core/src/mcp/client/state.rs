//! One MCP connection's elicitation state, on the host: the modes its guard
//! accepts, the server's name and the URL elicitations it tracks.

use std::fmt;
use std::sync::{Arc, Mutex};

use crate::sync::lock;

use rmcp::model;

use crate::protocol::client::ClientConnection;
use crate::protocol::{ElicitationCapabilities, ElicitationId};

use super::convert::capability_of;

/// One MCP connection's elicitation state, on the host (the client): the
/// modes it advertises and its guard enforces, the server's name the
/// renderer shows, and the URL elicitations it tracks. Cheap to clone;
/// every clone is the same state.
///
/// Its rmcp handler is [`handler`](Self::handler) (in `handler.rs`), as
/// ACP's client side builds its SDK handler
/// (`acp::sdk::ClientElicitations::handler`).
#[derive(Clone)]
pub struct ClientElicitations {
    connection: Arc<Mutex<ClientConnection>>,
    server: Arc<Mutex<String>>,
}

impl fmt::Debug for ClientElicitations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientElicitations")
            .field("connection", &*lock(&self.connection))
            .field("server", &*lock(&self.server))
            .finish()
    }
}

impl ClientElicitations {
    /// A host that accepts `modes` (e.g.
    /// [`ElicitationCapabilities::form_and_url`]): what its handler
    /// advertises and its guard enforces.
    pub fn new(modes: ElicitationCapabilities) -> Self {
        Self {
            connection: Arc::new(Mutex::new(ClientConnection::new(Some(modes)))),
            server: Arc::new(Mutex::new("the MCP server".to_owned())),
        }
    }

    /// The `elicitation` capability the handler advertises: exactly the
    /// modes the guard accepts, each named (`{"form": {}}`, `{"url": {}}`),
    /// never the bare `{}` that MCP reads as form only.
    pub fn mcp_capability(&self) -> Option<model::ElicitationCapability> {
        lock(&self.connection).capabilities().map(capability_of)
    }

    /// How the renderer names the server to the user. Default: "the MCP
    /// server"; [`call_tool`](super::ElicitationHandler::call_tool) sets it
    /// to the name the server gave (`RunningService::peer_info`).
    pub(crate) fn set_server(&self, name: impl Into<String>) {
        *lock(&self.server) = name.into();
    }

    /// Whether `id` is a tracked URL elicitation, not yet completed.
    pub fn is_pending(&self, id: &ElicitationId) -> bool {
        lock(&self.connection).is_pending(id)
    }

    /// The guard's state, for the handler.
    pub(super) fn connection(&self) -> &Mutex<ClientConnection> {
        &self.connection
    }

    /// The server's name, as the renderer shows it.
    pub(super) fn server(&self) -> String {
        lock(&self.server).clone()
    }
}
