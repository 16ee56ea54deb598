//! Load on the sensitive page server (`elicit_core::sensitive`, issue 22):
//! how fast the loopback server answers the two requests a waiting page
//! gets, and how much memory a waiting page holds.
//!
//! ```sh
//! cargo run --release --example page_load                       # the load, then the memory
//! cargo run --release --example page_load -- --pending 1000 --seconds 10 --clients 4
//! cargo run --release --example page_load -- --memory 10000     # the memory only
//! ```
//!
//! **The load.** Opens `--pending` pages (default 1,000) on one
//! `Pages::loopback().build()` and binds each to this "browser" with one `GET`
//! (keeping its cookie and CSRF token). Then `--clients` threads (default
//! 4), each on one keep-alive HTTP/1.1 connection, go round the pending
//! pages for `--seconds` (default 10) per phase:
//!
//! 1. **page view**: `GET` the page with its cookie; expects `200` and the
//!    form;
//! 2. **rejected submission**: `POST` the form (cookie, CSRF token,
//!    `Sec-Fetch-Site: same-origin`, the page's `Origin`) with an account
//!    name too short; expects `422`, the form shown again with its error,
//!    and the page still open (checked at the end: one more `GET` of each
//!    page must still be `200`).
//!
//! Each request's latency is the time from writing it to having read the
//! whole response (`Content-Length` bytes of body). Printed per phase:
//! requests, requests per second, p50, p90, p99 and max. Any other status
//! or an I/O error is counted, printed, and makes the exit status 1.
//! The clients run in this process: on a machine with few cores they take
//! CPU from the server's one thread, so the figures are for client and
//! server together.
//!
//! **The memory.** In a fresh process (the load's freed memory would hide
//! the pages' own), `--memory N` (default 10,000) opens one page (which
//! starts the server and the expiry thread), reads the resident set size
//! from `/proc/self/statm`, opens N pages more and keeps their
//! `PendingPage`s in a `Vec`, reads it again, then binds each page with one
//! `GET` and reads it a third time. Printed: bytes per pending page, unbound
//! and bound. Linux only.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, ExitCode};
use std::str::FromStr;
use std::thread;
use std::time::{Duration, Instant};

use elicit_core::Elicit;
use elicit_core::sensitive::{Pages, PendingPage, SecretString};

/// The page server's defaults (`elicit_core::reference::limits`): pages
/// open at once, and the loopback server's connections.
const DEFAULT_MAX_OPEN: usize = 4096;
const DEFAULT_MAX_CONNECTIONS: usize = 64;
use futures::executor::block_on;

/// The form each page asks for (the one of `tests/it/sensitive_server.rs`).
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
#[expect(dead_code, reason = "the pages are never answered here")]
struct Connect {
    /// The account name.
    #[elicit(length(min = 2, max = 20))]
    account: String,
    /// The API token.
    #[secret]
    #[elicit(length(min = 8, max = 64))]
    token: SecretString,
}

/// The agent's message at the top of each page.
const MESSAGE: &str = "Connect your Acme account";

/// A submission the page refuses: the account name is one character.
const REJECTED: &str = "account=a&token=sk-correct-horse-battery";

const USAGE: &str = "usage: page_load [--pending N] [--seconds S] [--clients C] [--memory N]
  --pending   pages open during the load (default 1000)
  --seconds   length of each phase of the load (default 10)
  --clients   client threads, one keep-alive connection each (default 4)
  --memory    measure only the memory held by N pending pages (the load
              measures it for 10000 after itself)";

