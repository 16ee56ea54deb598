//! A latency injector: a TCP proxy on loopback that puts a server (Redis)
//! at a distance. Each direction of each connection delays every chunk it
//! reads by half the round trip, then forwards it, in order; many chunks can
//! be in flight at once (a chunk is timestamped when read and written when
//! its time comes), so neither connections nor requests are serialized by
//! the proxy: a round trip of 1 ms adds 1 ms to each request's reply, not
//! 1 ms per request queued before it.
//!
//! Threads, not tasks: `std::thread::sleep` wakes within tens of
//! microseconds where tokio's timer rounds up to the next millisecond (a
//! half of 0.5 ms would become up to 1.5 ms). Four threads a connection
//! (a reader and a writer each way); the replicas open one or two
//! connections each.
//!
//! It counts what is in flight from the client to the server (read, not yet
//! written): chunks, bytes and RESP commands (the client side of Redis's
//! protocol: arrays of bulk strings, or inline commands), with the most seen
//! at once. [`Latency::hold`] keeps every client-to-server chunk until
//! [`Latency::release`]: what a test needs to see how many requests a
//! client has at the server at once, however slow the machine.
//!
//! TCP's acknowledgements are the kernel's, as on a network: what the
//! proxy reads is acknowledged with the next bytes it sends back (the
//! reply, a round trip after the request) or by the delayed-ACK timer. So a
//! client that leaves Nagle's algorithm on (no `TCP_NODELAY`) sees what a
//! real distance does: a small write behind an unanswered one waits about
//! a round trip in the client's kernel.
//!
//! Stopped when dropped: every socket is shut down and every thread joined;
//! each loop ends at its connection's end or at the stop.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The most a direction reads at once.
const CHUNK: usize = 64 * 1024;
/// The chunks a direction keeps waiting before its reader waits too.
const QUEUED: usize = 4096;
/// How often the accept loop looks for the stop, when idle.
const POLL: Duration = Duration::from_millis(1);

/// What is in flight from the clients to the server: read by the proxy,
/// not yet written on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InFlight {
    pub chunks: u64,
    pub bytes: u64,
    /// Complete RESP commands (a command split over chunks counts with the
    /// chunk that completes it).
    pub commands: u64,
}

/// The proxy, listening on `127.0.0.1:`[`port`](Self::port).
pub struct Latency {
    port: u16,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

struct Shared {
    /// Half the round trip: each direction's delay.
    half: Duration,
    stop: AtomicBool,
    /// Whether client-to-server chunks are held.
    held: Mutex<bool>,
    released: Condvar,
    now: [AtomicU64; 3],
    max: [AtomicU64; 3],
    /// Every connection's two sockets, shut down at the stop.
    sockets: Mutex<Vec<TcpStream>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Latency {
    /// A proxy to `127.0.0.1:target` adding `round_trip` (half each way).
    pub fn start(target: u16, round_trip: Duration) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let shared = Arc::new(Shared {
            half: round_trip / 2,
            stop: AtomicBool::new(false),
            held: Mutex::new(false),
            released: Condvar::new(),
            now: Default::default(),
            max: Default::default(),
            sockets: Mutex::new(Vec::new()),
            threads: Mutex::new(Vec::new()),
        });
        let accepting = shared.clone();
        let accept = std::thread::Builder::new()
            .name("latency-accept".into())
            .spawn(move || accept_loop(&listener, &accepting, target))
            .expect("a thread");
        Self {
            port,
            shared,
            accept: Some(accept),
        }
    }

    /// The port clients connect to instead of the server's.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// What is in flight from the clients to the server now.
    pub fn in_flight(&self) -> InFlight {
        let [chunks, bytes, commands] =
            self.shared.now.each_ref().map(|n| n.load(Ordering::SeqCst));
        InFlight {
            chunks,
            bytes,
            commands,
        }
    }

