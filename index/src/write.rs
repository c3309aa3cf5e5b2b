//! Writing entries: `upsert` and `remove`, each one transaction over the items, their
//! marks, vectors, coarse codes and full text, with the cached vectors following.
//!
//! Each runs a fixed number of statements whatever the number of entries: the entries'
//! rows are read in one query and written with one `execute_each` per statement, so that
//! the index component crosses the sandbox a dozen times for a rebuild's batch, not a
//! dozen times an entry.

use std::collections::{BTreeMap, HashMap};

use crate::database::{self, Database, Value};
use crate::marks::{self, Marked};
use crate::{Entry, IndexError, SqliteIndex, coarse, code_blocks, f32_bytes, usable};

/// An item's new row: (id, scope, pending, record, lapses, keys, observed, made).
const INSERT_ITEM: &str = "INSERT INTO items (id, scope, pending, record, lapses, keys, observed, made)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

/// An item's row again: (rowid, scope, pending, record, lapses, keys, observed, made).
const SET_ITEM: &str = "UPDATE items SET scope = ?2, pending = ?3, record = ?4, lapses = ?5, keys = ?6, observed = ?7,
     made = ?8 WHERE rowid = ?1";

/// An entry as it is written: the entry, its scope and keys, and the row it had.
struct Planned<'e> {
    entry: &'e Entry,
    scope: String,
    keys: String,
    before: Option<(i64, Marked)>,
}

impl<D: Database> SqliteIndex<D> {
    /// Inserts or replaces entries, all in one transaction. A vector that is not finite
    /// or has no direction is left out (the entry is full-text only): sqlite-vec would
    /// store it and then answer NULL distances for it.
    pub fn upsert(&mut self, entries: &[Entry]) -> Result<(), IndexError> {
        if entries.is_empty() {
            return Ok(());
        }
        self.db.fault_point("index:upsert")?;
        self.last_knn = None;
        self.live.clear();
        let dim = self.dimension()?;
        if let Some(bad) = entries
            .iter()
            .filter_map(|e| e.embedding.as_ref())
            .find(|v| v.len() != dim as usize)
        {
            return Err(IndexError::DimensionMismatch((dim, bad.len() as u32)));
        }
        let entries = last_of_each(entries, |e| &e.id);
        let written = database::transaction(self.conn()?, |db| write_entries(db, &entries))?;
        // The cached vectors follow only once the write is in: a failed transaction
        // leaves them as the file is.
        for (p, rowid) in written {
            if let Some(cached) = p.before.as_ref().and_then(|(_, old)| self.vectors.get_mut(&old.scope)) {
                cached.remove(&p.entry.id);
            }
            if let (Some(cached), Some(v)) = (self.vectors.get_mut(&p.scope), p.entry.embedding.as_deref())
                && usable(v)
            {
                cached.insert(&p.entry.id, rowid, v);
            }
        }
        Ok(())
    }

    /// Removes entries by id.
    pub fn remove(&mut self, ids: &[String]) -> Result<(), IndexError> {
        if ids.is_empty() {
            return Ok(());
        }
        self.db.fault_point("index:remove")?;
        self.last_knn = None;
        self.live.clear();
        let has_vecs = self.refresh()?.vectors;
        let removed = database::transaction(self.conn()?, |db| {
            let mut found = marks::find_all(db, ids)?;
            let mut removed: Vec<(i64, &str, Marked)> = Vec::with_capacity(found.len());
            let mut unmarked = Vec::new();
            let mut codes = Vec::new();
            let mut rowids = Vec::new();
            for id in ids {
                // An id twice is removed once.
                if let Some((rowid, old)) = found.remove(id.as_str()) {
                    removed.push((rowid, id, old));
                }
            }
            for (rowid, _, old) in &removed {
                if let Some(keys) = old.keys.as_deref() {
                    unmarked.extend([Value::Integer(*rowid), Value::Text(&old.scope), Value::Text(keys)]);
                }
                codes.push((old.scope.as_str(), *rowid));
                rowids.push(Value::Integer(*rowid));
            }
            db.execute_each(marks::UNMARK, 3, &unmarked)?;
            code_blocks::change(db, &codes, &[])?;
            if has_vecs {
                db.execute_each(DROP_VECTOR, 1, &rowids)?;
            }
            db.execute_each("DELETE FROM items WHERE rowid = ?1", 1, &rowids)?;
            write_fts(db, removed.iter().map(|(rowid, ..)| *rowid).collect(), Vec::new())?;
            Ok(removed)
        })?;
        for (_, id, old) in removed {
            if let Some(cached) = self.vectors.get_mut(&old.scope) {
                cached.remove(id);
            }
        }
        Ok(())
    }
}

const DROP_VECTOR: &str = "DELETE FROM vecs WHERE rowid = ?1";

/// Each id once, where it first stands, with the item that comes last for it: what
/// writing them one after another would leave.
pub(crate) fn last_of_each<T>(items: &[T], id: impl Fn(&T) -> &str) -> Vec<&T> {
    let mut at: HashMap<&str, usize> = HashMap::with_capacity(items.len());
    let mut out: Vec<&T> = Vec::with_capacity(items.len());
    for e in items {
        match at.get(id(e)) {
            Some(&i) => out[i] = e,
            None => {
                at.insert(id(e), out.len());
                out.push(e);
            }
        }
    }
    out
}

