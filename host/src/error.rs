//! The library's error type. The first variants are the policy's own answers (the
//! `error` variants of the exported WIT interfaces, with their payloads); the rest come
//! from the host and the sandbox. [`Error::kind`] groups them for callers that branch.

use std::path::{Path, PathBuf};

use crate::bindings::exports::ash::memory::{
    browse, conversations, maintenance, memories, people, portability, recall, tools,
};

/// Why a call failed. No variant means data was lost: every error leaves the files as
/// they were before the call.
///
/// New variants may come in later versions: match on [`Error::kind`] to branch, and keep
/// a `_` arm when matching variants.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request is malformed; the text names the field.
    #[error("{0}")]
    InvalidInput(String),
    /// The content looks like a credential and was not stored; the text names what was
    /// detected, never the secret.
    #[error("refused: {0}")]
    SecretRefused(String),
    /// No memory with this id (or id prefix) is visible to the caller.
    #[error("no memory {0} is visible to you")]
    MemoryNotFound(String),
    /// This id prefix starts more than one of the caller's memories.
    #[error("{0} is ambiguous: several of your memories start with it; give more characters")]
    AmbiguousId(String),
    /// No person the caller knows answers to this reference or id.
    #[error("no person {0:?} is known to you")]
    PersonNotFound(String),
    /// No session of the caller's has this name.
    #[error("no conversation {0:?} is yours")]
    SessionNotFound(String),
    /// The caller may see this memory but not delete it: deleting needs a user.
    #[error("not allowed: deleting memory {0} needs a user")]
    Unauthorized(String),
    /// No agent tool has this name.
    #[error("unknown tool {0:?}: the tools are \"remember\" and \"recall\"")]
    UnknownTool(String),
    /// A file operation failed inside the call.
    #[error("storage error: {0}")]
    Storage(String),
    /// The index failed in a way a rebuild did not mend.
    #[error("index error: {0}")]
    Index(String),
    /// The policy component ran past its CPU budget and was stopped.
    #[error(
        "the policy component used up its budget of {0} fuel units for one call and was stopped; \
         if the call is a big one, raise [sandbox] fuel_per_call in config.toml (the default is {default})",
        default = crate::Limits::DEFAULT.fuel_per_call
    )]
    CpuLimit(u64),
    /// The policy component tried to grow its memory past the limit and was stopped.
    #[error(
        "the policy component exceeded its memory limit of {0} MiB and was stopped; \
         if the call needs more, raise [sandbox] memory_limit_mib in config.toml (the default is {default})",
        default = crate::Limits::DEFAULT.memory_limit_mib
    )]
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
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the operating system said.
        cause: std::io::Error,
    },
    /// Another process held the home's lock for longer than the wait allows.
    #[error("{0}")]
    Busy(String),
    /// The home, or a folder of it, is a file.
    #[error("{} is a file, not a folder: a home is a folder; give the path of one, or of one to create", .0.display())]
    NotAFolder(PathBuf),
    /// `config.toml` is malformed.
    #[error("{path}: {message}")]
    Config {
        /// The `config.toml` read.
        path: PathBuf,
        /// What is wrong with it, naming the key.
        message: String,
    },
}

/// What kind of failure an [`Error`] is: what a caller (a server mapping errors onto
/// status codes, an agent deciding whether to retry) branches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The request is wrong and will fail the same way again: fix it.
    InvalidInput,
    /// The content holds a credential; it was not stored.
    SecretRefused,
    /// The memory or person does not exist for this caller.
    NotFound,
    /// The caller may not change this memory.
    Unauthorized,
    /// Another process holds the home; retrying later may succeed.
    Busy,
    /// The files or the index failed; the home is as it was before the call.
    Storage,
    /// The policy component was stopped or could not be loaded.
    Sandbox,
    /// The configuration is malformed.
    Config,
}

