//! `list` answered from the index: a caller's most recent memories are the index's most
//! recently made entries in their scope (`recent` in `wit/index.wit`), in the order
//! `list` gives over the whole file. Both order by when a memory was made, in whole
//! microseconds (`index_time::made`), equal moments last added first: the file by where a
//! memory's id first appears, the index by when its entry was first indexed, which the
//! guest keeps the same order (a rebuild and a replay index in file order, every later
//! write upserts what it appends in the order it appends, a memory written again keeps
//! its place in both, one removed and written again comes last in both).
//!
//! The index holds no superseded memory, so a list that includes them reads the file, as
//! does a list without a limit (it returns the whole collection anyway) or one whose type
//! is rarer than the most the index hands out at once (`MOST_ASKED`) can find.

use chrono::{DateTime, Utc};

use super::MemoryService;
use super::from_index::MOST_ASKED;
use crate::api::{Error, ListOptions, Memory};
use crate::index_time;
use crate::lifecycle;
use crate::ports::{Level, Ports};
use crate::record::MemoryRecord;
use crate::scope::Caller;

/// How many entries a list of one type asks for first, at least.
const FIRST_TYPED_ASK: u32 = 64;

impl<P: Ports> MemoryService<P> {
    /// The caller's list from the index, when it can stand in for the file (`from_index`);
    /// `None` when the file must be read.
    pub(super) fn list_from_index(
        &mut self,
        caller: &Caller,
        options: &ListOptions,
        now: DateTime<Utc>,
    ) -> Result<Option<Vec<Memory>>, Error> {
        let Some(limit) = options.limit.filter(|&l| l <= MOST_ASKED) else {
            return Ok(None);
        };
        if options.include_superseded || !self.adopt_index()? {
            return Ok(None);
        }
        let live_at = (!options.include_expired).then(|| index_time::micros(now));
        let mut ask = match options.memory_type {
            None => limit,
            Some(_) => limit.saturating_mul(8).clamp(FIRST_TYPED_ASK, MOST_ASKED),
        };
        loop {
            let held = match self.ports.index_recent(&caller.filter(), live_at, ask) {
                Ok(held) => held,
                // `list` never needed the index: in doubt, it reads the file.
                Err(e) => {
                    self.ports
                        .log(Level::Warn, &format!("{e}; listing from memories.jsonl"));
                    return Ok(None);
                }
            };
            let complete = held.len() < ask as usize;
            let ids: Vec<String> = held.iter().map(|h| h.id.clone()).collect();
            if !self.hold_held(held) {
                return Ok(None);
            }
            let found: Vec<&MemoryRecord> = ids
                .iter()
                .filter_map(|id| self.memories.get(id))
                .filter(|r| listed(r, caller, options, now))
                .take(limit as usize)
                .collect();
            if complete || found.len() == limit as usize {
                let end = self.memories.state().end;
                self.ports.log(
                    Level::Debug,
                    &format!("list: read from the index, which reflects memories.jsonl up to byte {end}"),
                );
                return Ok(Some(found.into_iter().map(Memory::from).collect()));
            }
            if ask >= MOST_ASKED {
                return Ok(None);
            }
            ask = ask.saturating_mul(8).min(MOST_ASKED);
        }
    }
}

/// Whether `list` shows this record to the caller with these options at `now`.
pub(super) fn listed(record: &MemoryRecord, caller: &Caller, options: &ListOptions, now: DateTime<Utc>) -> bool {
    caller.can_see(record)
        && options.memory_type.is_none_or(|t| record.memory_type == t)
        && (options.include_superseded || record.superseded_at.is_none())
        && (options.include_expired || !lifecycle::is_expired(record, now))
}
