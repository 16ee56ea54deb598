//! [`Redis`]: the one connection a replica keeps to the Redis every replica
//! shares, multiplexed, async, reconnected in the background; and the end
//! notices that wake the flows waiting on this replica.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use redis::cluster_async::ClusterConnection;
use redis::cluster_routing::{Route, RoutingInfo, SingleNodeRoutingInfo, SlotAddr};
use redis::{FromRedisValue, ProtocolVersion, PushInfo, PushKind, RedisError, RedisResult, Value};
use tokio::sync::{mpsc, oneshot};

use crate::background::Background;

/// How long one command may take, waiting for a connection included,
/// before it fails with a timeout: a Redis that stopped answering fails the
/// requests that need it after this, and holds no other.
pub(crate) const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);

/// How often a waiting flow reads its end again though no notice came (a
/// notice lost with a connection, say): a safety net, not the way ends
/// arrive.
#[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
const RECHECK: Duration = Duration::from_secs(30);

/// The Redis that the replicas behind one URL share: where
/// [`RedisStore`](super::RedisStore) keeps pages (and OAuth flows) and
/// [`RedisUsedStates`](super::RedisUsedStates) the used `requestState`s.
/// Cheap to clone: every clone shares one connection.
///
/// Everything is asynchronous, and nothing blocks the caller's thread:
///
/// - **One connection** per `Redis` (redis-rs's multiplexed
///   `ConnectionManager`, RESP3): any number of commands in flight at
///   once, each with its own timeout (2 seconds unless told
///   otherwise, [`command_timeout`](Self::command_timeout)). A lost
///   connection is opened again in the background, with backoff; the
///   commands that need Redis meanwhile fail after their timeout, and
///   nothing else waits.
/// - **Waiting costs no thread and no connection**: a flow that waits for
///   a page's answer is a task, woken by a notice the replica that ended
///   the page publishes (`PUBLISH <prefix>:ends`), which this connection
///   is subscribed to. The end itself stays in its key, the truth: a
///   waiter reads it when it starts, when a notice comes, after every
///   reconnection (a notice published meanwhile is lost), and every 30
///   seconds at the latest.
/// - The connection and the waiters run on **one thread of this
///   `Redis`'s own** (a current-thread tokio runtime), whatever runtime
///   the server runs on, or none: the futures this crate hands out are
///   channels any executor awaits. The thread stops when the last clone
///   is dropped.
///
/// Every key is under a prefix (`elicit` unless told otherwise), so one
/// Redis can serve several deployments. Needs Redis 6 or later (RESP3).
///
/// # Redis Cluster
///
/// [`Redis::cluster`] opens a Redis Cluster instead (redis-rs's async
/// cluster client: one connection to each node, commands routed by slot,
/// `MOVED` and failovers followed). The stores work unchanged on it: every
/// key of one page (or flow) shares a hash tag, its id (`page:{<id>}`,
/// `page:{<id>}:end`), so each script's keys are in one slot; the set of
/// open pages, the one key every replica shares (the cap), is reserved and
/// released in steps of its own. Writes that must survive a failover (a
/// used `requestState`, a page's answer, an OAuth flow's used `state`)
/// wait for a replica's acknowledgement (`WAIT`,
/// [`replicated_writes`](Self::replicated_writes)).
#[derive(Clone)]
pub struct Redis {
    inner: Arc<Inner>,
}

/// The connection: one server's multiplexed connection, or a cluster's.
#[derive(Clone)]
pub(crate) enum Connection {
    Single(ConnectionManager),
    Cluster(ClusterConnection),
}

impl ConnectionLike for Connection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a redis::Cmd) -> redis::RedisFuture<'a, Value> {
        match self {
            Self::Single(connection) => connection.req_packed_command(cmd),
            Self::Cluster(connection) => connection.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> redis::RedisFuture<'a, Vec<Value>> {
        match self {
            Self::Single(connection) => connection.req_packed_commands(pipeline, offset, count),
            Self::Cluster(connection) => connection.req_packed_commands(pipeline, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Self::Single(connection) => connection.get_db(),
            Self::Cluster(connection) => connection.get_db(),
        }
    }
}