impl Error {
    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::InvalidInput(_) | Error::AmbiguousId(_) | Error::UnknownTool(_) => ErrorKind::InvalidInput,
            Error::SecretRefused(_) => ErrorKind::SecretRefused,
            Error::MemoryNotFound(_) | Error::PersonNotFound(_) | Error::SessionNotFound(_) => ErrorKind::NotFound,
            Error::Unauthorized(_) => ErrorKind::Unauthorized,
            Error::Busy(_) => ErrorKind::Busy,
            Error::Storage(_) | Error::Index(_) | Error::Io { .. } => ErrorKind::Storage,
            Error::CpuLimit(_) | Error::MemoryLimit(_) | Error::Trap(_) | Error::Component(_) => ErrorKind::Sandbox,
            Error::Config { .. } | Error::NotAFolder(_) => ErrorKind::Config,
        }
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_owned(),
            cause: source,
        }
    }
}

// One conversion per exported interface's `error` variant.

impl From<memories::Error> for Error {
    fn from(e: memories::Error) -> Self {
        use memories::Error as E;
        match e {
            E::InvalidInput(m) => Error::InvalidInput(m),
            E::SecretRefused(m) => Error::SecretRefused(m),
            E::NotFound(id) => Error::MemoryNotFound(id),
            E::AmbiguousId(prefix) => Error::AmbiguousId(prefix),
            E::UnknownPerson(reference) => Error::PersonNotFound(reference),
            E::Unauthorized(id) => Error::Unauthorized(id),
            E::Storage(m) => Error::Storage(m),
            E::Index(m) => Error::Index(m),
        }
    }
}

impl From<recall::Error> for Error {
    fn from(e: recall::Error) -> Self {
        match e {
            recall::Error::InvalidInput(m) => Error::InvalidInput(m),
            recall::Error::Storage(m) => Error::Storage(m),
            recall::Error::Index(m) => Error::Index(m),
        }
    }
}

impl From<people::Error> for Error {
    fn from(e: people::Error) -> Self {
        match e {
            people::Error::InvalidInput(m) => Error::InvalidInput(m),
            people::Error::NotFound(reference) => Error::PersonNotFound(reference),
            people::Error::SecretRefused(m) => Error::SecretRefused(m),
            people::Error::Storage(m) => Error::Storage(m),
        }
    }
}

impl From<tools::Error> for Error {
    fn from(e: tools::Error) -> Self {
        match e {
            tools::Error::UnknownTool(name) => Error::UnknownTool(name),
            tools::Error::InvalidArguments(m) => Error::InvalidInput(m),
            tools::Error::SecretRefused(m) => Error::SecretRefused(m),
            tools::Error::Storage(m) => Error::Storage(m),
            tools::Error::Index(m) => Error::Index(m),
        }
    }
}

impl From<portability::Error> for Error {
    fn from(e: portability::Error) -> Self {
        match e {
            portability::Error::InvalidInput(m) => Error::InvalidInput(m),
            portability::Error::Storage(m) => Error::Storage(m),
            portability::Error::Index(m) => Error::Index(m),
        }
    }
}

impl From<conversations::Error> for Error {
    fn from(e: conversations::Error) -> Self {
        match e {
            conversations::Error::InvalidInput(m) => Error::InvalidInput(m),
            conversations::Error::Storage(m) => Error::Storage(m),
            conversations::Error::Index(m) => Error::Index(m),
        }
    }
}

impl From<browse::Error> for Error {
    fn from(e: browse::Error) -> Self {
        match e {
            browse::Error::InvalidInput(m) => Error::InvalidInput(m),
            browse::Error::NotFound(m) => Error::SessionNotFound(m),
            browse::Error::Storage(m) => Error::Storage(m),
            browse::Error::Index(m) => Error::Index(m),
        }
    }
}

impl From<maintenance::Error> for Error {
    fn from(e: maintenance::Error) -> Self {
        match e {
            maintenance::Error::Storage(m) => Error::Storage(m),
            maintenance::Error::Index(m) => Error::Index(m),
        }
    }
}
