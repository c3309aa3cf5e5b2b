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

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Once;

use rusqlite::{Connection, OptionalExtension, params};

use crate::fault;
use crate::files::FileState;

mod chunks;
mod coarse;
mod marks;
#[cfg(feature = "bench")]
mod recall;
mod recent;
mod records;
mod scan;

pub use marks::MAX_NEWEST;
#[cfg(feature = "bench")]
pub use recall::{FirstSearchRecall, first_search_recall};
pub use recent::MAX_RECENT;
use scan::ScopeVectors;

/// The most neighbours one knn returns (sqlite-vec refuses k above 4096).
pub const MAX_K: u32 = 4096;

/// Searches of a scope that read from the file (by codes, or streaming its chunks) before
/// its vectors are read into memory.
const SCANS_BEFORE_LOADING: u32 = 2;

/// How many vectors streaming reads in the time one is fetched by rowid: a scope with fewer
/// codes than this many times the candidates a search wants is streamed whole instead.
const STREAMED_PER_FETCHED: usize = 8;

/// Vectors per sqlite-vec chunk (its default is 1024). Every vector written or removed is
/// a blob access at its slot, and SQLite reaches a slot by walking the blob's overflow
/// pages from the start: a 1024-slot chunk of 256-d vectors is 256 pages, a 128-slot one
/// 32. Measured with `ash-memory bench --memories 100000`: GC of 10,000 memories 1.31 s
/// against 0.56-0.61 s, rebuild-index 5.1 s against 3.1-3.7 s, with the one-shot CLI
/// search and add unchanged (32 to 256 slots all measured within noise of each other). A
/// scope's first chunk is also allocated whole: 128 KB rather than 1 MB for one memory.
/// The JavaScript and Python hosts create the table with the same size; an index created
/// before keeps its chunks until `rebuild-index`, and reads the same either way.
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
            // Not `reflects`, `reflects_records`, `reflects_marks`, `reflects_codes`,
            // `reflects_observed` nor `reflects_messages`, the keys of versions that kept no
            // records, marks, coarse codes, observed moments (and the profile and reflection
            // keys) or made moments: a host of such a version sharing this index moves only
            // its own key, so a state it wrote (and whose records, marks, codes or moments
            // it left behind) is never taken for one whose records, marks, codes and moments
            // are in. Messages have no marks, so their key did not move with the moments.
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
    /// between (at 100,000 memories, 17 ms a search read from the file).
    last_knn: Option<LastKnn>,
}

