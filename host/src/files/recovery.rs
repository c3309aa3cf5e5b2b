//! Rolling back a transaction a call left open: after a failed call, or at the start of the
//! next call when a process died with its journal open. Recovery may itself be killed at
//! any point, so every step can be done again:
//!
//! 1. A committed replace whose rename did not happen is finished (a new token, then the
//!    rename: a kill between the two does both again).
//! 2. The collections to cut are recorded in the journal (atomically) before the first
//!    cut: a recovery killed after cutting one of them still knows the others.
//! 3. Each is cut back to its recorded end; a file the call created goes away. A cut
//!    only shortens, so doing it twice does nothing more.
//! 4. Each cut collection gets a new token, after its cut, so that readers that saw the
//!    undone bytes read again. A collection whose token already changed was cut.
//! 5. The journal is emptied.
//!
//! A file is recognised by its token, which a copied home (`cp -a`, a restore) keeps, and
//! recovery touches only the home's own files, whatever a journal names.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use super::journal::Before;
use super::{FileStore, io_error, mix};
use crate::fault;
use crate::files::{Collection, FileError};

impl FileStore {
    /// Undoes the call's writes since its last commit point: each collection appended to
    /// is cut back to where it stood. Also run at the start of every call, for a call
    /// that died (kill -9, power cut) with its transaction open.
    pub fn roll_back(&mut self) -> Result<(), FileError> {
        let Some(pending) = self.journal.pending()? else {
            return Ok(());
        };
        if let Some((c, tmp)) = &pending.replace {
            self.finish_replace(*c, tmp)?;
        }
        self.sweep_temporary_files();
        let mut cut = pending.rolling_back.clone();
        for b in &pending.states {
            if self.appended_to(b)? && !cut.contains(&b.collection) {
                cut.push(b.collection);
            }
        }
        if cut.is_empty() {
            return self.journal.clear();
        }
        if cut != pending.rolling_back {
            self.journal.record(&pending.states, None, &cut)?;
        }
        let planned = || pending.states.iter().filter(|b| cut.contains(&b.collection));
        for b in planned() {
            self.cut_back(b)?;
        }
        for b in planned() {
            if self.unchanged(b) {
                let path = self.path(b.collection);
                fault::point("recover:token").map_err(|e| io_error(&path, e))?;
                self.new_token(b.collection)?;
            }
        }
        fault::point("recover:clear").map_err(|e| io_error(&self.home.journal(), e))?;
        self.journal.clear()
    }

    /// Whether the collection is the file the journal saw: the same token (a journal of
    /// an older version has none, and compares generations).
    fn unchanged(&self, b: &Before) -> bool {
        match b.token {
            Some(token) => self.token(b.collection) == token,
            None => {
                b.state.end == 0
                    || self
                        .state(b.collection)
                        .is_ok_and(|now| now.generation == b.state.generation)
            }
        }
    }

    /// Whether the call appended to the collection, which is still the file it saw.
    fn appended_to(&self, b: &Before) -> Result<bool, FileError> {
        Ok(self.unchanged(b) && self.state(b.collection)?.end > b.state.end)
    }

    /// Cuts the collection back to where it stood, or removes it if the call made it.
    pub(super) fn cut_back(&self, b: &Before) -> Result<(), FileError> {
        if !self.appended_to(b)? {
            return Ok(());
        }
        let c = b.collection;
        let path = self.path(c);
        let now = self.state(c)?;
        fault::point("recover:cut").map_err(|e| io_error(&path, e))?;
        let token = b.token.unwrap_or_else(|| self.token(c));
        let existed = b.state.generation != mix(&[token, 0, 0]);
        if b.state.end == 0 && !existed {
            std::fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
            tracing::warn!("{}: removed, made by an unfinished write", path.display());
            return Ok(());
        }
        let file = OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(|e| io_error(&path, e))?;
        file.set_len(b.state.end).map_err(|e| io_error(&path, e))?;
        file.sync_all().map_err(|e| io_error(&path, e))?;
        tracing::warn!(
            "{}: rolled back {} bytes of an unfinished write",
            path.display(),
            now.end - b.state.end
        );
        Ok(())
    }

    /// Finishes a committed replace whose rename a crash interrupted. The journal names
    /// the temporary file; only a file of this home's own temporary name beside the
    /// collection is taken, whatever folder the journal names.
    fn finish_replace(&self, c: Collection, named: &Path) -> Result<(), FileError> {
        let path = self.path(c);
        let Some(tmp) = self.own_temporary_file(c, named) else {
            tracing::warn!(
                "{}: the journal names {} as its rewrite, which is not this home's; ignored",
                path.display(),
                named.display()
            );
            return Ok(());
        };
        if !tmp.exists() {
            return Ok(());
        }
        fault::point("recover:replace").map_err(|e| io_error(&path, e))?;
        self.new_token(c)?;
        std::fs::rename(&tmp, &path).map_err(|e| io_error(&path, e))?;
        if let Some(dir) = path.parent() {
            File::open(dir)
                .and_then(|d| d.sync_all())
                .map_err(|e| io_error(dir, e))?;
        }
        tracing::warn!("{}: finished a rewrite that was interrupted", path.display());
        Ok(())
    }

    /// The temporary file a journal names for a collection's rewrite, if the name is one
    /// this home gives them (`.memories.jsonl.tmp-PID`); it is looked for beside the
    /// collection, so that a home moved or copied finishes its own rewrite.
    fn own_temporary_file(&self, c: Collection, named: &Path) -> Option<PathBuf> {
        let name = named.file_name()?.to_str()?;
        let path = self.path(c);
        let full = path.file_name()?.to_str()?;
        let pid = name.strip_prefix(&format!(".{full}.tmp-"))?;
        (!pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())).then(|| path.with_file_name(name))
    }

    /// Removes temporary files a replace, a token or a journal rewrite left when its
    /// process died. Only run while the lock is held and a transaction is being rolled
    /// back, when no replace is under way.
    fn sweep_temporary_files(&self) {
        let mut dirs: Vec<PathBuf> = Collection::ALL
            .iter()
            .filter_map(|&c| self.path(c).parent().map(Path::to_path_buf))
            .collect();
        dirs.dedup();
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                let ours = name.starts_with(".journal.tmp-")
                    || Collection::ALL.iter().any(|&c| {
                        let file = self.path(c);
                        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                        let full = file.file_name().and_then(|s| s.to_str()).unwrap_or("");
                        name.starts_with(&format!(".{full}.tmp-")) || name.starts_with(&format!(".{stem}.tmp-"))
                    });
                if ours && std::fs::remove_file(entry.path()).is_ok() {
                    tracing::info!("removed {name}, left by an interrupted rewrite");
                }
            }
        }
    }
}
