//! Keeping the index honest. The index is a cache of `memories.jsonl` that records which
//! state of the file it reflects (generation and end offset). Before every answer the
//! guest compares that with the file: equal means nothing to do; the same file grown
//! means replay only the lines written since (a crash between a file write and an index
//! write, or another process that wrote and died); anything else means rebuild.

use std::collections::HashSet;

use super::MemoryService;
use crate::api::Error;
use crate::collection;
use crate::marks;
use crate::ports::{Collection, EntryKind, FileState, IndexEntry, IndexError, IndexInfo, Level, Ports, Revision};
use crate::record::{MemoryRecord, encode_embedding};
use crate::vectors;

/// How many times a call reads the file again when the index is ahead of it, before it
/// takes the gap for a fault and rebuilds.
pub(super) const CATCH_UP_TRIES: usize = 3;

/// What came of replaying the file's tail into the index.
enum Replay {
    Done,
    /// The file holds more than the cache: another host wrote since the cache read it.
    FileGrew,
    /// The file is another generation, or shorter than the cache.
    FileChanged,
}

impl<P: Ports> MemoryService<P> {
    pub(crate) fn wanted_index(&self) -> IndexInfo {
        IndexInfo {
            model: self.ports.embedder_model(),
            dimension: self.ports.embedder_dimension(),
        }
    }

    /// Rebuilds the index when it is missing, corrupt or built by another model whose
    /// vectors the records can replace without embedding again, or that a local embedder
    /// can embed again for nothing; otherwise refuses to search with mixed vectors.
    pub(super) fn check_index_model(&mut self) -> Result<(), Error> {
        let want = self.wanted_index();
        let reason = match self.ports.index_info() {
            Err(IndexError::Unavailable(e)) => Some(format!("the index is unusable ({e})")),
            Err(e) => return Err(e.into()),
            Ok(None) if self.memories.is_empty() => {
                self.ports.index_clear(&want)?;
                return self.mark_index(self.memories.state());
            }
            Ok(None) => Some("the index is missing or empty".to_owned()),
            Ok(Some(have)) if have != want => {
                // Rebuilding is free when the stored vectors already fit the embedder, or
                // when the embedder is a model in the host; when a service would have to
                // embed them all again (possibly for a fee), that is the user's call.
                let stale = self
                    .memories
                    .iter()
                    .filter(|r| r.superseded_at.is_none() && !fits(r, &want))
                    .count();
                if stale > 0 && !self.ports.settings().local_embedder {
                    return Err(Error::Index(format!(
                        "the index was built by {} ({} dimensions) but the embedder is {} ({} dimensions); \
                         call rebuild-index to embed {stale} memories again",
                        have.model, have.dimension, want.model, want.dimension
                    )));
                }
                Some(format!(
                    "the index was built by {} and the embedder is {} ({stale} memories to embed again)",
                    have.model, want.model
                ))
            }
            Ok(Some(_)) => None,
        };
        if let Some(reason) = reason {
            self.ports
                .log(Level::Warn, &format!("{reason}: rebuilding it from memories.jsonl"));
            self.rebuild()?;
        }
        Ok(())
    }

    /// Compares the state the index reflects with the file's and closes the gap.
    ///
    /// Another host's write may commit between this call's read of the file and its
    /// read of the index (a write confined to other scopes runs beside this one): the
    /// index then reflects more than the cache holds, and the cache reads the rest
    /// before anything is replayed or rebuilt.
    pub(super) fn sync_index(&mut self) -> Result<(), Error> {
        for _ in 0..CATCH_UP_TRIES {
            if self.sync_index_once(true)? {
                return Ok(());
            }
            self.memories.refresh(&self.ports)?;
        }
        self.sync_index_once(false).map(drop)
    }

