//! Feature `sensitive`: the page server in a real browser. Debian's headless
//! Chromium, driven over WebDriver by a chromedriver on loopback (both from
//! `.ci/browser-deps`), fills and posts the page as a user does: the
//! browser's own cookie handling, form encoding and fetch metadata
//! (`Sec-Fetch-Site`, `Origin`) meet the server's checks, which the raw-TCP
//! tests of `sensitive_server.rs` can only imitate.
//!
//! [`Browser`] is the harness, for any test that wants a browser. Without
//! Chromium a test skips with a note, unless `CI` is set: there it fails.

use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use elicit_core::sensitive::{ExposeSecret, Pages, PendingPage};
use serde_json::json;

use crate::common::Now;
use crate::common::http::DEADLINE;
use crate::common::sensitive::{Answer as _, Connect, SECRET};
use crate::common::webdriver::{self, Cookie, Element, Session};

/// Debian's `chromium` package's launcher.
pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
/// Debian's `chromium-driver` package's WebDriver server.
pub(crate) const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// How long a browser gets to start (a deadline, not a measurement): a
/// cold Chromium on two busy cores is slow.
const START_DEADLINE: Duration = Duration::from_secs(90);

/// A headless Chromium session over its own chromedriver. Every method
/// blocks until the browser is done (each WebDriver command within
/// [`DEADLINE`]), and panics with what went wrong. Dropping it ends the
/// session, chromedriver and the browser profile.
pub(crate) struct Browser {
    session: Option<Session>,
    driver: Driver,
    /// Chromium's profile and chromedriver's log; removed last.
    _profile: TempDir,
}

impl Browser {
    /// A fresh browser, or `None` (with a note) when Chromium or
    /// chromedriver is not installed and neither `CI` nor
    /// `ELICIT_BROWSER_REQUIRED` (which `.ci/run` sets) is. Under either, a
    /// missing browser fails the test.
    pub(crate) fn start() -> Option<Self> {
        let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
            .into_iter()
            .filter(|bin| !Path::new(bin).exists())
            .collect();
        if !missing.is_empty() {
            let note = format!(
                "{} not installed: run .ci/browser-deps (Debian's chromium and chromium-driver)",
                missing.join(" and ")
            );
            return crate::common::not_installed("ELICIT_BROWSER_REQUIRED", &note);
        }
        Some(Self::launch())
    }

