//! One replica of a hosted MCP server (Streamable HTTP, MCP 2026-07-28,
//! stateless): run several behind a load balancer, on one Redis. Its tools,
//! `#[tool]` functions listed by `tools/list`: `connect` asks for a token on
//! a page of the server's own (a sensitive form), and `deploy` for a form
//! (the load test's flow), each through an `Ask`, in
//! input-required rounds; any replica serves any round and any
//! page, because the rounds' state travels in `requestState` (sealed with
//! a keyring every replica shares, used once across replicas in Redis) and
//! the page lives in Redis (its secret sealed).
//!
//! A user's `src/main.rs` as it is, with these `[dependencies]`, the redis
//! guide's (`elicit_core::redis`; tests/user-crates/replica builds it from
//! them alone, outside this workspace):
//!
//! ```toml
//! [dependencies]
//! elicit-core = { path = "../elicit/elicit-core", features = ["rmcp", "sensitive", "redis", "tracing"] }
//! rmcp = { version = "3.11", features = ["server", "request-state", "transport-streamable-http-server"] }
//! tokio = { version = "1", features = ["macros", "rt", "net"] }
//! hyper = { version = "1", features = ["server", "http1"] }
//! hyper-util = { version = "0.1", features = ["tokio"] }
//! http = "1"
//! http-body-util = "0.1"
//! tower-service = "0.3"
//! tracing-subscriber = { version = "0.3", features = ["env-filter"] }
//! ```
//!
//! ```text
//! replica --port 8101 --redis redis://127.0.0.1:6379/ --public http://127.0.0.1:8100
//! replica --port 8101 --redis redis://10.0.0.1:7000,redis://10.0.0.2:7000 --public ...
//! ```
//!
//! `--redis`: one Redis, or a Redis Cluster's nodes (comma-separated; the
//! others are found from them). `/ready` is the balancer's health check:
//! `503` while a Redis master lacks the replicas writes wait for (the
//! reason in the log, said at start too).
//!
//! `--public` is the balancer's address: the pages' URLs point there.
//! The keys come from the environment, the same on every replica (64 hex
//! digits each): `ELICIT_STATE_KEY` (the `requestState` keyring),
//! `ELICIT_SEALING_KEY` (what Redis must not read) and `ELICIT_CALL_KEY`
//! (the pages of MCP 2025-11-25 calls, which have no session here and get
//! `-32042`). Users authenticate
//! with a token, as a bearer token (the MCP client) or a `session` cookie
//! (their browser, on the pages, set by `/signin?token=..`):
//! `ELICIT_USERS=token-a:alice,token-b:bob` (a simple verifier; a real
//! server asks its identity provider). One port, routed by path with
//! hyper alone (the redis guide's "The pages and MCP on one port"): `/mcp`
//! is rmcp's Streamable HTTP service, `/signin` the sign-in, anything else
//! the pages (`/elicit/<id>`, nothing stripped). Tests:
//! `tests/it/deploy.rs`.

use std::sync::Arc;

use elicit_core::Elicit;
use elicit_core::mcp::{Ask, Asked, RoundsConfig, routed};
use elicit_core::protocol::agent::VerifiedUser;
use elicit_core::redis::{Redis, RedisStore, RedisUsedStates, SealingKeys};
use elicit_core::sensitive::{ExposeSecret, Pages, SecretOutcome, SecretString};
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::body::{Bytes, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, ErrorData};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use tower_service::Service;

/// The token the tool asks for, on the server's page.
#[derive(Elicit, Debug)]
#[elicit(sensitive)]
struct DeployToken {
    /// From the deploy service's settings.
    #[secret]
    #[elicit(length(min = 12))]
    token: SecretString,
}

/// The form the tool `deploy` asks for (the load test's flow: two rounds).
#[derive(Elicit, Debug)]
struct Deploy {
    /// Which environment to deploy to.
    env: Environment,
    /// How many replicas.
    #[elicit(range(min = 1, max = 16), default = 2)]
    replicas: u8,
}

/// Where to deploy.
#[derive(Elicit, Debug)]
enum Environment {
    Staging,
    Production,
}

/// Bearer tokens and their users.
type Users = Arc<Vec<(String, String)>>;

