//! The host side of the WIT imports: one `Host` impl per interface, each a thin adapter
//! over a capability module (files, index, embedder, llm, clock). The capability modules
//! speak the generated WIT types themselves, so nothing is converted here.

use wasmtime::StoreLimits;

use crate::bindings::ash::memory::{clock, embedder, files, ids, index, llm, log, settings, types};
use crate::clock::Clock;
use crate::config::PolicySettings;
use crate::embedder::Embedder;
use crate::error::Error;
use crate::home::Access;
use crate::ids::IdSource;
use crate::index::{each, try_each};
use crate::llm::Llm;
use crate::progress::{Progress, ProgressFn};
use crate::storage::Storage;

/// Everything the guest can reach, and nothing more: the data of a wasmtime `Store`.
pub struct HostState {
    /// The collections and the index, and the writer lock.
    pub(crate) storage: Box<dyn Storage>,
    pub(crate) embedder: Box<dyn Embedder>,
    pub(crate) llm: Box<dyn Llm>,
    pub(crate) clock: Clock,
    pub(crate) ids: IdSource,
    pub(crate) limits: StoreLimits,
    pub(crate) settings: PolicySettings,
    /// Where the component's progress reports go, if anywhere.
    pub(crate) progress: Option<ProgressFn>,
    /// Whether the call's transaction is open (for a read of a snapshot, with the lock
    /// already let go): for the whole of an exported call except while a remote service is
    /// asked.
    locked: bool,
    /// What the running call may do: a call begun as a read has its writes refused.
    access: Access,
    /// The scopes a write is confined to (see [`HostState::begin_call_in`]); none for a
    /// write of the whole home.
    scopes: Option<Vec<String>>,
    /// Whether the running call had a write refused (it was begun as a read, or confined
    /// to scopes).
    pub(crate) refused_writes: bool,
    /// Whether the running call committed some of its writes before a remote call
    /// (`unlocked`): undoing the call then undoes only what came after.
    pub(crate) committed_midway: bool,
    /// Why the lock could not be taken back after a remote call: the call may then write
    /// nothing more.
    pub(crate) lock_lost: Option<String>,
    /// Whether the running call has written since it took the lock (last).
    wrote: bool,
}

impl HostState {
    pub(crate) fn new(
        storage: Box<dyn Storage>,
        embedder: Box<dyn Embedder>,
        llm: Box<dyn Llm>,
        clock: Clock,
        settings: PolicySettings,
    ) -> Self {
        HostState {
            storage,
            embedder,
            llm,
            clock,
            ids: IdSource::default(),
            limits: StoreLimits::default(),
            settings,
            progress: None,
            locked: false,
            access: Access::Write,
            scopes: None,
            refused_writes: false,
            committed_midway: false,
            lock_lost: None,
            wrote: false,
        }
    }

    /// Starts one exported call: takes the home's lock for `access` and opens the call's
    /// transaction (what a writer that died left half done is undone first, which makes
    /// the call a write). Returns what the call may do.
    pub(crate) fn begin_call(&mut self, access: Access) -> Result<Access, Error> {
        self.begin_call_in(access, None)
    }

    /// [`HostState::begin_call`] for a call that writes only in `scopes` (the caller's
    /// `u:<user id>` and `c:<chat id>`): a backend that locks scopes takes theirs alone,
    /// and refuses a write of the whole home, which then runs again as one.
    pub(crate) fn begin_call_in(&mut self, access: Access, scopes: Option<Vec<String>>) -> Result<Access, Error> {
        self.lock_lost = None;
        self.refused_writes = false;
        self.committed_midway = false;
        self.wrote = false;
        self.scopes = scopes;
        self.access = self.storage.begin(access, self.scopes.as_deref())?;
        self.locked = true;
        Ok(self.access)
    }

    /// Ends the call [`HostState::begin_call`] started: its writes are committed when it
    /// succeeded and rolled back when it failed or trapped; then the lock is released.
    pub(crate) fn end_call<T>(&mut self, result: Result<T, Error>) -> Result<T, Error> {
        let outcome = match result {
            Ok(value) => match (&self.lock_lost, self.storage.commit()) {
                (Some(why), _) => Err(Error::Busy(why.clone())),
                (None, Err(e)) => Err(Error::Storage(e)),
                (None, Ok(())) => Ok(value),
            },
            Err(e) => match &self.lock_lost {
                // Its writes were refused once the lock was lost: busy, not a storage fault,
                // so that a caller tries again. Without the lock the files are not its to touch.
                Some(why) => Err(Error::Busy(why.clone())),
                None => {
                    if let Err(rollback) = self.storage.roll_back() {
                        tracing::error!("cannot roll back the failed call's writes: {rollback}");
                    }
                    Err(e)
                }
            },
        };
        self.storage.release();
        self.locked = false;
        outcome
    }

