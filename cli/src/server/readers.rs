//! The stores that answer reads side by side: searches, context, lists, people and
//! profiles. Each reader thread owns a store of its own (its own component instance
//! and index connection) and takes the next read from one shared queue. A read holds
//! the home's lock shared, so reads overlap one another and every process's reads, and
//! wait only for a write in progress; a read that waits on a remote embedder holds no
//! lock and no core, so many callers' waits overlap even on two cores.
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

/// Reads waiting for a reader. Each reader waits on it with a deadline of its own (to
/// write what it put off), which one `mpsc::Receiver` behind a mutex would not allow.
#[derive(Default)]
struct Queue {
    jobs: Mutex<(VecDeque<Job>, bool)>,
    ready: Condvar,
}

/// Sends reads to the readers; when the last one is dropped, the readers finish what is
/// queued and stop.
pub struct ReadSender(Arc<Queue>);

impl ReadSender {
    /// Queues a read; false once the readers are stopping.
    pub fn send(&self, job: Job) -> bool {
        let mut jobs = self.0.jobs.lock().unwrap_or_else(|p| p.into_inner());
        if jobs.1 {
            return false;
        }
        jobs.0.push_back(job);
        self.0.ready.notify_one();
        true
    }
}

impl Drop for ReadSender {
    fn drop(&mut self) {
        self.0.jobs.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
        self.0.ready.notify_all();
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
    fn next(&self, deadline: Option<Instant>) -> Next {
        let mut jobs = self.jobs.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(job) = jobs.0.pop_front() {
                return Next::Job(job);
            }
            if jobs.1 {
                return Next::Closed;
            }
            jobs = match deadline {
                None => self.ready.wait(jobs).unwrap_or_else(|p| p.into_inner()),
                Some(at) => {
                    let left = at.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Next::Idle;
                    }
                    self.ready.wait_timeout(jobs, left).unwrap_or_else(|p| p.into_inner()).0
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
        let queue = Arc::new(Queue::default());
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
                        serve_reads(store, &queue);
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
fn serve_reads(mut store: MemoryStore, queue: &Queue) {
    let mut deferred_since: Option<Instant> = None;
    loop {
        let next = queue.next(deferred_since.map(|since| since + FLUSH_AFTER));
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