/// The user of a request, by its `Authorization: Bearer` token (the MCP
/// client) or its `session` cookie (the user's browser, on the pages).
fn user_of(users: &Users, parts: &http::request::Parts) -> Option<String> {
    let bearer = parts
        .headers
        .get(http::header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "));
    let session = || {
        parts
            .headers
            .get_all(http::header::COOKIE)
            .iter()
            .filter_map(|h| h.to_str().ok())
            .flat_map(|h| h.split(';'))
            .find_map(|c| c.trim().strip_prefix("session="))
    };
    let token = bearer.or_else(session)?;
    users
        .iter()
        .find(|(t, _)| t == token)
        .map(|(_, user)| user.clone())
}

#[derive(Clone)]
struct Replica {
    name: String,
    config: RoundsConfig,
    pages: Pages,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Replica {
    /// `deploy`: a form, in rounds (the load test's flow).
    #[tool(description = "Deploys; asks the user where to, and how many replicas.")]
    async fn deploy(&self, ask: Ask) -> Result<CallToolResponse, ErrorData> {
        let asked = ask.run(&self.config, |r| async move {
            Some(match r.form::<Deploy>("deploy", "Deploy where?").await? {
                Ok(outcome) => format!("{outcome:?}"),
                // The client gets a short, stable text; the cause is in
                // the log (elicit's event, with its reason).
                Err(error) => format!("not deployed: {}", error.client_message()),
            })
        });
        self.answered(asked.await?)
    }

    /// `connect`: a token, on a page of the server's own.
    #[tool(description = "Connects to the deploy service; asks the user for a token on a page.")]
    async fn connect(&self, ask: Ask) -> Result<CallToolResponse, ErrorData> {
        let pages = &self.pages;
        // The replica in the message: the tests see which one asked.
        let message = format!("Paste your deploy token (asked by {}).", self.name);
        let message = &message;
        let asked = ask.run(&self.config, |r| async move {
            Some(
                match r
                    .secret::<DeployToken>("token", message.clone(), pages)
                    .await?
                {
                    Ok(SecretOutcome::Answered(t)) => {
                        format!(
                            "connected with a token of {} characters",
                            t.token.expose_secret().len()
                        )
                    }
                    Ok(other) => format!("not connected: {other:?}"),
                    Err(error) => format!("not connected: {}", error.client_message()),
                },
            )
        });
        self.answered(asked.await?)
    }
}

impl Replica {
    /// The tool's result once answered (the replica that answered the last
    /// round in it), or the round to return.
    fn answered(&self, asked: Asked<String>) -> Result<CallToolResponse, ErrorData> {
        Ok(match asked {
            Asked::Answered(text) => {
                let text = format!("{text} (round answered by {})", self.name);
                CallToolResult::success(vec![ContentBlock::text(text)]).into()
            }
            Asked::Respond(response) => response,
        })
    }
}

#[tool_handler(router = routed(&self.tool_router))]
impl ServerHandler for Replica {}

/// `/signin?token=..`: the browser's session, as a login would set it (a
/// stand-in for the server's own sign-in).
fn sign_in(users: &Users, query: &str) -> http::Response<BoxBody<Bytes, std::convert::Infallible>> {
    let token = query.strip_prefix("token=").unwrap_or_default();
    let known = users.iter().any(|(t, _)| t == token);
    let mut response = http::Response::new(
        http_body_util::Full::new(Bytes::from_static(if known {
            b"signed in"
        } else {
            b"unknown"
        }))
        .boxed(),
    );
    if known {
        let cookie = format!("session={token}; Path=/; HttpOnly; SameSite=Lax");
        response.headers_mut().insert(
            http::header::SET_COOKIE,
            cookie.parse().expect("a header value"),
        );
    } else {
        *response.status_mut() = http::StatusCode::FORBIDDEN;
    }
    response
}

fn hex_key(name: &str) -> [u8; 32] {
    let text = std::env::var(name).unwrap_or_else(|_| panic!("{name} (64 hex digits) is required"));
    let mut key = [0u8; 32];
    assert_eq!(text.len(), 64, "{name}: 64 hex digits");
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).expect("hex digits");
    }
    key
}