/// A knn's question and answer.
struct LastKnn {
    query: Vec<f32>,
    k: u32,
    scopes: Vec<String>,
    hits: Vec<Hit>,
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

/// What `clear` adds to `SCHEMA`. Not in `SCHEMA` itself, which runs on every open: on an
/// index of an older version, without `items.pending` or `items.lapses`, it would fail
/// there, before `info` can say why the index is rebuilt. `items_scope` is (scope, lapses),
/// so that `tally` counts a scope's live entries from it alone; versions before marks made
/// it (scope), under the same name. `marks_newest` walks a key's holders in a scope newest
/// first, equal moments by id, with their expiry, for `newest`. `items_made` walks a scope's
/// entries most recently made first, equal moments by rowid (an index's entries end with
/// it), for `recent`.
const ITEM_INDEXES: &str = "
    CREATE INDEX IF NOT EXISTS items_scope ON items (scope, lapses);
    CREATE INDEX IF NOT EXISTS items_made ON items (scope, made);
    CREATE INDEX IF NOT EXISTS items_pending ON items (scope) WHERE pending = 1;
    CREATE INDEX IF NOT EXISTS marks_newest ON marks (key, scope, observed DESC, id, lapses);
";

/// The tables, made on every open. `items.keys`, `items.lapses`, `items.observed` and
/// `items.made` with `marks` are the entries' marks (`marks`); `record` and `pending` are `records`'s; `codes` holds each
/// vector's coarse code (`coarse`), a scope's together.
const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS items (
        rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL,
        pending INTEGER NOT NULL DEFAULT 0, record TEXT, lapses INTEGER, keys TEXT,
        observed INTEGER, made INTEGER
    );
    CREATE TABLE IF NOT EXISTS marks (
        key TEXT NOT NULL, scope TEXT NOT NULL, item INTEGER NOT NULL, lapses INTEGER,
        observed INTEGER, id TEXT,
        PRIMARY KEY (key, scope, item)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS codes (
        scope TEXT NOT NULL, item INTEGER NOT NULL, scale REAL NOT NULL, code BLOB NOT NULL,
        PRIMARY KEY (scope, item)
    ) WITHOUT ROWID;
    CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (content, tokenize = 'porter unicode61');
";

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
        }
    }

    fn conn(&mut self) -> Result<&mut Connection, IndexError> {
        if self.conn.is_none() {
            // Created owner-only; SQLite gives its -wal and -shm files the same mode.
            if !self.path.exists() {
                use std::os::unix::fs::OpenOptionsExt;
                let _ = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .mode(crate::files::FILE_MODE)
                    .open(&self.path);
            }
            let conn = Connection::open(&self.path).map_err(|e| IndexError::Unavailable(e.to_string()))?;
            // A junk file opens fine; the first real statement is what fails.
            conn.execute_batch(SCHEMA)
                .map_err(|e| IndexError::Unavailable(e.to_string()))?;
            // WAL writes each changed page once (a rollback journal copies it first): half
            // the bytes per add, measured by `ash-memory bench`.
            conn.pragma_update(None, "journal_mode", "WAL").map_err(sql)?;
            conn.pragma_update(None, "synchronous", "NORMAL").map_err(sql)?;
            // What leaves the index leaves the file: freed pages are zeroed, so that a
            // forgotten memory's text is not left behind in them.
            conn.pragma_update(None, "secure_delete", "ON").map_err(sql)?;
            self.conn = Some(conn);
            self.vectors.clear();
            self.last_knn = None;
        }
        Ok(self.conn.as_mut().expect("just opened"))
    }

    /// The model and dimension recorded by the last `clear`, if any.
    pub fn info(&mut self) -> Result<Option<IndexInfo>, IndexError> {
        let conn = self.conn()?;
        let get = |key: &str| -> Result<Option<String>, IndexError> {
            conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
                .optional()
                .map_err(sql)
        };
        match (get("model")?, get("dimension")?) {
            (Some(model), Some(dim)) => {
                let dimension = dim
                    .parse()
                    .map_err(|_| IndexError::Unavailable(format!("bad dimension {dim:?}")))?;
                // The vector table must exist too, or the file is from a half-done clear.
                if !has_vectors(conn)? {
                    return Err(IndexError::Unavailable("the vector table is missing".into()));
                }
                records::check_columns(conn)?;
                Ok(Some(IndexInfo { model, dimension }))
            }
            _ => Ok(None),
        }
    }

    fn dimension(&mut self) -> Result<u32, IndexError> {
        self.info()?
            .map(|i| i.dimension)
            .ok_or_else(|| IndexError::Unavailable("the index is not initialized".into()))
    }

    /// Empties the index for `info`'s model. A file SQLite cannot use is deleted and
    /// created anew: it holds nothing that the JSONL files do not.
    pub fn clear(&mut self, info: &IndexInfo) -> Result<(), IndexError> {
        fault::point("index:clear").map_err(|e| IndexError::Sql(e.to_string()))?;
        if self.conn().is_err() || self.info().is_err() {
            self.conn = None;
            for suffix in ["", "-journal", "-wal", "-shm"] {
                let mut p = self.path.clone().into_os_string();
                p.push(suffix);
                let _ = std::fs::remove_file(PathBuf::from(p));
            }
        }
        let dim = info.dimension;
        let conn = self.conn()?;
        let tx = conn.transaction().map_err(sql)?;
        tx.execute_batch(&format!(
            "DROP TABLE IF EXISTS items; DELETE FROM meta;
             DROP TABLE IF EXISTS fts; DROP TABLE IF EXISTS marks; DROP TABLE IF EXISTS codes;
             {SCHEMA}
             {ITEM_INDEXES}
             DROP TABLE IF EXISTS vecs;
             CREATE VIRTUAL TABLE vecs USING vec0 (
                 scope TEXT PARTITION KEY,
                 embedding FLOAT[{dim}] distance_metric=cosine,
                 chunk_size = {VECTOR_CHUNK_SLOTS}
             );"
        ))
        .map_err(sql)?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('model', ?1), ('dimension', ?2)",
            params![info.model, dim.to_string()],
        )
        .map_err(sql)?;
        tx.commit().map_err(sql)?;
        self.vectors.clear();
        self.last_knn = None;
        Ok(())
    }

    /// Which state of the collection behind `kind` the index reflects; none after `clear`.
    pub fn reflects(&mut self, kind: EntryKind) -> Result<Option<FileState>, IndexError> {
        let conn = self.conn()?;
        let value: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [kind.reflects_key()], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql)?;
        Ok(value.and_then(|v| {
            let (generation, end) = v.split_once(' ')?;
            Some(FileState {
                generation: generation.parse().ok()?,
                end: end.parse().ok()?,
            })
        }))
    }

    /// Records the state of the collection behind `kind` the index now reflects.
    pub fn set_reflects(&mut self, kind: EntryKind, state: FileState) -> Result<(), IndexError> {
        fault::point("index:reflects").map_err(|e| IndexError::Sql(e.to_string()))?;
        let conn = self.conn()?;
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            [
                kind.reflects_key().to_owned(),
                format!("{} {}", state.generation, state.end),
            ],
        )
        .map_err(sql)?;
        Ok(())
    }

    /// Inserts or replaces entries, all in one transaction. A vector that is not finite
    /// or has no direction is left out (the entry is full-text only): sqlite-vec would
    /// store it and then answer NULL distances for it.
    pub fn upsert(&mut self, entries: &[Entry]) -> Result<(), IndexError> {
        if entries.is_empty() {
            return Ok(());
        }
        fault::point("index:upsert").map_err(|e| IndexError::Sql(e.to_string()))?;
        self.last_knn = None;
        let dim = self.dimension()?;
        if let Some(bad) = entries
            .iter()
            .filter_map(|e| e.embedding.as_ref())
            .find(|v| v.len() != dim as usize)
        {
            return Err(IndexError::DimensionMismatch((dim, bad.len() as u32)));
        }
        let conn = self.conn()?;
        let tx = conn.transaction().map_err(sql)?;
        // (rowid, scope, the scope it had before): what the cached vectors must follow.
        let mut written: Vec<(i64, String, Option<String>)> = Vec::with_capacity(entries.len());
        // The full-text changes wait until the rest is written: see `write_fts`.
        let mut fts_removed: Vec<i64> = Vec::new();
        let mut fts_added: BTreeMap<i64, &str> = BTreeMap::new();
        {
            let mut find = tx.prepare_cached(marks::FIND).map_err(sql)?;
            let mut insert_item = tx
                .prepare_cached(
                    "INSERT INTO items (id, scope, pending, record, lapses, keys, observed, made)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )
                .map_err(sql)?;
            let mut set_item = tx
                .prepare_cached(
                    "UPDATE items SET scope = ?2, pending = ?3, record = ?4, lapses = ?5, keys = ?6, observed = ?7,
                     made = ?8 WHERE rowid = ?1",
                )
                .map_err(sql)?;
            let mut del_vec = tx.prepare_cached("DELETE FROM vecs WHERE rowid = ?1").map_err(sql)?;
            let mut ins_vec = tx
                .prepare_cached("INSERT INTO vecs (rowid, scope, embedding) VALUES (?1, ?2, ?3)")
                .map_err(sql)?;
            for e in entries {
                let scope = e.scope();
                let vector = e.embedding.as_deref().filter(|v| usable(v));
                let pending = vector.is_none();
                let existing: Option<(i64, marks::Marked)> =
                    find.query_row([&e.id], marks::found).optional().map_err(sql)?;
                let old_scope = existing.as_ref().map(|(_, old)| old.scope.clone());
                let keys = marks::keys_json(&e.marks);
                let rowid = match &existing {
                    Some((rowid, _)) => {
                        let rowid = *rowid;
                        set_item
                            .execute(params![
                                rowid,
                                scope,
                                pending,
                                e.record,
                                e.marks.lapses,
                                keys,
                                e.marks.observed,
                                e.marks.made
                            ])
                            .map_err(sql)?;
                        fts_removed.push(rowid);
                        del_vec.execute([rowid]).map_err(sql)?;
                        if let Some(old_scope) = &old_scope {
                            coarse::erase(&tx, rowid, old_scope).map_err(sql)?;
                        }
                        rowid
                    }
                    None => {
                        insert_item
                            .execute(params![
                                e.id,
                                scope,
                                pending,
                                e.record,
                                e.marks.lapses,
                                keys,
                                e.marks.observed,
                                e.marks.made
                            ])
                            .map_err(sql)?;
                        tx.last_insert_rowid()
                    }
                };
                let old = existing.as_ref().map(|(_, old)| old);
                marks::remark(&tx, rowid, old, &scope, &keys, &e.marks)?;
                // An id twice in one call: its last text counts, as for its vector.
                fts_added.insert(rowid, &e.content);
                if let Some(v) = vector {
                    ins_vec.execute(params![rowid, scope, f32_bytes(v)]).map_err(sql)?;
                    coarse::write(&tx, rowid, &scope, v).map_err(sql)?;
                }
                written.push((rowid, scope, old_scope));
            }
        }
        write_fts(&tx, fts_removed, fts_added.into_iter())?;
        tx.commit().map_err(sql)?;
        // The cached vectors follow only once the write is in: a failed transaction
        // leaves them as the file is.
        for (e, (rowid, scope, old_scope)) in entries.iter().zip(written) {
            if let Some(cached) = old_scope.and_then(|old| self.vectors.get_mut(&old)) {
                cached.remove(&e.id);
            }
            if let (Some(cached), Some(v)) = (self.vectors.get_mut(&scope), e.embedding.as_deref())
                && usable(v)
            {
                cached.insert(&e.id, rowid, v);
            }
        }
        Ok(())
    }

    /// Removes entries by id.
    pub fn remove(&mut self, ids: &[String]) -> Result<(), IndexError> {
        if ids.is_empty() {
            return Ok(());
        }
        fault::point("index:remove").map_err(|e| IndexError::Sql(e.to_string()))?;
        self.last_knn = None;
        let conn = self.conn()?;
        let has_vecs = has_vectors(conn)?;
        let tx = conn.transaction().map_err(sql)?;
        let mut removed: Vec<(i64, &str, String)> = Vec::with_capacity(ids.len());
        {
            let mut find = tx.prepare_cached(marks::FIND).map_err(sql)?;
            for id in ids {
                let found = find.query_row([id], marks::found).optional().map_err(sql)?;
                if let Some((rowid, old)) = found {
                    marks::unmark(&tx, rowid, &old.scope, old.keys.as_deref())?;
                    coarse::erase(&tx, rowid, &old.scope).map_err(sql)?;
                    removed.push((rowid, id, old.scope));
                }
            }
            let mut vecs = if has_vecs {
                Some(tx.prepare_cached("DELETE FROM vecs WHERE rowid = ?1").map_err(sql)?)
            } else {
                None
            };
            let mut items = tx.prepare_cached("DELETE FROM items WHERE rowid = ?1").map_err(sql)?;
            for (rowid, ..) in &removed {
                if let Some(vecs) = vecs.as_mut() {
                    vecs.execute([rowid]).map_err(sql)?;
                }
                items.execute([rowid]).map_err(sql)?;
            }
        }
        write_fts(
            &tx,
            removed.iter().map(|(rowid, ..)| *rowid).collect(),
            std::iter::empty(),
        )?;
        tx.commit().map_err(sql)?;
        for (_, id, scope) in removed {
            if let Some(cached) = self.vectors.get_mut(&scope) {
                cached.remove(id);
            }
        }
        Ok(())
    }

    /// The `k` nearest vectors within the scopes, by cosine similarity, best first (equal
    /// scores in the order they were indexed). A query without a direction finds nothing;
    /// a stored vector without one (written by an older version) is skipped.
    ///
    /// A scope's first two searches read from the file: candidates by their coarse codes,
    /// scored again from their vectors (`coarse_knn`), or, in a scope too small for that
    /// to pay, every vector streamed past the scorer (`streamed_knn`, or sqlite-vec's own
    /// knn over chunks laid out otherwise). Every score is exact, as sqlite-vec gives it;
    /// which vectors a search by codes looks at is not, and the bench prints its recall.
    /// From its third search on, a scope's vectors are read into memory once and all
    /// scanned there (`scan`), and read again after another connection writes. The same
    /// search again before anything is written is answered by the last (`last_knn`).
    pub fn knn(&mut self, query: &[f32], k: u32, scope: &ScopeFilter) -> Result<Vec<Hit>, IndexError> {
        let dim = self.dimension()?;
        if query.len() != dim as usize {
            return Err(IndexError::DimensionMismatch((dim, query.len() as u32)));
        }
        let k = k.min(MAX_K);
        if k == 0 || !usable(query) {
            return Ok(Vec::new());
        }
        self.drop_if_written_elsewhere()?;
        let scopes = scope.keys();
        if let Some(last) = &self.last_knn
            && last.query == query
            && last.k == k
            && last.scopes == scopes
        {
            return Ok(last.hits.clone());
        }
        let unit = scan::unit(query);
        let mut hits = Vec::new();
        for key in &scopes {
            if !self.vectors.contains_key(key) {
                let scans = self.searched.entry(key.clone()).or_insert(0);
                *scans += 1;
                if *scans <= SCANS_BEFORE_LOADING {
                    let found = match self.coarse_knn(query, &unit, k, key)? {
                        Some(found) => Some(found),
                        None => self.streamed_knn(query, k, key, dim as usize)?,
                    };
                    match found {
                        Some(found) => hits.extend(found),
                        None => hits.extend(self.sqlite_vec_knn(query, k, key)?),
                    }
                    continue;
                }
                let t = std::time::Instant::now();
                let loaded = self.load_scope(key, dim as usize)?;
                tracing::debug!(
                    "index: read {} vectors of scope {key} into memory in {:?}",
                    loaded.len(),
                    t.elapsed()
                );
                self.vectors.insert(key.clone(), loaded);
            }
            hits.extend(
                self.vectors[key]
                    .nearest(&unit, k as usize)
                    .into_iter()
                    .map(|(id, score)| Hit {
                        id: id.to_owned(),
                        score,
                    }),
            );
        }
        // Stable: with two scopes, equal scores keep personal before group.
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits.truncate(k as usize);
        self.last_knn = Some(LastKnn {
            query: query.to_vec(),
            k,
            scopes,
            hits: hits.clone(),
        });
        Ok(hits)
    }

    /// Forgets the cached vectors when another connection has committed since they were
    /// read: it may have changed any of them.
    fn drop_if_written_elsewhere(&mut self) -> Result<(), IndexError> {
        let version: i64 = self
            .conn()?
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .map_err(sql)?;
        if version != self.data_version {
            self.vectors.clear();
            self.last_knn = None;
            self.data_version = version;
        }
        Ok(())
    }

    /// One scope's nearest by a single pass over its chunks (`chunks::visit`), keeping
    /// nothing but the best `k`, scored as sqlite-vec's knn scores them (`scan::Streamed`);
    /// `None` when the chunks are not laid out as `chunks` reads. sqlite-vec's own knn
    /// reads the same chunks; this pass made a whole CLI search at 100,000 memories 8-10 ms
    /// faster (63 against 54-56 ms, `ash-memory bench --memories 100000`), most of what
    /// is left being SQLite reading the 100 MB of vectors.
    fn streamed_knn(
        &mut self,
        query: &[f32],
        k: u32,
        key: &str,
        dimension: usize,
    ) -> Result<Option<Vec<Hit>>, IndexError> {
        let conn = self.conn()?;
        let t = std::time::Instant::now();
        let mut nearest = scan::Streamed::new(query, k as usize);
        let mut seen = 0usize;
        let readable = chunks::visit(conn, key, dimension, |rowid, vector| {
            seen += 1;
            nearest.offer(rowid, vector)
        })
        .map_err(sql)?;
        if !readable {
            return Ok(None);
        }
        tracing::debug!("index: streamed {seen} vectors of scope {key} in {:?}", t.elapsed());
        ids_of(conn, key, nearest.best_first()).map(Some)
    }

    /// One scope's nearest found by their coarse codes (`coarse`): the best
    /// `coarse::candidates(k)` by code, scored again from their vectors as `streamed_knn`
    /// scores them. `None` when the scope is small enough that streaming all its vectors
    /// costs no more than fetching the candidates one by one.
    fn coarse_knn(&mut self, query: &[f32], unit: &[f32], k: u32, key: &str) -> Result<Option<Vec<Hit>>, IndexError> {
        let conn = self.conn()?;
        let t = std::time::Instant::now();
        let wanted = coarse::candidates(k as usize);
        let (candidates, read) = coarse::nearest(conn, key, &coarse::Query::new(unit), wanted).map_err(sql)?;
        if read < wanted.saturating_mul(STREAMED_PER_FETCHED) {
            return Ok(None);
        }
        let coded = t.elapsed();
        let mut vector = conn
            .prepare_cached("SELECT embedding FROM vecs WHERE rowid = ?1")
            .map_err(sql)?;
        let mut nearest = scan::Streamed::new(query, k as usize);
        for rowid in &candidates {
            let bytes: Option<Vec<u8>> = vector.query_row([rowid], |r| r.get(0)).optional().map_err(sql)?;
            match bytes {
                Some(bytes) if bytes.len() == query.len() * 4 => nearest.offer(*rowid, &bytes),
                _ => tracing::warn!("index: the code of rowid {rowid} in {key} has no vector beside it"),
            }
        }
        drop(vector);
        tracing::debug!(
            "index: scored {} of {read} vectors of scope {key} again, by their codes, in {:?} ({coded:?} reading codes)",
            candidates.len(),
            t.elapsed()
        );
        ids_of(conn, key, nearest.best_first()).map(Some)
    }

    /// sqlite-vec's knn over one scope (the partition key makes it a scan of that scope
    /// only). A row whose distance is not a number is skipped.
    fn sqlite_vec_knn(&mut self, query: &[f32], k: u32, key: &str) -> Result<Vec<Hit>, IndexError> {
        let conn = self.conn()?;
        let mut stmt = conn
            .prepare_cached(
                "SELECT items.id, v.distance FROM
                   (SELECT rowid, distance FROM vecs WHERE embedding MATCH ?1 AND k = ?2 AND scope = ?3) v
                 JOIN items ON items.rowid = v.rowid",
            )
            .map_err(sql)?;
        let rows = stmt
            .query_map(params![f32_bytes(query), k, key], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, Option<f64>>(1)?))
            })
            .map_err(sql)?;
        let mut hits = Vec::new();
        for row in rows {
            let (id, distance) = row.map_err(sql)?;
            if let Some(d) = distance.filter(|d| d.is_finite()) {
                hits.push(Hit {
                    id,
                    score: 1.0 - d as f32,
                });
            }
        }
        Ok(hits)
    }

    /// Reads one scope's vectors, from sqlite-vec's chunks when their layout is the one
    /// `chunks` reads, else row by row.
    fn load_scope(&mut self, key: &str, dimension: usize) -> Result<ScopeVectors, IndexError> {
        match self.load_scope_from_chunks(key, dimension)? {
            Some(vectors) => Ok(vectors),
            None => self.load_scope_by_row(key, dimension),
        }
    }

    /// Reads one scope's vectors a chunk at a time (see `chunks`), with their ids from
    /// `items`; `None` when the chunks are not laid out as expected or name a rowid that
    /// is not an item of this scope.
    fn load_scope_from_chunks(&mut self, key: &str, dimension: usize) -> Result<Option<ScopeVectors>, IndexError> {
        let conn = self.conn()?;
        let Some(mut found) = chunks::read(conn, key, dimension).map_err(sql)? else {
            return Ok(None);
        };
        let mut stmt = conn
            .prepare_cached("SELECT rowid, id FROM items WHERE scope = ?1")
            .map_err(sql)?;
        let ids: HashMap<i64, String> = stmt
            .query_map([key], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)?;
        found.sort_unstable_by_key(|(rowid, _)| *rowid);
        let mut vectors = ScopeVectors::new(dimension);
        for (rowid, vector) in found {
            let Some(id) = ids.get(&rowid) else {
                tracing::warn!("index: sqlite-vec's chunks hold rowid {rowid}, which is no item of {key}");
                return Ok(None);
            };
            if usable(&vector) {
                vectors.insert(id, rowid, &vector);
            }
        }
        Ok(Some(vectors))
    }

    /// Reads one scope's vectors through the vector table, in rowid order.
    fn load_scope_by_row(&mut self, key: &str, dimension: usize) -> Result<ScopeVectors, IndexError> {
        let conn = self.conn()?;
        let mut stmt = conn
            .prepare_cached(
                "SELECT items.rowid, items.id, vecs.embedding FROM items JOIN vecs ON vecs.rowid = items.rowid
                 WHERE items.scope = ?1 ORDER BY items.rowid",
            )
            .map_err(sql)?;
        let mut rows = stmt.query([key]).map_err(sql)?;
        let mut vectors = ScopeVectors::new(dimension);
        let mut vector = Vec::with_capacity(dimension);
        while let Some(row) = rows.next().map_err(sql)? {
            let bytes = row
                .get_ref(2)
                .map_err(sql)?
                .as_blob()
                .map_err(|e| IndexError::Sql(e.to_string()))?;
            if bytes.len() != dimension * 4 {
                continue;
            }
            vector.clear();
            vector.extend(
                bytes
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            );
            if usable(&vector) {
                let id = row
                    .get_ref(1)
                    .map_err(sql)?
                    .as_str()
                    .map_err(|e| IndexError::Sql(e.to_string()))?;
                vectors.insert(id, row.get(0).map_err(sql)?, &vector);
            }
        }
        Ok(vectors)
    }

    /// BM25 full-text search for any of the terms within the scopes, best first (equal
    /// scores in rowid order).
    ///
    /// The best matches of every scope are ranked first, and their scopes looked up after:
    /// ranking is cheap, and a term in many memories made a join that looked up the scope
    /// of every match before ranking most of a CLI search (21 of 27 ms for 11,250 matches
    /// at 100,000 memories, in the `sqlite3` shell). When other scopes' matches crowd this
    /// one's out of that first page, the join answers.
    pub fn text_search(&mut self, terms: &[String], k: u32, scope: &ScopeFilter) -> Result<Vec<Hit>, IndexError> {
        let keys = scope.keys();
        let terms: Vec<String> = terms
            .iter()
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
            .collect();
        if terms.is_empty() || keys.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let query = terms.join(" OR ");
        let conn = self.conn()?;
        let page = k.saturating_mul(2).max(64);
        let mut ranked = conn
            .prepare_cached("SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ?1 ORDER BY bm25(fts), rowid LIMIT ?2")
            .map_err(sql)?;
        let best: Vec<(i64, f64)> = ranked
            .query_map(params![query, page], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)?;
        let mut item = conn
            .prepare_cached("SELECT id, scope FROM items WHERE rowid = ?1")
            .map_err(sql)?;
        let mut hits = Vec::new();
        for (rowid, rank) in &best {
            let found: Option<(String, String)> = item
                .query_row([rowid], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
                .map_err(sql)?;
            if let Some((id, _)) = found.filter(|(_, scope)| keys.contains(scope)) {
                hits.push(text_hit(id, *rank));
                if hits.len() == k as usize {
                    return Ok(hits);
                }
            }
        }
        if best.len() < page as usize {
            // Every match was ranked.
            return Ok(hits);
        }
        tracing::debug!("index: full text: other scopes' matches fill the first {page}, joining");
        let mut stmt = conn
            .prepare_cached(
                "SELECT items.id, bm25(fts) FROM fts JOIN items ON items.rowid = fts.rowid
                 WHERE fts MATCH ?1 AND items.scope IN (?2, ?3)
                 ORDER BY bm25(fts), fts.rowid LIMIT ?4",
            )
            .map_err(sql)?;
        let second = keys.get(1).unwrap_or(&keys[0]);
        let rows = stmt
            .query_map(params![query, keys[0], second, k], |r| {
                Ok(text_hit(r.get(0)?, r.get(1)?))
            })
            .map_err(sql)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(sql)
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

/// A full-text hit: bm25() is lower-is-better, so its negation is the score.
fn text_hit(id: String, bm25: f64) -> Hit {
    Hit {
        id,
        score: -(bm25 as f32),
    }
}

/// The ids of `best` (rowid, score) in scope `key`, in its order; a rowid that is no item
/// of the scope is left out.
fn ids_of(conn: &Connection, key: &str, best: Vec<(i64, f32)>) -> Result<Vec<Hit>, IndexError> {
    let mut id_of = conn
        .prepare_cached("SELECT id FROM items WHERE rowid = ?1 AND scope = ?2")
        .map_err(sql)?;
    let mut hits = Vec::with_capacity(best.len());
    for (rowid, score) in best {
        match id_of
            .query_row(params![rowid, key], |r| r.get(0))
            .optional()
            .map_err(sql)?
        {
            Some(id) => hits.push(Hit { id, score }),
            None => tracing::warn!("index: the vectors hold rowid {rowid}, which is no item of {key}"),
        }
    }
    Ok(hits)
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
/// The full-text side of a write, after everything else in its transaction: removals, then
/// additions, each in rowid order. FTS5 keeps a transaction's changes in memory and writes
/// them out as a new segment whenever another statement of the transaction opens a
/// savepoint (any write to `vecs` or `items` does) or a change comes for a smaller rowid
/// than the one before; interleaved with those writes, every entry cost a segment and the
/// merges after it (three times the time of a 3,000-entry removal, and most of an add's
/// bytes).
fn write_fts<'a>(
    tx: &rusqlite::Transaction<'_>,
    mut removed: Vec<i64>,
    added: impl Iterator<Item = (i64, &'a str)>,
) -> Result<(), IndexError> {
    removed.sort_unstable();
    removed.dedup();
    let mut delete = tx.prepare_cached("DELETE FROM fts WHERE rowid = ?1").map_err(sql)?;
    for rowid in removed {
        delete.execute([rowid]).map_err(sql)?;
    }
    let mut insert = tx
        .prepare_cached("INSERT INTO fts (rowid, content) VALUES (?1, ?2)")
        .map_err(sql)?;
    for (rowid, content) in added {
        insert.execute(params![rowid, content]).map_err(sql)?;
    }
    Ok(())
}

pub(crate) fn usable(v: &[f32]) -> bool {
    let norm: f64 = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
    v.iter().all(|x| x.is_finite()) && norm.is_finite() && norm > 1e-12
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests;
