//! Reading records back on Postgres: by id (`fetch`), by marks (`tally`, `holding`,
//! `newest`), by the moment they were made (`recent`) and by what was made next
//! (`made-after`).

use std::collections::HashMap;

use pgvector::Vector;

use super::conn::Conn;
use super::index::{kind_code, sql};
use crate::index::{Counts, EntryKind, Held, IndexError, ScopeFilter};

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

/// The ids of what `holding` returns, without reading a record or a vector.
pub(super) fn holding_ids(
    client: &mut Conn,
    keys: &[String],
    scope: &ScopeFilter,
    now: i64,
) -> Result<Vec<String>, IndexError> {
    let scopes = scope.memory_keys();
    if keys.is_empty() || scopes.is_empty() {
        return Ok(Vec::new());
    }
    let rows = client
        .query(
            "SELECT r.id FROM records r
             WHERE r.id IN (SELECT id FROM marks
                            WHERE key = ANY($1) AND scope = ANY($2) AND (lapses IS NULL OR lapses > $3))",
            &[&keys, &scopes, &now],
        )
        .map_err(sql)?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// For each key, the records of its newest `limit` live holders within the scopes, newest
/// first, equal moments by id in byte order; see `newest` in `wit/index.wit`.
pub(super) fn newest(
    client: &mut Conn,
    keys: &[String],
    scope: &ScopeFilter,
    now: i64,
    limit: u32,
) -> Result<Vec<Vec<Held>>, IndexError> {
    newest_of(
        client,
        "SELECT m.observed, m.id, r.record, v.embedding FROM marks m
         JOIN records r ON r.id = m.id LEFT JOIN vectors v ON v.id = m.id
         WHERE m.key = $1 AND m.scope = $2 AND (m.lapses IS NULL OR m.lapses > $3)
         ORDER BY m.observed DESC, m.id COLLATE \"C\" LIMIT $4",
        (keys, scope, now, limit),
        |r| held_at(r, 1),
        |h| &h.id,
    )
}

/// A key's holders within one scope as `newest-ids` walks them: moment, then id.
const NEWEST_IDS: &str = "SELECT m.observed, m.id FROM marks m JOIN records r ON r.id = m.id
     WHERE m.key = $1 AND m.scope = $2 AND (m.lapses IS NULL OR m.lapses > $3)
     ORDER BY m.observed DESC, m.id COLLATE \"C\" LIMIT $4";

/// The ids of what `newest` returns, list by list, without reading a record or a vector.
pub(super) fn newest_ids(
    client: &mut Conn,
    keys: &[String],
    scope: &ScopeFilter,
    now: i64,
    limit: u32,
) -> Result<Vec<Vec<String>>, IndexError> {
    newest_of(client, NEWEST_IDS, (keys, scope, now, limit), |r| r.get(1), |id| id)
}

/// When the first holder `newest_ids` would return for each key was observed; see
/// `newest-moments` in `wit/index.wit`.
pub(super) fn newest_moments(
    client: &mut Conn,
    keys: &[String],
    scope: &ScopeFilter,
    now: i64,
) -> Result<Vec<Option<i64>>, IndexError> {
    let lists = newest_of(
        client,
        NEWEST_IDS,
        (keys, scope, now, 1),
        |r| (r.get::<_, i64>(0), r.get::<_, String>(1)),
        |(_, id)| id,
    )?;
    Ok(lists.into_iter().map(|list| list.first().map(|(at, _)| *at)).collect())
}

/// `newest`'s walk, whatever each holder is made into: `statement` takes a key, a scope, `now`
/// and the limit, and answers the holder's observed moment first. Each scope is read
/// newest first through `marks_newest` and stops at `limit`; the scopes' lists are then
/// merged.
fn newest_of<T>(
    client: &mut Conn,
    statement: &'static str,
    (keys, scope, now, limit): (&[String], &ScopeFilter, i64, u32),
    make: impl Fn(&postgres::Row) -> T,
    id: impl Fn(&T) -> &String,
) -> Result<Vec<Vec<T>>, IndexError> {
    let scopes = scope.memory_keys();
    let limit = i64::from(limit.min(crate::index::MAX_NEWEST));
    let mut lists = Vec::with_capacity(keys.len());
    for key in keys {
        let mut found: Vec<(i64, T)> = Vec::new();
        for s in &scopes {
            let rows = client.query(statement, &[key, s, &now, &limit]).map_err(sql)?;
            found.extend(rows.iter().map(|r| (r.get(0), make(r))));
        }
        found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| id(&a.1).as_bytes().cmp(id(&b.1).as_bytes())));
        found.truncate(limit as usize);
        lists.push(found.into_iter().map(|(_, held)| held).collect());
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

/// For each of `ids`, the live memory of its own scope made next after it, within `within`
/// microseconds; see `made-after` in `wit/index.wit`. A walk along `entries_made` (scope,
/// made, then `ord`, the order first indexed) for each; all the ids in one statement.
pub(super) fn made_after(
    client: &mut Conn,
    ids: &[String],
    now: i64,
    within: i64,
) -> Result<Vec<Option<String>>, IndexError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = client
        .query(
            "SELECT e.id,
                (SELECT a.id FROM entries a
                  WHERE a.scope = e.scope AND a.kind = e.kind
                    AND a.made <= CASE WHEN e.made > 9223372036854775807 - $3
                                       THEN 9223372036854775807 ELSE e.made + $3 END
                    AND (a.made, a.ord) > (e.made, e.ord) AND (a.lapses IS NULL OR a.lapses > $2)
                  ORDER BY a.made ASC, a.ord ASC LIMIT 1)
             FROM entries e WHERE e.id = ANY($1) AND e.kind = $4",
            &[&ids, &now, &within.max(0), &kind_code(EntryKind::Memory)],
        )
        .map_err(sql)?;
    let found: HashMap<String, Option<String>> = rows.into_iter().map(|r| (r.get(0), r.get(1))).collect();
    Ok(ids.iter().map(|id| found.get(id).cloned().flatten()).collect())
}