    fn launch() -> Self {
        let profile = TempDir::new("profile");
        let driver = Driver::spawn(&profile.0);
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1000,800",
        ]
        .into_iter()
        .map(str::to_owned)
        .chain([format!(
            "--user-data-dir={}",
            profile.0.join("user-data").display()
        )])
        .collect::<Vec<_>>();
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
        });
        let address = SocketAddr::from(([127, 0, 0, 1], driver.port));
        let session =
            Session::new(address, capabilities, START_DEADLINE, DEADLINE).unwrap_or_else(|error| {
                panic!(
                    "no browser session: {error}\nchromedriver's log:\n{}",
                    driver.log()
                )
            });
        Self {
            session: Some(session),
            driver,
            _profile: profile,
        }
    }

    /// The WebDriver session.
    fn session(&self) -> &Session {
        self.session.as_ref().expect("the session is open")
    }

    /// One WebDriver step's result, or a panic that says which step failed.
    fn run<T>(&self, what: &str, step: Result<T, webdriver::Error>) -> T {
        step.unwrap_or_else(|error| panic!("{what}: {error}"))
    }

    /// Opens `url` and waits for the page to load.
    pub(crate) fn goto(&self, url: &str) {
        self.run(&format!("goto {url}"), self.session().goto(url));
    }

    /// The address of the page shown.
    pub(crate) fn url(&self) -> String {
        self.run("current url", self.session().current_url())
    }

    /// The one element that `css` selects.
    pub(crate) fn find(&self, css: &str) -> Element {
        self.run(&format!("find {css}"), self.session().find(css))
    }

    /// How many elements `css` selects.
    pub(crate) fn count(&self, css: &str) -> usize {
        self.run(&format!("find all {css}"), self.session().find_all(css))
            .len()
    }

    /// The form control named `name`.
    pub(crate) fn input(&self, name: &str) -> Element {
        self.find(&format!("[name=\"{name}\"]"))
    }

    /// Types `value` into the control named `name`, after clearing it: as
    /// a user does (key events, so the browser's own checks see it).
    pub(crate) fn fill(&self, name: &str, value: &str) {
        let input = self.input(name);
        self.run(&format!("clear {name}"), self.session().clear(&input));
        self.run(
            &format!("type into {name}"),
            self.session().send_keys(&input, value),
        );
    }

    /// The current value of the control named `name`.
    pub(crate) fn value(&self, name: &str) -> String {
        self.prop(name, "value")
    }

    /// A DOM property of the control named `name` (`value`, `type`,
    /// `validationMessage`, ...), `""` when it has none.
    pub(crate) fn prop(&self, name: &str, prop: &str) -> String {
        let input = self.input(name);
        self.run(
            &format!("{name}.{prop}"),
            self.session().property(&input, prop),
        )
        .unwrap_or_default()
    }

    /// Clicks the form's submit button, as a user does, and waits until
    /// the answer to the post is the page shown.
    pub(crate) fn submit(&self) {
        let before = self.find("html");
        let button = self.find("form [type=submit]");
        self.run("click submit", self.session().click(&button));
        // The post's answer is a new document: the old one's root goes
        // stale once it has replaced it.
        let deadline = Instant::now() + DEADLINE;
        loop {
            match self.session().tag_name(&before) {
                Err(error) if error.is_stale() => break,
                Err(error) => panic!("waiting for the post's answer: {error}"),
                Ok(_) => {}
            }
            assert!(
                Instant::now() < deadline,
                "the form was not posted within {DEADLINE:?} (the browser's own checks \
                 may have stopped it); the page:\n{}",
                self.page_text()
            );
            thread::sleep(Duration::from_millis(50));
        }
        let ready = self.run(
            "document.readyState",
            self.session().execute("return document.readyState"),
        );
        assert_eq!(ready, json!("complete"));
    }

    /// The text of the page, as the user reads it.
    pub(crate) fn page_text(&self) -> String {
        self.text("body")
    }

    /// The page's `<h1>`.
    pub(crate) fn heading(&self) -> String {
        self.text("h1")
    }

    /// The rendered text of the one element that `css` selects.
    pub(crate) fn text(&self, css: &str) -> String {
        let element = self.find(css);
        self.run(&format!("text of {css}"), self.session().text(&element))
    }

    /// The page's HTML as the browser holds it now.
    pub(crate) fn source(&self) -> String {
        self.run("page source", self.session().source())
    }

    /// The cookies the browser holds for the page shown.
    pub(crate) fn cookies(&self) -> Vec<Cookie> {
        self.run("cookies", self.session().cookies())
    }

    /// A PNG of the viewport, written to `path`; returns its bytes.
    pub(crate) fn screenshot(&self, path: &Path) -> Vec<u8> {
        let png = self.run("screenshot", self.session().screenshot());
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).unwrap();
        }
        fs::write(path, &png).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        png
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ends the session, and so the browser, before chromedriver goes.
        if let Some(session) = self.session.take() {
            let _ = session.close();
        }
        self.driver.stop();
    }
}

/// chromedriver on a free loopback port, killed on drop.
struct Driver {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Driver {
    /// Starts chromedriver and waits until it says it is ready. A port
    /// taken between choosing it and binding it: another port.
    fn spawn(dir: &Path) -> Self {
        let mut last_log = String::new();
        for attempt in 0..3 {
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free loopback port")
                .port();
            let log = dir.join(format!("chromedriver-{attempt}.log"));
            // A process group of its own: stopping it stops the browser it
            // launched too, even when no session was made.
            let child = Command::new(CHROMEDRIVER)
                .process_group(0)
                .arg(format!("--port={port}"))
                .arg(format!("--log-path={}", log.display()))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("starting {CHROMEDRIVER}: {e}"));
            let mut driver = Self { child, port, log };
            if driver.wait_ready() {
                return driver;
            }
            last_log = driver.log();
            driver.stop();
        }
        panic!("chromedriver did not start; its log:\n{last_log}");
    }

