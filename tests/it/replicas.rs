//! Feature `redis`: several replicas on one Redis (`redis-server` of the
//! test's own, `common::redis`). Each replica here is a `Pages` or a store
//! of its own, with its own connection, sharing only Redis and the keys,
//! as processes behind a load balancer would.

use std::time::{Duration, SystemTime};

use elicit_core::mcp::{StateId, UsedStates, UsedStatesError};
use elicit_core::protocol::agent::VerifiedUser;
use elicit_core::redis::{Redis, RedisStore, RedisUsedStates, SealingKeys};
use elicit_core::sensitive::store::{Answer, End, Record, State as PageState, Store, StoreError};
use elicit_core::sensitive::{
    ExposeSecret, Pages, PagesBuilder, SecretOutcome, SecretString, Submission,
};

use crate::common::Now;
use crate::common::redis::{Monitor, RedisServer, start};
use crate::common::sensitive::{Answer as _, Connect, SECRET};
use crate::sensitive_server::hosted::{builder as hosted, call, get};

/// The keys every replica of these tests shares.
fn keys() -> SealingKeys {
    SealingKeys::new(1, [7; 32])
}

/// A replica's hosted pages (and OAuth flows) on `server`'s Redis.
fn replica(server: &RedisServer) -> Pages {
    replica_builder(server).build()
}

/// [`replica`], before it is built (to change a setting).
fn replica_builder(server: &RedisServer) -> PagesBuilder {
    let redis = Redis::open(&server.url()).unwrap();
    hosted().store(RedisStore::new(redis, keys()))
}

/// Every value in `server`'s Redis, as bytes: what someone who reads Redis
/// finds.
fn dump(server: &RedisServer) -> Vec<Vec<u8>> {
    let client = redis::Client::open(server.url()).unwrap();
    let mut connection = client.get_connection().unwrap();
    let keys: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut connection).unwrap();
    let mut values = Vec::new();
    for key in keys {
        let kind: String = redis::cmd("TYPE").arg(&key).query(&mut connection).unwrap();
        let found: Vec<Vec<u8>> = match kind.as_str() {
            "string" => vec![redis::cmd("GET").arg(&key).query(&mut connection).unwrap()],
            "hash" => redis::cmd("HGETALL")
                .arg(&key)
                .query(&mut connection)
                .unwrap(),
            "list" => redis::cmd("LRANGE")
                .arg(&key)
                .arg(0)
                .arg(-1)
                .query(&mut connection)
                .unwrap(),
            "zset" => redis::cmd("ZRANGE")
                .arg(&key)
                .arg(0)
                .arg(-1)
                .query(&mut connection)
                .unwrap(),
            // Expired or deleted between `KEYS` and `TYPE`: nothing left
            // to read (a flow's keys expire while the test runs).
            "none" => continue,
            other => panic!("a key of type {other}: {key}"),
        };
        values.push(key.into_bytes());
        values.extend(found);
    }
    values
}

fn contains(values: &[Vec<u8>], needle: &str) -> bool {
    values
        .iter()
        .any(|value| value.windows(needle.len()).any(|w| w == needle.as_bytes()))
}

/// Alice's page, opened on replica A, is refused to Bob and answered by
/// Alice through replica B; the agent on A gets the answer. Redis holds no
/// secret, no binding cookie and no CSRF token in clear.
#[test]
fn a_page_opened_on_one_replica_is_answered_through_another() {
    let Some(server) = start() else { return };
    let (a, b) = (replica(&server), replica(&server));
    let alice = VerifiedUser::new("alice");
    let page = a.open_for::<Connect>(&alice, "Connect Acme").now().unwrap();
    let path = format!("/elicit/{}", page.id());
    let waiter = std::thread::spawn(move || futures::executor::block_on(page.answer()).answered());

    // Bob, on B: refused, no cookie.
    let refused = call(&b, get(&path, Some("bob")), "");
    assert_eq!(refused.status, 403);
    // Alice on B: the page, served from Redis.
    let shown = call(&b, get(&path, Some("alice")), "");
    assert_eq!(shown.status, 200);
    let cookie = shown.cookie();
    let csrf = shown.csrf();
    // She posts through A (any replica will do).
    let posted = call(
        &a,
        shown.post(&path, "alice", &cookie),
        &format!("csrf={csrf}&account=acme&token={SECRET}"),
    );
    assert_eq!(posted.status, 200);
    let connect = waiter.join().unwrap().expect("the answer reached A");
    assert_eq!(connect.account, "acme");
    assert_eq!(connect.token.expose_secret(), SECRET);

    let values = dump(&server);
    assert!(!values.is_empty());
    for (what, needle) in [
        ("the secret", SECRET),
        ("the binding cookie", cookie.split_once('=').unwrap().1),
        ("the CSRF token", csrf.as_str()),
    ] {
        assert!(!contains(&values, needle), "{what} is in Redis in clear");
    }
    // A late visit on B sees it answered.
    let late = call(&b, get(&path, Some("alice")), "");
    assert_ne!(late.status, 200);
}

