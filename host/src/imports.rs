//! The host side of the WIT imports: one `Host` impl per interface, each a thin adapter
//! over a capability module (files, index, embedder, llm, clock).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};
use wasmtime::StoreLimits;

use crate::bindings::ash::memory::{clock, embedder, files, ids, index, llm, log, settings};
use crate::clock::Clock;
use crate::config::PolicySettings;
use crate::embedder::{EmbedError, Embedder};
use crate::files::{Collection, FileError, FileState, FileStore};
use crate::home::{Home, HomeLock};
use crate::index::{Entry, IndexError, IndexInfo, ScopeFilter, SqliteIndex};
use crate::llm::{Llm, LlmRequest};

/// Everything the guest can reach, and nothing more: the data of a wasmtime `Store`.
pub struct HostState {
    pub(crate) files: FileStore,
    pub(crate) index: SqliteIndex,
    pub(crate) embedder: Box<dyn Embedder>,
    pub(crate) llm: Box<dyn Llm>,
    pub(crate) clock: Clock,
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
            limits: StoreLimits::default(),
            settings,
            progress: None,
            home,
            lock: None,
            lock_lost: None,
        }
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
            tracing::warn!("cannot commit before a remote call: {e}");
            return f(self);
        }
        self.lock = None;
        let out = f(self);
        match self.home.lock() {
            Ok(lock) => {
                self.lock = Some(lock);
                if let Err(e) = self.files.roll_back() {
                    self.lock_lost = Some(format!("cannot recover the home after a remote call: {e}"));
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

fn file_state(s: FileState) -> files::FileState {
    files::FileState {
        generation: s.generation,
        end: s.end,
    }
}

fn collection(c: files::Collection) -> Collection {
    match c {
        files::Collection::Memories => Collection::Memories,
        files::Collection::People => Collection::People,
        files::Collection::Archive => Collection::Archive,
    }
}

fn file_error(e: FileError) -> files::Error {
    match e {
        FileError::Io(m) => files::Error::Io(m),
        FileError::InvalidLine(m) => files::Error::InvalidLine(m),
    }
}

impl files::Host for HostState {
    fn read(&mut self, c: files::Collection, from: u64, generation: Option<u64>) -> Result<files::Chunk, files::Error> {
        self.files
            .read(collection(c), from, generation)
            .map(|c| files::Chunk {
                data: c.data,
                end: c.end,
                generation: c.generation,
            })
            .map_err(file_error)
    }
    fn append(&mut self, c: files::Collection, lines: Vec<String>) -> Result<files::FileState, files::Error> {
        self.writable().map_err(files::Error::Io)?;
        self.files
            .append(collection(c), &lines)
            .map(file_state)
            .map_err(file_error)
    }
    fn replace(&mut self, c: files::Collection, lines: Vec<String>) -> Result<files::FileState, files::Error> {
        self.writable().map_err(files::Error::Io)?;
        self.files
            .replace(collection(c), &lines)
            .map(file_state)
            .map_err(file_error)
    }
    fn quarantine(&mut self, c: files::Collection, lines: Vec<String>, reason: String) -> Result<(), files::Error> {
        self.writable().map_err(files::Error::Io)?;
        self.files
            .quarantine(collection(c), &lines, &reason)
            .map_err(file_error)
    }
}

fn index_error(e: IndexError) -> index::Error {
    match e {
        IndexError::Unavailable(m) => index::Error::Unavailable(m),
        IndexError::DimensionMismatch(a, b) => index::Error::DimensionMismatch((a, b)),
        IndexError::Sql(m) => index::Error::Sql(m),
    }
}

fn scope(s: index::ScopeFilter) -> ScopeFilter {
    ScopeFilter {
        user_id: s.user_id,
        chat_id: s.chat_id,
    }
}

fn hits(h: Vec<crate::index::Hit>) -> Vec<index::Hit> {
    h.into_iter()
        .map(|h| index::Hit {
            id: h.id,
            score: h.score,
        })
        .collect()
}

impl index::Host for HostState {
    fn upsert(&mut self, entries: Vec<index::Entry>) -> Result<(), index::Error> {
        self.writable().map_err(index::Error::Sql)?;
        let entries: Vec<Entry> = entries
            .into_iter()
            .map(|e| Entry {
                id: e.id,
                content: e.content,
                embedding: e.embedding,
                owner_user_id: e.owner_user_id,
                chat_id: e.chat_id,
            })
            .collect();
        self.index.upsert(&entries).map_err(index_error)
    }
    fn remove(&mut self, ids: Vec<String>) -> Result<(), index::Error> {
        self.writable().map_err(index::Error::Sql)?;
        self.index.remove(&ids).map_err(index_error)
    }
    fn knn(&mut self, query: Vec<f32>, k: u32, s: index::ScopeFilter) -> Result<Vec<index::Hit>, index::Error> {
        self.index.knn(&query, k, &scope(s)).map(hits).map_err(index_error)
    }
    fn text_search(
        &mut self,
        terms: Vec<String>,
        k: u32,
        s: index::ScopeFilter,
    ) -> Result<Vec<index::Hit>, index::Error> {
        self.index
            .text_search(&terms, k, &scope(s))
            .map(hits)
            .map_err(index_error)
    }
    fn count(&mut self) -> Result<u64, index::Error> {
        self.index.count().map_err(index_error)
    }
    fn clear(&mut self, info: index::IndexInfo) -> Result<(), index::Error> {
        self.writable().map_err(index::Error::Sql)?;
        self.index
            .clear(&IndexInfo {
                model: info.model,
                dimension: info.dimension,
            })
            .map_err(index_error)
    }
    fn reflects(&mut self) -> Result<Option<index::FileState>, index::Error> {
        self.index.reflects().map(|s| s.map(file_state)).map_err(index_error)
    }
    fn set_reflects(&mut self, state: index::FileState) -> Result<(), index::Error> {
        self.writable().map_err(index::Error::Sql)?;
        self.index
            .set_reflects(FileState {
                generation: state.generation,
                end: state.end,
            })
            .map_err(index_error)
    }
    fn info(&mut self) -> Result<Option<index::IndexInfo>, index::Error> {
        self.index
            .info()
            .map(|i| {
                i.map(|i| index::IndexInfo {
                    model: i.model,
                    dimension: i.dimension,
                })
            })
            .map_err(index_error)
    }
}

impl embedder::Host for HostState {
    fn embed(&mut self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, embedder::Error> {
        let remote = self.embedder.is_remote();
        self.unlocked(remote, |s| s.embedder.embed(&texts))
            .map_err(|e| match e {
                EmbedError::Unavailable(m) => embedder::Error::Unavailable(m),
                EmbedError::DimensionMismatch(a, b) => embedder::Error::DimensionMismatch((a, b)),
            })
    }
    fn model_id(&mut self) -> String {
        self.embedder.model_id().to_owned()
    }
    fn dimension(&mut self) -> u32 {
        self.embedder.dimension()
    }
}

impl llm::Host for HostState {
    fn complete(&mut self, r: llm::Request) -> Result<String, llm::Error> {
        let request = LlmRequest {
            system: r.system,
            prompt: r.prompt,
            max_tokens: r.max_tokens,
        };
        let remote = self.llm.is_remote();
        self.unlocked(remote, |s| s.llm.complete(&request))
            .map_err(|e| llm::Error::Unavailable(e.0))
    }
}

impl clock::Host for HostState {
    fn now(&mut self) -> String {
        self.clock.now_rfc3339()
    }
}

impl ids::Host for HostState {
    fn new_id(&mut self) -> String {
        uuid::Uuid::new_v4().to_string()
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
        settings::PolicySettings {
            supersession_threshold: self.settings.supersession_threshold,
            max_entries: self.settings.max_entries,
        }
    }
}