/// `/ready`, the balancer's health check: `200` while every step can
/// count, `503` (the reason in this replica's log, not in the answer)
/// while a Redis master lacks the replicas asked for, or Redis does not
/// answer.
async fn ready(redis: &Redis) -> http::Response<BoxBody<Bytes, std::convert::Infallible>> {
    let (status, text) = match redis.ready().await {
        Ok(()) => (http::StatusCode::OK, "ready\n"),
        Err(why) => {
            eprintln!("replica not ready ({}): {why}", why.reason());
            (http::StatusCode::SERVICE_UNAVAILABLE, "not ready\n")
        }
    };
    let mut response =
        http::Response::new(http_body_util::Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The log (feature `tracing`, `elicit_core::trace`): on stderr when
    // `RUST_LOG` is set, e.g. `RUST_LOG=info,rmcp=error,elicit_core=debug`.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_default_env() {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init();
    }
    let args: Vec<String> = std::env::args().collect();
    let arg = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
            .unwrap_or_else(|| panic!("usage: replica --port P --redis URL --public URL"))
    };
    let port: u16 = arg("--port").parse()?;
    let public = arg("--public");
    let name = format!("replica :{port}");
    let users: Users = Arc::new(
        std::env::var("ELICIT_USERS")
            .unwrap_or_default()
            .split(',')
            .filter_map(|pair| pair.split_once(':'))
            .map(|(token, user)| (token.to_owned(), user.to_owned()))
            .collect(),
    );

    // Every replica: the same Redis, the same keys (from your secret
    // store), the same user verification. `--redis` names one Redis, or a
    // Redis Cluster's nodes, comma-separated (the redis guide's topology:
    // two replicas per master).
    let nodes = arg("--redis");
    let redis = if nodes.contains(',') {
        Redis::cluster(nodes.split(','))?
    } else {
        Redis::open(&nodes)?
    };
    // Whether writes can count (each master with the replicas asked for):
    // said at start, and served as `/ready` for the balancer.
    match redis.ready().await {
        Ok(()) => eprintln!("replica ready"),
        Err(why) => eprintln!("replica not ready ({}): {why}", why.reason()),
    }
    let verifier_users = users.clone();
    let pages = Pages::hosted(
        &format!("{public}/elicit"),
        move |parts: &http::request::Parts| user_of(&verifier_users, parts).map(VerifiedUser::new),
    )?
    .store(RedisStore::new(
        redis.clone(),
        SealingKeys::new(1, hex_key("ELICIT_SEALING_KEY")),
    ))
    .build();
    // A keyring (one key, id "1"): add a key to rotate it while replicas run.
    let codec = rmcp::model::RequestStateCodec::new_with_keyring(
        "1",
        [("1", hex_key("ELICIT_STATE_KEY"))],
    )?;
    let principal_users = users.clone();
    let config = RoundsConfig::new(codec)
        .principal(move |context| {
            context
                .extensions
                .get::<http::request::Parts>()
                .and_then(|parts| user_of(&principal_users, parts))
                .unwrap_or_default()
        })
        .used_states(RedisUsedStates::new(redis.clone()))
        // MCP 2025-11-25 clients: no session, so a page is asked with -32042.
        .without_sessions(hex_key("ELICIT_CALL_KEY"));
    let replica = Replica {
        name,
        config,
        pages: pages.clone(),
        tool_router: Replica::tool_router(),
    };
    let mut http = StreamableHttpServerConfig::default();
    http.legacy_session_mode = false;
    http.json_response = true;
    let mcp = StreamableHttpService::new(
        move || Ok(replica.clone()),
        Arc::new(LocalSessionManager::default()),
        http,
    );

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!("replica listening on 127.0.0.1:{port}");
    loop {
        let (stream, _) = listener.accept().await?;
        let (mcp, pages, users) = (mcp.clone(), pages.clone(), users.clone());
        let redis = redis.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request: http::Request<Incoming>| {
                let (mut mcp, mut pages, users) = (mcp.clone(), pages.service(), users.clone());
                let redis = redis.clone();
                async move {
                    let response: http::Response<BoxBody<Bytes, std::convert::Infallible>> =
                        if request.uri().path().starts_with("/mcp") {
                            mcp.call(request).await?
                        } else if request.uri().path() == "/ready" {
                            ready(&redis).await
                        } else if request.uri().path() == "/signin" {
                            sign_in(&users, request.uri().query().unwrap_or_default())
                        } else {
                            pages.call(request).await?.map(|body| body.boxed())
                        };
                    Ok::<_, std::convert::Infallible>(response)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
