//! The search index of ash-memory, written once: vectors (sqlite-vec) and full text (FTS5)
//! in one SQLite file, the `index` capability of `wit/index.wit`.
//!
//! The index runs over any [`Database`] that reaches such a file: the Rust host's
//! rusqlite ([`NativeSqlite`], feature `native`), and, compiled to WebAssembly as the index
//! component (`index/wasm`), the `ash:memory/sql` import that the JavaScript and Python
//! hosts implement. So the schema, the scope keys, the marks and every search are these
//! files' in every host.
//!
//! The index is a cache of `memories.jsonl` and `messages.jsonl`, kept apart by scope key.
//! Whatever goes wrong with the file (missing, overwritten with junk, built by another
//! model) is reported as `Unavailable` or by `info`, and the guest answers by clearing and
//! rebuilding it; `clear` recreates the file from nothing when SQLite cannot open it.
//!
//! Vectors are stored in sqlite-vec's `vec0` table, partitioned by scope, each with a coarse
//! code of one byte a component beside it (`coarse`). A scope's first two searches (all a
//! CLI call makes) find their candidates by the codes and score those from their vectors, or
//! stream a small scope's chunks past a scorer that keeps only the best (`chunks`,
//! `scan::Streamed`); from its third, its vectors are held in memory with their codes and
//! searched there exactly (`scan::ScopeVectors`: the codes bound which vectors can be among
//! the best, `code_bounds`). Every score is exact; only which vectors a first search looks
//! at is approximate, and the bench prints its recall.
//!
//! ```
//! use ash_memory_index::{Entry, EntryKind, IndexInfo, Marks, ScopeFilter, SqliteIndex};
//!
//! let dir = tempfile::tempdir()?;
//! let mut index = SqliteIndex::new(dir.path().join("memory.db"));
//! index.clear(&IndexInfo { model: "example".into(), dimension: 3 })?;
//! index.upsert(&[Entry {
//!     kind: EntryKind::Memory,
//!     id: "m1".into(),
//!     content: "allergic to peanuts".into(),
//!     context: None,
//!     embedding: Some(vec![1.0, 0.0, 0.0]),
//!     owner_user_id: Some("alice".into()),
//!     chat_id: None,
//!     record: Some("{}".into()),
//!     marks: Marks::default(),
//! }])?;
//! let alice = ScopeFilter { kind: EntryKind::Memory, user_id: Some("alice".into()), chat_id: None };
//! let hits = index.text_search(&["peanuts".into()], 10, &alice)?;
//! assert_eq!(hits[0].id, "m1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;

mod chunks;
mod coarse;
mod code_blocks;
mod code_bounds;
pub mod database;
pub mod encoded_rows;
mod file;
mod knn;
mod made_after;
mod made_around;
mod marks;
#[cfg(feature = "native")]
pub mod native;
pub mod packed;
#[cfg(all(feature = "bench", feature = "native"))]
mod recall;
mod recent;
mod records;
mod scan;
mod stopwatch;
mod text;
mod types;
pub mod wit_types;
mod write;

pub use database::Database;
use knn::LastKnn;
pub use made_around::MAX_PLACES;
pub use marks::MAX_NEWEST;
#[cfg(feature = "native")]
pub use native::{NativeSqlite, register_sqlite_vec};
#[cfg(all(feature = "bench", feature = "native"))]
pub use recall::{FirstSearchRecall, first_search_recall};
pub use recent::MAX_RECENT;
use scan::ScopeVectors;
pub use text::{CONTEXT_WEIGHT, RARE_TERM, RECENT_MATCHES};
pub use types::{Counts, Entry, EntryKind, FileState, Held, Hit, IndexError, IndexInfo, Marks, Revision, ScopeFilter};

/// The most neighbours one knn returns (sqlite-vec refuses k above 4096).
pub const MAX_K: u32 = 4096;

/// Vectors per sqlite-vec chunk (its default is 1024). SQLite reaches a vector's slot by
/// walking its chunk's overflow pages from the start, so smaller chunks make every write
/// and removal cheaper, and searches no slower (docs/performance.md, "Figures behind the
/// code"). An index created before keeps its chunks until `rebuild-index`, and reads the
/// same either way.
pub const VECTOR_CHUNK_SLOTS: u32 = 128;

