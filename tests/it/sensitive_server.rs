//! Feature `sensitive`: the page server, over real TCP on loopback. One test
//! per check of the threat model (`elicit_core::sensitive`): each sends the
//! request the check exists for and asserts it is refused, and that the
//! page still works for its user afterwards.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::Duration;

use elicit_core::sensitive::store::StoreError;
use elicit_core::sensitive::{ExposeSecret, OpenError, Pages, PendingPage, SecretOutcome};

use crate::common::Now;
use crate::common::http::{DEADLINE, Reply, Req};
use crate::common::sensitive::{Answer as _, Connect, SECRET};

/// An open page on its own loopback server.
struct Open {
    /// Kept alive: the server stops when the last clone is dropped.
    _pages: Pages,
    page: Option<PendingPage<Connect>>,
    addr: SocketAddr,
    path: String,
}

impl Open {
    /// The page, to wait for its answer (or drop it).
    fn take_page(&mut self) -> PendingPage<Connect> {
        self.page.take().expect("the page was taken already")
    }
}

fn open_with(pages: Pages) -> Open {
    let page = pages.open::<Connect>("Connect <Acme>").now().unwrap();
    let addr = pages.local_addr().unwrap();
    let path = page
        .url()
        .strip_prefix(&format!("http://{addr}"))
        .unwrap()
        .to_owned();
    Open {
        _pages: pages,
        page: Some(page),
        addr,
        path,
    }
}

fn open() -> Open {
    open_with(Pages::loopback().build())
}

/// The first visit: the page, its binding cookie and its CSRF token.
fn visit(open: &Open) -> (Reply, String, String) {
    let reply = Req::get(&open.path).send(open.addr);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let cookie = reply
        .cookie()
        .expect("the first visit sets the binding cookie");
    let csrf = reply.csrf().expect("the page carries a CSRF token");
    (reply, cookie, csrf)
}

fn body(csrf: &str, account: &str, token: &str) -> String {
    format!("csrf={csrf}&account={account}&token={token}")
}

/// A post as the bound browser sends it from the page.
fn post(open: &Open, cookie: &str, body: impl AsRef<str>) -> Req {
    Req::post(&open.path, body.as_ref())
        .header("cookie", cookie)
        .same_origin(open.addr)
}

/// Waits for the page's answer on another thread.
fn answer(page: PendingPage<Connect>) -> thread::JoinHandle<Result<Connect, String>> {
    thread::spawn(move || futures::executor::block_on(page.answer()).answered())
}

#[test]
fn the_url_carries_only_an_opaque_128_bit_id() {
    let pages = Pages::loopback().build();
    let a = pages.open::<Connect>("m").now().unwrap();
    let b = pages.open::<Connect>("m").now().unwrap();
    let addr = pages.local_addr().unwrap();
    assert!(addr.ip().is_loopback());
    for page in [&a, &b] {
        let id = page
            .url()
            .strip_prefix(&format!("http://{addr}/elicit/"))
            .unwrap();
        assert_eq!(id.len(), 32, "{}", page.url());
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        assert_eq!(id, page.id().to_string());
    }
    assert_ne!(a.id(), b.id());
}

#[test]
fn a_valid_post_answers_the_agent_once_and_then_the_page_is_used() {
    let open = open();
    let (page, cookie, csrf) = visit(&open);
    assert!(page.body.contains("Connect &lt;Acme&gt;"));
    let set = page.header("set-cookie").unwrap();
    let path = format!("Path={}", open.path);
    for part in ["HttpOnly", "SameSite=Strict", path.as_str()] {
        assert!(
            set.split("; ").any(|p| p == part),
            "{part} missing from {set}"
        );
    }
    let mut open = open;
    let waiter = answer(open.take_page());
    let done = post(&open, &cookie, body(&csrf, "acme", SECRET)).send(open.addr);
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("return to your client"));
    assert!(!done.body.contains(SECRET));
    let connect = waiter.join().unwrap().unwrap();
    assert_eq!(connect.account, "acme");
    assert_eq!(connect.token.expose_secret(), SECRET);
    // Replayed, or visited again: "already answered".
    let again = post(&open, &cookie, body(&csrf, "acme", SECRET)).send(open.addr);
    assert_eq!(again.status, 410);
    assert!(again.body.contains("already answered"), "{}", again.body);
    let visit = Req::get(&open.path)
        .header("cookie", &cookie)
        .send(open.addr);
    assert_eq!(visit.status, 410);
    assert!(visit.body.contains("already answered"));
}

