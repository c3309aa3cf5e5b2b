//! The thread that owns the writing [`MemoryStore`]. Every connection's writes wait in
//! one queue and run in arrival order: writes are serialized by the home's lock anyway,
//! and a first-come queue means no client starves however busy the others are. On a
//! backend that locks scopes (Postgres), writes for callers go to lanes instead
//! (`writers`), this thread being one of them. Reads go to the readers (`readers`), side
//! by side, unless there are none.
//!
//! The thread also keeps the weekly reflections (`reflect`): after a user's call it asks
//! whether theirs is due, at most once per `[memory] reflection_check_minutes`; the
//! policy decides (one per 6 days, with 3 new facts). And it reads conversations for
//! facts (`extract`) once a session has had no turn for `[memory]
//! extraction_delay_seconds`: one extraction per pause, not one per message. A server
//! stopped before then loses nothing: the turns stay unread until the next `extract`.

use std::collections::HashMap;
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::Instant;

use anyhow::{Context as _, Result};
use tokio::sync::oneshot;

use ash_memory::{Caller, Error, MemoryStore, MemoryStoreBuilder, Reflection};

use super::readers::{ReadSender, Readers};
use super::writers::Lanes;

/// A call on a store.
pub(super) type Job = Box<dyn FnOnce(&mut MemoryStore) + Send>;

/// What the store thread is asked to do.
enum Message {
    /// Run a call.
    Job(Job),
    /// A user's call was answered: check whether their reflection is due.
    Served(String),
    /// A turn of this caller's session was stored: extract once the session pauses.
    Turned(Caller, String),
}

/// Sessions waiting for extraction, by caller and session name, with when they are due.
type Pending = HashMap<(Option<String>, Option<String>, String), (Caller, Instant)>;

/// A handle on the store thread; cheap to clone, one per connection.
#[derive(Clone)]
pub struct Worker {
    jobs: mpsc::Sender<Message>,
    /// The readers' queue; none when reads run in turn with the writes.
    reads: Option<Arc<ReadSender>>,
    /// The other writers' queues, on a backend that lets writes of different callers run
    /// side by side; none otherwise.
    lanes: Option<Arc<Lanes>>,
}

/// Joins the store threads once every [`Worker`] handle is gone (dropping the stores,
/// and with them their component instances and index connections).
pub struct WorkerThread {
    writer: JoinHandle<()>,
    writers: Vec<JoinHandle<()>>,
    readers: Vec<JoinHandle<()>>,
}

impl Worker {
    /// Opens the writing store on its own thread (auto_gc included), then `readers`
    /// stores for reads and, when the backend lets writes of different callers run side
    /// by side, `writers - 1` more for writes; returns once all are ready, or with the
    /// reason one could not open.
    pub fn start(builder: MemoryStoreBuilder, readers: usize, writers: usize) -> Result<(Worker, WorkerThread)> {
        // Duplicated before the writer takes the builder; opened once the writer has
        // migrated the home and collected its garbage.
        let reader_builder = builder.duplicate();
        let (jobs, queue) = mpsc::channel::<Message>();
        // The store says, once open, whether other stores may write beside it.
        let (ready_tx, ready) = mpsc::channel::<Result<bool, Error>>();
        let thread = std::thread::Builder::new()
            .name("ash-store".into())
            .spawn(move || {
                let mut store = match builder.open() {
                    Ok(mut store) => {
                        let _ = ready_tx.send(Ok(store.writes_beside_others()));
                        store
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let mut checked: HashMap<String, Instant> = HashMap::new();
                let mut pending: Pending = HashMap::new();
                loop {
                    let next_due = pending.values().map(|(_, due)| *due).min();
                    let message = match next_due {
                        Some(due) => match queue.recv_timeout(due.saturating_duration_since(Instant::now())) {
                            Ok(m) => Some(m),
                            Err(mpsc::RecvTimeoutError::Timeout) => None,
                            Err(mpsc::RecvTimeoutError::Disconnected) => break,
                        },
                        None => match queue.recv() {
                            Ok(m) => Some(m),
                            Err(_) => break,
                        },
                    };
                    let delay = store.extraction_delay();
                    // A panic is a bug in ash-memory. The store may hold the home's lock
                    // and half a call's writes: close it (releasing the lock; the next
                    // process rolls the writes back) and end the process, so that a
                    // restart begins clean. Nothing acknowledged is lost.
                    let run = std::panic::AssertUnwindSafe(|| {
                        match message {
                            Some(Message::Job(job)) => job(&mut store),
                            Some(Message::Served(user)) => reflect_if_due(&mut store, &mut checked, user),
                            Some(Message::Turned(caller, session)) => {
                                let key = (caller.user_id.clone(), caller.chat_id.clone(), session);
                                pending.insert(key, (caller, Instant::now() + delay));
                            }
                            None => {}
                        }
                        extract_due(&mut store, &mut pending);
                        // Reads run here too when there are no readers: what they put off
                        // is written at once, in turn with the writes.
                        if store.has_deferred()
                            && let Err(e) = store.flush_deferred()
                        {
                            tracing::warn!("could not write what reads put off: {e}");
                        }
                    });
                    if std::panic::catch_unwind(run).is_err() {
                        drop(store);
                        tracing::error!(
                            "a call panicked (a bug in ash-memory): stopping so that a restart begins clean"
                        );
                        std::process::exit(70);
                    }
                }
            })
            .context("starting the store thread")?;
        let beside = ready
            .recv()
            .context("the store thread stopped while opening the home")?
            .context("opening the memory home")?;
        let (lanes, writer_threads) = match &reader_builder {
            Some(b) if beside && writers > 1 => match Lanes::start(b, writers - 1)? {
                Some((lanes, threads)) => (Some(Arc::new(lanes)), threads),
                None => (None, Vec::new()),
            },
            _ => (None, Vec::new()),
        };
        let readers = match &reader_builder {
            Some(b) => Readers::start(b, readers)?,
            None => None,
        };
        let (reads, reader_threads) = match readers {
            Some(r) => (Some(Arc::new(r.jobs)), r.threads),
            None => (None, Vec::new()),
        };
        Ok((
            Worker { jobs, reads, lanes },
            WorkerThread {
                writer: thread,
                writers: writer_threads,
                readers: reader_threads,
            },
        ))
    }

    /// Runs `f` on the writing store, after every write queued before it.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut MemoryStore) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        let (job, answer) = job(f);
        if self.jobs.send(Message::Job(job)).is_err() {
            return Err(shutting_down());
        }
        answer.await.unwrap_or_else(|_| Err(shutting_down()))
    }

    /// Runs `f`, a write for `caller`, in `caller`'s lane: after every write of theirs
    /// queued before it, and beside other callers' where the backend allows
    /// (`writers`); on the writing store otherwise.
    pub async fn run_for<T: Send + 'static>(
        &self,
        caller: &Caller,
        f: impl FnOnce(&mut MemoryStore) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        let Some(lane) = self.lanes.as_ref().and_then(|lanes| lanes.of(caller)) else {
            return self.run(f).await;
        };
        let (job, answer) = job(f);
        if lane.send(job).is_err() {
            return Err(shutting_down());
        }
        answer.await.unwrap_or_else(|_| Err(shutting_down()))
    }