/// How much a write transaction ([`SqliteIndex::begin_write`]) may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteSize {
    /// A call's entries (up to an import's chunk): what its savepoints would undo is kept
    /// in memory.
    Small,
    /// Anything up to the whole index (a rebuild): SQLite's temporary files as usual.
    Any,
}

/// The index over one database, opened on first use.
pub struct SqliteIndex<D: Database> {
    db: D,
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
    /// What the file was found to be (`file::Layout`), until another connection commits or
    /// this one clears or reopens it: four statements a call spared, which in the index
    /// component are four calls across the sandbox.
    layout: Option<file::Layout>,
    /// Whether a read transaction of [`SqliteIndex::begin_read`] is open.
    reading: bool,
    /// Whether a write transaction of [`SqliteIndex::begin_write`] is open.
    writing: bool,
}

impl<D: Database> SqliteIndex<D> {
    /// The index over `db`; nothing is opened until first use.
    pub fn over(db: D) -> Self {
        SqliteIndex {
            db,
            vectors: HashMap::new(),
            data_version: 0,
            searched: HashMap::new(),
            last_knn: None,
            live: HashMap::new(),
            layout: None,
            reading: false,
            writing: false,
        }
    }

    /// The database, opened if it was not, with its tables made.
    pub(crate) fn conn(&mut self) -> Result<&mut dyn Database, IndexError> {
        self.refuse_if_transaction_lost()?;
        let opened = self.db.open()?;
        self.opened(opened)
    }

    /// The connection just opened (`opened`) or already open; a new one makes its tables
    /// and drops what was cached from another.
    fn opened(&mut self, opened: bool) -> Result<&mut dyn Database, IndexError> {
        if opened {
            file::prepare(&mut self.db)?;
            self.forget_cached();
        }
        Ok(&mut self.db)
    }

    /// SQLite may end a transaction by itself (a full disk, an I/O error), or the
    /// connection may have been closed under it: what the call writes next would then
    /// commit on its own, before the files it describes. Nothing more, until its end.
    pub(crate) fn refuse_if_transaction_lost(&mut self) -> Result<(), IndexError> {
        if self.writing && !self.db.in_transaction() {
            return Err(IndexError::Sql("the index's write transaction was lost".into()));
        }
        Ok(())
    }

    /// Drops everything cached from the file: it may have changed.
    fn forget_cached(&mut self) {
        self.vectors.clear();
        self.last_knn = None;
        self.live.clear();
        self.layout = None;
    }

    /// Begins a read transaction that lasts until [`SqliteIndex::end_read`]: every read in
    /// between sees the index as it stood here, whatever other connections commit after
    /// (the write-ahead log keeps the pages it reads). Nothing may be written in it.
    pub fn begin_read(&mut self) -> Result<(), IndexError> {
        self.end_read();
        let db = self.conn()?;
        // Only the write-ahead log keeps a reader's pages while others write; in a rollback
        // journal, a reader's lock would make their commits wait for it.
        let mode = database::row(db, "PRAGMA journal_mode", &[], |r| r.text(0).map(str::to_lowercase))?;
        if mode.as_deref() != Some("wal") {
            return Err(IndexError::Unavailable(format!(
                "the index's journal is {mode:?}, not a write-ahead log"
            )));
        }
        db.execute("BEGIN", &[])?;
        // The snapshot is taken at the transaction's first read, not at `BEGIN`.
        if let Err(e) = database::count(db, "SELECT count(*) FROM meta", &[]) {
            let _ = db.execute("ROLLBACK", &[]);
            return Err(e);
        }
        self.reading = true;
        Ok(())
    }

    /// [`SqliteIndex::begin_read`] for a reader that holds no lock: an index file that does
    /// not exist is not made (a writer may be making it anew), and the read fails.
    pub fn begin_read_existing(&mut self) -> Result<(), IndexError> {
        self.end_read();
        let opened = self.db.open_existing()?;
        self.opened(opened)?;
        self.begin_read()
    }

