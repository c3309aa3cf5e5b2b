//! Writing entries: `upsert` and `remove`, each one transaction over the items, their
//! marks, vectors, coarse codes and full text, with the cached vectors following.

use std::collections::BTreeMap;

use crate::database::{self, Database, Value};
use crate::{Entry, IndexError, SqliteIndex, coarse, f32_bytes, marks, usable};

/// An item's new row: (id, scope, pending, record, lapses, keys, observed, made).
const INSERT_ITEM: &str = "INSERT INTO items (id, scope, pending, record, lapses, keys, observed, made)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

/// An item's row again: (rowid, scope, pending, record, lapses, keys, observed, made).
const SET_ITEM: &str = "UPDATE items SET scope = ?2, pending = ?3, record = ?4, lapses = ?5, keys = ?6, observed = ?7,
     made = ?8 WHERE rowid = ?1";

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
        let written = database::transaction(self.conn()?, |db| {
            // (rowid, scope, the scope it had before): what the cached vectors must follow.
            let mut written: Vec<(i64, String, Option<String>)> = Vec::with_capacity(entries.len());
            // The full-text changes wait until the rest is written: see `write_fts`.
            let mut fts_removed: Vec<i64> = Vec::new();
            let mut fts_added: BTreeMap<i64, &str> = BTreeMap::new();
            for e in entries {
                let scope = e.scope();
                let vector = e.embedding.as_deref().filter(|v| usable(v));
                let pending = vector.is_none();
                let existing = marks::find(db, &e.id)?;
                let old_scope = existing.as_ref().map(|(_, old)| old.scope.clone());
                let keys = marks::keys_json(&e.marks);
                // The item's columns after its rowid (an update) or id (an insert).
                let columns = [
                    Value::Text(&scope),
                    Value::from(pending),
                    Value::from(e.record.as_ref()),
                    Value::from(e.marks.lapses),
                    Value::Text(&keys),
                    Value::Integer(e.marks.observed),
                    Value::Integer(e.marks.made),
                ];
                let rowid = match &existing {
                    Some((rowid, _)) => {
                        let rowid = *rowid;
                        db.execute(SET_ITEM, &with_first(Value::Integer(rowid), columns))?;
                        fts_removed.push(rowid);
                        db.execute("DELETE FROM vecs WHERE rowid = ?1", &[Value::Integer(rowid)])?;
                        if let Some(old_scope) = &old_scope {
                            coarse::erase(db, rowid, old_scope)?;
                        }
                        rowid
                    }
                    None => {
                        db.execute(INSERT_ITEM, &with_first(Value::Text(&e.id), columns))?
                            .last_rowid
                    }
                };
                let old = existing.as_ref().map(|(_, old)| old);
                marks::remark(db, rowid, old, &scope, &keys, &e.marks)?;
                // An id twice in one call: its last text counts, as for its vector.
                fts_added.insert(rowid, &e.content);
                if let Some(v) = vector {
                    let bytes = f32_bytes(v);
                    db.execute(
                        "INSERT INTO vecs (rowid, scope, embedding) VALUES (?1, ?2, ?3)",
                        &[Value::Integer(rowid), Value::Text(&scope), Value::Blob(&bytes)],
                    )?;
                    coarse::write(db, rowid, &scope, v)?;
                }
                written.push((rowid, scope, old_scope));
            }
            write_fts(db, fts_removed, fts_added.into_iter())?;
            Ok(written)
        })?;
        // The cached vectors follow only once the write is in: a failed transaction
        // leaves them as the file is.
        for (e, (rowid, scope, old_scope)) in entries.iter().zip(written) {
            if let Some(cached) = old_scope.and_then(|old| self.vectors.get_mut(&old)) {
                cached.remove(&e.id);
            }
            if let (Some(cached), Some(v)) = (self.vectors.get_mut(&scope), e.embedding.as_deref())
                && usable(v)
            {
                cached.insert(&e.id, rowid, v);
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
            let mut removed: Vec<(i64, &str, String)> = Vec::with_capacity(ids.len());
            for id in ids {
                if let Some((rowid, old)) = marks::find(db, id)? {
                    marks::unmark(db, rowid, &old.scope, old.keys.as_deref())?;
                    coarse::erase(db, rowid, &old.scope)?;
                    removed.push((rowid, id, old.scope));
                }
            }
            for (rowid, ..) in &removed {
                if has_vecs {
                    db.execute("DELETE FROM vecs WHERE rowid = ?1", &[Value::Integer(*rowid)])?;
                }
                db.execute("DELETE FROM items WHERE rowid = ?1", &[Value::Integer(*rowid)])?;
            }
            write_fts(
                db,
                removed.iter().map(|(rowid, ..)| *rowid).collect(),
                std::iter::empty(),
            )?;
            Ok(removed)
        })?;
        for (_, id, scope) in removed {
            if let Some(cached) = self.vectors.get_mut(&scope) {
                cached.remove(id);
            }
        }
        Ok(())
    }
}

/// `first` and then `rest`: a statement's parameters.
fn with_first<'a>(first: Value<'a>, rest: [Value<'a>; 7]) -> [Value<'a>; 8] {
    let [a, b, c, d, e, f, g] = rest;
    [first, a, b, c, d, e, f, g]
}

/// The full-text side of a write, after everything else in its transaction: removals, then
/// additions, each in rowid order. FTS5 keeps a transaction's changes in memory and writes
/// them out as a new segment whenever another statement of the transaction opens a
/// savepoint (any write to `vecs` or `items` does) or a change comes for a smaller rowid
/// than the one before; interleaved with those writes, every entry would cost a segment
/// and the merges after it.
fn write_fts<'a>(
    db: &mut dyn Database,
    mut removed: Vec<i64>,
    added: impl Iterator<Item = (i64, &'a str)>,
) -> Result<(), IndexError> {
    removed.sort_unstable();
    removed.dedup();
    for rowid in removed {
        db.execute("DELETE FROM fts WHERE rowid = ?1", &[Value::Integer(rowid)])?;
    }
    for (rowid, content) in added {
        db.execute(
            "INSERT INTO fts (rowid, content) VALUES (?1, ?2)",
            &[Value::Integer(rowid), Value::Text(content)],
        )?;
    }
    Ok(())
}