/// The store's own steps: a submission ended while nobody waits sits in
/// Redis sealed, and is delivered whole to the waiter that comes later;
/// only the first end counts; the cap counts every replica's open pages.
#[test]
fn an_end_waits_in_redis_sealed_until_its_waiter_takes_it() {
    let Some(server) = start() else { return };
    let redis = || Redis::open(&server.url()).unwrap();
    let (a, b) = (
        RedisStore::new(redis(), keys()),
        RedisStore::new(redis(), keys()),
    );
    let record = open_record;
    let id = "0123456789abcdef0123456789abcdef".parse().unwrap();
    a.insert(id, record(), 2).now().unwrap();
    assert!(matches!(
        b.insert(id, record(), 2).now(),
        Err(StoreError::Taken(_))
    ));
    let other = "fedcba9876543210fedcba9876543210".parse().unwrap();
    b.insert(other, record(), 2).now().unwrap();
    let third = "00000000000000000000000000000003".parse().unwrap();
    assert!(matches!(
        a.insert(third, record(), 2).now(),
        Err(StoreError::Full { max: 2 })
    ));

    let submission = Submission::new()
        .value("account", "acme".into())
        .secret("token", SecretString::from(SECRET));
    assert!(
        b.end(&id, End::Answered(Answer::Page(submission)))
            .now()
            .unwrap()
    );
    assert!(
        !a.end(&id, End::Cancelled).now().unwrap(),
        "only the first end counts"
    );
    assert_eq!(
        a.get(&id).now().unwrap().unwrap().state,
        PageState::Answered
    );
    assert!(
        !contains(&dump(&server), SECRET),
        "the end is sealed in Redis"
    );

    let end = a.wait(&id).now().unwrap().expect("the end");
    let End::Answered(Answer::Page(submission)) = end else {
        panic!("answered: {end:?}")
    };
    assert_eq!(submission.values()["account"], "acme");
    // Ended, the page no longer counts against the cap.
    a.insert(third, record(), 2).now().unwrap();
}

/// Keys that differ: a replica with other sealing keys cannot read the
/// pages (it fails, it does not guess).
#[test]
fn a_replica_with_other_keys_reads_nothing() {
    let Some(server) = start() else { return };
    let a = replica(&server);
    let page = a
        .open_for::<Connect>(&VerifiedUser::new("alice"), "m")
        .now()
        .unwrap();
    let path = format!("/elicit/{}", page.id());
    assert_eq!(call(&a, get(&path, Some("alice")), "").status, 200);
    let stranger = hosted()
        .store(RedisStore::new(
            Redis::open(&server.url()).unwrap(),
            SealingKeys::new(1, [8; 32]),
        ))
        .build();
    let refused = call(&stranger, get(&path, Some("alice")), "");
    assert_ne!(refused.status, 200);
    assert!(!refused.body().contains("account"), "no page is shown");
}

/// A `requestState` used on one replica is refused on every other; the
/// record goes when the state expires.
#[test]
fn a_state_used_on_one_replica_is_refused_on_another() {
    let Some(server) = start() else { return };
    let replica = || RedisUsedStates::new(Redis::open(&server.url()).unwrap());
    let (a, b) = (replica(), replica());
    let expires = SystemTime::now() + Duration::from_secs(60);
    let id = "0123456789abcdef0123456789abcdef"
        .parse::<StateId>()
        .unwrap();
    assert!(a.first_use(&id, expires).now().unwrap());
    assert!(!b.first_use(&id, expires).now().unwrap());
    assert!(!a.first_use(&id, expires).now().unwrap());
    let ttl: i64 = server
        .command(&format!("PTTL elicit:state:{id}"))
        .unwrap()
        .trim_start_matches(':')
        .parse()
        .unwrap();
    // Its lifetime, and the replicas' clock skew on top.
    let skew = u64::try_from(crate::common::limits::CLOCK_SKEW_SECS * 1000).unwrap();
    let ttl = u64::try_from(ttl).unwrap();
    assert!(ttl > skew && ttl <= skew + 60_000, "{ttl}");
}

