//! `recent`: a scope's entries most recently made first (`items.made`), equal moments
//! the entry first indexed later first. An upsert of a held id updates its item in place,
//! keeping its rowid, and a new item's rowid is larger than every other's, so rowid order
//! is the order entries were first indexed in. Each scope is walked backwards along
//! `items_made` (scope, made, then the rowid every index entry ends with) and stops at the
//! limit; the scopes' lists are then merged.

use crate::database::{Database, Value, limited};
use crate::{Held, IndexError, ScopeFilter, SqliteIndex};

/// A scope's entries, most recently made first, live at ?2 unless it is null; the count
/// follows (`database::limited`).
pub(crate) const RECENT: &str = "SELECT made, rowid, id, record FROM items
     WHERE scope = ?1 AND record IS NOT NULL AND (?2 IS NULL OR lapses IS NULL OR lapses > ?2)
     ORDER BY made DESC, rowid DESC";

/// The most entries `recent` hands out.
pub const MAX_RECENT: u32 = 4096;

impl<D: Database> SqliteIndex<D> {
    /// The records of the `limit` entries within the scopes most recently made (at most
    /// `MAX_RECENT`), live at `now` when given.
    pub fn recent(&mut self, scope: &ScopeFilter, now: Option<i64>, limit: u32) -> Result<Vec<Held>, IndexError> {
        let scopes = scope.memory_keys();
        let limit = limit.min(MAX_RECENT) as usize;
        let vectors = self.readable()?;
        let db = self.conn()?;
        let mut found: Vec<(i64, i64, String, String)> = Vec::new();
        if limit > 0 {
            let sql = limited(RECENT, limit as i64);
            for s in &scopes {
                db.query(&sql, &[Value::Text(s), Value::from(now)], &mut |r| {
                    found.push((
                        r.opt_int(0)?.unwrap_or(0),
                        r.int(1)?,
                        r.text(2)?.to_owned(),
                        r.text(3)?.to_owned(),
                    ));
                    Ok(())
                })?;
            }
        }
        found.sort_by_key(|f| std::cmp::Reverse((f.0, f.1)));
        found.truncate(limit);
        self.with_vectors(
            found
                .into_iter()
                .map(|(_, rowid, id, record)| (rowid, id, record))
                .collect(),
            vectors,
        )
    }
}