impl Connection {
    /// Subscribes to `channel` (renewed with every reconnection).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    async fn subscribe(&mut self, channel: &str) -> RedisResult<()> {
        match self {
            Self::Single(connection) => connection.subscribe(channel).await,
            Self::Cluster(connection) => connection.subscribe(channel).await,
        }
    }

    /// `command` on the master that holds `key`.
    async fn on_master_of(&mut self, key: &str, command: redis::Cmd) -> RedisResult<Value> {
        match self {
            Self::Single(connection) => command.query_async(connection).await,
            Self::Cluster(connection) => {
                let route = Route::with_key(key, SlotAddr::Master);
                connection
                    .route_command(
                        command,
                        RoutingInfo::SingleNode(SingleNodeRoutingInfo::SpecificNode(route)),
                    )
                    .await
            }
        }
    }
}

/// Where [`Redis`] connects.
#[derive(Clone)]
enum Client {
    Single(redis::Client),
    Cluster(Box<redis::cluster::ClusterClient>),
}

// With neither store compiled (feature `redis` alone) little uses it.
#[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
struct Inner {
    client: Client,
    prefix: String,
    timeout: Duration,
    /// How many replicas acknowledge a write that must survive a failover.
    replicas: usize,
    connection: Connection,
    ends: Arc<Ends>,
    /// Whether the subscription to the end notices was asked for (once,
    /// with the first waiter).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    subscribed: AtomicBool,
    /// Last: dropped after the connection.
    background: Background,
}

impl fmt::Debug for Redis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redis")
            .field("prefix", &self.inner.prefix)
            .field("timeout", &self.inner.timeout)
            .finish_non_exhaustive()
    }
}

impl Redis {
    /// The Redis at `url` (`redis://host:port/db`, `rediss://` not
    /// supported), connected on first use, in the background.
    ///
    /// # Errors
    ///
    /// redis-rs's, for a URL it cannot read; an I/O error if the thread
    /// of this `Redis` cannot start.
    pub fn open(url: &str) -> Result<Self, RedisError> {
        let client = redis::Client::open(url)?;
        // RESP3: the end notices arrive on the connection the commands use.
        let info = client.get_connection_info().clone();
        let settings = info
            .redis_settings()
            .clone()
            .set_protocol(ProtocolVersion::RESP3);
        // No Nagle: a command written while another waits for its reply
        // goes out at once, not a round trip later.
        let tcp = info.tcp_settings().clone().set_nodelay(true);
        let client = redis::Client::open(info.set_redis_settings(settings).set_tcp_settings(tcp))?;
        Self::start(
            Client::Single(client),
            "elicit".to_owned(),
            COMMAND_TIMEOUT,
            0,
        )
    }

