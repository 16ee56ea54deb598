//! Two stores of a user's own, on one backend of its own, run through
//! elicit-core's flows: what a user writes to keep pages and OAuth flows
//! (one store for both) and used `requestState`s in a database. The backend here is a map behind a
//! lock, each step after an artificial delay (the database's round trip):
//! every step is one atomic read-modify-write, as a conditional `UPDATE`
//! would be. Waiting is a `Notify`, woken by every end (a database would
//! use `LISTEN`/`NOTIFY`, or a pub/sub beside it).
//!
//! It runs, in one process:
//! 1. an MCP 2026-07-28 tool call (rmcp's server and client, in memory)
//!    that asks for a token on a page of the server's own: two rounds, the
//!    page submitted over HTTP in between; the page lives in `OwnRecords`,
//!    the rounds' single use in `OwnUsedStates`. The tool's check refuses
//!    the first token (revoked): a new page, whose errors travel in the
//!    user's own store, shows it on the field, and the second token is
//!    taken;
//! 2. an OAuth flow, its start page and callback served by the page
//!    server, with a token endpoint of its own on loopback; the flow lives
//!    in `OwnRecords` too.
//!
//! Every check that fails exits non-zero with what it found.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use elicit_core::mcp::{Asked, RoundsConfig, StateId, UsedStates, UsedStatesError, ask};
use elicit_core::sensitive::oauth::Provider;
use elicit_core::sensitive::store::{Binding, End, Record, State, Store, StoreError};
use elicit_core::sensitive::{ExposeSecret, PageId, Pages, SecretOutcome, SecretString};
use elicit_core::{Elicit, FieldError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCapability, ErrorData,
    Implementation, InitializeRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    UrlElicitationCapability,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient};
use rmcp::{ClientHandler, RoleServer, ServerHandler, ServiceExt};
use tokio::sync::{Mutex, Notify};

/// The backend's round trip.
const DELAY: Duration = Duration::from_millis(3);

/// A map behind an artificial delay: the user's "database". Each step
/// locks it once (one atomic step), after the delay.
struct Slow<T> {
    map: Mutex<HashMap<PageId, T>>,
    /// Woken by every end.
    ended: Notify,
    /// How many steps were asked of it.
    steps: AtomicUsize,
}

impl<T> Default for Slow<T> {
    fn default() -> Self {
        Self {
            map: Mutex::new(HashMap::new()),
            ended: Notify::new(),
            steps: AtomicUsize::new(0),
        }
    }
}

impl<T> Slow<T> {
    /// Adds `row` under `id`, unless `max_open` rows are open (`is_open`)
    /// or `id` is taken: one atomic step.
    async fn insert_capped(
        &self,
        id: PageId,
        row: T,
        max_open: usize,
        is_open: impl Fn(&T) -> bool,
    ) -> Result<(), StoreError> {
        self.step(|map| {
            if map.values().filter(|row| is_open(row)).count() >= max_open {
                return Err(StoreError::Full { max: max_open });
            }
            if map.contains_key(&id) {
                return Err(StoreError::Taken(id));
            }
            map.insert(id, row);
            Ok(())
        })
        .await
    }

    /// Runs `step` on the map, after the delay, as one atomic step.
    async fn step<R>(&self, step: impl FnOnce(&mut HashMap<PageId, T>) -> R) -> R {
        self.steps.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(DELAY).await;
        step(&mut *self.map.lock().await)
    }

    /// Waits until `read` finds an end, re-reading after every end (and
    /// now and then, in case an end came between a read and the wait).
    async fn until<R>(
        &self,
        read: impl Fn(&mut HashMap<PageId, T>) -> Option<Option<R>>,
    ) -> Option<R> {
        loop {
            let notified = self.ended.notified();
            if let Some(found) = self.step(&read).await {
                return found;
            }
            let _ = tokio::time::timeout(Duration::from_millis(200), notified).await;
        }
    }
}

/// A page or an OAuth flow as the database keeps it: the record's bytes
/// (a column; a real database seals them: a flow's hold its client secret
/// and verifier), its state and expiry (columns a conditional `UPDATE`
/// reads), its binding's bytes and its end's bytes (sealed too).
struct RecordRow {
    record: Vec<u8>,
    state: State,
    expires_at: SystemTime,
    binding: Option<Vec<u8>>,
    end: Option<Vec<u8>>,
}

impl RecordRow {
    fn record(&self) -> Option<Record> {
        let mut record = Record::from_bytes(&self.record)?;
        record.state = self.state;
        record.binding = match &self.binding {
            Some(bytes) => Some(Binding::from_bytes(bytes)?),
            None => None,
        };
        Some(record)
    }

