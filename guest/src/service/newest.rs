//! A context block and a profile answered from the index: besides a search's hits, they
//! walk the caller's newest reflection and the memories their profile's notes come from.
//! When the index stands in for the file
//! (`from_index`), those are fetched into the partial cache by their marks, newest first
//! (`newest` in `wit/index.wit`), and the same walk over the cache then gives the answer
//! the whole collection would: the cache holds only records of the collection, and it
//! holds every one the walk could pick. The second rests on the index handing out every live
//! holder of a key up to the limit asked: every memory's entry carries its record (an index
//! of a version that kept none is rebuilt first), and hosts cap the limit at `MOST_ASKED`,
//! never lower. The context ranks the caller's people by when each was last talked about
//! without a walk: the index's moments alone (`people_moments`), which are the ones the
//! walk would read, the marks being written from the same records.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::MemoryService;
use super::from_index::MOST_ASKED;
use crate::api::Error;
use crate::conversation::profile::{MAX_NOTES, ORDER, pick, rank};
use crate::index_time;
use crate::marks;
use crate::memory_type::MemoryType;
use crate::people::PersonRecord;
use crate::ports::{Held, Level, Ports};
use crate::scope::Caller;

/// How many memories of each profile type are asked for first: twice the notes, so that
/// notes repeating one another rarely make a second ask.
const FIRST_PROFILE_ASK: u32 = 2 * MAX_NOTES as u32;

impl<P: Ports> MemoryService<P> {
    /// Brings into a partial cache the caller's newest live personal reflection (with a
    /// whole cache and a walk, names it for the walk). Does nothing when the whole
    /// collection is walked.
    pub(super) fn hold_newest_for_context(&mut self, caller: &Caller, now: DateTime<Utc>) -> Result<(), Error> {
        if !self.memories.is_partial() && self.walk.is_none() {
            return Ok(());
        }
        let keys = [marks::REFLECTION.to_owned()];
        if self.walk.is_some() {
            let lists = self.newest_ids(&keys, caller, now, 1)?;
            self.walk_through(lists.into_iter().flatten());
            return Ok(());
        }
        let lists = self.newest(&keys, caller, now, 1)?;
        self.hold_or_load(lists.into_iter().flatten().collect())?;
        Ok(())
    }

    /// Brings into a partial cache every memory the profile of the caller's user picks
    /// from at `now`: each type's newest, more of them until the notes are made (or the
    /// type has no more); with a whole cache and a walk, names them for the walk. Does
    /// nothing when the whole collection is walked.
    pub(crate) fn hold_profile(&mut self, caller: &Caller, now: DateTime<Utc>) -> Result<(), Error> {
        if (!self.memories.is_partial() && self.walk.is_none()) || caller.user_id.is_none() {
            return Ok(());
        }
        let keys: Vec<String> = ORDER.iter().map(|t| marks::profile(*t)).collect();
        let mut limit = FIRST_PROFILE_ASK;
        loop {
            // A whole cache holds them already: only their ids are asked for.
            let (ids, held) = if self.walk.is_some() {
                (self.newest_ids(&keys, caller, now, limit)?, None)
            } else {
                let lists = self.newest(&keys, caller, now, limit)?;
                let ids = lists.iter().map(|l| l.iter().map(|h| h.id.clone()).collect()).collect();
                (ids, Some(lists.into_iter().flatten().collect()))
            };
            // The last memory of each type the host cut at `limit`: past it, that type's
            // memories are not all cached.
            let cuts: Vec<(MemoryType, String)> = ORDER
                .iter()
                .zip(&ids)
                .filter(|(_, list)| list.len() >= limit as usize)
                .filter_map(|(t, list)| Some((*t, list.last()?.clone())))
                .collect();
            let named = match held {
                Some(held) => self.hold_or_load(held)?,
                None => self.walk_through(ids.into_iter().flatten()),
            };
            if !named {
                return Ok(());
            }
            if self.profile_is_whole(caller, now, &cuts) {
                let how = if self.walk.is_some() {
                    "walked the memories the index's marks name"
                } else {
                    "read from the index"
                };
                self.ports.log(
                    Level::Debug,
                    &format!("profile: {how}, {limit} memories of each type at most"),
                );
                return Ok(());
            }
            if limit >= MOST_ASKED {
                // Every cached memory, walked.
                self.walk = None;
                self.load()?;
                return Ok(());
            }
            limit = (limit * 8).min(MOST_ASKED);
        }
    }