    /// The Redis Cluster whose nodes include `nodes` (`redis://host:port`
    /// each; the others are found from them), connected in the
    /// background. Writes that must survive a failover wait for one
    /// replica ([`replicated_writes`](Self::replicated_writes)).
    ///
    /// # Errors
    ///
    /// redis-rs's, for a URL it cannot read; an I/O error if the thread
    /// of this `Redis` cannot start.
    pub fn cluster<'a>(nodes: impl IntoIterator<Item = &'a str>) -> Result<Self, RedisError> {
        Self::cluster_client(nodes, COMMAND_TIMEOUT)
            .and_then(|client| Self::start(client, "elicit".to_owned(), COMMAND_TIMEOUT, 1))
    }

    fn cluster_client<'a>(
        nodes: impl IntoIterator<Item = &'a str>,
        timeout: Duration,
    ) -> RedisResult<Client> {
        let client = redis::cluster::ClusterClient::builder(nodes)
            .use_protocol(ProtocolVersion::RESP3)
            .tcp_settings(redis::io::tcp::TcpSettings::default().set_nodelay(true))
            .connection_timeout(timeout)
            .response_timeout(timeout)
            .build()?;
        Ok(Client::Cluster(Box::new(client)))
    }

    fn start(
        client: Client,
        prefix: String,
        timeout: Duration,
        replicas: usize,
    ) -> RedisResult<Self> {
        let background = Background::start("elicit-redis")?;
        let (pushes, pushed) = mpsc::unbounded_channel();
        let connection = {
            // The connection's tasks are this `Redis`'s runtime's.
            let _entered = background.handle().enter();
            match &client {
                Client::Single(client) => {
                    let config = ConnectionManagerConfig::new()
                        .set_connection_timeout(Some(timeout))
                        .set_response_timeout(Some(timeout))
                        .set_max_delay(Duration::from_secs(2))
                        .set_number_of_retries(2)
                        .set_push_sender(pushes)
                        .set_automatic_resubscription();
                    Connection::Single(ConnectionManager::new_lazy_with_config(
                        client.clone(),
                        config,
                    )?)
                }
                Client::Cluster(client) => {
                    let config = redis::cluster::ClusterConfig::new()
                        .set_connection_timeout(timeout)
                        .set_response_timeout(timeout)
                        .set_push_sender(pushes);
                    Connection::Cluster(client.get_pending_async_connection_with_config(config))
                }
            }
        };
        let ends = Arc::new(Ends::default());
        background.spawn(listen(pushed, Arc::downgrade(&ends)));
        Ok(Self {
            inner: Arc::new(Inner {
                client,
                prefix,
                timeout,
                replicas,
                connection,
                ends,
                subscribed: AtomicBool::new(false),
                background,
            }),
        })
    }

    /// Puts every key under `prefix` instead of `elicit`.
    ///
    /// # Panics
    ///
    /// If the new connection's thread cannot start.
    #[must_use]
    pub fn prefix(self, prefix: impl Into<String>) -> Self {
        let inner = &self.inner;
        Self::start(
            inner.client.clone(),
            prefix.into(),
            inner.timeout,
            inner.replicas,
        )
        .expect("the thread of a Redis connection starts")
    }

    /// How many replicas must acknowledge a write that must survive a
    /// failover (a used `requestState`, a page's answer, an OAuth flow's
    /// used `state`) before it counts: `WAIT <replicas>` on the master
    /// that took it, within half the command timeout; fewer
    /// acknowledgements fail the step, closed, and take it back (the call
    /// fails and its `requestState` may come again; the page says "Not
    /// saved" and takes the post again), and a page's answer is visible to
    /// the agent only once acknowledged (`RedisStore`).
    /// [`ready`](Self::ready) says whether every master has the replicas
    /// asked for. `0` (no waiting) for [`open`](Self::open),
    /// `1` for [`cluster`](Self::cluster). Redis replicates asynchronously:
    /// without it, a master that fails right after a write can take the
    /// write with it, and a replay could then be accepted.
    #[must_use]
    pub fn replicated_writes(self, replicas: usize) -> Self {
        let inner = &self.inner;
        Self::start(
            inner.client.clone(),
            inner.prefix.clone(),
            inner.timeout,
            replicas,
        )
        .expect("the thread of a Redis connection starts")
    }

    /// How long one command may take, waiting for a connection included
    /// (default 2 seconds).
    ///
    /// # Panics
    ///
    /// If the new connection's thread cannot start.
    #[must_use]
    pub fn command_timeout(self, timeout: Duration) -> Self {
        let inner = &self.inner;
        let client = match &inner.client {
            Client::Single(client) => Client::Single(client.clone()),
            // The cluster client's own timeouts are its builder's.
            Client::Cluster(_) => inner.client.clone(),
        };
        Self::start(client, inner.prefix.clone(), timeout, inner.replicas)
            .expect("the thread of a Redis connection starts")
    }

    /// Waits until the write just made on the master of `key` reached
    /// [`replicated_writes`](Self::replicated_writes) replicas (at once if
    /// none are asked for): `false` when fewer acknowledged it within half
    /// the command timeout (its event, `not_replicated`, names how many).
    /// `WAIT` counts every write this replica's connection made before it,
    /// so a `true` covers them all.
    #[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
    pub(crate) async fn replicated(&self, key: String) -> RedisResult<bool> {
        let replicas = self.inner.replicas;
        if replicas == 0 {
            return Ok(true);
        }
        let millis = u64::try_from(self.inner.timeout.as_millis()).unwrap_or(u64::MAX);
        let mut command = redis::cmd("WAIT");
        command.arg(replicas).arg(millis / 2);
        let acknowledged: Value = self
            .run(move |mut connection| async move { connection.on_master_of(&key, command).await })
            .await?;
        let acknowledged = match acknowledged {
            Value::Int(n) => usize::try_from(n).unwrap_or(0),
            _ => 0,
        };
        if acknowledged >= replicas {
            return Ok(true);
        }
        refused!(NotReplicated, asked = replicas, acknowledged = acknowledged);
        Ok(false)
    }

    /// How many replicas must acknowledge a write that must survive a
    /// failover (`0`: none, the write counts once its master has it).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    pub(crate) fn replicas(&self) -> usize {
        self.inner.replicas
    }

    /// Runs `work` on this `Redis`'s runtime, detached: it goes on when
    /// the caller moves on (and stops with the last handle of this `Redis`).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    pub(crate) fn spawn(&self, work: impl Future<Output = ()> + Send + 'static) {
        self.inner.background.spawn(work);
    }

    /// Sleeps `duration` on this `Redis`'s runtime (from any executor).
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    pub(crate) async fn sleep(&self, duration: Duration) {
        let _ = self
            .inner
            .background
            .run(tokio::time::sleep(duration))
            .await;
    }

    /// Whether writes can count now: Redis answers, and every master has
    /// the in-sync replicas [`replicated_writes`](Self::replicated_writes)
    /// asks for (`INFO replication` on each master: its replicas whose
    /// link is `online`). A replica serves nothing that needs Redis while
    /// this fails, and says why at start and in its readiness check
    /// (`examples/replica.rs` serves it as `/ready`): a master without its
    /// replicas fails every step that must survive a failover (a page's
    /// answer, a used `requestState`), on the first start until the
    /// replicas' initial sync is done, and after a failover until a replica
    /// follows the promoted master.
    ///
    /// # Errors
    ///
    /// [`NotReady`]: which master lacks replicas, or that Redis did not
    /// answer (its error).
    pub async fn ready(&self) -> Result<(), NotReady> {
        let asked = self.inner.replicas;
        let mut command = redis::cmd("INFO");
        command.arg("replication");
        let infos: Vec<(String, String)> = self
            .run(move |connection| async move {
                match connection {
                    Connection::Single(mut connection) => {
                        let info: String = command.query_async(&mut connection).await?;
                        Ok(vec![("redis".to_owned(), info)])
                    }
                    Connection::Cluster(mut connection) => {
                        let routing = RoutingInfo::MultiNode((
                            redis::cluster_routing::MultipleNodeRoutingInfo::AllMasters,
                            None,
                        ));
                        let answers = connection.route_command(command, routing).await?;
                        masters_infos(answers)
                    }
                }
            })
            .await
            .map_err(NotReady::Unreachable)?;
        for (master, info) in infos {
            let online = info.lines().filter(|line| in_sync(line)).count();
            if online < asked {
                return Err(NotReady::Replicas {
                    master,
                    online,
                    asked,
                });
            }
        }
        Ok(())
    }

    /// The key `<prefix>:<rest>`.
    #[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
    pub(crate) fn key(&self, rest: std::fmt::Arguments<'_>) -> String {
        format!("{}:{rest}", self.inner.prefix)
    }

    /// The channel the end notices are published on.
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    pub(crate) fn ends_channel(&self) -> String {
        self.key(format_args!("ends"))
    }

    /// Runs `command` on the shared connection, within the timeout.
    #[cfg_attr(not(any(feature = "sensitive", feature = "rmcp")), allow(dead_code))]
    pub(crate) async fn query<T>(&self, command: redis::Cmd) -> RedisResult<T>
    where
        T: FromRedisValue + Send + 'static,
    {
        self.run(move |mut connection| async move { command.query_async(&mut connection).await })
            .await
    }

    /// Runs a script (`EVALSHA`, loaded on first use) on the shared
    /// connection, within the timeout.
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    pub(crate) async fn script<T>(&self, script: redis::ScriptInvocation<'static>) -> RedisResult<T>
    where
        T: FromRedisValue + Send + 'static,
    {
        self.run(move |mut connection| async move { script.invoke_async(&mut connection).await })
            .await
    }

    /// `work` on the shared connection, on this `Redis`'s runtime, failed
    /// with a timeout after the command timeout.
    async fn run<T, F, W>(&self, work: W) -> RedisResult<T>
    where
        T: Send + 'static,
        F: Future<Output = RedisResult<T>> + Send + 'static,
        W: FnOnce(Connection) -> F,
    {
        let timeout = self.inner.timeout;
        let work = work(self.inner.connection.clone());
        let done = self
            .inner
            .background
            .run(async move { within(timeout, work).await });
        let result = done.await.unwrap_or_else(|| Err(stopped()));
        if let Err(error) = &result {
            match cause(error) {
                Cause::Timeout => refused!(RedisTimeout),
                Cause::Unreachable => refused!(RedisUnreachable, kind = error_kind(error)),
                Cause::Failed => refused!(RedisFailed, kind = error_kind(error)),
            }
        }
        result
    }

    /// The end pushed on `list` while the key `hash` lives: `None` when
    /// the key is gone with no end (or Redis could not be read for a
    /// minute past its last known expiry). A task on this `Redis`'s
    /// runtime, cancelled when the future is dropped; lazy: nothing is
    /// asked of Redis until it is polled.
    #[cfg(feature = "sensitive")]
    pub(crate) fn wait_end(
        &self,
        hash: String,
        list: String,
    ) -> impl Future<Output = Option<Vec<u8>>> + Send + 'static {
        let redis = self.clone();
        async move {
            redis.subscribe();
            let watch = watch(
                redis.inner.connection.clone(),
                Arc::clone(&redis.inner.ends),
                redis.inner.timeout,
                hash,
                list,
            );
            let task = redis.inner.background.run(watch);
            // The task holds no clone of this `Redis`: dropping every
            // handle stops the thread and its waiters.
            drop(redis);
            task.await.flatten()
        }
    }

    /// How many flows wait on this replica (for the tests: each one a
    /// task, not a thread).
    #[doc(hidden)]
    pub fn waiting(&self) -> usize {
        self.inner.ends.len()
    }

    /// Subscribes the connection to the end notices, once: the
    /// subscription is asked again until it holds, and then renewed with
    /// every reconnection.
    #[cfg(feature = "sensitive")]
    fn subscribe(&self) {
        if self.inner.subscribed.swap(true, Ordering::AcqRel) {
            return;
        }
        let (mut connection, channel) = (self.inner.connection.clone(), self.ends_channel());
        let (timeout, ends) = (self.inner.timeout, Arc::downgrade(&self.inner.ends));
        self.inner.background.spawn(async move {
            loop {
                let subscribed = within(timeout, connection.subscribe(&channel)).await;
                if subscribed.is_ok() {
                    // Anything that ended before: read again.
                    if let Some(ends) = ends.upgrade() {
                        ends.wake_all();
                    }
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
}

/// `work`, failed with a timeout after `timeout`.
async fn within<T>(
    timeout: Duration,
    work: impl Future<Output = RedisResult<T>>,
) -> RedisResult<T> {
    let timed_out = || {
        RedisError::from(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("Redis did not answer within {timeout:?}"),
        ))
    };
    match tokio::time::timeout(timeout, work).await {
        // redis-rs's own timeout (the same) may fire first: one message.
        Ok(Err(error)) if error.is_timeout() => Err(timed_out()),
        Ok(result) => result,
        Err(_) => Err(timed_out()),
    }
}

/// What kind of failure `error` is, for its event (never its text, which
/// may name a key).
fn error_kind(error: &RedisError) -> &'static str {
    if error.is_timeout() {
        "timeout"
    } else if error.is_connection_refusal() {
        "connection_refused"
    } else if error.is_connection_dropped() {
        "connection_dropped"
    } else if error.is_io_error() {
        "io"
    } else {
        "server"
    }
}

/// Why a command failed, as an operator acts on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// No answer within the command timeout (`redis_timeout`).
    Timeout,
    /// No connection: refused, dropped, or another I/O failure
    /// (`redis_unreachable`).
    Unreachable,
    /// Redis answered with an error (`redis_failed`).
    Failed,
}

impl Cause {
    /// The reason an event names it by.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Timeout => "redis_timeout",
            Self::Unreachable => "redis_unreachable",
            Self::Failed => "redis_failed",
        }
    }
}

