//! Full-text search on Postgres, with work bounded however common the query's words are.
//!
//! `ts_rank` has to read every row that matches before it can say which are best, and a
//! word such as a friend's name can match a quarter of a large memory, which makes ranking
//! most of a search (`docs/scale-out.md`, 4.1). So the query's terms are split the way
//! search engines split common terms from rare ones, by how many entries of the namespace
//! hold them (`lexemes`, kept by every write):
//!
//! - a **rare** term (in at most [`RARE`] entries) is looked up through the GIN index,
//!   and every match in the scope is ranked;
//! - a **common** term is looked for only among the newest [`RECENT`] entries of each
//!   scope key, read backwards through the scope's btree (`newest_entries`, made with
//!   the index's tables in `schema`).
//!
//! Every candidate is then ranked by `ts_rank` against all the terms. The answer is the
//! exact one whenever no term is common or a scope key holds at most [`RECENT`]
//! entries; otherwise an old entry can be missed only if every term it matches is
//! common, and those are the entries a common word ranks least well anyway.

use super::conn::Conn;
use crate::index::{Hit, IndexError, MAX_K, ScopeFilter};

/// A term held by at most this many entries of the namespace has every match ranked: the
/// GIN index hands them over and each costs about a microsecond to rank. The SQLite index's
/// line between rare and common, so that both backends draw it in one place.
pub(super) const RARE: i64 = crate::index::RARE_TERM as i64;

/// How many of each scope key's newest entries a common term is looked for in.
pub(super) const RECENT: i64 = 1_000;

/// `ts_rank`'s weights of the lexemes labelled D, C, B and A: an entry's content is A and
/// its context B (`schema`), which counts as much less as a context does in the SQLite
/// index's BM25.
const WEIGHTS: [f32; 4] = [0.0, 0.0, crate::index::CONTEXT_WEIGHT as f32, 1.0];

// Each statement takes: $1 every term's query (what candidates are ranked by), $2 the
// query that picks candidates (the rare terms', the common terms', or in `BOTH` the rare
// terms' then $3 the common terms'), then the scope keys, `RECENT` where used, `k`, and
// last `WEIGHTS`.
// The queries are functions in FROM so that they are parsed once a statement: in a
// filter, a prepared statement's generic plan parses them again for every row.

/// Candidates from rare terms: the namespace's matches through the GIN index, then the
/// scope. `OFFSET 0` keeps the scope's btree out of it: with no statistics yet, the
/// planner ANDed in a bitmap of the whole scope.
const RARE_ONLY: &str = "
    SELECT id, ts_rank($5, tsv, q) AS r FROM to_tsquery('english', $1) q, (
        SELECT e.id, e.ord, e.tsv, e.scope FROM to_tsquery('english', $2) picks, entries e
        WHERE e.tsv @@ picks OFFSET 0
    ) m
    WHERE scope = ANY($3)
    ORDER BY r DESC, ord LIMIT $4";

/// Candidates from common terms, among each key's newest entries.
const COMMON_ONLY: &str = "
    SELECT id, ts_rank($6, tsv, q) AS r
    FROM to_tsquery('english', $1) q, to_tsquery('english', $2) picks, unnest($3::text[]) key,
        newest_entries(key, $4) recent
    WHERE tsv @@ picks
    ORDER BY r DESC, ord LIMIT $5";

/// Both, each entry once.
const BOTH: &str = "
    SELECT id, ts_rank($7, tsv, q) AS r FROM to_tsquery('english', $1) q, (
        SELECT id, ord, tsv FROM (
            SELECT e.id, e.ord, e.tsv, e.scope FROM to_tsquery('english', $2) rare, entries e
            WHERE e.tsv @@ rare OFFSET 0
        ) m
        WHERE scope = ANY($4)
        UNION
        SELECT recent.id, recent.ord, recent.tsv
        FROM to_tsquery('english', $3) common, unnest($4::text[]) key, newest_entries(key, $5) recent
        WHERE recent.tsv @@ common
    ) candidates
    ORDER BY r DESC, ord LIMIT $6";

fn sql(e: postgres::Error) -> IndexError {
    IndexError::Sql(format!("postgres: {e}"))
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
    let phrases: Vec<Vec<&str>> = terms.iter().map(|t| words(t)).filter(|p| !p.is_empty()).collect();
    if phrases.is_empty() || keys.is_empty() || k == 0 {
        return Ok(Vec::new());
    }
    let holders = holders(client, &phrases)?;
    let held = |rare: bool| {
        phrases
            .iter()
            .zip(&holders)
            .filter(move |(_, n)| (**n <= RARE) == rare)
            .map(|(p, _)| p)
    };
    let (all, rare, common) = (tsquery(phrases.iter()), tsquery(held(true)), tsquery(held(false)));
    let k = i64::from(k.min(MAX_K));
    let weights = WEIGHTS.to_vec();
    let rows = if common.is_empty() {
        client.query(RARE_ONLY, &[&all, &rare, &keys, &k, &weights])
    } else if rare.is_empty() {
        client.query(COMMON_ONLY, &[&all, &common, &keys, &RECENT, &k, &weights])
    } else {
        client.query(BOTH, &[&all, &rare, &common, &keys, &RECENT, &k, &weights])
    }
    .map_err(sql)?;
    Ok(rows
        .into_iter()
        .map(|r| Hit {
            id: r.get(0),
            score: r.get(1),
        })
        .collect())
}

/// How many entries of the namespace hold each phrase, as far as `lexemes` tells: as
/// many as hold its least held word (0 for a word no entry holds). A phrase of stop
/// words only has no words to look up and counts as rare: it matches nothing.
fn holders(client: &mut Conn, phrases: &[Vec<&str>]) -> Result<Vec<i64>, IndexError> {
    let texts: Vec<String> = phrases.iter().map(|p| p.join(" ")).collect();
    let rows = client
        .query(
            "SELECT coalesce(min(coalesce(l.n, 0)), 0)::bigint
             FROM unnest($1::text[]) WITH ORDINALITY t(words, i)
             LEFT JOIN LATERAL unnest(tsvector_to_array(to_tsvector('english', t.words))) w(lexeme) ON true
             LEFT JOIN lexemes l ON l.lexeme = w.lexeme
             GROUP BY t.i ORDER BY t.i",
            &[&texts],
        )
        .map_err(sql)?;
    Ok(rows.into_iter().map(|r| r.get(0)).collect())
}

/// A term's words: its runs of letters and digits.
fn words(term: &str) -> Vec<&str> {
    term.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// `'word' <-> 'word' | 'word'`: the phrases, any of them. Empty for none, which
/// `to_tsquery` reads as a query that matches nothing.
fn tsquery<'a>(phrases: impl Iterator<Item = &'a Vec<&'a str>>) -> String {
    phrases
        .map(|p| p.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(" <-> "))
        .collect::<Vec<_>>()
        .join(" | ")
}

#[cfg(test)]
mod tests {
    use super::{tsquery, words};

    #[test]
    fn terms_become_phrases_without_query_syntax() {
        let terms = ["peanuts", "dark mode", "a'b|c!", "--"];
        let phrases: Vec<Vec<&str>> = terms.iter().map(|t| words(t)).filter(|p| !p.is_empty()).collect();
        assert_eq!(
            tsquery(phrases.iter()),
            "'peanuts' | 'dark' <-> 'mode' | 'a' <-> 'b' <-> 'c'"
        );
        assert_eq!(tsquery(std::iter::empty()), "");
    }
}