    /// Ends the transaction [`SqliteIndex::begin_read`] began; nothing when none is open.
    pub fn end_read(&mut self) {
        if std::mem::take(&mut self.reading) {
            let _ = self.db.execute("ROLLBACK", &[]);
            // A transaction that would not end would hold its snapshot for ever: the
            // connection goes, and the next statement opens a new one.
            if self.db.in_transaction() {
                self.db.close();
                self.forget_cached();
            }
        }
    }

    /// Begins a write transaction that lasts until [`SqliteIndex::commit_write`] or
    /// [`SqliteIndex::roll_back_write`]: the writes in between (each in a savepoint of its
    /// own) stand or go together, for a host that commits them after the files they
    /// describe. Nothing when one is open.
    pub fn begin_write(&mut self, size: WriteSize) -> Result<(), IndexError> {
        if self.writing {
            return Ok(());
        }
        self.end_read();
        let db = self.conn()?;
        // A savepoint keeps the pages it changes in a statement journal: in memory, not in
        // a temporary file written for each (280 KB an add instead of 180). Only for a
        // small transaction: for a rebuild's sorts, memory would cost 100 MB at 100,000.
        let in_memory = size == WriteSize::Small;
        if in_memory {
            set_temp_store(db, "MEMORY")?;
        }
        if let Err(e) = db.execute("BEGIN IMMEDIATE", &[]) {
            if in_memory {
                let _ = set_temp_store(db, "DEFAULT");
            }
            return Err(e);
        }
        self.writing = true;
        Ok(())
    }

    /// Whether a write transaction of [`SqliteIndex::begin_write`] is open.
    pub fn is_writing(&self) -> bool {
        self.writing
    }

    /// Commits the transaction [`SqliteIndex::begin_write`] began; nothing when none is
    /// open. When the commit fails, its writes are gone.
    pub fn commit_write(&mut self) -> Result<(), IndexError> {
        if !std::mem::take(&mut self.writing) {
            return Ok(());
        }
        let committed = self
            .db
            .fault_point("index:commit")
            .and_then(|()| self.db.execute("COMMIT", &[]).map(drop));
        if let Err(e) = committed {
            self.writing = true;
            self.roll_back_write();
            return Err(e);
        }
        let _ = set_temp_store(&mut self.db, "DEFAULT");
        Ok(())
    }

    /// Undoes the transaction [`SqliteIndex::begin_write`] began; nothing when none is open.
    pub fn roll_back_write(&mut self) {
        if std::mem::take(&mut self.writing) {
            let _ = self.db.execute("ROLLBACK", &[]);
            // What this connection cached followed writes that are gone.
            self.forget_cached();
            if self.db.in_transaction() {
                self.db.close();
            } else {
                let _ = set_temp_store(&mut self.db, "DEFAULT");
            }
        }
    }

    /// How many entries of this kind the index holds.
    pub fn count(&mut self, kind: EntryKind) -> Result<u64, IndexError> {
        let sql_text = format!("SELECT count(*) FROM items WHERE {}", of_kind(kind));
        database::count(self.conn()?, &sql_text, &[]).map(|n| n as u64)
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
fn has_vectors(db: &mut dyn Database) -> Result<bool, IndexError> {
    database::count(db, "SELECT count(*) FROM sqlite_master WHERE name = 'vecs'", &[]).map(|n| n > 0)
}

/// Whether a vector has a direction (the index stores no other): finite components, a norm that is not zero.
pub fn usable(v: &[f32]) -> bool {
    let norm: f64 = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
    v.iter().all(|x| x.is_finite()) && norm.is_finite() && norm > 1e-12
}

/// Items as one JSON list, for a statement that reads them back with `json_each`: one
/// statement for many rows, where the index component pays a call across the sandbox for
/// each.
fn json_list<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    let mut out = String::from("[");
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&item.to_string());
    }
    out.push(']');
    out
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests;

/// Where the connection keeps its temporary files (a statement journal, a sort):
/// `MEMORY` or `DEFAULT`.
fn set_temp_store(db: &mut dyn Database, store: &str) -> Result<(), IndexError> {
    db.query(&format!("PRAGMA temp_store = {store}"), &[], &mut |_| Ok(()))
}
