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

use crate::fs::{File as _, FileSystem, Open};
use crate::journal::Before;
use crate::{Collection, FileError, FileStore, mix, paths};

impl<F: FileSystem> FileStore<F> {
    /// Undoes the call's writes since its last commit point: each collection appended to
    /// is cut back to where it stood. Also run at the start of every call, for a call
    /// that died (kill -9, power cut) with its transaction open.
    pub fn roll_back(&mut self) -> Result<(), FileError> {
        // A line held for the commit and never written has nothing to undo but the
        // generation its reader was told; one written in the journal is cut with the rest.
        let dropped = self.forget_held();
        let undone = self.roll_back_journal();
        let renewed = match dropped {
            Some(c) => self.new_token(c),
            None => Ok(()),
        };
        undone.and(renewed)
    }

    /// [`FileStore::roll_back`] of what the journal holds.
    fn roll_back_journal(&mut self) -> Result<(), FileError> {
        self.forget_tokens();
        let Some(pending) = self.journal.pending(&mut self.fs)? else {
            // Nothing open on the disk (a commit that emptied the journal and then failed
            // to flush leaves it so): the next write records its own entry.
            self.journal.forget();
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
            return self.journal.clear(&mut self.fs);
        }
        if cut != pending.rolling_back {
            self.journal.record(&mut self.fs, &pending.states, None, &cut)?;
        }
        let planned: Vec<&Before> = pending.states.iter().filter(|b| cut.contains(&b.collection)).collect();
        for b in &planned {
            self.cut_back(b)?;
        }
        for b in &planned {
            if self.unchanged(b) {
                self.fs.fault_point("recover:token")?;
                self.new_token(b.collection)?;
            }
        }
        self.fs.fault_point("recover:clear")?;
        self.journal.clear(&mut self.fs)
    }

    /// Whether the collection is the file the journal saw: the same token (a journal of
    /// an older version has none, and compares generations).
    fn unchanged(&mut self, b: &Before) -> bool {
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
    fn appended_to(&mut self, b: &Before) -> Result<bool, FileError> {
        Ok(self.unchanged(b) && self.state(b.collection)?.end > b.state.end)
    }

    /// Cuts the collection back to where it stood, or removes it if the call made it.
    pub(crate) fn cut_back(&mut self, b: &Before) -> Result<(), FileError> {
        if !self.appended_to(b)? {
            return Ok(());
        }
        let c = b.collection;
        let path = paths::collection(c);
        let now = self.state(c)?;
        self.fs.fault_point("recover:cut")?;
        let token = match b.token {
            Some(token) => token,
            None => self.token(c),
        };
        let existed = b.state.generation != mix(&[token, 0, 0]);
        if b.state.end == 0 && !existed {
            self.fs.remove(path)?;
            tracing::warn!("{path}: removed, made by an unfinished write");
            return Ok(());
        }
        let mut file = self.fs.open(path, Open::Write)?;
        file.set_len(b.state.end)?;
        file.sync_all()?;
        tracing::warn!(
            "{path}: rolled back {} bytes of an unfinished write",
            now.end - b.state.end
        );
        Ok(())
    }

    /// Finishes a committed replace whose rename a crash interrupted. The journal names
    /// the temporary file; only a file of this home's own temporary name beside the
    /// collection is taken, whatever folder the journal names.
    fn finish_replace(&mut self, c: Collection, named: &str) -> Result<(), FileError> {
        let path = paths::collection(c);
        let Some(tmp) = own_temporary_file(c, named) else {
            tracing::warn!("{path}: the journal names {named} as its rewrite, which is not this home's; ignored");
            return Ok(());
        };
        if self.fs.stat(&tmp)?.is_none() {
            return Ok(());
        }
        self.fs.fault_point("recover:replace")?;
        self.new_token(c)?;
        self.fs.rename(&tmp, path)?;
        self.fs.sync_dir(paths::parent(path))?;
        tracing::warn!("{path}: finished a rewrite that was interrupted");
        Ok(())
    }

    /// Removes temporary files a replace, a token or a journal rewrite left when its
    /// process died. Only run while the lock is held and a transaction is being rolled
    /// back, when no replace is under way.
    fn sweep_temporary_files(&mut self) {
        let mut dirs: Vec<&str> = Collection::ALL
            .iter()
            .map(|&c| paths::parent(paths::collection(c)))
            .collect();
        dirs.sort_unstable();
        dirs.dedup();
        for dir in dirs {
            let Ok(names) = self.fs.list(dir) else { continue };
            for name in names {
                let ours = name.starts_with(".journal.tmp-")
                    || Collection::ALL.iter().any(|&c| {
                        let file = paths::collection(c);
                        name.starts_with(&format!(".{}.tmp-", paths::file_name(file)))
                            || name.starts_with(&format!(".{}.tmp-", paths::file_stem(file)))
                    });
                if ours && self.fs.remove(&paths::join(dir, &name)).is_ok() {
                    tracing::info!("removed {name}, left by an interrupted rewrite");
                }
            }
        }
    }
}

/// The temporary file a journal names for a collection's rewrite, if the name is one this
/// home gives them (`.memories.jsonl.tmp-PID`); it is looked for beside the collection, so
/// that a home moved or copied finishes its own rewrite.
fn own_temporary_file(c: Collection, named: &str) -> Option<String> {
    let name = paths::file_name(named);
    let path = paths::collection(c);
    let pid = name.strip_prefix(&format!(".{}.tmp-", paths::file_name(path)))?;
    (!pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())).then(|| paths::with_file_name(path, name))
}