#[test]
fn another_browser_is_refused_once_the_page_is_bound() {
    let open = open();
    let (_, cookie, csrf) = visit(&open);
    // No cookie, or another browser's: the "not for this browser" page.
    for other in [
        None,
        Some("elicit_binding=00000000000000000000000000000000"),
    ] {
        let mut req = Req::get(&open.path);
        if let Some(c) = other {
            req = req.header("cookie", c);
        }
        let reply = req.send(open.addr);
        assert_eq!(reply.status, 403);
        assert!(reply.body.contains("not for this browser"));
        assert!(reply.csrf().is_none(), "a refused visitor got the form");
        let posted = Req::post(&open.path, body(&csrf, "acme", SECRET))
            .same_origin(open.addr)
            .header("cookie", other.unwrap_or("x=y"))
            .send(open.addr);
        assert_eq!(posted.status, 403);
    }
    // The bound browser still has its page.
    let again = Req::get(&open.path)
        .header("cookie", &cookie)
        .send(open.addr);
    assert_eq!(again.status, 200);
    assert_eq!(again.csrf().as_deref(), Some(csrf.as_str()));
    assert!(again.header("set-cookie").is_none());
}

#[test]
fn a_request_naming_another_host_is_refused_dns_rebinding() {
    let open = open();
    let port = open.addr.port();
    for host in [
        format!("evil.example:{port}"),
        format!("localhost:{port}"),
        "127.0.0.1".to_owned(),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
    ] {
        let reply = Req::get(&open.path).host(&host).send(open.addr);
        assert_eq!(reply.status, 421, "Host: {host}");
        assert!(reply.header("set-cookie").is_none());
    }
    // Nothing was bound by those: the user's own first visit binds.
    visit(&open);
}

#[test]
fn a_cross_site_post_is_refused() {
    let open = open();
    let (_, cookie, csrf) = visit(&open);
    let good = body(&csrf, "acme", SECRET);
    let own = format!("http://{}", open.addr);
    let cases: [&[(&str, &str)]; 5] = [
        &[("sec-fetch-site", "cross-site")],
        &[("sec-fetch-site", "same-site")],
        &[("origin", "http://evil.example")],
        // `null` is accepted only with `Sec-Fetch-Site: same-origin`.
        &[("origin", "null")],
        &[("sec-fetch-site", "cross-site"), ("origin", own.as_str())],
    ];
    for headers in cases {
        let mut req = Req::post(&open.path, good.clone()).header("cookie", &cookie);
        for (name, value) in headers {
            req = req.header(name, value);
        }
        let reply = req.send(open.addr);
        assert_eq!(reply.status, 403, "{headers:?}");
    }
    // What Chromium sends under `Referrer-Policy: no-referrer` is accepted.
    let ok = Req::post(&open.path, good)
        .header("cookie", &cookie)
        .header("sec-fetch-site", "same-origin")
        .header("origin", "null")
        .send(open.addr);
    assert_eq!(ok.status, 200, "{}", ok.body);
}

#[test]
fn a_post_without_the_pages_csrf_token_is_refused() {
    let open = open();
    let (_, cookie, csrf) = visit(&open);
    let other = "0123456789abcdef0123456789abcdef";
    assert_ne!(csrf, other);
    for body in [
        format!("account=acme&token={SECRET}"),
        format!("csrf={other}&account=acme&token={SECRET}"),
        format!("csrf=&account=acme&token={SECRET}"),
    ] {
        let reply = post(&open, &cookie, &body).send(open.addr);
        assert_eq!(reply.status, 403, "{body}");
    }
    let ok = post(&open, &cookie, body(&csrf, "acme", SECRET)).send(open.addr);
    assert_eq!(ok.status, 200, "{}", ok.body);
}

