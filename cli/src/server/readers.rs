//! The stores that answer reads side by side: searches, context, lists, people and
//! profiles. Each reader thread owns a store of its own (its own component instance
//! and index connection); a read goes to the reader that went idle last (`Queue`). A read takes
//! the home's lock shared only to pin the files and the index as they stand, so reads overlap
//! one another and every process's reads and writes, and wait only for a write in progress;
//! a read that waits on a remote embedder holds no lock and no core, so many callers' waits
//! overlap even on two cores.
//!
//! Reads write nothing. What a read puts off (when memories were recalled) its store
//! writes within `FLUSH_AFTER`, in one write, not one per search.

use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};

use ash_memory::{MemoryStore, MemoryStoreBuilder};

use super::worker::Job;

/// How long a reader keeps what its reads put off before it writes it.
const FLUSH_AFTER: Duration = Duration::from_secs(2);

/// The readers' shared queue and their threads.
pub struct Readers {
    pub(super) jobs: ReadSender,
    pub(super) threads: Vec<JoinHandle<()>>,
}

/// Reads waiting for a reader, and the readers waiting for a read. A read goes to the
/// reader that went idle last: a run of calls one after another stays on one warm store
/// (its caches, its held vectors), and only calls at once spread over several. Each
/// reader waits with a deadline of its own (to write what it put off).
struct Queue {
    state: Mutex<State>,
    /// One per reader: its read was handed over, or the queue closed.
    wake: Vec<Condvar>,
}

#[derive(Default)]
struct State {
    /// Reads no reader was free for, first come first served.
    backlog: VecDeque<Job>,
    /// Readers waiting, the one that went idle last on top.
    idle: Vec<usize>,
    /// The read handed to each reader.
    handed: Vec<Option<Job>>,
    closed: bool,
}

/// Sends reads to the readers; when the last one is dropped, the readers finish what is
/// queued and stop.
pub struct ReadSender(Arc<Queue>);

impl ReadSender {
    /// Queues a read; false once the readers are stopping.
    pub fn send(&self, job: Job) -> bool {
        let mut state = self.0.lock();
        if state.closed {
            return false;
        }
        match state.idle.pop() {
            Some(reader) => {
                state.handed[reader] = Some(job);
                self.0.wake[reader].notify_one();
            }
            None => state.backlog.push_back(job),
        }
        true
    }
}

impl Drop for ReadSender {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.wake.iter().for_each(Condvar::notify_one);
    }
}

/// What a reader waits for next.
enum Next {
    Job(Job),
    /// The deadline passed with nothing queued.
    Idle,
    Closed,
}

impl Queue {
    fn new(readers: usize) -> Queue {
        Queue {
            state: Mutex::new(State {
                handed: (0..readers).map(|_| None).collect(),
                ..State::default()
            }),
            wake: (0..readers).map(|_| Condvar::new()).collect(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The next read for `reader`, waiting until `deadline` if one is given.
    fn next(&self, reader: usize, deadline: Option<Instant>) -> Next {
        let mut state = self.lock();
        if let Some(job) = state.backlog.pop_front() {
            return Next::Job(job);
        }
        if state.closed {
            return Next::Closed;
        }
        state.idle.push(reader);
        loop {
            if let Some(job) = state.handed[reader].take() {
                return Next::Job(job);
            }
            let left = deadline.map(|at| at.saturating_duration_since(Instant::now()));
            if state.closed || left.is_some_and(|l| l.is_zero()) {
                state.idle.retain(|&r| r != reader);
                return if state.closed { Next::Closed } else { Next::Idle };
            }
            state = match left {
                None => self.wake[reader].wait(state).unwrap_or_else(|p| p.into_inner()),
                Some(left) => {
                    self.wake[reader]
                        .wait_timeout(state, left)
                        .unwrap_or_else(|p| p.into_inner())
                        .0
                }
            };
        }
    }
}

impl Readers {
    /// Opens `count` stores from `builder`, each on a thread of its own, and returns once
    /// all are ready (or with the reason one could not open).
    pub fn start(builder: &MemoryStoreBuilder, count: usize) -> Result<Option<Readers>> {
        if count == 0 {
            return Ok(None);
        }
        let queue = Arc::new(Queue::new(count));
        let mut threads = Vec::with_capacity(count);
        let (ready_tx, ready) = mpsc::channel::<Result<(), ash_memory::Error>>();
        for n in 0..count {
            let Some(builder) = builder.duplicate() else {
                tracing::info!("reads are answered in turn: the store was given its own embedder or model");
                return Ok(None);
            };
            let queue = Arc::clone(&queue);
            let ready_tx = ready_tx.clone();
            let thread = std::thread::Builder::new()
                .name(format!("ash-read-{n}"))
                .spawn(move || match builder.open() {
                    Ok(store) => {
                        let _ = ready_tx.send(Ok(()));
                        drop(ready_tx);
                        serve_reads(store, &queue, n);
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                })
                .context("starting a reader thread")?;
            threads.push(thread);
        }
        drop(ready_tx);
        for _ in 0..count {
            ready
                .recv()
                .context("a reader thread stopped while opening the home")?
                .context("opening the memory home for reads")?;
        }
        Ok(Some(Readers {
            jobs: ReadSender(queue),
            threads,
        }))
    }
}

/// Runs reads until every sender is gone, then writes what they put off.
fn serve_reads(mut store: MemoryStore, queue: &Queue, reader: usize) {
    let mut deferred_since: Option<Instant> = None;
    loop {
        let next = queue.next(reader, deferred_since.map(|since| since + FLUSH_AFTER));
        let job = match next {
            Next::Job(job) => Some(job),
            Next::Idle => None,
            Next::Closed => break,
        };
        let run = std::panic::AssertUnwindSafe(|| {
            if let Some(job) = job {
                job(&mut store);
            }
            if !store.has_deferred() {
                deferred_since = None;
                return;
            }
            let since = *deferred_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= FLUSH_AFTER {
                if let Err(e) = store.flush_deferred() {
                    tracing::warn!("could not write what reads put off: {e}");
                }
                deferred_since = None;
            }
        });
        if std::panic::catch_unwind(run).is_err() {
            drop(store);
            tracing::error!("a read panicked (a bug in ash-memory): stopping so that a restart begins clean");
            std::process::exit(70);
        }
    }
    // Dropping the store writes what is left.
}