    /// The most in flight from the clients to the server at once since the
    /// start (or the last [`reset_max`](Self::reset_max)), each count on its
    /// own.
    pub fn max_in_flight(&self) -> InFlight {
        let [chunks, bytes, commands] =
            self.shared.max.each_ref().map(|n| n.load(Ordering::SeqCst));
        InFlight {
            chunks,
            bytes,
            commands,
        }
    }

    /// Starts the maxima again from what is in flight now.
    pub fn reset_max(&self) {
        for (max, now) in self.shared.max.iter().zip(&self.shared.now) {
            max.store(now.load(Ordering::SeqCst), Ordering::SeqCst);
        }
    }

    /// Holds every client-to-server chunk (still read and counted, not
    /// written) until [`release`](Self::release).
    pub fn hold(&self) {
        *self.shared.held.lock().unwrap() = true;
    }

    /// Forwards what was held (each chunk when its time comes: at once, if
    /// it waited longer than its delay).
    pub fn release(&self) {
        *self.shared.held.lock().unwrap() = false;
        self.shared.released.notify_all();
    }
}

impl Drop for Latency {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.release();
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
        // No connection is added once the accept loop has ended.
        for socket in self.shared.sockets.lock().unwrap().drain(..) {
            let _ = socket.shutdown(Shutdown::Both);
        }
        let threads = std::mem::take(&mut *self.shared.threads.lock().unwrap());
        for thread in threads {
            let _ = thread.join();
        }
    }
}

/// Accepts until the stop, each connection proxied to `target`.
fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>, target: u16) {
    while !shared.stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((client, _)) => proxy(shared, client, target),
            Err(error) if error.kind() == ErrorKind::WouldBlock => std::thread::sleep(POLL),
            Err(_) => std::thread::sleep(POLL),
        }
    }
}

/// One connection: the server's, and a delayed pipe each way.
fn proxy(shared: &Arc<Shared>, client: TcpStream, target: u16) {
    let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
        return; // `client` is closed: the server is not there
    };
    let clones = (|| {
        client.set_nonblocking(false)?;
        client.set_nodelay(true)?;
        server.set_nodelay(true)?;
        Ok::<_, std::io::Error>([
            client.try_clone()?,
            server.try_clone()?,
            client.try_clone()?,
            server.try_clone()?,
        ])
    })();
    let Ok([client_write, server_read, client_kept, server_kept]) = clones else {
        return;
    };
    shared
        .sockets
        .lock()
        .unwrap()
        .extend([client_kept, server_kept]);
    pipe(shared, client, server, true);
    pipe(shared, server_read, client_write, false);
}

/// A chunk on its way, counted in flight (`upstream`) until dropped.
struct Chunk {
    due: Instant,
    bytes: Vec<u8>,
    commands: u64,
    counted: Option<Arc<Shared>>,
}

impl Drop for Chunk {
    fn drop(&mut self) {
        if let Some(shared) = &self.counted {
            for (now, n) in shared.now.iter().zip(self.counts()) {
                now.fetch_sub(n, Ordering::SeqCst);
            }
        }
    }
}

impl Chunk {
    fn counts(&self) -> [u64; 3] {
        [1, self.bytes.len() as u64, self.commands]
    }
}

/// `from` to `to`, each chunk delayed: a reader and a writer thread.
/// `upstream` (client to server): counted, parsed as commands, and held
/// while the proxy holds.
fn pipe(shared: &Arc<Shared>, from: TcpStream, to: TcpStream, upstream: bool) {
    let (chunks, queued) = sync_channel::<Chunk>(QUEUED);
    let reading = shared.clone();
    let writing = shared.clone();
    let name = if upstream { "to-server" } else { "to-client" };
    let mut threads = shared.threads.lock().unwrap();
    threads.extend(
        std::thread::Builder::new()
            .name(format!("latency-read-{name}"))
            .spawn(move || read_loop(&reading, from, &chunks, upstream)),
    );
    threads.extend(
        std::thread::Builder::new()
            .name(format!("latency-write-{name}"))
            .spawn(move || write_loop(&writing, to, &queued, upstream)),
    );
}