    /// One comparison; false, with nothing done, when the cache is behind the file the
    /// index reflects and `may_wait` (the caller reads the file and comes back).
    fn sync_index_once(&mut self, may_wait: bool) -> Result<bool, Error> {
        // Whatever this instance failed to index is in the gap, replayed or rebuilt here.
        self.index_behind = false;
        let current = self.memories.state();
        let reflects = match self.ports.index_reflects(EntryKind::Memory) {
            Ok(r) => r,
            Err(IndexError::Unavailable(e)) => {
                self.ports
                    .log(Level::Warn, &format!("the index is unusable ({e}): rebuilding it"));
                self.rebuild()?;
                return Ok(true);
            }
            Err(e) => return Err(e.into()),
        };
        match reflects {
            Some(s) if s == current => Ok(true),
            Some(s)
                if may_wait && self.memories.in_step() && s.generation == current.generation && s.end > current.end =>
            {
                Ok(false)
            }
            // The same file grown, or an empty file (a new home) that creating gave a new
            // generation: what was written since is all there is to replay.
            Some(s) if s.end == 0 || (s.generation == current.generation && s.end < current.end) => {
                match self.replay_tail(s)? {
                    Replay::Done => Ok(true),
                    Replay::FileGrew if may_wait => Ok(false),
                    Replay::FileGrew | Replay::FileChanged => self.rebuild().map(|_| true),
                }
            }
            Some(_) => {
                self.ports.log(
                    Level::Warn,
                    "the index does not reflect the current memories.jsonl: rebuilding it",
                );
                self.rebuild().map(|_| true)
            }
            None => {
                if !self.memories.is_empty() {
                    self.ports.log(
                        Level::Warn,
                        "the index reflects no known state of memories.jsonl: rebuilding it",
                    );
                }
                self.rebuild().map(|_| true)
            }
        }
    }

    /// Re-indexes every memory named by a line written after `from`, as its newest line
    /// has it now; or says that the file is not the cache's any more.
    fn replay_tail(&mut self, from: FileState) -> Result<Replay, Error> {
        let chunk = self.ports.read(Collection::Memories, from.end, Some(from.generation))?;
        let current = self.memories.state();
        let whole_file = from.end == 0;
        if chunk.generation != from.generation && !whole_file {
            return Ok(Replay::FileChanged);
        }
        if chunk.end != current.end {
            let grew = chunk.generation == current.generation && chunk.end > current.end;
            return Ok(if grew { Replay::FileGrew } else { Replay::FileChanged });
        }
        let mut ids = collection::ids_named::<MemoryRecord>(&chunk.data);
        // In the collection's order, as a rebuild indexes: an entry's place in `recent`
        // follows when it was first indexed, which must be where its id first appears.
        ids.sort_by_key(|id| self.memories.position(id));
        let want = self.wanted_index();
        let mut upserts = Vec::new();
        let mut removes = Vec::new();
        for id in ids {
            match self.memories.get(&id) {
                Some(r) if r.superseded_at.is_none() => {
                    let vector = fitting_vector(r, &want);
                    upserts.push(index_entry(r, vector));
                }
                _ => removes.push(id),
            }
        }
        self.ports.log(
            Level::Info,
            &format!(
                "the index was behind memories.jsonl: replayed {} line(s)",
                upserts.len() + removes.len()
            ),
        );
        // One removed and written again in the tail stands last in the collection: its entry
        // goes, so that it comes back indexed last too, not in its old place.
        let removed = collection::ids_removed(&chunk.data);
        let again: Vec<String> = upserts
            .iter()
            .map(|e| e.id.clone())
            .filter(|id| removed.contains(id))
            .collect();
        self.ports.index_remove(&again)?;
        self.ports.index_upsert(&upserts)?;
        self.ports.index_remove(&removes)?;
        self.mark_index(current)?;
        Ok(Replay::Done)
    }

    /// Records that the index reflects `state`, when the cache is known to match it.
    pub(crate) fn mark_index(&mut self, state: FileState) -> Result<(), Error> {
        self.mark_index_after(state, &HashSet::new())
    }

    /// `mark_index`, once the records this instance changed are in the index too, but
    /// for those in `done`, which the caller has just written or removed.
    fn mark_index_after(&mut self, state: FileState, done: &HashSet<&str>) -> Result<(), Error> {
        // After a failed index write, lines of this instance may be missing from the index:
        // it keeps the state it last reflected, and the next read replays from there.
        if !self.memories.in_step() || self.index_behind {
            return Ok(());
        }
        self.index_changed_records(done)?;
        self.ports.index_set_reflects(EntryKind::Memory, state)?;
        Ok(())
    }

    /// Brings the index's copy of each record this instance changed up to date: the
    /// record and marks of one still live, or its removal (a memory superseded, deleted or
    /// forgotten is never answered from the index). An access, a confirmation or a
    /// relinked person changes only those; what is searched by words or vector changed
    /// only where the caller upserted.
    fn index_changed_records(&mut self, done: &HashSet<&str>) -> Result<(), Error> {
        let changed = self.memories.take_changed();
        if changed.is_empty() {
            return Ok(());
        }
        let want = self.wanted_index();
        let mut revisions = Vec::new();
        let mut gone = Vec::new();
        for id in changed.into_iter().filter(|id| !done.contains(id.as_str())) {
            match self.memories.get(&id) {
                Some(r) if r.superseded_at.is_none() => revisions.push(Revision {
                    record: r.held_line(fits(r, &want)),
                    marks: marks::of(r),
                    id,
                }),
                // A partial cache holds only what it fetched and wrote: an id it lacks
                // says nothing about the memory.
                None if self.memories.is_partial() => {}
                _ => gone.push(id),
            }
        }
        self.ports.index_set_records(&revisions)?;
        self.ports.index_remove(&gone)?;
        Ok(())
    }

