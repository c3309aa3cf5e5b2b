//! The `$ASH_HOME` layout and the lock that serializes writers across processes.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::error::Error;

/// Where everything lives:
///
/// ```text
/// $ASH_HOME/
///   config.toml                  optional settings
///   people.jsonl                 person entities
///   memory/memories.jsonl        active memories: the source of truth
///   memory/archive.jsonl         archived memories, append-only
///   data/memory.db               the search index, rebuildable from the JSONL files
///   .lock                        held by whoever is reading or writing
/// ```
#[derive(Debug, Clone)]
pub struct Home {
    root: PathBuf,
}

impl Home {
    /// The home at `root`, creating its folders if needed.
    pub fn open(root: impl Into<PathBuf>) -> Result<Self, Error> {
        let home = Home { root: root.into() };
        for dir in [home.root.clone(), home.root.join("memory"), home.root.join("data")] {
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        }
        Ok(home)
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
    pub fn memories(&self) -> PathBuf {
        self.root.join("memory").join("memories.jsonl")
    }
    pub fn archive(&self) -> PathBuf {
        self.root.join("memory").join("archive.jsonl")
    }
    pub fn people(&self) -> PathBuf {
        self.root.join("people.jsonl")
    }
    pub fn index(&self) -> PathBuf {
        self.root.join("data").join("memory.db")
    }

    /// Takes the home's exclusive lock, waiting for any other process that holds it. The
    /// lock is an OS file lock (flock), so it is released even if the holder crashes.
    pub fn lock(&self) -> Result<HomeLock, Error> {
        let path = self.root.join(".lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        file.lock().map_err(|e| Error::io(&path, e))?;
        Ok(HomeLock { _file: file })
    }
}

/// Holds the home's exclusive lock until dropped.
#[derive(Debug)]
pub struct HomeLock {
    _file: File,
}
