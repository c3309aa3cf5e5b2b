//! Full-text search: BM25 over FTS5, within the caller's scopes.

use std::collections::HashMap;

use crate::database::{self, Database, Value};
use crate::{Hit, IndexError, ScopeFilter, SqliteIndex};

impl<D: Database> SqliteIndex<D> {
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
        let db = self.conn()?;
        let page = k.saturating_mul(2).max(64);
        let best: Vec<(i64, f64)> = database::rows(
            db,
            "SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ?1 ORDER BY bm25(fts), rowid LIMIT ?2",
            &[Value::Text(&query), Value::Integer(i64::from(page))],
            |r| Ok((r.int(0)?, r.real(1)?)),
        )?;
        // Every ranked match's id and scope in one statement, then taken in rank order.
        let rowids = crate::json_list(best.iter().map(|(rowid, _)| rowid));
        let items: HashMap<i64, (String, String)> = database::rows(
            db,
            "SELECT rowid, id, scope FROM items WHERE rowid IN (SELECT value FROM json_each(?1))",
            &[Value::Text(&rowids)],
            |r| Ok((r.int(0)?, (r.text(1)?.to_owned(), r.text(2)?.to_owned()))),
        )?
        .into_iter()
        .collect();
        let mut hits = Vec::new();
        for (rowid, rank) in &best {
            if let Some((id, scope)) = items.get(rowid)
                && keys.contains(scope)
            {
                hits.push(text_hit(id.clone(), *rank));
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
        let second = keys.get(1).unwrap_or(&keys[0]);
        database::rows(
            db,
            "SELECT items.id, bm25(fts) FROM fts JOIN items ON items.rowid = fts.rowid
             WHERE fts MATCH ?1 AND items.scope IN (?2, ?3)
             ORDER BY bm25(fts), fts.rowid LIMIT ?4",
            &[
                Value::Text(&query),
                Value::Text(&keys[0]),
                Value::Text(second),
                Value::Integer(i64::from(k)),
            ],
            |r| Ok(text_hit(r.text(0)?.to_owned(), r.real(1)?)),
        )
    }
}

/// A full-text hit: bm25() is lower-is-better, so its negation is the score.
fn text_hit(id: String, bm25: f64) -> Hit {
    Hit {
        id,
        score: -(bm25 as f32),
    }
}
