//! `made-around`: the live memories of an entry's own scope made just before and just
//! after it. What was told in one sitting is stored together, and search reads a memory
//! beside what was stored around its best hits (`guest/src/nearby.rs`).
//!
//! The order is `recent`'s and `made-after`'s: `items.made`, equal moments in the order
//! first indexed (the rowid). The entry is found once; then each side is two walks along
//! `items_made` (scope, made, rowid), its own moment's and the others', each a seek that
//! stops at the count asked for, past entries that are not live. One range over (made,
//! rowid) would walk every entry of a moment that many share (an import stores thousands
//! at one).

use crate::database::{Value, limited};
use crate::{Database, IndexError, SqliteIndex};

/// The scope, moment and rowid of ?1 held as a memory (with a record).
const WHERE_IT_IS: &str = "SELECT scope, made, rowid FROM items WHERE id = ?1 AND record IS NOT NULL";

/// One walk along `items_made` from an entry at (scope ?1, made ?2, rowid ?4), over what
/// is live at ?3, nearest first. The count ends the statement (`database::limited`). The
/// walks of other moments have no rowid and take three values: a statement whose numbers
/// skip one (?1, ?2, ?4) is refused by better-sqlite3, the JavaScript host's binding.
pub(crate) const WALKS: [&str; 4] = [
    // Before: its own moment's, then the earlier ones.
    "SELECT id FROM items WHERE scope = ?1 AND made = ?2 AND rowid < ?4 AND record IS NOT NULL
       AND (lapses IS NULL OR lapses > ?3) ORDER BY rowid DESC",
    "SELECT id FROM items WHERE scope = ?1 AND made < ?2 AND record IS NOT NULL
       AND (lapses IS NULL OR lapses > ?3) ORDER BY made DESC, rowid DESC",
    // After: its own moment's, then the later ones.
    "SELECT id FROM items WHERE scope = ?1 AND made = ?2 AND rowid > ?4 AND record IS NOT NULL
       AND (lapses IS NULL OR lapses > ?3) ORDER BY rowid ASC",
    "SELECT id FROM items WHERE scope = ?1 AND made > ?2 AND record IS NOT NULL
       AND (lapses IS NULL OR lapses > ?3) ORDER BY made ASC, rowid ASC",
];

/// The most places asked for on either side: a search asks for a few dozen.
pub const MAX_PLACES: u32 = 256;

impl<D: Database> SqliteIndex<D> {
    /// For each of `ids`, in the order asked, the memories of its own scope live at `now`
    /// made up to `places` (at most [`MAX_PLACES`]) before it, nearest first, then those
    /// made up to `places` after it, nearest first; empty for an id not held as a memory.
    pub fn made_around(&mut self, ids: &[String], places: u32, now: i64) -> Result<Vec<Vec<String>>, IndexError> {
        let places = places.min(MAX_PLACES);
        let walks = WALKS.map(|sql| limited(sql, i64::from(places)));
        let db = self.conn()?;
        let mut all = Vec::with_capacity(ids.len());
        for id in ids {
            let mut around = Vec::new();
            let mut at = None;
            if places > 0 {
                db.query(WHERE_IT_IS, &[Value::Text(id)], &mut |r| {
                    at = Some((r.text(0)?.to_owned(), r.opt_int(1)?, r.int(2)?));
                    Ok(())
                })?;
            }
            // An entry without a moment has no place in the order.
            if let Some((scope, Some(made), rowid)) = at {
                let from = [
                    Value::Text(&scope),
                    Value::Integer(made),
                    Value::Integer(now),
                    Value::Integer(rowid),
                ];
                for side in walks.chunks(2) {
                    let mut found = 0;
                    // Its own moment's, by rowid; then the others', without it.
                    for (sql, values) in side.iter().zip([&from[..], &from[..3]]) {
                        if found == places {
                            break;
                        }
                        db.query(sql, values, &mut |r| {
                            if found < places {
                                around.push(r.text(0)?.to_owned());
                                found += 1;
                            }
                            Ok(())
                        })?;
                    }
                }
            }
            all.push(around);
        }
        Ok(all)
    }
}
