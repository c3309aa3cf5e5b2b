//! `profile`: the user's profile notes (`crate::conversation::profile`).

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::{Error, Profile};
use crate::context::told;
use crate::conversation::profile::{is_candidate, ordered, pick};
use crate::index_time;
use crate::lifecycle;
use crate::ports::Ports;
use crate::record::MemoryRecord;
use crate::scope::Caller;

impl<P: Ports> MemoryService<P> {
    /// See `profile` in `wit/conversations.wit`.
    pub fn profile(&mut self, caller: &Caller) -> Result<Profile, Error> {
        if caller.user_id.is_none() {
            return Err(Error::InvalidInput(
                "a profile belongs to a user, and the caller has none".into(),
            ));
        }
        let now = index_time::whole_micros(self.now()?);
        self.load_as_needed()?;
        self.begin_walk()?;
        self.hold_profile(caller, now)?;
        Ok(self.profile_of(caller, now))
    }

    /// The profile from the cached memories: the user's live personal ones.
    pub(crate) fn profile_of(&self, caller: &Caller, now: DateTime<Utc>) -> Profile {
        let candidates = self.profile_candidates(caller, now);
        let picked = pick(candidates.iter().copied());
        // "Today's my birthday!" read a month on needs the day it was said. The notes come
        // in the candidates' order, so one walk finds each note's record.
        let mut records = candidates.iter();
        let notes = picked
            .notes
            .into_iter()
            .zip(&picked.ids)
            .map(|(note, id)| {
                let said = records
                    .find(|r| &r.id == id)
                    .and_then(|r| DateTime::from_timestamp_micros(index_time::observed(r)));
                match said {
                    Some(said) => told::with_day(&note, said, now.date_naive()),
                    None => note,
                }
            })
            .collect();
        Profile {
            notes,
            memory_ids: picked.ids,
        }
    }

    /// The cached memories a profile of the caller's user may hold at `now`, in the
    /// profile's order.
    pub(crate) fn profile_candidates(&self, caller: &Caller, now: DateTime<Utc>) -> Vec<&MemoryRecord> {
        let Some(user) = caller.user_id.as_deref() else {
            return Vec::new();
        };
        // A partial cache holds, and a walk names, what `hold_profile` fetched.
        ordered(
            self.walked()
                .filter(|r| r.owner_user_id.as_deref() == Some(user) && is_candidate(r) && lifecycle::is_live(r, now)),
        )
    }
}
