//! Feature `redis`: load through the balancer of `deploy.rs`. Concurrent
//! users, each with a bearer token of their own, run the replica's form
//! tool `deploy` (two rounds of MCP 2026-07-28, raw JSON-RPC over
//! Streamable HTTP) and its secret page `connect` (round one, the page's
//! view and post through the balancer, round two). Every flow is checked
//! to end with the answer sent; Redis's own command count says what each
//! round costs there.
//!
//! `.ci/run` runs a small load (`a_small_load_completes_every_flow_...`):
//! it checks the flows and the Redis commands per round, never a timing.
//! The figures of BENCHMARKS.md ("Several replicas under load") come from
//! the ignored test, built with optimizations:
//!
//! ```text
//! cargo test --release --all-features --test it load::figures -- --ignored --nocapture
//! ```

use std::cell::RefCell;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};

use crate::common::redis::Monitor;
use crate::deploy::{Deployment, Setup, deploy_with};

/// What one load runs.
#[derive(Clone, Copy)]
struct Load {
    replicas: usize,
    /// Concurrent users, each running flows one after the other.
    users: usize,
    /// Form flows in all (two rounds each).
    forms: usize,
    /// Secret-page flows in all.
    pages: usize,
}

/// What one load measured.
#[derive(Debug, Default)]
struct Measured {
    /// Wall time of the form flows.
    forms_took: Duration,
    round_one: Vec<Duration>,
    round_two: Vec<Duration>,
    view: Vec<Duration>,
    post: Vec<Duration>,
    /// Redis commands during the form flows, and during the page flows
    /// (counted by `MONITOR`, a Lua script one command), when counted.
    form_commands: Option<u64>,
    page_commands: Option<u64>,
    /// Redis's `used_memory` growth over the form flows.
    form_memory: i64,
    /// Flows that did not end as expected, with why.
    failures: Vec<String>,
}

type Http = Client<HttpConnector, Full<Bytes>>;

/// One user's side: their token, and the balancer's address.
struct User<'a> {
    http: &'a Http,
    base: &'a str,
    token: String,
}

impl User<'_> {
    /// `tools/call` of `tool`, with `responses` and `state` from the round
    /// before (none on the first).
    async fn call(&self, tool: &str, responses: Option<Value>, state: Option<&str>) -> Value {
        let mut params = json!({
            "name": tool,
            "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}, "url": {}}},
                "io.modelcontextprotocol/clientInfo": {"name": "elicit-load", "version": "0"}
            }
        });
        if let Some(responses) = responses {
            params["inputResponses"] = responses;
        }
        if let Some(state) = state {
            params["requestState"] = json!(state);
        }
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
        let request = http::Request::post(format!("{}/mcp", self.base))
            .header("authorization", format!("Bearer {}", self.token))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", tool)
            .body(Full::new(Bytes::from(body.to_string())))
            .unwrap();
        let (_, bytes) = self.send(request).await;
        serde_json::from_slice(&bytes).unwrap_or(Value::Null)
    }

    async fn send(&self, request: http::Request<Full<Bytes>>) -> (http::response::Parts, Bytes) {
        match self.http.request(request).await {
            Ok(response) => {
                let (parts, body) = response.into_parts();
                let bytes = body
                    .collect()
                    .await
                    .map(|b| b.to_bytes())
                    .unwrap_or_default();
                (parts, bytes)
            }
            Err(error) => {
                let mut failed = http::Response::new(());
                *failed.status_mut() = http::StatusCode::BAD_GATEWAY;
                (failed.into_parts().0, Bytes::from(error.to_string()))
            }
        }
    }

    /// A form flow: round one asks, round two answers. The two rounds'
    /// times, or why it failed.
    async fn form(&self) -> Result<(Duration, Duration), String> {
        let started = Instant::now();
        let asked = self.call("deploy", None, None).await;
        let one = started.elapsed();
        let state = asked["result"]["requestState"]
            .as_str()
            .ok_or_else(|| format!("round one: {asked}"))?;
        let started = Instant::now();
        let responses =
            json!({"deploy": {"action": "accept", "content": {"env": "Staging", "replicas": 3}}});
        let done = self.call("deploy", Some(responses), Some(state)).await;
        let two = started.elapsed();
        let text = done["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        if !text.starts_with("Accepted(Deploy { env: Staging, replicas: 3 })") {
            return Err(format!("round two: {done}"));
        }
        Ok((one, two))
    }

    /// A secret page flow: round one opens the page; the user views and
    /// posts it through the balancer; round two reads the answer. The
    /// view's and the post's times, or why it failed.
    async fn page(&self) -> Result<(Duration, Duration), String> {
        let asked = self.call("connect", None, None).await;
        let result = &asked["result"];
        let (Some(state), Some(url)) = (
            result["requestState"].as_str(),
            result["inputRequests"]["token"]["params"]["url"].as_str(),
        ) else {
            return Err(format!("round one: {asked}"));
        };
        let started = Instant::now();
        let view = http::Request::get(url)
            .header("authorization", format!("Bearer {}", self.token))
            .body(Full::default())
            .unwrap();
        let (parts, html) = self.send(view).await;
        let viewed = started.elapsed();
        let html = String::from_utf8_lossy(&html);
        let cookie = parts
            .headers
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .unwrap_or_default()
            .to_owned();
        let csrf = html
            .find(r#"name="csrf" value=""#)
            .and_then(|at| html.get(at + 19..at + 51))
            .ok_or_else(|| format!("the page ({}): {html}", parts.status))?;
        let started = Instant::now();
        let post = http::Request::post(url)
            .header("authorization", format!("Bearer {}", self.token))
            .header("cookie", cookie)
            .header("origin", self.base)
            .header("sec-fetch-site", "same-origin")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Full::new(Bytes::from(format!(
                "csrf={csrf}&token=tok-0123456789abc"
            ))))
            .unwrap();
        let (parts, _) = self.send(post).await;
        let posted = started.elapsed();
        if parts.status != 200 {
            return Err(format!("the post: {}", parts.status));
        }
        let done = self
            .call(
                "connect",
                Some(json!({"token": {"action": "accept"}})),
                Some(state),
            )
            .await;
        let text = done["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        if !text.starts_with("connected with a token of 17 characters") {
            return Err(format!("round two: {done}"));
        }
        Ok((viewed, posted))
    }
}

