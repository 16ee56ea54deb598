//! A W3C WebDriver client for the browser tests: the dozen commands they
//! send to a chromedriver on loopback, each one blocking HTTP/1.1 exchange
//! (`Connection: close`) with JSON in and out. What a WebDriver crate would
//! add (an async runtime, its own HTTP stack, ICU's text segmentation for
//! key input) these tests do not use.

use std::fmt;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use base64::Engine as _;
use serde_json::{Value, json};

/// The key WebDriver names an element reference by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A WebDriver error: its code (`"stale element reference"`, ...) and
/// message, or what went wrong on the way to the driver.
#[derive(Debug)]
pub struct Error {
    pub error: String,
    pub message: String,
}

impl Error {
    fn local(message: impl fmt::Display) -> Self {
        Self {
            error: "client".to_owned(),
            message: message.to_string(),
        }
    }

    /// The element's document was replaced (a navigation, a post's answer).
    pub fn is_stale(&self) -> bool {
        self.error == "stale element reference"
            // Chromium's other word for it, when the document was replaced
            // between two of chromedriver's own steps.
            || self.message.contains("does not belong to the document")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.error, self.message)
    }
}

/// An element of the page, as the driver names it.
#[derive(Debug, Clone)]
pub struct Element(String);

/// A cookie of the browser.
#[derive(Debug, Clone)]
pub struct Cookie {
    pub name: String,
    pub value: String,
}

/// One session of a WebDriver server.
#[derive(Debug)]
pub struct Session {
    driver: SocketAddr,
    id: String,
    /// How long one command may take.
    timeout: Duration,
}

impl Session {
    /// A new session with `capabilities` (`alwaysMatch`), on the driver at
    /// `driver`, within `start` (a browser's start is slow); each later
    /// command within `timeout`.
    pub fn new(
        driver: SocketAddr,
        capabilities: Value,
        start: Duration,
        timeout: Duration,
    ) -> Result<Self, Error> {
        let body = json!({ "capabilities": { "alwaysMatch": capabilities } });
        let value = exchange(driver, "POST", "/session", Some(&body), start)?;
        let id = value["sessionId"]
            .as_str()
            .ok_or_else(|| Error::local(format!("no sessionId in {value}")))?
            .to_owned();
        Ok(Self {
            driver,
            id,
            timeout,
        })
    }

