//! Feature `redis`: a hosted MCP server as it is deployed. Three processes
//! of examples/replica.rs on one `redis-server`, behind `haproxy` with
//! round-robin balancing and no stickiness (Debian's packages, from
//! `.ci/services-deps`; every process on loopback, started here and
//! stopped when the test ends), driven by the official TypeScript client
//! over Streamable HTTP at MCP 2026-07-28 (tests/interop/mcp_http_client.mjs).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::redis::{RedisServer, start};

/// A child process killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
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
const USERS: &str = "token-alice:alice,token-bob:bob";

/// The deployment: Redis, three replicas, haproxy in front.
struct Deployment {
    _redis: RedisServer,
    replicas: Vec<Running>,
    _balancer: Running,
    port: u16,
    dir: PathBuf,
}

impl Drop for Deployment {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn haproxy_installed() -> Option<()> {
    let found = Command::new("haproxy")
        .arg("-v")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if found {
        Some(())
    } else {
        crate::common::not_installed(
            "ELICIT_REDIS_REQUIRED",
            "`haproxy` is not installed: run .ci/services-deps",
        )
    }
}

fn node() -> Option<PathBuf> {
    let node = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("node"))
        .find(|path| path.is_file());
    let client = interop_dir().join("node_modules/@modelcontextprotocol/client/package.json");
    match node {
        Some(node) if client.is_file() => Some(node),
        _ => crate::common::not_installed(
            "ELICIT_NODE_REQUIRED",
            "`node` or tests/interop's client is missing: run .ci/npm-deps",
        ),
    }
}

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

fn deploy() -> Option<Deployment> {
    haproxy_installed()?;
    let redis = start()?;
    let binary =
        crate::common::examples::built(&["--workspace", "--all-features", "--example", "replica"])
            .join("replica");
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}");
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let replicas: Vec<Running> = ports
        .iter()
        .map(|p| {
            Running(
                Command::new(&binary)
                    .args(["--port", &p.to_string(), "--redis", &redis.url()])
                    .args(["--public", &public])
                    .env("ELICIT_STATE_KEY", STATE_KEY)
                    .env("ELICIT_SEALING_KEY", SEALING_KEY)
                    .env("ELICIT_USERS", USERS)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("a replica starts"),
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
    let config = format!(
        "global\n    maxconn 256\n\
         defaults\n    mode http\n    timeout connect 5s\n    timeout client 60s\n    timeout server 60s\n\
         frontend front\n    bind 127.0.0.1:{port}\n    default_backend replicas\n\
         backend replicas\n    balance roundrobin\n    option http-server-close\n{servers}"
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
        _redis: redis,
        replicas,
        _balancer: balancer,
        port,
        dir,
    })
}

/// Alice calls `connect` through the balancer: the first round (on one
/// replica) opens her page; she opens and submits it through the balancer
/// (other replicas); the retried call (another replica) reads the answer.
#[test]
fn a_secret_page_flow_crosses_three_replicas_behind_haproxy() {
    let Some(node) = node() else { return };
    let Some(deployment) = deploy() else { return };
    assert_eq!(deployment.replicas.len(), 3);
    let output = Command::new(node)
        .current_dir(interop_dir())
        .arg("mcp_http_client.mjs")
        .arg(format!("http://127.0.0.1:{}/mcp", deployment.port))
        .args(["token-alice", "tok-0123456789abc", "token-bob"])
        .stderr(Stdio::inherit())
        .output()
        .expect("node runs");
    assert!(output.status.success(), "{output:?}");
    let report: serde_json::Value =
        serde_json::from_slice(output.stdout.trim_ascii()).expect("one JSON line");
    eprintln!("{report}");
    assert_eq!(report["error"], serde_json::Value::Null, "{report}");
    // Bob refused the page, Alice shown it, her post taken.
    assert_eq!(
        report["statuses"],
        serde_json::json!([403, 200, 200]),
        "{report}"
    );
    let text = report["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("connected with a token of 17 characters"),
        "{report}"
    );
    // Round robin, one request at a time: round 1, Bob's visit, Alice's
    // visit and post, round 2. So round 2 is on another replica than the
    // one that opened the page.
    let asked = report["requests"][0]["message"]
        .as_str()
        .unwrap_or_default();
    let opened_by = asked.split("asked by ").nth(1).unwrap_or_default();
    let answered_by = text.split("answered by ").nth(1).unwrap_or_default();
    assert!(opened_by.starts_with("replica :"), "{report}");
    assert!(answered_by.starts_with("replica :"), "{report}");
    assert_ne!(
        opened_by.trim_end_matches(").").trim_end_matches(')'),
        answered_by.trim_end_matches(')'),
        "{report}"
    );
}