/// Redis's `INFO` field `name` (a command: not inside a counted span).
fn info(deployment: &Deployment, name: &str) -> i64 {
    let client = redis::Client::open(deployment.redis.url()).unwrap();
    let mut connection = client.get_connection().unwrap();
    let info: String = redis::cmd("INFO").query(&mut connection).unwrap();
    info.lines()
        .find_map(|line| line.strip_prefix(&format!("{name}:")))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in INFO"))
}

/// Runs `load` against a fresh deployment, or `None` where the services
/// are not installed and not required.
fn run(load: Load, count_commands: bool) -> Option<Measured> {
    let users: Vec<String> = (0..load.users).map(|i| format!("load-{i}")).collect();
    let deployment = deploy_with(&Setup {
        replicas: load.replicas,
        users: users
            .iter()
            .enumerate()
            .map(|(i, token)| format!("{token}:user{i}"))
            .collect::<Vec<_>>()
            .join(","),
        keep_alive: true,
        clock_offsets: Vec::new(),
    })?;
    let base = format!("http://127.0.0.1:{}", deployment.port);
    let runtime = crate::rmcp::runtime();
    let measured = RefCell::new(Measured::default());
    runtime.block_on(async {
        let http: Http = Client::builder(TokioExecutor::new())
            .pool_max_idle_per_host(load.users)
            .build_http();
        let users: Vec<User<'_>> = users
            .into_iter()
            .map(|token| User {
                http: &http,
                base: &base,
                token,
            })
            .collect();
        // Warm-up: each user's connection, and the replicas' scripts.
        for user in &users {
            let _ = user.form().await;
        }

        // Form flows, each user in turn until all ran (counted by a
        // shared ticket).
        let memory = info(&deployment, "used_memory");
        let monitor = count_commands.then(|| Monitor::start(&deployment.redis));
        let ticket = std::cell::Cell::new(0);
        let started = Instant::now();
        futures::future::join_all(users.iter().map(|user| async {
            while ticket.replace(ticket.get() + 1) < load.forms {
                match user.form().await {
                    Ok((one, two)) => {
                        let mut m = measured.borrow_mut();
                        m.round_one.push(one);
                        m.round_two.push(two);
                    }
                    Err(why) => measured.borrow_mut().failures.push(why),
                }
            }
        }))
        .await;
        {
            let mut m = measured.borrow_mut();
            m.forms_took = started.elapsed();
            m.form_commands = monitor.as_ref().map(Monitor::mark);
            m.form_memory = info(&deployment, "used_memory") - memory;
        }
        if let Some(monitor) = &monitor {
            monitor.mark();
        }
        let ticket = std::cell::Cell::new(0);
        futures::future::join_all(users.iter().map(|user| async {
            while ticket.replace(ticket.get() + 1) < load.pages {
                match user.page().await {
                    Ok((view, post)) => {
                        let mut m = measured.borrow_mut();
                        m.view.push(view);
                        m.post.push(post);
                    }
                    Err(why) => measured.borrow_mut().failures.push(why),
                }
            }
        }))
        .await;
        measured.borrow_mut().page_commands = monitor.as_ref().map(Monitor::mark);
    });
    Some(measured.into_inner())
}