/// Why `error` happened.
pub(crate) fn cause(error: &RedisError) -> Cause {
    if error.is_timeout() {
        Cause::Timeout
    } else if error.is_connection_refusal() || error.is_connection_dropped() || error.is_io_error()
    {
        Cause::Unreachable
    } else {
        Cause::Failed
    }
}

/// Whether a replica's line of its master's `INFO replication`
/// (`slave0:ip=..,port=..,state=online,offset=..,lag=0`) says it is in
/// sync: online, and its last acknowledgement (sent every second) at most
/// [`MAX_LAG`] seconds ago.
fn in_sync(line: &str) -> bool {
    let Some(fields) = line
        .strip_prefix("slave")
        .and_then(|rest| rest.split_once(':'))
    else {
        return false;
    };
    let field = |name: &str| {
        fields
            .1
            .split(',')
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
    };
    field("state") == Some("online")
        && field("lag")
            .and_then(|lag| lag.trim().parse::<u64>().ok())
            .is_some_and(|lag| lag <= MAX_LAG)
}

/// How many seconds a replica may go without acknowledging its master's
/// stream and still count as in sync ([`Redis::ready`]).
const MAX_LAG: u64 = 2;

/// The `INFO replication` of each master, from a command routed to all of
/// them (a map of address to answer).
fn masters_infos(answers: Value) -> RedisResult<Vec<(String, String)>> {
    let text = |value: Value| -> Option<String> {
        match value {
            Value::BulkString(bytes) => String::from_utf8(bytes).ok(),
            Value::VerbatimString { text, .. } => Some(text),
            Value::SimpleString(text) => Some(text),
            _ => None,
        }
    };
    let Value::Map(answers) = answers else {
        return Err(RedisError::from(std::io::Error::other(
            "INFO on every master: not a map of answers",
        )));
    };
    answers
        .into_iter()
        .map(|(address, info)| {
            let address = text(address).unwrap_or_default();
            text(info).map(|info| (address, info)).ok_or_else(|| {
                RedisError::from(std::io::Error::other("INFO on a master: not a text answer"))
            })
        })
        .collect()
}

