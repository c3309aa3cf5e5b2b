//! The records the index keeps beside each memory's text and vector (`items.record`), so
//! that a call can answer from the index without reading `memories.jsonl`; and how many
//! entries still wait for a vector (`items.pending`), which tells the guest whether a
//! call must read the collection to fill them. Their marks are `marks`'s.

use std::collections::HashMap;

use crate::database::{self, Database, Value};
use crate::{EntryKind, Held, IndexError, Revision, SqliteIndex, marks, of_kind};

/// Refuses an index whose tables predate records, marks, observed or made moments, or a
/// context searched apart: it is cleared and rebuilt, and rebuilding fills them.
pub(crate) fn check_columns(db: &mut dyn Database) -> Result<(), IndexError> {
    let present = database::count(
        db,
        "SELECT (SELECT count(*) FROM pragma_table_info('items')
                 WHERE name IN ('record', 'pending', 'lapses', 'keys', 'observed', 'made'))
              + (SELECT count(*) FROM pragma_table_info('marks') WHERE name IN ('observed', 'id'))
              + (SELECT count(*) FROM pragma_table_info('fts') WHERE name = 'context')",
        &[],
    )?;
    if present != 9 {
        return Err(IndexError::Unavailable(
            "the index was built by an older version, which kept no records, marks, moments or contexts apart: it is rebuilt".into(),
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
        let vectors = self.readable()?;
        let db = self.conn()?;
        // Every id's row in one statement, then taken in the order asked.
        let asked = serde_json::to_string(ids).expect("a list of strings serializes");
        let rows: HashMap<String, (i64, Option<String>)> = database::rows(
            db,
            "SELECT id, rowid, record FROM items WHERE id IN (SELECT value FROM json_each(?1))",
            &[Value::Text(&asked)],
            |r| Ok((r.text(0)?.to_owned(), (r.int(1)?, r.opt_text(2)?.map(str::to_owned)))),
        )?
        .into_iter()
        .collect();
        let mut found = Vec::with_capacity(ids.len());
        for id in ids {
            // An id asked twice is answered twice, as before.
            if let Some((rowid, Some(record))) = rows.get(id).cloned() {
                found.push((rowid, id.clone(), record));
            }
        }
        self.with_vectors(found, vectors)
    }

    /// (rowid, id, record) as held, each with its vector when it has one.
    /// `vectors_kept` is the layout's, as the caller's `readable` found it.
    pub(crate) fn with_vectors(
        &mut self,
        found: Vec<(i64, String, String)>,
        vectors_kept: bool,
    ) -> Result<Vec<Held>, IndexError> {
        let db = self.conn()?;
        let mut embeddings: Vec<Option<Vec<f32>>> = vec![None; found.len()];
        if vectors_kept && !found.is_empty() {
            // One statement for every vector, each looked up by rowid (a correlated
            // subquery: sqlite-vec scans the whole table for `rowid IN (...)`).
            let rowids = crate::json_list(found.iter().map(|(rowid, ..)| rowid));
            db.query(
                "SELECT j.key, (SELECT embedding FROM vecs WHERE rowid = j.value) FROM json_each(?1) j",
                &[Value::Text(&rowids)],
                &mut |r| {
                    if let (Some(slot), Some(bytes)) = (embeddings.get_mut(r.int(0)? as usize), r.opt_blob(1)?) {
                        *slot = Some(floats(bytes));
                    }
                    Ok(())
                },
            )?;
        }
        Ok(found
            .into_iter()
            .zip(embeddings)
            .map(|((_, id, record), embedding)| Held { id, record, embedding })
            .collect())
    }

    /// Replaces the record and marks of entries already held, in one transaction; unknown
    /// ids are ignored.
    pub fn set_records(&mut self, revisions: &[Revision]) -> Result<(), IndexError> {
        if revisions.is_empty() {
            return Ok(());
        }
        self.db.fault_point("index:upsert")?;
        self.live.clear();
        self.refresh()?.columns.clone()?;
        let revisions = crate::write::last_of_each(revisions, |r| &r.id);
        database::transaction(self.conn()?, |db| {
            let ids: Vec<String> = revisions.iter().map(|r| r.id.clone()).collect();
            let held = marks::find_all(db, &ids)?;
            let keys: Vec<String> = revisions.iter().map(|r| marks::keys_json(&r.marks)).collect();
            let (mut set, mut remarks) = (Vec::new(), Vec::new());
            for (r, keys) in revisions.iter().zip(&keys) {
                let Some((rowid, old)) = held.get(r.id.as_str()) else {
                    continue;
                };
                set.extend([
                    Value::Integer(*rowid),
                    Value::Text(&r.record),
                    Value::from(r.marks.lapses),
                    Value::Text(keys),
                    Value::Integer(r.marks.observed),
                    Value::Integer(r.marks.made),
                ]);
                remarks.push(marks::Remark {
                    rowid: *rowid,
                    id: &r.id,
                    old: Some(old),
                    scope: &old.scope,
                    keys,
                    marks: &r.marks,
                });
            }
            db.execute_each(
                "UPDATE items SET record = ?2, lapses = ?3, keys = ?4, observed = ?5, made = ?6 WHERE rowid = ?1",
                6,
                &set,
            )?;
            marks::remark(db, &remarks)
        })
    }

    /// How many entries of this kind wait for a vector.
    pub fn pending(&mut self, kind: EntryKind) -> Result<u64, IndexError> {
        // The partial index `items_pending` answers this without reading the items.
        let sql_text = format!("SELECT count(*) FROM items WHERE pending = 1 AND {}", of_kind(kind));
        database::count(self.conn()?, &sql_text, &[]).map(|n| n as u64)
    }
}
