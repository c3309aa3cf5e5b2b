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

use crate::bindings::ash::memory::files;
collections::map_wit_types!(files);

/// Refuses lines that would tear a collection (the Postgres backend's check too).
pub(crate) fn check_lines(lines: &[String]) -> Result<(), FileError> {
    Ok(collections::check_lines(lines)?)
}