/// Why writes cannot count now ([`Redis::ready`]): what a replica says at
/// start and in its readiness check, for its operator (the addresses of
/// Redis's nodes are in it: log it, do not send it to a client).
#[derive(Debug)]
#[non_exhaustive]
pub enum NotReady {
    /// A master has fewer replicas in sync than
    /// [`Redis::replicated_writes`] asks for: its steps that must survive a
    /// failover fail until a replica follows it.
    Replicas {
        /// The master (its address).
        master: String,
        /// Its replicas in sync.
        online: usize,
        /// How many every write waits for.
        asked: usize,
    },
    /// Redis did not answer (unreachable, or not within the timeout).
    Unreachable(RedisError),
}

impl NotReady {
    /// The reason of its event: `not_replicated`, `redis_unreachable`,
    /// `redis_timeout` or `redis_failed`.
    pub fn reason(&self) -> &'static str {
        match self {
            Self::Replicas { .. } => "not_replicated",
            Self::Unreachable(error) => cause(error).as_str(),
        }
    }
}

impl fmt::Display for NotReady {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Replicas {
                master,
                online,
                asked,
            } => write!(
                f,
                "Redis master {master} has {online} replica(s) in sync, writes wait for {asked}: \
                 the steps that must survive a failover fail until a replica follows it"
            ),
            Self::Unreachable(error) => write!(f, "Redis did not answer: {error}"),
        }
    }
}

