//! Opening the index file, its tables, and what it records about itself: the model and
//! dimension `clear` made it for, and which state of each collection it reflects.

use crate::database::{self, Database, Value};
use crate::{EntryKind, FileState, IndexError, IndexInfo, SqliteIndex, VECTOR_CHUNK_SLOTS, has_vectors, records};

/// What `clear` adds to `SCHEMA`. Not in `SCHEMA` itself, which runs on every open: on an
/// index of an older version, without `items.pending` or `items.lapses`, it would fail
/// there, before `info` can say why the index is rebuilt. `items_scope` is (scope, lapses),
/// so that `tally` counts a scope's live entries from it alone. `marks_newest` walks a key's holders in a scope newest
/// first, equal moments by id, with their expiry, for `newest`. `items_made` walks a scope's
/// entries most recently made first, equal moments by rowid (an index's entries end with
/// it), for `recent` and `made-after`.
const ITEM_INDEXES: [&str; 4] = [
    "CREATE INDEX IF NOT EXISTS items_scope ON items (scope, lapses)",
    "CREATE INDEX IF NOT EXISTS items_made ON items (scope, made)",
    "CREATE INDEX IF NOT EXISTS items_pending ON items (scope) WHERE pending = 1",
    "CREATE INDEX IF NOT EXISTS marks_newest ON marks (key, scope, observed DESC, id, lapses)",
];

/// The tables, made on every open. `items.keys`, `items.lapses`, `items.observed` and
/// `items.made` with `marks` are the entries' marks (`marks`); `record` and `pending` are `records`'s; `codes` and
/// `code_blocks` hold each vector's coarse code (`coarse`), the newest one a row, the rest
/// many to a row (`code_blocks`).
const SCHEMA: [&str; 6] = [
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS items (
        rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL,
        pending INTEGER NOT NULL DEFAULT 0, record TEXT, lapses INTEGER, keys TEXT,
        observed INTEGER, made INTEGER
    )",
    "CREATE TABLE IF NOT EXISTS marks (
        key TEXT NOT NULL, scope TEXT NOT NULL, item INTEGER NOT NULL, lapses INTEGER,
        observed INTEGER, id TEXT,
        PRIMARY KEY (key, scope, item)
    ) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS codes (
        scope TEXT NOT NULL, item INTEGER NOT NULL, scale REAL NOT NULL, code BLOB NOT NULL,
        PRIMARY KEY (scope, item)
    ) WITHOUT ROWID",
    // A rowid table: a block of codes is many kilobytes, which a WITHOUT ROWID row keeps
    // mostly on pages of its own, each shared with no other row.
    "CREATE TABLE IF NOT EXISTS code_blocks (
        scope TEXT NOT NULL, block INTEGER NOT NULL, dimension INTEGER NOT NULL, data BLOB NOT NULL,
        PRIMARY KEY (scope, block)
    )",
    "CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (content, context, tokenize = 'porter unicode61')",
];

/// The page size of a new index file, in bytes.
pub(crate) const PAGE_SIZE: u32 = 8192;

/// Makes the tables on a connection just opened, and sets it up: a file that is not a
/// database opens fine, and this is the first statement to fail on it.
pub(crate) fn prepare(db: &mut dyn Database) -> Result<(), IndexError> {
    // A new file's pages are 8 KiB, not SQLite's 4: a search run once (a CLI call) reads a
    // scope's codes with one system call a page, and at 100,000 memories half as many made
    // a whole CLI search about 3.5 ms faster; 16 KiB saved 1 ms more but tripled the bytes
    // an add writes (docs/performance.md). A file that has pages keeps their size.
    if let Err(e) = db.batch(&format!("PRAGMA page_size = {PAGE_SIZE};\n{}", SCHEMA.join(";\n"))) {
        db.close();
        return Err(IndexError::Unavailable(e.to_string()));
    }
    // WAL writes each changed page once; a rollback journal copies it first. What leaves
    // the index leaves the file: freed pages are zeroed (`secure_delete`), so that a
    // forgotten memory's text is not left behind in them.
    // They hold for this connection only: one that failed to take them is not kept.
    for pragma in [
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = NORMAL",
        "PRAGMA secure_delete = ON",
        // A read's snapshot keeps checkpoints from emptying the log while writers go on;
        // once it can be emptied, it is cut back to this.
        "PRAGMA journal_size_limit = 67108864",
    ] {
        if let Err(e) = db.query(pragma, &[], &mut |_| Ok(())) {
            db.close();
            return Err(e);
        }
    }
    Ok(())
}

/// The `meta` key of [`SqliteIndex::stamp`].
const STAMP_KEY: &str = "stamp";

/// A value of the `meta` table.
fn meta(db: &mut dyn Database, key: &str) -> Result<Option<String>, IndexError> {
    database::row(db, "SELECT value FROM meta WHERE key = ?1", &[Value::Text(key)], |r| {
        r.text(0).map(str::to_owned)
    })
}

/// What the file holds, as the calls read it before they use it.
pub(crate) struct Layout {
    /// `info`'s answer.
    pub(crate) info: Result<Option<IndexInfo>, IndexError>,
    /// Whether the vector table exists: a half-done `clear` leaves it out.
    pub(crate) vectors: bool,
    /// Whether the tables have every column this version reads (`records::check_columns`).
    pub(crate) columns: Result<(), IndexError>,
}