/// The `p`th percentile of `times` (nearest rank), in milliseconds.
fn percentile(times: &[Duration], p: usize) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort();
    let rank = (sorted.len() * p).div_ceil(100).max(1) - 1;
    sorted.get(rank).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// A small load through three replicas: every form flow and every page
/// flow ends with what its user sent, and no round costs Redis more than
/// three commands (a form flow: none in round one, the used-state record
/// in round two; a page flow: its page's insert, bind, end and read, the
/// used state).
#[test]
fn a_small_load_completes_every_flow_within_three_redis_commands_a_round() {
    let load = Load {
        replicas: 3,
        users: 8,
        forms: 120,
        pages: 16,
    };
    let Some(measured) = run(load, true) else {
        return;
    };
    assert!(measured.failures.is_empty(), "{:?}", measured.failures);
    assert_eq!(measured.round_two.len(), load.forms);
    assert_eq!(measured.post.len(), load.pages);
    let (forms, pages) = (
        measured.form_commands.unwrap(),
        measured.page_commands.unwrap(),
    );
    // Two rounds per form flow (round two records its used state): at
    // most three commands each, and at least that record per flow.
    let form_rounds = 2 * load.forms as u64;
    assert!(
        (load.forms as u64..=3 * form_rounds).contains(&forms),
        "{forms} commands for {form_rounds} rounds"
    );
    // Per page flow, two rounds, a view and a post: at most three each.
    assert!(
        pages <= 3 * 4 * load.pages as u64,
        "{pages} commands for {} page flows",
        load.pages
    );
    eprintln!(
        "small load: {forms} Redis commands for {form_rounds} form rounds, {pages} for {} page flows",
        load.pages
    );
}

/// The figures of BENCHMARKS.md: one and three replicas, the same load.
#[test]
#[ignore = "a benchmark: run with --release, see the module's docs"]
fn figures() {
    for replicas in [1, 3] {
        let load = Load {
            replicas,
            users: 32,
            forms: 10_000,
            pages: 2_000,
        };
        // The commands per round, counted on a small load (MONITOR slows
        // Redis down: the timed load runs without it).
        let Some(counted) = run(
            Load {
                forms: 200,
                pages: 40,
                ..load
            },
            true,
        ) else {
            return;
        };
        let Some(m) = run(load, false) else { return };
        assert!(
            m.failures.is_empty(),
            "{:?}",
            &m.failures[..m.failures.len().min(5)]
        );
        let rounds = 2 * load.forms;
        println!(
            "replicas {replicas}, users {}: {rounds} form rounds in {:.2} s = {:.0} rounds/s; \
             round one p50 {:.2} ms p99 {:.2} ms; round two p50 {:.2} ms p99 {:.2} ms; \
             Redis {:.2} commands/round, {:.0} B/flow; {} page flows: view p50 {:.2} ms p99 {:.2} ms, \
             post p50 {:.2} ms p99 {:.2} ms, Redis {:.1} commands/flow",
            load.users,
            m.forms_took.as_secs_f64(),
            rounds as f64 / m.forms_took.as_secs_f64(),
            percentile(&m.round_one, 50),
            percentile(&m.round_one, 99),
            percentile(&m.round_two, 50),
            percentile(&m.round_two, 99),
            counted.form_commands.unwrap_or(0) as f64 / 400.0,
            m.form_memory as f64 / load.forms as f64,
            load.pages,
            percentile(&m.view, 50),
            percentile(&m.view, 99),
            percentile(&m.post, 50),
            percentile(&m.post, 99),
            counted.page_commands.unwrap_or(0) as f64 / 40.0,
        );
    }
}
