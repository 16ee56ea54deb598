//! A `redis-server` of the test's own on a loopback port (Debian's package,
//! installed by `.ci/services-deps`), stopped when dropped. Without the
//! binary the tests that need it are skipped, unless `CI` or
//! `ELICIT_REDIS_REQUIRED` is set (as `.ci/run` does), when they fail.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RedisServer {
    child: Option<Child>,
    pub port: u16,
    dir: PathBuf,
}

/// A fresh server, or `None` (the test returns) where `redis-server` is
/// not installed and not required.
pub fn start() -> Option<RedisServer> {
    let installed = Command::new("redis-server")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !installed {
        return super::not_installed(
            "ELICIT_REDIS_REQUIRED",
            "`redis-server` is not installed: run .ci/services-deps",
        );
    }
    let port = super::free_port();
    let dir = std::env::temp_dir().join(format!("elicit-redis-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut server = RedisServer {
        child: None,
        port,
        dir,
    };
    server.spawn();
    Some(server)
}

impl RedisServer {
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn spawn(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1", "--protected-mode", "yes"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        // Ready when it answers PING (bounded: it starts in milliseconds).
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.command("PING").as_deref() != Some("+PONG") {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops it (its data is gone: no persistence) and starts it again on
    /// the same port.
    pub fn restart(&mut self) {
        self.stop();
        self.spawn();
    }

    /// Stops it.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Stops it answering (`SIGSTOP`): connections stay open, nothing
    /// replies, as a stalled or unreachable Redis.
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Lets it answer again (`SIGCONT`).
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let pid = self.child.as_ref().expect("redis-server runs").id();
        let sent = Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill {signal} {pid}");
    }

    /// One inline command's first reply line, or `None` when nothing
    /// answers.
    pub fn command(&self, command: &str) -> Option<String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
        stream.write_all(format!("{command}\r\n").as_bytes()).ok()?;
        let mut reply = Vec::new();
        let mut byte = [0u8; 1];
        while !reply.ends_with(b"\r\n") {
            if stream.read(&mut byte).ok()? == 0 {
                break;
            }
            reply.push(byte[0]);
        }
        Some(String::from_utf8_lossy(&reply).trim_end().to_owned())
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The commands clients send to a Redis, as `MONITOR` shows them (a Lua
/// script is one command; what it runs inside is not counted).
pub struct Monitor {
    lines: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    url: String,
    marks: std::sync::atomic::AtomicU64,
}

impl Monitor {
    pub fn start(server: &RedisServer) -> Self {
        use std::io::{BufRead, BufReader, Write};

        let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        stream.write_all(b"MONITOR\r\n").unwrap();
        let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { return };
                kept.lock().unwrap().push(line);
            }
        });
        let monitor = Self {
            lines,
            url: server.url(),
            marks: std::sync::atomic::AtomicU64::new(0),
        };
        monitor.mark();
        monitor
    }

    /// Sends a marker command and waits until the monitor shows it: every
    /// command sent before is counted by then. The commands since the last
    /// mark.
    pub fn mark(&self) -> u64 {
        let n = self.marks.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let marker = format!("elicit-mark-{n}");
        let client = redis::Client::open(self.url.as_str()).unwrap();
        let mut connection = client.get_connection().unwrap();
        let _: String = redis::cmd("ECHO")
            .arg(&marker)
            .query(&mut connection)
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let mut lines = self.lines.lock().unwrap();
            if let Some(at) = lines.iter().position(|l| l.contains(&marker)) {
                let counted = lines[..at]
                    .iter()
                    .filter(|l| {
                        l.contains('[') && !l.contains(" lua]") && !l.contains("elicit-mark-")
                    })
                    .count();
                lines.drain(..=at);
                return u64::try_from(counted).unwrap();
            }
            drop(lines);
            assert!(
                std::time::Instant::now() < deadline,
                "the monitor saw no mark"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
