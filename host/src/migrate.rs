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

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OpenFlags};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::contract::Caller;
use crate::error::Error;
use crate::home::Home;
use crate::store::MemoryStore;

/// The name a migrated legacy store is kept under, beside the new index.
const BACKUP_SUFFIX: &str = ".legacy";
/// Where a migration's state is recorded, under `data/`.
const MARKER: &str = "migration.json";
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

/// `data/migration.json`.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    from: PathBuf,
    done: bool,
}

/// Whether the file is a legacy store: a SQLite database with a `memories` table that
/// has a `content` column. Opened read-only; anything unreadable is not one.
pub fn is_legacy_store(path: &Path) -> bool {
    // Its vectors may be in a sqlite-vec table, which reads only with the extension.
    crate::index::register_sqlite_vec();
    let Ok(conn) = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY) else {
        return false;
    };
    columns(&conn, "memories").is_ok_and(|c| c.iter().any(|c| c == "content"))
}

/// Before the index is first opened: the legacy store to migrate from, if the home holds
/// one with no memories yet (it is moved aside first) or a migration was cut short.
pub(crate) fn pending(home: &Home) -> Result<Option<PathBuf>, Error> {
    let marker_path = home.root().join("data").join(MARKER);
    let db = home.index();
    if let Ok(text) = std::fs::read_to_string(&marker_path) {
        let marker: Marker =
            serde_json::from_str(&text).map_err(|e| Error::Storage(format!("{}: {e}", marker_path.display())))?;
        if marker.done {
            return Ok(None);
        }
        // Cut short, perhaps before the legacy file was moved aside: finish that first.
        if marker.from == with_suffix(&db, BACKUP_SUFFIX) && !marker.from.exists() {
            move_aside(&db, &marker.from)?;
        }
        return Ok(Some(marker.from));
    }
    let memories = home.root().join("memory").join("memories.jsonl");
    let has_memories = std::fs::metadata(&memories).is_ok_and(|m| m.len() > 0);
    if has_memories || !is_legacy_store(&db) {
        return Ok(None);
    }
    let backup = with_suffix(&db, BACKUP_SUFFIX);
    if backup.exists() {
        return Err(Error::Storage(format!(
            "{} is a legacy store to migrate, but {} already exists; move one of them away",
            db.display(),
            backup.display()
        )));
    }
    // The record first: a crash after it finds the move to finish and the backup to
    // resume from.
    write_marker(&marker_path, &backup, false)?;
    move_aside(&db, &backup)?;
    Ok(Some(backup))
}

/// Renames the legacy database and its `-wal` and `-shm` files, the database last (it is
/// what tells a legacy store); a file already moved is left where it is.
fn move_aside(db: &Path, backup: &Path) -> Result<(), Error> {
    for suffix in ["-wal", "-shm", ""] {
        let from = with_suffix(db, suffix);
        let to = with_suffix(backup, suffix);
        if from.exists() && !to.exists() {
            crate::fault::point("migrate:rename").map_err(|e| Error::io(&from, e))?;
            std::fs::rename(&from, &to).map_err(|e| Error::io(&from, e))?;
        }
    }
    Ok(())
}

/// Records that the migration from `from` finished.
pub(crate) fn finish(home: &Home, from: &Path) -> Result<(), Error> {
    write_marker(&home.root().join("data").join(MARKER), from, true)
}

fn write_marker(path: &Path, from: &Path, done: bool) -> Result<(), Error> {
    crate::fault::point("migrate:marker").map_err(|e| Error::io(path, e))?;
    let text = serde_json::to_string(&Marker {
        from: from.to_path_buf(),
        done,
    })
    .expect("a marker serializes");
    // Whole or not at all: a temporary file, flushed, renamed over the record.
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let tmp = with_suffix(path, ".tmp");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(crate::files::FILE_MODE)
            .open(&tmp)?;
        f.write_all((text + "\n").as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent() {
            std::fs::File::open(dir)?.sync_all()?;
        }
        Ok(())
    };
    write().map_err(|e| Error::io(path, e))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))?;
    let names = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    if names.is_empty() {
        return Err(rusqlite::Error::QueryReturnedNoRows);
    }
    Ok(names)
}

