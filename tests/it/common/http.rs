//! A raw HTTP/1.1 client over `std::net`, for the page server's tests: it
//! sends exactly the bytes a test writes (any `Host`, any header, a body
//! that lies about its length), so every check of the server can be hit.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// How long a test waits for the server at most (a deadline, not a
/// measurement).
pub const DEADLINE: Duration = Duration::from_secs(20);

/// The server address and the path of a loopback `http://` page URL (a
/// page's, an OAuth start page's), as a test's browser requests it.
pub fn split_url(url: &str) -> (SocketAddr, &str) {
    let rest = url.strip_prefix("http://").expect("a loopback http URL");
    let (authority, path) = rest.split_at(rest.find('/').expect("a path"));
    (authority.parse().expect("an IP address and a port"), path)
}

/// A response, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The value of the one header `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        let mut found = self.headers.iter().filter(|(n, _)| n == name);
        let first = found.next().map(|(_, v)| v.as_str());
        assert!(found.next().is_none(), "header {name} twice");
        first
    }

    /// The binding cookie the response sets, as `name=value`.
    pub fn cookie(&self) -> Option<String> {
        let set = self.header("set-cookie")?;
        Some(set.split(';').next()?.trim().to_owned())
    }

    /// The page's CSRF token.
    pub fn csrf(&self) -> Option<String> {
        let at = self.body.find(r#"name="csrf" value=""#)? + r#"name="csrf" value=""#.len();
        let end = self.body[at..].find('"')?;
        Some(self.body[at..at + end].to_owned())
    }
}

/// A request being written.
#[derive(Debug, Clone)]
pub struct Req {
    method: &'static str,
    path: String,
    host: Option<String>,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// The `Content-Length` to declare, if not the body's.
    length: Option<usize>,
    /// Sends the body chunked, with no `Content-Length`.
    chunked: bool,
}

impl Req {
    pub fn get(path: &str) -> Self {
        Self::new("GET", path)
    }

    pub fn post(path: &str, body: impl Into<Vec<u8>>) -> Self {
        let mut req = Self::new("POST", path);
        req.body = body.into();
        req.header("content-type", "application/x-www-form-urlencoded")
    }

    pub fn new(method: &'static str, path: &str) -> Self {
        Self {
            method,
            path: path.to_owned(),
            host: None,
            headers: Vec::new(),
            body: Vec::new(),
            length: None,
            chunked: false,
        }
    }

    /// Sends this `Host` instead of the server's address.
    pub fn host(mut self, host: &str) -> Self {
        self.host = Some(host.to_owned());
        self
    }

    /// Adds a header, or replaces one of the same name.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// What a browser sends with a post from the page itself.
    pub fn same_origin(self, addr: SocketAddr) -> Self {
        self.header("sec-fetch-site", "same-origin")
            .header("origin", &format!("http://{addr}"))
    }

    /// Declares this `Content-Length` whatever the body is.
    pub fn declare_length(mut self, length: usize) -> Self {
        self.length = Some(length);
        self
    }

    /// Sends the body as one chunk (`Transfer-Encoding: chunked`), so its
    /// size is known only once it is read.
    pub fn chunked(mut self) -> Self {
        self.chunked = true;
        self
    }

    /// The request's bytes.
    pub fn bytes(&self, addr: SocketAddr) -> Vec<u8> {
        let host = self.host.clone().unwrap_or_else(|| addr.to_string());
        let mut head = format!(
            "{} {} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n",
            self.method, self.path
        );
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if self.chunked {
            head.push_str("transfer-encoding: chunked\r\n\r\n");
            head.push_str(&format!("{:x}\r\n", self.body.len()));
            let mut bytes = head.into_bytes();
            bytes.extend_from_slice(&self.body);
            bytes.extend_from_slice(b"\r\n0\r\n\r\n");
            return bytes;
        }
        if self.method == "POST" {
            let length = self.length.unwrap_or(self.body.len());
            head.push_str(&format!("content-length: {length}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
    }

    /// Sends it on a new connection and reads the whole response.
    pub fn send(&self, addr: SocketAddr) -> Reply {
        let mut stream = TcpStream::connect(addr).expect("connect to the page server");
        stream.set_read_timeout(Some(DEADLINE)).unwrap();
        stream
            .write_all(&self.bytes(addr))
            .expect("write the request");
        read_reply(&mut stream)
    }
}

/// Reads one response until the server closes the connection.
pub fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the response");
    parse(&raw)
        .unwrap_or_else(|| panic!("not an HTTP response: {:?}", String::from_utf8_lossy(&raw)))
}

fn parse(raw: &[u8]) -> Option<Reply> {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Some(Reply {
        status,
        headers,
        body: body.to_owned(),
    })
}