    /// Polls `GET /status` until chromedriver is ready; `false` if it
    /// exited or the deadline passed.
    fn wait_ready(&mut self) -> bool {
        let deadline = Instant::now() + DEADLINE;
        while Instant::now() < deadline {
            if self.child.try_wait().ok().flatten().is_some() {
                return false;
            }
            if self.ready() {
                return true;
            }
            thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Whether chromedriver's `/status` says `"ready": true`. It may keep
    /// the connection open: the reply is read only until it says so.
    fn ready(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
        let request = format!(
            "GET /status HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            self.port
        );
        if stream.write_all(request.as_bytes()).is_err() {
            return false;
        }
        let mut reply = Vec::new();
        let mut chunk = [0; 4096];
        while let Ok(n @ 1..) = stream.read(&mut chunk) {
            reply.extend_from_slice(&chunk[..n]);
            let text: String = String::from_utf8_lossy(&reply).split_whitespace().collect();
            if text.contains("\"ready\":true") {
                return true;
            }
        }
        false
    }

    /// The end of chromedriver's log, for a failure's message.
    fn log(&self) -> String {
        let text = fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    fn stop(&mut self) {
        // chromedriver and the Chromium it started (the group's id is
        // chromedriver's pid).
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A fresh directory under the system's temporary directory, removed on
/// drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(what: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir()
                .join(format!("elicit-browser-{what}-{}-{n}", std::process::id()));
            match fs::create_dir(&path) {
                Ok(()) => return Self(path),
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("creating {}: {e}", path.display()),
            }
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Waits for the page's answer on another thread, as an agent does.
struct Agent(thread::JoinHandle<Result<Connect, String>>);

impl Agent {
    fn wait_for(page: PendingPage<Connect>) -> Self {
        Self(thread::spawn(move || {
            futures::executor::block_on(page.answer()).answered()
        }))
    }

    fn answered(&self) -> bool {
        self.0.is_finished()
    }

    /// The answer, within [`DEADLINE`].
    fn answer(self) -> Result<Connect, String> {
        let deadline = Instant::now() + DEADLINE;
        while !self.0.is_finished() {
            assert!(Instant::now() < deadline, "no answer within {DEADLINE:?}");
            thread::sleep(Duration::from_millis(20));
        }
        self.0.join().unwrap()
    }
}

#[test]
fn a_user_fixes_a_rejected_answer_and_the_agent_gets_it_once() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let pages = Pages::loopback().build();
    let page = pages.open::<Connect>("Connect <Acme>").now().unwrap();
    let url = page.url().to_owned();
    let agent = Agent::wait_for(page);

    browser.goto(&url);
    assert!(
        browser.page_text().contains("Connect <Acme>"),
        "{}",
        browser.source()
    );
    assert_eq!(browser.prop("token", "type"), "password");
    // Too short: the browser's own `minlength` check would stop the post
    // (the server checks anyway; sensitive_server.rs posts it raw).
    browser.fill("account", "a");
    assert!(!browser.prop("account", "validationMessage").is_empty());

    // Too long: within the page's `maxlength` (twice the rule's bound, for
    // UTF-16), so the browser posts it and the server rejects it.
    let too_long = "an-account-name-of-27-chars";
    assert_eq!(too_long.len(), 27);
    browser.fill("account", too_long);
    assert_eq!(browser.prop("account", "validationMessage"), "");
    browser.fill("token", SECRET);
    browser.submit();
    let text = browser.page_text();
    assert!(text.contains("Some answers need a change"), "{text}");
    // The error is the account field's, shown under it.
    let account_id = browser.prop("account", "id");
    let error = browser.text(&format!("#{account_id}-error"));
    assert!(error.contains("at most 20 characters"), "{error}");
    assert_eq!(browser.count(".field.invalid"), 1);
    assert_eq!(browser.count(".error"), 1);
    // What was typed is back, except the secret: never echoed.
    assert_eq!(browser.value("account"), too_long);
    assert_eq!(browser.value("token"), "");
    assert!(!browser.source().contains(SECRET));
    assert!(!agent.answered(), "a rejected post answered the agent");
    // For a person to look at (not checked beyond being a PNG).
    let shot = browser
        .screenshot(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("sensitive-page-rejected.png"));
    png_size(&shot);

    browser.fill("account", "acme");
    browser.fill("token", SECRET);
    browser.submit();
    assert_eq!(browser.heading(), "Received");
    let text = browser.page_text();
    assert!(text.contains("return to your client"), "{text}");
    assert!(!browser.source().contains(SECRET));
    let connect = agent.answer().unwrap();
    assert_eq!(connect.account, "acme");
    assert_eq!(connect.token.expose_secret(), SECRET);

    // Visited again: used, and no form.
    browser.goto(&url);
    let text = browser.page_text();
    assert!(text.contains("already answered"), "{text}");
    assert_eq!(browser.count("form"), 0);
}

#[test]
fn the_page_through_another_host_name_is_refused_and_its_own_url_still_works() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let pages = Pages::loopback().build();
    let page = pages.open::<Connect>("Connect <Acme>").now().unwrap();
    let addr = pages.local_addr().unwrap();
    let url = page.url().to_owned();
    let other = url.replacen(&addr.ip().to_string(), "localhost", 1);
    assert_ne!(other, url);
    let agent = Agent::wait_for(page);

    // The same server through another name: what DNS rebinding looks like.
    browser.goto(&other);
    let text = browser.page_text();
    assert!(text.contains("only at its own address"), "{text}");
    assert_eq!(browser.count("form"), 0);
    assert_eq!(browser.count("input"), 0);

    // That visit bound nothing: the page's own URL is the user's.
    browser.goto(&url);
    assert_eq!(browser.url(), url);
    assert_eq!(browser.count("form"), 1);
    browser.fill("account", "acme");
    browser.fill("token", SECRET);
    browser.submit();
    assert_eq!(browser.heading(), "Received");
    let connect = agent.answer().unwrap();
    assert_eq!(connect.account, "acme");
    assert_eq!(connect.token.expose_secret(), SECRET);
}

#[test]
fn the_empty_form_renders_to_a_png() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let pages = Pages::loopback().build();
    let page = pages
        .open::<Connect>("Acme needs your account and an API token to connect.")
        .now()
        .unwrap();
    browser.goto(page.url());
    assert_eq!(browser.count("form"), 1);
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sensitive-page.png");
    let _ = fs::remove_file(&path);
    let written = browser.screenshot(&path);
    let png = fs::read(&path).unwrap();
    assert_eq!(png, written);
    let (width, height) = png_size(&png);
    eprintln!("screenshot: {} ({width}x{height})", path.display());
}

/// The width and height of a PNG, after checking its signature.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    // IHDR comes first: its length and type, then width and height,
    // big-endian.
    assert_eq!(&png[12..16], b"IHDR");
    let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    let (width, height) = (size(16), size(20));
    assert!(width > 0 && height > 0);
    (width, height)
}

/// The headers of one request, names lowercase.
type Headers = Vec<(String, String)>;

/// What the page server's `same_origin_post` relies on: the fetch metadata
/// Chromium sends with a form post to its own origin under
/// `Referrer-Policy: no-referrer` (the page server's policy). A tiny server
/// on loopback serves such a form and records the post's headers.
#[test]
fn chromium_posts_a_no_referrer_form_as_same_origin() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (posted, received) = mpsc::channel::<Headers>();
    // One thread per connection: a speculative connection that sends
    // nothing (dropped after its read timeout) never holds up the others.
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let posted = posted.clone();
            thread::spawn(move || {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
                let Some((request_line, headers)) = read_head(&mut stream) else {
                    return;
                };
                // The body too: closing with unread bytes would reset the
                // connection under the browser.
                let length = headers
                    .iter()
                    .find(|(n, _)| n == "content-length")
                    .and_then(|(_, v)| v.parse::<u64>().ok())
                    .unwrap_or(0);
                let _ = std::io::copy(&mut (&mut stream).take(length), &mut std::io::sink());
                let (status, body) = if request_line.starts_with("GET /form ") {
                    (
                        "200 OK",
                        "<!doctype html><title>t</title><form method=post>\
                         <input name=a value=b><button type=submit>Send</button></form>",
                    )
                } else if request_line.starts_with("POST /form ") {
                    ("200 OK", "<!doctype html><title>t</title><h1>posted</h1>")
                } else {
                    ("404 Not Found", "")
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\ncontent-type: text/html\r\nreferrer-policy: no-referrer\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                if request_line.starts_with("POST ") {
                    let _ = posted.send(headers);
                }
            });
        }
    });
    browser.goto(&format!("http://{addr}/form"));
    browser.submit();
    assert_eq!(browser.heading(), "posted");
    let headers = received.recv_timeout(DEADLINE).unwrap();
    let get = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    eprintln!("Chromium's form post: {headers:?}");
    assert_eq!(get("sec-fetch-site"), Some("same-origin"), "{headers:?}");
    let own = format!("http://{addr}");
    assert!(
        get("origin").is_some_and(|o| o == "null" || o == own),
        "{headers:?}"
    );
    assert_eq!(get("referer"), None, "{headers:?}");
}