#[test]
fn every_response_carries_the_security_headers() {
    let open = open();
    let (page, cookie, csrf) = visit(&open);
    let replies = [
        page,
        Req::get(&open.path).send(open.addr),     // 403
        Req::get("/elicit/nope").send(open.addr), // 404
        Req::get(&open.path).host("evil.example").send(open.addr), // 421
        Req::new("PUT", &open.path).send(open.addr), // 405
        post(&open, &cookie, body(&csrf, "a", SECRET)).send(open.addr), // 422
        post(&open, &cookie, "x")
            .header("content-type", "text/plain")
            .send(open.addr), // 415
    ];
    let statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [200, 403, 404, 421, 405, 422, 415]);
    let csp = format!(
        "default-src 'none'; style-src {}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        elicit_core::sensitive::STYLE_HASH
    );
    for reply in &replies {
        assert_eq!(
            reply.header("content-security-policy"),
            Some(csp.as_str()),
            "{}",
            reply.status
        );
        assert_eq!(reply.header("cache-control"), Some("no-store"));
        assert_eq!(reply.header("referrer-policy"), Some("no-referrer"));
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(reply.header("x-frame-options"), Some("DENY"));
        assert_eq!(
            reply.header("content-type"),
            Some("text/html; charset=utf-8")
        );
    }
}

