//! How much of the exact nearest a first search finds: what `ash-memory bench` prints
//! beside the one-shot CLI search it speeds up (`coarse`).

use std::path::Path;

use crate::{EntryKind, IndexError, ScopeFilter, SqliteIndex, scan};

/// What [`first_search_recall`] measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FirstSearchRecall {
    /// The share of the exact `k` nearest that a first search returned, over every query.
    pub recall: f64,
    /// The median time of the exact scan itself, in milliseconds: every vector of the
    /// scope, held in memory, scored against one query (what a long-lived host runs from a
    /// scope's third search on, and the brute-force bound a search is measured against).
    pub exact_scan_ms: f64,
}

/// Recall at `k` of a scope's first search, averaged over `queries`: the share of the `k`
/// nearest by an exact scan of every vector of `user`'s personal scope that a first search
/// (a new connection, as a CLI call makes) returns; and how long that exact scan takes.
/// Reads the index at `path`.
pub fn first_search_recall(
    path: &Path,
    user: &str,
    queries: &[Vec<f32>],
    k: u32,
) -> Result<FirstSearchRecall, IndexError> {
    let key = format!("u:{user}");
    let mut exact_index = SqliteIndex::new(path);
    let dimension = exact_index.dimension()?;
    let all = exact_index.load_scope(&key, dimension as usize)?;
    let scope = ScopeFilter {
        kind: EntryKind::Memory,
        user_id: Some(user.to_owned()),
        chat_id: None,
    };
    let mut found = 0usize;
    let mut wanted = 0usize;
    let mut scans = Vec::with_capacity(queries.len());
    for query in queries {
        let unit = scan::unit(query);
        let t = crate::stopwatch::Stopwatch::start();
        let nearest = all.nearest(&unit, k as usize);
        scans.push(t.elapsed());
        let exact: Vec<&str> = nearest.into_iter().map(|(id, _)| id).collect();
        let first = SqliteIndex::new(path).knn(query, k, &scope)?;
        found += first.iter().filter(|h| exact.contains(&h.id.as_str())).count();
        wanted += exact.len();
    }
    scans.sort_unstable();
    Ok(FirstSearchRecall {
        recall: if wanted == 0 { 1.0 } else { found as f64 / wanted as f64 },
        exact_scan_ms: scans.get(scans.len() / 2).map_or(0.0, |d| d.as_secs_f64() * 1e3),
    })
}