/// Clocks that disagree: a state that expired a second ago by one
/// replica's clock is still remembered as used (a replica whose clock is
/// behind still opens it), and a page's answer after its expiry is refused
/// by Redis's clock whatever the serving replica's says.
#[test]
fn clock_skew_between_replicas_opens_no_window() {
    let Some(server) = start() else { return };
    let used = RedisUsedStates::new(Redis::open(&server.url()).unwrap());
    let id = "00000000000000000000000000000abc"
        .parse::<StateId>()
        .unwrap();
    let expired = SystemTime::now() - Duration::from_secs(1);
    assert!(used.first_use(&id, expired).now().unwrap());
    assert!(
        !used.first_use(&id, expired).now().unwrap(),
        "still remembered"
    );

    let store = RedisStore::new(Redis::open(&server.url()).unwrap(), keys());
    // The opener's idea of the expiry, already past by Redis's clock.
    let record = Record::page::<Connect>("m", SystemTime::now() - Duration::from_secs(1));
    let page = "0000000000000000000000000000dead".parse().unwrap();
    store.insert(page, record, 8).now().unwrap();
    let late = Submission::new()
        .value("account", "acme".into())
        .secret("token", SecretString::from(SECRET));
    assert!(
        !store
            .end(&page, End::Answered(Answer::Page(late)))
            .now()
            .unwrap(),
        "refused"
    );
    assert_eq!(
        store.get(&page).now().unwrap().unwrap().state,
        PageState::Expired
    );
    let end = store.wait(&page).now().unwrap();
    assert!(matches!(end, Some(End::Expired)), "{end:?}");
}

/// Redis stops: every step fails cleanly (an error, no panic); it comes
/// back (empty): the next steps work without restarting the replica.
#[test]
fn a_redis_restart_fails_cleanly_and_the_replicas_recover() {
    let Some(mut server) = start() else { return };
    let used = RedisUsedStates::new(Redis::open(&server.url()).unwrap());
    let expires = SystemTime::now() + Duration::from_secs(60);
    let id = |n: u8| format!("{n:032x}").parse::<StateId>().unwrap();
    assert!(used.first_use(&id(1), expires).now().unwrap());

    server.stop();
    assert!(matches!(
        used.first_use(&id(2), expires).now(),
        Err(UsedStatesError::Backend(_))
    ));
    let pages = replica(&server);
    assert!(
        pages
            .open_for::<Connect>(&VerifiedUser::new("alice"), "m")
            .now()
            .is_err()
    );

    server.restart();
    // The first step after the restart may still meet the old connection.
    let first = used.first_use(&id(3), expires).now();
    if let Err(error) = &first {
        assert!(matches!(error, UsedStatesError::Backend(_)), "{error:?}");
    }
    assert!(used.first_use(&id(4), expires).now().unwrap());
    let page = pages
        .open_for::<Connect>(&VerifiedUser::new("alice"), "m")
        .now()
        .or_else(|_| {
            pages
                .open_for::<Connect>(&VerifiedUser::new("alice"), "m")
                .now()
        })
        .expect("the page server recovered");
    let path = format!("/elicit/{}", page.id());
    assert_eq!(call(&pages, get(&path, Some("alice")), "").status, 200);
}

/// The sensitive form of the rounds test.
#[derive(elicit_core::Elicit, Debug)]
#[elicit(sensitive)]
struct Token {
    /// The token.
    #[secret]
    #[elicit(length(min = 12))]
    token: SecretString,
}

/// One replica of a hosted MCP server: its own rounds config (the shared
/// keyring, used states in Redis) and its own pages (in Redis).
struct Replica {
    config: elicit_core::mcp::RoundsConfig,
    pages: Pages,
}

/// A balancer in front of three replicas: the calls go to the replicas of
/// `order`, in turn. Records which replica served each call.
#[derive(Clone)]
struct Balanced {
    replicas: std::sync::Arc<Vec<Replica>>,
    order: Vec<usize>,
    served: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
    /// Asks the form `Confirm` instead of the token page.
    form: bool,
    /// Where to count Redis's commands, per round: the commands each call
    /// (round) cost.
    counted: Option<Counted>,
}

/// Where a balancer counts each round's Redis commands.
type Counted = (
    std::sync::Arc<Monitor>,
    std::sync::Arc<std::sync::Mutex<Vec<u64>>>,
);

/// The form of the form rounds.
#[derive(elicit_core::Elicit, Debug)]
struct Confirm {
    /// Go ahead?
    proceed: bool,
}

impl ::rmcp::ServerHandler for Balanced {
    fn get_info(&self) -> ::rmcp::model::ServerConfig {
        ::rmcp::model::ServerConfig::new(
            ::rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .build(),
        )
    }

