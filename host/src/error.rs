//! The library's error type. The first six variants are the policy's own answers (the
//! WIT `memory.error`); the rest come from the host and the sandbox.

use std::path::{Path, PathBuf};

/// Why a call failed. No variant means data was lost: every error leaves the files as
/// they were before the call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed.
    #[error("{0}")]
    InvalidInput(String),
    /// The content looks like a credential and was not stored.
    #[error("refused: {0}")]
    SecretRefused(String),
    /// No such memory is visible to the caller.
    #[error("{0}")]
    NotFound(String),
    /// The caller may see the memory but not change it.
    #[error("not allowed: {0}")]
    Unauthorized(String),
    /// A file operation failed inside the call.
    #[error("storage error: {0}")]
    Storage(String),
    /// The index failed in a way a rebuild did not mend.
    #[error("index error: {0}")]
    Index(String),
    /// The policy component ran past its CPU budget and was stopped.
    #[error("the policy component used up its budget of {0} fuel units for one call and was stopped")]
    CpuLimit(u64),
    /// The policy component tried to grow its memory past the limit and was stopped.
    #[error("the policy component exceeded its memory limit of {0} MiB and was stopped")]
    MemoryLimit(u64),
    /// The policy component trapped for another reason (a bug in the guest).
    #[error("the policy component failed: {0}")]
    Trap(String),
    /// The component could not be compiled, loaded or instantiated.
    #[error("cannot load the policy component: {0}")]
    Component(String),
    /// A file or folder of the home could not be used. (The cause is part of the message,
    /// not a `source`, so that error chains print it once.)
    #[error("{}: {cause}", path.display())]
    Io { path: PathBuf, cause: std::io::Error },
    /// Another process held the home's lock for longer than the wait allows.
    #[error("{0}")]
    Busy(String),
    /// `config.toml` is malformed.
    #[error("{path}: {message}")]
    Config { path: PathBuf, message: String },
}

impl Error {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_owned(),
            cause: source,
        }
    }
}