/// The memories of $1's scope, live at $2, made before it, nearest first, at most $3.
const MADE_BEFORE: &str = "SELECT a.id FROM entries e JOIN entries a ON a.scope = e.scope AND a.kind = e.kind
     WHERE e.id = $1 AND e.kind = $4 AND (a.made, a.ord) < (e.made, e.ord)
       AND (a.lapses IS NULL OR a.lapses > $2)
     ORDER BY a.made DESC, a.ord DESC LIMIT $3";

/// The memories of $1's scope, live at $2, made after it, nearest first, at most $3.
const MADE_AFTER_IT: &str = "SELECT a.id FROM entries e JOIN entries a ON a.scope = e.scope AND a.kind = e.kind
     WHERE e.id = $1 AND e.kind = $4 AND (a.made, a.ord) > (e.made, e.ord)
       AND (a.lapses IS NULL OR a.lapses > $2)
     ORDER BY a.made ASC, a.ord ASC LIMIT $3";

/// For each of `ids`, the live memories of its own scope made up to `places` before it and
/// up to `places` after it, nearest first on each side; see `made-around` in
/// `wit/index.wit`. Each side a walk along `entries_made` (scope, made, then `ord`).
pub(super) fn made_around(
    client: &mut Conn,
    ids: &[String],
    places: u32,
    now: i64,
) -> Result<Vec<Vec<String>>, IndexError> {
    let places = i64::from(places.min(crate::index::MAX_PLACES));
    let memory = kind_code(EntryKind::Memory);
    let mut all = Vec::with_capacity(ids.len());
    for id in ids {
        let mut around = Vec::new();
        if places > 0 {
            for walk in [MADE_BEFORE, MADE_AFTER_IT] {
                let rows = client.query(walk, &[id, &now, &places, &memory]).map_err(sql)?;
                around.extend(rows.iter().map(|r| r.get::<_, String>(0)));
            }
        }
        all.push(around);
    }
    Ok(all)
}
