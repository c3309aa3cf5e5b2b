//! The records the index keeps beside each memory's text and vector (`items.record`), so
//! that a call can answer from the index without reading `memories.jsonl`; and how many
//! entries still wait for a vector (`items.pending`), which tells the guest whether a
//! call must read the collection to fill them. Their marks are `marks`'s.

use rusqlite::{Connection, OptionalExtension, params};

use super::{EntryKind, Held, IndexError, Revision, SqliteIndex, has_vectors, marks, of_kind, sql};
use crate::fault;

/// Refuses an index whose tables predate records, marks or observed or made moments: it is
/// cleared and rebuilt, and rebuilding fills them.
pub(super) fn check_columns(conn: &Connection) -> Result<(), IndexError> {
    let present: i64 = conn
        .query_row(
            "SELECT (SELECT count(*) FROM pragma_table_info('items')
                     WHERE name IN ('record', 'pending', 'lapses', 'keys', 'observed', 'made'))
                  + (SELECT count(*) FROM pragma_table_info('marks') WHERE name IN ('observed', 'id'))",
            [],
            |r| r.get(0),
        )
        .map_err(sql)?;
    if present != 8 {
        return Err(IndexError::Unavailable(
            "the index was built by an older version, which kept no records, marks or moments: it is rebuilt".into(),
        ));
    }
    Ok(())
}

impl SqliteIndex {
    /// The records of these ids with their vectors, in the order asked; ids not held, or
    /// held without a record, are left out.
    pub fn fetch(&mut self, ids: &[String]) -> Result<Vec<Held>, IndexError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let conn = self.conn()?;
        check_columns(conn)?;
        let mut item = conn
            .prepare_cached("SELECT rowid, record FROM items WHERE id = ?1")
            .map_err(sql)?;
        let mut found = Vec::with_capacity(ids.len());
        for id in ids {
            let row: Option<(i64, Option<String>)> = item
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
                .map_err(sql)?;
            if let Some((rowid, Some(record))) = row {
                found.push((rowid, id.clone(), record));
            }
        }
        drop(item);
        self.with_vectors(found)
    }

    /// (rowid, id, record) as held, each with its vector when it has one.
    pub(super) fn with_vectors(&mut self, found: Vec<(i64, String, String)>) -> Result<Vec<Held>, IndexError> {
        let conn = self.conn()?;
        let vectors_kept = has_vectors(conn)?;
        let mut vector = if vectors_kept {
            Some(
                conn.prepare_cached("SELECT embedding FROM vecs WHERE rowid = ?1")
                    .map_err(sql)?,
            )
        } else {
            None
        };
        let mut held = Vec::with_capacity(found.len());
        for (rowid, id, record) in found {
            let bytes: Option<Vec<u8>> = match vector.as_mut() {
                Some(v) => v.query_row([rowid], |r| r.get(0)).optional().map_err(sql)?,
                None => None,
            };
            held.push(Held {
                id,
                record,
                embedding: bytes.map(|b| {
                    b.chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .collect()
                }),
            });
        }
        Ok(held)
    }

    /// Replaces the record and marks of entries already held, in one transaction; unknown
    /// ids are ignored.
    pub fn set_records(&mut self, revisions: &[Revision]) -> Result<(), IndexError> {
        if revisions.is_empty() {
            return Ok(());
        }
        fault::point("index:upsert").map_err(|e| IndexError::Sql(e.to_string()))?;
        self.live.clear();
        let conn = self.conn()?;
        check_columns(conn)?;
        let tx = conn.transaction().map_err(sql)?;
        {
            let mut find = tx.prepare_cached(marks::FIND).map_err(sql)?;
            let mut set = tx
                .prepare_cached(
                    "UPDATE items SET record = ?2, lapses = ?3, keys = ?4, observed = ?5, made = ?6 WHERE rowid = ?1",
                )
                .map_err(sql)?;
            for r in revisions {
                let found: Option<(i64, marks::Marked)> =
                    find.query_row([&r.id], marks::found).optional().map_err(sql)?;
                let Some((rowid, old)) = found else {
                    continue;
                };
                let keys = marks::keys_json(&r.marks);
                set.execute(params![
                    rowid,
                    r.record,
                    r.marks.lapses,
                    keys,
                    r.marks.observed,
                    r.marks.made
                ])
                .map_err(sql)?;
                marks::remark(&tx, rowid, Some(&old), &old.scope, &keys, &r.marks)?;
            }
        }
        tx.commit().map_err(sql)
    }

    /// How many entries of this kind wait for a vector.
    pub fn pending(&mut self, kind: EntryKind) -> Result<u64, IndexError> {
        let conn = self.conn()?;
        // The partial index `items_pending` answers this without reading the items.
        let sql_text = format!("SELECT count(*) FROM items WHERE pending = 1 AND {}", of_kind(kind));
        conn.query_row(&sql_text, [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(sql)
    }
}