impl std::error::Error for NotReady {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Unreachable(error) => Some(error),
            Self::Replicas { .. } => None,
        }
    }
}

/// The error of a command whose runtime stopped (its `Redis` dropped).
fn stopped() -> RedisError {
    RedisError::from(std::io::Error::other(
        "the Redis connection's thread stopped",
    ))
}

/// The pushes of the connection: an end notice wakes the flows waiting
/// for that end; a lost connection, and a (re)subscription, wake them all
/// to read their ends again.
async fn listen(mut pushed: mpsc::UnboundedReceiver<PushInfo>, ends: std::sync::Weak<Ends>) {
    while let Some(push) = pushed.recv().await {
        let Some(ends) = ends.upgrade() else {
            return;
        };
        match push.kind {
            PushKind::Message => {
                if let Some(Value::BulkString(list)) = push.data.get(1)
                    && let Ok(list) = std::str::from_utf8(list)
                {
                    ends.wake(list);
                }
            }
            PushKind::Disconnection | PushKind::Subscribe => ends.wake_all(),
            _ => {}
        }
    }
}

/// Reads the end on `list` until it comes or `hash` goes, waking on each
/// notice (see [`Redis::wait_end`]).
#[cfg(feature = "sensitive")]
async fn watch(
    connection: Connection,
    ends: Arc<Ends>,
    timeout: Duration,
    hash: String,
    list: String,
) -> Option<Vec<u8>> {
    // How long to keep trying while Redis cannot be read: until the last
    // known expiry of the keys, or a minute.
    let mut give_up = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        // Before reading: a notice from now on wakes this round.
        let notice = ends.register(&list);
        let mut pipeline = redis::pipe();
        pipeline
            .cmd("LINDEX")
            .arg(&list)
            .arg(0)
            .cmd("PTTL")
            .arg(&hash);
        let mut connection = connection.clone();
        let read: RedisResult<(Option<Vec<u8>>, i64)> =
            within(timeout, pipeline.query_async(&mut connection)).await;
        let now = tokio::time::Instant::now();
        let next = match read {
            Ok((Some(end), _)) => return Some(end),
            // Gone, with no end.
            Ok((None, -2)) => return None,
            // A key without expiry (not one of ours): the safety net's pace.
            Ok((None, -1)) => RECHECK,
            Ok((None, left)) => {
                let left = Duration::from_millis(u64::try_from(left).unwrap_or(0));
                give_up = now + left + Duration::from_secs(60);
                left.clamp(Duration::from_millis(10), RECHECK)
            }
            Err(_) if now >= give_up => return None,
            Err(_) => Duration::from_secs(1),
        };
        let _ = tokio::time::timeout(next, notice).await;
    }
}

