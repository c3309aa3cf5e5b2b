//! Moving in from the legacy SQLite store (seed 002's `people` and `memories` tables, and
//! `memory_embeddings` when present): its rows are read as they are, written as export
//! lines (see `wit/portability.wit`) and read in by the component's `import-records`, one
//! call per user and per chat. Rows that cannot be converted, or that the component
//! refuses, are set aside in `memory/migration.quarantine.jsonl`, never dropped.
//!
//! On first open of a home whose `data/memory.db` is such a store and that has no
//! memories yet, the file (with its `-wal` and `-shm`) is renamed to
//! `data/memory.db.legacy` and kept untouched as a backup, `data/migration.json` records
//! that a migration is under way, and the migration runs; once it is done the record says
//! so, and later opens do nothing. A migration cut short is resumed at the next open:
//! what was already read in is present and not written twice.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{SecondsFormat, Utc};
use rusqlite::{Connection, OpenFlags};
use serde_json::{Value, json};

use crate::contract::Caller;
use crate::error::Error;
use crate::store::MemoryStore;

mod legacy;
mod state;

pub use legacy::is_legacy_store;
use legacy::{Scope, columns, embeddings, memory_line, person_line, rows};
pub(crate) use state::{finish, pending};

/// Where rows that could not be read in are set aside, under `memory/`.
const QUARANTINE: &str = "migration.quarantine.jsonl";

/// What a migration did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Migrated {
    /// The legacy store read.
    pub from: PathBuf,
    /// Rows read: people and memories.
    pub rows: u64,
    /// People stored.
    pub people: u64,
    /// Memories stored.
    pub memories: u64,
    /// Rows already present (a migration run again, or resumed).
    pub present: u64,
    /// Memories whose stored vector could not be kept (another dimension), embedded
    /// again or left waiting for an embedding.
    pub reembedded: u64,
    /// Rows that could not be read in, set aside in `memory/migration.quarantine.jsonl`
    /// with why (once: a row set aside by an earlier run is not added again).
    pub quarantined: u64,
}

