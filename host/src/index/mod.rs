//! The `index` capability: sqlite-vec vectors and FTS5 full text in `data/memory.db`.
//!
//! The index is a cache of `memories.jsonl` and `messages.jsonl`, kept apart by scope key.
//! Whatever goes wrong with the file (missing,
//! overwritten with junk, built by another model) is reported as `Unavailable` or by
//! `info`, and the guest answers by clearing and rebuilding it; `clear` recreates the file
//! from nothing when SQLite cannot open it.
//!
//! Vectors are stored in sqlite-vec's `vec0` table, partitioned by scope, each with a coarse
//! code of one byte a component beside it (`coarse`). A scope's first two searches (all a
//! CLI call makes) find their candidates by the codes and score those from their vectors, or
//! stream a small scope's chunks past a scorer that keeps only the best (`chunks`,
//! `scan::Streamed`); from its third, its vectors are held in memory and scanned there
//! (`scan::ScopeVectors`), exactly. Every score is exact; only which vectors a first
//! search looks at is approximate, and the bench prints its recall.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Once;

use rusqlite::Connection;

mod chunks;
mod coarse;
mod file;
mod knn;
mod marks;
#[cfg(feature = "bench")]
mod recall;
mod recent;
mod records;
mod scan;
mod text;
mod write;

use knn::LastKnn;
pub use marks::MAX_NEWEST;
#[cfg(feature = "bench")]
pub use recall::{FirstSearchRecall, first_search_recall};
pub use recent::MAX_RECENT;
use scan::ScopeVectors;

/// The most neighbours one knn returns (sqlite-vec refuses k above 4096).
pub const MAX_K: u32 = 4096;

/// Vectors per sqlite-vec chunk (its default is 1024). SQLite reaches a vector's slot by
/// walking its chunk's overflow pages from the start, so smaller chunks make every write
/// and removal cheaper, and searches no slower (docs/performance.md, "Figures behind the
/// code"). The JavaScript and Python hosts create the table with the same size; an index
/// created before keeps its chunks until `rebuild-index`, and reads the same either way.
pub(crate) const VECTOR_CHUNK_SLOTS: u32 = 128;

pub(crate) use crate::bindings::ash::memory::index::{
    Counts, Entry, EntryKind, Error as IndexError, Held, Hit, IndexInfo, Marks, Revision, ScopeFilter,
};

impl EntryKind {
    /// What scope keys of this kind start with: nothing for memories (so that indexes
    /// built before messages existed stay valid), `m` for messages.
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            EntryKind::Memory => "",
            EntryKind::Message => "m",
        }
    }

    /// The meta key of the collection state this kind reflects.
    pub(crate) fn reflects_key(self) -> &'static str {
        match self {
            // A new key for each change to what the index holds: a host of an older
            // version sharing this index moves only its own key, so a state it wrote is
            // never taken for one with everything this version keeps. Never reuse an old
            // one: `reflects`, `reflects_records`, `reflects_marks`, `reflects_codes`,
            // `reflects_observed`, `reflects_messages`.
            EntryKind::Memory => "reflects_made",
            EntryKind::Message => "reflects_message_codes",
        }
    }
}

/// No keys, never lapsing: a message's marks.
impl Default for Marks {
    fn default() -> Self {
        Marks {
            keys: Vec::new(),
            lapses: None,
            observed: 0,
            made: 0,
        }
    }
}

impl ScopeFilter {
    /// The scope keys this filter admits: `u:<user>` for personal, `c:<chat>` for group,
    /// after the kind's prefix.
    pub(crate) fn keys(&self) -> Vec<String> {
        let kind = self.kind.prefix();
        let mut keys = Vec::new();
        if let Some(u) = &self.user_id {
            keys.push(format!("{kind}u:{u}"));
        }
        if let Some(c) = &self.chat_id {
            keys.push(format!("{kind}c:{c}"));
        }
        keys
    }

    /// The scope keys of a filter of memories; none for messages, which have no marks.
    pub(crate) fn memory_keys(&self) -> Vec<String> {
        match self.kind {
            EntryKind::Memory => self.keys(),
            EntryKind::Message => Vec::new(),
        }
    }
}

