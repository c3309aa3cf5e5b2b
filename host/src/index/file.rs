//! Opening the index file, its tables, and what it records about itself: the model and
//! dimension `clear` made it for, and which state of each collection it reflects.

use std::path::PathBuf;

use rusqlite::{Connection, OptionalExtension, params};

use super::{EntryKind, IndexError, IndexInfo, SqliteIndex, VECTOR_CHUNK_SLOTS, has_vectors, records, sql};
use crate::fault;
use crate::files::FileState;

/// What `clear` adds to `SCHEMA`. Not in `SCHEMA` itself, which runs on every open: on an
/// index of an older version, without `items.pending` or `items.lapses`, it would fail
/// there, before `info` can say why the index is rebuilt. `items_scope` is (scope, lapses),
/// so that `tally` counts a scope's live entries from it alone. `marks_newest` walks a key's holders in a scope newest
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
    pub(super) fn conn(&mut self) -> Result<&mut Connection, IndexError> {
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
            // WAL writes each changed page once; a rollback journal copies it first.
            conn.pragma_update(None, "journal_mode", "WAL").map_err(sql)?;
            conn.pragma_update(None, "synchronous", "NORMAL").map_err(sql)?;
            // What leaves the index leaves the file: freed pages are zeroed, so that a
            // forgotten memory's text is not left behind in them.
            conn.pragma_update(None, "secure_delete", "ON").map_err(sql)?;
            self.conn = Some(conn);
            self.vectors.clear();
            self.last_knn = None;
            self.live.clear();
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

    pub(super) fn dimension(&mut self) -> Result<u32, IndexError> {
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
        self.live.clear();
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
}