/// Every row of a table as a map of its columns (blobs left out), in rowid order.
fn rows(conn: &Connection, table: &str) -> rusqlite::Result<Vec<Map<String, Value>>> {
    let names = columns(conn, table)?;
    let mut stmt = conn.prepare(&format!("SELECT * FROM {table}"))?;
    let mut out = Vec::new();
    let mut q = stmt.query([])?;
    while let Some(row) = q.next()? {
        let mut map = Map::new();
        for (i, name) in names.iter().enumerate() {
            use rusqlite::types::ValueRef;
            let v = match row.get_ref(i)? {
                ValueRef::Null | ValueRef::Blob(_) => Value::Null,
                ValueRef::Integer(n) => Value::from(n),
                ValueRef::Real(x) => Value::from(x),
                ValueRef::Text(t) => Value::from(String::from_utf8_lossy(t).into_owned()),
            };
            map.insert(name.clone(), v);
        }
        out.push(map);
    }
    Ok(out)
}

/// Stored vectors by memory id, from `memory_embeddings` (a sqlite-vec table or a plain
/// one) when the store has it.
fn embeddings(conn: &Connection) -> BTreeMap<String, Vec<u8>> {
    let Ok(mut stmt) = conn.prepare("SELECT memory_id, embedding FROM memory_embeddings") else {
        return BTreeMap::new();
    };
    let Ok(rows) = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?))) else {
        return BTreeMap::new();
    };
    rows.filter_map(Result::ok).collect()
}

/// A legacy timestamp (SQLAlchemy writes naive UTC, `2024-01-15 10:30:00.123456`) as
/// RFC 3339.
fn timestamp(v: &Value) -> Result<Option<String>, String> {
    let Some(text) = v.as_str().map(str::trim).filter(|t| !t.is_empty()) else {
        return match v {
            Value::Null => Ok(None),
            other => Err(format!("not a timestamp: {other}")),
        };
    };
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(Some(
            t.with_timezone(&Utc).to_rfc3339_opts(SecondsFormat::AutoSi, false),
        ));
    }
    for format in ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(text, format) {
            return Ok(Some(t.and_utc().to_rfc3339_opts(SecondsFormat::AutoSi, false)));
        }
    }
    Err(format!("not a timestamp: {text:?}"))
}

/// A JSON list stored as text (`aliases`, `subject_person_ids`); none is empty.
fn text_list(v: &Value) -> Result<Vec<String>, String> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::String(s) if s.trim().is_empty() => Ok(Vec::new()),
        Value::String(s) => serde_json::from_str(s).map_err(|e| format!("not a JSON list of strings: {e}")),
        other => Err(format!("not a JSON list: {other}")),
    }
}

/// Stored JSON text (`metadata`), kept as JSON.
fn json_text(v: &Value) -> Value {
    match v {
        Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| Value::from(s.clone())),
        other => other.clone(),
    }
}

/// A column as text; blank is none (an empty owner is no owner).
fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A `people` row as a `person` export line.
fn person_line(row: &Map<String, Value>) -> Result<(String, Value), String> {
    let null = Value::Null;
    let get = |k: &str| row.get(k).unwrap_or(&null);
    let owner = text(get("owner_user_id")).ok_or("a person without an owner")?;
    let line = json!({
        "kind": "person",
        "id": text(get("id")).ok_or("a person without an id")?,
        "version": 1,
        "owner_user_id": owner,
        "name": text(get("name")).ok_or("a person without a name")?,
        "relation": text(get("relation")),
        "aliases": text_list(get("aliases"))?,
        "created_at": timestamp(get("created_at"))?.ok_or("a person without created_at")?,
        "updated_at": timestamp(get("updated_at"))?,
        "metadata": json_text(get("metadata")),
    });
    Ok((owner, line))
}