/// Reads until the end of `from` (or its shutdown at the stop), each chunk
/// stamped with when it is due.
fn read_loop(
    shared: &Arc<Shared>,
    mut from: TcpStream,
    chunks: &SyncSender<Chunk>,
    upstream: bool,
) {
    let mut buffer = vec![0; CHUNK];
    let mut commands = Commands::default();
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let due = Instant::now() + shared.half;
        let chunk = Chunk {
            due,
            bytes: buffer[..n].to_vec(),
            commands: if upstream {
                commands.feed(&buffer[..n])
            } else {
                0
            },
            counted: upstream.then(|| shared.clone()),
        };
        if upstream {
            for ((now, max), n) in shared.now.iter().zip(&shared.max).zip(chunk.counts()) {
                let now = now.fetch_add(n, Ordering::SeqCst) + n;
                max.fetch_max(now, Ordering::SeqCst);
            }
        }
        if chunks.send(chunk).is_err() {
            break; // the writer ended
        }
    }
    // Dropping `chunks` ends the writer once it wrote what was read.
}

/// Writes each chunk when it is due, until the reader ends (then passes
/// the end on) or a write fails (then ends the connection both ways).
fn write_loop(shared: &Shared, mut to: TcpStream, queued: &Receiver<Chunk>, upstream: bool) {
    for chunk in queued {
        if upstream {
            shared.wait_released();
        }
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let now = Instant::now();
        if chunk.due > now {
            std::thread::sleep(chunk.due - now);
        }
        if to.write_all(&chunk.bytes).is_err() {
            let _ = to.shutdown(Shutdown::Both);
            return;
        }
    }
    let _ = to.shutdown(Shutdown::Write);
}

impl Shared {
    /// Waits while the proxy holds (ending at the stop, which releases).
    fn wait_released(&self) {
        let mut held = self.held.lock().unwrap();
        while *held && !self.stop.load(Ordering::SeqCst) {
            held = self
                .released
                .wait_timeout(held, Duration::from_millis(100))
                .unwrap()
                .0;
        }
    }
}

/// Counts the complete commands in a client's side of RESP: arrays of
/// bulk strings (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`), or inline commands (a
/// line). Past anything else it stops counting.
#[derive(Default)]
struct Commands {
    state: State,
    /// The line read so far (its first [`LINE`] bytes).
    line: Vec<u8>,
}

/// The longest header line it reads (`*` or `$` and a number).
const LINE: usize = 32;

#[derive(Default, Clone, Copy)]
enum State {
    /// At a command's start.
    #[default]
    Command,
    /// At a bulk string's `$len` line, `left` of them to go (this one too).
    Header { left: u64 },
    /// Inside a bulk string: `bytes` to go (with its `\r\n`), then `left`
    /// more bulk strings.
    Bulk { bytes: u64, left: u64 },
    /// Lost: not RESP as a client sends it.
    Lost,
}

