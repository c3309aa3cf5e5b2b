//! Writes side by side, on a backend that locks scopes (Postgres): besides the store
//! thread (`worker`), `--writers` minus one stores of their own, each on a thread, take
//! writes too. A caller's writes always go to the same store (its lane: its user's, or
//! its chat's when it has no user), so that one user's writes run in the order they
//! came, whichever chat they come from; different users' run side by side, and wait for
//! each other only when they share a chat (Postgres's scope locks, `docs/scale-out.md`).
//! On the files backend one writer at a time holds the home's lock, so there are no
//! lanes: every write goes to the store thread.

use std::hash::{Hash as _, Hasher as _};
use std::sync::mpsc;
use std::thread::JoinHandle;

use anyhow::{Context as _, Result};

use ash_memory::{Caller, MemoryStore, MemoryStoreBuilder};

use super::worker::Job;

/// The side writers' queues; lane 0 is the store thread's, which has none here.
pub struct Lanes {
    side: Vec<mpsc::Sender<Job>>,
}

impl Lanes {
    /// Opens `count` stores from `builder`, each on a thread of its own, and returns once
    /// all are ready (or with the reason one could not open). None when `builder` cannot
    /// be duplicated (a store given its own embedder or model).
    pub fn start(builder: &MemoryStoreBuilder, count: usize) -> Result<Option<(Lanes, Vec<JoinHandle<()>>)>> {
        let mut side = Vec::with_capacity(count);
        let mut threads = Vec::with_capacity(count);
        let (ready_tx, ready) = mpsc::channel::<Result<(), ash_memory::Error>>();
        for n in 1..=count {
            let Some(builder) = builder.duplicate() else {
                return Ok(None);
            };
            let (jobs, queue) = mpsc::channel::<Job>();
            let ready_tx = ready_tx.clone();
            let thread = std::thread::Builder::new()
                .name(format!("ash-write-{n}"))
                .spawn(move || match builder.open() {
                    Ok(store) => {
                        let _ = ready_tx.send(Ok(()));
                        drop(ready_tx);
                        serve_writes(store, &queue);
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                })
                .context("starting a writer thread")?;
            side.push(jobs);
            threads.push(thread);
        }
        drop(ready_tx);
        for _ in 0..count {
            ready
                .recv()
                .context("a writer thread stopped while opening the home")?
                .context("opening the memory home for writes")?;
        }
        Ok(Some((Lanes { side }, threads)))
    }

    /// The queue of `caller`'s lane; None for the store thread's (lane 0), which is also
    /// every call's without a user or a chat.
    pub fn of(&self, caller: &Caller) -> Option<&mpsc::Sender<Job>> {
        // The user's scope when there is one, else the chat's.
        let key = caller.scopes().into_iter().next()?;
        // SipHash with fixed keys: the same lane for the same caller all the server's life.
        let mut hasher = std::hash::DefaultHasher::new();
        key.hash(&mut hasher);
        let lane = (hasher.finish() % (self.side.len() as u64 + 1)) as usize;
        lane.checked_sub(1).map(|i| &self.side[i])
    }
}

/// Runs writes until every sender is gone. A panic is handled as the store thread does:
/// the process ends, and a restart begins clean.
fn serve_writes(mut store: MemoryStore, queue: &mpsc::Receiver<Job>) {
    while let Ok(job) = queue.recv() {
        let run = std::panic::AssertUnwindSafe(|| job(&mut store));
        if std::panic::catch_unwind(run).is_err() {
            drop(store);
            tracing::error!("a call panicked (a bug in ash-memory): stopping so that a restart begins clean");
            std::process::exit(70);
        }
    }
}
