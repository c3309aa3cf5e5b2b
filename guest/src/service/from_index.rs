//! Answering a search or an add from the index, without reading `memories.jsonl`: the
//! index keeps each live memory's record beside its text and vector, and records which
//! state of the file it reflects. When that state is the file's own (nothing appended
//! since, no rewrite) and no memory waits for a vector, a new instance (one CLI process)
//! fetches only the records it needs: a search's hits, an add's supersession candidates.
//! A call that needs the whole collection (a search about a person or naming an entity,
//! an add under `max_entries`) reads it, as every other call does.
//!
//! Whatever is in doubt reads the whole file: an index of an older version (no records),
//! another model, a tail written since, pending embeddings, a hit the index holds no
//! record for. So the answer is the one the whole collection would give.

use super::MemoryService;
use crate::api::Error;
use crate::ports::{Collection, EntryKind, FileState, Level, Ports};
use crate::record::MemoryRecord;

impl<P: Ports> MemoryService<P> {
    /// Makes the collections ready for a call that reads memories by id only: people
    /// always, memories as a partial cache when the index can stand in for the file (see
    /// the module's doc), else whole.
    pub(crate) fn load_as_needed(&mut self) -> Result<(), Error> {
        if !self.memories.is_partial() && self.memories.in_step() {
            // A warm instance: reading what was appended is cheap.
            return self.load().map(drop);
        }
        match self.index_stands_for_file()? {
            Some(state) => {
                self.people.refresh(&self.ports)?;
                self.memories.adopt(state);
                // The index has every line up to `state`, whatever this instance failed to
                // write to it before.
                self.index_behind = false;
                Ok(())
            }
            None => self.load().map(drop),
        }
    }

    /// The file's state, when the index reflects exactly it with every record and vector
    /// in. Costs a few index reads and one read of the file's tail, which is empty.
    fn index_stands_for_file(&self) -> Result<Option<FileState>, Error> {
        let Ok(Some(info)) = self.ports.index_info() else {
            return Ok(None);
        };
        if info != self.wanted_index() {
            return Ok(None);
        }
        let Ok(Some(reflects)) = self.ports.index_reflects(EntryKind::Memory) else {
            return Ok(None);
        };
        if reflects.end == 0 {
            // A new home: the whole file is nothing to read.
            return Ok(None);
        }
        let tail = self
            .ports
            .read(Collection::Memories, reflects.end, Some(reflects.generation))?;
        if tail.generation != reflects.generation || tail.end != reflects.end || !tail.data.is_empty() {
            return Ok(None);
        }
        if self.ports.index_pending(EntryKind::Memory).map_or(true, |n| n > 0) {
            return Ok(None);
        }
        Ok(Some(reflects))
    }

    /// Brings the records of these ids into a partial cache. False when the index holds
    /// no record for one of them: the caller then reads the whole file.
    pub(crate) fn hold_records(&mut self, ids: &[String]) -> Result<bool, Error> {
        let mut seen = std::collections::HashSet::new();
        let missing: Vec<String> = ids
            .iter()
            .filter(|id| self.memories.get(id).is_none() && seen.insert(id.as_str()))
            .cloned()
            .collect();
        if missing.is_empty() {
            return Ok(true);
        }
        let held = self.ports.index_fetch(&missing)?;
        let mut records = Vec::with_capacity(held.len());
        for h in held {
            match MemoryRecord::from_held(&h.record, h.embedding.as_deref()) {
                Ok(record) if record.id == h.id => records.push(record),
                Ok(_) | Err(_) => {
                    self.ports.log(
                        Level::Warn,
                        &format!("the index's record of {} does not read: reading memories.jsonl", h.id),
                    );
                    return Ok(false);
                }
            }
        }
        let complete = records.len() == missing.len();
        self.memories.hold(records);
        Ok(complete)
    }
}
