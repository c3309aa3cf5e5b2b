//! The marks each memory's entry carries (`marks` in `wit/index.wit`): the keys a search
//! about a person or naming an entity finds it by, when it lapses, and when it was
//! observed. `items.keys` keeps an entry's keys as a JSON list, `items.lapses` its expiry
//! and `items.observed` its moment; the `marks` table holds one row per (key, scope, item),
//! with the expiry, moment and id again, so that counting or listing a key's live holders
//! within a scope reads that table's b-trees and nothing else: newest first, equal moments
//! by id, in `marks_newest`'s order, which the newest few are read in and nothing after
//! them. (Ordering equal moments by `items.id` instead read every holder of the moment:
//! an import stamps thousands of memories with one.)

use std::collections::{BTreeMap, HashMap};

use crate::database::{self, Database, Row, Value, limited};
use crate::{Counts, Held, IndexError, Marks, ScopeFilter, SqliteIndex};

/// The most holders of a key `newest` hands out.
pub const MAX_NEWEST: u32 = 4096;

/// A scope's live entries as counted at `at`: the same count holds from `at` until the
/// next entry lapses (`until`, none when no entry will), as long as nothing is written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LiveCount {
    at: i64,
    until: Option<i64>,
    count: u64,
}

impl LiveCount {
    /// Whether the count is still the count at `now`. (An entry is live while its lapse is
    /// after the moment asked; a clock set back may bring lapsed ones back.)
    fn holds_at(&self, now: i64) -> bool {
        now >= self.at && self.until.is_none_or(|until| now < until)
    }
}

/// An entry's marks as `items` holds them: its scope, `items.keys`, `items.lapses` and
/// `items.observed`.
pub(crate) struct Marked {
    pub scope: String,
    pub keys: Option<String>,
    pub lapses: Option<i64>,
    pub observed: Option<i64>,
}

/// The rowids and marks of the items with these ids, by id (ids not held are absent), in
/// one statement.
pub(crate) fn find_all(db: &mut dyn Database, ids: &[String]) -> Result<HashMap<String, (i64, Marked)>, IndexError> {
    let asked = serde_json::to_string(ids).expect("a list of strings serializes");
    database::rows(
        db,
        "SELECT i.id, i.rowid, i.scope, i.keys, i.lapses, i.observed
         FROM json_each(?1) j JOIN items i ON i.id = j.value",
        &[Value::Text(&asked)],
        |r: &dyn Row| {
            Ok((
                r.text(0)?.to_owned(),
                (
                    r.int(1)?,
                    Marked {
                        scope: r.text(2)?.to_owned(),
                        keys: r.opt_text(3)?.map(str::to_owned),
                        lapses: r.opt_int(4)?,
                        observed: r.opt_int(5)?,
                    },
                ),
            ))
        },
    )
    .map(|rows| rows.into_iter().collect())
}

/// An entry's marks as a write leaves them: `old` what it had (none when new), `scope`,
/// `keys` (their JSON list) and `marks` what it gets.
pub(crate) struct Remark<'a> {
    pub rowid: i64,
    pub id: &'a str,
    pub old: Option<&'a Marked>,
    pub scope: &'a str,
    pub keys: &'a str,
    pub marks: &'a Marks,
}

