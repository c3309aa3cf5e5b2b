//! The host side of the WIT imports: one `Host` impl per interface, each a thin adapter
//! over a capability module (files, index, embedder, llm, clock). The capability modules
//! speak the generated WIT types themselves, so nothing is converted here.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use wasmtime::StoreLimits;

use crate::bindings::ash::memory::{clock, embedder, files, ids, index, llm, log, settings, types};
use crate::clock::Clock;
use crate::config::PolicySettings;
use crate::embedder::Embedder;
use crate::error::Error;
use crate::files::FileStore;
use crate::home::{Home, HomeLock};
use crate::ids::IdSource;
use crate::index::SqliteIndex;
use crate::llm::Llm;

/// Everything the guest can reach, and nothing more: the data of a wasmtime `Store`.
pub struct HostState {
    pub(crate) files: FileStore,
    pub(crate) index: SqliteIndex,
    pub(crate) embedder: Box<dyn Embedder>,
    pub(crate) llm: Box<dyn Llm>,
    pub(crate) clock: Clock,
    pub(crate) ids: IdSource,
    pub(crate) limits: StoreLimits,
    pub(crate) settings: PolicySettings,
    progress: Option<ProgressBar>,
    /// The home, to take its lock back after a remote call.
    pub(crate) home: Home,
    /// The home's lock, held for the whole of an exported call except while a remote
    /// service is asked.
    pub(crate) lock: Option<HomeLock>,
    /// Why the lock could not be taken back after a remote call: the call may then write
    /// nothing more.
    pub(crate) lock_lost: Option<String>,
}

impl HostState {
    pub(crate) fn new(
        home: Home,
        files: FileStore,
        index: SqliteIndex,
        embedder: Box<dyn Embedder>,
        llm: Box<dyn Llm>,
        clock: Clock,
        settings: PolicySettings,
    ) -> Self {
        HostState {
            files,
            index,
            embedder,
            llm,
            clock,
            ids: IdSource::default(),
            limits: StoreLimits::default(),
            settings,
            progress: None,
            home,
            lock: None,
            lock_lost: None,
        }
    }

    /// Starts one exported call under the home's lock: a transaction left open by a
    /// process that died is rolled back first. On an error the lock is released.
    pub(crate) fn begin_call(&mut self, lock: HomeLock) -> Result<(), Error> {
        self.lock = Some(lock);
        self.lock_lost = None;
        if let Err(e) = self.files.roll_back() {
            self.lock = None;
            return Err(Error::Storage(format!(
                "cannot roll back an unfinished write: {}",
                e.message()
            )));
        }
        Ok(())
    }

    /// Ends the call [`HostState::begin_call`] started: its writes are committed when it
    /// succeeded and rolled back when it failed or trapped; then the lock is released.
    pub(crate) fn end_call<T>(&mut self, result: Result<T, Error>) -> Result<T, Error> {
        let outcome = match result {
            Ok(value) => match (&self.lock_lost, self.files.commit()) {
                (Some(why), _) => Err(Error::Busy(why.clone())),
                (None, Err(e)) => Err(Error::Storage(e.message())),
                (None, Ok(())) => Ok(value),
            },
            Err(e) => {
                if self.lock_lost.is_none()
                    && let Err(rollback) = self.files.roll_back()
                {
                    tracing::error!("cannot roll back the failed call's writes: {}", rollback.message());
                }
                Err(e)
            }
        };
        self.lock = None;
        outcome
    }

    /// Runs a call to a remote service without the home's lock, so that a slow service
    /// never stalls other processes. What the exported call wrote so far is committed
    /// first; after the lock is taken back, a transaction left by a process that died
    /// meanwhile is rolled back, and the guest reads the files again before it writes.
    fn unlocked<T>(&mut self, remote: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        if !remote || self.lock.is_none() {
            return f(self);
        }
        if let Err(e) = self.files.commit() {
            tracing::warn!("cannot commit before a remote call: {}", e.message());
            return f(self);
        }
        self.lock = None;
        let out = f(self);
        match self.home.lock() {
            Ok(lock) => {
                self.lock = Some(lock);
                if let Err(e) = self.files.roll_back() {
                    self.lock_lost = Some(format!("cannot recover the home after a remote call: {}", e.message()));
                }
            }
            Err(e) => self.lock_lost = Some(e.to_string()),
        }
        out
    }

    /// Refuses writes once the lock could not be taken back.
    fn writable(&self) -> Result<(), String> {
        match &self.lock_lost {
            Some(why) => Err(format!("not written: {why}")),
            None => Ok(()),
        }
    }
}

