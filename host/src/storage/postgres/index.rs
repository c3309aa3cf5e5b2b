//! The `index` import on Postgres: an `entries` table with a generated `tsvector` and a
//! GIN index for full text (`text_search`), a `vectors` table with pgvector's HNSW, and
//! word counts in `lexemes`, filtered by the same scope keys as the SQLite index
//! (`crate::index`). Each write keeps the three in step in the call's transaction.
//!
//! A knn over a small scope (one user's memories among millions) is an exact scan of the
//! rows the scope's btree selects: HNSW with a selective filter walks much of the graph
//! and can still come back short. Over a large scope it is HNSW with pgvector's iterative
//! scan, which keeps walking until `k` rows pass the filter.

use std::collections::HashMap;

use super::conn::Conn;
use pgvector::Vector;

use crate::files::FileState;
use crate::index::{
    Counts, Entry, EntryKind, Held, Hit, IndexError, IndexInfo, MAX_K, Marks, Revision, ScopeFilter, usable,
};

/// Scopes of up to this many entries are searched exactly: an exact scan reads every row of
/// the scope from the heap, about 1 ms per thousand rows (`docs/scale-out.md`, 6.3).
pub(super) const EXACT_SCAN_LIMIT: i64 = 2_000;

/// A larger scope goes through HNSW only when it is at least this share of the
/// namespace's entries: HNSW filters after it walks the graph, so for a small share it
/// walks most of the graph and still comes back short (recall 0.6 to 0.87 measured at 1M
/// rows); an exact scan is then slower but right.
const HNSW_MIN_SHARE: f64 = 0.05;

/// The least `hnsw.ef_search`: 200 gave recall@10 of 0.993 at 1M rows on an index built
/// with `ef_construction` 128. Every call's transaction sets it, with pgvector's iterative
/// scan in `strict_order` (`HNSW_SETTINGS`), so that a knn of up to 100 asks nothing more.
pub(super) const EF_SEARCH: u32 = 200;

/// What every call's transaction sets for HNSW; `SET LOCAL`, so it ends with the call.
pub(super) const HNSW_SETTINGS: &str = "SET LOCAL hnsw.ef_search = 200; SET LOCAL hnsw.iterative_scan = strict_order;";

/// `hnsw.ef_search` for a knn of `k`: the candidate list must hold at least `k`.
fn ef_search(k: u32) -> u32 {
    (k * 2).clamp(EF_SEARCH, 1000)
}

/// The scope key of the row in `scopes` that counts every entry.
const ALL_SCOPES: &str = "*";

fn sql(e: postgres::Error) -> IndexError {
    IndexError::Sql(format!("postgres: {e}"))
}

fn kind_code(kind: EntryKind) -> i16 {
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
                "WITH e AS (INSERT INTO entries (id, kind, scope, content, pending, lapses, made)
                            VALUES ($1, $2, $3, $4, $5::vector IS NULL, $7, $8)
                            ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, scope = excluded.scope,
                                content = excluded.content, pending = excluded.pending,
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

/// The `k` nearest vectors within the scopes, by cosine similarity, best first.
pub(super) fn knn(client: &mut Conn, query: &[f32], k: u32, scope: &ScopeFilter) -> Result<Vec<Hit>, IndexError> {
    let keys = scope.keys();
    // The dimension and the scope's size in one round trip.
    let row = client
        .query_one(
            "SELECT (SELECT value FROM meta WHERE key = 'dimension'),
                    coalesce(sum(n) FILTER (WHERE scope = ANY($1)), 0)::bigint,
                    coalesce(sum(n) FILTER (WHERE scope = $2), 0)::bigint
             FROM scopes WHERE scope = ANY($1) OR scope = $2",
            &[&keys, &ALL_SCOPES],
        )
        .map_err(sql)?;
    let dim: u32 = row
        .get::<_, Option<String>>(0)
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| IndexError::Unavailable("the index is not initialized".into()))?;
    if query.len() != dim as usize {
        return Err(IndexError::DimensionMismatch((dim, query.len() as u32)));
    }
    let k = k.min(MAX_K);
    if k == 0 || keys.is_empty() || !usable(query) {
        return Ok(Vec::new());
    }
    let (size, total): (i64, i64) = (row.get(1), row.get(2));
    let through_hnsw = dim <= 2000 && size > EXACT_SCAN_LIMIT && size as f64 >= HNSW_MIN_SHARE * total as f64;
    let vector = Vector::from(query.to_vec());
    let rows = if !through_hnsw {
        // `OFFSET 0` keeps the planner from reaching for HNSW: an exact scan of the scope.
        client
            .query(
                "SELECT id, (embedding <=> $1)::float8 AS d FROM
                   (SELECT id, ord, embedding FROM vectors WHERE scope = ANY($2) OFFSET 0) s
                 ORDER BY d, ord LIMIT $3",
                &[&vector, &keys, &i64::from(k)],
            )
            .map_err(sql)?
    } else {
        if ef_search(k) != EF_SEARCH {
            client
                .batch_execute(&format!("SET LOCAL hnsw.ef_search = {};", ef_search(k)))
                .map_err(sql)?;
        }
        client
            .query(
                "SELECT id, (embedding <=> $1)::float8 AS d FROM vectors
                 WHERE scope = ANY($2)
                 ORDER BY embedding <=> $1 LIMIT $3",
                &[&vector, &keys, &i64::from(k)],
            )
            .map_err(sql)?
    };
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let d: Option<f64> = r.get(1);
            d.filter(|d| d.is_finite()).map(|d| Hit {
                id: r.get(0),
                score: 1.0 - d as f32,
            })
        })
        .collect())
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