/// The flows waiting on this replica, by the end list they wait for.
#[derive(Default)]
struct Ends {
    waiters: Mutex<HashMap<String, Vec<oneshot::Sender<()>>>>,
    registered: AtomicUsize,
}

impl Ends {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Vec<oneshot::Sender<()>>>> {
        // Never held across an await; nothing panics while it is held.
        self.waiters.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A notice for `list`, from now on.
    #[cfg_attr(not(feature = "sensitive"), allow(dead_code))]
    fn register(&self, list: &str) -> oneshot::Receiver<()> {
        let (sender, receiver) = oneshot::channel();
        let mut waiters = self.lock();
        // Now and then, forget the waiters that went away.
        if self.registered.fetch_add(1, Ordering::Relaxed) % 1024 == 1023 {
            waiters.retain(|_, senders| {
                senders.retain(|sender| !sender.is_closed());
                !senders.is_empty()
            });
        }
        let senders = waiters.entry(list.to_owned()).or_default();
        senders.retain(|sender| !sender.is_closed());
        senders.push(sender);
        receiver
    }

    fn wake(&self, list: &str) {
        let senders = self.lock().remove(list).unwrap_or_default();
        for sender in senders {
            let _ = sender.send(());
        }
    }

    fn wake_all(&self) {
        let all = std::mem::take(&mut *self.lock());
        for sender in all.into_values().flatten() {
            let _ = sender.send(());
        }
    }

    /// The waiters still there.
    fn len(&self) -> usize {
        self.lock()
            .values()
            .flatten()
            .filter(|sender| !sender.is_closed())
            .count()
    }
}
