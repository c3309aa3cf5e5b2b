//! The `index` import on Postgres: an `entries` table with a generated `tsvector` and a
//! GIN index for full text (`text_search`), a `vectors` table with pgvector's HNSW, and
//! word counts in `lexemes`, filtered by the same scope keys as the SQLite index
//! (`crate::index`). Each write keeps the three in step in the call's transaction.
//!
//! This file has what the index records about itself, its writes and its counts; `knn`
//! searches by vector, `text_search` by words, and `records` reads records back.

use std::collections::HashMap;

use super::conn::Conn;
use pgvector::Vector;

use crate::index::FileState;
use crate::index::{Entry, EntryKind, IndexError, IndexInfo, Marks, Revision, usable};

/// The scope key of the row in `scopes` that counts every entry.
pub(super) const ALL_SCOPES: &str = "*";

pub(super) fn sql(e: postgres::Error) -> IndexError {
    IndexError::Sql(format!("postgres: {e}"))
}

pub(super) fn kind_code(kind: EntryKind) -> i16 {
    match kind {
        EntryKind::Memory => 0,
        EntryKind::Message => 1,
    }
}

/// The index's `meta` rows as one call found them: the guest asks `reflects` and `info`
/// on every call, and both come from this one read.
pub(super) struct Meta {
    values: HashMap<String, String>,
    has_entries: bool,
}

/// Reads `meta`, in one round trip.
pub(super) fn meta(client: &mut Conn) -> Result<Meta, IndexError> {
    let row = client
        .query_one(
            "SELECT to_regclass('entries') IS NOT NULL AND to_regclass('records') IS NOT NULL
                    AND to_regclass('marks') IS NOT NULL,
                    coalesce(array_agg(key), '{}'), coalesce(array_agg(value), '{}')
             FROM meta",
            &[],
        )
        .map_err(sql)?;
    let (keys, values): (Vec<String>, Vec<String>) = (row.get(1), row.get(2));
    Ok(Meta {
        values: keys.into_iter().zip(values).collect(),
        has_entries: row.get(0),
    })
}

impl Meta {
    /// The model and dimension recorded by the last `clear`.
    pub(super) fn info(&self) -> Result<Option<IndexInfo>, IndexError> {
        let (Some(model), Some(dim)) = (self.values.get("model"), self.values.get("dimension")) else {
            return Ok(None);
        };
        let dimension = dim
            .parse()
            .map_err(|_| IndexError::Unavailable(format!("bad dimension {dim:?}")))?;
        if !self.has_entries {
            return Err(IndexError::Unavailable(
                "the entries or records table is missing (an index of an older version keeps no records): it is rebuilt".into(),
            ));
        }
        Ok(Some(IndexInfo {
            model: model.clone(),
            dimension,
        }))
    }

    /// The dimension, which writes and searches need.
    pub(super) fn dimension(&self) -> Result<u32, IndexError> {
        self.info()?
            .map(|i| i.dimension)
            .ok_or_else(|| IndexError::Unavailable("the index is not initialized".into()))
    }

    /// Which state of the collection behind `kind` the index reflects.
    pub(super) fn reflects(&self, kind: EntryKind) -> Option<FileState> {
        let (generation, end) = self.values.get(kind.reflects_key())?.split_once(' ')?;
        Some(FileState {
            generation: generation.parse().ok()?,
            end: end.parse().ok()?,
        })
    }
}

/// Empties the index (a new `entries` table for `info`'s dimension).
pub(super) fn clear(client: &mut Conn, info: &IndexInfo) -> Result<(), IndexError> {
    client
        .batch_execute(&format!(
            "{} {} DELETE FROM meta; DELETE FROM scopes;",
            super::schema::index_ddl(info.dimension),
            super::schema::hnsw_ddl(info.dimension)
        ))
        .map_err(sql)?;
    client
        .execute(
            "INSERT INTO meta (key, value) VALUES ('model', $1), ('dimension', $2)",
            &[&info.model, &info.dimension.to_string()],
        )
        .map_err(sql)?;
    Ok(())
}

/// Records the state the index reflects.
pub(super) fn set_reflects(client: &mut Conn, kind: EntryKind, state: FileState) -> Result<(), IndexError> {
    client
        .execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            &[&kind.reflects_key(), &format!("{} {}", state.generation, state.end)],
        )
        .map_err(sql)?;
    Ok(())
}

