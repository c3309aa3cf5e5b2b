//! Nearest neighbours on Postgres, by pgvector.
//!
//! A knn over a small scope (one user's memories among millions) is an exact scan of the
//! rows the scope's btree selects: HNSW with a selective filter walks much of the graph
//! and can still come back short. Over a large scope it is HNSW with pgvector's iterative
//! scan, which keeps walking until `k` rows pass the filter.

use pgvector::Vector;

use super::conn::Conn;
use super::index::{ALL_SCOPES, sql};
use crate::index::{Hit, IndexError, MAX_K, ScopeFilter, usable};

/// Scopes of up to this many entries are searched exactly: an exact scan reads every row of
/// the scope from the heap, and its cost grows with the scope (`docs/scale-out.md`, 6.3).
pub(super) const EXACT_SCAN_LIMIT: i64 = 2_000;

/// A larger scope goes through HNSW only when it is at least this share of the
/// namespace's entries: HNSW filters after it walks the graph, so for a small share it
/// walks most of the graph and still comes back short (`docs/scale-out.md`, 4); an exact
/// scan is then slower but right.
const HNSW_MIN_SHARE: f64 = 0.05;

/// The least `hnsw.ef_search`, the smallest that gave recall@10 above 0.99 on an index
/// built with `ef_construction` 128 (`docs/scale-out.md`, 4). Every call's transaction
/// sets it, with pgvector's iterative scan in `strict_order` (`HNSW_SETTINGS`), so that a
/// knn of up to 100 asks nothing more.
pub(super) const EF_SEARCH: u32 = 200;

/// What every call's transaction sets for HNSW; `SET LOCAL`, so it ends with the call.
pub(super) const HNSW_SETTINGS: &str = "SET LOCAL hnsw.ef_search = 200; SET LOCAL hnsw.iterative_scan = strict_order;";

/// `hnsw.ef_search` for a knn of `k`: the candidate list must hold at least `k`.
fn ef_search(k: u32) -> u32 {
    (k * 2).clamp(EF_SEARCH, 1000)
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
