//! Writing entries: `upsert` and `remove`, each one transaction over the items, their
//! marks, vectors, coarse codes and full text, with the cached vectors following.

use std::collections::BTreeMap;

use rusqlite::{OptionalExtension, params};

use super::{Entry, IndexError, SqliteIndex, coarse, f32_bytes, has_vectors, marks, sql, usable};
use crate::fault;

impl SqliteIndex {
    /// Inserts or replaces entries, all in one transaction. A vector that is not finite
    /// or has no direction is left out (the entry is full-text only): sqlite-vec would
    /// store it and then answer NULL distances for it.
    pub fn upsert(&mut self, entries: &[Entry]) -> Result<(), IndexError> {
        if entries.is_empty() {
            return Ok(());
        }
        fault::point("index:upsert").map_err(|e| IndexError::Sql(e.to_string()))?;
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
        let conn = self.conn()?;
        let tx = conn.transaction().map_err(sql)?;
        // (rowid, scope, the scope it had before): what the cached vectors must follow.
        let mut written: Vec<(i64, String, Option<String>)> = Vec::with_capacity(entries.len());
        // The full-text changes wait until the rest is written: see `write_fts`.
        let mut fts_removed: Vec<i64> = Vec::new();
        let mut fts_added: BTreeMap<i64, &str> = BTreeMap::new();
        {
            let mut find = tx.prepare_cached(marks::FIND).map_err(sql)?;
            let mut insert_item = tx
                .prepare_cached(
                    "INSERT INTO items (id, scope, pending, record, lapses, keys, observed, made)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )
                .map_err(sql)?;
            let mut set_item = tx
                .prepare_cached(
                    "UPDATE items SET scope = ?2, pending = ?3, record = ?4, lapses = ?5, keys = ?6, observed = ?7,
                     made = ?8 WHERE rowid = ?1",
                )
                .map_err(sql)?;
            let mut del_vec = tx.prepare_cached("DELETE FROM vecs WHERE rowid = ?1").map_err(sql)?;
            let mut ins_vec = tx
                .prepare_cached("INSERT INTO vecs (rowid, scope, embedding) VALUES (?1, ?2, ?3)")
                .map_err(sql)?;
            for e in entries {
                let scope = e.scope();
                let vector = e.embedding.as_deref().filter(|v| usable(v));
                let pending = vector.is_none();
                let existing: Option<(i64, marks::Marked)> =
                    find.query_row([&e.id], marks::found).optional().map_err(sql)?;
                let old_scope = existing.as_ref().map(|(_, old)| old.scope.clone());
                let keys = marks::keys_json(&e.marks);
                let rowid = match &existing {
                    Some((rowid, _)) => {
                        let rowid = *rowid;
                        set_item
                            .execute(params![
                                rowid,
                                scope,
                                pending,
                                e.record,
                                e.marks.lapses,
                                keys,
                                e.marks.observed,
                                e.marks.made
                            ])
                            .map_err(sql)?;
                        fts_removed.push(rowid);
                        del_vec.execute([rowid]).map_err(sql)?;
                        if let Some(old_scope) = &old_scope {
                            coarse::erase(&tx, rowid, old_scope).map_err(sql)?;
                        }
                        rowid
                    }
                    None => {
                        insert_item
                            .execute(params![
                                e.id,
                                scope,
                                pending,
                                e.record,
                                e.marks.lapses,
                                keys,
                                e.marks.observed,
                                e.marks.made
                            ])
                            .map_err(sql)?;
                        tx.last_insert_rowid()
                    }
                };
                let old = existing.as_ref().map(|(_, old)| old);
                marks::remark(&tx, rowid, old, &scope, &keys, &e.marks)?;
                // An id twice in one call: its last text counts, as for its vector.
                fts_added.insert(rowid, &e.content);
                if let Some(v) = vector {
                    ins_vec.execute(params![rowid, scope, f32_bytes(v)]).map_err(sql)?;
                    coarse::write(&tx, rowid, &scope, v).map_err(sql)?;
                }
                written.push((rowid, scope, old_scope));
            }
        }
        write_fts(&tx, fts_removed, fts_added.into_iter())?;
        tx.commit().map_err(sql)?;
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
        fault::point("index:remove").map_err(|e| IndexError::Sql(e.to_string()))?;
        self.last_knn = None;
        self.live.clear();
        let conn = self.conn()?;
        let has_vecs = has_vectors(conn)?;
        let tx = conn.transaction().map_err(sql)?;
        let mut removed: Vec<(i64, &str, String)> = Vec::with_capacity(ids.len());
        {
            let mut find = tx.prepare_cached(marks::FIND).map_err(sql)?;
            for id in ids {
                let found = find.query_row([id], marks::found).optional().map_err(sql)?;
                if let Some((rowid, old)) = found {
                    marks::unmark(&tx, rowid, &old.scope, old.keys.as_deref())?;
                    coarse::erase(&tx, rowid, &old.scope).map_err(sql)?;
                    removed.push((rowid, id, old.scope));
                }
            }
            let mut vecs = if has_vecs {
                Some(tx.prepare_cached("DELETE FROM vecs WHERE rowid = ?1").map_err(sql)?)
            } else {
                None
            };
            let mut items = tx.prepare_cached("DELETE FROM items WHERE rowid = ?1").map_err(sql)?;
            for (rowid, ..) in &removed {
                if let Some(vecs) = vecs.as_mut() {
                    vecs.execute([rowid]).map_err(sql)?;
                }
                items.execute([rowid]).map_err(sql)?;
            }
        }
        write_fts(
            &tx,
            removed.iter().map(|(rowid, ..)| *rowid).collect(),
            std::iter::empty(),
        )?;
        tx.commit().map_err(sql)?;
        for (_, id, scope) in removed {
            if let Some(cached) = self.vectors.get_mut(&scope) {
                cached.remove(id);
            }
        }
        Ok(())
    }
}

/// The full-text side of a write, after everything else in its transaction: removals, then
/// additions, each in rowid order. FTS5 keeps a transaction's changes in memory and writes
/// them out as a new segment whenever another statement of the transaction opens a
/// savepoint (any write to `vecs` or `items` does) or a change comes for a smaller rowid
/// than the one before; interleaved with those writes, every entry would cost a segment
/// and the merges after it.
fn write_fts<'a>(
    tx: &rusqlite::Transaction<'_>,
    mut removed: Vec<i64>,
    added: impl Iterator<Item = (i64, &'a str)>,
) -> Result<(), IndexError> {
    removed.sort_unstable();
    removed.dedup();
    let mut delete = tx.prepare_cached("DELETE FROM fts WHERE rowid = ?1").map_err(sql)?;
    for rowid in removed {
        delete.execute([rowid]).map_err(sql)?;
    }
    let mut insert = tx
        .prepare_cached("INSERT INTO fts (rowid, content) VALUES (?1, ?2)")
        .map_err(sql)?;
    for (rowid, content) in added {
        insert.execute(params![rowid, content]).map_err(sql)?;
    }
    Ok(())
}