    /// Runs a call to a remote service without the home's lock, so that a slow service
    /// never stalls other processes. What the exported call wrote so far is committed
    /// first; after the lock is taken back, a transaction left by a process that died
    /// meanwhile is rolled back, and the guest reads the files again before it writes.
    /// A read lets the lock go for a local model too: it has nothing to commit, and a
    /// writer then waits for no read's embedding. A write does when the local work is
    /// `long` and it has written nothing since it took the lock (an add embeds its facts
    /// before it reads the collections). A read of a snapshot holds no lock, and keeps its
    /// snapshot around a local model.
    fn unlocked<T>(&mut self, remote: bool, long: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        // A snapshot read holds no lock, and keeps its snapshot around the local model; not
        // around a remote one, which may take seconds while writers fill the index's log.
        let snapshot = self.access == Access::Read && self.storage.reads_a_snapshot();
        let lets_go = remote || self.access == Access::Read || (long && !self.wrote);
        if !lets_go || !self.locked || (snapshot && !remote) {
            return f(self);
        }
        if let Err(e) = self.storage.commit() {
            tracing::warn!("cannot commit before a remote call: {e}");
            return f(self);
        }
        self.committed_midway |= self.access == Access::Write && self.wrote;
        self.wrote = false;
        self.storage.release();
        self.locked = false;
        let out = f(self);
        // Where a test holds a call while the lock is let go (`ASH_FAULT_MODE=pause`).
        let _ = crate::fault::point("unlocked");
        // A read taken back may find a dead writer's transaction and become a write; a
        // write stays one.
        match self.storage.begin(self.access, self.scopes.as_deref()) {
            Ok(access) => {
                self.access = access;
                self.locked = true;
            }
            Err(e) => self.lock_lost = Some(e.to_string()),
        }
        out
    }

    /// Refuses writes once the lock could not be taken back, and in a call begun as a
    /// read.
    fn writable(&mut self) -> Result<(), Refused> {
        if let Some(why) = &self.lock_lost {
            return Err(Refused::LockLost(format!("not written: {why}")));
        }
        if self.access == Access::Read {
            self.refused_writes = true;
            return Err(Refused::ReadOnly);
        }
        self.wrote = true;
        Ok(())
    }

    /// [`HostState::writable`] for a write of the whole home (a rewrite, a new index).
    fn writable_whole(&mut self) -> Result<(), Refused> {
        self.writable()?;
        if self.storage.confined() {
            self.refused_writes = true;
            return Err(Refused::Confined);
        }
        Ok(())
    }
}

/// Why a write was refused.
enum Refused {
    /// The lock could not be taken back after a remote call; the text says why.
    LockLost(String),
    /// The call was begun as a read.
    ReadOnly,
    /// The call holds only its scopes' locks.
    Confined,
}

const READ_ONLY: &str = "not written: the call was begun as a read";
const CONFINED: &str = "not written: the call holds only the locks of its scopes";

impl From<Refused> for files::Error {
    fn from(r: Refused) -> Self {
        match r {
            Refused::LockLost(why) => files::Error::Io(why),
            Refused::ReadOnly => files::Error::ReadOnly(READ_ONLY.into()),
            Refused::Confined => files::Error::ReadOnly(CONFINED.into()),
        }
    }
}

impl From<Refused> for index::Error {
    fn from(r: Refused) -> Self {
        match r {
            Refused::LockLost(why) => index::Error::Sql(why),
            Refused::ReadOnly => index::Error::ReadOnly(READ_ONLY.into()),
            Refused::Confined => index::Error::ReadOnly(CONFINED.into()),
        }
    }
}

impl files::Host for HostState {
    fn read(&mut self, c: files::Collection, from: u64, generation: Option<u64>) -> Result<files::Chunk, files::Error> {
        let chunk = self.storage.read(c, from, generation);
        if matches!(chunk, Err(files::Error::ReadOnly(_))) {
            self.refused_writes = true;
        }
        chunk
    }
    fn append(&mut self, c: files::Collection, lines: Vec<String>) -> Result<files::FileState, files::Error> {
        self.writable()?;
        self.storage.append(c, &lines)
    }
    fn replace(&mut self, c: files::Collection, lines: Vec<String>) -> Result<files::FileState, files::Error> {
        self.writable_whole()?;
        self.storage.replace(c, &lines)
    }
    fn quarantine(&mut self, c: files::Collection, lines: Vec<String>, reason: String) -> Result<(), files::Error> {
        self.writable()?;
        self.storage.quarantine(c, &lines, &reason)
    }
}

