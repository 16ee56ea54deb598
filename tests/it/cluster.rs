//! Feature `redis`: the stores on a Redis Cluster, three masters each with
//! a replica on loopback (`common::redis_cluster`), through a failover: the
//! master that holds a page in flight is killed and its replica promoted.
//! Nothing accepted before is accepted again, the flow in flight ends
//! (with its answer, or cleanly with an error that says so), and new flows
//! work.

use std::time::{Duration, SystemTime};

use elicit_core::mcp::{StateId, UsedStates};
use elicit_core::protocol::agent::VerifiedUser;
use elicit_core::redis::{Redis, RedisStore, RedisUsedStates, SealingKeys};
use elicit_core::sensitive::{ExposeSecret, PageError, Pages, SecretOutcome};

use crate::common::Now;
use crate::common::redis_cluster::{RedisCluster, start_cluster};
use crate::common::sensitive::{Answer as _, Connect, SECRET};
use crate::sensitive_server::hosted::{builder as hosted, call, get, submit_as};

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

#[test]
fn the_stores_work_on_a_redis_cluster_through_a_failover() {
    let Some(mut cluster) = start_cluster() else {
        return;
    };
    let (a, b) = (replica(&cluster), replica(&cluster));
    let used = RedisUsedStates::new(redis(&cluster));
    let alice = VerifiedUser::new("alice");
    let fields = format!("account=acme&token={SECRET}");

    // Pages on every master: opened on A, answered through B, read on A.
    let mut answered = Vec::new();
    for _ in 0..6 {
        let page = a.open_for::<Connect>(&alice, "Connect Acme").now().unwrap();
        let path = format!("/elicit/{}", page.id());
        assert_eq!(submit_as(&b, &path, "alice", &fields), 200);
        let connect = page
            .answer()
            .now()
            .answered()
            .expect("the answer reached A");
        assert_eq!(connect.token.expose_secret(), SECRET);
        answered.push(path);
    }
    // Used states, each recorded once (and acknowledged by a replica).
    let expires = SystemTime::now() + Duration::from_secs(600);
    for n in 0..30 {
        assert!(used.first_use(&state(n), expires).now().unwrap());
    }

    // A page in flight: opened on A, viewed (bound) through B, waited for
    // on A; its master is then killed.
    let page = a.open_for::<Connect>(&alice, "Connect Acme").now().unwrap();
    let id = page.id();
    let path = format!("/elicit/{id}");
    let shown = call(&b, get(&path, Some("alice")), "");
    assert_eq!(shown.status, 200);
    let waiter = std::thread::spawn(move || page.answer().now());
    let key = format!("elicit:page:{{{id}}}");
    // What the page's master holds is its replica's too: the failover
    // loses nothing of it (what `WAIT` does for the steps that need it).
    cluster.replicate(&key);
    let before = cluster.master_of(&key);
    let after = cluster.fail_over(&key);
    assert_ne!(before, after, "the replica took over the page's slot");

    // Nothing accepted twice: every used state is still used, on any
    // master; every answered page is still answered.
    for n in 0..30 {
        let again = (0..100).find_map(|_| match used.first_use(&state(n), expires).now() {
            Ok(first) => Some(first),
            Err(_) => {
                std::thread::sleep(Duration::from_millis(50));
                None
            }
        });
        assert_eq!(
            again,
            Some(false),
            "state {n} accepted again after the failover"
        );
    }
    for path in &answered {
        let late = call(&b, get(path, Some("alice")), "");
        assert_eq!(late.status, 410, "{path} answered again: {}", late.body());
    }

    // The page in flight, posted through B while the promoted master has
    // no replica: taken at most once. Its answer is written, but no
    // replica acknowledges it (`WAIT`): the post fails cleanly (503, an
    // error page), and the agent may already have the answer.
    let cookie = shown.cookie();
    let post = || {
        call(
            &b,
            shown.post(&path, "alice", &cookie),
            &format!("csrf={}&{fields}", shown.csrf()),
        )
    };
    let first = post();
    assert!(
        [200, 503].contains(&first.status),
        "a post during the failover: {} {}",
        first.status,
        first.body()
    );
    // The failed master comes back, as the new master's replica.
    cluster.restart_failed();
    let waited = waiter.join().unwrap();
    match &waited {
        Ok(SecretOutcome::Answered(connect)) => {
            assert_eq!(connect.token.expose_secret(), SECRET)
        }
        Ok(SecretOutcome::Cancelled) => {}
        Err(error @ PageError::Store(_)) => {
            assert!(!error.to_string().is_empty(), "a clear error: {error}");
        }
        Ok(_) => panic!("the waiter ended badly: not answered, nor cancelled"),
        Err(error) => panic!("the waiter ended badly: {error}"),
    }
    // Never a second answer: a post now finds it answered.
    let again = post();
    assert_eq!(again.status, 410, "answered once: {}", again.body());

    // New flows work, on every master.
    for _ in 0..6 {
        let page = a.open_for::<Connect>(&alice, "Connect Acme").now().unwrap();
        let path = format!("/elicit/{}", page.id());
        assert_eq!(submit_as(&b, &path, "alice", &fields), 200);
        let connect = page
            .answer()
            .now()
            .answered()
            .expect("a new flow's answer reached A");
        assert_eq!(connect.account, "acme");
    }
    assert!(used.first_use(&state(99), expires).now().unwrap());
    assert!(!used.first_use(&state(99), expires).now().unwrap());
}
