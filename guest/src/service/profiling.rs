//! `profile`: the user's profile notes (`crate::conversation::profile`).

use super::MemoryService;
use crate::api::{Error, Profile};
use crate::conversation::profile::assemble;
use crate::lifecycle;
use crate::memory_type::MemoryType;
use crate::ports::Ports;
use crate::scope::Caller;

impl<P: Ports> MemoryService<P> {
    /// See `profile` in `wit/conversations.wit`.
    pub fn profile(&mut self, caller: &Caller) -> Result<Profile, Error> {
        if caller.user_id.is_none() {
            return Err(Error::InvalidInput(
                "a profile belongs to a user, and the caller has none".into(),
            ));
        }
        self.load()?;
        Ok(self.profile_of(caller))
    }

    /// The profile from the cached memories: the user's live personal ones.
    pub(crate) fn profile_of(&self, caller: &Caller) -> Profile {
        let Some(user) = caller.user_id.as_deref() else {
            return Profile::default();
        };
        let Ok(now) = self.now() else {
            return Profile::default();
        };
        // A preference about someone else ("She likes Italian food", about Sarah) is
        // theirs, not the user's; a relationship names the people it is about.
        let (notes, memory_ids) = assemble(self.memories.iter().filter(|r| {
            r.owner_user_id.as_deref() == Some(user)
                && r.chat_id.is_none()
                && (r.subject_person_ids.is_empty() || r.memory_type == MemoryType::Relationship)
                && lifecycle::is_live(r, now)
        }));
        Profile { notes, memory_ids }
    }
}