    /// Whether it is open past its expiry, by the database's clock.
    fn overdue(&self) -> bool {
        self.state == State::Open && SystemTime::now() >= self.expires_at
    }

    /// Ends it with `end`, if it waits (an expiry only if it is open).
    fn end(&mut self, end: &End) -> bool {
        let ends = match end {
            End::Expired => self.state == State::Open,
            _ => self.state.is_waiting(),
        };
        if ends {
            self.state = end.state();
            self.end = Some(end.to_bytes().to_vec());
        }
        ends
    }
}

/// Pages and OAuth flows in the user's database: one store for both.
#[derive(Clone, Default)]
struct OwnRecords(Arc<Slow<RecordRow>>);

impl Store for OwnRecords {
    async fn insert(&self, id: PageId, record: Record, max_open: usize) -> Result<(), StoreError> {
        let row = RecordRow {
            record: record.to_bytes().to_vec(),
            state: record.state,
            expires_at: record.expires_at,
            binding: None,
            end: None,
        };
        let open = |row: &RecordRow| row.state == State::Open;
        self.0.insert_capped(id, row, max_open, open).await
    }

    async fn get(&self, id: &PageId) -> Result<Option<Record>, StoreError> {
        Ok(self.0.step(|map| map.get(id)?.record()).await)
    }

    async fn bind(&self, id: &PageId, binding: Binding) -> Result<Option<Binding>, StoreError> {
        Ok(self
            .0
            .step(|map| {
                let row = map.get_mut(id)?;
                if row.state != State::Open {
                    return None;
                }
                let bytes = row.binding.get_or_insert_with(|| binding.to_bytes().to_vec());
                Binding::from_bytes(bytes)
            })
            .await)
    }

    async fn take(&self, id: &PageId) -> Result<Option<State>, StoreError> {
        let (was, ended) = self
            .0
            .step(|map| {
                let Some(row) = map.get_mut(id) else {
                    return (None, false);
                };
                if row.overdue() {
                    row.end(&End::Expired);
                    return (Some(State::Expired), true);
                }
                let was = row.state;
                if was == State::Open {
                    row.state = State::Taken;
                }
                (Some(was), false)
            })
            .await;
        if ended {
            self.0.ended.notify_waiters();
        }
        Ok(was)
    }

    async fn end(&self, id: &PageId, end: End) -> Result<bool, StoreError> {
        let ended = self
            .0
            .step(|map| {
                let Some(row) = map.get_mut(id) else {
                    return false;
                };
                if matches!(end, End::Answered(_)) && row.overdue() {
                    row.end(&End::Expired);
                    return false;
                }
                row.end(&end)
            })
            .await;
        self.0.ended.notify_waiters();
        Ok(ended)
    }

    async fn wait(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let bytes = self
            .0
            .until(|map| match map.get(id) {
                None => Some(None),
                Some(row) => row.end.clone().map(Some),
            })
            .await;
        Ok(bytes.and_then(|bytes| End::from_bytes(&bytes)))
    }

    async fn end_of(&self, id: &PageId) -> Result<Option<End>, StoreError> {
        let bytes = self
            .0
            .step(|map| map.get(id).and_then(|row| row.end.clone()))
            .await;
        Ok(bytes.and_then(|bytes| End::from_bytes(&bytes)))
    }

    async fn remove(&self, id: &PageId) -> Result<(), StoreError> {
        self.0.step(|map| map.remove(id)).await;
        Ok(())
    }
}

/// Used `requestState`s in the user's database: one conditional insert.
#[derive(Clone, Default)]
struct OwnUsedStates {
    used: Arc<Mutex<HashMap<String, SystemTime>>>,
    steps: Arc<AtomicUsize>,
}

impl UsedStates for OwnUsedStates {
    async fn first_use(
        &self,
        id: &StateId,
        expires_at: SystemTime,
    ) -> Result<bool, UsedStatesError> {
        self.steps.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(DELAY).await;
        let mut used = self.used.lock().await;
        let now = SystemTime::now();
        used.retain(|_, until| *until > now);
        Ok(used.insert(id.as_str().to_owned(), expires_at).is_none())
    }
}

/// The token the tool asks for, on the server's page.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
struct DeployToken {
    /// From the deploy service's settings.
    #[secret]
    #[elicit(length(min = 12))]
    token: SecretString,
}

const TOKEN: &str = "tok-0123456789";
/// A token the tool's check refuses: the user submits it first.
const REVOKED: &str = "tok-revoked-0000";

