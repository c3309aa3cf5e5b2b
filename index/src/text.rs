//! Full-text search: BM25 over FTS5, within the caller's scopes, with work bounded however
//! common the query's words are.
//!
//! FTS5 ranks every row that matches before it can say which are best (about half a
//! microsecond a row, after a pass over each term's whole list for its weight), so a word
//! held by an eighth of 100,000 memories made one search's full text 9-17 ms
//! (`docs/performance.md`). The terms are split, as the Postgres backend splits them and as
//! search engines split common terms from rare ones, by how many entries hold them:
//!
//! - when every term is rare (held by at most [`RARE_TERM`] entries), every match is ranked
//!   against every term: the exact answer;
//! - when some are rare and some common, the rare terms pick and rank the candidates: a
//!   common term's BM25 weight is the lowest of the query's, and ranking its thousands of
//!   matches was the whole cost;
//! - when all are common, the candidates are the newest [`RECENT_MATCHES`] entries of the
//!   index that hold any of them, ranked against all of them. In a home of many users,
//!   those are everyone's newest, of which a scope gets its share.

use std::collections::HashMap;

use crate::database::{self, Database, Value, limited};
use crate::{Hit, IndexError, ScopeFilter, SqliteIndex};

/// A term held by more than this many entries of the index is common. Ranking that many
/// matches costs about half a millisecond.
pub const RARE_TERM: u32 = 1_000;

/// How many of the newest entries that hold a query's common terms are ranked when it has
/// no rare term.
pub const RECENT_MATCHES: u32 = 1_000;

/// What a match in an entry's context counts against one in its content (FTS5's column
/// weight; Postgres's weight of the context's lexemes). A memory stored in reply carries the
/// turn before as its context, and at full weight every reply ranked with the turn it
/// answered; on LoCoMo's development half R@10 read 0.830 at 1 and 0.837 at 0.25, between
/// the peaks of its two parts (0.35 and 0.18), which gains on both (docs/judgment.md,
/// "Search constants").
pub const CONTEXT_WEIGHT: f64 = 0.25;

/// The rank of a match, lower first: BM25 with the context weighed down.
fn rank() -> String {
    format!("bm25(fts, 1.0, {CONTEXT_WEIGHT})")
}

impl<D: Database> SqliteIndex<D> {
    /// BM25 full-text search for any of the terms within the scopes, best first (equal
    /// scores in rowid order); common terms as the module says.
    pub fn text_search(&mut self, terms: &[String], k: u32, scope: &ScopeFilter) -> Result<Vec<Hit>, IndexError> {
        let keys = scope.keys();
        // Each term a phrase of its words, so that nothing in it is read as query syntax.
        let phrases: Vec<String> = terms
            .iter()
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .map(|t| format!("\"{}\"", t.replace('"', "\"\"")))
            .collect();
        if phrases.is_empty() || keys.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let db = self.conn()?;
        let any = phrases.join(" OR ");
        // One look settles most queries: all their matches together are few.
        if !held_by_more_than(db, &any, RARE_TERM)? {
            return ranked(db, &any, k, &keys);
        }
        let mut rare = Vec::new();
        let mut common = Vec::new();
        for phrase in phrases {
            if held_by_more_than(db, &phrase, RARE_TERM)? {
                common.push(phrase);
            } else {
                rare.push(phrase);
            }
        }
        if !rare.is_empty() {
            return ranked(db, &rare.join(" OR "), k, &keys);
        }
        newest(db, &common.join(" OR "), k, &keys)
    }
}

/// Whether more than `n` entries match `query`: no more than `n + 1` of them are read.
fn held_by_more_than(db: &mut dyn Database, query: &str, n: u32) -> Result<bool, IndexError> {
    let held = database::count(
        db,
        &format!(
            "SELECT count(*) FROM ({})",
            limited("SELECT 1 FROM fts WHERE fts MATCH ?1", i64::from(n) + 1)
        ),
        &[Value::Text(query)],
    )?;
    Ok(held > i64::from(n))
}

