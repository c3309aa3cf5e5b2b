//! The JSONL collections of an ash-memory home, written once for every host: whole-line
//! appends, atomic replaces, quarantine, and the journal that makes the writes of one
//! exported call all or nothing (`wit/files.wit` says what each call promises).
//!
//! It is written against a [`FileSystem`]: the Rust host runs it over `std::fs`
//! ([`native::NativeFs`]). Callers hold the home's lock, so no two writers interleave.
//!
//! ```
//! use ash_memory_files::{Collection, FileStore, native::NativeFs};
//!
//! let home = tempfile::tempdir()?;
//! std::fs::create_dir(home.path().join("memory"))?;
//! let mut files = FileStore::new(NativeFs::new(home.path()));
//! files.append(Collection::Memories, &["{\"id\":\"m1\"}".into()])?;
//! files.commit()?;
//! assert_eq!(files.read(Collection::Memories, 0, None)?.data, "{\"id\":\"m1\"}\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod fs;
mod journal;
#[cfg(unix)]
pub mod native;
pub mod paths;
mod recovery;
mod store;
mod wit_types;

pub use fs::{File, FileSystem, FsError, HomePath, Open, Stat};
pub use store::{FileStore, check_lines};

/// A JSONL collection of the home.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Collection {
    /// `memory/memories.jsonl`: active memories, the source of truth.
    Memories,
    /// `people.jsonl`: person entities.
    People,
    /// `memory/archive.jsonl`: archived memories, append-only.
    Archive,
    /// `memory/sessions.jsonl`: conversation sessions.
    Sessions,
    /// `memory/messages.jsonl`: conversation messages.
    Messages,
}

impl Collection {
    /// All of them, in a fixed order.
    pub const ALL: [Collection; 5] = [
        Collection::Memories,
        Collection::People,
        Collection::Archive,
        Collection::Sessions,
        Collection::Messages,
    ];

    /// Its place in [`Collection::ALL`] (the order of the variants).
    pub(crate) fn position(self) -> usize {
        self as usize
    }

    /// The name used in the journal and in fault points.
    pub fn name(self) -> &'static str {
        match self {
            Collection::Memories => "memories",
            Collection::People => "people",
            Collection::Archive => "archive",
            Collection::Sessions => "sessions",
            Collection::Messages => "messages",
        }
    }
}

/// Where a collection stands: which incarnation of its file, and how far it reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileState {
    /// Changes whenever bytes already read may have changed; never handed out twice.
    pub generation: u64,
    /// The byte offset just past the last whole line.
    pub end: u64,
}

/// Bytes read from a collection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Whole lines, each ending in `\n` (and a torn last line, for the guest to quarantine).
    pub data: String,
    /// The byte offset just past `data`.
    pub end: u64,
    /// The file's incarnation.
    pub generation: u64,
}

/// What went wrong with a collection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The operating system refused or failed the operation; the text says why.
    #[error("{0}")]
    Io(String),
    /// A line was empty or spanned several lines; nothing was written.
    #[error("invalid line: {0}")]
    InvalidLine(String),
    /// A call begun as a read may not write; nothing was written.
    #[error("{0}")]
    ReadOnly(String),
}

impl FileError {
    /// The error in words.
    pub fn message(&self) -> String {
        self.to_string()
    }
}

impl From<FsError> for FileError {
    fn from(e: FsError) -> Self {
        match e {
            FsError::NotFound(m) | FsError::Io(m) => FileError::Io(m),
        }
    }
}

/// Mixes the parts of a generation into one number (splitmix64's finalizer): any change
/// of a part changes the result.
fn mix(parts: &[u64]) -> u64 {
    parts.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &p| {
        let mut z = (h ^ p).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    })
}

#[cfg(all(test, unix))]
mod tests;
