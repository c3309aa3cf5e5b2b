//! Answering a search or an add from the index, without reading `memories.jsonl`: the
//! index keeps each live memory's record beside its text and vector, and records which
//! state of the file it reflects. When that state is the file's own (nothing appended
//! since, no rewrite) and no memory waits for a vector, a new instance (one CLI process)
//! fetches only the records it needs: a search's hits, an add's supersession candidates.
//! `show`, `delete` and `confirm` of a memory named by its whole id fetch that one record.
//! A search about a person or naming an entity fetches those memories by their marks
//! (`marked`); a context and a profile the newest holders of theirs (`newest`); a list
//! with a limit the caller's most recent memories (`recent`). A call that needs the whole
//! collection (an add under `max_entries`, an id prefix) reads it, as every other call
//! does.
//!
//! Whatever is in doubt reads the whole file: an index of an older version (no records),
//! another model, a tail written since, pending embeddings, a hit the index holds no
//! record for. So the answer is the one the whole collection would give.

use super::MemoryService;
use crate::api::Error;
use crate::ports::{Collection, EntryKind, FileState, Held, Level, Ports};
use crate::record::MemoryRecord;
use crate::scope::Caller;

/// The most entries a host hands out for one key or scope (`newest`'s and `recent`'s cap,
/// which hosts never lower).
pub(super) const MOST_ASKED: u32 = 4096;

impl<P: Ports> MemoryService<P> {
    /// Makes the collections ready for a call that reads memories by id only: people
    /// always, memories as a partial cache when the index can stand in for the file (see
    /// the module's doc), else whole.
    pub(crate) fn load_as_needed(&mut self) -> Result<(), Error> {
        if self.adopt_index()? {
            Ok(())
        } else {
            self.load().map(drop)
        }
    }

    /// Makes memories a partial cache when the index can stand in for the file (see the
    /// module's doc), people read whole; false, with nothing read, when it cannot or when
    /// this instance's whole cache is in step (a warm instance: reading what was appended
    /// is cheap).
    pub(super) fn adopt_index(&mut self) -> Result<bool, Error> {
        if !self.memories.is_partial() && self.memories.in_step() {
            return Ok(false);
        }
        let Some(state) = self.index_stands_for_file()? else {
            return Ok(false);
        };
        if self.refresh_people()? {
            // A purge finished here rewrote the files the index stood for.
            return Ok(false);
        }
        self.memories.adopt(state);
        // The index has every line up to `state`, whatever this instance failed to write
        // to it before.
        self.index_behind = false;
        Ok(true)
    }

    /// The file's state, when the index reflects exactly it with every record and vector
    /// in. Costs a few index reads and one read of the file's tail, which is empty.
    pub(super) fn index_stands_for_file(&self) -> Result<Option<FileState>, Error> {
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

    /// The memory `reference` names, fetched from the index into a partial cache: when the
    /// index can stand in for the file, `reference` is a whole id, and the index holds
    /// that live memory for this caller to see. `None` otherwise (a prefix, a memory the
    /// index does not hold because it was superseded or removed, another caller's, an
    /// index in doubt): the caller then reads the whole collection and resolves the
    /// reference there, so that every answer, errors included, is the whole file's.
    pub(crate) fn held_by_id(&mut self, caller: &Caller, reference: &str, call: &str) -> Result<Option<String>, Error> {
        let id = reference.trim();
        if !self.adopt_index()? || !self.hold_records(&[id.to_owned()])? {
            return Ok(None);
        }
        if !self.memories.get(id).is_some_and(|r| caller.can_see(r)) {
            return Ok(None);
        }
        let end = self.memories.state().end;
        self.ports.log(
            Level::Debug,
            &format!("{call}: read from the index, which reflects memories.jsonl up to byte {end}"),
        );
        Ok(Some(id.to_owned()))
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
        let complete = held.len() == missing.len();
        Ok(self.hold_held(held) && complete)
    }

    /// Brings records the index holds into a partial cache. False when one does not read
    /// (or is another memory's): the caller then reads the whole file.
    pub(crate) fn hold_held(&mut self, held: Vec<Held>) -> bool {
        let mut records = Vec::with_capacity(held.len());
        for h in held {
            match MemoryRecord::from_held(&h.record, h.embedding.as_deref()) {
                Ok(record) if record.id == h.id => records.push(record),
                Ok(_) | Err(_) => {
                    self.ports.log(
                        Level::Warn,
                        &format!("the index's record of {} does not read: reading memories.jsonl", h.id),
                    );
                    return false;
                }
            }
        }
        self.memories.hold(records);
        true
    }
}