/// A request's line and headers; the body (if any) is left unread.
fn read_head(stream: &mut TcpStream) -> Option<(String, Headers)> {
    let mut head = Vec::new();
    let mut byte = [0; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).ok()? == 0 || head.len() > 64 * 1024 {
            return None;
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).ok()?;
    let mut lines = head.split("\r\n");
    let request_line = lines.next()?.to_owned();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Some((request_line, headers))
}

/// The demo, end to end, with a real browser as the user's: the client
/// consents to the agent's token page, the browser opens its URL (after a
/// visit through another host name, refused), a token the page's rule
/// refuses is shown again with its error, the fixed one is received; the
/// agent gets it, and the client gets `elicitation/complete`.
#[test]
fn the_demos_token_page_in_a_browser() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let mut live = crate::acp_demo::Live::start(
        &["--form", "--url"],
        &[
            json!({"action": "accept", "content": {"service": "api", "env": "staging"}}),
            json!({"action": "accept"}),
        ],
    );
    let url = live.page_url();
    let other = url.replacen("127.0.0.1", "localhost", 1);
    assert_ne!(other, url);
    browser.goto(&other);
    assert!(browser.page_text().contains("only at its own address"));
    assert_eq!(browser.count("form"), 0);

    browser.goto(&url);
    assert_eq!(browser.heading(), "Deploy token");
    assert!(
        browser
            .page_text()
            .contains("Paste a deploy token for `api`")
    );
    assert_eq!(browser.prop("token", "type"), "password");
    // Long enough for the browser; the server's pattern (`^dt-`) refuses it.
    browser.fill("token", "not-a-deploy-token");
    browser.submit();
    let token_id = browser.prop("token", "id");
    let error = browser.text(&format!("#{token_id}-error"));
    assert!(error.contains("must match"), "{error}");
    assert_eq!(browser.value("token"), "");
    assert!(!browser.source().contains("not-a-deploy-token"));

    let token = "dt-browser-test-token-0042";
    browser.fill("token", token);
    browser.submit();
    assert_eq!(browser.heading(), "Received");
    assert!(browser.page_text().contains("return to your client"));

    let output = live.finish();
    assert!(
        output
            .stdout
            .contains("Token received. Deploying `api` now."),
        "{}",
        output.stdout
    );
    let (_, received) = output.wire();
    let id = url.rsplit('/').next().unwrap();
    let completed: Vec<_> = received
        .iter()
        .filter(|m| m["method"] == "elicitation/complete")
        .map(|m| m["params"]["elicitationId"].clone())
        .collect();
    assert_eq!(completed, [json!(id)]);
    assert!(
        output
            .stderr
            .contains(&format!("the agent reports `{id}` completed"))
    );
    assert!(!output.stderr.contains(token) && !output.stdout.contains(token));
}