impl Entry {
    /// The scope key, matching the guest's visibility rule: a chat id makes it a group
    /// memory; otherwise the owner's personal one. Kinds never share a key.
    pub(crate) fn scope(&self) -> String {
        let kind = self.kind.prefix();
        match (&self.chat_id, &self.owner_user_id) {
            (Some(c), _) => format!("{kind}c:{c}"),
            (None, Some(u)) => format!("{kind}u:{u}"),
            (None, None) => format!("{kind}none"),
        }
    }
}

/// The SQLite index file, opened on first use.
pub struct SqliteIndex {
    path: PathBuf,
    conn: Option<Connection>,
    /// The vectors of each scope searched so far, by scope key: knn scans these. They
    /// follow this connection's own writes, and are dropped when another connection has
    /// committed since (`PRAGMA data_version`), or the connection is reopened.
    vectors: HashMap<String, ScopeVectors>,
    /// `PRAGMA data_version` when `vectors` last matched the file.
    data_version: i64,
    /// How many times each scope was searched from the file: its third search loads it.
    /// Loading copies each vector and its id (several streamed scans' worth), so a one-call
    /// process (the CLI) never does.
    searched: HashMap<String, u32>,
    /// The last knn and what it found, until anything is written: an add searches for
    /// what its fact may supersede twice, before and after judging, with nothing written
    /// between.
    last_knn: Option<LastKnn>,
    /// Each scope's count of live entries as `tally` last counted it (`marks::LiveCount`):
    /// counting 100,000 entries costs about 12 ms, and every search naming an entity asks.
    /// Dropped with `last_knn`, at every write and when another connection has committed.
    live: HashMap<String, marks::LiveCount>,
}

pub(crate) fn register_sqlite_vec() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: sqlite3_vec_init has the signature of an SQLite extension entry point;
        // auto_extension runs it for every connection opened afterwards.
        unsafe {
            rusqlite::ffi::sqlite3_auto_extension(Some(std::mem::transmute::<
                *const (),
                unsafe extern "C" fn(
                    *mut rusqlite::ffi::sqlite3,
                    *mut *mut std::os::raw::c_char,
                    *const rusqlite::ffi::sqlite3_api_routines,
                ) -> std::os::raw::c_int,
            >(sqlite_vec::sqlite3_vec_init as *const ())));
        }
    });
}

fn sql(e: rusqlite::Error) -> IndexError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt) => {
            IndexError::Unavailable(e.to_string())
        }
        _ => IndexError::Sql(e.to_string()),
    }
}

impl SqliteIndex {
    /// The index at `path`; nothing is opened until first use.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        register_sqlite_vec();
        SqliteIndex {
            path: path.into(),
            conn: None,
            vectors: HashMap::new(),
            data_version: 0,
            searched: HashMap::new(),
            last_knn: None,
            live: HashMap::new(),
        }
    }

    /// How many entries of this kind the index holds.
    pub fn count(&mut self, kind: EntryKind) -> Result<u64, IndexError> {
        let conn = self.conn()?;
        let sql_text = format!("SELECT count(*) FROM items WHERE {}", of_kind(kind));
        conn.query_row(&sql_text, [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(sql)
    }
}

/// The `items` of one kind: message scope keys start with `m`; memory keys with `u`, `c`
/// or `n`.
fn of_kind(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Memory => "scope NOT LIKE 'm%'",
        EntryKind::Message => "scope LIKE 'm%'",
    }
}

/// Whether the vector table exists: a half-done `clear` leaves it out.
fn has_vectors(conn: &Connection) -> Result<bool, IndexError> {
    conn.query_row("SELECT count(*) FROM sqlite_master WHERE name = 'vecs'", [], |r| {
        r.get::<_, i64>(0)
    })
    .map(|n| n > 0)
    .map_err(sql)
}

/// Whether a vector has a direction: finite components, a norm that is not zero.
pub(crate) fn usable(v: &[f32]) -> bool {
    let norm: f64 = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
    v.iter().all(|x| x.is_finite()) && norm.is_finite() && norm > 1e-12
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests;