/// Replaces the entries' marks rows, leaving an entry's alone when they are the ones it
/// had: an access or a replay writes a record again with the same marks, and rewriting them
/// would touch a page of the marks table per key for nothing. `items` is the caller's.
pub(crate) fn remark(db: &mut dyn Database, changes: &[Remark<'_>]) -> Result<(), IndexError> {
    let (mut unmarked, mut marked) = (Vec::new(), Vec::new());
    for c in changes {
        if let Some(old) = c.old {
            if old.scope == c.scope
                && old.keys.as_deref() == Some(c.keys)
                && old.lapses == c.marks.lapses
                && old.observed == Some(c.marks.observed)
            {
                continue;
            }
            // None for an entry written before marks were kept.
            if let Some(keys) = old.keys.as_deref() {
                unmarked.extend([Value::Integer(c.rowid), Value::Text(&old.scope), Value::Text(keys)]);
            }
        }
        for key in &c.marks.keys {
            marked.extend([
                Value::Text(key),
                Value::Text(c.scope),
                Value::Integer(c.rowid),
                Value::from(c.marks.lapses),
                Value::Integer(c.marks.observed),
                Value::Text(c.id),
            ]);
        }
    }
    db.execute_each(UNMARK, 3, &unmarked)?;
    db.execute_each(
        "INSERT OR IGNORE INTO marks (key, scope, item, lapses, observed, id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        6,
        &marked,
    )?;
    Ok(())
}

/// Drops an entry's marks rows, as its `items.keys` lists them: (rowid, scope, keys).
pub(crate) const UNMARK: &str =
    "DELETE FROM marks WHERE item = ?1 AND scope = ?2 AND key IN (SELECT value FROM json_each(?3))";

/// `items.keys`: the keys as one JSON list.
pub(crate) fn keys_json(marks: &Marks) -> String {
    serde_json::to_string(&marks.keys).expect("a list of strings serializes")
}

/// A holder as `newest_holders` lists it: its rowid, id and, when asked for, record.
type Holder = (i64, String, Option<String>);

impl<D: Database> SqliteIndex<D> {
    /// Of the entries within the scopes live at `now`, how many there are and how many hold
    /// each key.
    pub fn tally(&mut self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Counts, IndexError> {
        let scopes = scope.memory_keys();
        self.refresh()?.columns.clone()?;
        let mut tally = Counts {
            live: 0,
            holding: vec![0; keys.len()],
        };
        for s in &scopes {
            tally.live += self.live_count(s, now)?;
        }
        let db = self.conn()?;
        for s in &scopes {
            for (key, n) in keys.iter().zip(tally.holding.iter_mut()) {
                *n += database::count(
                    db,
                    "SELECT count(*) FROM marks WHERE key = ?1 AND scope = ?2 AND (lapses IS NULL OR lapses > ?3)",
                    &[Value::Text(key), Value::Text(s), Value::Integer(now)],
                )? as u64;
            }
        }
        Ok(tally)
    }

    /// The entries of `scope` live at `now`: counted once, then the same until something
    /// is written or the next entry lapses.
    fn live_count(&mut self, scope: &str, now: i64) -> Result<u64, IndexError> {
        if let Some(known) = self.live.get(scope)
            && known.holds_at(now)
        {
            return Ok(known.count);
        }
        let db = self.conn()?;
        // `items_scope` is (scope, lapses): both read that index only, the second one row.
        let params = [Value::Text(scope), Value::Integer(now)];
        let count = database::count(
            db,
            "SELECT count(*) FROM items WHERE scope = ?1 AND (lapses IS NULL OR lapses > ?2)",
            &params,
        )? as u64;
        let until = database::row(
            db,
            "SELECT min(lapses) FROM items WHERE scope = ?1 AND lapses > ?2",
            &params,
            |r| r.opt_int(0),
        )?
        .flatten();
        self.live.insert(scope.to_owned(), LiveCount { at: now, until, count });
        Ok(count)
    }

    /// The records of the entries within the scopes, live at `now`, holding any of the
    /// keys, each once, in the order they were indexed.
    pub fn holding(&mut self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Vec<Held>, IndexError> {
        let vectors = self.readable()?;
        let holders = self.holders(keys, scope, now)?;
        if holders.is_empty() {
            return Ok(Vec::new());
        }
        // Every holder's record in one statement, in rowid order (the order indexed).
        let found = database::rows(
            self.conn()?,
            "SELECT rowid, id, record FROM items WHERE rowid IN (SELECT value FROM json_each(?1))
               AND record IS NOT NULL ORDER BY rowid",
            &[Value::Text(&crate::json_list(holders.keys()))],
            |r| Ok((r.int(0)?, r.text(1)?.to_owned(), r.text(2)?.to_owned())),
        )?;
        self.with_vectors(found, vectors)
    }

    /// The ids of what `holding` returns, in its order, from the marks alone: at 100,000
    /// memories, reading the 500 records about two people was half of a search that holds
    /// them all already. Every entry that holds a key is a memory's and has its record (a
    /// message has neither), so none is looked at.
    pub fn holding_ids(&mut self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Vec<String>, IndexError> {
        // The same file of an older layout refused.
        self.readable()?;
        Ok(self.holders(keys, scope, now)?.into_values().collect())
    }

    /// The live holders of any of the keys within the scopes, by rowid: their ids.
    fn holders(&mut self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<BTreeMap<i64, String>, IndexError> {
        let mut holders = BTreeMap::new();
        let scopes = scope.memory_keys();
        if keys.is_empty() || scopes.is_empty() {
            return Ok(holders);
        }
        let db = self.conn()?;
        for s in &scopes {
            for key in keys {
                db.query(
                    "SELECT item, id FROM marks WHERE key = ?1 AND scope = ?2 AND (lapses IS NULL OR lapses > ?3)",
                    &[Value::Text(key), Value::Text(s), Value::Integer(now)],
                    &mut |r| {
                        holders.insert(r.int(0)?, r.text(1)?.to_owned());
                        Ok(())
                    },
                )?;
            }
        }
        Ok(holders)
    }

    /// For each key, the records of its newest `limit` live holders within the scopes
    /// (capped at `MAX_NEWEST`), newest first by their observed moment, equal moments by
    /// id. Each scope is walked newest first by `marks_newest` and stops at `limit`; the
    /// scopes' lists are then merged.
    pub fn newest(
        &mut self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<Held>>, IndexError> {
        let vectors = self.readable()?;
        let lists = self.newest_holders(keys, scope, now, limit, true)?;
        lists
            .into_iter()
            .map(|found| {
                self.with_vectors(
                    found
                        .into_iter()
                        .map(|(rowid, id, record)| (rowid, id, record.unwrap_or_default()))
                        .collect(),
                    vectors,
                )
            })
            .collect()
    }

    /// The ids of what `newest` returns, list by list, without reading a record or a vector.
    pub fn newest_ids(
        &mut self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, IndexError> {
        self.readable()?;
        let lists = self.newest_holders(keys, scope, now, limit, false)?;
        Ok(lists
            .into_iter()
            .map(|found| found.into_iter().map(|(_, id, _)| id).collect())
            .collect())
    }

    /// For each key, when its newest live holder within the scopes was observed, from
    /// `marks_newest` alone (no entry's row, record or vector); see `newest-moments` in
    /// `wit/index.wit`. (Every holder has a moment: the guest writes 0 for one it cannot
    /// read.)
    pub fn newest_moments(
        &mut self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, IndexError> {
        self.readable()?;
        let scopes = scope.memory_keys();
        let db = self.conn()?;
        let mut moments = Vec::with_capacity(keys.len());
        for key in keys {
            let mut newest: Option<i64> = None;
            for s in &scopes {
                db.query(
                    "SELECT m.observed FROM marks m
                     WHERE m.key = ?1 AND m.scope = ?2 AND (m.lapses IS NULL OR m.lapses > ?3)
                     ORDER BY m.observed DESC, m.id LIMIT 1",
                    &[Value::Text(key), Value::Text(s), Value::Integer(now)],
                    &mut |r| {
                        let at = r.opt_int(0)?.unwrap_or(0);
                        newest = Some(newest.map_or(at, |n| n.max(at)));
                        Ok(())
                    },
                )?;
            }
            moments.push(newest);
        }
        Ok(moments)
    }

    /// `newest`'s lists as (rowid, id, record), each record read only when asked for.
    fn newest_holders(
        &mut self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
        limit: u32,
        records: bool,
    ) -> Result<Vec<Vec<Holder>>, IndexError> {
        let scopes = scope.memory_keys();
        let limit = limit.min(MAX_NEWEST) as usize;
        let db = self.conn()?;
        // Without records, `marks_newest` answers alone (its entries end with the item):
        // the entries' own rows, a page each, were 3 of a context's 13 ms at 100,000
        // memories. Every holder of a key has its record (see `holding_ids`).
        let sql = if records {
            "SELECT m.observed, m.id, m.item, i.record FROM marks m JOIN items i ON i.rowid = m.item
             WHERE m.key = ?1 AND m.scope = ?2 AND (m.lapses IS NULL OR m.lapses > ?3)
               AND i.record IS NOT NULL
             ORDER BY m.observed DESC, m.id"
        } else {
            "SELECT m.observed, m.id, m.item FROM marks m
             WHERE m.key = ?1 AND m.scope = ?2 AND (m.lapses IS NULL OR m.lapses > ?3)
             ORDER BY m.observed DESC, m.id"
        };
        let sql = limited(sql, limit as i64);
        let mut lists = Vec::with_capacity(keys.len());
        for key in keys {
            let mut found: Vec<(i64, String, i64, Option<String>)> = Vec::new();
            if limit > 0 {
                for s in &scopes {
                    db.query(
                        &sql,
                        &[Value::Text(key), Value::Text(s), Value::Integer(now)],
                        &mut |r| {
                            let record = if records { Some(r.text(3)?.to_owned()) } else { None };
                            found.push((r.opt_int(0)?.unwrap_or(0), r.text(1)?.to_owned(), r.int(2)?, record));
                            Ok(())
                        },
                    )?;
                }
            }
            found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            found.truncate(limit);
            lists.push(
                found
                    .into_iter()
                    .map(|(_, id, rowid, record)| (rowid, id, record))
                    .collect(),
            );
        }
        Ok(lists)
    }
}