    async fn call_tool(
        &self,
        request: ::rmcp::model::CallToolRequestParams,
        context: ::rmcp::service::RequestContext<::rmcp::RoleServer>,
    ) -> Result<::rmcp::model::CallToolResponse, ::rmcp::model::ErrorData> {
        use elicit_core::mcp::{Asked, ask};
        use elicit_core::sensitive::SecretOutcome;
        use rmcp::model::{CallToolResult, ContentBlock};

        let n = {
            let mut served = self.served.lock().unwrap();
            let n = self.order[served.len() % self.order.len()];
            served.push(n);
            n
        };
        let replica = &self.replicas[n];
        let pages = &replica.pages;
        if let Some((monitor, _)) = &self.counted {
            monitor.mark();
        }
        let form = self.form;
        let asked = ask(&context, &request, &replica.config, |r| async move {
            if form {
                return Some(match r.form::<Confirm>("confirm", "Go ahead?").await? {
                    Ok(outcome) => format!("{outcome:?}"),
                    Err(error) => format!("error: {error}"),
                });
            }
            Some(
                match r
                    .secret::<Token>("token", "Paste your token.", pages)
                    .await?
                {
                    Ok(SecretOutcome::Answered(t)) => {
                        format!("a token of {} characters", t.token.expose_secret().len())
                    }
                    Ok(other) => format!("{other:?}"),
                    Err(error) => format!("error: {error}"),
                },
            )
        });
        let response = match asked.await? {
            Asked::Answered(text) => CallToolResult::success(vec![ContentBlock::text(text)]).into(),
            Asked::Respond(response) => response,
        };
        if let Some((monitor, counted)) = &self.counted {
            counted.lock().unwrap().push(monitor.mark());
        }
        Ok(response)
    }
}

/// Alice, shown the page's URL: Bob is refused it, she submits it through
/// replica `through`'s page service, then says yes.
#[derive(Clone)]
struct Alice {
    through: Pages,
    statuses: std::sync::Arc<std::sync::Mutex<Vec<u16>>>,
}

impl ::rmcp::ClientHandler for Alice {
    fn get_info(&self) -> ::rmcp::model::InitializeRequestParams {
        let mut capabilities = ::rmcp::model::ClientCapabilities::default();
        capabilities.elicitation = crate::rmcp::form_mode()
            .map(|c| c.with_url(::rmcp::model::UrlElicitationCapability::new()));
        ::rmcp::model::InitializeRequestParams::new(
            capabilities,
            ::rmcp::model::Implementation::new("alice", "0"),
        )
    }

    async fn create_elicitation(
        &self,
        request: ::rmcp::model::ElicitRequestParams,
        _context: ::rmcp::service::RequestContext<::rmcp::service::RoleClient>,
    ) -> Result<::rmcp::model::ElicitResult, ::rmcp::model::ErrorData> {
        use crate::sensitive_server::hosted::submit_as;
        use ::rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};

        let url = match request {
            ElicitRequestParams::UrlElicitationParams { url, .. } => url,
            // A form: "yes".
            _ => {
                return Ok(ElicitResult::new(ElicitationAction::Accept)
                    .with_content(serde_json::json!({"proceed": true})));
            }
        };
        let path = url
            .strip_prefix("https://agent.example.com")
            .expect("the hosted pages' URL")
            .to_owned();
        let through = self.through.clone();
        let statuses = tokio::task::spawn_blocking(move || {
            let bob = call(&through, get(&path, Some("bob")), "").status;
            let alice = submit_as(&through, &path, "alice", "token=tok-0123456789");
            [bob, alice]
        })
        .await
        .unwrap();
        self.statuses.lock().unwrap().extend(statuses);
        Ok(ElicitResult::new(ElicitationAction::Accept))
    }
}

/// One call of the tool through `balanced` by `alice` at MCP 2026-07-28
/// (rmcp's client fulfils the rounds): the tool's text.
fn call_balanced(balanced: &Balanced, alice: &Alice) -> String {
    use rmcp::ServiceExt;

    let balanced = balanced.clone();
    crate::rmcp::runtime().block_on(async {
        let (server_io, client_io) = tokio::io::duplex(64 * 1024);
        let server = tokio::spawn(async move {
            let running = balanced.serve(server_io).await.unwrap();
            running.waiting().await.unwrap();
        });
        let running = crate::rmcp::connect_at(alice, client_io, crate::rmcp::Version::Modern).await;
        let result = running
            .call_tool(::rmcp::model::CallToolRequestParams::new("tool"))
            .await
            .unwrap();
        running.cancel().await.unwrap();
        server.await.unwrap();
        result.content[0].as_text().unwrap().text.clone()
    })
}

/// MCP 2026-07-28 across replicas: round 1 on replica A opens Alice's page
/// (the user from `RoundsConfig::principal`); she submits it through
/// replica B, Bob refused there; round 2, on replica C, reads the answer.
/// The replicas share the `requestState` keyring, Redis and the sealing
/// keys, nothing else.
#[test]
fn a_secret_page_in_rounds_is_opened_on_a_answered_through_b_and_read_on_c() {
    use elicit_core::mcp::RoundsConfig;
    use rmcp::model::RequestStateCodec;

    let Some(server) = start() else { return };
    let key = vec![42u8; 32];
    let replica = || Replica {
        config: RoundsConfig::new(RequestStateCodec::try_new(key.clone()).unwrap())
            .principal(|_| "alice".to_owned())
            .used_states(RedisUsedStates::new(Redis::open(&server.url()).unwrap())),
        pages: replica(&server),
    };
    let replicas = std::sync::Arc::new(vec![replica(), replica(), replica()]);
    // A, then C; the page is submitted through B.
    let balanced = Balanced {
        replicas: replicas.clone(),
        order: vec![0, 2],
        served: std::sync::Arc::default(),
        form: false,
        counted: None,
    };
    let alice = Alice {
        through: replicas[1].pages.clone(),
        statuses: std::sync::Arc::default(),
    };
    let text = call_balanced(&balanced, &alice);
    assert_eq!(text, "a token of 14 characters");
    assert_eq!(
        *balanced.served.lock().unwrap(),
        [0, 2],
        "round 1 on A, round 2 on C"
    );
    assert_eq!(*alice.statuses.lock().unwrap(), [403, 200]);
}

