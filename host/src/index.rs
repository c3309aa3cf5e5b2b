//! The `index` import: the index crate (`ash-memory-index`, the same code the JavaScript
//! and Python hosts run as a component) over rusqlite, and the WIT bindings' records
//! mapped onto its types, which the storage backends take.

pub(crate) use ash_memory_index::wit_types::{each, try_each};
pub(crate) use ash_memory_index::{
    CONTEXT_WEIGHT, Counts, Entry, EntryKind, FileState, Held, Hit, IndexError, IndexInfo, MAX_K, MAX_NEWEST,
    MAX_PLACES, MAX_RECENT, Marks, NativeSqlite, RARE_TERM, Revision, ScopeFilter, SqliteIndex, WriteSize,
    register_sqlite_vec, usable,
};
#[cfg(feature = "bench")]
pub use ash_memory_index::{FirstSearchRecall, first_search_recall};

use crate::bindings::ash::memory::{files, index as wit};

ash_memory_index::map_wit_types!(wit, files);