/// Where a memory goes: a user's personal memories, or a chat's.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Scope {
    User(String),
    Chat(String),
}

/// A `memories` row as a `memory` export line, with the scope it belongs to.
fn memory_line(row: &Map<String, Value>, vectors: &BTreeMap<String, Vec<u8>>) -> Result<(Scope, Value), String> {
    let null = Value::Null;
    let get = |k: &str| row.get(k).unwrap_or(&null);
    let id = text(get("id")).ok_or("a memory without an id")?;
    let owner = text(get("owner_user_id"));
    let chat = text(get("chat_id"));
    let scope = match (&chat, &owner) {
        (Some(c), _) => Scope::Chat(c.clone()),
        (None, Some(u)) => Scope::User(u.clone()),
        (None, None) => return Err("a memory with neither an owner nor a chat".into()),
    };
    // Before the legacy store's migration 004 a memory had one subject.
    let mut subjects = text_list(get("subject_person_ids"))?;
    if subjects.is_empty()
        && let Some(one) = text(get("subject_person_id"))
    {
        subjects.push(one);
    }
    let embedding = vectors
        .get(&id)
        .filter(|b| !b.is_empty() && b.len() % 4 == 0)
        .map(|b| BASE64.encode(b));
    let line = json!({
        "kind": "memory",
        "id": id,
        "version": 1,
        "content": text(get("content")).ok_or("a memory without content")?,
        "embedding": embedding,
        "created_at": timestamp(get("created_at"))?.ok_or("a memory without created_at")?,
        "owner_user_id": owner,
        "chat_id": chat,
        "subject_person_ids": subjects,
        "source": text(get("source")).unwrap_or_else(|| "user".into()),
        "expires_at": timestamp(get("expires_at"))?,
        "superseded_at": timestamp(get("superseded_at"))?,
        "superseded_by_id": text(get("superseded_by_id")),
        "metadata": json_text(get("metadata")),
    });
    Ok((scope, line))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_timestamps_become_rfc3339() {
        let t = |s: &str| timestamp(&Value::from(s));
        assert_eq!(
            t("2024-01-15 10:30:00.123456").unwrap().as_deref(),
            Some("2024-01-15T10:30:00.123456+00:00")
        );
        assert_eq!(
            t("2024-01-15 10:30:00").unwrap().as_deref(),
            Some("2024-01-15T10:30:00+00:00")
        );
        assert_eq!(
            t("2024-01-15T12:30:00+02:00").unwrap().as_deref(),
            Some("2024-01-15T10:30:00+00:00")
        );
        assert_eq!(timestamp(&Value::Null).unwrap(), None);
        assert!(t("last tuesday").is_err());
    }

    #[test]
    fn a_row_without_scope_or_content_is_not_converted() {
        let row = |v: Value| v.as_object().unwrap().clone();
        let none = BTreeMap::new();
        let ok = memory_line(
            &row(
                json!({"id": "m", "content": "x", "created_at": "2024-01-15 10:30:00", "chat_id": "c",
                        "subject_person_ids": "[\"p\"]"}),
            ),
            &none,
        )
        .unwrap();
        assert_eq!(ok.0, Scope::Chat("c".into()));
        assert_eq!(ok.1["subject_person_ids"], json!(["p"]));
        let err = memory_line(
            &row(json!({"id": "m", "content": "x", "created_at": "2024-01-15"})),
            &none,
        );
        assert!(err.is_err());
        let err = memory_line(
            &row(json!({"id": "m", "created_at": "2024-01-15 10:30:00", "owner_user_id": "u"})),
            &none,
        );
        assert_eq!(err.unwrap_err(), "a memory without content");
    }
}