    fn command(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, Error> {
        let path = format!("/session/{}{path}", self.id);
        exchange(self.driver, method, &path, body, self.timeout)
    }

    fn get(&self, path: &str) -> Result<Value, Error> {
        self.command("GET", path, None)
    }

    fn post(&self, path: &str, body: &Value) -> Result<Value, Error> {
        self.command("POST", path, Some(body))
    }

    /// Opens `url`; returns once the page has loaded.
    pub fn goto(&self, url: &str) -> Result<(), Error> {
        self.post("/url", &json!({ "url": url })).map(drop)
    }

    /// The address of the page shown.
    pub fn current_url(&self) -> Result<String, Error> {
        string(self.get("/url")?)
    }

    /// The first element `css` selects (an error if none does).
    pub fn find(&self, css: &str) -> Result<Element, Error> {
        let found = self.post("/element", &locator(css))?;
        element(&found)
    }

    /// Every element `css` selects.
    pub fn find_all(&self, css: &str) -> Result<Vec<Element>, Error> {
        match self.post("/elements", &locator(css))? {
            Value::Array(found) => found.iter().map(element).collect(),
            other => Err(Error::local(format!("not a list of elements: {other}"))),
        }
    }

    /// Empties an input.
    pub fn clear(&self, element: &Element) -> Result<(), Error> {
        self.post(&format!("/element/{}/clear", element.0), &json!({}))
            .map(drop)
    }

    /// Types `text` into an element, key by key.
    pub fn send_keys(&self, element: &Element, text: &str) -> Result<(), Error> {
        self.post(
            &format!("/element/{}/value", element.0),
            &json!({ "text": text }),
        )
        .map(drop)
    }

    /// Clicks an element.
    pub fn click(&self, element: &Element) -> Result<(), Error> {
        self.post(&format!("/element/{}/click", element.0), &json!({}))
            .map(drop)
    }

    /// A DOM property of an element, as text (`None` if it has none).
    pub fn property(&self, element: &Element, name: &str) -> Result<Option<String>, Error> {
        Ok(
            match self.get(&format!("/element/{}/property/{name}", element.0))? {
                Value::Null => None,
                Value::String(text) => Some(text),
                other => Some(other.to_string()),
            },
        )
    }

    /// An element's tag name: an error once its document was replaced.
    pub fn tag_name(&self, element: &Element) -> Result<String, Error> {
        string(self.get(&format!("/element/{}/name", element.0))?)
    }

    /// An element's rendered text.
    pub fn text(&self, element: &Element) -> Result<String, Error> {
        string(self.get(&format!("/element/{}/text", element.0))?)
    }

    /// Runs `script` in the page; what it returns.
    pub fn execute(&self, script: &str) -> Result<Value, Error> {
        self.post("/execute/sync", &json!({ "script": script, "args": [] }))
    }

    /// The page's HTML as the browser holds it now.
    pub fn source(&self) -> Result<String, Error> {
        string(self.get("/source")?)
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Result<Vec<u8>, Error> {
        let encoded = string(self.get("/screenshot")?)?;
        base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|e| Error::local(format!("the screenshot is not base64: {e}")))
    }

    /// The cookies the browser holds for the page shown.
    pub fn cookies(&self) -> Result<Vec<Cookie>, Error> {
        let Value::Array(cookies) = self.get("/cookie")? else {
            return Err(Error::local("not a list of cookies"));
        };
        Ok(cookies
            .iter()
            .map(|cookie| Cookie {
                name: cookie["name"].as_str().unwrap_or_default().to_owned(),
                value: cookie["value"].as_str().unwrap_or_default().to_owned(),
            })
            .collect())
    }

    /// Ends the session (and so the browser).
    pub fn close(&self) -> Result<(), Error> {
        self.command("DELETE", "", None).map(drop)
    }
}

fn locator(css: &str) -> Value {
    json!({ "using": "css selector", "value": css })
}

fn element(value: &Value) -> Result<Element, Error> {
    value[ELEMENT]
        .as_str()
        .map(|id| Element(id.to_owned()))
        .ok_or_else(|| Error::local(format!("not an element: {value}")))
}

fn string(value: Value) -> Result<String, Error> {
    match value {
        Value::String(text) => Ok(text),
        other => Err(Error::local(format!("not a string: {other}"))),
    }
}

/// One command: its reply's `value`, or the error the driver answered.
fn exchange(
    driver: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<Value, Error> {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut stream = TcpStream::connect(driver).map_err(Error::local)?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(Error::local)?;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {driver}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).map_err(Error::local)?;
    // chromedriver may keep the connection open: the reply is read until
    // it is whole, not until the connection closes.
    let mut raw = Vec::new();
    let mut chunk = [0; 16 * 1024];
    let (status, json) = loop {
        if let Some(whole) = reply(&raw) {
            break whole;
        }
        match stream.read(&mut chunk) {
            Ok(0) => {
                return Err(Error::local(format!(
                    "{method} {path}: the reply ended early: {}",
                    String::from_utf8_lossy(&raw)
                )));
            }
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            Err(e) => {
                return Err(Error::local(format!(
                    "{method} {path}: no answer within {timeout:?}: {e}"
                )));
            }
        }
    };
    let mut json: Value = serde_json::from_slice(&json)
        .map_err(|e| Error::local(format!("{method} {path}: not JSON ({e})")))?;
    let value = json["value"].take();
    if status == 200 {
        return Ok(value);
    }
    Err(Error {
        error: value["error"]
            .as_str()
            .unwrap_or("unknown error")
            .to_owned(),
        message: value["message"].as_str().unwrap_or_default().to_owned(),
    })
}

/// The status and body of an HTTP/1.1 reply, once `raw` holds all of it
/// (by its `Content-Length`, or its chunks put together).
fn reply(raw: &[u8]) -> Option<(u16, Vec<u8>)> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let mut body = &raw[end + 4..];
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let (mut length, mut chunked) = (None, false);
    for (name, value) in lines.filter_map(|line| line.split_once(':')) {
        if name.eq_ignore_ascii_case("content-length") {
            length = value.trim().parse::<usize>().ok();
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.trim().eq_ignore_ascii_case("chunked");
        }
    }
    if !chunked {
        return Some((status, body.get(..length?)?.to_vec()));
    }
    let mut whole = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&body[..line_end]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Some((status, whole));
        }
        whole.extend_from_slice(body.get(..size)?);
        body = body.get(size + 2..)?;
    }
}
