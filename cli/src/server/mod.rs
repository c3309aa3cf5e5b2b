//! `ash-memory serve`: one long-lived host per home, holding one [`MemoryStore`] (the
//! compiled component, the index connection, the loaded collections) for many clients.
//!
//! - `instance`: one server per home, and the socket's stale-or-live check.
//! - `worker`: the thread that owns the writing store; writes run in arrival order.
//! - `readers`: the stores that answer reads side by side.
//! - `writers`: on Postgres, the stores that take writes of different callers side by side.
//! - `connection`: one connection over a Unix socket or loopback TCP; `frame`: the line
//!   rules (newline-delimited JSON, 4 MiB a line) it shares with MCP on stdio; `session`:
//!   who a connection speaks for; `rpc`: JSON-RPC envelopes and error codes; `methods`:
//!   the methods; `peers`: each sandbox process's share of token-less connections.
//! - `tokens`: caller tokens, which pin a connection to one user.
//! - `mcp`: the Model Context Protocol, on stdio (`ash-memory mcp`) or streamable HTTP;
//!   `loopback_http`: the accept loop of the HTTP listeners.
//! - `ui`: the memory browser, for the owner (`ash-memory ui`) or token holders (`--ui`).
//!
//! The store re-reads what changed on disk before every call, so a CLI `add` made while
//! the server runs is seen by the server's next answer; the home's lock serializes the two.
//!
//! [`MemoryStore`]: ash_memory::MemoryStore

mod connection;
mod frame;
mod instance;
mod loopback_http;
pub mod mcp;
pub mod methods;
mod peers;
mod readers;
pub mod rpc;
pub mod session;
pub mod tokens;
pub mod ui;
mod worker;
mod writers;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use tokio::net::{TcpListener, UnixListener};
use tokio::sync::watch;
use tokio::task::JoinSet;

use ash_memory::MemoryStoreBuilder;

use peers::Peer;
use session::{Session, Transport};
use tokens::TokenBook;
use worker::Worker;

/// How long shutdown waits for requests in flight before giving up on them.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);
/// The most connections one listener holds at once; more wait in the kernel's backlog.
const MAX_CONNECTIONS: usize = 512;

/// What every connection of one server shares.
pub struct Shared {
    /// The store thread.
    pub worker: Worker,
    /// The home's tokens.
    pub tokens: TokenBook,
}

/// What `serve` listens on.
pub struct ServeOptions {
    /// The home served.
    pub home: PathBuf,
    /// The owner's Unix socket; `None` means `$ASH_HOME/run/ash.sock`.
    pub socket: Option<PathBuf>,
    /// A Unix socket for sandboxes: every connection must present a token.
    pub sandbox_socket: Option<PathBuf>,
    /// Loopback TCP for JSON-RPC (tokens required).
    pub listen: Option<SocketAddr>,
    /// Loopback TCP for MCP's streamable HTTP transport (tokens required).
    pub mcp: Option<SocketAddr>,
    /// Loopback TCP for the memory browser (tokens log in).
    pub ui: Option<SocketAddr>,
    /// Stores that answer reads side by side; 0 runs reads in turn with the writes.
    pub readers: usize,
    /// Stores that take writes, side by side for different callers on a backend that
    /// locks scopes (Postgres); the files backend has one whatever this says.
    pub writers: usize,
}

/// Readers by default: enough for eight callers waiting on a remote embedder at once.
/// Each costs a component instance (its memory grows with the caches it fills).
pub const DEFAULT_READERS: u8 = 8;
/// The most readers `--readers` takes: each costs a thread and a component instance.
pub const MAX_READERS: i64 = 64;
/// Writers by default on Postgres: about what two cores keep busy with the embedded model,
/// and some to overlap Postgres's own round trips and commits.
pub const DEFAULT_WRITERS: u8 = 4;
/// The most writers `--writers` takes.
pub const MAX_WRITERS: i64 = 64;

/// The default socket of a home.
pub fn default_socket(home: &std::path::Path) -> PathBuf {
    home.join("run").join("ash.sock")
}