/// Redis stops while an agent waits for its page: the wait ends at once
/// as a failed page (no hang, no panic), and the page, gone with Redis's
/// memory, is not served when Redis is back.
#[test]
fn an_agent_waiting_on_a_page_fails_cleanly_when_redis_stops() {
    let Some(mut server) = start() else { return };
    let a = replica(&server);
    let page = a
        .open_for::<Connect>(&VerifiedUser::new("alice"), "m")
        .now()
        .unwrap();
    let path = format!("/elicit/{}", page.id());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(futures::executor::block_on(page.answer()));
    });
    // The waiter blocks in Redis; then Redis goes away and comes back empty.
    assert!(
        receiver.recv_timeout(Duration::from_millis(200)).is_err(),
        "still waiting"
    );
    server.restart();
    let answer = receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("the wait ended with Redis");
    assert!(matches!(answer, Ok(SecretOutcome::Cancelled)), "{answer:?}");
    let after = call(&a, get(&path, Some("alice")), "");
    assert_ne!(after.status, 200);
}

/// What a round costs in Redis, the commands it sends as Redis's `MONITOR`
/// shows them (a Lua script is one), on three replicas: a form's rounds cost the used `requestState` only
/// (round 1 has none: 0; round 2: 1); a secret page's, its page besides
/// (round 1 opens it: its place in the open set, then its record, 2;
/// round 2, on another replica, the used state and the page's end: 2). At
/// most 3, the goal.
#[test]
fn a_round_costs_at_most_three_redis_commands() {
    use elicit_core::mcp::RoundsConfig;
    use rmcp::model::RequestStateCodec;

    let Some(server) = start() else { return };
    let replica = || Replica {
        config: RoundsConfig::new(RequestStateCodec::try_new(vec![42u8; 32]).unwrap())
            .principal(|_| "alice".to_owned())
            .used_states(RedisUsedStates::new(Redis::open(&server.url()).unwrap())),
        pages: replica(&server),
    };
    let replicas = std::sync::Arc::new(vec![replica(), replica(), replica()]);
    let alice = Alice {
        through: replicas[1].pages.clone(),
        statuses: std::sync::Arc::default(),
    };
    let monitor = std::sync::Arc::new(Monitor::start(&server));
    for (form, order, expected, answer) in [
        (true, [0, 2], [0, 1], "Accepted(Confirm { proceed: true })"),
        (false, [0, 2], [2, 2], "a token of 14 characters"),
        // Both rounds on the replica that opened the page.
        (false, [0, 0], [2, 2], "a token of 14 characters"),
    ] {
        let counted = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let balanced = Balanced {
            replicas: replicas.clone(),
            order: order.to_vec(),
            served: std::sync::Arc::default(),
            form,
            counted: Some((monitor.clone(), counted.clone())),
        };
        // The first call loads the scripts into Redis; the second is counted.
        assert_eq!(call_balanced(&balanced, &alice), answer);
        counted.lock().unwrap().clear();
        assert_eq!(call_balanced(&balanced, &alice), answer);
        let counted = counted.lock().unwrap().clone();
        assert_eq!(counted, expected, "form: {form}, rounds on {order:?}");
        assert!(counted.iter().all(|&n| n <= 3));
    }
}

/// What a pending page keeps in Redis (`MEMORY USAGE` of its keys, and
/// its share of the open set), for the README's form with one secret: a
/// bound, so that a thousand pending pages stay a few megabytes.
#[test]
fn a_pending_page_keeps_little_in_redis() {
    let Some(server) = start() else { return };
    let pages = replica(&server);
    let user = VerifiedUser::new("alice");
    let mut open = Vec::new();
    for _ in 0..50 {
        let page = pages
            .open_for::<Connect>(&user, "Connect Acme")
            .now()
            .unwrap();
        // Visited: bound to a browser, as most pending pages are.
        let path = format!("/elicit/{}", page.id());
        assert_eq!(call(&pages, get(&path, Some("alice")), "").status, 200);
        open.push(page);
    }
    let usage = |key: &str| -> u64 {
        let reply = server.command(&format!("MEMORY USAGE {key}")).unwrap();
        reply.trim_start_matches(':').parse().unwrap_or(0)
    };
    let per_page: Vec<u64> = open
        .iter()
        .map(|page| usage(&format!("elicit:page:{{{}}}", page.id())))
        .collect();
    let set = usage("elicit:pages:open");
    let max = *per_page.iter().max().unwrap();
    eprintln!("a pending page: at most {max} bytes; the open set: {set} bytes for 50");
    assert!(max > 0 && max <= 4096, "{per_page:?}");
    assert!(set <= 50 * 128, "{set}");
}

