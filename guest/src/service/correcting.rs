//! `correct`: the user fixes what a memory says. The new text is stored as a new memory
//! that replaces the old one, so `history` keeps both (seed 004's `correct_fact`).

use super::MemoryService;
use super::superseding::Decided;
use super::validation::check_subjects;
use crate::api::{Added, Correction, Error, Memory, NewMemory};
use crate::judgment::{self, Verdict};
use crate::ports::Ports;
use crate::record::{MemoryRecord, format_time};
use crate::scope::Caller;

impl<P: Ports> MemoryService<P> {
    /// See `correct` in `wit/memories.wit`.
    pub fn correct(&mut self, caller: &Caller, id: &str, correction: Correction) -> Result<Added, Error> {
        let first = self.now()?;
        if let Some(refs) = &correction.subjects {
            check_subjects(refs)?;
        }
        let old = self.correctable(caller, id)?;
        // Only the text is judged: a new type or lifetime is a correction even when the
        // words stay (the memory browser changes a type by correcting with the same text).
        let same_kind =
            correction.memory_type.is_none_or(|t| t == old.memory_type) && correction.expires_in_days.is_none();
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
        let mut records = vec![self.new_record(caller, item.clone(), first)?];
        let vectors = self.embed_new(&mut records);
        // A remote embedder is asked without the home's lock: read again, and correct the
        // memory only as it was when the correction was built.
        let again = self.correctable(caller, &old.id)?;
        if !same_as_judged(&again, &old) {
            return Err(Error::InvalidInput(format!(
                "memory {} changed while it was being corrected; nothing was written",
                old.id
            )));
        }
        let now = self.stamp_again(&[item], &mut records, first)?;
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
        if same_kind && same_subjects && judgment::judge(&old.content, &records[0].content, &context) == Verdict::Same {
            // Nothing to correct: the memory already says it, and nothing is written.
            return Ok(Added {
                memories: vec![Memory::from(&again)],
                superseded: Vec::new(),
                evicted: Vec::new(),
                restated: vec![again.id],
            });
        }
        // The memory as read again: what another process recorded meanwhile (a
        // confirmation, an observation) stays in the line that replaces it.
        let mut replaced = again;
        replaced.superseded_at = Some(stamp);
        replaced.superseded_by_id = Some(records[0].id.clone());
        let decided = Decided {
            replaced: vec![replaced],
            ..Decided::default()
        };
        self.write_added(records, decided, people_writes, &vectors, now)
    }

    /// The memory `id` names, if the caller may correct it: visible, theirs to change (as
    /// for `delete`), and not already replaced. Read from the index when it can stand in
    /// for the file.
    fn correctable(&mut self, caller: &Caller, id: &str) -> Result<MemoryRecord, Error> {
        // Eviction beyond `max_entries` counts every memory of the scope: read them all.
        if self.ports.settings().max_entries.is_some() {
            self.load()?;
        }
        let old = self.changeable(caller, id, "correct")?;
        if let Some(by) = &old.superseded_by_id {
            return Err(Error::InvalidInput(format!(
                "memory {id} was already replaced by {by}; correct that one instead"
            )));
        }
        Ok(old)
    }
}

/// Whether a memory still says what a correction was built on: its text, type, subjects,
/// and that nothing replaced it (an access or a confirmation meanwhile does not matter).
fn same_as_judged(now: &MemoryRecord, then: &MemoryRecord) -> bool {
    now.content == then.content
        && now.memory_type == then.memory_type
        && now.subject_person_ids == then.subject_person_ids
        && now.superseded_by_id == then.superseded_by_id
}