#[test]
fn a_rejected_submission_shows_its_errors_keeps_the_page_open_and_never_echoes_the_secret() {
    let open = open();
    let (_, cookie, csrf) = visit(&open);
    let rejected = post(&open, &cookie, body(&csrf, "a", SECRET)).send(open.addr);
    assert_eq!(rejected.status, 422);
    assert!(
        rejected.body.contains("at least 2 characters"),
        "{}",
        rejected.body
    );
    assert!(!rejected.body.contains(SECRET));
    // The same token, and the value the user typed, are back on the page.
    assert_eq!(rejected.csrf().as_deref(), Some(csrf.as_str()));
    assert!(rejected.body.contains(r#"value="a""#));
    let ok = post(&open, &cookie, body(&csrf, "acme", SECRET)).send(open.addr);
    assert_eq!(ok.status, 200);
}

#[test]
fn hostile_bodies_are_refused_without_using_the_page() {
    let open = open_with(Pages::loopback().body_limit(256).build());
    let (_, cookie, csrf) = visit(&open);
    let good = body(&csrf, "acme", SECRET);
    let cases = [
        (
            post(&open, &cookie, "{}").header("content-type", "application/json"),
            415,
        ),
        (
            post(&open, &cookie, good.clone())
                .header("content-type", "multipart/form-data; boundary=x"),
            415,
        ),
        (
            post(&open, &cookie, good.clone()).header(
                "content-type",
                "application/x-www-form-urlencoded; charset=latin1",
            ),
            415,
        ),
        (
            post(&open, &cookie, good.clone()).declare_length(100_000),
            413,
        ),
        (
            post(
                &open,
                &cookie,
                format!("{good}&account={}", "a".repeat(300)),
            ),
            413,
        ),
        // No length declared: the cap holds while the body is read.
        (
            post(
                &open,
                &cookie,
                format!("{good}&account={}", "a".repeat(300)),
            )
            .chunked(),
            413,
        ),
        (post(&open, &cookie, format!("{good}&account=acme")), 400),
        (
            post(
                &open,
                &cookie,
                format!("csrf={csrf}&account=%FF%FE&token={SECRET}"),
            ),
            400,
        ),
        (
            post(
                &open,
                &cookie,
                format!("csrf={csrf}&account=acme&token={SECRET}&admin=1"),
            ),
            400,
        ),
    ];
    for (req, status) in cases {
        let reply = req.send(open.addr);
        assert_eq!(
            reply.status,
            status,
            "{}",
            String::from_utf8_lossy(&req.bytes(open.addr))
        );
        assert!(!reply.body.contains(SECRET));
    }
    // A chunked body within the cap is read as any other.
    let ok = post(&open, &cookie, &good).chunked().send(open.addr);
    assert_eq!(ok.status, 200, "{}", ok.body);
}

#[test]
fn a_page_expires_resolves_the_flow_as_expired_and_shows_expired() {
    let open = open_with(Pages::loopback().expiry(Duration::from_millis(300)).build());
    let (_, cookie, csrf) = visit(&open);
    let mut open = open;
    let outcome = futures::executor::block_on(open.take_page().answer());
    assert!(matches!(outcome, Ok(SecretOutcome::Expired)), "{outcome:?}");
    let late = post(&open, &cookie, body(&csrf, "acme", SECRET)).send(open.addr);
    assert_eq!(late.status, 410);
    assert!(late.body.contains("expired"), "{}", late.body);
}

#[test]
fn dropping_the_pending_page_ends_it_at_once() {
    let open = open();
    let (_, cookie, csrf) = visit(&open);
    let mut open = open;
    drop(open.take_page());
    let late = post(&open, &cookie, body(&csrf, "acme", SECRET)).send(open.addr);
    assert_eq!(late.status, 410);
    assert!(late.body.contains("already answered"));
}

#[test]
fn open_pages_are_capped() {
    let pages = Pages::loopback().max_open(2).build();
    let a = pages.open::<Connect>("m").now().unwrap();
    let _b = pages.open::<Connect>("m").now().unwrap();
    let full = pages.open::<Connect>("m").now().unwrap_err();
    assert!(
        matches!(full, OpenError::Store(StoreError::Full { max: 2 })),
        "{full:?}"
    );
    // An ended page frees its place.
    drop(a);
    let _c = pages.open::<Connect>("m").now().unwrap();
}

#[test]
fn connections_over_the_cap_are_closed_at_once() {
    let open = open_with(Pages::loopback().max_connections(1).build());
    // One connection holds the only slot (it sends nothing yet).
    let mut held = TcpStream::connect(open.addr).unwrap();
    thread::sleep(Duration::from_millis(100));
    let mut over = TcpStream::connect(open.addr).unwrap();
    over.set_read_timeout(Some(DEADLINE)).unwrap();
    let _ = over.write_all(&Req::get(&open.path).bytes(open.addr));
    let mut buf = Vec::new();
    let read = over.read_to_end(&mut buf);
    assert!(
        read.is_err() || buf.is_empty(),
        "served over the cap: {:?}",
        String::from_utf8_lossy(&buf)
    );
    // Once the held connection closes, the page is served again.
    held.write_all(&Req::get(&open.path).bytes(open.addr))
        .unwrap();
    let mut raw = Vec::new();
    held.read_to_end(&mut raw).unwrap();
    assert!(raw.starts_with(b"HTTP/1.1 200"));
}

#[test]
fn slow_clients_are_cut_off() {
    let open = open_with(
        Pages::loopback()
            .request_timeout(Duration::from_millis(300))
            .build(),
    );
    let (_, cookie, csrf) = visit(&open);
    // Headers that never end: the connection is closed.
    let mut slow = TcpStream::connect(open.addr).unwrap();
    slow.set_read_timeout(Some(DEADLINE)).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nhost: x").unwrap();
    let mut buf = Vec::new();
    let closed = slow.read_to_end(&mut buf);
    assert!(
        closed.is_ok(),
        "the server did not close a connection whose headers never ended"
    );
    // A body that never arrives: 408, and the page is still open.
    let full = post(&open, &cookie, body(&csrf, "acme", SECRET));
    let mut bytes = full.bytes(open.addr);
    bytes.truncate(bytes.len() - 10);
    let mut partial = TcpStream::connect(open.addr).unwrap();
    partial.set_read_timeout(Some(DEADLINE)).unwrap();
    partial.write_all(&bytes).unwrap();
    let reply = crate::common::http::read_reply(&mut partial);
    assert_eq!(reply.status, 408);
    assert_eq!(
        post(&open, &cookie, body(&csrf, "acme", SECRET))
            .send(open.addr)
            .status,
        200
    );
}

// ---------------------------------------------------------------------------
// Hosted pages: the `tower` service, called as a web framework calls it.

pub(crate) mod hosted {
    use elicit_core::protocol::agent::VerifiedUser;
    use elicit_core::sensitive::{ConfigError, ExposeSecret, OpenError, Pages, PagesBuilder};
    use http_body_util::{BodyExt, Full};
    use tower_service::Service;

    use super::{Connect, SECRET, answer};
    use crate::common::Now;

    const BASE: &str = "https://agent.example.com/elicit";

    /// Stands in for the host's own authentication: the user a trusted
    /// header names.
    pub(crate) fn builder() -> PagesBuilder {
        Pages::hosted(BASE, |request: &http::request::Parts| {
            let user = request.headers.get("x-user")?.to_str().ok()?;
            Some(VerifiedUser::new(user))
        })
        .unwrap()
    }

    /// The hosted pages of [`builder`], with the defaults.
    pub(crate) fn pages() -> Pages {
        builder().build()
    }

    pub(crate) struct Reply {
        pub(crate) status: u16,
        headers: http::HeaderMap,
        body: String,
    }

    pub(crate) fn call(pages: &Pages, request: http::request::Builder, body: &str) -> Reply {
        let request = request
            .header("host", "agent.example.com")
            .body(Full::new(std::io::Cursor::new(body.as_bytes().to_vec())))
            .unwrap();
        let response: http::Response<_> =
            futures::executor::block_on(pages.service().call(request)).unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = futures::executor::block_on(response.into_body().collect()).unwrap();
        Reply {
            status,
            headers,
            body: String::from_utf8(body.to_bytes().to_vec()).unwrap(),
        }
    }

    pub(crate) fn get(path: &str, user: Option<&str>) -> http::request::Builder {
        let request = http::Request::get(path);
        match user {
            Some(user) => request.header("x-user", user),
            None => request,
        }
    }

    impl Reply {
        /// The binding cookie the reply sets, as `name=value`.
        pub(crate) fn cookie(&self) -> String {
            let set = self.headers["set-cookie"].to_str().unwrap();
            set.split(';').next().unwrap().to_owned()
        }

        /// The CSRF token of the page it shows.
        pub(crate) fn csrf(&self) -> String {
            let at = self.body.find(r#"name="csrf" value=""#).unwrap() + 19;
            self.body[at..at + 32].to_owned()
        }

        pub(crate) fn body(&self) -> &str {
            &self.body
        }

        /// The header `name`'s value (empty if there is none).
        pub(crate) fn header(&self, name: &str) -> &str {
            self.headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
        }

        /// The same-origin post of this page's form by `user`, bound by
        /// `cookie`.
        pub(crate) fn post(&self, path: &str, user: &str, cookie: &str) -> http::request::Builder {
            http::Request::post(path)
                .header("x-user", user)
                .header("cookie", cookie)
                .header("sec-fetch-site", "same-origin")
                .header("origin", "https://agent.example.com")
                .header("content-type", "application/x-www-form-urlencoded")
        }
    }

    /// `user` opens the page at `path` and submits `fields` (URL-encoded,
    /// without the CSRF token) as a same-origin post: the post's status.
    pub(crate) fn submit_as(pages: &Pages, path: &str, user: &str, fields: &str) -> u16 {
        submitted_as(pages, path, user, fields).status
    }

    /// [`submit_as`], with the binding cookie and the CSRF token it used.
    pub(crate) fn submitted_as(
        pages: &Pages,
        path: &str,
        user: &str,
        fields: &str,
    ) -> crate::common::sensitive::Answered {
        let shown = call(pages, get(path, Some(user)), "");
        assert_eq!(shown.status, 200, "{}", shown.body);
        let cookie = shown.cookie();
        let body = format!("csrf={}&{fields}", shown.csrf());
        crate::common::sensitive::Answered {
            status: call(pages, shown.post(path, user, &cookie), &body).status,
            cookie,
            csrf: shown.csrf(),
            page: shown.body.clone(),
        }
    }

    #[test]
    fn hosted_pages_need_https_and_every_page_a_user() {
        for url in [
            "http://agent.example.com/elicit",
            "https://agent.example.com/elicit?x=1",
            "https://user@agent.example.com/elicit",
            "ftp://agent.example.com/",
            "agent.example.com/elicit",
        ] {
            let refused = Pages::hosted(url, |_: &http::request::Parts| None).unwrap_err();
            assert_eq!(refused, ConfigError::BadUrl(url.to_owned()));
        }
        // http only on loopback.
        assert!(Pages::hosted("http://127.0.0.1:8080/e", |_: &http::request::Parts| None).is_ok());
        assert!(matches!(
            pages().open::<Connect>("m").now(),
            Err(OpenError::UserRequired)
        ));
        assert!(matches!(
            Pages::loopback()
                .build()
                .open_for::<Connect>(&VerifiedUser::new("alice"), "m")
                .now(),
            Err(OpenError::NoVerifier)
        ));
    }

    #[test]
    fn a_hosted_page_is_served_only_to_the_user_it_was_opened_for() {
        let pages = pages();
        let page = pages
            .open_for::<Connect>(&VerifiedUser::new("alice"), "Connect")
            .now()
            .unwrap();
        let url = page.url().to_owned();
        let id = page.id().to_string();
        assert_eq!(url, format!("{BASE}/{id}"));
        let path = format!("/elicit/{id}");
        for user in [None, Some("bob"), Some("Alice")] {
            let refused = call(&pages, get(&path, user), "");
            assert_eq!(refused.status, 403, "{user:?}");
            assert!(refused.headers.get("set-cookie").is_none());
        }
        // A router that strips the mount path passes `/<id>`.
        let shown = call(&pages, get(&format!("/{id}"), Some("alice")), "");
        assert_eq!(shown.status, 200, "{}", shown.body);
        let set = shown.headers["set-cookie"].to_str().unwrap().to_owned();
        assert!(
            set.ends_with("; HttpOnly; SameSite=Strict; Secure"),
            "{set}"
        );
        let cookie = set.split(';').next().unwrap().to_owned();
        let at = shown.body.find(r#"name="csrf" value=""#).unwrap() + 19;
        let csrf = shown.body[at..at + 32].to_owned();
        let waiter = answer(page);
        let body = format!("csrf={csrf}&account=acme&token={SECRET}");
        let post = |user: &str| {
            call(
                &pages,
                http::Request::post(&path)
                    .header("x-user", user)
                    .header("cookie", &cookie)
                    .header("sec-fetch-site", "same-origin")
                    .header("origin", "https://agent.example.com")
                    .header("content-type", "application/x-www-form-urlencoded"),
                &body,
            )
        };
        // Bob, even with Alice's cookie and token: refused.
        assert_eq!(post("bob").status, 403);
        let done = post("alice");
        assert_eq!(done.status, 200, "{}", done.body);
        let connect = waiter.join().unwrap().unwrap();
        assert_eq!(connect.token.expose_secret(), SECRET);
    }

    #[test]
    fn two_replicas_sharing_a_store_serve_each_others_pages() {
        let store = crate::common::sensitive::SharedStore::default();
        let replica = || builder().store(store.clone()).build();
        let (asking, serving) = (replica(), replica());
        let page = asking
            .open_for::<Connect>(&VerifiedUser::new("alice"), "Connect")
            .now()
            .unwrap();
        let path = format!("/elicit/{}", page.id());
        let waiter = answer(page);
        // The other replica serves the page, and takes the post.
        let shown = call(&serving, get(&path, Some("alice")), "");
        assert_eq!(shown.status, 200, "{}", shown.body);
        let cookie = shown.headers["set-cookie"].to_str().unwrap();
        let cookie = cookie.split(';').next().unwrap().to_owned();
        let at = shown.body.find(r#"name="csrf" value=""#).unwrap() + 19;
        let csrf = &shown.body[at..at + 32];
        let done = call(
            &serving,
            http::Request::post(&path)
                .header("x-user", "alice")
                .header("cookie", &cookie)
                .header("sec-fetch-site", "same-origin")
                .header("content-type", "application/x-www-form-urlencoded"),
            &format!("csrf={csrf}&account=acme&token={SECRET}"),
        );
        assert_eq!(done.status, 200, "{}", done.body);
        // The asking replica gets the answer.
        let connect = waiter.join().unwrap().unwrap();
        assert_eq!(connect.account, "acme");
        assert_eq!(connect.token.expose_secret(), SECRET);
        // And a late visit to either replica sees it answered.
        assert_eq!(call(&asking, get(&path, Some("alice")), "").status, 410);
    }
}

#[test]
fn the_answer_that_ends_the_agent_still_gets_its_done_page() {
    // The agent stops its pages as soon as it has the answer (as the demo
    // agent does when its client goes away): the server drains, and the
    // browser that sent the answer still gets the "done" page.
    let mut open = open();
    let (_, cookie, csrf) = visit(&open);
    let page = open.take_page();
    let pages = std::mem::replace(&mut open._pages, Pages::loopback().build());
    let agent = thread::spawn(move || {
        let answer = futures::executor::block_on(page.answer()).answered();
        drop(pages);
        answer.map(|c| c.account)
    });
    let done = post(&open, &cookie, body(&csrf, "acme", SECRET)).send(open.addr);
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("return to your client"));
    assert_eq!(agent.join().unwrap().unwrap(), "acme");
}
