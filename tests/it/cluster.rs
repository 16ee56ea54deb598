//! Feature `redis`: the stores on a Redis Cluster, three masters with two
//! replicas each on loopback (`common::redis_cluster`, the redis guide's
//! topology), through failovers: a master killed between a page's post and
//! its acknowledgement, and just after it; then calls at a steady rate
//! through a master's death. What the user's page said and what the agent
//! got agree every time, nothing is accepted twice, and calls fail only
//! during the failover (plus 5 s).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use elicit_core::mcp::{StateId, UsedStates};
use elicit_core::protocol::agent::VerifiedUser;
use elicit_core::redis::{Redis, RedisStore, RedisUsedStates, SealingKeys};
use elicit_core::sensitive::{ExposeSecret, Pages, PendingPage, SecretOutcome};

use crate::common::Now;
use crate::common::redis_cluster::{RedisCluster, start_cluster};
use crate::common::sensitive::{Connect, SECRET};
use crate::sensitive_server::hosted::{Reply, builder as hosted, call, get};

fn keys() -> SealingKeys {
    SealingKeys::new(1, [9; 32])
}

fn redis(cluster: &RedisCluster) -> Redis {
    let urls = cluster.urls();
    Redis::cluster(urls.iter().map(String::as_str)).unwrap()
}

/// A replica of the agent: its pages and flows on the cluster.
fn replica(cluster: &RedisCluster) -> Pages {
    let redis = redis(cluster);
    hosted().store(RedisStore::new(redis, keys())).build()
}

fn state(n: usize) -> StateId {
    format!("{n:032x}").parse().unwrap()
}

/// The page key of `page`, as the store names it.
fn key_of(page: &PendingPage<Connect>) -> String {
    format!("elicit:page:{{{}}}", page.id())
}

/// A page opened on `a`, shown to alice through `b` (bound to her
/// browser): its path, and the page as shown.
fn shown(a: &Pages, b: &Pages) -> (PendingPage<Connect>, String, Reply) {
    let alice = VerifiedUser::new("alice");
    let page = a.open_for::<Connect>(&alice, "Connect Acme").now().unwrap();
    let path = format!("/elicit/{}", page.id());
    let shown = call(b, get(&path, Some("alice")), "");
    assert_eq!(shown.status, 200, "{}", shown.body());
    (page, path, shown)
}

/// Alice posts `token` on the page `shown` through `b`.
fn post(b: &Pages, path: &str, shown: &Reply, token: &str) -> Reply {
    let body = format!("csrf={}&account=acme&token={token}", shown.csrf());
    call(b, shown.post(path, "alice", &shown.cookie()), &body)
}

/// The agent's wait for `page`, on a thread of its own: what it got.
fn agent(page: PendingPage<Connect>) -> std::thread::JoinHandle<Option<String>> {
    std::thread::spawn(move || match page.answer().now() {
        Ok(SecretOutcome::Answered(connect)) => Some(connect.token.expose_secret().to_owned()),
        _ => None,
    })
}

