//! The default storage: the home's JSONL files (with the journal that makes a call one
//! transaction) and the SQLite index, under the home's OS file lock.

use super::Storage;
use crate::bindings::ash::memory::files;
use crate::boundary::Boundary;
use crate::error::Error;
use crate::files::{FileStore, file_store};
use crate::home::{Access, Home, HomeLock};
use crate::index;
use crate::index::{NativeSqlite, SqliteIndex, WriteSize};

/// Files and SQLite in one home folder.
pub(crate) struct LocalStorage {
    home: Home,
    files: FileStore,
    index: SqliteIndex<NativeSqlite>,
    /// Held from `begin` to `release`.
    lock: Option<HomeLock>,
}

impl LocalStorage {
    /// The storage of this home; nothing is opened until first use.
    pub(crate) fn new(home: Home) -> Self {
        LocalStorage {
            // A call's one line waits for the commit, which writes the index after it.
            files: file_store(home.root()).holding_lone_lines(),
            index: SqliteIndex::over(NativeSqlite::new(home.index()).with_fault_points(fault_point)),
            home,
            lock: None,
        }
    }

    /// Pins the files and opens a read transaction of the index, both as they stand now.
    fn pin(&mut self) -> Result<(), String> {
        self.files.pin().map_err(|e| e.message())?;
        self.index.begin_read().map_err(|e| e.to_string())
    }

    /// A writer holds the lock: pins the files and the index where the last write left
    /// them (`boundary.rs`), without the lock. False when that write left no record, or
    /// the files moved past it (a replace, a rollback): the read waits for the lock then.
    fn pin_last_write(&mut self) -> bool {
        // The snapshot first: a write that commits after it and records before the record
        // is read shows another stamp, and the next try takes a newer snapshot.
        for _ in 0..3 {
            if let Err(e) = self.index.begin_read_existing() {
                tracing::debug!("a read waits for the lock: no index snapshot ({e})");
                return false;
            }
            let stamp = self.index.stamp();
            let Some(record) = self.home.last_record() else {
                tracing::debug!("a read waits for the lock: the last holder left no record");
                self.index.end_read();
                return false;
            };
            let Some(states) = stamp.ok().flatten().and_then(|s| record.states_at(s)) else {
                self.index.end_read();
                continue;
            };
            match self.files.pin_at(states) {
                Ok(true) => return true,
                Ok(false) => tracing::debug!("a read waits for the lock: the files moved past the record"),
                Err(e) => tracing::debug!("a read waits for the lock: {}", e.message()),
            }
            self.index.end_read();
            return false;
        }
        tracing::debug!("a read waits for the lock: the index and the record moved on three times");
        false
    }

    /// Before the index is written: a call's writes to it are one transaction, committed
    /// after the files, so that the index never holds an entry of a line a crash kept from
    /// being written, and a reader's snapshot holds all of a call or none of it.
    fn index_write(&mut self) -> Result<(), index::IndexError> {
        self.index.begin_write(WriteSize::Small)
    }

    /// After the files are committed: the index's transaction is stamped and committed,
    /// and the stamp and the files' `states` are recorded for readers that find the lock
    /// taken. The record is written before the index's commit, beside the boundary before
    /// it, so that a reader's snapshot holds one of the two stamps at every moment (when
    /// the write before recorded too; a reader that finds neither waits for the lock): the
    /// commit's checkpoint may take milliseconds after its changes are seen, and recorded
    /// after it, one CLI search in ten beside a busy server found the index a write ahead
    /// of the record and waited. If the commit fails, the record is blanked. Whatever
    /// fails, the files stand.
    fn commit_index(&mut self, states: Option<Vec<ash_memory_files::FileState>>) {
        let Some(lock) = self.lock.as_mut() else {
            // Not this call's home any more (the lock was not taken back): nothing of
            // its index may stand, and nothing is recorded.
            self.index.roll_back_write();
            return;
        };
        let stamp = uuid::Uuid::new_v4().as_u64_pair().0.max(1);
        let stamped = self
            .index
            .begin_write(WriteSize::Small)
            .and_then(|()| self.index.set_stamp(stamp))
            .and_then(|()| {
                let states = states.ok_or_else(|| index::IndexError::Sql("the files' states are unknown".into()))?;
                lock.record(Boundary { stamp, states });
                Ok(())
            });
        // Where a test holds a write whose record is written and whose index is not.
        let committed = stamped
            .and_then(|()| fault_point("boundary:recorded").map_err(index::IndexError::Sql))
            .and_then(|()| self.index.commit_write());
        // The files stand: an index that did not commit under a recorded stamp is behind
        // them (never past the record), and the next call replays what it missed.
        if let Err(e) = committed {
            tracing::warn!("the index's writes were not committed ({e}); the next call replays them");
            self.index.roll_back_write();
            if let Some(lock) = self.lock.as_mut() {
                lock.forget_record();
            }
        }
    }

