//! [`Background`]: a current-thread tokio runtime on a thread of its own,
//! for the work a type does on nobody's request (pages' expiry, a
//! cancellation from `Drop`, Redis's connection and its waiters). Whatever
//! runtime the caller uses, or none, the futures it hands out are plain
//! channels and join handles: any executor can await them.

use std::future::Future;
use std::io;
use std::thread;

use tokio::runtime::Handle;
use tokio::sync::oneshot;

/// The runtime and its thread. Dropping the last clone of the handle's
/// owner stops the runtime on its own thread (never on the dropping one,
/// which may be an async task), cancelling the tasks left.
pub(crate) struct Background {
    handle: Handle,
    /// Dropped with this value: the thread's `block_on` returns and the
    /// runtime is dropped there.
    _stop: oneshot::Sender<()>,
}

impl std::fmt::Debug for Background {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Background(..)")
    }
}

impl Background {
    /// Starts the thread, named `name`.
    pub(crate) fn start(name: &str) -> io::Result<Self> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = oneshot::channel::<()>();
        thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                // Until every owner is gone; then the runtime drops here,
                // cancelling what is left.
                let _ = runtime.block_on(stopped);
            })?;
        Ok(Self {
            handle,
            _stop: stop,
        })
    }

    /// The runtime, to spawn on or to enter.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn handle(&self) -> &Handle {
        &self.handle
    }

    /// Runs `future` there, detached: it goes on when the caller moves on.
    pub(crate) fn spawn(&self, future: impl Future<Output = ()> + Send + 'static) {
        drop(self.handle.spawn(future));
    }

    /// Runs `future` there; the result, awaited from any executor. Dropping
    /// the returned future cancels the task.
    #[cfg_attr(not(any(feature = "redis", feature = "oauth")), allow(dead_code))]
    pub(crate) fn run<T: Send + 'static>(
        &self,
        future: impl Future<Output = T> + Send + 'static,
    ) -> Run<T> {
        Run(self.handle.spawn(future))
    }
}

/// A task of a [`Background`], cancelled when dropped.
pub(crate) struct Run<T>(tokio::task::JoinHandle<T>);

impl<T> Future for Run<T> {
    /// `None` when the task did not finish (its runtime stopped).
    type Output = Option<T>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<T>> {
        std::pin::Pin::new(&mut self.0).poll(cx).map(Result::ok)
    }
}

impl<T> Drop for Run<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}
