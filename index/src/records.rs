//! The records the index keeps beside each memory's text and vector (`items.record`), so
//! that a call can answer from the index without reading `memories.jsonl`; and how many
//! entries still wait for a vector (`items.pending`), which tells the guest whether a
//! call must read the collection to fill them. Their marks are `marks`'s.

use crate::database::{self, Database, Value};
use crate::{EntryKind, Held, IndexError, Revision, SqliteIndex, has_vectors, marks, of_kind};

/// Refuses an index whose tables predate records, marks or observed or made moments: it is
/// cleared and rebuilt, and rebuilding fills them.
pub(crate) fn check_columns(db: &mut dyn Database) -> Result<(), IndexError> {
    let present = database::count(
        db,
        "SELECT (SELECT count(*) FROM pragma_table_info('items')
                 WHERE name IN ('record', 'pending', 'lapses', 'keys', 'observed', 'made'))
              + (SELECT count(*) FROM pragma_table_info('marks') WHERE name IN ('observed', 'id'))",
        &[],
    )?;
    if present != 8 {
        return Err(IndexError::Unavailable(
            "the index was built by an older version, which kept no records, marks or moments: it is rebuilt".into(),
        ));
    }
    Ok(())
}

/// A stored vector's bytes as floats.
pub(crate) fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

impl<D: Database> SqliteIndex<D> {
    /// The records of these ids with their vectors, in the order asked; ids not held, or
    /// held without a record, are left out.
    pub fn fetch(&mut self, ids: &[String]) -> Result<Vec<Held>, IndexError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let db = self.conn()?;
        check_columns(db)?;
        let mut found = Vec::with_capacity(ids.len());
        for id in ids {
            let row = database::row(
                db,
                "SELECT rowid, record FROM items WHERE id = ?1",
                &[Value::Text(id)],
                |r| Ok((r.int(0)?, r.opt_text(1)?.map(str::to_owned))),
            )?;
            if let Some((rowid, Some(record))) = row {
                found.push((rowid, id.clone(), record));
            }
        }
        self.with_vectors(found)
    }

    /// (rowid, id, record) as held, each with its vector when it has one.
    pub(crate) fn with_vectors(&mut self, found: Vec<(i64, String, String)>) -> Result<Vec<Held>, IndexError> {
        let db = self.conn()?;
        let vectors_kept = has_vectors(db)?;
        let mut held = Vec::with_capacity(found.len());
        for (rowid, id, record) in found {
            let embedding = if vectors_kept {
                database::row(
                    db,
                    "SELECT embedding FROM vecs WHERE rowid = ?1",
                    &[Value::Integer(rowid)],
                    |r| Ok(floats(r.blob(0)?)),
                )?
            } else {
                None
            };
            held.push(Held { id, record, embedding });
        }
        Ok(held)
    }

    /// Replaces the record and marks of entries already held, in one transaction; unknown
    /// ids are ignored.
    pub fn set_records(&mut self, revisions: &[Revision]) -> Result<(), IndexError> {
        if revisions.is_empty() {
            return Ok(());
        }
        self.db.fault_point("index:upsert")?;
        self.live.clear();
        let db = self.conn()?;
        check_columns(db)?;
        database::transaction(db, |db| {
            for r in revisions {
                let Some((rowid, old)) = marks::find(db, &r.id)? else {
                    continue;
                };
                let keys = marks::keys_json(&r.marks);
                db.execute(
                    "UPDATE items SET record = ?2, lapses = ?3, keys = ?4, observed = ?5, made = ?6 WHERE rowid = ?1",
                    &[
                        Value::Integer(rowid),
                        Value::Text(&r.record),
                        Value::from(r.marks.lapses),
                        Value::Text(&keys),
                        Value::Integer(r.marks.observed),
                        Value::Integer(r.marks.made),
                    ],
                )?;
                marks::remark(db, rowid, Some(&old), &old.scope, &keys, &r.marks)?;
            }
            Ok(())
        })
    }

    /// How many entries of this kind wait for a vector.
    pub fn pending(&mut self, kind: EntryKind) -> Result<u64, IndexError> {
        // The partial index `items_pending` answers this without reading the items.
        let sql_text = format!("SELECT count(*) FROM items WHERE pending = 1 AND {}", of_kind(kind));
        database::count(self.conn()?, &sql_text, &[]).map(|n| n as u64)
    }
}