/// The server: one tool that asks for the token on a page, in rounds.
struct Server {
    pages: Pages,
    config: RoundsConfig,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let pages = &self.pages;
        let questions = |r: elicit_core::mcp::Rounds| async move {
            Some(
                match r
                    .secret::<DeployToken>("token", "Paste your deploy token.", pages)
                    .retry(1)
                    .check(async |t: &DeployToken| {
                        if t.token.expose_secret() == REVOKED {
                            let revoked = FieldError::rule("token", "is revoked: paste a new one");
                            return Ok(Err(revoked.into()));
                        }
                        Ok::<_, std::convert::Infallible>(Ok(()))
                    })
                    .await?
                {
                    Ok(SecretOutcome::Answered(t)) => {
                        format!("a token of {} characters", t.token.expose_secret().len())
                    }
                    Ok(other) => format!("{other:?}"),
                    Err(error) => format!("error: {error}"),
                },
            )
        };
        Ok(
            match ask(&context, &request, &self.config, questions).await? {
                Asked::Answered(text) => {
                    CallToolResult::success(vec![ContentBlock::text(text)]).into()
                }
                Asked::Respond(response) => response,
            },
        )
    }
}

/// The user: shown the page's URL, submits it over HTTP, then accepts.
#[derive(Clone, Default)]
struct User {
    asked: Arc<AtomicUsize>,
}

