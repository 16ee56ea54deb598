//! Counting refusals without a metrics stack (feature `tracing`,
//! `elicit_core::trace`): a `tracing_subscriber::Layer` of a few lines
//! reads the `reason` field of each event elicit emits (the closed set in
//! `elicit_core::trace`'s table of reasons) and counts it. Export the counts however you export counters (a
//! `/metrics` endpoint, a periodic log line); here they are printed.
//!
//! To have something to count, it opens loopback sensitive pages with a cap
//! of one, opens a second (`page_cap`), and sends the page server what an
//! attacker would: another host's name (`wrong_host`), a guessed id
//! (`page_unknown`), a post from no page at all (`cross_site_post`), and a
//! post without the binding cookie (`other_browser`).
//!
//! ```sh
//! cargo run --example count_reasons
//! RUST_LOG=elicit_core=info cargo run --example count_reasons   # the events too
//! ```

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};

use elicit_core::Elicit;
use elicit_core::sensitive::{Pages, SecretString};
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt as _};
use tracing_subscriber::util::SubscriberInitExt as _;

/// Counts each event's `reason` (with its level), whatever the level.
#[derive(Clone, Default)]
struct ReasonCounter(Arc<Mutex<BTreeMap<(String, tracing::Level), u64>>>);

impl<S: tracing::Subscriber> Layer<S> for ReasonCounter {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        /// The value of the field `reason`.
        struct Find(Option<String>);
        impl Visit for Find {
            fn record_str(&mut self, field: &Field, value: &str) {
                if field.name() == "reason" {
                    self.0 = Some(value.to_owned());
                }
            }
            fn record_debug(&mut self, _: &Field, _: &dyn std::fmt::Debug) {}
        }
        // elicit's events only: another crate's `reason` is not one of them.
        if !event.metadata().target().starts_with("elicit_core") {
            return;
        }
        let mut find = Find(None);
        event.record(&mut find);
        if let Some(reason) = find.0 {
            let key = (reason, *event.metadata().level());
            *self.0.lock().unwrap().entry(key).or_default() += 1;
        }
    }
}

/// A token to connect a service.
#[derive(Elicit)]
#[elicit(sensitive)]
struct Token {
    /// The service's API token.
    #[secret]
    #[allow(dead_code)] // never answered here
    token: SecretString,
}

/// Sends `request` (a whole HTTP/1.1 request) to `addr`; the status.
fn send(addr: SocketAddr, request: &str) -> std::io::Result<u16> {
    let mut stream = TcpStream::connect(addr)?;
    stream.write_all(request.as_bytes())?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply)?;
    Ok(reply
        .split(' ')
        .nth(1)
        .and_then(|status| status.parse().ok())
        .unwrap_or(0))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let counter = ReasonCounter::default();
    let log = std::env::var_os("RUST_LOG").is_some().then(|| {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_filter(tracing_subscriber::EnvFilter::from_default_env())
    });
    tracing_subscriber::registry()
        .with(counter.clone())
        .with(log)
        .init();

    let pages = Pages::loopback().max_open(1).build();
    let page = futures::executor::block_on(pages.open::<Token>("Connect the service."))?;
    // The cap: one open page.
    let second = futures::executor::block_on(pages.open::<Token>("Another."));
    assert!(second.is_err(), "the cap is one page");
    let addr = pages.local_addr().ok_or("the loopback server")?;
    let path = page
        .url()
        .strip_prefix(&format!("http://{addr}"))
        .ok_or("a page of this server")?
        .to_owned();
    let form = "content-type: application/x-www-form-urlencoded\r\ncontent-length: 7\r\n";
    for request in [
        format!("GET {path} HTTP/1.1\r\nhost: rebound.example\r\nconnection: close\r\n\r\n"),
        format!(
            "GET /elicit/{} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n",
            "0".repeat(32)
        ),
        format!(
            "POST {path} HTTP/1.1\r\nhost: {addr}\r\norigin: https://evil.example\r\n{form}connection: close\r\n\r\ntoken=x"
        ),
        format!(
            "POST {path} HTTP/1.1\r\nhost: {addr}\r\nsec-fetch-site: same-origin\r\n{form}connection: close\r\n\r\ntoken=x"
        ),
    ] {
        println!(
            "{} -> {}",
            request.lines().next().unwrap_or(""),
            send(addr, &request)?
        );
    }
    drop(page);

    println!("\nrefusals and failures, by reason:");
    for ((reason, level), count) in counter.0.lock().unwrap().iter() {
        println!("  {reason:<18} {level:<5} {count}");
    }
    Ok(())
}
