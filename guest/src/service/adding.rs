//! `add` and `add_batch`: validate, embed, link people, supersede, then write it all and
//! evict beyond `max_entries`. The rules that refuse a memory are in `validation`, the
//! supersession decision in `superseding`.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::MemoryService;
use super::index_sync::index_entry;
use super::superseding::Decided;
use super::validation::check_subjects;
use crate::api::{Added, Error, Memory, NewMemory};
use crate::people::PersonRecord;
use crate::ports::{IndexEntry, Level, Ports};
use crate::record::{MemoryRecord, encode_embedding, format_time};
use crate::scope::Caller;
use crate::vectors;

impl<P: Ports> MemoryService<P> {
    /// Stores one memory; see `add` in `wit/memories.wit`.
    pub fn add(&mut self, caller: &Caller, item: NewMemory) -> Result<Added, Error> {
        self.add_batch(caller, vec![item])
    }

    /// Stores several memories in one append, all or none, then supersedes what they
    /// replace and evicts beyond `max_entries`.
    ///
    /// The embedder and the language model may be remote services, which the host calls
    /// without holding the home's lock. So they are asked first, and everything they were
    /// asked about is checked again against a fresh read before anything is written.
    pub fn add_batch(&mut self, caller: &Caller, items: Vec<NewMemory>) -> Result<Added, Error> {
        let added = self.add_batch_if(caller, items, |_| Ok(true))?;
        Ok(added.expect("an add that is always wanted is written"))
    }

    /// [`MemoryService::add_batch`] if `wanted` still holds when everything is read for the
    /// last time before the write (no lock is let go after): `None`, and nothing written,
    /// when it no longer does. What another call may have done while a model answered
    /// (extracted the same exchange, written this week's reflection) is checked there.
    pub(super) fn add_batch_if(
        &mut self,
        caller: &Caller,
        items: Vec<NewMemory>,
        wanted: impl FnOnce(&mut Self) -> Result<bool, Error>,
    ) -> Result<Option<Added>, Error> {
        if items.is_empty() {
            return Err(Error::InvalidInput("nothing to add".into()));
        }
        let first = self.now()?;
        // Validate everything before anything is read or written.
        let mut records = Vec::with_capacity(items.len());
        let mut subjects = Vec::with_capacity(items.len());
        let mut told = Vec::with_capacity(items.len());
        for (i, mut item) in items.into_iter().enumerate() {
            let which = if i == 0 {
                String::new()
            } else {
                format!("fact {}: ", i + 1)
            };
            let refs = std::mem::take(&mut item.subjects);
            let record = self
                .new_record(caller, item.clone(), first)
                .and_then(|r| check_subjects(&refs).map(|()| r))
                .map_err(|e| match e {
                    Error::InvalidInput(m) => Error::InvalidInput(format!("{which}{m}")),
                    Error::SecretRefused(m) => Error::SecretRefused(format!("{which}{m}")),
                    other => other,
                })?;
            subjects.push(refs);
            records.push(record);
            told.push(item);
        }

        let vectors = self.embed_new(&mut records);
        // Stamped when the lock is held again: a memory is never older than what another
        // process wrote while it was embedded.
        let mut now = self.stamp_again(&told, &mut records, first)?;

        // Eviction beyond `max_entries` counts every memory of the scope.
        match self.ports.settings().max_entries {
            Some(_) => self.load().map(drop)?,
            None => self.load_as_needed()?,
        }
        if self.memories.is_partial() {
            let end = self.memories.state().end;
            self.ports.log(
                Level::Debug,
                &format!("add: read from the index, which reflects memories.jsonl up to byte {end}"),
            );
        }
        let stamp = format_time(now);
        let mut people_writes = self.link_people(caller, &mut records, &subjects, &stamp)?;
        let decided = self.supersede(
            caller,
            &mut records,
            &told,
            &subjects,
            &vectors,
            &mut people_writes,
            &mut now,
        )?;
        if !wanted(self)? {
            return Ok(None);
        }
        self.write_added(records, decided, people_writes, &vectors, now)
            .map(Some)
    }