    /// Whether the profile the cache gives is the whole collection's, when each cut type's
    /// memories are cached up to its cut: the notes filled up before the walk went past
    /// any cut.
    fn profile_is_whole(&self, caller: &Caller, now: DateTime<Utc>, cuts: &[(MemoryType, String)]) -> bool {
        if cuts.is_empty() {
            return true;
        }
        let candidates = self.profile_candidates(caller, now);
        let picked = pick(candidates.iter().copied());
        // The walk ran out of cached memories unless the notes filled: the cut types may
        // have more.
        let full = picked.notes.len() == MAX_NOTES;
        let Some(last) = picked
            .read
            .checked_sub(1)
            .filter(|_| full)
            .and_then(|i| rank(candidates[i]))
        else {
            return false;
        };
        cuts.iter().all(|(t, id)| {
            self.memories
                .get(id)
                .filter(|r| r.memory_type == *t)
                .and_then(rank)
                .is_some_and(|cut| last <= cut)
        })
    }

    /// The newest `limit` live holders of each key within the caller's scope, as the index
    /// hands them out.
    fn newest(
        &self,
        keys: &[String],
        caller: &Caller,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<Vec<Held>>, Error> {
        let lists = self
            .ports
            .index_newest(keys, &caller.filter(), index_time::micros(now), limit)?;
        one_list_a_key(lists, keys)
    }

    /// `newest`'s lists, ids only: for a whole cache, which holds the records already.
    fn newest_ids(
        &self,
        keys: &[String],
        caller: &Caller,
        now: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, Error> {
        let lists = self
            .ports
            .index_newest_ids(keys, &caller.filter(), index_time::micros(now), limit)?;
        one_list_a_key(lists, keys)
    }

    /// When the newest live memory the caller may see about each of `people` was observed
    /// (`index_time::observed`), from the index's marks when it stands in for the file or
    /// names what a walk reads: the moment the walk of the whole collection would find,
    /// without a record or a vector (fetching each person's newest memory for it was 3.5
    /// of a CLI context's 31 ms at 100,000 memories and 200 people). None when the whole
    /// collection is walked: the caller walks it. `now` in whole microseconds, as the
    /// index compares expiries (a finer one could find live what the walk finds lapsed).
    pub(super) fn people_moments(
        &self,
        caller: &Caller,
        people: &[&PersonRecord],
        now: DateTime<Utc>,
    ) -> Result<Option<HashMap<String, i64>>, Error> {
        if !self.memories.is_partial() && self.walk.is_none() {
            return Ok(None);
        }
        if people.is_empty() {
            return Ok(Some(HashMap::new()));
        }
        let keys: Vec<String> = people.iter().map(|p| marks::subject(&p.id)).collect();
        let moments = self
            .ports
            .index_newest_moments(&keys, &caller.filter(), index_time::micros(now))?;
        if moments.len() != keys.len() {
            return Err(Error::Index(format!(
                "the index gave the moments of {} keys for {} asked",
                moments.len(),
                keys.len()
            )));
        }
        Ok(Some(
            people
                .iter()
                .zip(moments)
                .filter_map(|(p, at)| Some((p.id.clone(), at?)))
                .collect(),
        ))
    }

    /// Holds these records in the partial cache; when one does not read, reads the whole
    /// collection instead and says false.
    fn hold_or_load(&mut self, held: Vec<Held>) -> Result<bool, Error> {
        if self.hold_held(held) {
            Ok(true)
        } else {
            self.load()?;
            Ok(false)
        }
    }
}

/// The index's lists of the newest holders, refused unless there is one for each key asked.
fn one_list_a_key<T>(lists: Vec<Vec<T>>, keys: &[String]) -> Result<Vec<Vec<T>>, Error> {
    if lists.len() != keys.len() {
        return Err(Error::Index(format!(
            "the index gave the newest of {} keys for {} asked",
            lists.len(),
            keys.len()
        )));
    }
    Ok(lists)
}