    /// A read pinned without the lock, at the point where tests hold one.
    fn pinned_read(&mut self) -> Result<Access, Error> {
        if let Err(e) = fault_point("read-pinned") {
            self.unpin();
            return Err(Error::Storage(e));
        }
        Ok(Access::Read)
    }

    /// Lets what [`LocalStorage::pin`] pinned go.
    fn unpin(&mut self) {
        self.files.unpin();
        self.index.end_read();
    }
}

/// The index's write points are fault points of the crash tests.
fn fault_point(name: &str) -> Result<(), String> {
    crate::fault::point(name).map_err(|e| e.to_string())
}

impl Storage for LocalStorage {
    fn begin(&mut self, access: Access, _scopes: Option<&[String]>) -> Result<Access, Error> {
        self.unpin();
        if access == Access::Read {
            let lock = match self.home.try_lock_to_read()? {
                Some(lock) => lock,
                // A write under way: the read goes on from where the last one left the home.
                None if self.pin_last_write() => {
                    self.files.read_only = true;
                    return self.pinned_read();
                }
                None => self.home.lock_for(Access::Read)?,
            };
            let unfinished = self
                .files
                .needs_recovery()
                .map_err(|e| Error::Storage(format!("cannot read the journal: {}", e.message())))?;
            if !unfinished {
                self.files.read_only = true;
                // The files and the index as they stand between two writes, pinned: the
                // read goes on without the lock, and no writer waits for it. Where either
                // cannot be pinned, the read holds the lock as before.
                match self.pin() {
                    Ok(()) => {
                        drop(lock);
                        return self.pinned_read();
                    }
                    Err(e) => {
                        tracing::debug!("a read holds the lock: {e}");
                        self.unpin();
                        self.lock = Some(lock);
                    }
                }
                return Ok(Access::Read);
            }
        }
        let lock = self.home.lock_for(Access::Write)?;
        self.files.read_only = false;
        // A transaction a process that died left open is undone before anything is read.
        self.files
            .roll_back()
            .map_err(|e| Error::Storage(format!("cannot roll back an unfinished write: {}", e.message())))?;
        self.lock = Some(lock);
        Ok(Access::Write)
    }
    fn commit(&mut self) -> Result<(), String> {
        // A read wrote nothing, and must not touch the journal: without the lock, what it
        // holds is another process's open transaction.
        if self.files.read_only {
            return Ok(());
        }
        let wrote = self.files.has_writes() || self.index.is_writing();
        // When the files fail to commit, the index's transaction stays open: a call that
        // commits midway (before a remote model) goes on and commits both at its end, or
        // fails, and its release rolls the index back with the files.
        let states = self.files.commit_reporting().map_err(|e| e.message())?;
        if !wrote {
            if let Some(lock) = self.lock.as_mut() {
                lock.keep_record();
            }
            return Ok(());
        }
        self.commit_index(states);
        Ok(())
    }
    fn roll_back(&mut self) -> Result<(), String> {
        // A read wrote nothing. Its lock may be gone (a pinned read), and what the journal
        // holds then is another process's open transaction, not this call's to undo.
        if self.files.read_only {
            return Ok(());
        }
        let wrote = self.files.has_writes() || self.index.is_writing();
        self.index.roll_back_write();
        self.files.roll_back().map_err(|e| e.message())?;
        // A call that failed before it wrote anything leaves the home, and the record of
        // where it stands, as they were (a refused correction, say).
        if let (false, Some(lock)) = (wrote, self.lock.as_mut()) {
            lock.keep_record();
        }
        Ok(())
    }
    fn release(&mut self) {
        // A call ends by a commit or a rollback; nothing is left open past its lock.
        self.index.roll_back_write();
        self.unpin();
        self.lock = None;
    }
    fn reads_a_snapshot(&self) -> bool {
        self.files.read_only && self.lock.is_none() && self.files.pinned()
    }

