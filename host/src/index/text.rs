//! Full-text search: BM25 over FTS5, within the caller's scopes.

use rusqlite::{OptionalExtension, params};

use super::{Hit, IndexError, ScopeFilter, SqliteIndex, sql};

impl SqliteIndex {
    /// BM25 full-text search for any of the terms within the scopes, best first (equal
    /// scores in rowid order).
    ///
    /// The best matches of every scope are ranked first, and their scopes looked up after:
    /// ranking is cheap, and a join that looked up the scope of every match of a common
    /// term was most of a CLI search. When other scopes' matches crowd this one's out of
    /// that first page, the join answers.
    pub fn text_search(&mut self, terms: &[String], k: u32, scope: &ScopeFilter) -> Result<Vec<Hit>, IndexError> {
        let keys = scope.keys();
        let terms: Vec<String> = terms
            .iter()
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
            .collect();
        if terms.is_empty() || keys.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let query = terms.join(" OR ");
        let conn = self.conn()?;
        let page = k.saturating_mul(2).max(64);
        let mut ranked = conn
            .prepare_cached("SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ?1 ORDER BY bm25(fts), rowid LIMIT ?2")
            .map_err(sql)?;
        let best: Vec<(i64, f64)> = ranked
            .query_map(params![query, page], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)?;
        let mut item = conn
            .prepare_cached("SELECT id, scope FROM items WHERE rowid = ?1")
            .map_err(sql)?;
        let mut hits = Vec::new();
        for (rowid, rank) in &best {
            let found: Option<(String, String)> = item
                .query_row([rowid], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
                .map_err(sql)?;
            if let Some((id, _)) = found.filter(|(_, scope)| keys.contains(scope)) {
                hits.push(text_hit(id, *rank));
                if hits.len() == k as usize {
                    return Ok(hits);
                }
            }
        }
        if best.len() < page as usize {
            // Every match was ranked.
            return Ok(hits);
        }
        tracing::debug!("index: full text: other scopes' matches fill the first {page}, joining");
        let mut stmt = conn
            .prepare_cached(
                "SELECT items.id, bm25(fts) FROM fts JOIN items ON items.rowid = fts.rowid
                 WHERE fts MATCH ?1 AND items.scope IN (?2, ?3)
                 ORDER BY bm25(fts), fts.rowid LIMIT ?4",
            )
            .map_err(sql)?;
        let second = keys.get(1).unwrap_or(&keys[0]);
        let rows = stmt
            .query_map(params![query, keys[0], second, k], |r| {
                Ok(text_hit(r.get(0)?, r.get(1)?))
            })
            .map_err(sql)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(sql)
    }
}

/// A full-text hit: bm25() is lower-is-better, so its negation is the score.
fn text_hit(id: String, bm25: f64) -> Hit {
    Hit {
        id,
        score: -(bm25 as f32),
    }
}