impl index::Host for HostState {
    fn upsert(&mut self, entries: Vec<index::Entry>) -> Result<(), index::Error> {
        self.writable()?;
        Ok(self.storage.upsert(&try_each(entries)?)?)
    }
    fn remove(&mut self, ids: Vec<String>) -> Result<(), index::Error> {
        self.writable()?;
        Ok(self.storage.remove(&ids)?)
    }
    fn knn(&mut self, query: Vec<f32>, k: u32, scope: index::ScopeFilter) -> Result<Vec<index::Hit>, index::Error> {
        Ok(each(self.storage.knn(&query, k, &scope.into())?))
    }
    fn text_search(
        &mut self,
        terms: Vec<String>,
        k: u32,
        scope: index::ScopeFilter,
    ) -> Result<Vec<index::Hit>, index::Error> {
        Ok(each(self.storage.text_search(&terms, k, &scope.into())?))
    }
    fn fetch(&mut self, ids: Vec<String>) -> Result<Vec<index::Held>, index::Error> {
        Ok(each(self.storage.fetch(&ids)?))
    }
    fn set_records(&mut self, revisions: Vec<index::Revision>) -> Result<(), index::Error> {
        self.writable()?;
        Ok(self.storage.set_records(&each(revisions))?)
    }
    fn tally(&mut self, keys: Vec<String>, scope: index::ScopeFilter, now: i64) -> Result<index::Counts, index::Error> {
        Ok(self.storage.tally(&keys, &scope.into(), now)?.into())
    }
    fn holding(
        &mut self,
        keys: Vec<String>,
        scope: index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<index::Held>, index::Error> {
        Ok(each(self.storage.holding(&keys, &scope.into(), now)?))
    }
    fn newest(
        &mut self,
        keys: Vec<String>,
        scope: index::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<index::Held>>, index::Error> {
        let lists = self.storage.newest(&keys, &scope.into(), now, limit)?;
        Ok(lists.into_iter().map(each).collect())
    }
    fn holding_ids(
        &mut self,
        keys: Vec<String>,
        scope: index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<String>, index::Error> {
        Ok(self.storage.holding_ids(&keys, &scope.into(), now)?)
    }
    fn newest_ids(
        &mut self,
        keys: Vec<String>,
        scope: index::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, index::Error> {
        Ok(self.storage.newest_ids(&keys, &scope.into(), now, limit)?)
    }
    fn newest_moments(
        &mut self,
        keys: Vec<String>,
        scope: index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, index::Error> {
        Ok(self.storage.newest_moments(&keys, &scope.into(), now)?)
    }
    fn recent(
        &mut self,
        scope: index::ScopeFilter,
        now: Option<i64>,
        limit: u32,
    ) -> Result<Vec<index::Held>, index::Error> {
        Ok(each(self.storage.recent(&scope.into(), now, limit)?))
    }
    fn made_after(&mut self, ids: Vec<String>, now: i64, within: i64) -> Result<Vec<Option<String>>, index::Error> {
        Ok(self.storage.made_after(&ids, now, within)?)
    }
    fn made_around(&mut self, ids: Vec<String>, places: u32, now: i64) -> Result<Vec<Vec<String>>, index::Error> {
        Ok(self.storage.made_around(&ids, places, now)?)
    }
    fn pending(&mut self, kind: index::EntryKind) -> Result<u64, index::Error> {
        Ok(self.storage.pending(kind.into())?)
    }
    fn count(&mut self, kind: index::EntryKind) -> Result<u64, index::Error> {
        Ok(self.storage.count(kind.into())?)
    }
    fn clear(&mut self, info: index::IndexInfo) -> Result<(), index::Error> {
        self.writable_whole()?;
        Ok(self.storage.clear(&info.into())?)
    }
    fn reflects(&mut self, kind: index::EntryKind) -> Result<Option<files::FileState>, index::Error> {
        Ok(self.storage.reflects(kind.into())?.map(Into::into))
    }
    fn set_reflects(&mut self, kind: index::EntryKind, state: files::FileState) -> Result<(), index::Error> {
        self.writable()?;
        Ok(self.storage.set_reflects(kind.into(), state.into())?)
    }
    fn info(&mut self) -> Result<Option<index::IndexInfo>, index::Error> {
        Ok(self.storage.info()?.map(Into::into))
    }
}

/// Local work at least this long lets a write's lock go (`HostState::unlocked`): letting it
/// go and taking it back costs about 0.05 ms on the static model's adds.
const LONG_WORK: std::time::Duration = std::time::Duration::from_millis(1);

impl embedder::Host for HostState {
    fn embed(&mut self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, embedder::Error> {
        let remote = self.embedder.is_remote();
        let texts_n = u32::try_from(texts.len()).unwrap_or(u32::MAX);
        let long = self.embedder.time_per_text().saturating_mul(texts_n) >= LONG_WORK;
        self.unlocked(remote, long, |s| s.embedder.embed(&texts))
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
        self.unlocked(remote, remote, |s| s.llm.complete(&request))
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
        if let Some(report) = &self.progress
            && total > 0
        {
            report(Progress {
                task: &task,
                done: done.min(total),
                total,
            });
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