impl MemoryStore {
    /// Reads a legacy SQLite store (seed 002's tables) into this home: every person and
    /// memory, vectors kept when they have this home's dimension (else embedded again);
    /// rows that cannot be read in are set aside in `memory/migration.quarantine.jsonl`.
    /// The legacy file is opened read-only. Running it again stores nothing twice.
    /// `progress` is told the rows done and the rows in all.
    ///
    /// Errors: [`Error::InvalidInput`] when the file is not a legacy store; those of
    /// `import-records` for a call that failed (the calls before it stay).
    pub fn migrate_from(&mut self, path: &Path, mut progress: impl FnMut(u64, u64)) -> Result<Migrated, Error> {
        if !is_legacy_store(path) {
            return Err(Error::InvalidInput(format!(
                "{} is not a legacy ash store (no memories table with a content column)",
                path.display()
            )));
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| Error::Storage(format!("{}: {e}", path.display())))?;
        let sql = |e: rusqlite::Error| Error::Storage(format!("{}: {e}", path.display()));
        let people = if columns(&conn, "people").is_ok() {
            rows(&conn, "people").map_err(sql)?
        } else {
            Vec::new()
        };
        let memories = rows(&conn, "memories").map_err(sql)?;
        let vectors = embeddings(&conn);
        drop(conn);
        let mut report = Migrated {
            from: path.to_path_buf(),
            rows: (people.len() + memories.len()) as u64,
            ..Migrated::default()
        };
        let mut quarantine: Vec<Value> = Vec::new();
        let mut scopes: BTreeMap<Scope, Vec<(Value, Value)>> = BTreeMap::new();
        for row in people {
            match person_line(&row) {
                Ok((owner, line)) => scopes
                    .entry(Scope::User(owner))
                    .or_default()
                    .push((line, Value::Object(row))),
                Err(why) => quarantine.push(json!({"table": "people", "reason": why, "row": row})),
            }
        }
        for row in memories {
            match memory_line(&row, &vectors) {
                Ok((scope, line)) => scopes.entry(scope).or_default().push((line, Value::Object(row))),
                Err(why) => quarantine.push(json!({"table": "memories", "reason": why, "row": row})),
            }
        }
        let (model, dimension) = self.embedder_info();
        let legacy_dimension = vectors.values().next().map(|b| (b.len() / 4) as u32);
        // Vectors of this home's dimension are taken as this home's model's: the legacy
        // store kept no model name, and a home is set up with the provider it had.
        let header_model = if legacy_dimension.is_none_or(|d| d == dimension) {
            model
        } else {
            "legacy".into()
        };
        let mut done = report.rows - scopes.values().map(|v| v.len() as u64).sum::<u64>();
        progress(done, report.rows);
        for (scope, items) in scopes {
            let caller = match &scope {
                Scope::User(u) => Caller::user(u.clone()),
                Scope::Chat(c) => Caller {
                    user_id: None,
                    chat_id: Some(c.clone()),
                },
            };
            let header = json!({
                "format": crate::export::EXPORT_FORMAT, "version": 1,
                "embedding_model": header_model, "dimension": legacy_dimension.unwrap_or(dimension),
                "exported_at": Utc::now().to_rfc3339_opts(SecondsFormat::AutoSi, false),
                "user_id": caller.user_id, "chat_id": caller.chat_id, "include_archive": false,
            });
            let lines: Vec<String> = std::iter::once(header.to_string())
                .chain(items.iter().map(|(l, _)| l.to_string()))
                .collect();
            let r = match self.import_records(&caller, &lines, false) {
                Ok(r) => r,
                // A scope the component will not take at all (a user or chat it reads as
                // none): its rows are set aside, and the others go on.
                Err(Error::InvalidInput(why)) => {
                    for (line, row) in &items {
                        let table = if line["kind"] == "person" { "people" } else { "memories" };
                        quarantine.push(json!({"table": table, "reason": why, "row": row}));
                    }
                    done += items.len() as u64;
                    progress(done, report.rows);
                    continue;
                }
                Err(e) => return Err(e),
            };
            report.people += u64::from(r.people);
            report.memories += u64::from(r.memories);
            report.present += u64::from(r.present);
            report.reembedded += u64::from(r.reembedded);
            for refused in r.refused {
                let (line, row) = &items[refused.position as usize - 1];
                let table = if line["kind"] == "person" { "people" } else { "memories" };
                quarantine.push(json!({"table": table, "reason": refused.reason, "row": row}));
            }
            done += items.len() as u64;
            progress(done, report.rows);
        }
        report.quarantined = quarantine.len() as u64;
        self.set_aside(&quarantine)?;
        Ok(report)
    }

    /// Appends rows that could not be read in to `memory/migration.quarantine.jsonl`.
    fn set_aside(&mut self, rows: &[Value]) -> Result<(), Error> {
        if rows.is_empty() {
            return Ok(());
        }
        let _lock = self.home_ref().lock()?;
        let path = self.home_ref().root().join("memory").join(QUARANTINE);
        // A migration resumed, or run again, does not set the same row aside twice.
        let already: Vec<Value> = std::fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .map(|q| json!([q["table"], q["row"]]))
            .collect();
        let now = Utc::now().to_rfc3339_opts(SecondsFormat::AutoSi, false);
        let mut text = String::new();
        for row in rows
            .iter()
            .filter(|r| !already.contains(&json!([r["table"], r["row"]])))
        {
            let mut entry = row.clone();
            entry["quarantined_at"] = Value::from(now.clone());
            text.push_str(&entry.to_string());
            text.push('\n');
        }
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(crate::files::FILE_MODE)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        f.write_all(text.as_bytes()).map_err(|e| Error::io(&path, e))?;
        f.sync_data().map_err(|e| Error::io(&path, e))
    }
}