/// Runs the server until SIGINT or SIGTERM.
pub fn serve(options: ServeOptions, builder: MemoryStoreBuilder) -> Result<()> {
    for (flag, addr) in [
        ("--listen", options.listen),
        ("--mcp", options.mcp),
        ("--ui", options.ui),
    ] {
        if let Some(addr) = addr
            && !addr.ip().is_loopback()
        {
            bail!("{flag} {addr}: only loopback addresses are served (put a TLS proxy in front for anything else)");
        }
    }
    let instance = instance::Instance::claim(&options.home)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("ash-serve")
        .build()
        .context("starting the server's runtime")?;
    // Signals are caught from here on: a Ctrl-C while the store opens stops cleanly.
    let signals = {
        let _entered = runtime.enter();
        Signals::install()?
    };
    let (worker, store_thread) = Worker::start(builder, options.readers, options.writers)?;
    let shared = Arc::new(Shared {
        worker,
        tokens: TokenBook::new(&options.home),
    });
    let served = runtime.block_on(run(&options, shared, signals));
    runtime.shutdown_timeout(Duration::from_secs(1));
    // Every worker handle is gone with the runtime's tasks: the store thread finishes.
    store_thread.join();
    drop(instance);
    tracing::info!("stopped");
    served
}

async fn run(options: &ServeOptions, shared: Arc<Shared>, mut signals: Signals) -> Result<()> {
    // Everything is bound before anything is served, so that a client that had an answer
    // on one listener finds all the others.
    let owner_path = options.socket.clone().unwrap_or_else(|| default_socket(&options.home));
    let mut owner = instance::SocketFile::bind(&owner_path)?;
    let mut sandbox = options
        .sandbox_socket
        .as_deref()
        .map(instance::SocketFile::bind)
        .transpose()?;
    let tcp = match options.listen {
        Some(addr) => Some(
            TcpListener::bind(addr)
                .await
                .with_context(|| format!("listening on {addr}"))?,
        ),
        None => None,
    };
    let mcp = match options.mcp {
        Some(addr) => {
            let listener = TcpListener::bind(addr)
                .await
                .with_context(|| format!("listening on {addr}"))?;
            Some((listener, mcp::MemoryTools::new(shared.worker.clone(), None).await?))
        }
        None => None,
    };
    let ui = match options.ui {
        Some(addr) => Some(
            TcpListener::bind(addr)
                .await
                .with_context(|| format!("listening on {addr}"))?,
        ),
        None => None,
    };

    let (stop, stopped) = watch::channel(false);
    let mut tasks = JoinSet::new();
    tracing::info!("serving {} on {}", options.home.display(), owner.path().display());
    tasks.spawn(accept(
        owner.listener()?,
        Transport::OwnerSocket,
        shared.clone(),
        stopped.clone(),
    ));
    if let Some(sandbox) = &mut sandbox {
        tracing::info!("sandboxes on {} (tokens required)", sandbox.path().display());
        tasks.spawn(accept(
            sandbox.listener()?,
            Transport::SandboxSocket,
            shared.clone(),
            stopped.clone(),
        ));
    }
    if let Some(tcp) = tcp {
        tracing::info!("JSON-RPC on tcp://{} (tokens required)", tcp.local_addr()?);
        tasks.spawn(accept(tcp, Transport::Tcp, shared.clone(), stopped.clone()));
    }
    if let Some((listener, tools)) = mcp {
        tracing::info!("MCP on http://{}/mcp (tokens required)", listener.local_addr()?);
        tasks.spawn(mcp::serve_http(listener, tools, shared.clone(), stopped.clone()));
    }
    if let Some(listener) = ui {
        let addr = listener.local_addr()?;
        tracing::info!("the memory browser on http://{addr}/?token=<token> (tokens log in)");
        let ui = Arc::new(ui::Ui::new(shared.clone(), addr, None));
        tasks.spawn(ui::serve(listener, ui, stopped.clone()));
    }
    drop(shared);

    signals.wait().await;
    // New clients find no socket at once ("no server"), rather than waiting on a listener
    // that no longer accepts.
    drop((owner, sandbox));
    tracing::info!("stopping: finishing requests in flight");
    let _ = stop.send(true);
    let drained = tokio::time::timeout(DRAIN_TIMEOUT, async { while tasks.join_next().await.is_some() {} }).await;
    if drained.is_err() {
        tracing::warn!("requests still running after {DRAIN_TIMEOUT:?} were abandoned");
        tasks.abort_all();
    }
    Ok(())
}

