//! The `$ASH_HOME` layout, and its lock (`home_lock`).

use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::error::Error;
use crate::home_lock::Gate;
pub use crate::home_lock::{Access, HomeLock};

/// How long a call waits for another process's lock before giving up with
/// [`Error::Busy`], unless `ASH_LOCK_TIMEOUT_SECS` says otherwise.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(30);

/// Where everything lives:
///
/// ```text
/// $ASH_HOME/
///   config.toml                  optional settings
///   people.jsonl                 person entities
///   memory/memories.jsonl        active memories: the source of truth
///   memory/archive.jsonl         archived memories, append-only
///   memory/.journal              where the running call's writes would roll back to
///   data/memory.db               the search index, rebuildable from the JSONL files
///   .lock                        held by whoever is reading or writing
/// ```
///
/// Memories are personal: folders are created owner-only (0700), files 0600.
#[derive(Debug, Clone)]
pub struct Home {
    root: PathBuf,
    /// The in-process half of its lock, found once (`home_lock`).
    gate: Arc<Gate>,
}

/// Creates a folder of the home and any missing parents, owner-only. A file where a
/// folder should be is named as such: the system's "File exists" says neither which
/// file nor what to do.
pub fn create_folder(dir: &Path) -> Result<(), Error> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| match dir.ancestors().find(|a| a.exists()) {
            Some(file) if !file.is_dir() => Error::NotAFolder(file.to_owned()),
            _ => Error::io(dir, e),
        })
}

impl Home {
    /// The home at `root`, creating its folders if needed.
    pub fn open(root: impl Into<PathBuf>) -> Result<Self, Error> {
        let root = root.into();
        for dir in [root.clone(), root.join("memory"), root.join("data")] {
            create_folder(&dir)?;
        }
        // After the folder exists, so that every spelling of its path finds one gate.
        let gate = Gate::of(&root);
        Ok(Home { root, gate })
    }

    /// `$ASH_HOME`, else `~/.ash`.
    pub fn default_root() -> PathBuf {
        if let Some(home) = std::env::var_os("ASH_HOME") {
            return PathBuf::from(home);
        }
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."))
            .join(".ash")
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn config(&self) -> PathBuf {
        self.root.join("config.toml")
    }
    pub fn index(&self) -> PathBuf {
        self.root.join("data").join("memory.db")
    }

    /// Takes the home's lock for a call that may write (exclusive); see [`Home::lock_for`].
    pub fn lock(&self) -> Result<HomeLock, Error> {
        self.lock_for(Access::Write)
    }

    /// Takes the home's lock for `access`: side by side with other readers for a read,
    /// alone for a write, across threads and processes. It waits for a holder of the other
    /// kind, but not for ever: after `ASH_LOCK_TIMEOUT_SECS` (default 30) it gives up with
    /// [`Error::Busy`] naming the holder.
    pub fn lock_for(&self, access: Access) -> Result<HomeLock, Error> {
        HomeLock::take(&self.root, &self.gate, access, lock_timeout())
    }

    /// Takes the lock to read if no writer holds it or waits for it now; none otherwise,
    /// without waiting.
    pub(crate) fn try_lock_to_read(&self) -> Result<Option<HomeLock>, Error> {
        HomeLock::try_take_read(&self.root, &self.gate)
    }

    /// Where the last write that recorded it left the home ([`crate::boundary`]).
    pub(crate) fn last_record(&self) -> Option<crate::boundary::Record> {
        crate::home_lock::last_record(&self.root)
    }
}

/// How long a writer waits for the lock: `ASH_LOCK_TIMEOUT_SECS`, default 30 s (the
/// Postgres backend's advisory lock waits as long).
pub(crate) fn lock_timeout() -> Duration {
    std::env::var("ASH_LOCK_TIMEOUT_SECS")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v >= 0.0)
        .map_or(DEFAULT_LOCK_TIMEOUT, Duration::from_secs_f64)
}