/// Inserts or replaces entries by id, keeping the per-scope counts.
/// `dim` is the index's dimension (`Meta::dimension`).
pub(super) fn upsert(client: &mut Conn, dim: u32, entries: &[Entry]) -> Result<(), IndexError> {
    if entries.is_empty() {
        return Ok(());
    }
    if let Some(bad) = entries
        .iter()
        .filter_map(|e| e.embedding.as_ref())
        .find(|v| v.len() != dim as usize)
    {
        return Err(IndexError::DimensionMismatch((dim, bad.len() as u32)));
    }
    let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    let mut scopes: HashMap<String, (i16, i64)> = HashMap::new();
    // The entries replaced leave their scope's count and their words' counts.
    for row in client
        .query(
            "WITH old AS (SELECT scope, kind, tsv FROM entries WHERE id = ANY($1)),
                  words AS (INSERT INTO lexemes (lexeme, n)
                      SELECT lexeme, -count(*) FROM old, unnest(tsvector_to_array(old.tsv)) lexeme GROUP BY lexeme
                      ON CONFLICT (lexeme) DO UPDATE SET n = lexemes.n + excluded.n)
             SELECT scope, kind FROM old",
            &[&ids],
        )
        .map_err(sql)?
    {
        scopes.entry(row.get(0)).or_insert((row.get(1), 0)).1 -= 1;
    }
    // An id given twice ends in the scope of its last entry, with its marks.
    let mut last: HashMap<&str, (String, i16)> = HashMap::new();
    let mut marked: HashMap<&str, (String, &Marks)> = HashMap::new();
    for e in entries {
        let scope = e.scope();
        let kind = kind_code(e.kind);
        // Vectors without a direction are not stored: the entry is full-text only.
        let vector = e
            .embedding
            .as_deref()
            .filter(|v| usable(v))
            .map(|v| Vector::from(v.to_vec()));
        // The entry, and its vector put or taken away, in one round trip.
        client
            .execute(
                "WITH e AS (INSERT INTO entries (id, kind, scope, content, context, pending, lapses, made)
                            VALUES ($1, $2, $3, $4, $9, $5::vector IS NULL, $7, $8)
                            ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, scope = excluded.scope,
                                content = excluded.content, context = excluded.context,
                                pending = excluded.pending,
                                lapses = excluded.lapses, made = excluded.made
                            RETURNING id, ord, scope),
                      gone AS (DELETE FROM vectors WHERE id = $1 AND $5::vector IS NULL),
                      kept AS (INSERT INTO records (id, record) SELECT $1, $6 WHERE $6::text IS NOT NULL
                               ON CONFLICT (id) DO UPDATE SET record = excluded.record),
                      unkept AS (DELETE FROM records WHERE id = $1 AND $6::text IS NULL)
                 INSERT INTO vectors (id, ord, scope, embedding)
                 SELECT id, ord, scope, $5 FROM e WHERE $5::vector IS NOT NULL
                 ON CONFLICT (id) DO UPDATE SET scope = excluded.scope, embedding = excluded.embedding",
                &[
                    &e.id,
                    &kind,
                    &scope,
                    &e.content,
                    &vector,
                    &e.record,
                    &e.marks.lapses,
                    &e.marks.made,
                    &e.context,
                ],
            )
            .map_err(sql)?;
        last.insert(e.id.as_str(), (scope, kind));
        marked.insert(e.id.as_str(), (e.scope(), &e.marks));
    }
    let marked: Vec<(&str, String, &Marks)> = marked.into_iter().map(|(id, (s, m))| (id, s, m)).collect();
    write_marks(client, &ids, &marked)?;
    client
        .execute(
            "INSERT INTO lexemes (lexeme, n)
             SELECT lexeme, count(*) FROM entries, unnest(tsvector_to_array(tsv)) lexeme
             WHERE id = ANY($1) GROUP BY lexeme
             ON CONFLICT (lexeme) DO UPDATE SET n = lexemes.n + excluded.n",
            &[&ids],
        )
        .map_err(sql)?;
    for (scope, kind) in last.into_values() {
        scopes.entry(scope).or_insert((kind, 0)).1 += 1;
    }
    write_counts(client, scopes)
}

/// Removes entries by id.
pub(super) fn remove(client: &mut Conn, ids: &[String]) -> Result<(), IndexError> {
    if ids.is_empty() {
        return Ok(());
    }
    let mut scopes: HashMap<String, (i16, i64)> = HashMap::new();
    for row in client
        .query(
            "WITH old AS (DELETE FROM entries WHERE id = ANY($1) RETURNING scope, kind, tsv),
                  vector AS (DELETE FROM vectors WHERE id = ANY($1)),
                  record AS (DELETE FROM records WHERE id = ANY($1)),
                  marked AS (DELETE FROM marks WHERE id = ANY($1)),
                  words AS (INSERT INTO lexemes (lexeme, n)
                      SELECT lexeme, -count(*) FROM old, unnest(tsvector_to_array(old.tsv)) lexeme GROUP BY lexeme
                      ON CONFLICT (lexeme) DO UPDATE SET n = lexemes.n + excluded.n)
             SELECT scope, kind FROM old",
            &[&ids],
        )
        .map_err(sql)?
    {
        scopes.entry(row.get(0)).or_insert((row.get(1), 0)).1 -= 1;
    }
    write_counts(client, scopes)
}