/// Posts again (bounded) until the page takes the post (`200`) or says it
/// has an answer (`410`): the statuses it answered on the way.
fn post_until_taken(b: &Pages, path: &str, shown: &Reply, token: &str) -> Vec<u16> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut statuses = Vec::new();
    loop {
        let reply = post(b, path, shown, token);
        statuses.push(reply.status);
        if matches!(reply.status, 200 | 410) {
            return statuses;
        }
        assert_eq!(reply.status, 503, "{}", reply.body());
        assert!(Instant::now() < deadline, "never taken: {statuses:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A master killed between a post and its acknowledgement (its replicas
/// stopped, so none acknowledges): the page says "Not saved" and the agent
/// gets nothing; once a replica took over, the post is taken and the agent
/// gets exactly it. Then a master killed just after a post the page took:
/// the agent has it, and the promoted master says the page is answered.
/// Last, an answer being saved holds its page for its lease.
#[test]
fn the_page_and_the_agent_agree_when_a_master_dies_around_a_post() {
    let Some(mut cluster) = start_cluster() else {
        return;
    };
    let (a, b) = (replica(&cluster), replica(&cluster));

    // Between the post and its acknowledgement.
    let (page, path, page_shown) = shown(&a, &b);
    let key = key_of(&page);
    let waiter = agent(page);
    cluster.replicate(&key);
    let master = cluster.master_of(&key);
    let replicas = cluster.replicas_of(master);
    assert_eq!(replicas.len(), 2, "two replicas per master");
    for replica in &replicas {
        cluster.signal(*replica, "-STOP");
    }
    let log = crate::audience::Reasons::default();
    let first = log.during(|| post(&b, &path, &page_shown, "first-token-1234"));
    assert_eq!(
        first.status,
        503,
        "no replica acknowledged: {}",
        first.body()
    );
    assert!(first.body().contains("Not saved"), "{}", first.body());
    // The log says why; the page does not.
    assert!(log.has("not_replicated", ""), "{:?}", log.all());
    assert!(log.has("store_failed", "not_replicated"), "{:?}", log.all());
    crate::audience::assert_short_and_stable("the page", first.body());
    cluster.kill_master_of(&key);
    for replica in &replicas {
        cluster.signal(*replica, "-CONT");
    }
    cluster.wait_failed_over(&key, master);
    assert!(
        !waiter.is_finished(),
        "the agent got an answer the page did not save"
    );
    let statuses = post_until_taken(&b, &path, &page_shown, "second-token-123");
    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
    assert_eq!(
        waiter.join().unwrap().as_deref(),
        Some("second-token-123"),
        "the agent got the answer the page took, and only it"
    );
    assert_eq!(post(&b, &path, &page_shown, "third-token-1234").status, 410);
    println!(
        "between the post and its acknowledgement: the page said {} then {statuses:?}; the agent \
         got the second post's answer; the log of the first post: {:?}",
        first.status,
        log.all()
    );

    // Just after the page took a post.
    let (page, path, page_shown) = shown(&a, &b);
    let key = key_of(&page);
    let waiter = agent(page);
    let log = crate::audience::Reasons::default();
    let taken = log.during(|| post(&b, &path, &page_shown, SECRET));
    assert_eq!(taken.status, 200, "{}", taken.body());
    assert_eq!(log.all(), [], "a post that counted: no refusal, no failure");
    let master = cluster.kill_master_of(&key);
    cluster.wait_failed_over(&key, master);
    assert_eq!(
        waiter.join().unwrap().as_deref(),
        Some(SECRET),
        "the page said saved: the agent has it"
    );
    let again = post_until_taken(&b, &path, &page_shown, "another-token-12");
    assert_eq!(again.last(), Some(&410), "answered once: {again:?}");
    println!(
        "just after the page took it: the page said 200 (log: {:?}); the agent got it; on the \
         promoted master: {again:?}",
        log.all()
    );

    // An answer being saved holds its page while its lease runs: another
    // post is "Not saved" (send it again), the cause in the log; once the
    // lease is over (its poster gone), a post is taken and the agent gets
    // it.
    let (page, path, page_shown) = shown(&a, &b);
    let key = key_of(&page);
    let waiter = agent(page);
    let master = cluster.master_of(&key);
    let lease = |until: &str| {
        let held = [
            "HSET",
            &key,
            "state",
            "answering",
            "prior",
            "open",
            "lease",
            until,
        ];
        cluster
            .command(master, &held)
            .expect("HSET on the page's master");
    };
    lease("99999999999999");
    let log = crate::audience::Reasons::default();
    let busy = log.during(|| post(&b, &path, &page_shown, "a-held-token-123"));
    assert_eq!(busy.status, 503, "{}", busy.body());
    assert!(busy.body().contains("Not saved"), "{}", busy.body());
    assert!(log.has("store_failed", "busy"), "{:?}", log.all());
    assert!(
        !waiter.is_finished(),
        "the agent got a post that did not count"
    );
    lease("0");
    let taken = post(&b, &path, &page_shown, "a-freed-token-12");
    assert_eq!(taken.status, 200, "{}", taken.body());
    assert_eq!(waiter.join().unwrap().as_deref(), Some("a-freed-token-12"));
    cluster.restart_failed();
}

/// What one call did, for the figures: when it ended, whether every step
/// worked (a failed post counted, then posted again until taken).
struct Call {
    at: Duration,
    took: Duration,
    ok: bool,
}

/// Calls at a steady rate (a used `requestState`, a page opened on A,
/// posted through B, its answer read on A) while the master of the open
/// set (every page's step) is killed: every call that fails, fails within
/// the failover plus 5 s; the page and the agent agree on every call;
/// nothing is accepted twice. The figures: BENCHMARKS.md, "Through a
/// failover" (`cargo test --all-features --test it -- cluster::calls
/// --nocapture` prints them).
#[test]
fn calls_fail_only_during_a_failover_and_nothing_is_accepted_twice() {
    let Some(mut cluster) = start_cluster() else {
        return;
    };
    let (a, b) = (Arc::new(replica(&cluster)), Arc::new(replica(&cluster)));
    let used = Arc::new(RedisUsedStates::new(redis(&cluster)));
    let expires = SystemTime::now() + Duration::from_secs(600);
    let start = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let calls = Arc::new(Mutex::new(Vec::<Call>::new()));
    // (state, if its use counted; page path, page as shown): what was
    // accepted.
    let accepted = Arc::new(Mutex::new(Vec::<(Option<usize>, String, Reply)>::new()));
    let workers: Vec<_> = (0..2)
        .map(|worker| {
            let (a, b, used) = (Arc::clone(&a), Arc::clone(&b), Arc::clone(&used));
            let (stop, calls, accepted) =
                (Arc::clone(&stop), Arc::clone(&calls), Arc::clone(&accepted));
            std::thread::spawn(move || {
                let alice = VerifiedUser::new("alice");
                let mut n = worker * 1_000_000;
                while !stop.load(Ordering::Relaxed) {
                    n += 1;
                    let began = start.elapsed();
                    let ok = match used.first_use(&state(n), expires).now() {
                        Ok(first) => {
                            assert!(first, "a fresh state found used");
                            true
                        }
                        Err(_) => false,
                    };
                    let opened = a.open_for::<Connect>(&alice, "Connect Acme").now();
                    let Ok(page) = opened else {
                        calls.lock().unwrap().push(Call {
                            at: start.elapsed(),
                            took: start.elapsed() - began,
                            ok: false,
                        });
                        std::thread::sleep(Duration::from_millis(50));
                        continue;
                    };
                    let path = format!("/elicit/{}", page.id());
                    let shown = call(&b, get(&path, Some("alice")), "");
                    if shown.status != 200 {
                        assert_eq!(shown.status, 503, "{}", shown.body());
                        calls.lock().unwrap().push(Call {
                            at: start.elapsed(),
                            took: start.elapsed() - began,
                            ok: false,
                        });
                        continue;
                    }
                    let token = format!("token-{n:012}");
                    let waiter = agent(page);
                    let statuses = post_until_taken(&b, &path, &shown, &token);
                    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
                    // The page took this post: the agent gets it, and only it.
                    assert_eq!(waiter.join().unwrap().as_deref(), Some(token.as_str()));
                    calls.lock().unwrap().push(Call {
                        at: start.elapsed(),
                        took: start.elapsed() - began,
                        ok: ok && statuses.len() == 1,
                    });
                    // A use that failed was taken back: only one that
                    // counted must be refused again.
                    accepted
                        .lock()
                        .unwrap()
                        .push((ok.then_some(n), path, shown));
                }
            })
        })
        .collect();

    std::thread::sleep(Duration::from_secs(3));
    let key = "elicit:pages:open";
    let killed_at = start.elapsed();
    let master = cluster.kill_master_of(key);
    cluster.wait_failed_over(key, master);
    let failed_over_at = start.elapsed();
    // The failover plus 5 s, and 2 s of calls after it.
    std::thread::sleep(Duration::from_secs(7));
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        worker.join().unwrap();
    }

    let calls = std::mem::take(&mut *calls.lock().unwrap());
    let last_failure = calls
        .iter()
        .filter(|call| !call.ok)
        .map(|call| call.at)
        .max();
    // The figures, per second: calls done, calls failed.
    let seconds = calls
        .iter()
        .map(|call| call.at.as_secs())
        .max()
        .unwrap_or(0);
    println!(
        "killed at {:.1} s, failed over at {:.1} s (the failover: {:.1} s), last failure at {}",
        killed_at.as_secs_f64(),
        failed_over_at.as_secs_f64(),
        (failed_over_at - killed_at).as_secs_f64(),
        last_failure.map_or("none".to_owned(), |at| format!("{:.1} s", at.as_secs_f64()))
    );
    println!("| second | calls ended | failed | longest call (ms) |");
    println!("|---|---|---|---|");
    for second in 0..=seconds {
        let here: Vec<&Call> = calls.iter().filter(|c| c.at.as_secs() == second).collect();
        let failed = here.iter().filter(|c| !c.ok).count();
        let longest = here.iter().map(|c| c.took.as_millis()).max().unwrap_or(0);
        println!("| {second} | {} | {failed} | {longest} |", here.len());
    }
    let before = calls.iter().filter(|c| c.at < killed_at).count();
    assert!(before > 10, "calls ran before the kill: {before}");
    assert!(
        calls.iter().filter(|c| c.at < killed_at).all(|c| c.ok),
        "a call failed before the failover"
    );
    if let Some(last) = last_failure {
        assert!(
            last <= failed_over_at + Duration::from_secs(5),
            "a call failed {:.1} s after the failover",
            (last - failed_over_at).as_secs_f64()
        );
    }
    let after = calls
        .iter()
        .filter(|c| c.at > failed_over_at + Duration::from_secs(5))
        .count();
    assert!(after > 10, "calls ran after the failover: {after}");

    // Nothing accepted twice: every used state is still used, every
    // answered page still answered.
    let accepted = std::mem::take(&mut *accepted.lock().unwrap());
    for (n, path, shown) in &accepted {
        // A store error (a busy machine) is asked again: only an answer
        // counts here.
        if let Some(n) = n {
            let again = (0..100).find_map(|_| match used.first_use(&state(*n), expires).now() {
                Ok(first) => Some(first),
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(100));
                    None
                }
            });
            assert_eq!(again, Some(false), "state {n} accepted again");
        }
        let again = post_until_taken(&b, path, shown, "a-replayed-token");
        assert_eq!(again.last(), Some(&410), "{path} accepted again: {again:?}");
    }
}

/// [`Redis::ready`] says whether writes can count: ready on a cluster whose
/// masters have their replicas; not ready, naming `not_replicated`, while a
/// master's replicas are stopped.
#[test]
fn ready_says_whether_writes_can_count() {
    let Some(cluster) = start_cluster() else {
        return;
    };
    let redis = redis(&cluster).replicated_writes(2);
    redis
        .ready()
        .now()
        .expect("every master has two replicas in sync");
    let master = cluster.master_of("elicit:pages:open");
    let replica = cluster.replicas_of(master)[0];
    cluster.signal(replica, "-STOP");
    // A stopped replica's link stays up until the master's timeout:
    // bounded wait for the master to see it gone.
    let deadline = Instant::now() + Duration::from_secs(30);
    let not_ready = loop {
        match redis.ready().now() {
            Err(why) => break why,
            Ok(()) => {
                assert!(Instant::now() < deadline, "still ready");
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    };
    cluster.signal(replica, "-CONT");
    assert_eq!(not_ready.reason(), "not_replicated", "{not_ready}");
    assert!(
        not_ready
            .to_string()
            .contains("1 replica(s) in sync, writes wait for 2"),
        "{not_ready}"
    );
}
