//! The fifth list of `search`: the memories of the day or the days a query names ("What
//! was Sam doing on December 4, 2023?", "Where was John between August 11 and August 15?"),
//! closest to the query first. The answer to such a question often shares no word with it
//! ("Yesterday I met some incredible artists in Boston", said on the 4th) and its meaning
//! is far from a question that is mostly a date, so neither the vector nor the full-text
//! list brings it; weighing up the hits of the time (`TIME_WEIGHT`) cannot raise a memory
//! no list found. A month or a year is left to that weight: its memories are whole
//! conversations (figures: docs/judgment.md).

use chrono::{DateTime, Utc};

use super::MemoryService;
use super::searching::closest_first;
use crate::lifecycle;
use crate::period::Period;
use crate::ports::Ports;
use crate::scope::Caller;

impl<P: Ports> MemoryService<P> {
    /// The caller's live memories of `period` (`Period::covers`), closest to
    /// `query_vector` first ([`closest_first`]); at most `depth`. Empty unless the period
    /// is a day or a stretch of days. Walks the whole cache: `search` reads the whole
    /// collection first, since no mark in the index names the days a memory tells of.
    pub(super) fn named_days(
        &self,
        caller: &Caller,
        period: Option<&Period>,
        query_vector: Option<&[f32]>,
        depth: usize,
        now: DateTime<Utc>,
    ) -> Vec<String> {
        let Some(period) = period.filter(|p| p.is_days()) else {
            return Vec::new();
        };
        let of_then = self
            .memories
            .cached()
            // Whether it is of the days first: most memories are not, and liveness reads
            // their times.
            .filter(|r| caller.can_see(r) && r.superseded_at.is_none())
            .filter(|r| period.covers(r, r.entities.as_deref()))
            .filter(|r| lifecycle::is_live(r, now));
        closest_first(of_then, query_vector)
            .into_iter()
            .take(depth)
            .map(|(id, _)| id)
            .collect()
    }
}