impl Commands {
    /// Reads `bytes`: the commands they complete.
    fn feed(&mut self, mut bytes: &[u8]) -> u64 {
        let mut complete = 0;
        while !bytes.is_empty() {
            match self.state {
                State::Lost => return complete,
                State::Bulk { bytes: n, left } => {
                    let take = usize::try_from(n).unwrap_or(usize::MAX).min(bytes.len());
                    bytes = &bytes[take..];
                    let n = n - take as u64;
                    self.state = match (n, left) {
                        (0, 0) => {
                            complete += 1;
                            State::Command
                        }
                        (0, left) => State::Header { left },
                        (bytes, left) => State::Bulk { bytes, left },
                    };
                }
                State::Command | State::Header { .. } => {
                    let end = bytes.iter().position(|b| *b == b'\n');
                    let (line, rest) = bytes.split_at(end.map_or(bytes.len(), |at| at + 1));
                    bytes = rest;
                    // Longer lines are cut (no header is that long: it is
                    // then lost; an inline command is still one).
                    let room = LINE - self.line.len();
                    self.line.extend_from_slice(&line[..line.len().min(room)]);
                    if end.is_none() {
                        continue;
                    }
                    let text = std::mem::take(&mut self.line);
                    let number = || -> Option<u64> {
                        std::str::from_utf8(text.get(1..)?)
                            .ok()?
                            .trim_end()
                            .parse()
                            .ok()
                    };
                    self.state = match (self.state, text.first()) {
                        (State::Command, Some(b'*')) => match number() {
                            Some(0) => {
                                complete += 1;
                                State::Command
                            }
                            Some(left) => State::Header { left },
                            None => State::Lost,
                        },
                        (State::Command, _) => {
                            // An inline command (a blank line is none).
                            if text.iter().any(|b| !b.is_ascii_whitespace()) {
                                complete += 1;
                            }
                            State::Command
                        }
                        (State::Header { left }, Some(b'$')) => match number() {
                            Some(len) => State::Bulk {
                                bytes: len + 2,
                                left: left - 1,
                            },
                            None => State::Lost,
                        },
                        _ => State::Lost,
                    };
                }
            }
        }
        complete
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_counted_across_any_split() {
        let stream = b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$12\r\nhello\r\nworld\r\n\
                       PING\r\n\r\n*1\r\n$4\r\nPING\r\n*0\r\n";
        let mut whole = Commands::default();
        assert_eq!(whole.feed(stream), 4);
        for size in 1..stream.len() {
            let mut split = Commands::default();
            let counted: u64 = stream.chunks(size).map(|c| split.feed(c)).sum();
            assert_eq!(counted, 4, "in chunks of {size}");
        }
        let mut lost = Commands::default();
        assert_eq!(lost.feed(b"*1\r\n+no\r\n*1\r\n$4\r\nPING\r\n"), 0);
    }

    /// An echo server behind the proxy: what is held is counted in flight
    /// and comes back whole and in order once released, on each of two
    /// connections. (The round trip is printed, never asserted.)
    #[test]
    fn held_commands_are_counted_then_forwarded_in_order() {
        let echo = TcpListener::bind("127.0.0.1:0").unwrap();
        let target = echo.local_addr().unwrap().port();
        let server = std::thread::spawn(move || {
            let echoes: Vec<_> = (0..2)
                .map(|_| {
                    let (mut stream, _) = echo.accept().unwrap();
                    std::thread::spawn(move || {
                        let mut reading = stream.try_clone().unwrap();
                        let _ = std::io::copy(&mut reading, &mut stream);
                    })
                })
                .collect();
            for echo in echoes {
                echo.join().unwrap();
            }
        });
        let proxy = Latency::start(target, Duration::from_millis(5));
        let connect = || {
            let stream = TcpStream::connect(("127.0.0.1", proxy.port())).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            stream
        };
        let (mut one, mut two) = (connect(), connect());
        let command = |n: usize| format!("*2\r\n$4\r\nECHO\r\n$2\r\n{n:02}\r\n");
        proxy.hold();
        let mut sent = [String::new(), String::new()];
        for n in 0..10 {
            let (stream, sent) = if n % 2 == 0 {
                (&mut one, &mut sent[0])
            } else {
                (&mut two, &mut sent[1])
            };
            stream.write_all(command(n).as_bytes()).unwrap();
            sent.push_str(&command(n));
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while proxy.in_flight().commands < 10 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(proxy.in_flight().commands, 10);
        proxy.release();
        for (stream, sent) in [(&mut one, &sent[0]), (&mut two, &sent[1])] {
            let mut back = vec![0; sent.len()];
            stream.read_exact(&mut back).unwrap();
            assert_eq!(String::from_utf8(back).unwrap(), *sent);
        }
        assert_eq!(proxy.in_flight(), InFlight::default());
        assert_eq!(proxy.max_in_flight().commands, 10);
        let started = Instant::now();
        for _ in 0..20 {
            one.write_all(command(0).as_bytes()).unwrap();
            one.read_exact(&mut vec![0; command(0).len()]).unwrap();
        }
        eprintln!(
            "a round trip through the proxy at 5 ms: {:?}",
            started.elapsed() / 20
        );
        drop((one, two));
        drop(proxy);
        server.join().unwrap();
    }
}