/// The writes of `upsert`, inside its transaction: each entry planned with the row it had,
/// then every table written statement by statement. Returns each entry with its rowid.
fn write_entries<'e>(db: &mut dyn Database, entries: &[&'e Entry]) -> Result<Vec<(Planned<'e>, i64)>, IndexError> {
    let ids: Vec<String> = entries.iter().map(|e| e.id.clone()).collect();
    let mut before = marks::find_all(db, &ids)?;
    let planned: Vec<Planned<'e>> = entries
        .iter()
        .map(|&entry| Planned {
            entry,
            scope: entry.scope(),
            keys: marks::keys_json(&entry.marks),
            before: before.remove(entry.id.as_str()),
        })
        .collect();

    // The items' rows: the ones there again by rowid, the new ones by id.
    let (mut set, mut inserted) = (Vec::new(), Vec::new());
    for p in &planned {
        let e = p.entry;
        let columns = [
            Value::Text(&p.scope),
            Value::from(e.embedding.as_deref().is_none_or(|v| !usable(v))),
            Value::from(e.record.as_ref()),
            Value::from(e.marks.lapses),
            Value::Text(&p.keys),
            Value::Integer(e.marks.observed),
            Value::Integer(e.marks.made),
        ];
        match &p.before {
            Some((rowid, _)) => {
                set.push(Value::Integer(*rowid));
                set.extend(columns);
            }
            None => {
                inserted.push(Value::Text(&e.id));
                inserted.extend(columns);
            }
        }
    }
    db.execute_each(SET_ITEM, 8, &set)?;
    // The new rows' rowids: an add's one from its insert, many read back in one query.
    let new: Vec<String> = planned
        .iter()
        .filter(|p| p.before.is_none())
        .map(|p| p.entry.id.clone())
        .collect();
    let rowids: HashMap<String, i64> = match new.as_slice() {
        [] => HashMap::new(),
        [id] => HashMap::from([(id.clone(), db.execute(INSERT_ITEM, &inserted)?.last_rowid)]),
        _ => {
            db.execute_each(INSERT_ITEM, 8, &inserted)?;
            marks::find_all(db, &new)?
                .into_iter()
                .map(|(id, (rowid, _))| (id, rowid))
                .collect()
        }
    };
    let written: Vec<(Planned<'e>, i64)> = planned
        .into_iter()
        .map(|p| {
            let rowid = match &p.before {
                Some((rowid, _)) => Some(*rowid),
                None => rowids.get(p.entry.id.as_str()).copied(),
            };
            match rowid {
                Some(rowid) => Ok((p, rowid)),
                None => Err(IndexError::Sql(format!("{} was not indexed", p.entry.id))),
            }
        })
        .collect::<Result<_, _>>()?;

    // What an entry had is taken away: its vector and code, its marks where they change.
    let (mut dropped, mut erased) = (Vec::new(), Vec::new());
    let mut remarks = Vec::with_capacity(written.len());
    for (p, rowid) in &written {
        let old = p.before.as_ref().map(|(_, old)| old);
        if let Some(old) = old {
            dropped.push(Value::Integer(*rowid));
            erased.push((old.scope.as_str(), *rowid));
        }
        remarks.push(marks::Remark {
            rowid: *rowid,
            id: &p.entry.id,
            old,
            scope: &p.scope,
            keys: &p.keys,
            marks: &p.entry.marks,
        });
    }
    db.execute_each(DROP_VECTOR, 1, &dropped)?;
    marks::remark(db, &remarks)?;

    // The vectors and their codes: the bytes made first, for the parameters to borrow.
    let usable_vectors = written.iter().filter_map(|(p, rowid)| {
        Some((
            *rowid,
            p.scope.as_str(),
            p.entry.embedding.as_deref().filter(|v| usable(v))?,
        ))
    });
    let made: Vec<_> = usable_vectors
        .map(|(rowid, scope, v)| (rowid, scope, f32_bytes(v), coarse::code(v)))
        .collect();
    let (mut stored, mut coded) = (Vec::new(), Vec::new());
    for (rowid, scope, bytes, (scale, code)) in &made {
        stored.extend([Value::Integer(*rowid), Value::Text(scope), Value::Blob(bytes)]);
        coded.push((*scope, *rowid, *scale, code.as_slice()));
    }
    db.execute_each(
        "INSERT INTO vecs (rowid, scope, embedding) VALUES (?1, ?2, ?3)",
        3,
        &stored,
    )?;
    // The old codes out and the new in, each block they share rewritten once.
    code_blocks::change(db, &erased, &coded)?;

    let removed = written
        .iter()
        .filter(|(p, _)| p.before.is_some())
        .map(|(_, r)| *r)
        .collect();
    let added: BTreeMap<i64, (&str, &str)> = written
        .iter()
        .map(|(p, r)| (*r, (p.entry.content.as_str(), p.entry.context.as_deref().unwrap_or(""))))
        .collect();
    write_fts(db, removed, added.into_iter().collect())?;
    Ok(written)
}

/// The full-text side of a write, after everything else in its transaction: removals, then
/// additions, each in rowid order. FTS5 keeps a transaction's changes in memory and writes
/// them out as a new segment whenever another statement of the transaction opens a
/// savepoint (any write to `vecs` or `items` does) or a change comes for a smaller rowid
/// than the one before; interleaved with those writes, every entry would cost a segment
/// and the merges after it.
fn write_fts(db: &mut dyn Database, mut removed: Vec<i64>, added: Vec<(i64, (&str, &str))>) -> Result<(), IndexError> {
    removed.sort_unstable();
    removed.dedup();
    let removed: Vec<Value<'_>> = removed.into_iter().map(Value::Integer).collect();
    db.execute_each("DELETE FROM fts WHERE rowid = ?1", 1, &removed)?;
    let added: Vec<Value<'_>> = added
        .into_iter()
        .flat_map(|(rowid, (content, context))| [Value::Integer(rowid), Value::Text(content), Value::Text(context)])
        .collect();
    db.execute_each(
        "INSERT INTO fts (rowid, content, context) VALUES (?1, ?2, ?3)",
        3,
        &added,
    )?;
    Ok(())
}