/// Every match of `query` ranked, and the best `k` of the scopes taken.
///
/// The best matches of every scope are ranked first, and their scopes looked up after:
/// ranking is cheap, and a join that looked up the scope of every match of a common term
/// was most of a CLI search. When other scopes' matches crowd this one's out of that first
/// page, the join answers.
fn ranked(db: &mut dyn Database, query: &str, k: u32, keys: &[String]) -> Result<Vec<Hit>, IndexError> {
    let page = k.saturating_mul(2).max(64);
    let best: Vec<(i64, f64)> = database::rows(
        db,
        &limited(
            &format!(
                "SELECT rowid, {r} FROM fts WHERE fts MATCH ?1 ORDER BY {r}, rowid",
                r = rank()
            ),
            i64::from(page),
        ),
        &[Value::Text(query)],
        |r| Ok((r.int(0)?, r.real(1)?)),
    )?;
    let hits = in_scopes(db, &best, k, keys)?;
    if hits.len() == k as usize || best.len() < page as usize {
        // Enough, or every match was ranked.
        return Ok(hits);
    }
    tracing::debug!("index: full text: other scopes' matches fill the first {page}, joining");
    let second = keys.get(1).unwrap_or(&keys[0]);
    database::rows(
        db,
        &limited(
            &format!(
                "SELECT items.id, {r} FROM fts JOIN items ON items.rowid = fts.rowid
                 WHERE fts MATCH ?1 AND items.scope IN (?2, ?3)
                 ORDER BY {r}, fts.rowid",
                r = rank()
            ),
            i64::from(k),
        ),
        &[Value::Text(query), Value::Text(&keys[0]), Value::Text(second)],
        |r| Ok(text_hit(r.text(0)?.to_owned(), r.real(1)?)),
    )
}

/// The newest matches of `query` (at least [`RECENT_MATCHES`], and twice `k`) ranked, and
/// the best `k` of the scopes taken. FTS5 reads a term's list newest first without ranking
/// what it passes over.
fn newest(db: &mut dyn Database, query: &str, k: u32, keys: &[String]) -> Result<Vec<Hit>, IndexError> {
    let window = k.saturating_mul(2).max(RECENT_MATCHES);
    let mut best: Vec<(i64, f64)> = database::rows(
        db,
        &limited(
            &format!(
                "SELECT rowid, {} FROM fts WHERE fts MATCH ?1 ORDER BY rowid DESC",
                rank()
            ),
            i64::from(window),
        ),
        &[Value::Text(query)],
        |r| Ok((r.int(0)?, r.real(1)?)),
    )?;
    best.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    in_scopes(db, &best, k, keys)
}

/// The first `k` of the ranked rows that are in the scopes, in rank order: every row's id
/// and scope in one statement.
fn in_scopes(db: &mut dyn Database, best: &[(i64, f64)], k: u32, keys: &[String]) -> Result<Vec<Hit>, IndexError> {
    let rowids = crate::json_list(best.iter().map(|(rowid, _)| rowid));
    let items: HashMap<i64, (String, String)> = database::rows(
        db,
        "SELECT rowid, id, scope FROM items WHERE rowid IN (SELECT value FROM json_each(?1))",
        &[Value::Text(&rowids)],
        |r| Ok((r.int(0)?, (r.text(1)?.to_owned(), r.text(2)?.to_owned()))),
    )?
    .into_iter()
    .collect();
    Ok(best
        .iter()
        .filter_map(|(rowid, rank)| {
            let (id, scope) = items.get(rowid)?;
            keys.contains(scope).then(|| text_hit(id.clone(), *rank))
        })
        .take(k as usize)
        .collect())
}

/// A full-text hit: bm25() is lower-is-better, so its negation is the score.
fn text_hit(id: String, bm25: f64) -> Hit {
    Hit {
        id,
        score: -(bm25 as f32),
    }
}