impl Layout {
    /// Reads it from the file.
    fn read(db: &mut dyn Database) -> Result<Self, IndexError> {
        let vectors = has_vectors(db)?;
        // Only what the file is (a layout of an older version) is kept; a failure to read
        // it (busy, I/O) is returned now and read again next time.
        let columns = match records::check_columns(db) {
            Err(IndexError::Sql(m)) => return Err(IndexError::Sql(m)),
            columns => columns,
        };
        let info = match (meta(db, "model")?, meta(db, "dimension")?) {
            (Some(model), Some(dim)) => match dim.parse() {
                Err(_) => Err(IndexError::Unavailable(format!("bad dimension {dim:?}"))),
                Ok(_) if !vectors => Err(IndexError::Unavailable("the vector table is missing".into())),
                Ok(dimension) => columns.clone().map(|()| Some(IndexInfo { model, dimension })),
            },
            _ => Ok(None),
        };
        Ok(Layout { info, vectors, columns })
    }
}

impl<D: Database> SqliteIndex<D> {
    /// Checks whether another connection committed since the last call (and forgets what
    /// was cached if so), and reads the file's layout if it is not known.
    pub(crate) fn refresh(&mut self) -> Result<&Layout, IndexError> {
        self.drop_if_written_elsewhere()?;
        if self.layout.is_none() {
            let layout = Layout::read(self.conn()?)?;
            self.layout = Some(layout);
        }
        Ok(self.layout.as_ref().expect("just read"))
    }

    /// Refreshes the layout for a call that reads records: refuses a file of an older
    /// layout, and says whether the vector table is there to read vectors from.
    pub(crate) fn readable(&mut self) -> Result<bool, IndexError> {
        let layout = self.refresh()?;
        layout.columns.clone()?;
        Ok(layout.vectors)
    }

    /// The model and dimension recorded by the last `clear`, if any.
    pub fn info(&mut self) -> Result<Option<IndexInfo>, IndexError> {
        self.refresh()?.info.clone()
    }

    pub(crate) fn dimension(&mut self) -> Result<u32, IndexError> {
        self.info()?
            .map(|i| i.dimension)
            .ok_or_else(|| IndexError::Unavailable("the index is not initialized".into()))
    }

    /// Empties the index for `info`'s model. A file SQLite cannot use is deleted and
    /// created anew: it holds nothing that the JSONL files do not.
    pub fn clear(&mut self, info: &IndexInfo) -> Result<(), IndexError> {
        self.db.fault_point("index:clear")?;
        // A write transaction lost under the call refuses: not a broken file to remove.
        self.refuse_if_transaction_lost()?;
        if self.conn().is_err() || self.info().is_err() {
            self.db.reset()?;
        }
        let dim = info.dimension;
        let dimension = dim.to_string();
        let vectors = format!(
            "CREATE VIRTUAL TABLE vecs USING vec0 (
                 scope TEXT PARTITION KEY,
                 embedding FLOAT[{dim}] distance_metric=cosine,
                 chunk_size = {VECTOR_CHUNK_SLOTS}
             )"
        );
        // Statement by statement, inside the transaction (`batch` may not run in one).
        let drop = [
            "DROP TABLE IF EXISTS items",
            "DELETE FROM meta",
            "DROP TABLE IF EXISTS fts",
            "DROP TABLE IF EXISTS marks",
            "DROP TABLE IF EXISTS codes",
            "DROP TABLE IF EXISTS code_blocks",
            "DROP TABLE IF EXISTS vecs",
        ];
        database::transaction(self.conn()?, |db| {
            for statement in drop
                .iter()
                .chain(&SCHEMA)
                .chain(&ITEM_INDEXES)
                .chain([&vectors.as_str()])
            {
                db.execute(statement, &[])?;
            }
            db.execute(
                "INSERT INTO meta (key, value) VALUES ('model', ?1), ('dimension', ?2)",
                &[Value::Text(&info.model), Value::Text(&dimension)],
            )
        })?;
        self.forget_cached();
        Ok(())
    }

    /// Which state of the collection behind `kind` the index reflects; none after `clear`.
    pub fn reflects(&mut self, kind: EntryKind) -> Result<Option<FileState>, IndexError> {
        let value = meta(self.conn()?, kind.reflects_key())?;
        Ok(value.and_then(|v| {
            let (generation, end) = v.split_once(' ')?;
            Some(FileState {
                generation: generation.parse().ok()?,
                end: end.parse().ok()?,
            })
        }))
    }

    /// The stamp of the last write transaction that recorded one ([`SqliteIndex::set_stamp`]).
    pub fn stamp(&mut self) -> Result<Option<u64>, IndexError> {
        Ok(meta(self.conn()?, STAMP_KEY)?.and_then(|v| u64::from_str_radix(&v, 16).ok()))
    }

    /// Marks the write transaction open with `stamp`, which the host also leaves where
    /// readers that hold no lock find it: a reader whose snapshot holds the same stamp
    /// reads the index this transaction left, no more and no less.
    pub fn set_stamp(&mut self, stamp: u64) -> Result<(), IndexError> {
        if !self.writing {
            return Err(IndexError::Sql("a stamp outside a write transaction".into()));
        }
        self.refuse_if_transaction_lost()?;
        self.conn()?.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            &[Value::Text(STAMP_KEY), Value::Text(&format!("{stamp:016x}"))],
        )?;
        Ok(())
    }

    /// Records the state of the collection behind `kind` the index now reflects.
    pub fn set_reflects(&mut self, kind: EntryKind, state: FileState) -> Result<(), IndexError> {
        self.db.fault_point("index:reflects")?;
        let value = format!("{} {}", state.generation, state.end);
        self.conn()?.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
            &[Value::Text(kind.reflects_key()), Value::Text(&value)],
        )?;
        Ok(())
    }
}