type Result<T, E = Box<dyn Error>> = std::result::Result<T, E>;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("page_load: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs what the arguments ask; `false` if a request failed.
fn run() -> Result<bool> {
    let args = Args::parse()?;
    if let Some(n) = args.memory {
        return memory(n).map(|()| true);
    }
    let ok = load(&args)?;
    // The memory, in a fresh process.
    println!();
    let status = Command::new(std::env::current_exe()?)
        .args(["--memory", "10000"])
        .status()?;
    Ok(ok && status.success())
}

struct Args {
    pending: usize,
    seconds: u64,
    clients: usize,
    memory: Option<usize>,
}

impl Args {
    fn parse() -> Result<Self> {
        let mut args = Self {
            pending: 1000,
            seconds: 10,
            clients: 4,
            memory: None,
        };
        let mut given = std::env::args().skip(1);
        while let Some(flag) = given.next() {
            let mut value = || -> Result<String> {
                given
                    .next()
                    .ok_or_else(|| format!("{flag} needs a value\n{USAGE}").into())
            };
            match flag.as_str() {
                "--pending" => args.pending = number(&value()?)?,
                "--seconds" => args.seconds = number(&value()?)?,
                "--clients" => args.clients = number(&value()?)?,
                "--memory" => args.memory = Some(number(&value()?)?),
                "-h" | "--help" => {
                    println!("{USAGE}");
                    std::process::exit(0);
                }
                _ => return Err(format!("unknown argument `{flag}`\n{USAGE}").into()),
            }
        }
        if args.pending == 0 || args.clients == 0 || args.seconds == 0 {
            return Err(format!("--pending, --seconds and --clients must be > 0\n{USAGE}").into());
        }
        Ok(args)
    }
}

fn number<T: FromStr>(text: &str) -> Result<T> {
    text.parse()
        .map_err(|_| format!("`{text}` is not a number\n{USAGE}").into())
}

// ---------------------------------------------------------------------------
// The load
// ---------------------------------------------------------------------------

/// A pending page as its bound browser sees it: the two requests it sends,
/// written once.
struct Target {
    get: Vec<u8>,
    post: Vec<u8>,
}

#[derive(Clone, Copy)]
enum Phase {
    View,
    Reject,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Self::View => "GET page (200)",
            Self::Reject => "rejected POST (422)",
        }
    }

    fn expected(self) -> u16 {
        match self {
            Self::View => 200,
            Self::Reject => 422,
        }
    }

    fn request(self, target: &Target) -> &[u8] {
        match self {
            Self::View => &target.get,
            Self::Reject => &target.post,
        }
    }
}

/// What one client thread saw in one phase.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    /// Unexpected statuses, or `0` for an I/O error, and how many.
    errors: BTreeMap<u16, usize>,
    reconnects: usize,
}

/// Runs the load; `false` if a request failed.
fn load(args: &Args) -> Result<bool> {
    // The defaults, raised if the load needs more (the clients, and the
    // connection that binds the pages).
    let pages = Pages::loopback()
        .max_open(args.pending.max(DEFAULT_MAX_OPEN))
        .max_connections((args.clients + 1).max(DEFAULT_MAX_CONNECTIONS))
        // Every page must outlive both phases.
        .expiry(Duration::from_secs(600 + 4 * args.seconds))
        .build();
    // The memory store's futures are ready at once.
    let open: Vec<PendingPage<Connect>> = (0..args.pending)
        .map(|_| block_on(pages.open::<Connect>(MESSAGE)))
        .collect::<Result<_, _>>()?;
    let addr = pages
        .local_addr()
        .ok_or("the loopback server did not start")?;
    println!(
        "{} pending pages on {addr}, {} clients, {} s per phase",
        open.len(),
        args.clients,
        args.seconds
    );

    // Bind each page to this "browser", as its first visit does.
    let started = Instant::now();
    let mut client = Client::new(addr);
    let mut targets = Vec::with_capacity(open.len());
    let mut html = 0;
    for page in &open {
        let path = path_of(page, addr)?;
        let reply = client.send(&get(addr, &path, None))?;
        if reply.status != 200 {
            return Err(format!("binding {path}: status {}", reply.status).into());
        }
        html = reply.body.len();
        let cookie = reply.cookie.ok_or("the first visit set no cookie")?;
        let csrf = csrf(&reply.body).ok_or("the page carries no CSRF token")?;
        targets.push(Target {
            get: get(addr, &path, Some(&cookie)),
            post: post(addr, &path, &cookie, &format!("csrf={csrf}&{REJECTED}")),
        });
    }
    println!(
        "bound {} pages with one GET each in {:.2} s (a page is {html} bytes of HTML)",
        targets.len(),
        started.elapsed().as_secs_f64()
    );

    let mut ok = true;
    println!();
    println!(
        "{:<22} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "request", "requests", "req/s", "p50", "p90", "p99", "max"
    );
    for phase in [Phase::View, Phase::Reject] {
        ok &= run_phase(phase, addr, &targets, args)?;
    }

    // The rejected posts consumed no page: each is still shown.
    let mut still_open = 0;
    for target in &targets {
        let reply = client.send(&target.get)?;
        still_open += usize::from(reply.status == 200);
    }
    println!();
    println!(
        "after the rejected posts: {still_open} of {} pages still open",
        targets.len()
    );
    ok &= still_open == targets.len();
    drop(open);
    Ok(ok)
}