/// An OAuth flow with the scripted provider of `oauth.rs`, for the
/// replicas' tests.
mod oauth_flows {
    use std::time::Duration;

    use crate::common::Now;

    use elicit_core::protocol::agent::VerifiedUser;
    use elicit_core::sensitive::oauth::OAuthOutcome;
    use elicit_core::sensitive::{ExposeSecret, SecretString};

    use super::{contains, dump, replica, replica_builder};
    use crate::common::redis::start;
    use crate::oauth::{ACCESS, CODE, REFRESH, Script, Scripted};
    use crate::sensitive_server::hosted::{call, get};

    /// The client's secret registered with the provider.
    const CLIENT_SECRET: &str = "client-secret-5a8c0e";

    /// Alice's browser opens the flow's start page at `path` on `pages`:
    /// its binding cookie, and the `state` it is sent to the provider with
    /// (the provider keeps its PKCE challenge).
    fn started(
        pages: &elicit_core::sensitive::Pages,
        path: &str,
        scripted: &Scripted,
    ) -> (String, String) {
        let started = call(pages, get(path, Some("alice")), "");
        assert_eq!(started.status, 303, "{}", started.body());
        let location = started.header("location");
        let param = |name: &str| {
            url::form_urlencoded::parse(location.split_once('?').unwrap().1.as_bytes())
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.into_owned())
                .unwrap()
        };
        scripted.keep_challenge(&param("code_challenge"));
        (started.cookie(), param("state"))
    }

    /// Alice's flow opened on `pages`, against a provider that grants a
    /// token: the provider, the flow, its start page's path.
    fn alices_flow(
        pages: &elicit_core::sensitive::Pages,
    ) -> (
        Scripted,
        elicit_core::sensitive::oauth::PendingOAuth,
        String,
    ) {
        let scripted = Scripted::start(Script::Token);
        let flow = pages
            .open_oauth_for(&VerifiedUser::new("alice"), &scripted.provider())
            .now()
            .unwrap();
        let path = format!("/elicit/{}", flow.id());
        (scripted, flow, path)
    }

    /// The callback the provider sends the browser to.
    fn callback(state: &str, user: &str, cookie: &str) -> http::request::Builder {
        get(
            &format!("/elicit/oauth/callback?code={CODE}&state={state}"),
            Some(user),
        )
        .header("cookie", cookie)
    }

    /// Alice's flow, opened on A, is started on B and comes back to C (as
    /// a balancer may send each request); Bob is refused; the agent on A
    /// gets the token. Redis holds no `state` token, no PKCE verifier, no
    /// binding cookie, no client secret and no token in clear, before the
    /// callback or after it (the sealed end waits in Redis for A), and
    /// nothing of the flow once A read it.
    #[test]
    fn a_flow_opened_on_a_is_started_on_b_and_called_back_on_c() {
        let Some(server) = start() else { return };
        let (a, b, c) = (replica(&server), replica(&server), replica(&server));
        let scripted = Scripted::start(Script::Token);
        let provider = scripted
            .provider()
            .client_secret(SecretString::from(CLIENT_SECRET));
        let alice = VerifiedUser::new("alice");
        let flow = a.open_oauth_for(&alice, &provider).now().unwrap();
        let id = flow.id().to_string();
        let path = format!("/elicit/{id}");

        assert_eq!(call(&b, get(&path, Some("bob")), "").status, 403);
        let (cookie, state) = started(&b, &path, &scripted);
        // Another browser on C cannot take the bound start page.
        assert_eq!(call(&c, get(&path, Some("alice")), "").status, 403);
        let while_open = dump(&server);

        let back = call(&c, callback(&state, "alice", &cookie), "");
        assert_eq!(back.status, 200, "{}", back.body());
        let after = dump(&server);
        // A replay, on B: the state is used.
        assert_eq!(call(&b, callback(&state, "alice", &cookie), "").status, 410);

        let verifier = scripted.verifiers().pop().expect("one token request");
        for values in [&while_open, &after] {
            for (what, needle) in [
                ("the state token", &state[32..]),
                ("the PKCE verifier", verifier.as_str()),
                ("the binding cookie", cookie.split_once('=').unwrap().1),
                ("the client secret", CLIENT_SECRET),
                ("the access token", ACCESS),
                ("the refresh token", REFRESH),
            ] {
                assert!(!contains(values, needle), "{what} is in Redis in clear");
            }
        }
        assert!(contains(&after, &format!("elicit:page:{{{id}}}:end")));

        let outcome = futures::executor::block_on(flow.outcome()).expect("the store answers");
        let token = outcome.authorized().expect("the token reached A");
        assert_eq!(token.access_token().expose_secret(), ACCESS);
        assert_eq!(token.refresh_token().unwrap().expose_secret(), REFRESH);
        // Read and dropped, the flow stays ended (sealed) for a late
        // visitor on any replica, as a page does, until its expiry
        // forgets it.
        assert_eq!(call(&b, get(&path, Some("alice")), "").status, 410);
        assert!(contains(
            &dump(&server),
            &format!("elicit:page:{{{id}}}:end")
        ));
    }

    /// A callback whose use of the `state` no replica acknowledged (a
    /// replica of the agent whose Redis writes wait for a replica Redis
    /// does not have): it did not count, so it is given back, the page
    /// says so in a few words and asks the provider nothing; the same
    /// callback then comes again on a replica whose writes count, and the
    /// agent gets the token.
    #[test]
    fn a_callback_whose_use_did_not_count_can_come_again() {
        use elicit_core::redis::{Redis, RedisStore};

        let Some(server) = start() else { return };
        let a = replica(&server);
        let waiting = crate::sensitive_server::hosted::builder()
            .store(RedisStore::new(
                Redis::open(&server.url()).unwrap().replicated_writes(1),
                super::keys(),
            ))
            .build();
        let (scripted, flow, path) = alices_flow(&a);
        let (cookie, state) = started(&a, &path, &scripted);
        let refused = call(&waiting, callback(&state, "alice", &cookie), "");
        assert_eq!(refused.status, 503, "{}", refused.body());
        crate::audience::assert_short_and_stable("the callback's page", refused.body());
        assert!(scripted.verifiers().is_empty(), "no token request");
        let back = call(&a, callback(&state, "alice", &cookie), "");
        assert_eq!(back.status, 200, "{}", back.body());
        let outcome = futures::executor::block_on(flow.outcome()).expect("the store answers");
        assert!(
            matches!(outcome, OAuthOutcome::Authorized(_)),
            "{outcome:?}"
        );
    }

    /// A flow past its expiry: its start page is gone on every replica,
    /// and a late callback on another replica than the opener's ends it
    /// as expired (for the agent on A) without a token request.
    #[test]
    fn a_late_callback_on_another_replica_ends_the_flow_as_expired() {
        let Some(server) = start() else { return };
        let a = replica_builder(&server)
            .expiry(Duration::from_millis(400))
            .build();
        let b = replica(&server);
        let (scripted, flow, path) = alices_flow(&a);
        let started = call(&b, get(&path, Some("alice")), "");
        assert_eq!(started.status, 303);
        let state = url::form_urlencoded::parse(
            started
                .header("location")
                .split_once('?')
                .unwrap()
                .1
                .as_bytes(),
        )
        .find(|(n, _)| n == "state")
        .map(|(_, v)| v.into_owned())
        .unwrap();
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(call(&b, get(&path, Some("alice")), "").status, 410);
        let late = call(&b, callback(&state, "alice", &started.cookie()), "");
        assert_eq!(late.status, 410, "{}", late.body());
        assert!(matches!(
            futures::executor::block_on(flow.outcome()),
            Ok(OAuthOutcome::Expired)
        ));
        assert!(scripted.verifiers().is_empty());
    }
}