    fn read(&mut self, c: files::Collection, from: u64, generation: Option<u64>) -> Result<files::Chunk, files::Error> {
        Ok(self.files.read(c.into(), from, generation)?.into())
    }
    fn append(&mut self, c: files::Collection, lines: &[String]) -> Result<files::FileState, files::Error> {
        Ok(self.files.append(c.into(), lines)?.into())
    }
    fn replace(&mut self, c: files::Collection, lines: &[String]) -> Result<files::FileState, files::Error> {
        Ok(self.files.replace(c.into(), lines)?.into())
    }
    fn quarantine(&mut self, c: files::Collection, lines: &[String], reason: &str) -> Result<(), files::Error> {
        Ok(self.files.quarantine(c.into(), lines, reason)?)
    }

    fn upsert(&mut self, entries: &[index::Entry]) -> Result<(), index::IndexError> {
        self.index_write()?;
        self.index.upsert(entries)
    }
    fn remove(&mut self, ids: &[String]) -> Result<(), index::IndexError> {
        self.index_write()?;
        self.index.remove(ids)
    }
    fn knn(&mut self, query: &[f32], k: u32, scope: &index::ScopeFilter) -> Result<Vec<index::Hit>, index::IndexError> {
        self.index.knn(query, k, scope)
    }
    fn text_search(
        &mut self,
        terms: &[String],
        k: u32,
        scope: &index::ScopeFilter,
    ) -> Result<Vec<index::Hit>, index::IndexError> {
        self.index.text_search(terms, k, scope)
    }
    fn fetch(&mut self, ids: &[String]) -> Result<Vec<index::Held>, index::IndexError> {
        self.index.fetch(ids)
    }
    fn set_records(&mut self, revisions: &[index::Revision]) -> Result<(), index::IndexError> {
        self.index_write()?;
        self.index.set_records(revisions)
    }
    fn tally(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
    ) -> Result<index::Counts, index::IndexError> {
        self.index.tally(keys, scope, now)
    }
    fn holding(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<index::Held>, index::IndexError> {
        self.index.holding(keys, scope, now)
    }
    fn newest(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<index::Held>>, index::IndexError> {
        self.index.newest(keys, scope, now, limit)
    }
    fn holding_ids(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<String>, index::IndexError> {
        self.index.holding_ids(keys, scope, now)
    }
    fn newest_ids(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, index::IndexError> {
        self.index.newest_ids(keys, scope, now, limit)
    }
    fn newest_moments(
        &mut self,
        keys: &[String],
        scope: &index::ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, index::IndexError> {
        self.index.newest_moments(keys, scope, now)
    }
    fn recent(
        &mut self,
        scope: &index::ScopeFilter,
        now: Option<i64>,
        limit: u32,
    ) -> Result<Vec<index::Held>, index::IndexError> {
        self.index.recent(scope, now, limit)
    }
    fn made_after(&mut self, ids: &[String], now: i64, within: i64) -> Result<Vec<Option<String>>, index::IndexError> {
        self.index.made_after(ids, now, within)
    }
    fn made_around(&mut self, ids: &[String], places: u32, now: i64) -> Result<Vec<Vec<String>>, index::IndexError> {
        self.index.made_around(ids, places, now)
    }
    fn pending(&mut self, kind: index::EntryKind) -> Result<u64, index::IndexError> {
        self.index.pending(kind)
    }
    fn count(&mut self, kind: index::EntryKind) -> Result<u64, index::IndexError> {
        self.index.count(kind)
    }
    fn clear(&mut self, info: &index::IndexInfo) -> Result<(), index::IndexError> {
        // Emptied by itself, outside the call's transaction (which it would empty too): an
        // index SQLite cannot use is made anew, which no transaction survives. An index
        // emptied before the files commit is behind them, never ahead. The rebuild after
        // it is one transaction, its sorts in files as usual.
        self.index.roll_back_write();
        self.index.clear(info)?;
        self.index.begin_write(WriteSize::Any)
    }
    fn reflects(&mut self, kind: index::EntryKind) -> Result<Option<index::FileState>, index::IndexError> {
        self.index.reflects(kind)
    }
    fn set_reflects(&mut self, kind: index::EntryKind, state: index::FileState) -> Result<(), index::IndexError> {
        self.index_write()?;
        self.index.set_reflects(kind, state)
    }
    fn info(&mut self) -> Result<Option<index::IndexInfo>, index::IndexError> {
        self.index.info()
    }

    fn quarantined_lines(&mut self) -> u64 {
        crate::doctor::quarantined_lines(&self.home)
    }
    fn is_local(&self) -> bool {
        true
    }
}