    /// Runs `f`, which only reads, on the next free reader, side by side with other
    /// reads; on the writing store in turn when there are no readers.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut MemoryStore) -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        let Some(reads) = &self.reads else {
            return self.run(f).await;
        };
        let (job, answer) = job(f);
        if !reads.send(job) {
            return Err(shutting_down());
        }
        answer.await.unwrap_or_else(|_| Err(shutting_down()))
    }
}

impl Worker {
    /// Tells the store thread that a call of `caller`'s was answered, so that it may
    /// write their weekly reflection when one is due. Callers without a user have none.
    pub fn served(&self, caller: &Caller) {
        if let Some(user) = &caller.user_id {
            let _ = self.jobs.send(Message::Served(user.clone()));
        }
    }
}

/// A store call as a job, and where its answer arrives.
fn job<T: Send + 'static>(
    f: impl FnOnce(&mut MemoryStore) -> Result<T, Error> + Send + 'static,
) -> (Job, oneshot::Receiver<Result<T, Error>>) {
    let (tx, rx) = oneshot::channel();
    let job: Job = Box::new(move |store| {
        let _ = tx.send(f(store));
    });
    (job, rx)
}

fn shutting_down() -> Error {
    Error::Busy("the server is shutting down".into())
}

/// Extracts the sessions whose pause has lasted long enough.
fn extract_due(store: &mut MemoryStore, pending: &mut Pending) {
    let now = Instant::now();
    let due: Vec<_> = pending
        .iter()
        .filter(|(_, (_, at))| *at <= now)
        .map(|(key, _)| key.clone())
        .collect();
    for key in due {
        let Some((caller, _)) = pending.remove(&key) else {
            continue;
        };
        let session = key.2;
        match store.extract(&caller, Some(&session)) {
            Ok(e) => tracing::info!(
                "extracted session {session:?}: {} exchange(s), {} fact(s) stored, {} model call(s)",
                e.turns,
                e.stored.len(),
                e.llm_calls
            ),
            Err(e) => tracing::warn!("extracting session {session:?} failed: {e}"),
        }
    }
}

/// Asks for the user's reflection unless they were checked within the interval. The
/// policy says whether one is due; a language model that does not answer skips it.
fn reflect_if_due(store: &mut MemoryStore, checked: &mut HashMap<String, Instant>, user: String) {
    let interval = store.reflection_check_interval();
    if checked.get(&user).is_some_and(|at| at.elapsed() < interval) {
        return;
    }
    match store.reflect(&Caller::user(user.clone())) {
        Ok(Reflection::Written(m)) => tracing::info!("wrote the weekly reflection {} for {user}", m.id),
        Ok(Reflection::Skipped(why)) => tracing::debug!("no reflection for {user}: {why}"),
        Err(e) => tracing::warn!("the weekly reflection for {user} failed: {e}"),
    }
    checked.insert(user, Instant::now());
}

impl Worker {
    /// Tells the store thread that a turn of `session` was stored for `caller`, so that
    /// it reads the session for facts once the conversation pauses.
    pub fn turned(&self, caller: &Caller, session: String) {
        let _ = self.jobs.send(Message::Turned(caller.clone(), session));
    }
}

impl WorkerThread {
    /// Waits for the store threads to finish their queues and close their stores.
    pub fn join(self) {
        for thread in std::iter::once(self.writer).chain(self.writers).chain(self.readers) {
            if thread.join().is_err() {
                tracing::error!("a store thread panicked");
            }
        }
    }
}