/// One phase: every client thread goes round the pages until the deadline.
fn run_phase(phase: Phase, addr: SocketAddr, targets: &[Target], args: &Args) -> Result<bool> {
    let length = Duration::from_secs(args.seconds);
    let started = Instant::now();
    let deadline = started + length;
    let tallies: Vec<Tally> = thread::scope(|scope| {
        let threads: Vec<_> = (0..args.clients)
            .map(|first| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    let mut client = Client::new(addr);
                    // Client `k` of `C` takes pages k, k + C, k + 2C, ...
                    // (modulo their number): together, round robin.
                    let mut at = first;
                    while Instant::now() < deadline {
                        let target = &targets[at % targets.len()];
                        at += args.clients;
                        let sent = Instant::now();
                        match client.send(phase.request(target)) {
                            Ok(reply) => {
                                tally.latencies.push(sent.elapsed());
                                if reply.status != phase.expected() {
                                    *tally.errors.entry(reply.status).or_default() += 1;
                                }
                            }
                            Err(_) => *tally.errors.entry(0).or_default() += 1,
                        }
                    }
                    tally.reconnects = client.connects.saturating_sub(1);
                    tally
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("a client thread panicked"))
            .collect()
    });
    let elapsed = started.elapsed();

    let mut latencies: Vec<Duration> = tallies
        .iter()
        .flat_map(|t| t.latencies.iter().copied())
        .collect();
    latencies.sort_unstable();
    let mut errors = BTreeMap::new();
    for (status, count) in tallies.iter().flat_map(|t| &t.errors) {
        *errors.entry(*status).or_insert(0) += count;
    }
    let reconnects: usize = tallies.iter().map(|t| t.reconnects).sum();
    let count = latencies.len();
    if count == 0 {
        println!("{:<22} no request completed", phase.name());
    } else {
        println!(
            "{:<22} {:>9} {:>9.0} {:>9} {:>9} {:>9} {:>9}",
            phase.name(),
            count,
            count as f64 / elapsed.as_secs_f64(),
            Micros(percentile(&latencies, 50)),
            Micros(percentile(&latencies, 90)),
            Micros(percentile(&latencies, 99)),
            Micros(latencies[count - 1]),
        );
    }
    if reconnects > 0 {
        println!("    {reconnects} reconnections (the server closed a connection)");
    }
    for (status, count) in &errors {
        match status {
            0 => println!("    ERROR: {count} requests failed (I/O)"),
            _ => println!("    ERROR: {count} responses with status {status}"),
        }
    }
    Ok(errors.is_empty() && count > 0)
}

/// The nearest-rank percentile `p` of sorted latencies.
fn percentile(sorted: &[Duration], p: usize) -> Duration {
    let rank = (sorted.len() * p).div_ceil(100).max(1);
    sorted[rank - 1]
}

/// A latency, printed in microseconds.
struct Micros(Duration);

impl fmt::Display for Micros {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.0} µs", self.0.as_secs_f64() * 1e6);
        f.pad(&text)
    }
}

// ---------------------------------------------------------------------------
// The memory
// ---------------------------------------------------------------------------

/// Prints the resident memory `n` pending pages hold, unbound and bound.
fn memory(n: usize) -> Result<()> {
    let pages = Pages::loopback().max_open(n + 1).build();
    // The first page starts the server and the expiry thread; its first
    // visit sets up the server's connection path.
    let first = block_on(pages.open::<Connect>(MESSAGE))?;
    let addr = pages
        .local_addr()
        .ok_or("the loopback server did not start")?;
    let mut client = Client::new(addr);
    client.send(&get(addr, &path_of(&first, addr)?, None))?;
    let mut open: Vec<PendingPage<Connect>> = Vec::with_capacity(n);

    let before = rss()?;
    for _ in 0..n {
        open.push(block_on(pages.open::<Connect>(MESSAGE))?);
    }
    let unbound = rss()?;
    for page in &open {
        let reply = client.send(&get(addr, &path_of(page, addr)?, None))?;
        if reply.status != 200 || reply.cookie.is_none() {
            return Err(format!("binding a page: status {}", reply.status).into());
        }
    }
    let bound = rss()?;

    let per_page = |after: u64| after.saturating_sub(before) as f64 / n as f64;
    println!("memory: {n} pending pages (resident set, /proc/self/statm)");
    println!(
        "    before {:.1} MiB, opened {:.1} MiB, bound {:.1} MiB",
        mib(before),
        mib(unbound),
        mib(bound)
    );
    println!(
        "    per pending page: {:.0} bytes unbound, {:.0} bytes bound \
         (PendingPage itself: {} bytes)",
        per_page(unbound),
        per_page(bound),
        std::mem::size_of::<PendingPage<Connect>>()
    );
    drop(open);
    drop(first);
    Ok(())
}

/// The resident set size in bytes.
fn rss() -> Result<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm")?;
    let resident: u64 = statm
        .split_whitespace()
        .nth(1)
        .ok_or("/proc/self/statm has no resident field")?
        .parse()?;
    Ok(resident * page_size())
}