    /// Writes what an add decided: people first, then the new memories, the marks on what
    /// they replace and the new observations of what they restate in one append, then the
    /// index; then enforces `max_entries`. A restatement is not written.
    pub(super) fn write_added(
        &mut self,
        records: Vec<MemoryRecord>,
        decided: Decided,
        people_writes: HashMap<String, PersonRecord>,
        vectors: &[Option<Vec<f32>>],
        now: DateTime<Utc>,
    ) -> Result<Added, Error> {
        let Decided {
            replaced: superseded,
            restated,
            observed,
        } = decided;
        let answer: Vec<Memory> = records
            .iter()
            .enumerate()
            .map(|(i, r)| match restated.iter().find(|(p, _)| *p == i) {
                Some((_, id)) => observed
                    .iter()
                    .chain(records.iter())
                    .find(|m| &m.id == id)
                    .map_or_else(|| Memory::from(r), Memory::from),
                None => Memory::from(r),
            })
            .collect();
        let (records, vectors): (Vec<MemoryRecord>, Vec<Option<Vec<f32>>>) = records
            .into_iter()
            .zip(vectors.iter().cloned())
            .enumerate()
            .filter(|(i, _)| !restated.iter().any(|(p, _)| p == i))
            .map(|(_, rv)| rv)
            .unzip();
        self.write_people(people_writes)?;
        let mut lines = records.clone();
        lines.extend(superseded.iter().cloned());
        lines.extend(observed.iter().cloned());
        if !lines.is_empty() {
            self.memories.append(&self.ports, lines)?;
        }

        let entries: Vec<IndexEntry> = records
            .iter()
            .zip(&vectors)
            .filter(|(r, _)| r.superseded_at.is_none())
            .map(|(r, v)| index_entry(r, v.clone()))
            .collect();
        let mut gone: Vec<String> = superseded.iter().map(|r| r.id.clone()).collect();
        gone.extend(
            records
                .iter()
                .filter(|r| r.superseded_at.is_some())
                .map(|r| r.id.clone()),
        );
        self.index_written(&entries, &gone);

        let new_ids: Vec<String> = records.iter().map(|r| r.id.clone()).collect();
        let evicted = self.enforce_max_entries(&records, &new_ids, now)?;
        // What was replaced: older memories, then facts of this batch that a later fact of
        // it replaced (a caller told only of the former would think both facts are live).
        let replaced = superseded
            .iter()
            .chain(records.iter().filter(|r| r.superseded_at.is_some()))
            .map(|r| (Memory::from(r), r.superseded_by_id.clone().unwrap_or_default()))
            .collect();
        let mut restated_ids: Vec<String> = restated
            .iter()
            .filter(|(_, id)| observed.iter().any(|o| &o.id == id))
            .map(|(_, id)| id.clone())
            .collect();
        restated_ids.dedup();
        Ok(Added {
            memories: answer,
            superseded: replaced,
            evicted,
            restated: restated_ids,
        })
    }

    /// Embeds new memories, storing each vector in its record, and returns the vectors. A
    /// memory whose vector is unusable (the embedder failed, or returned zeros, NaN or the
    /// wrong length) gets none and is found by its words.
    pub(super) fn embed_new(&self, records: &mut [MemoryRecord]) -> Vec<Option<Vec<f32>>> {
        let vectors = self.vectors_for(records);
        let model = self.ports.embedder_model();
        for (record, vector) in records.iter_mut().zip(&vectors) {
            if let Some(vector) = vector {
                record.embedding = Some(encode_embedding(vector));
                record.embedding_model = Some(model.clone());
            }
        }
        vectors
    }

    fn vectors_for(&self, records: &[MemoryRecord]) -> Vec<Option<Vec<f32>>> {
        let texts: Vec<String> = records.iter().map(MemoryRecord::embedded_text).collect();
        let dimension = self.ports.embedder_dimension();
        match self.ports.embed(&texts) {
            Ok(vectors) if vectors.len() == records.len() => {
                let usable: Vec<Option<Vec<f32>>> =
                    vectors.into_iter().map(|v| vectors::usable(v, dimension)).collect();
                let bad = usable.iter().filter(|v| v.is_none()).count();
                if bad > 0 {
                    self.ports.log(
                        Level::Warn,
                        &format!("{bad} embedding(s) had no usable direction; stored for full-text search only"),
                    );
                }
                usable
            }
            Ok(vectors) => {
                self.ports.log(
                    Level::Warn,
                    &format!(
                        "the embedder returned {} vectors for {} texts; stored without embeddings",
                        vectors.len(),
                        records.len()
                    ),
                );
                vec![None; records.len()]
            }
            Err(e) => {
                self.ports.log(
                    Level::Warn,
                    &format!("{e}; stored without an embedding (found by words only until the embedder is back)"),
                );
                vec![None; records.len()]
            }
        }
    }
}
