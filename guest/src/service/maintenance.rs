//! `rebuild-index`, and the full rebuild that index upkeep and `doctor` fall back on:
//! clear the index and fill it from `memories.jsonl` (reusing stored vectors that fit)
//! and `messages.jsonl`.

use super::MemoryService;
use super::index_sync::{fitting_vector, index_entry};
use crate::api::{Error, RebuildReport};
use crate::ports::{IndexEntry, Level, Ports};
use crate::record::{MemoryRecord, encode_embedding};
use crate::vectors;

/// Records per index write and embedding call during a rebuild.
const REBUILD_BATCH: usize = 256;

impl<P: Ports> MemoryService<P> {
    /// Clears the index and fills it from the collection.
    pub fn rebuild_index(&mut self) -> Result<RebuildReport, Error> {
        let quarantined = self.memories.refresh(&self.ports)?;
        self.refresh_people()?;
        let mut report = self.rebuild()?;
        report.quarantined = quarantined;
        self.index_checked = true;
        Ok(report)
    }

    /// Clears the index and fills it from the cached collection, reusing stored vectors
    /// that fit the embedder and embedding the rest.
    pub(crate) fn rebuild(&mut self) -> Result<RebuildReport, Error> {
        let want = self.wanted_index();
        self.ports.index_clear(&want)?;
        let indexable: Vec<&MemoryRecord> = self.memories.iter().filter(|r| r.superseded_at.is_none()).collect();
        let total = indexable.len() as u64;
        let mut report = RebuildReport::default();
        let mut refreshed: Vec<MemoryRecord> = Vec::new();
        let mut embedder_down = false;
        self.ports.progress("rebuilding index", 0, total);
        for batch in indexable.chunks(REBUILD_BATCH) {
            let mut vectors: Vec<Option<Vec<f32>>> = batch.iter().map(|r| fitting_vector(r, &want)).collect();
            let missing: Vec<usize> = (0..batch.len()).filter(|&i| vectors[i].is_none()).collect();
            if !missing.is_empty() && !embedder_down {
                let texts: Vec<String> = missing.iter().map(|&i| batch[i].embedded_text()).collect();
                match self.ports.embed(&texts) {
                    Ok(new) if new.len() == texts.len() => {
                        for (&i, vector) in missing.iter().zip(new) {
                            let Some(vector) = vectors::usable(vector, want.dimension) else {
                                continue;
                            };
                            let mut record = batch[i].clone();
                            record.embedding = Some(encode_embedding(&vector));
                            record.embedding_model = Some(want.model.clone());
                            refreshed.push(record);
                            vectors[i] = Some(vector);
                            report.embedded += 1;
                        }
                    }
                    Ok(_) | Err(_) => {
                        self.ports.log(
                            Level::Warn,
                            "embedder unavailable during rebuild; some memories are full-text only",
                        );
                        embedder_down = true;
                    }
                }
            }
            let entries: Vec<IndexEntry> = batch.iter().zip(vectors).map(|(r, v)| index_entry(r, v)).collect();
            report.pending += entries.iter().filter(|e| e.embedding.is_none()).count() as u64;
            self.ports.index_upsert(&entries)?;
            report.indexed += batch.len() as u64;
            self.ports.progress("rebuilding index", report.indexed, total);
        }
        // New embeddings go back to the file, so the next rebuild needs no embedding calls.
        // Only records that did not change while a remote embedder was being asked.
        if !refreshed.is_empty() {
            let before = self.memories.state();
            self.memories.refresh(&self.ports)?;
            if self.memories.state() != before {
                // Someone wrote meanwhile: index from scratch at the next call.
                return Ok(report);
            }
            self.memories.append(&self.ports, refreshed)?;
        }
        self.mark_index(self.memories.state())?;
        // The clear took the messages out too.
        self.messages.refresh(&self.ports)?;
        self.index_messages(self.messages.iter().cloned().collect())?;
        self.mark_messages(self.messages.state())?;
        Ok(report)
    }
}
