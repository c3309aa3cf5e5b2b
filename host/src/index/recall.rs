//! How much of the exact nearest a first search finds: what `ash-memory bench` prints
//! beside the one-shot CLI search it speeds up (`coarse`).

use std::path::Path;

use super::{IndexError, SqliteIndex, scan};
use crate::Error;

/// Recall at `k` of a scope's first search, averaged over `queries`: the share of the `k`
/// nearest by an exact scan of every vector of `user`'s personal scope that a first search
/// (a new connection, as a CLI call makes) returns. Reads the index at `path`.
pub fn first_search_recall(path: &Path, user: &str, queries: &[Vec<f32>], k: u32) -> Result<f64, Error> {
    let index_error = |e: IndexError| Error::Index(format!("{e:?}"));
    let key = format!("u:{user}");
    let mut exact_index = SqliteIndex::new(path);
    let dimension = exact_index.dimension().map_err(index_error)?;
    let all = exact_index.load_scope(&key, dimension as usize).map_err(index_error)?;
    let scope = super::ScopeFilter {
        kind: super::EntryKind::Memory,
        user_id: Some(user.to_owned()),
        chat_id: None,
    };
    let mut found = 0usize;
    let mut wanted = 0usize;
    for query in queries {
        let exact: Vec<&str> = all
            .nearest(&scan::unit(query), k as usize)
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        let first = SqliteIndex::new(path).knn(query, k, &scope).map_err(index_error)?;
        found += first.iter().filter(|h| exact.contains(&h.id.as_str())).count();
        wanted += exact.len();
    }
    Ok(if wanted == 0 { 1.0 } else { found as f64 / wanted as f64 })
}