fn write_counts(client: &mut Conn, mut changes: HashMap<String, (i16, i64)>) -> Result<(), IndexError> {
    let total: i64 = changes.values().map(|(_, d)| d).sum();
    // Kind -1: the total is no kind's, so `count` never adds it in.
    changes.insert(ALL_SCOPES.to_owned(), (-1, total));
    for (scope, (kind, delta)) in changes.into_iter().filter(|(_, (_, d))| *d != 0) {
        client
            .execute(
                "INSERT INTO scopes (scope, kind, n) VALUES ($1, $2, $3)
                 ON CONFLICT (scope) DO UPDATE SET n = scopes.n + excluded.n",
                &[&scope, &kind, &delta],
            )
            .map_err(sql)?;
    }
    Ok(())
}

/// How many entries of this kind the index holds.
pub(super) fn count(client: &mut Conn, kind: EntryKind) -> Result<u64, IndexError> {
    let n: i64 = client
        .query_one(
            "SELECT coalesce(sum(n), 0)::bigint FROM scopes WHERE kind = $1",
            &[&kind_code(kind)],
        )
        .map_err(sql)?
        .get(0);
    Ok(n as u64)
}

/// How many entries of this kind wait for a vector.
pub(super) fn pending(client: &mut Conn, kind: EntryKind) -> Result<u64, IndexError> {
    let n: i64 = client
        .query_one(
            "SELECT count(*) FROM entries WHERE pending AND kind = $1",
            &[&kind_code(kind)],
        )
        .map_err(sql)?
        .get(0);
    Ok(n as u64)
}

/// Replaces the records and marks of entries already held; see `set-records` in
/// `wit/index.wit`.
pub(super) fn set_records(client: &mut Conn, revisions: &[Revision]) -> Result<(), IndexError> {
    if revisions.is_empty() {
        return Ok(());
    }
    // An id given twice: its last revision counts, as on SQLite.
    let mut last: HashMap<&str, &Revision> = HashMap::new();
    for r in revisions {
        last.insert(r.id.as_str(), r);
    }
    let revisions: Vec<&Revision> = last.into_values().collect();
    let ids: Vec<&str> = revisions.iter().map(|r| r.id.as_str()).collect();
    let lines: Vec<&str> = revisions.iter().map(|r| r.record.as_str()).collect();
    let lapses: Vec<Option<i64>> = revisions.iter().map(|r| r.marks.lapses).collect();
    let made: Vec<i64> = revisions.iter().map(|r| r.marks.made).collect();
    client
        .execute(
            "WITH n AS (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[])
                        AS n(id, record, lapses, made)),
                  kept AS (UPDATE records SET record = n.record FROM n WHERE records.id = n.id)
             UPDATE entries SET lapses = n.lapses, made = n.made FROM n WHERE entries.id = n.id",
            &[&ids, &lines, &lapses, &made],
        )
        .map_err(sql)?;
    // The scope each held one has: ids not held get no marks.
    let scopes: HashMap<String, String> = client
        .query("SELECT id, scope FROM entries WHERE id = ANY($1)", &[&ids])
        .map_err(sql)?
        .into_iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let marked: Vec<(&str, String, &Marks)> = revisions
        .iter()
        .filter_map(|r| Some((r.id.as_str(), scopes.get(&r.id)?.clone(), &r.marks)))
        .collect();
    write_marks(client, &ids, &marked)
}

/// Replaces the marks of the entries `ids` with `marked`, as (id, scope, marks). A row
/// that stays as it was is not written: every search writes its hits' records again
/// (their accesses), and rewriting their marks each time left dead rows for vacuum.
fn write_marks(client: &mut Conn, ids: &[&str], marked: &[(&str, String, &Marks)]) -> Result<(), IndexError> {
    let (mut key_ids, mut keys, mut scopes, mut lapses, mut observed) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (id, scope, marks) in marked {
        for key in &marks.keys {
            key_ids.push(*id);
            keys.push(key.as_str());
            scopes.push(scope.as_str());
            lapses.push(marks.lapses);
            observed.push(marks.observed);
        }
    }
    // The rows the entries no longer have go; then the new ones come, and a kept one is
    // updated only when its expiry or moment moved. Two statements: in one `WITH`, the insert would
    // not see the delete's work.
    client
        .execute(
            "DELETE FROM marks m WHERE m.id = ANY($1) AND NOT EXISTS (
                 SELECT 1 FROM unnest($2::text[], $3::text[], $4::text[]) AS n(key, scope, id)
                 WHERE n.key = m.key AND n.scope = m.scope AND n.id = m.id)",
            &[&ids, &keys, &scopes, &key_ids],
        )
        .map_err(sql)?;
    client
        .execute(
            "INSERT INTO marks (key, scope, id, lapses, observed)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
             ON CONFLICT (key, scope, id) DO UPDATE SET lapses = excluded.lapses, observed = excluded.observed
             WHERE (marks.lapses, marks.observed) IS DISTINCT FROM (excluded.lapses, excluded.observed)",
            &[&keys, &scopes, &key_ids, &lapses, &observed],
        )
        .map_err(sql)?;
    Ok(())
}
