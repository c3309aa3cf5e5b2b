//! The `index` import on Postgres: one `entries` table with pgvector's HNSW for vectors
//! and a generated `tsvector` with a GIN index for full text, filtered by the same scope
//! keys as the SQLite index (`crate::index`).
//!
//! A knn over a small scope (one user's memories among millions) is an exact scan of the
//! rows the scope's btree selects: HNSW with a selective filter walks much of the graph
//! and can still come back short. Over a large scope it is HNSW with pgvector's iterative
//! scan, which keeps walking until `k` rows pass the filter.

use std::collections::HashMap;

use super::conn::Conn;
use pgvector::Vector;

use crate::files::FileState;
use crate::index::{Entry, EntryKind, Hit, IndexError, IndexInfo, MAX_K, ScopeFilter, usable};

/// Scopes of up to this many entries are searched exactly: an exact scan reads every row of
/// the scope from the heap, about 1 ms per thousand rows (`docs/scale-out.md`, 6.3).
pub(super) const EXACT_SCAN_LIMIT: i64 = 2_000;

/// A larger scope goes through HNSW only when it is at least this share of the
/// namespace's entries: HNSW filters after it walks the graph, so for a small share it
/// walks most of the graph and still comes back short (recall 0.6 to 0.87 measured at 1M
/// rows); an exact scan is then slower but right.
const HNSW_MIN_SHARE: f64 = 0.05;

