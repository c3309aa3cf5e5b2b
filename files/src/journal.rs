//! The transaction journal: makes the writes of one exported call all or nothing.
//!
//! Before a call's first write the host records, durably, where every collection stands
//! (`memory/.journal`). When the call succeeds the journal is emptied; when it fails, or
//! when the next call finds a journal left by a process that died, every collection that
//! was only appended to is cut back to the recorded length. A replace is a commit point:
//! the journal is then rewritten with the new states, so what came before it stays.
//!
//! Appends are the only writes that roll back, and a cut is only made on a file whose
//! token is the recorded one, so a rollback never touches bytes it did not see written.
//! A replace rolls forward instead: the journal names its finished temporary file before
//! the rename, and recovery completes a rename that a crash interrupted.
//!
//! Recovery may itself be killed at any point (`recovery` says how each of its steps can
//! be done again), and every rewrite of an entry is atomic.

use serde::{Deserialize, Serialize};

use crate::fs::{self, FileSystem, FsError};
use crate::paths::{self, JOURNAL};
use crate::{Collection, FileError, FileState};

/// What the journal holds while a call is writing.
#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    /// The process that wrote it, for diagnostics.
    pid: u32,
    /// (collection, end, generation) before the call's writes.
    before: Vec<(String, u64, u64)>,
    /// (collection, token) before the call's writes. A rollback matches a file by its
    /// token, which travels with a copied home, not by its generation, whose inode and
    /// device do not. Absent from journals of older versions, matched by generation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tokens: Vec<(String, u64)>,
    /// A replace that is committed but may not be in place yet: (collection, the file name
    /// of the flushed temporary file, beside the collection, to rename over it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    replace: Option<(String, String)>,
    /// The collections a rollback under way is cutting back, recorded before its first
    /// cut: a rollback killed midway goes on with the same ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rolling_back: Vec<String>,
}

/// Where a collection stood when a transaction began (or reached a commit point).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Before {
    pub(crate) collection: Collection,
    pub(crate) state: FileState,
    /// Its token then; none in a journal of an older version.
    pub(crate) token: Option<u64>,
}

/// What an unfinished transaction left to do.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    /// Where each collection stood: appends beyond it are cut off.
    pub(crate) states: Vec<Before>,
    /// A rename to finish, if its temporary file is still there: the file's name, not
    /// yet checked.
    pub(crate) replace: Option<(Collection, String)>,
    /// The collections a rollback killed midway was cutting back.
    pub(crate) rolling_back: Vec<Collection>,
}

/// Whether this process has a transaction open in the home's journal. No handle is kept
/// between writes: another process's `record` may rename a new journal over the file while
/// this one does not hold the lock, and an entry written through an old handle would go to
/// a file no recovery reads.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    active: bool,
}

impl Journal {
    /// Whether this process has a transaction open.
    /// Forgets a transaction believed open that the journal on the disk does not hold.
    pub(crate) fn forget(&mut self) {
        self.active = false;
    }

    pub(crate) fn is_active(&self) -> bool {
        self.active
    }

    /// Writes the journal in place, flushed; a journal just made is made durable too.
    fn write<F: FileSystem>(fs: &mut F, text: &str) -> Result<(), FileError> {
        if fs.overwrite(JOURNAL, padded(text).as_bytes())? {
            fs.sync_dir(paths::parent(JOURNAL))?;
        }
        Ok(())
    }

    /// Records, at a call's first write, the states its writes would roll back to,
    /// flushed to disk. Written in place: a torn entry does not parse, and nothing has
    /// been written yet that would need undoing.
    pub(crate) fn begin<F: FileSystem>(&mut self, fs: &mut F, states: &[Before]) -> Result<(), FileError> {
        let text = entry_text(fs.process_id(), states, None, &[]);
        fs.fault_point("journal:begin")?;
        Self::write(fs, &text)?;
        self.active = true;
        Ok(())
    }

    /// Replaces the entry of an open transaction (a commit point, a replace to finish, a
    /// rollback's plan) atomically: a new file, flushed, renamed over the journal. A crash
    /// leaves the old entry or the new one, never a torn one that would undo nothing.
    pub(crate) fn record<F: FileSystem>(
        &mut self,
        fs: &mut F,
        states: &[Before],
        replace: Option<(Collection, &str)>,
        rolling_back: &[Collection],
    ) -> Result<(), FileError> {
        let text = entry_text(fs.process_id(), states, replace, rolling_back);
        fs.fault_point("journal:record")?;
        fs::write_atomically(fs, JOURNAL, padded(&text).as_bytes())?;
        fs.sync_dir(paths::parent(JOURNAL))?;
        self.active = true;
        Ok(())
    }