impl ClientHandler for User {
    fn get_info(&self) -> InitializeRequestParams {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation =
            Some(ElicitationCapability::default().with_url(UrlElicitationCapability::new()));
        InitializeRequestParams::new(capabilities, Implementation::new("own-stores-user", "0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let first = self.asked.fetch_add(1, Ordering::Relaxed) == 0;
        let ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
            return Err(ErrorData::internal_error("a page was expected", None));
        };
        let token = if first { REVOKED } else { TOKEN };
        let (status, shown) =
            tokio::task::spawn_blocking(move || submit_page(&url, &format!("token={token}")))
                .await
                .expect("the page was submitted");
        if !first {
            check(
                shown.contains("is revoked: paste a new one") && !shown.contains(REVOKED),
                "the second page shows the check's error on the field, and not the revoked token",
            );
        }
        check(
            status == 200,
            &format!("the page took the answer: status {status}"),
        );
        Ok(ElicitResult::new(ElicitationAction::Accept))
    }
}

fn check(ok: bool, what: &str) {
    if !ok {
        eprintln!("FAILED: {what}");
        std::process::exit(1);
    }
    println!("ok: {what}");
}

/// One HTTP/1.1 exchange with `addr`: the status, the headers (lower-case
/// names), the body.
fn http(addr: SocketAddr, request: &str) -> (u16, Vec<(String, String)>, String) {
    let mut stream = TcpStream::connect(addr).expect("the page server answers");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// `http://host:port/path` as the address and the path.
fn split(url: &str) -> (SocketAddr, String) {
    let rest = url.strip_prefix("http://").expect("a loopback http URL");
    let (authority, path) = rest.split_at(rest.find('/').expect("a path"));
    (
        authority.parse().expect("an IP address and a port"),
        path.to_owned(),
    )
}

/// A first visit to a page of the server's: where it is, and its reply.
struct Visit {
    addr: SocketAddr,
    path: String,
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Visit {
    /// `GET url`.
    fn to(url: &str) -> Self {
        let (addr, path) = split(url);
        let (status, headers, body) = http(
            addr,
            &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
        );
        Self {
            addr,
            path,
            status,
            headers,
            body,
        }
    }

    /// The cookie the reply sets, as `name=value` (empty if none).
    fn cookie(&self) -> String {
        header(&self.headers, "set-cookie")
            .and_then(|set| set.split(';').next())
            .unwrap_or_default()
            .to_owned()
    }
}

/// Views the page at `url` (its first visit binds it), then posts `fields`
/// with its CSRF token: the post's status, and the page the visit showed.
fn submit_page(url: &str, fields: &str) -> (u16, String) {
    let visit = Visit::to(url);
    if visit.status != 200 {
        return (visit.status, visit.body);
    }
    let (addr, path, body, cookie) = (visit.addr, &visit.path, &visit.body, visit.cookie());
    let at = body
        .find(r#"name="csrf" value=""#)
        .map(|at| at + 19)
        .unwrap_or(0);
    let csrf = body.get(at..at + 32).unwrap_or_default();
    let form = format!("csrf={csrf}&{fields}");
    let (status, _, _) = http(
        addr,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nOrigin: http://{addr}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
            form.len()
        ),
    );
    (status, visit.body.clone())
}

/// A token endpoint of its own on loopback: answers one request with a
/// bearer token, whatever it was sent.
async fn token_endpoint() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let Ok((mut stream, _)) = listener.accept().await else {
            return;
        };
        let mut request = Vec::new();
        let mut buffer = [0u8; 4096];
        // The headers and the body (small): read until the body is in.
        loop {
            let Ok(n) = stream.read(&mut buffer).await else {
                return;
            };
            if n == 0 {
                break;
            }
            request.extend_from_slice(&buffer[..n]);
            let text = String::from_utf8_lossy(&request);
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let length = head
                    .lines()
                    .find_map(|line| {
                        line.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                    })
                    .unwrap_or(0);
                if body.len() >= length {
                    break;
                }
            }
        }
        let body = r#"{"access_token":"at-own-stores","token_type":"Bearer","expires_in":3600}"#;
        let reply = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(reply.as_bytes()).await;
    });
    addr
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let (records, used) = (OwnRecords::default(), OwnUsedStates::default());
    let pages = Pages::loopback().store(records.clone()).build();
    let config = RoundsConfig::with_random_key()
        .expect("the OS random number generator")
        .used_states(used.clone());

    // 1. A secret page in MCP 2026-07-28 rounds.
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = Server {
        pages: pages.clone(),
        config,
    };
    let serving = tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("the server starts");
        let _ = running.waiting().await;
    });
    let user = User::default();
    let client = user
        .clone()
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client connects");
    let result = client
        .call_tool(CallToolRequestParams::new("deploy"))
        .await
        .expect("the call ends");
    let text = result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default();
    check(
        text == format!("a token of {} characters", TOKEN.len()),
        &format!("the tool read the page's answer through the user's page store: {text}"),
    );
    check(
        user.asked.load(Ordering::Relaxed) == 2,
        "two pages were asked: the refused token's, then the one that took",
    );
    let page_steps = records.0.steps.load(Ordering::Relaxed);
    check(
        page_steps >= 4,
        &format!("the page store took {page_steps} steps (insert, get, bind, end, reads)"),
    );
    let state_steps = used.steps.load(Ordering::Relaxed);
    check(
        state_steps == 2,
        &format!(
            "the later rounds' requestStates were recorded once each in the user's store ({state_steps})"
        ),
    );
    client.cancel().await.expect("the client stops");
    serving.await.expect("the server stops");

    // 2. An OAuth flow: its start page, the provider (here: its redirect,
    // by hand) and the callback, with a token endpoint of its own.
    let endpoint = token_endpoint().await;
    let provider = Provider::new(
        "http://127.0.0.1:9/authorize",
        &format!("http://{endpoint}/token"),
        "own-stores",
    )
    .expect("loopback endpoints");
    let flow = pages.open_oauth(&provider).await.expect("the flow opens");
    let start = flow.url().to_owned();
    let browser = tokio::task::spawn_blocking(move || {
        let visit = Visit::to(&start);
        if visit.status != 303 {
            return visit.status;
        }
        let (addr, cookie) = (visit.addr, visit.cookie());
        let location = header(&visit.headers, "location").unwrap_or_default();
        let query = location.split_once('?').map(|(_, q)| q).unwrap_or_default();
        let param = |name: &str| {
            query
                .split('&')
                .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
                .unwrap_or_default()
                .to_owned()
        };
        // The provider sends the browser back with a code and the state.
        let state = param("state");
        let (status, _, _) = http(
            addr,
            &format!(
                "GET /elicit/oauth/callback?code=the-code&state={state} HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
            ),
        );
        status
    });
    let status = browser.await.expect("the browser ran");
    check(
        status == 200,
        &format!("the callback exchanged the code: status {status}"),
    );
    let steps_before_flow = records.0.steps.load(Ordering::Relaxed);
    let outcome = flow.outcome().await.expect("the user's store answers");
    let token = outcome.authorized();
    check(
        token
            .as_ref()
            .is_some_and(|t| t.access_token().expose_secret() == "at-own-stores"),
        "the token reached the agent through the user's flow store",
    );
    let flow_steps = records.0.steps.load(Ordering::Relaxed) - steps_before_flow;
    check(
        flow_steps >= 1,
        &format!("the flow's end was read from the user's store ({flow_steps} steps)"),
    );
    check(
        records.0.steps.load(Ordering::Relaxed) - page_steps >= 6,
        "the flow went through the user's store (insert, get, bind, take, end, wait)",
    );
    println!(
        "ok: two stores of the user's own, a secret page, a 2026-07-28 round and an OAuth flow"
    );
}
