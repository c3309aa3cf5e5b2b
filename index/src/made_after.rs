//! `made-after`: the memory made next after one, in its own scope. A conversation stored
//! turn by turn keeps a question and the reply to it one after the other, and search finds
//! the reply to a question it found (`guest/src/replies.rs`).
//!
//! The order is `recent`'s: `items.made`, equal moments in the order first indexed (the
//! rowid). Each answer is at most two seeks along `items_made` (scope, made, rowid) from
//! the entry, its own moment's and then the later ones' within the window, past entries
//! that are not live; all the ids asked are answered by one statement, one call across
//! the sandbox in the index component.

use std::collections::HashMap;

use crate::database::Value;
use crate::{Database, IndexError, SqliteIndex};

/// For each memory of the JSON list ?1: its id and the id of the memory of its scope, live
/// at ?2, made next after it, at most ?3 later. The next of its own moment first, else the
/// first of a later one: each a seek along `items_made`, where one range over (made,
/// rowid) walks every entry of a moment that many share (an import stores thousands at one).
pub(crate) const MADE_AFTER: &str = "SELECT i.id, COALESCE(
    (SELECT a.id FROM items a
      WHERE a.scope = i.scope AND a.made = i.made AND a.rowid > i.rowid AND a.record IS NOT NULL
        AND (a.lapses IS NULL OR a.lapses > ?2)
      ORDER BY a.rowid ASC LIMIT 1),
    (SELECT a.id FROM items a
      WHERE a.scope = i.scope AND a.made > i.made AND a.made <= i.made + ?3 AND a.record IS NOT NULL
        AND (a.lapses IS NULL OR a.lapses > ?2)
      ORDER BY a.made ASC, a.rowid ASC LIMIT 1))
  FROM items i
  WHERE i.id IN (SELECT value FROM json_each(?1)) AND i.record IS NOT NULL AND i.made IS NOT NULL";

impl<D: Database> SqliteIndex<D> {
    /// For each of `ids`, in the order asked, the memory of its own scope, live at `now`,
    /// made next after it, if made at most `within` microseconds later; none for an id not
    /// held as a memory.
    pub fn made_after(&mut self, ids: &[String], now: i64, within: i64) -> Result<Vec<Option<String>>, IndexError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let asked = serde_json::to_string(ids).expect("a list of strings serializes");
        let mut found: HashMap<String, String> = HashMap::new();
        self.conn()?.query(
            MADE_AFTER,
            &[Value::Text(&asked), Value::Integer(now), Value::Integer(within.max(0))],
            &mut |r| {
                if let Some(next) = r.opt_text(1)? {
                    found.insert(r.text(0)?.to_owned(), next.to_owned());
                }
                Ok(())
            },
        )?;
        Ok(ids.iter().map(|id| found.get(id).cloned()).collect())
    }
}
