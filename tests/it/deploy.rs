//! Feature `redis`: a hosted MCP server as it is deployed. Three processes
//! of examples/replica.rs on one `redis-server`, behind `haproxy` with
//! round-robin balancing and no stickiness (Debian's packages, from
//! `.ci/services-deps`; every process on loopback, started here and
//! stopped when the test ends), driven by the official TypeScript client
//! over Streamable HTTP at MCP 2026-07-28 (tests/interop/mcp_http_client.mjs).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::free_port;
use crate::common::latency::Latency;
use crate::common::redis::{RedisServer, start};
use crate::mcp_ts::{interop_dir, node};

/// A child process killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        // Its whole process group: `faketime` runs the replica as a child
        // of its own, which killing `faketime` alone would leave running.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until something accepts connections on `port` (bounded).
fn listening(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "nothing listens on {port}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

const STATE_KEY: &str = "1111111111111111111111111111111111111111111111111111111111111111";
const SEALING_KEY: &str = "2222222222222222222222222222222222222222222222222222222222222222";
const CALL_KEY: &str = "3333333333333333333333333333333333333333333333333333333333333333";
const USERS: &str = "token-alice:alice,token-bob:bob";

/// The deployment: Redis, the replicas (by port), haproxy in front.
pub(crate) struct Deployment {
    pub(crate) redis: RedisServer,
    replicas: Vec<(u16, Running)>,
    /// Between the replicas and Redis, when `Setup::redis_delay` is not
    /// zero.
    pub(crate) latency: Option<Latency>,
    _balancer: Running,
    /// The balancer's port.
    pub(crate) port: u16,
    dir: PathBuf,
    node: PathBuf,
}

impl Drop for Deployment {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn haproxy_installed() -> Option<()> {
    installed("haproxy", "-v")
}

/// `Some` if `program` runs (`program version_flag`), else `None` (the test
/// returns) unless the services are required.
fn installed(program: &str, version_flag: &str) -> Option<()> {
    let found = Command::new(program)
        .arg(version_flag)
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        Some(())
    } else {
        crate::common::not_installed(
            "ELICIT_REDIS_REQUIRED",
            &format!("`{program}` is not installed: run .ci/services-deps"),
        )
    }
}

/// Three replicas behind haproxy, for the TypeScript client.
fn deploy() -> Option<Deployment> {
    deploy_clocks(Vec::new())
}

/// [`deploy`], the replicas' clocks off by `clock_offsets` seconds.
fn deploy_clocks(clock_offsets: Vec<i64>) -> Option<Deployment> {
    let node = node()?.to_owned();
    deploy_with(&Setup {
        replicas: 3,
        users: USERS.to_owned(),
        keep_alive: false,
        clock_offsets,
        redis_delay: Duration::ZERO,
    })
    .map(|mut deployment| {
        deployment.node = node;
        deployment
    })
}

/// How a deployment is set up.
pub(crate) struct Setup {
    /// How many replicas behind the balancer.
    pub(crate) replicas: usize,
    /// `ELICIT_USERS`: `token:user,..`.
    pub(crate) users: String,
    /// Whether the balancer keeps its connections to the replicas open
    /// (haproxy's default; the fault tests close them after each request,
    /// so that a killed replica is noticed at the next one).
    pub(crate) keep_alive: bool,
    /// How far each replica's wall clock is off, in seconds (`faketime`;
    /// its monotonic clock is left alone). Empty: every clock true.
    pub(crate) clock_offsets: Vec<i64>,
    /// How far Redis is from the replicas: the round trip a latency proxy
    /// (`common::latency`) adds between every replica and Redis, half each
    /// way. Zero: no proxy, the replicas connect to Redis directly. (The
    /// test's own commands, `Deployment::redis`, always go directly.)
    pub(crate) redis_delay: Duration,
}

/// Where a replica's stderr goes: nowhere, or, with
/// `ELICIT_REPLICA_LOG=<dir>`, the file `<dir>/replica-<port>.log`. With
/// `RUST_LOG` too (the replicas inherit it), that is their log: what an
/// operator sees of each fault these tests inject (the redis guide quotes
/// it).
fn replica_log(port: u16) -> Stdio {
    let Some(dir) = std::env::var_os("ELICIT_REPLICA_LOG") else {
        return Stdio::null();
    };
    std::fs::create_dir_all(&dir).unwrap();
    let file = std::fs::File::create(PathBuf::from(dir).join(format!("replica-{port}.log")));
    Stdio::from(file.expect("the replica's log file"))
}

/// Redis, `setup.replicas` replicas and haproxy in front, or `None` (the
/// test returns) where the services are not installed and not required.
pub(crate) fn deploy_with(setup: &Setup) -> Option<Deployment> {
    haproxy_installed()?;
    if !setup.clock_offsets.is_empty() {
        installed("faketime", "--version")?;
    }
    let redis = start()?;
    let latency =
        (!setup.redis_delay.is_zero()).then(|| Latency::start(redis.port, setup.redis_delay));
    let redis_url = latency.as_ref().map_or_else(
        || redis.url(),
        |l| format!("redis://127.0.0.1:{}/", l.port()),
    );
    let binary =
        crate::common::examples::built(&["--workspace", "--all-features", "--example", "replica"])
            .join("replica");
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}");
    let ports: Vec<u16> = (0..setup.replicas).map(|_| free_port()).collect();
    let replicas: Vec<(u16, Running)> = ports
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut command = match setup.clock_offsets.get(i).filter(|o| **o != 0) {
                Some(offset) => {
                    let mut faketime = Command::new("faketime");
                    faketime
                        .args(["-f", &format!("{offset:+}")])
                        .arg(&binary)
                        .env("FAKETIME_DONT_FAKE_MONOTONIC", "1");
                    faketime
                }
                None => Command::new(&binary),
            };
            // A process group of its own, killed whole when dropped.
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
            (
                *p,
                Running(
                    command
                        .args(["--port", &p.to_string(), "--redis", &redis_url])
                        .args(["--public", &public])
                        .env("ELICIT_STATE_KEY", STATE_KEY)
                        .env("ELICIT_SEALING_KEY", SEALING_KEY)
                        .env("ELICIT_CALL_KEY", CALL_KEY)
                        .env("ELICIT_USERS", &setup.users)
                        .stdout(Stdio::null())
                        .stderr(replica_log(*p))
                        .spawn()
                        .expect("a replica starts"),
                ),
            )
        })
        .collect();
    for p in &ports {
        listening(*p);
    }
    let dir = std::env::temp_dir().join(format!("elicit-deploy-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let servers: String = ports
        .iter()
        .enumerate()
        .map(|(i, p)| format!("    server r{i} 127.0.0.1:{p}\n"))
        .collect();
    let close = if setup.keep_alive {
        ""
    } else {
        "    option http-server-close\n"
    };
    // Health checks that a loaded machine cannot fail by accident: a
    // replica is marked down after three failed checks (1.5 s), never one
    // slow connect, so round robin keeps its order (the crossing tests
    // count on it); a killed replica's requests are redispatched meanwhile.
    let config = format!(
        "global\n    maxconn 256\n\
         defaults\n    mode http\n    timeout connect 5s\n    timeout client 60s\n    timeout server 60s\n\
         frontend front\n    bind 127.0.0.1:{port}\n    default_backend replicas\n\
         backend replicas\n    balance roundrobin\n{close}\
             option redispatch\n    retries 3\n    default-server check inter 500ms fall 3 rise 1\n{servers}"
    );
    let config_path = dir.join("haproxy.cfg");
    std::fs::write(&config_path, config).unwrap();
    let balancer = Running(
        Command::new("haproxy")
            .arg("-db")
            .arg("-f")
            .arg(&config_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("haproxy starts"),
    );
    listening(port);
    Some(Deployment {
        redis,
        replicas,
        latency,
        _balancer: balancer,
        port,
        dir,
        node: PathBuf::new(),
    })
}

/// What a test does once the client has the URL request: with its message
/// and its URL.
type OnAsked<'a> = dyn FnMut(&mut Deployment, &str, &str) + 'a;

/// How the client goes on once asked.
enum Then<'a> {
    /// The user opens and submits the page at once.
    Submits,
    /// `on_asked` runs, then the user opens and submits the page.
    Pauses(&'a mut OnAsked<'a>),
    /// `on_asked` opens and submits the page (the user's browser); the
    /// client only accepts.
    Browser(&'a mut OnAsked<'a>),
    /// The client speaks MCP 2025-11-25: the call fails with `-32042`, the
    /// user opens and submits the page it lists, the client retries.
    Legacy,
}

impl Deployment {
    /// Alice calls `connect` through the balancer with the TypeScript
    /// client, going on as `then` says once asked. The client's report.
    fn connect(&mut self, then: Then<'_>) -> serde_json::Value {
        use std::io::{BufRead, BufReader, Write};

        let mut client = Command::new(&self.node)
            .current_dir(interop_dir())
            .arg("mcp_http_client.mjs")
            .arg(format!("http://127.0.0.1:{}/mcp", self.port))
            .args(["token-alice", "tok-0123456789abc", "token-bob"])
            .args(match then {
                Then::Submits => None,
                Then::Pauses(_) => Some("pause"),
                Then::Browser(_) => Some("browser"),
                Then::Legacy => Some("legacy"),
            })
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs");
        let mut lines = BufReader::new(client.stdout.take().unwrap()).lines();
        if let Then::Pauses(on_asked) | Then::Browser(on_asked) = then {
            let line = lines.next().expect("the client says it was asked").unwrap();
            let asked: serde_json::Value = serde_json::from_str(&line).expect("{\"asked\"}");
            on_asked(
                self,
                asked["asked"].as_str().unwrap_or_default(),
                asked["url"].as_str().unwrap_or_default(),
            );
            let mut stdin = client.stdin.take().unwrap();
            stdin.write_all(b"go\n").unwrap();
        }
        let last = lines.map(Result::unwrap).last().expect("the report");
        assert!(client.wait().unwrap().success());
        let report: serde_json::Value = serde_json::from_str(&last).expect("one JSON line");
        eprintln!("{report}");
        assert_eq!(report["error"], serde_json::Value::Null, "{report}");
        report
    }
}

/// The tool's text of a call that connected with Alice's token.
fn connected(report: &serde_json::Value) -> &str {
    let text = report["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("connected with a token of 17 characters"),
        "{report}"
    );
    text
}

/// `replica :PORT` in a message or a text, as a port.
fn replica_in(text: &str, after: &str) -> Option<u16> {
    let rest = text.split(after).nth(1)?.strip_prefix("replica :")?;
    rest.trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok()
}

/// Alice calls `connect` through the balancer: the first round (on one
/// replica) opens her page; Bob is refused it and she opens and submits it
/// through the balancer (other replicas); the retried call (another
/// replica) reads the answer.
#[test]
fn a_secret_page_flow_crosses_three_replicas_behind_haproxy() {
    let Some(mut deployment) = deploy() else {
        return;
    };
    let report = deployment.connect(Then::Submits);
    // Bob refused the page, Alice shown it, her post taken.
    assert_eq!(
        report["statuses"],
        serde_json::json!([403, 200, 200]),
        "{report}"
    );
    let text = connected(&report);
    // Round robin, one request at a time: round 1, Bob's visit, Alice's
    // visit and post, round 2. So round 2 is on another replica than the
    // one that opened the page.
    let asked = report["requests"][0]["message"]
        .as_str()
        .unwrap_or_default();
    let opened_by = replica_in(asked, "asked by ").expect("the replica that asked");
    let answered_by = replica_in(text, "answered by ").expect("the replica that answered");
    assert_ne!(opened_by, answered_by, "{report}");
}

/// kill -9 of the replica that opened the page, once the client has the
/// URL request: the page lives in Redis, so Alice still opens and submits
/// it through the balancer, and the next round, on a live replica, reads
/// it.
#[test]
fn the_replica_that_opened_the_page_is_killed_and_the_flow_completes() {
    let Some(mut deployment) = deploy() else {
        return;
    };
    let mut killed = None;
    let report = deployment.connect(Then::Pauses(&mut |deployment, asked, _| {
        let port = replica_in(asked, "asked by ").expect("the replica that asked");
        let (_, running) = deployment
            .replicas
            .iter_mut()
            .find(|(p, _)| *p == port)
            .expect("one of ours");
        running.0.kill().unwrap(); // SIGKILL
        running.0.wait().unwrap();
        killed = Some(port);
    }));
    let text = connected(&report);
    assert_eq!(
        report["statuses"],
        serde_json::json!([403, 200, 200]),
        "{report}"
    );
    let answered_by = replica_in(text, "answered by ").expect("the replica that answered");
    assert_ne!(Some(answered_by), killed, "{report}");
}

/// Redis restarts (empty) once the client has the URL request: the page is
/// gone, so Alice cannot open it, and the call ends cleanly as not
/// connected (no hang, no error result); the next call, with nothing
/// restarted but Redis, connects.
#[test]
fn a_redis_restart_mid_flow_fails_cleanly_and_the_next_call_works() {
    let Some(mut deployment) = deploy() else {
        return;
    };
    let report = deployment.connect(Then::Pauses(&mut |deployment, _, _| {
        deployment.redis.restart();
    }));
    let text = report["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("not connected: Cancelled"), "{report}");
    assert_eq!(report["isError"], false, "{report}");
    let statuses = report["statuses"].as_array().unwrap();
    assert!(
        statuses.iter().all(|s| s != 200),
        "the page is gone: {report}"
    );
    let again = deployment.connect(Then::Submits);
    connected(&again);
}

/// The user's own browser (headless Chromium, signed in to the server with
/// its `session` cookie) opens the page through the balancer, fills in the
/// token and submits it; the client accepts; the next round, on whichever
/// replica, reads the answer.
#[test]
fn a_browser_submits_the_page_through_the_balancer() {
    let Some(browser) = crate::browser::Browser::start() else {
        return;
    };
    let Some(mut deployment) = deploy() else {
        return;
    };
    let base = format!("http://127.0.0.1:{}", deployment.port);
    let report = deployment.connect(Then::Browser(&mut |_, _, url| {
        assert!(url.starts_with(&format!("{base}/elicit/")), "{url}");
        // Signed in to the server (its session cookie), through the balancer.
        browser.goto(&format!("{base}/signin?token=token-alice"));
        assert!(browser.page_text().contains("signed in"));
        browser.goto(url);
        assert!(
            browser.page_text().contains("Paste your deploy token"),
            "{}",
            browser.page_text()
        );
        browser.fill("token", "tok-0123456789abc");
        browser.submit();
        assert!(
            browser.page_text().contains("return to your client"),
            "{}",
            browser.page_text()
        );
    }));
    connected(&report);
}

/// MCP 2025-11-25, where this server has no session to send a request on:
/// the call fails with `-32042` listing Alice's page; she opens and submits
/// it through the balancer (Bob refused); the retried call, on any replica,
/// reads it.
#[test]
fn a_2025_11_25_client_completes_the_page_of_url_elicitation_required_and_retries() {
    let Some(mut deployment) = deploy() else {
        return;
    };
    let report = deployment.connect(Then::Legacy);
    let required = report["required"]
        .as_array()
        .expect("-32042's elicitations");
    assert_eq!(required.len(), 1, "{report}");
    assert_eq!(required[0]["mode"], "url", "{report}");
    let url = required[0]["url"].as_str().unwrap_or_default();
    let id = required[0]["elicitationId"].as_str().unwrap_or_default();
    assert!(url.ends_with(&format!("/elicit/{id}")), "{report}");
    assert_eq!(
        report["statuses"],
        serde_json::json!([403, 200, 200]),
        "{report}"
    );
    connected(&report);
    // The page was read once: the same call again asks a new page.
    let again = deployment.connect(Then::Legacy);
    let new_id = again["required"][0]["elicitationId"]
        .as_str()
        .unwrap_or_default();
    assert!(!new_id.is_empty(), "{again}");
    assert_eq!(
        new_id, id,
        "the same call names the same page, asked afresh"
    );
    connected(&again);
}

/// Replicas whose clocks are a minute behind, true, and a minute ahead
/// (`faketime`): every flow still crosses them, and the page a skewed
/// replica opens expires when a true one's would, by Redis's clock (the
/// opener sends a duration). Calls go on until each skewed replica has
/// opened a page (round robin, one request between calls: a few calls).
#[test]
fn replicas_with_clocks_a_minute_apart_agree_on_every_flow_and_expiry() {
    let Some(mut deployment) = deploy_clocks(vec![-60, 0, 60]) else {
        return;
    };
    let skewed: Vec<u16> = [0, 2].map(|i| deployment.replicas[i].0).to_vec();
    let mut opened_by = std::collections::BTreeSet::new();
    for _ in 0..9 {
        let report = deployment.connect(Then::Pauses(&mut |deployment, asked, url| {
            let opener = replica_in(asked, "asked by ").expect("the replica that asked");
            let id = url.rsplit('/').next().unwrap_or_default();
            let client = redis::Client::open(deployment.redis.url()).unwrap();
            let mut connection = client.get_connection().unwrap();
            let expires: i64 = redis::cmd("HGET")
                .arg(format!("elicit:page:{{{id}}}"))
                .arg("expires")
                .query(&mut connection)
                .unwrap();
            let (seconds, micros): (i64, i64) = redis::cmd("TIME").query(&mut connection).unwrap();
            let redis_now = seconds * 1000 + micros / 1000;
            let left = expires - redis_now;
            // The default ten minutes from the page's opening, by Redis's
            // clock: within a few seconds, not a minute off.
            assert!(
                (590_000..=600_000).contains(&left),
                "the page of replica {opener} expires in {left} ms by Redis's clock"
            );
            opened_by.insert(opener);
        }));
        connected(&report);
        if skewed.iter().all(|p| opened_by.contains(p)) {
            return;
        }
        // A call is a fixed number of requests: one more moves the next
        // call's first round to the next replica.
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", deployment.port)).unwrap();
        std::io::Write::write_all(
            &mut stream,
            b"GET /signin HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        )
        .unwrap();
        let _ = std::io::Read::read_to_end(&mut stream, &mut Vec::new());
    }
    panic!("the skewed replicas {skewed:?} never opened a page: {opened_by:?}");
}

/// `tools/list` through the balancer, on each replica in turn (round
/// robin): both `#[tool]` functions, each with its description and input
/// schema, so a host that discovers tools offers them to its model.
#[test]
fn every_replica_lists_its_tools_with_their_input_schemas() {
    let Some(deployment) = deploy() else {
        return;
    };
    let addr: std::net::SocketAddr = ([127, 0, 0, 1], deployment.port).into();
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "elicit-tests", "version": "0"}
        }}
    });
    for _ in 0..3 {
        let reply = crate::common::http::Req::post("/mcp", body.to_string())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("authorization", "Bearer token-alice")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/list")
            .send(addr);
        assert_eq!(reply.status, 200, "{}", reply.body);
        let listed: serde_json::Value = serde_json::from_str(&reply.body).expect("JSON");
        let tools = listed["result"]["tools"].as_array().expect("tools");
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(names, ["connect", "deploy"], "{listed}");
        for tool in tools {
            assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
            assert!(
                tool["description"]
                    .as_str()
                    .is_some_and(|d| d.contains("asks the user")),
                "{tool}"
            );
        }
    }
}

/// `/ready`, the readiness check the redis guide tells a balancer to use:
/// `200` on every replica while Redis answers and writes can count; `503`
/// once Redis is gone, its answer short (the reason is in the replica's
/// log); ready again once Redis is back.
#[test]
fn the_readiness_check_says_whether_writes_can_count() {
    let Some(mut deployment) = deploy() else {
        return;
    };
    let addr: std::net::SocketAddr = ([127, 0, 0, 1], deployment.port).into();
    let ready = || crate::common::http::Req::get("/ready").send(addr);
    for _ in 0..3 {
        let reply = ready();
        assert_eq!((reply.status, reply.body.as_str()), (200, "ready\n"));
    }
    deployment.redis.stop();
    let reply = ready();
    assert_eq!(
        (reply.status, reply.body.as_str()),
        (503, "not ready\n"),
        "Redis is gone"
    );
    crate::audience::assert_short_and_stable("/ready", &reply.body);
    deployment.redis.restart();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while ready().status != 200 {
        assert!(std::time::Instant::now() < deadline, "not ready again");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}
