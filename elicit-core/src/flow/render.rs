//! The client side's renderer on a thread of its own: a renderer blocks
//! on the user, and the SDK glue's handlers are async. The client's
//! decisions are the sans-IO [`answer`] (`protocol::client`); this is the
//! thread around it, where the SDKs meet it.

use crate::fingerprint::Fingerprint;
use crate::protocol::client::{ClientConnection, Incoming, Render, answer};
use crate::protocol::{CreateElicitationResponse, JsonRpcError};

/// [`answer`] on a thread of its own (a renderer blocks on the user), for
/// the SDK glue whose handlers are async: the response, and `incoming`'s
/// URL id forgotten in `connection` unless the user consented (no
/// completion will be shown for it). `-32603` if the thread cannot start or
/// the renderer panics.
pub(crate) async fn answer_on_thread<R: Render + ?Sized + Send + 'static>(
    renderer: std::sync::Arc<std::sync::Mutex<R>>,
    agent: String,
    incoming: Incoming,
    connection: &std::sync::Mutex<ClientConnection>,
    transport: &'static str,
) -> Result<CreateElicitationResponse, JsonRpcError> {
    let (mode, id) = match &incoming {
        Incoming::Form(_) => ("form", None),
        Incoming::Url(url) => ("url", Some(url.id().clone())),
    };
    let span = span!(
        "client_request",
        transport = transport,
        mode = mode;
        elicitation_id
    );
    let rendered = async {
        if let Some(id) = &id {
            record!(elicitation_id = Fingerprint(id));
        }
        render_on_thread(renderer, agent, incoming, connection).await
    };
    in_span!(span, rendered).await
}

/// [`answer_on_thread`], in its span.
async fn render_on_thread<R: Render + ?Sized + Send + 'static>(
    renderer: std::sync::Arc<std::sync::Mutex<R>>,
    agent: String,
    incoming: Incoming,
    connection: &std::sync::Mutex<ClientConnection>,
) -> Result<CreateElicitationResponse, JsonRpcError> {
    use std::sync::PoisonError;
    // A renderer may panic while holding its lock; the state is plain
    // bookkeeping, usable either way.
    let (send, receive) = futures::channel::oneshot::channel();
    std::thread::Builder::new()
        .name("elicit-render".to_owned())
        .spawn(carried!(move || {
            let mut renderer = renderer.lock().unwrap_or_else(PoisonError::into_inner);
            let response = answer(&mut *renderer, &agent, &incoming);
            let _ = send.send((incoming, response));
        }))
        .map_err(|e| {
            refused!(Internal, step = "renderer thread");
            JsonRpcError::internal(format!(
                "Internal error: cannot start the renderer thread: {e}"
            ))
        })?;
    let (incoming, response) = receive.await.map_err(|_| {
        refused!(Internal, step = "renderer panicked");
        JsonRpcError::internal("Internal error: the renderer panicked")
    })?;
    let response = response?;
    if let Incoming::Url(url) = &incoming
        && !matches!(
            response.action,
            crate::protocol::ElicitationAction::Accept { .. }
        )
    {
        connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .forget(url.id());
    }
    Ok(response)
}
