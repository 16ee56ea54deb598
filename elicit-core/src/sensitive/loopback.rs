//! The loopback server: hyper's HTTP/1.1 server on `127.0.0.1`, an
//! ephemeral port, on a thread of its own with a current-thread tokio
//! runtime, so the agent's own futures need no runtime.

use std::future::Future;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener as StdListener};
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::thread::{self, JoinHandle, ThreadId};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, oneshot};

/// How long one connection may stay open in all, whatever it does: a
/// keep-alive connection is closed after this.
const CONNECTION_LIFETIME: Duration = Duration::from_secs(120);

/// How long a stopping server lets the requests in flight finish (the
/// "done" page of the answer that ended the agent's flow, typically).
const DRAIN: Duration = Duration::from_secs(5);

/// How the server is run: its caps and timeouts, and what it answers a
/// request that timed out with.
pub(crate) struct Limits {
    pub(crate) max_connections: usize,
    pub(crate) request_timeout: Duration,
    pub(crate) timed_out: fn() -> Response<Full<Bytes>>,
}

/// The running server. Dropping it stops the server and waits for its
/// thread (unless dropped on that thread).
pub(crate) struct LoopbackServer {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
    thread_id: ThreadId,
}

impl LoopbackServer {
    /// Binds `127.0.0.1` on a port the OS picks and answers every request
    /// with `handler`.
    pub(crate) fn start<H, F>(handler: H, limits: Limits) -> io::Result<Self>
    where
        H: Fn(Request<Incoming>) -> F + Clone + Send + 'static,
        F: Future<Output = Response<Full<Bytes>>> + Send + 'static,
    {
        let listener = StdListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()?;
        let (stop, stopped) = oneshot::channel();
        let thread = thread::Builder::new()
            .name("elicit-page-server".to_owned())
            .spawn(move || {
                runtime.block_on(serve(listener, handler, limits, stopped));
            })?;
        Ok(Self {
            addr,
            stop: Some(stop),
            thread_id: thread.thread().id(),
            thread: Some(thread),
        })
    }

    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for LoopbackServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if thread::current().id() != self.thread_id
            && let Some(thread) = self.thread.take()
        {
            let _ = thread.join();
        }
    }
}

async fn serve<H, F>(
    listener: StdListener,
    handler: H,
    limits: Limits,
    mut stopped: oneshot::Receiver<()>,
) where
    H: Fn(Request<Incoming>) -> F + Clone + Send + 'static,
    F: Future<Output = Response<Full<Bytes>>> + Send + 'static,
{
    let Ok(listener) = TcpListener::from_std(listener) else {
        return;
    };
    let Limits {
        max_connections,
        request_timeout: timeout,
        timed_out,
    } = limits;
    let slots = Arc::new(Semaphore::new(max_connections));
    // Tells every connection to finish its request in flight and close.
    let (closing, closed) = tokio::sync::watch::channel(false);
    loop {
        let accepted = {
            let accept = std::pin::pin!(listener.accept());
            match first(&mut stopped, accept).await {
                First::Left(_) => None,
                First::Right(accepted) => Some(accepted),
            }
        };
        let Some(accepted) = accepted else {
            // Stopping: no new connection; each open one finishes its
            // request in flight, then gives its slot back.
            drop(listener);
            let _ = closing.send(true);
            let all = u32::try_from(max_connections).unwrap_or(u32::MAX);
            let _ = tokio::time::timeout(DRAIN, slots.acquire_many(all)).await;
            return;
        };
        let Ok((stream, _)) = accepted else {
            continue;
        };
        // Over the cap: closed at once.
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let handler = handler.clone();
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let answer = handler(request);
                async move {
                    let response = match tokio::time::timeout(timeout, answer).await {
                        Ok(response) => response,
                        Err(_) => timed_out(),
                    };
                    Ok::<_, std::convert::Infallible>(response)
                }
            });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(timeout)
                .max_buf_size(64 * 1024)
                .serve_connection(TokioIo::new(stream), service);
            let served = async move {
                let mut connection = std::pin::pin!(connection);
                let stop = std::pin::pin!(async move {
                    // The guard `wait_for` returns is dropped at once.
                    let _ = closed.wait_for(|closing| *closing).await;
                });
                if let First::Right(()) = first(connection.as_mut(), stop).await {
                    // The server stops: finish the request in flight, then close.
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            };
            let _ = tokio::time::timeout(CONNECTION_LIFETIME, served).await;
            drop(slot);
        });
    }
}

/// Which of two futures finished first.
enum First<A, B> {
    Left(A),
    Right(B),
}

/// Waits for the first of two futures (`a` is polled first); the other is
/// left as it is. What `futures::future::select` does, without the
/// `futures-util` crate (BENCHMARKS.md, "Build cost").
async fn first<A, B>(mut a: A, mut b: B) -> First<A::Output, B::Output>
where
    A: Future + Unpin,
    B: Future + Unpin,
{
    std::future::poll_fn(|cx| {
        if let Poll::Ready(out) = Pin::new(&mut a).poll(cx) {
            return Poll::Ready(First::Left(out));
        }
        if let Poll::Ready(out) = Pin::new(&mut b).poll(cx) {
            return Poll::Ready(First::Right(out));
        }
        Poll::Pending
    })
    .await
}