/// The records of these ids with their vectors, in the order asked; see `fetch` in
/// `wit/index.wit`.
pub(super) fn fetch(client: &mut Conn, ids: &[String]) -> Result<Vec<Held>, IndexError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = client
        .query(
            "SELECT r.id, r.record, v.embedding FROM records r LEFT JOIN vectors v ON v.id = r.id
             WHERE r.id = ANY($1)",
            &[&ids],
        )
        .map_err(sql)?;
    let mut found: HashMap<String, Held> = rows
        .into_iter()
        .map(|r| {
            let held = held_at(&r, 0);
            (held.id.clone(), held)
        })
        .collect();
    Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
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

/// Of the memories within the scopes live at `now`, how many there are and how many hold
/// each key; see `tally` in `wit/index.wit`.
pub(super) fn tally(client: &mut Conn, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Counts, IndexError> {
    let scopes = scope.memory_keys();
    let row = client
        .query_one(
            "SELECT (SELECT count(*) FROM entries WHERE scope = ANY($1) AND (lapses IS NULL OR lapses > $2)),
                    array(SELECT (SELECT count(*) FROM marks
                                  WHERE key = u.k AND scope = ANY($1) AND (lapses IS NULL OR lapses > $2))
                          FROM unnest($3::text[]) WITH ORDINALITY AS u(k, i) ORDER BY u.i)",
            &[&scopes, &now, &keys],
        )
        .map_err(sql)?;
    let holding: Vec<i64> = row.get(1);
    Ok(Counts {
        live: row.get::<_, i64>(0) as u64,
        holding: holding.into_iter().map(|n| n as u64).collect(),
    })
}

/// The records of the memories within the scopes, live at `now`, holding any of the keys;
/// see `holding` in `wit/index.wit`.
pub(super) fn holding(
    client: &mut Conn,
    keys: &[String],
    scope: &ScopeFilter,
    now: i64,
) -> Result<Vec<Held>, IndexError> {
    let scopes = scope.memory_keys();
    if keys.is_empty() || scopes.is_empty() {
        return Ok(Vec::new());
    }
    let rows = client
        .query(
            "SELECT r.id, r.record, v.embedding FROM records r LEFT JOIN vectors v ON v.id = r.id
             WHERE r.id IN (SELECT id FROM marks
                            WHERE key = ANY($1) AND scope = ANY($2) AND (lapses IS NULL OR lapses > $3))",
            &[&keys, &scopes, &now],
        )
        .map_err(sql)?;
    Ok(rows.iter().map(|r| held_at(r, 0)).collect())
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

/// For each key, the records of its newest `limit` live holders within the scopes, newest
/// first, equal moments by id in byte order; see `newest` in `wit/index.wit`. Each scope is
/// read newest first through `marks_newest` and stops at `limit`; the scopes' lists are
/// then merged.
pub(super) fn newest(
    client: &mut Conn,
    keys: &[String],
    scope: &ScopeFilter,
    now: i64,
    limit: u32,
) -> Result<Vec<Vec<Held>>, IndexError> {
    let scopes = scope.memory_keys();
    let limit = i64::from(limit.min(crate::index::MAX_NEWEST));
    let mut lists = Vec::with_capacity(keys.len());
    for key in keys {
        let mut found: Vec<(i64, Held)> = Vec::new();
        for s in &scopes {
            let rows = client
                .query(
                    "SELECT m.observed, m.id, r.record, v.embedding FROM marks m
                     JOIN records r ON r.id = m.id LEFT JOIN vectors v ON v.id = m.id
                     WHERE m.key = $1 AND m.scope = $2 AND (m.lapses IS NULL OR m.lapses > $3)
                     ORDER BY m.observed DESC, m.id COLLATE \"C\" LIMIT $4",
                    &[key, s, &now, &limit],
                )
                .map_err(sql)?;
            for r in rows {
                found.push((r.get(0), held_at(&r, 1)));
            }
        }
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.id.as_bytes().cmp(b.1.id.as_bytes())));
        found.truncate(limit as usize);
        lists.push(found.into_iter().map(|(_, h)| h).collect());
    }
    Ok(lists)
}

/// The records of the `limit` entries within the scopes most recently made, live at `now`
/// when given; see `recent` in `wit/index.wit`. Each scope is read through `entries_made`
/// (made, then `ord`, the order entries were first indexed in) and stops at `limit`; the
/// scopes' lists are then merged.
pub(super) fn recent(
    client: &mut Conn,
    scope: &ScopeFilter,
    now: Option<i64>,
    limit: u32,
) -> Result<Vec<Held>, IndexError> {
    let limit = i64::from(limit.min(crate::index::MAX_RECENT));
    let mut found: Vec<((i64, i64), Held)> = Vec::new();
    for s in &scope.memory_keys() {
        let rows = client
            .query(
                "SELECT e.made, e.ord, e.id, r.record, v.embedding FROM entries e
                 JOIN records r ON r.id = e.id LEFT JOIN vectors v ON v.id = e.id
                 WHERE e.scope = $1 AND ($2::bigint IS NULL OR e.lapses IS NULL OR e.lapses > $2)
                 ORDER BY e.made DESC, e.ord DESC LIMIT $3",
                &[s, &now, &limit],
            )
            .map_err(sql)?;
        for r in rows {
            found.push(((r.get(0), r.get(1)), held_at(&r, 2)));
        }
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    found.truncate(limit as usize);
    Ok(found.into_iter().map(|(_, h)| h).collect())
}

/// A memory's id, record and vector, in this order from column `first` of a row.
fn held_at(r: &postgres::Row, first: usize) -> Held {
    let embedding: Option<Vector> = r.get(first + 2);
    Held {
        id: r.get(first),
        record: r.get(first + 1),
        embedding: embedding.map(|v| v.to_vec()),
    }
}
