//! `made-around`: the live memories of an entry's own scope made just before and just
//! after it. What was told in one sitting is stored together, and search reads a memory
//! beside what was stored around its best hits (`guest/src/nearby.rs`).
//!
//! The order is `recent`'s and `made-after`'s: `items.made`, equal moments in the order
//! first indexed (the rowid). Each side is two walks along `items_made` (scope, made,
//! rowid) from the entry, its own moment's and the others', each stopping at the count
//! asked for, past entries that are not live.

use crate::database::Value;
use crate::{Database, IndexError, SqliteIndex};

/// The memories of ?1's scope, live at ?2, made before it, nearest first, at most ?3. Those
/// of its own moment first, then the earlier ones: each part a seek along `items_made`
/// (scope, made, rowid), where one range over (made, rowid) would walk every entry of a
/// moment that many share (an import stores thousands at one).
pub(crate) const MADE_BEFORE: &str = "SELECT id FROM (
  SELECT * FROM (
    SELECT a.id, 0 AS part, -a.rowid AS o1, 0 AS o2 FROM items i JOIN items a ON a.scope = i.scope AND a.made = i.made
      WHERE i.id = ?1 AND i.record IS NOT NULL AND a.record IS NOT NULL AND a.rowid < i.rowid
        AND (a.lapses IS NULL OR a.lapses > ?2)
      ORDER BY a.rowid DESC LIMIT ?3)
  UNION ALL SELECT * FROM (
    SELECT a.id, 1 AS part, -a.made AS o1, -a.rowid AS o2 FROM items i JOIN items a ON a.scope = i.scope
      WHERE i.id = ?1 AND i.record IS NOT NULL AND a.record IS NOT NULL AND a.made < i.made
        AND (a.lapses IS NULL OR a.lapses > ?2)
      ORDER BY a.made DESC, a.rowid DESC LIMIT ?3)
) ORDER BY part, o1, o2 LIMIT ?3";

/// The memories of ?1's scope, live at ?2, made after it, nearest first, at most ?3: as
/// [`MADE_BEFORE`], the other way.
pub(crate) const MADE_AFTER_IT: &str = "SELECT id FROM (
  SELECT * FROM (
    SELECT a.id, 0 AS part, a.rowid AS o1, 0 AS o2 FROM items i JOIN items a ON a.scope = i.scope AND a.made = i.made
      WHERE i.id = ?1 AND i.record IS NOT NULL AND a.record IS NOT NULL AND a.rowid > i.rowid
        AND (a.lapses IS NULL OR a.lapses > ?2)
      ORDER BY a.rowid ASC LIMIT ?3)
  UNION ALL SELECT * FROM (
    SELECT a.id, 1 AS part, a.made AS o1, a.rowid AS o2 FROM items i JOIN items a ON a.scope = i.scope
      WHERE i.id = ?1 AND i.record IS NOT NULL AND a.record IS NOT NULL AND a.made > i.made
        AND (a.lapses IS NULL OR a.lapses > ?2)
      ORDER BY a.made ASC, a.rowid ASC LIMIT ?3)
) ORDER BY part, o1, o2 LIMIT ?3";

/// The most places asked for on either side: a search asks for a few dozen.
pub const MAX_PLACES: u32 = 256;

impl<D: Database> SqliteIndex<D> {
    /// For each of `ids`, in the order asked, the memories of its own scope live at `now`
    /// made up to `places` (at most [`MAX_PLACES`]) before it, nearest first, then those
    /// made up to `places` after it, nearest first; empty for an id not held as a memory.
    pub fn made_around(&mut self, ids: &[String], places: u32, now: i64) -> Result<Vec<Vec<String>>, IndexError> {
        let places = i64::from(places.min(MAX_PLACES));
        let db = self.conn()?;
        let mut all = Vec::with_capacity(ids.len());
        for id in ids {
            let mut around = Vec::new();
            if places > 0 {
                for walk in [MADE_BEFORE, MADE_AFTER_IT] {
                    db.query(
                        walk,
                        &[Value::Text(id), Value::Integer(now), Value::Integer(places)],
                        &mut |r| {
                            around.push(r.text(0)?.to_owned());
                            Ok(())
                        },
                    )?;
                }
            }
            all.push(around);
        }
        Ok(all)
    }
}