    /// After this call wrote to memories.jsonl: index what changed and record the new
    /// state. A failure here loses nothing; the next call sees the gap and closes it.
    pub(crate) fn index_written(&mut self, upserts: &[IndexEntry], removes: &[String]) {
        let state = self.memories.state();
        let done: HashSet<&str> = upserts
            .iter()
            .map(|e| e.id.as_str())
            .chain(removes.iter().map(String::as_str))
            .collect();
        let result = self
            .ports
            .index_upsert(upserts)
            .and_then(|()| self.ports.index_remove(removes))
            .map_err(Error::from)
            .and_then(|()| self.mark_index_after(state, &done));
        if let Err(e) = result {
            self.ports
                .log(Level::Warn, &format!("{e}; the index will catch up at the next call"));
            self.index_checked = false;
            self.index_behind = true;
        }
    }

    /// Embeds memories stored while the embedder was down, once per instance, and indexes
    /// their vectors. The embedder may be a remote service called without the home's
    /// lock, so the collection is read again afterwards and only memories that did not
    /// change meanwhile get the new vectors.
    pub(super) fn fill_pending(&mut self) -> Result<(), Error> {
        let pending: Vec<(String, String)> = self
            .memories
            .iter()
            .filter(|r| r.superseded_at.is_none() && r.embedding.is_none())
            .map(|r| (r.id.clone(), r.embedded_text()))
            .collect();
        if pending.is_empty() {
            return Ok(());
        }
        let texts: Vec<String> = pending.iter().map(|(_, c)| c.clone()).collect();
        let dimension = self.ports.embedder_dimension();
        let vectors = match self.ports.embed(&texts) {
            Ok(v) if v.len() == pending.len() => v,
            Ok(_) | Err(_) => return Ok(()),
        };
        self.memories.refresh(&self.ports)?;
        self.sync_index()?;
        let model = self.ports.embedder_model();
        let mut updated = Vec::new();
        for ((id, content), vector) in pending.into_iter().zip(vectors) {
            let Some(vector) = vectors::usable(vector, dimension) else {
                continue;
            };
            match self.memories.get(&id) {
                Some(r) if r.embedding.is_none() && r.superseded_at.is_none() && r.embedded_text() == content => {
                    let mut r = r.clone();
                    r.embedding = Some(encode_embedding(&vector));
                    r.embedding_model = Some(model.clone());
                    updated.push(r);
                }
                _ => {}
            }
        }
        if updated.is_empty() {
            return Ok(());
        }
        let n = updated.len();
        let entries: Vec<IndexEntry> = updated.iter().map(|r| index_entry(r, r.vector())).collect();
        self.memories.append(&self.ports, updated)?;
        self.index_written(&entries, &[]);
        self.ports.log(
            Level::Info,
            &format!("embedded {n} memories stored while the embedder was down"),
        );
        Ok(())
    }
}

/// Whether the record's stored vector can be indexed for `want` without embedding again:
/// made by the same model (or by an unrecorded one) at the same dimension, and usable.
pub(crate) fn fits(record: &MemoryRecord, want: &IndexInfo) -> bool {
    fitting_vector(record, want).is_some()
}

/// The record's stored vector, when it fits `want` (see `fits`): decoded once, for the
/// callers that index it.
pub(crate) fn fitting_vector(record: &MemoryRecord, want: &IndexInfo) -> Option<Vec<f32>> {
    let same_model = record.embedding_model.as_deref().is_none_or(|m| m == want.model);
    if !same_model {
        return None;
    }
    record.vector().and_then(|v| vectors::usable(v, want.dimension))
}

/// The index entry for a record.
pub(crate) fn index_entry(record: &MemoryRecord, embedding: Option<Vec<f32>>) -> IndexEntry {
    IndexEntry {
        kind: EntryKind::Memory,
        id: record.id.clone(),
        content: record.content.clone(),
        context: record.context.clone(),
        record: Some(record.held_line(embedding.is_some())),
        embedding,
        owner_user_id: record.owner_user_id.clone(),
        chat_id: record.chat_id.clone(),
        marks: marks::of(record),
    }
}