    /// The call succeeded: empty the journal.
    pub(crate) fn commit<F: FileSystem>(&mut self, fs: &mut F) -> Result<(), FileError> {
        if !self.active {
            return Ok(());
        }
        fs.fault_point("journal:commit")?;
        self.clear(fs)
    }

    /// Empties the journal, flushed.
    pub(crate) fn clear<F: FileSystem>(&mut self, fs: &mut F) -> Result<(), FileError> {
        Self::write(fs, "")?;
        self.active = false;
        Ok(())
    }

    /// The states to roll back to, if a transaction was left open (by this process or a
    /// dead one). A journal that does not parse was torn while being written, before any
    /// collection was touched: nothing to undo.
    pub(crate) fn pending<F: FileSystem>(&mut self, fs: &mut F) -> Result<Option<Pending>, FileError> {
        let bytes = match fs.read_whole(JOURNAL) {
            Ok(Some(bytes)) => bytes,
            Ok(None) | Err(FsError::NotFound(_)) => return Ok(None),
            // As before: a journal that cannot be read holds nothing to undo.
            Err(_) => Vec::new(),
        };
        let text = String::from_utf8(bytes).unwrap_or_default();
        if text.trim().is_empty() {
            return Ok(None);
        }
        let Ok(entry) = serde_json::from_str::<Entry>(text.trim()) else {
            return Ok(Some(Pending::default()));
        };
        let collection = |name: &str| Collection::ALL.into_iter().find(|c| c.name() == name);
        let token = |name: &str| entry.tokens.iter().find(|(n, _)| n == name).map(|(_, t)| *t);
        let states = entry
            .before
            .iter()
            .filter_map(|(name, end, generation)| {
                Some(Before {
                    collection: collection(name)?,
                    state: FileState {
                        generation: *generation,
                        end: *end,
                    },
                    token: token(name),
                })
            })
            .collect();
        let replace = entry.replace.and_then(|(name, tmp)| Some((collection(&name)?, tmp)));
        let rolling_back = entry.rolling_back.iter().filter_map(|n| collection(n)).collect();
        Ok(Some(Pending {
            states,
            replace,
            rolling_back,
        }))
    }
}

/// How the journal's length is rounded up. Every call writes the journal twice, at its first
/// write and when it commits; at one length throughout, each is written over in place, and
/// its flush has only a block of data to write, not the file's size too (`fdatasync` 0.136 ->
/// 0.083 ms on the machine measured, docs/performance.md).
const BLOCK: usize = 4096;

/// `text` (an entry, or nothing) followed by spaces up to a multiple of `BLOCK`: whitespace
/// around an entry does not change it, and whitespace alone is an empty journal. An entry
/// (at most about 600 bytes) written over another, or blanked, and torn at a sector's edge
/// leaves a prefix without its end or an end without its start: neither parses, which
/// means nothing to undo, right for a torn `begin` (nothing written yet) and a torn clear
/// (committed). A disk that tore inside a sector could blank part of an entry and leave one
/// that parses; a cut to nothing, as before, could not.
fn padded(text: &str) -> String {
    let length = text.len().div_ceil(BLOCK).max(1) * BLOCK;
    let mut out = String::with_capacity(length);
    out.push_str(text);
    out.extend(std::iter::repeat_n(' ', length - text.len()));
    out
}

/// The journal entry, one line.
fn entry_text(pid: u32, states: &[Before], replace: Option<(Collection, &str)>, rolling_back: &[Collection]) -> String {
    let entry = Entry {
        pid,
        before: states
            .iter()
            .map(|b| (b.collection.name().to_owned(), b.state.end, b.state.generation))
            .collect(),
        tokens: states
            .iter()
            .filter_map(|b| Some((b.collection.name().to_owned(), b.token?)))
            .collect(),
        // The name alone: the file lives beside its collection, wherever the home is.
        replace: replace.map(|(c, p)| (c.name().to_owned(), paths::file_name(p).to_owned())),
        rolling_back: rolling_back.iter().map(|c| c.name().to_owned()).collect(),
    };
    let mut text = serde_json::to_string(&entry).expect("a journal entry serializes");
    text.push('\n');
    text
}
