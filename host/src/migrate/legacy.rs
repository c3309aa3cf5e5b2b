//! Reading the legacy store: its tables as rows of JSON values, and those rows converted
//! to export lines.

use std::collections::BTreeMap;
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OpenFlags};
use serde_json::{Map, Value, json};

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

pub(super) fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
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
pub(super) fn rows(conn: &Connection, table: &str) -> rusqlite::Result<Vec<Map<String, Value>>> {
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
pub(super) fn embeddings(conn: &Connection) -> BTreeMap<String, Vec<u8>> {
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
pub(super) fn person_line(row: &Map<String, Value>) -> Result<(String, Value), String> {
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
pub(super) enum Scope {
    User(String),
    Chat(String),
}

/// A `memories` row as a `memory` export line, with the scope it belongs to.
pub(super) fn memory_line(
    row: &Map<String, Value>,
    vectors: &BTreeMap<String, Vec<u8>>,
) -> Result<(Scope, Value), String> {
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