/// `hnsw.ef_search` for a knn of `k`: the candidate list must hold at least `k`; 200 gave
/// recall@10 of 0.993 at 1M rows on an index built with `ef_construction` 128.
fn ef_search(k: u32) -> u32 {
    (k * 2).clamp(200, 1000)
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

/// The model and dimension recorded by the last `clear`, in one round trip: knn and
/// upsert ask it on every call.
pub(super) fn info(client: &mut Conn) -> Result<Option<IndexInfo>, IndexError> {
    let row = client
        .query_one(
            "SELECT (SELECT value FROM meta WHERE key = 'model'),
                    (SELECT value FROM meta WHERE key = 'dimension'),
                    to_regclass('entries') IS NOT NULL",
            &[],
        )
        .map_err(sql)?;
    let (Some(model), Some(dim)) = (row.get::<_, Option<String>>(0), row.get::<_, Option<String>>(1)) else {
        return Ok(None);
    };
    let dimension = dim
        .parse()
        .map_err(|_| IndexError::Unavailable(format!("bad dimension {dim:?}")))?;
    if !row.get::<_, bool>(2) {
        return Err(IndexError::Unavailable("the entries table is missing".into()));
    }
    Ok(Some(IndexInfo { model, dimension }))
}

fn dimension(client: &mut Conn) -> Result<u32, IndexError> {
    info(client)?
        .map(|i| i.dimension)
        .ok_or_else(|| IndexError::Unavailable("the index is not initialized".into()))
}

/// Empties the index (a new `entries` table for `info`'s dimension).
pub(super) fn clear(client: &mut Conn, info: &IndexInfo) -> Result<(), IndexError> {
    client
        .batch_execute(&format!(
            "{} DELETE FROM meta; DELETE FROM scopes;",
            super::schema::entries_ddl(info.dimension)
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

/// Which state of the collection behind `kind` the index reflects.
pub(super) fn reflects(client: &mut Conn, kind: EntryKind) -> Result<Option<FileState>, IndexError> {
    let value: Option<String> = client
        .query_opt("SELECT value FROM meta WHERE key = $1", &[&kind.reflects_key()])
        .map_err(sql)?
        .map(|r| r.get(0));
    Ok(value.and_then(|v| {
        let (generation, end) = v.split_once(' ')?;
        Some(FileState {
            generation: generation.parse().ok()?,
            end: end.parse().ok()?,
        })
    }))
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
pub(super) fn upsert(client: &mut Conn, entries: &[Entry]) -> Result<(), IndexError> {
    if entries.is_empty() {
        return Ok(());
    }
    let dim = dimension(client)?;
    if let Some(bad) = entries
        .iter()
        .filter_map(|e| e.embedding.as_ref())
        .find(|v| v.len() != dim as usize)
    {
        return Err(IndexError::DimensionMismatch((dim, bad.len() as u32)));
    }
    let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    let mut scopes: HashMap<String, (i16, i64)> = HashMap::new();
    for row in client
        .query("SELECT scope, kind FROM entries WHERE id = ANY($1)", &[&ids])
        .map_err(sql)?
    {
        scopes.entry(row.get(0)).or_insert((row.get(1), 0)).1 -= 1;
    }
    // An id given twice ends in the scope of its last entry.
    let mut last: HashMap<&str, (String, i16)> = HashMap::new();
    for e in entries {
        let scope = e.scope();
        let kind = kind_code(e.kind);
        // Vectors without a direction are not stored: the entry is full-text only.
        let vector = e
            .embedding
            .as_deref()
            .filter(|v| usable(v))
            .map(|v| Vector::from(v.to_vec()));
        client
            .execute(
                "INSERT INTO entries (id, kind, scope, content, embedding) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, scope = excluded.scope,
                     content = excluded.content, embedding = excluded.embedding",
                &[&e.id, &kind, &scope, &e.content, &vector],
            )
            .map_err(sql)?;
        last.insert(e.id.as_str(), (scope, kind));
    }
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
        .query("DELETE FROM entries WHERE id = ANY($1) RETURNING scope, kind", &[&ids])
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
    let dim = dimension(client)?;
    if query.len() != dim as usize {
        return Err(IndexError::DimensionMismatch((dim, query.len() as u32)));
    }
    let k = k.min(MAX_K);
    let keys = scope.keys();
    if k == 0 || keys.is_empty() || !usable(query) {
        return Ok(Vec::new());
    }
    let counts = client
        .query_one(
            "SELECT coalesce(sum(n) FILTER (WHERE scope = ANY($1)), 0)::bigint,
                    coalesce(sum(n) FILTER (WHERE scope = $2), 0)::bigint
             FROM scopes WHERE scope = ANY($1) OR scope = $2",
            &[&keys, &ALL_SCOPES],
        )
        .map_err(sql)?;
    let (size, total): (i64, i64) = (counts.get(0), counts.get(1));
    let through_hnsw = dim <= 2000 && size > EXACT_SCAN_LIMIT && size as f64 >= HNSW_MIN_SHARE * total as f64;
    let vector = Vector::from(query.to_vec());
    let rows = if !through_hnsw {
        // `OFFSET 0` keeps the planner from reaching for HNSW: an exact scan of the scope.
        client
            .query(
                "SELECT id, (embedding <=> $1)::float8 AS d FROM
                   (SELECT id, ord, embedding FROM entries
                    WHERE scope = ANY($2) AND embedding IS NOT NULL OFFSET 0) s
                 ORDER BY d, ord LIMIT $3",
                &[&vector, &keys, &i64::from(k)],
            )
            .map_err(sql)?
    } else {
        client
            .batch_execute(&format!(
                "SET LOCAL hnsw.ef_search = {}; SET LOCAL hnsw.iterative_scan = strict_order;",
                ef_search(k)
            ))
            .map_err(sql)?;
        client
            .query(
                "SELECT id, (embedding <=> $1)::float8 AS d FROM entries
                 WHERE scope = ANY($2) AND embedding IS NOT NULL
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

/// Full-text search for any of the terms within the scopes, best first. Each term is
/// matched as a phrase of its words, stemmed by Postgres's English configuration; only
/// letters and digits reach the query, so no term is read as query syntax.
pub(super) fn text_search(
    client: &mut Conn,
    terms: &[String],
    k: u32,
    scope: &ScopeFilter,
) -> Result<Vec<Hit>, IndexError> {
    let keys = scope.keys();
    let query = tsquery(terms);
    if query.is_empty() || keys.is_empty() || k == 0 {
        return Ok(Vec::new());
    }
    let rows = client
        .query(
            "SELECT id, ts_rank(tsv, q) AS r FROM entries, to_tsquery('english', $1) q
             WHERE tsv @@ q AND scope = ANY($2)
             ORDER BY r DESC, ord LIMIT $3",
            &[&query, &keys, &i64::from(k.min(MAX_K))],
        )
        .map_err(sql)?;
    Ok(rows
        .into_iter()
        .map(|r| Hit {
            id: r.get(0),
            score: r.get(1),
        })
        .collect())
}

/// `'word' <-> 'word' | 'word'`: the terms as phrases, any of them.
fn tsquery(terms: &[String]) -> String {
    terms
        .iter()
        .map(|t| {
            t.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(|w| format!("'{w}'"))
                .collect::<Vec<_>>()
                .join(" <-> ")
        })
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
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

#[cfg(test)]
mod tests {
    use super::tsquery;

    #[test]
    fn terms_become_phrases_without_query_syntax() {
        let terms = [
            "peanuts".to_owned(),
            "dark mode".to_owned(),
            "a'b|c!".to_owned(),
            "--".to_owned(),
        ];
        assert_eq!(tsquery(&terms), "'peanuts' | 'dark' <-> 'mode' | 'a' <-> 'b' <-> 'c'");
    }
}
