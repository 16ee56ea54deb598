//! A Redis Cluster of the test's own on loopback: three masters, each with
//! two replicas (the redis guide's topology), from Debian's `redis-server`
//! and `redis-cli` (installed by
//! `.ci/services-deps`), stopped when dropped. Without them the tests that
//! need it are skipped, unless `CI` or `ELICIT_REDIS_REQUIRED` is set, when
//! they fail.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a node may be unreachable before its replica takes over.
pub const NODE_TIMEOUT: Duration = Duration::from_millis(1000);

/// One node: its port and its process.
struct Node {
    port: u16,
    child: Option<Child>,
}

pub struct RedisCluster {
    nodes: Vec<Node>,
    dir: PathBuf,
    /// Replicas per master.
    replicas: usize,
}

/// Replicas per master: two, so that a promoted master still has one.
pub const REPLICAS: usize = 2;

/// A port that is free, with its cluster bus port (`+ 10000`) free too.
fn cluster_port() -> u16 {
    for _ in 0..200 {
        let port = super::free_port();
        if port < 55_000 && std::net::TcpListener::bind(("127.0.0.1", port + 10_000)).is_ok() {
            return port;
        }
    }
    panic!("no free port pair for a cluster node");
}

/// A fresh cluster whose every slot is served, or `None` (the test
/// returns) where the binaries are not installed and not required.
pub fn start_cluster() -> Option<RedisCluster> {
    let installed = ["redis-server", "redis-cli"].iter().all(|binary| {
        Command::new(binary)
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if !installed {
        return super::not_installed(
            "ELICIT_REDIS_REQUIRED",
            "`redis-server` or `redis-cli` is not installed: run .ci/services-deps",
        );
    }
    let first = cluster_port();
    let dir = std::env::temp_dir().join(format!("elicit-cluster-{}-{first}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cluster = RedisCluster {
        nodes: Vec::new(),
        dir,
        replicas: REPLICAS,
    };
    let mut ports = vec![first];
    while ports.len() < 3 * (1 + REPLICAS) {
        let port = cluster_port();
        if !ports.contains(&port) {
            ports.push(port);
        }
    }
    for port in ports {
        let child = cluster.spawn(port);
        cluster.nodes.push(Node {
            port,
            child: Some(child),
        });
    }
    for node in &cluster.nodes {
        wait_until(Duration::from_secs(10), "a cluster node to start", || {
            cluster.command(node.port, &["PING"]).as_deref() == Some("PONG")
        });
    }
    let addresses: Vec<String> = cluster
        .nodes
        .iter()
        .map(|node| format!("127.0.0.1:{}", node.port))
        .collect();
    let created = Command::new("redis-cli")
        .args(["--cluster", "create"])
        .args(&addresses)
        .args(["--cluster-replicas", &REPLICAS.to_string(), "--cluster-yes"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("redis-cli runs");
    assert!(created.success(), "redis-cli --cluster create");
    cluster.wait_until_ok();
    Some(cluster)
}

/// Waits (bounded) until `done`, failing with `what`.
fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl RedisCluster {
    fn spawn(&self, port: u16) -> Child {
        Command::new("redis-server")
            .args(["--port", &port.to_string()])
            .args(["--bind", "127.0.0.1", "--protected-mode", "yes"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .args(["--cluster-enabled", "yes"])
            // A master starts a replica's full sync at once: by default it
            // waits 5 s for more replicas to share the transfer, twice in a
            // failover test (the cluster's start, the failed node's return).
            .args(["--repl-diskless-sync-delay", "0"])
            // Each master keeps its own replicas: a killed node comes back
            // as a replica of the master of its slots, and every master has
            // two again (migration could leave one with one).
            .args(["--cluster-allow-replica-migration", "no"])
            .args(["--cluster-config-file", &format!("nodes-{port}.conf")])
            .args([
                "--cluster-node-timeout",
                &NODE_TIMEOUT.as_millis().to_string(),
            ])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts")
    }

    /// The nodes' URLs (a client finds the cluster from any of them).
    pub fn urls(&self) -> Vec<String> {
        self.nodes
            .iter()
            .map(|node| format!("redis://127.0.0.1:{}/", node.port))
            .collect()
    }

    /// `redis-cli -p <port> <args..>`'s output, trimmed; `None` when the
    /// node does not answer.
    pub fn command(&self, port: u16, args: &[&str]) -> Option<String> {
        let output = Command::new("redis-cli")
            .args(["-h", "127.0.0.1", "-p", &port.to_string()])
            .args(args)
            .stderr(Stdio::null())
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        (output.status.success() && !text.starts_with("Could not connect")).then_some(text)
    }

    /// The ports of the nodes still running.
    fn running(&self) -> impl Iterator<Item = u16> + '_ {
        self.nodes
            .iter()
            .filter(|node| node.child.is_some())
            .map(|node| node.port)
    }

    /// Waits (bounded) until every running node sees every slot served.
    fn wait_until_ok(&self) {
        let every_slot = || self.serves_every_slot();
        wait_until(Duration::from_secs(30), "every slot served", every_slot);
        // Every master's replicas in sync: a write can be acknowledged.
        wait_until(
            Duration::from_secs(30),
            "every replica to be in sync",
            || {
                self.running().all(|port| {
                    self.command(port, &["INFO", "replication"])
                        .is_some_and(|info| {
                            info.contains("role:slave") && info.contains("master_link_status:up")
                                || info.contains("role:master")
                                    && info
                                        .lines()
                                        .filter(|l| {
                                            l.starts_with("slave") && l.contains("state=online")
                                        })
                                        .count()
                                        >= self.replicas
                        })
                })
            },
        );
    }

    /// Whether every running node sees every slot served.
    fn serves_every_slot(&self) -> bool {
        self.running().all(|port| {
            self.command(port, &["CLUSTER", "INFO"])
                .is_some_and(|info| info.contains("cluster_state:ok"))
        })
    }

    /// The port of the master that serves `key`'s slot now.
    pub fn master_of(&self, key: &str) -> u16 {
        self.serving(key).expect("a master serves the key's slot")
    }

    /// The port of the master that serves `key`'s slot now, if one does.
    fn serving(&self, key: &str) -> Option<u16> {
        let any = self.running().next().expect("a running node");
        let slot: u16 = self
            .command(any, &["CLUSTER", "KEYSLOT", key])
            .and_then(|slot| slot.parse().ok())
            .expect("CLUSTER KEYSLOT");
        // `CLUSTER NODES`: `<id> <ip:port@bus> <flags> <master> .. <slots>`.
        let nodes = self
            .command(any, &["CLUSTER", "NODES"])
            .expect("CLUSTER NODES");
        for line in nodes.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() < 9 || !fields[2].contains("master") || fields[2].contains("fail") {
                continue;
            }
            let serves = fields[8..].iter().any(|range| match range.split_once('-') {
                Some((from, to)) => {
                    from.parse::<u16>().is_ok_and(|from| from <= slot)
                        && to.parse::<u16>().is_ok_and(|to| slot <= to)
                }
                None => range.parse::<u16>().is_ok_and(|single| single == slot),
            });
            if serves {
                let address = fields[1].split('@').next().unwrap_or_default();
                return address
                    .rsplit(':')
                    .next()
                    .and_then(|port| port.parse().ok());
            }
        }
        None
    }

    /// The node on `port`.
    fn node(&mut self, port: u16) -> &mut Node {
        self.nodes
            .iter_mut()
            .find(|node| node.port == port)
            .expect("a node of ours")
    }

    /// Kills (`SIGKILL`) the master that serves `key`, and waits (bounded)
    /// until its replica serves the slot. The new master's port.
    pub fn fail_over(&mut self, key: &str) -> u16 {
        let master = self.kill_master_of(key);
        self.wait_failed_over(key, master)
    }

    /// Kills (`SIGKILL`) the master that serves `key`: its port.
    pub fn kill_master_of(&mut self, key: &str) -> u16 {
        let master = self.master_of(key);
        if let Some(mut child) = self.node(master).child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        master
    }

    /// Waits (bounded) until a replica of `master` (killed) serves `key`'s
    /// slot and every slot is served: the new master's port.
    pub fn wait_failed_over(&self, key: &str, master: u16) -> u16 {
        wait_until(Duration::from_secs(30), "a replica to take over", || {
            self.serves_every_slot() && self.serving(key).is_some_and(|now| now != master)
        });
        self.master_of(key)
    }

    /// The ports of the replicas of the master on `master`.
    pub fn replicas_of(&self, master: u16) -> Vec<u16> {
        let any = self.running().find(|port| *port != master).expect("a node");
        let nodes = self
            .command(any, &["CLUSTER", "NODES"])
            .expect("CLUSTER NODES");
        let port_of = |field: &str| -> Option<u16> {
            field.split('@').next()?.rsplit(':').next()?.parse().ok()
        };
        let id = nodes
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            .find(|fields| fields.len() > 3 && port_of(fields[1]) == Some(master))
            .map(|fields| fields[0].to_owned())
            .expect("the master in CLUSTER NODES");
        nodes
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            .filter(|fields| fields.len() > 3 && fields[3] == id)
            .filter_map(|fields| port_of(fields[1]))
            .collect()
    }

    /// Stops (`SIGSTOP`) or resumes (`SIGCONT`) the node on `port`: a
    /// stopped replica acknowledges nothing.
    pub fn signal(&self, port: u16, signal: &str) {
        let node = self
            .nodes
            .iter()
            .find(|node| node.port == port)
            .and_then(|node| node.child.as_ref())
            .expect("a running node of ours");
        let status = Command::new("kill")
            .args([signal, &node.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} {port}");
    }

    /// Starts the killed nodes again: each rejoins (its `nodes.conf`) as a
    /// replica of the master that took over; waits (bounded) until every
    /// master has its replica in sync again.
    pub fn restart_failed(&mut self) {
        let failed: Vec<u16> = self
            .nodes
            .iter()
            .filter(|node| node.child.is_none())
            .map(|node| node.port)
            .collect();
        for port in failed {
            let child = self.spawn(port);
            // Stopped and waited for when dropped (`Drop`).
            self.node(port).child = Some(child);
        }
        self.wait_until_ok();
    }

    /// Waits (bounded) until everything written on the master of `key`
    /// reached its replica (its offset, in `INFO replication`): what was
    /// written is the replica's too.
    pub fn replicate(&self, key: &str) {
        let master = self.master_of(key);
        wait_until(Duration::from_secs(10), "the replica to catch up", || {
            let Some(info) = self.command(master, &["INFO", "replication"]) else {
                return false;
            };
            let field = |line: &str, name: &str| -> Option<u64> {
                line.split([',', ':'])
                    .find_map(|part| part.strip_prefix(&format!("{name}=")))
                    .and_then(|value| value.trim().parse().ok())
            };
            let written = info.lines().find_map(|line| {
                line.strip_prefix("master_repl_offset:")
                    .and_then(|value| value.trim().parse::<u64>().ok())
            });
            let replicated = info
                .lines()
                .filter(|line| line.starts_with("slave"))
                .filter_map(|line| field(line, "offset"))
                .max();
            matches!((written, replicated), (Some(w), Some(r)) if r >= w)
        });
    }
}

impl Drop for RedisCluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            if let Some(mut child) = node.child.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