impl files::Host for HostState {
    fn read(&mut self, c: files::Collection, from: u64, generation: Option<u64>) -> Result<files::Chunk, files::Error> {
        self.files.read(c, from, generation)
    }
    fn append(&mut self, c: files::Collection, lines: Vec<String>) -> Result<files::FileState, files::Error> {
        self.writable().map_err(files::Error::Io)?;
        self.files.append(c, &lines)
    }
    fn replace(&mut self, c: files::Collection, lines: Vec<String>) -> Result<files::FileState, files::Error> {
        self.writable().map_err(files::Error::Io)?;
        self.files.replace(c, &lines)
    }
    fn quarantine(&mut self, c: files::Collection, lines: Vec<String>, reason: String) -> Result<(), files::Error> {
        self.writable().map_err(files::Error::Io)?;
        self.files.quarantine(c, &lines, &reason)
    }
}

impl index::Host for HostState {
    fn upsert(&mut self, entries: Vec<index::Entry>) -> Result<(), index::Error> {
        self.writable().map_err(index::Error::Sql)?;
        self.index.upsert(&entries)
    }
    fn remove(&mut self, ids: Vec<String>) -> Result<(), index::Error> {
        self.writable().map_err(index::Error::Sql)?;
        self.index.remove(&ids)
    }
    fn knn(&mut self, query: Vec<f32>, k: u32, scope: index::ScopeFilter) -> Result<Vec<index::Hit>, index::Error> {
        self.index.knn(&query, k, &scope)
    }
    fn text_search(
        &mut self,
        terms: Vec<String>,
        k: u32,
        scope: index::ScopeFilter,
    ) -> Result<Vec<index::Hit>, index::Error> {
        self.index.text_search(&terms, k, &scope)
    }
    fn count(&mut self, kind: index::EntryKind) -> Result<u64, index::Error> {
        self.index.count(kind)
    }
    fn clear(&mut self, info: index::IndexInfo) -> Result<(), index::Error> {
        self.writable().map_err(index::Error::Sql)?;
        self.index.clear(&info)
    }
    fn reflects(&mut self, kind: index::EntryKind) -> Result<Option<files::FileState>, index::Error> {
        self.index.reflects(kind)
    }
    fn set_reflects(&mut self, kind: index::EntryKind, state: files::FileState) -> Result<(), index::Error> {
        self.writable().map_err(index::Error::Sql)?;
        self.index.set_reflects(kind, state)
    }
    fn info(&mut self) -> Result<Option<index::IndexInfo>, index::Error> {
        self.index.info()
    }
}

impl embedder::Host for HostState {
    fn embed(&mut self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, embedder::Error> {
        let remote = self.embedder.is_remote();
        self.unlocked(remote, |s| s.embedder.embed(&texts))
    }
    fn model_id(&mut self) -> String {
        self.embedder.model_id().to_owned()
    }
    fn dimension(&mut self) -> u32 {
        self.embedder.dimension()
    }
}

impl llm::Host for HostState {
    fn complete(&mut self, request: llm::Request) -> Result<String, llm::Error> {
        let remote = self.llm.is_remote();
        self.unlocked(remote, |s| s.llm.complete(&request))
    }
}

impl clock::Host for HostState {
    fn now(&mut self) -> String {
        self.clock.now_rfc3339()
    }
}

impl ids::Host for HostState {
    fn new_id(&mut self) -> String {
        self.ids.next()
    }
}

impl log::Host for HostState {
    fn log(&mut self, level: log::Level, message: String) {
        match level {
            log::Level::Debug => tracing::debug!(target: "ash_memory::guest", "{message}"),
            log::Level::Info => tracing::info!(target: "ash_memory::guest", "{message}"),
            log::Level::Warn => tracing::warn!(target: "ash_memory::guest", "{message}"),
            log::Level::Error => tracing::error!(target: "ash_memory::guest", "{message}"),
        }
    }

    fn progress(&mut self, task: String, done: u64, total: u64) {
        if total == 0 || !std::io::stderr().is_terminal() {
            return;
        }
        let bar = self.progress.get_or_insert_with(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            bar
        });
        bar.set_message(task);
        bar.set_length(total);
        bar.set_position(done);
        if done >= total {
            bar.finish_and_clear();
            self.progress = None;
        }
    }
}

impl settings::Host for HostState {
    fn get(&mut self) -> settings::PolicySettings {
        self.settings
    }
}

/// The shared types carry no functions.
impl types::Host for HostState {}