/// The kernel's page size (`/proc/self/statm` counts pages), from
/// `/proc/self/smaps`; 4 KiB if it does not say.
fn page_size() -> u64 {
    std::fs::read_to_string("/proc/self/smaps")
        .ok()
        .and_then(|smaps| {
            smaps
                .lines()
                .find_map(|line| line.strip_prefix("KernelPageSize:"))
                .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(4096, |kb| kb * 1024)
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

// ---------------------------------------------------------------------------
// A minimal HTTP/1.1 client over one keep-alive connection
// ---------------------------------------------------------------------------

/// A page's path on the server (`/elicit/<id>`).
fn path_of(page: &PendingPage<Connect>, addr: SocketAddr) -> Result<String> {
    page.url()
        .strip_prefix(&format!("http://{addr}"))
        .map(str::to_owned)
        .ok_or_else(|| format!("unexpected page URL {}", page.url()).into())
}

/// A browser's `GET` of a page, with its binding cookie once it has one.
fn get(addr: SocketAddr, path: &str, cookie: Option<&str>) -> Vec<u8> {
    let mut head = format!("GET {path} HTTP/1.1\r\nhost: {addr}\r\naccept: text/html\r\n");
    if let Some(cookie) = cookie {
        head.push_str(&format!("cookie: {cookie}\r\n"));
    }
    head.push_str("\r\n");
    head.into_bytes()
}

/// A browser's `POST` of the form from the page itself.
fn post(addr: SocketAddr, path: &str, cookie: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\ncookie: {cookie}\r\n\
         sec-fetch-site: same-origin\r\norigin: http://{addr}\r\n\
         content-type: application/x-www-form-urlencoded\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The page's CSRF token, from its hidden field.
fn csrf(html: &str) -> Option<&str> {
    const FIELD: &str = r#"name="csrf" value=""#;
    let at = html.find(FIELD)? + FIELD.len();
    let end = html[at..].find('"')?;
    Some(&html[at..at + end])
}

/// A response, read whole.
struct Reply {
    status: u16,
    /// The `Set-Cookie` header's `name=value`.
    cookie: Option<String>,
    body: String,
}

/// One keep-alive connection, opened again if the server closed it.
struct Client {
    addr: SocketAddr,
    stream: Option<BufReader<TcpStream>>,
    /// How many times a connection was opened.
    connects: usize,
}

impl Client {
    fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            stream: None,
            connects: 0,
        }
    }

    /// Sends a request and reads its whole response. If a reused
    /// connection turns out closed, sends it once more on a new one.
    fn send(&mut self, request: &[u8]) -> io::Result<Reply> {
        let reused = self.stream.is_some();
        match self.exchange(request) {
            Err(_) if reused => {
                self.stream = None;
                self.exchange(request)
            }
            done => done,
        }
    }

    fn exchange(&mut self, request: &[u8]) -> io::Result<Reply> {
        let stream = match &mut self.stream {
            Some(stream) => stream,
            None => {
                let stream = TcpStream::connect(self.addr)?;
                stream.set_nodelay(true)?;
                stream.set_read_timeout(Some(Duration::from_secs(30)))?;
                self.connects += 1;
                self.stream.insert(BufReader::new(stream))
            }
        };
        stream.get_mut().write_all(request)?;
        let reply = read_reply(stream);
        if reply.as_ref().map_or(true, |(_, close)| *close) {
            self.stream = None;
        }
        reply.map(|(reply, _)| reply)
    }
}

/// Reads one response: its head, then `Content-Length` bytes of body. Also
/// whether the server will close the connection.
fn read_reply(stream: &mut BufReader<TcpStream>) -> io::Result<(Reply, bool)> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
    let mut line = String::new();
    if stream.read_line(&mut line)? == 0 {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("not an HTTP status line"))?;
    let mut length = None;
    let mut cookie = None;
    let mut close = false;
    loop {
        line.clear();
        if stream.read_line(&mut line)? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(bad("a header without a colon"));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(value.parse().map_err(|_| bad("a bad Content-Length"))?);
        } else if name.eq_ignore_ascii_case("set-cookie") {
            cookie = value.split(';').next().map(|c| c.trim().to_owned());
        } else if name.eq_ignore_ascii_case("connection") {
            close = value.eq_ignore_ascii_case("close");
        }
    }
    let length: usize = length.ok_or_else(|| bad("a response without Content-Length"))?;
    let mut body = vec![0; length];
    stream.read_exact(&mut body)?;
    let body = String::from_utf8(body).map_err(|_| bad("a body that is not UTF-8"))?;
    Ok((
        Reply {
            status,
            cookie,
            body,
        },
        close,
    ))
}