/// SIGINT and SIGTERM, caught from the moment they are installed.
struct Signals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    fn install() -> Result<Signals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Signals {
            interrupt: signal(SignalKind::interrupt()).context("catching SIGINT")?,
            terminate: signal(SignalKind::terminate()).context("catching SIGTERM")?,
        })
    }

    async fn wait(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }
}

/// A listening socket of either kind.
trait Listener: Send + 'static {
    type Stream: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static;
    fn next(&self) -> impl Future<Output = std::io::Result<Self::Stream>> + Send;
    /// Who is at the other end, when the kernel can say.
    fn peer(_stream: &Self::Stream) -> Option<Peer> {
        None
    }
}

impl Listener for UnixListener {
    type Stream = tokio::net::UnixStream;
    async fn next(&self) -> std::io::Result<Self::Stream> {
        Ok(self.accept().await?.0)
    }
    fn peer(stream: &Self::Stream) -> Option<Peer> {
        Peer::of(stream)
    }
}

impl Listener for TcpListener {
    type Stream = tokio::net::TcpStream;
    async fn next(&self) -> std::io::Result<Self::Stream> {
        let (stream, _) = self.accept().await?;
        // Answers are single small writes: send them now. (A peer that already hung up
        // makes this fail; its connection fails at the first read instead.)
        let _ = stream.set_nodelay(true);
        Ok(stream)
    }
}

/// Accepts connections until shutdown; each runs as its own task, and shutdown waits
/// for all of them to answer what they already read.
async fn accept<L: Listener>(listener: L, transport: Transport, shared: Arc<Shared>, stopped: watch::Receiver<bool>) {
    let mut connections = JoinSet::new();
    let mut stopping = stopped.clone();
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let waiting = Arc::new(peers::Waiting::default());
    let queue = Arc::new(peers::Queue::default());
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
            () = until_stopped(&mut stopping) => break,
        };
        tokio::select! {
            accepted = listener.next() => match accepted {
                Ok(stream) => {
                    // On the sandbox socket, each process has a share of token-less
                    // connections (`peers`); past it, it is told so and closed at once.
                    let peer = (transport == Transport::SandboxSocket).then(|| L::peer(&stream)).flatten();
                    let ticket = match peer.map(|p| (p, waiting.admit(p))) {
                        Some((peer, None)) => {
                            connections.spawn(async move {
                                refuse(stream, peer).await;
                                drop(slot);
                            });
                            continue;
                        }
                        Some((_, ticket)) => ticket,
                        None => None,
                    };
                    // On loopback TCP, whose peers cannot be told apart, the token-less
                    // connections are few, and a newcomer ends the longest wait.
                    let place = (transport == Transport::Tcp).then(|| queue.join());
                    let session = Session::new(shared.clone(), transport);
                    let served = connection::serve(stream, session, ticket, place, stopped.clone());
                    connections.spawn(async move {
                        served.await;
                        drop(slot);
                    });
                }
                Err(e) => {
                    // Out of descriptors, usually: wait a little rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
            () = until_stopped(&mut stopping) => break,
        }
        // Reap finished connections as we go.
        while connections.try_join_next().is_some() {}
    }
    drop((listener, shared));
    while connections.join_next().await.is_some() {}
}

/// Tells a process that holds its share of token-less connections why this one closes.
async fn refuse<S: tokio::io::AsyncWrite + Unpin>(mut stream: S, peer: Peer) {
    use tokio::io::AsyncWriteExt as _;
    tracing::warn!(
        "refused a connection from {peer}: it already holds {} without a token",
        peers::MAX_WAITING_PER_PEER
    );
    let e = rpc::RpcError::too_many_connections(format!(
        "this process already holds {} connections that have not presented a token; \
         authenticate those (auth {{\"token\": ...}}) or close them",
        peers::MAX_WAITING_PER_PEER
    ));
    let _ = connection::send(&mut stream, &rpc::response(serde_json::Value::Null, Err(e))).await;
    let _ = stream.shutdown().await;
}

/// Resolves once shutdown has begun.
pub(crate) async fn until_stopped(stopped: &mut watch::Receiver<bool>) {
    // (The guard `wait_for` returns is dropped here, so that callers' futures stay `Send`.)
    let _ = stopped.wait_for(|stop| *stop).await.map(|_| ());
}
