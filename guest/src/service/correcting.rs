//! `correct`: the user fixes what a memory says. The new text is stored as a new memory
//! that replaces the old one, so `history` keeps both (seed 004's `correct_fact`).

use super::MemoryService;
use super::reading::not_found;
use super::superseding::Decided;
use super::validation::check_subjects;
use crate::api::{Added, Correction, Error, Memory, NewMemory};
use crate::judgment::{self, Verdict};
use crate::ports::Ports;
use crate::record::format_time;
use crate::scope::Caller;

impl<P: Ports> MemoryService<P> {
    /// See `correct` in `wit/memories.wit`.
    pub fn correct(&mut self, caller: &Caller, id: &str, correction: Correction) -> Result<Added, Error> {
        let now = self.now()?;
        if let Some(refs) = &correction.subjects {
            check_subjects(refs)?;
        }
        // Every live memory is a candidate for what the new text restates, so read it all.
        self.load()?;
        let id = self.visible_id(caller, id)?;
        let old = match self.memories.get(&id) {
            Some(r) if caller.can_see(r) => r.clone(),
            _ => return Err(not_found(&id)),
        };
        if !caller.can_delete(&old) {
            return Err(Error::Unauthorized(id));
        }
        if let Some(by) = &old.superseded_by_id {
            return Err(Error::InvalidInput(format!(
                "memory {id} was already replaced by {by}; correct that one instead"
            )));
        }
        let subjects = correction
            .subjects
            .clone()
            .unwrap_or_else(|| old.subject_person_ids.clone());
        let item = NewMemory {
            content: correction.content,
            memory_type: correction.memory_type.or(Some(old.memory_type)),
            expires_in_days: correction.expires_in_days,
            subjects: subjects.clone(),
            shared: old.chat_id.is_some(),
            source: Some("correction".to_owned()),
            observed_at: None,
            context: old.context.clone(),
            provenance: None,
        };
        // The scope is the old memory's: one the caller can see is personal to them or
        // shared in their chat, and `shared` follows it.
        let mut records = vec![self.new_record(caller, item, now)?];
        let vectors = self.embed_new(&mut records);
        let stamp = format_time(now);
        let subjects = vec![subjects];
        let people_writes = self.link_people(caller, &mut records, &subjects, &stamp)?;
        let context = self.rule_context(&records[0], &people_writes);
        let same_subjects = {
            let mut a = old.subject_person_ids.clone();
            let mut b = records[0].subject_person_ids.clone();
            a.sort();
            b.sort();
            a == b
        };
        if same_subjects && judgment::judge(&old.content, &records[0].content, &context) == Verdict::Same {
            // Nothing to correct: the memory already says it, and nothing is written.
            return Ok(Added {
                memories: vec![Memory::from(&old)],
                superseded: Vec::new(),
                evicted: Vec::new(),
                restated: vec![old.id],
            });
        }
        let mut replaced = old;
        replaced.superseded_at = Some(stamp);
        replaced.superseded_by_id = Some(records[0].id.clone());
        let decided = Decided {
            replaced: vec![replaced],
            ..Decided::default()
        };
        self.write_added(records, decided, people_writes, &vectors, now)
    }
}
