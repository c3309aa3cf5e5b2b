//! The transaction journal: makes the writes of one exported call all or nothing.
//!
//! Before a call's first write the host records, durably, where every collection stands
//! (`memory/.journal`). When the call succeeds the journal is emptied; when it fails, or
//! when the next call finds a journal left by a process that died, every collection that
//! was only appended to is cut back to the recorded length. A replace is a commit point:
//! the journal is then rewritten with the new states, so what came before it stays.
//!
//! Appends are the only writes that roll back, and a cut is only made on a file whose
//! generation is the recorded one, so a rollback never touches bytes it did not see
//! written. A replace rolls forward instead: the journal names its finished temporary
//! file before the rename, and recovery completes a rename that a crash interrupted.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fault;
use crate::files::{Collection, FILE_MODE, FileError, FileState, io_error};

/// What the journal holds while a call is writing.
#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    /// The process that wrote it, for diagnostics.
    pid: u32,
    /// (collection, end, generation) before the call's writes.
    before: Vec<(String, u64, u64)>,
    /// A replace that is committed but may not be in place yet: (collection, the flushed
    /// temporary file to rename over it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    replace: Option<(String, PathBuf)>,
}

/// What an unfinished transaction left to do.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    /// Where each collection stood: appends beyond it are cut off.
    pub(crate) states: Vec<(Collection, FileState)>,
    /// A rename to finish, if its temporary file is still there.
    pub(crate) replace: Option<(Collection, PathBuf)>,
}

/// The journal file of one home.
#[derive(Debug)]
pub(crate) struct Journal {
    path: PathBuf,
    file: Option<File>,
    active: bool,
}

impl Journal {
    pub(crate) fn new(path: PathBuf) -> Self {
        Journal {
            path,
            file: None,
            active: false,
        }
    }

    /// Whether this process has a transaction open.
    pub(crate) fn is_active(&self) -> bool {
        self.active
    }

    fn file(&mut self) -> Result<&File, FileError> {
        if self.file.is_none() {
            let existed = self.path.exists();
            let file = OpenOptions::new()
                .create(true)
                .read(true)
                .write(true)
                .truncate(false)
                .mode(FILE_MODE)
                .open(&self.path)
                .map_err(|e| io_error(&self.path, e))?;
            if !existed && let Some(dir) = self.path.parent() {
                File::open(dir)
                    .and_then(|d| d.sync_all())
                    .map_err(|e| io_error(dir, e))?;
            }
            self.file = Some(file);
        }
        Ok(self.file.as_ref().expect("just opened"))
    }

    /// Records the states the call's writes would roll back to, and a replace to finish,
    /// flushed to disk.
    pub(crate) fn begin(
        &mut self,
        states: &[(Collection, FileState)],
        replace: Option<(Collection, &Path)>,
    ) -> Result<(), FileError> {
        let entry = Entry {
            pid: std::process::id(),
            before: states
                .iter()
                .map(|(c, s)| (c.name().to_owned(), s.end, s.generation))
                .collect(),
            replace: replace.map(|(c, p)| (c.name().to_owned(), p.to_path_buf())),
        };
        let mut text = serde_json::to_string(&entry).expect("a journal entry serializes");
        text.push('\n');
        let path = self.path.clone();
        fault::point("journal:begin").map_err(|e| io_error(&path, e))?;
        let file = self.file()?;
        file.set_len(0).map_err(|e| io_error(&path, e))?;
        file.write_all_at(text.as_bytes(), 0).map_err(|e| io_error(&path, e))?;
        file.sync_data().map_err(|e| io_error(&path, e))?;
        self.active = true;
        Ok(())
    }

    /// The call succeeded: empty the journal.
    pub(crate) fn commit(&mut self) -> Result<(), FileError> {
        if !self.active {
            return Ok(());
        }
        fault::point("journal:commit").map_err(|e| io_error(&self.path, e))?;
        self.clear()
    }

    /// Empties the journal, flushed.
    pub(crate) fn clear(&mut self) -> Result<(), FileError> {
        let path = self.path.clone();
        let file = self.file()?;
        file.set_len(0).map_err(|e| io_error(&path, e))?;
        file.sync_data().map_err(|e| io_error(&path, e))?;
        self.active = false;
        Ok(())
    }

    /// The states to roll back to, if a transaction was left open (by this process or a
    /// dead one). A journal that does not parse was torn while being written, before any
    /// collection was touched: nothing to undo.
    pub(crate) fn pending(&mut self) -> Result<Option<Pending>, FileError> {
        if !self.active && !self.path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&self.path).unwrap_or_default();
        if text.trim().is_empty() {
            return Ok(None);
        }
        let Ok(entry) = serde_json::from_str::<Entry>(text.trim()) else {
            return Ok(Some(Pending::default()));
        };
        let collection = |name: &str| Collection::ALL.into_iter().find(|c| c.name() == name);
        let states = entry
            .before
            .into_iter()
            .filter_map(|(name, end, generation)| Some((collection(&name)?, FileState { generation, end })))
            .collect();
        let replace = entry.replace.and_then(|(name, tmp)| Some((collection(&name)?, tmp)));
        Ok(Some(Pending { states, replace }))
    }
}
