//! The `files` capability on the local backend: the collections crate (`files/`) over the
//! home's folder, and the mapping between its types and the WIT bindings'.

use ash_memory_files as collections;

pub(crate) use crate::bindings::ash::memory::files::{Chunk, Collection, Error as FileError, FileState};
pub(crate) use collections::native::FILE_MODE;

/// The home's collections, over its folder, with the crash tests' fault points.
pub(crate) type FileStore = collections::FileStore<collections::native::NativeFs>;

/// The collections of the home at `root`.
pub(crate) fn file_store(root: &std::path::Path) -> FileStore {
    let fs = collections::native::NativeFs::new(root).with_fault_points(collections::native::FaultPoints {
        point: |name| crate::fault::point(name).map_err(|e| e.to_string()),
        torn: crate::fault::torn,
        abort: crate::fault::abort,
    });
    collections::FileStore::new(fs)
}

impl From<collections::Collection> for Collection {
    fn from(c: collections::Collection) -> Self {
        match c {
            collections::Collection::Memories => Collection::Memories,
            collections::Collection::People => Collection::People,
            collections::Collection::Archive => Collection::Archive,
            collections::Collection::Sessions => Collection::Sessions,
            collections::Collection::Messages => Collection::Messages,
        }
    }
}

impl From<Collection> for collections::Collection {
    fn from(c: Collection) -> Self {
        match c {
            Collection::Memories => collections::Collection::Memories,
            Collection::People => collections::Collection::People,
            Collection::Archive => collections::Collection::Archive,
            Collection::Sessions => collections::Collection::Sessions,
            Collection::Messages => collections::Collection::Messages,
        }
    }
}

impl From<collections::FileState> for FileState {
    fn from(s: collections::FileState) -> Self {
        FileState {
            generation: s.generation,
            end: s.end,
        }
    }
}

impl From<collections::Chunk> for Chunk {
    fn from(c: collections::Chunk) -> Self {
        Chunk {
            data: c.data,
            end: c.end,
            generation: c.generation,
        }
    }
}

impl From<collections::FileError> for FileError {
    fn from(e: collections::FileError) -> Self {
        match e {
            collections::FileError::Io(m) => FileError::Io(m),
            collections::FileError::InvalidLine(m) => FileError::InvalidLine(m),
            collections::FileError::ReadOnly(m) => FileError::ReadOnly(m),
        }
    }
}

/// Refuses lines that would tear a collection (the Postgres backend's check too).
pub(crate) fn check_lines(lines: &[String]) -> Result<(), FileError> {
    Ok(collections::check_lines(lines)?)
}
