//! The one place where what a port reports becomes an [`Error`] for the caller, so that
//! the service can use `?` on port calls.
//!
//! Only file, index and clock failures reach the caller. A failed embedding
//! ([`crate::ports::EmbedError`]) or completion ([`crate::ports::LlmError`]) never does:
//! the service logs it and degrades (full-text search only, the supersession rule instead
//! of the language model), so they have no conversion here.

use crate::api::Error;
use crate::ports::{FileError, IndexError};

impl From<FileError> for Error {
    fn from(e: FileError) -> Self {
        match e {
            // What the caller gave is too large to store: theirs to shorten.
            FileError::Oversized(m) => Error::InvalidInput(m),
            e => Error::Storage(e.to_string()),
        }
    }
}

impl From<IndexError> for Error {
    fn from(e: IndexError) -> Self {
        // `Error::Index` says "index error:" itself: the port's text follows it once.
        Error::Index(match e {
            IndexError::Sql(m) => m,
            IndexError::Unavailable(m) => format!("the index cannot be used ({m}); rebuild-index makes it again"),
            IndexError::DimensionMismatch(want, got) => format!(
                "a vector of {got} dimensions does not fit the index's {want}: if the embedder changed, \
                 rebuild-index embeds every memory again"
            ),
        })
    }
}

/// The host's clock gave a time that cannot be read.
pub(super) fn host_clock(e: String) -> Error {
    Error::Storage(format!("host clock: {e}"))
}