/// A page record for the store-level tests below.
fn open_record() -> Record {
    Record::page::<Connect>("m", SystemTime::now() + Duration::from_secs(600)).for_user("alice")
}

/// The threads of this process now (every test's: the count is compared
/// with a margin far below what a thread per waiter would add).
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").unwrap().count()
}

/// The clients `server` has now (`CLIENT LIST`, this query's included).
fn clients(server: &RedisServer) -> usize {
    let client = redis::Client::open(server.url()).unwrap();
    let mut connection = client.get_connection().unwrap();
    let list: String = redis::cmd("CLIENT")
        .arg("LIST")
        .query(&mut connection)
        .unwrap();
    list.lines().filter(|line| !line.trim().is_empty()).count()
}

/// Two thousand agents waiting on one replica for their pages' answers:
/// each is a task, not a thread, and they share the replica's one
/// connection. Every answer, posted through another replica, reaches its
/// waiter.
#[test]
fn thousands_of_waiting_pages_cost_no_thread_and_share_one_connection() {
    const N: usize = 2000;
    let Some(server) = start() else { return };
    let redis = Redis::open(&server.url()).unwrap();
    let asking = std::sync::Arc::new(RedisStore::new(redis.clone(), keys()));
    let answering = RedisStore::new(Redis::open(&server.url()).unwrap(), keys());
    let ids: Vec<elicit_core::sensitive::PageId> = (0..N)
        .map(|n| format!("{n:032x}").parse().unwrap())
        .collect();
    for id in &ids {
        asking.insert(*id, open_record(), N).now().unwrap();
    }
    // One page already answered before anyone waits: read at once.
    let early = Submission::new()
        .value("account", "early".into())
        .secret("token", SecretString::from(SECRET));
    assert!(
        answering
            .end(&ids[0], End::Answered(Answer::Page(early)))
            .now()
            .unwrap()
    );

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let before = threads();
    let waiting: Vec<_> = ids
        .iter()
        .map(|&id| {
            let asking = asking.clone();
            runtime.spawn(async move { asking.wait(&id).await })
        })
        .collect();
    // Every waiter but the early one registered (bounded: 20 s).
    runtime.block_on(async {
        for _ in 0..2000 {
            if redis.waiting() == N - 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    assert_eq!(
        redis.waiting(),
        N - 1,
        "every unanswered page is waited for"
    );
    let added = threads().saturating_sub(before);
    assert!(
        added < 50,
        "{N} waiters added {added} threads: waiting must cost no thread"
    );
    // The two replicas' connections and this query's: nothing per waiter.
    let connected = clients(&server);
    eprintln!("{N} waiting pages: {added} threads added, {connected} Redis clients");
    assert!(
        connected <= 3,
        "{connected} Redis clients for {N} waiters: one connection a replica"
    );

    for (n, id) in ids.iter().enumerate().skip(1) {
        let submission = Submission::new()
            .value("account", format!("acme-{n}").into())
            .secret("token", SecretString::from(SECRET));
        assert!(
            answering
                .end(id, End::Answered(Answer::Page(submission)))
                .now()
                .unwrap()
        );
    }
    let ends = runtime.block_on(async {
        let mut ends = Vec::with_capacity(N);
        for waiter in waiting {
            ends.push(waiter.await.unwrap());
        }
        ends
    });
    for (n, end) in ends.into_iter().enumerate() {
        let Ok(Some(End::Answered(Answer::Page(submission)))) = end else {
            panic!("page {n}: {end:?}")
        };
        let expected = if n == 0 {
            "early".to_owned()
        } else {
            format!("acme-{n}")
        };
        assert_eq!(submission.values()["account"], expected.as_str());
        let secrets: Vec<_> = submission.secrets().collect();
        assert!(matches!(&secrets[..], [("token", token)] if token.expose_secret() == SECRET));
    }
    assert_eq!(redis.waiting(), 0, "no waiter left behind");
}

/// Redis stops answering (`SIGSTOP`) while two requests wait on it: a
/// request on the same replica (here, one thread) that needs no Redis is
/// answered while they still wait, and they fail after their timeout with
/// an error that says so. Redis back, the same connection works again.
#[test]
fn a_stalled_redis_holds_only_the_requests_that_need_it() {
    use http_body_util::Full;
    use tower_service::Service;

    let Some(server) = start() else { return };
    let redis = Redis::open(&server.url())
        .unwrap()
        .command_timeout(Duration::from_millis(800));
    let store = std::sync::Arc::new(RedisStore::new(redis.clone(), keys()));
    let pages = hosted().store(RedisStore::new(redis, keys())).build();
    let id: elicit_core::sensitive::PageId = "0000000000000000000000000000beef".parse().unwrap();
    store.insert(id, open_record(), 8).now().unwrap();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    server.pause();
    let (stalled, answered) = runtime.block_on(async {
        let stalled: Vec<_> = (0..2)
            .map(|_| {
                let store = store.clone();
                tokio::spawn(async move { store.get(&id).await })
            })
            .collect();
        tokio::task::yield_now().await;
        // Another site's host name: refused before any store is asked.
        let request = http::Request::get(format!("/elicit/{id}"))
            .header("host", "attacker.example")
            .body(Full::new(std::io::Cursor::new(Vec::new())))
            .unwrap();
        let mut service = pages.service();
        let answered = tokio::spawn(async move { service.call(request).await })
            .await
            .unwrap()
            .unwrap();
        let still_waiting = stalled.iter().all(|task| !task.is_finished());
        let mut results = Vec::new();
        for task in stalled {
            results.push(task.await.unwrap());
        }
        ((still_waiting, results), answered.status().as_u16())
    });
    server.resume();
    let (still_waiting, results) = stalled;
    assert_eq!(answered, 421, "the request that needs no Redis is answered");
    assert!(
        still_waiting,
        "it was answered while the requests that need Redis still waited"
    );
    for result in results {
        let Err(StoreError::Backend(error)) = &result else {
            panic!("a stalled Redis fails the request: {result:?}")
        };
        assert!(
            error.to_string().contains("did not answer within"),
            "the error says why: {error}"
        );
    }
    // Redis answers again: the next command works (the connection is
    // opened again if it was dropped).
    let back = (0..100).find_map(|_| match store.get(&id).now() {
        Ok(record) => Some(record),
        Err(_) => {
            std::thread::sleep(Duration::from_millis(50));
            None
        }
    });
    assert_eq!(back.flatten().map(|r| r.state), Some(PageState::Open));
}
