//! The memory API over the ports: it validates, decides and orchestrates; the ports do
//! the I/O. One `MemoryService` lives for the lifetime of a component instance and keeps
//! the memories collection cached between calls.

use chrono::{DateTime, TimeDelta, Utc};

use crate::api::{Error, ListOptions, Memory, NewMemory, RebuildReport, SearchHit, SearchQuery, SearchResults};
use crate::collection::Memories;
use crate::lifecycle;
use crate::memory_type::classify;
use crate::ports::{Collection, IndexEntry, IndexError, IndexInfo, Level, Ports};
use crate::record::{MemoryRecord, RECORD_VERSION, encode_embedding, format_time, parse_time};
use crate::scope::{Caller, Scope};
use crate::search::{MIN_VECTOR_SIMILARITY, fuse, query_terms};
use crate::secrets;

/// Default number of search hits.
pub const DEFAULT_SEARCH_LIMIT: u32 = 10;
/// Longest memory accepted, in bytes: a memory is a fact, not a document.
pub const MAX_CONTENT_BYTES: usize = 16 * 1024;
/// Records per index write and embedding call during a rebuild.
const REBUILD_BATCH: usize = 256;

/// The memory API, generic over its host.
pub struct MemoryService<P: Ports> {
    ports: P,
    memories: Memories,
    /// Whether this instance has checked the index against the collection yet.
    index_checked: bool,
}

impl<P: Ports> MemoryService<P> {
    pub fn new(ports: P) -> Self {
        MemoryService {
            ports,
            memories: Memories::default(),
            index_checked: false,
        }
    }

    /// The ports, for tests that inspect what was written.
    pub fn ports(&self) -> &P {
        &self.ports
    }

    fn now(&self) -> Result<DateTime<Utc>, Error> {
        parse_time(&self.ports.now()).map_err(|e| Error::Storage(format!("host clock: {e}")))
    }

    /// Reads what changed on disk, then makes sure the index matches the collection.
    fn load(&mut self) -> Result<u64, Error> {
        let quarantined = self.memories.refresh(&self.ports).map_err(storage)?;
        if !self.index_checked {
            self.ensure_index()?;
            self.index_checked = true;
        }
        Ok(quarantined)
    }

    fn wanted_index(&self) -> IndexInfo {
        IndexInfo {
            model: self.ports.embedder_model(),
            dimension: self.ports.embedder_dimension(),
        }
    }

    /// Rebuilds the index when it is missing, corrupt, built by another model, or holds a
    /// different number of entries than the collection has indexable memories (a crash
    /// between a file write and an index write). The files are the truth; the index only
    /// ever follows them.
    fn ensure_index(&mut self) -> Result<(), Error> {
        let want = self.wanted_index();
        let reason = match self.ports.index_info() {
            Err(IndexError::Unavailable(e)) => Some(format!("the index is unusable ({e})")),
            Err(e) => return Err(Error::Index(e.to_string())),
            // A new home: record the model, nothing to say.
            Ok(None) if self.memories.is_empty() => {
                return self.ports.index_clear(&want).map_err(|e| Error::Index(e.to_string()));
            }
            Ok(None) => Some("the index is missing or empty".to_owned()),
            Ok(Some(have)) if have != want => Some(format!(
                "the index was built by {} ({} dimensions), the embedder is {} ({})",
                have.model, have.dimension, want.model, want.dimension
            )),
            Ok(Some(_)) => {
                let count = self.ports.index_count().map_err(|e| Error::Index(e.to_string()))?;
                let indexable = self.memories.iter().filter(|r| r.superseded_at.is_none()).count() as u64;
                (count != indexable).then(|| format!("the index holds {count} entries for {indexable} memories"))
            }
        };
        if let Some(reason) = reason {
            self.ports
                .log(Level::Warn, &format!("{reason}: rebuilding it from memories.jsonl"));
            self.rebuild()?;
        }
        Ok(())
    }

    /// Stores one memory.
    pub fn add(&mut self, caller: &Caller, item: NewMemory) -> Result<Memory, Error> {
        Ok(self.add_batch(caller, vec![item])?.remove(0))
    }

    /// Stores several memories in one append; all or none.
    pub fn add_batch(&mut self, caller: &Caller, items: Vec<NewMemory>) -> Result<Vec<Memory>, Error> {
        if items.is_empty() {
            return Err(Error::InvalidInput("nothing to add".into()));
        }
        let now = self.now()?;
        // Validate everything before anything is written.
        let mut records = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            let which = if i == 0 {
                String::new()
            } else {
                format!("fact {}: ", i + 1)
            };
            let record = self.new_record(caller, item, now).map_err(|e| match e {
                Error::InvalidInput(m) => Error::InvalidInput(format!("{which}{m}")),
                Error::SecretRefused(m) => Error::SecretRefused(format!("{which}{m}")),
                other => other,
            })?;
            records.push(record);
        }
        self.load()?;

        let texts: Vec<String> = records.iter().map(|r| r.content.clone()).collect();
        let vectors = match self.ports.embed(&texts) {
            Ok(vectors) if vectors.len() == records.len() => Some(vectors),
            Ok(vectors) => {
                self.ports.log(
                    Level::Warn,
                    &format!(
                        "embedder returned {} vectors for {} texts; storing without embeddings",
                        vectors.len(),
                        records.len()
                    ),
                );
                None
            }
            Err(e) => {
                self.ports.log(
                    Level::Warn,
                    &format!("{e}; stored without an embedding (full-text search only until `rebuild-index`)"),
                );
                None
            }
        };
        let model = self.ports.embedder_model();
        if let Some(vectors) = &vectors {
            for (record, vector) in records.iter_mut().zip(vectors) {
                record.embedding = Some(encode_embedding(vector));
                record.embedding_model = Some(model.clone());
            }
        }

        self.memories.append(&self.ports, records.clone()).map_err(storage)?;

        let entries: Vec<IndexEntry> = records
            .iter()
            .enumerate()
            .map(|(i, r)| index_entry(r, vectors.as_ref().map(|v| v[i].clone())))
            .collect();
        if let Err(e) = self.ports.index_upsert(&entries) {
            // The memory is safe in the file; the next start rebuilds the index.
            self.ports.log(Level::Warn, &format!("{e}; the index will be rebuilt"));
            self.index_checked = false;
        }
        Ok(records.iter().map(Memory::from).collect())
    }

    /// Builds a record for a new memory, applying every rule that can refuse it.
    fn new_record(&self, caller: &Caller, item: NewMemory, now: DateTime<Utc>) -> Result<MemoryRecord, Error> {
        let content = item.content.trim().to_owned();
        if content.is_empty() {
            return Err(Error::InvalidInput("content is empty".into()));
        }
        if content.len() > MAX_CONTENT_BYTES {
            return Err(Error::InvalidInput(format!(
                "content is {} bytes; a memory holds at most {MAX_CONTENT_BYTES}",
                content.len()
            )));
        }
        if let Some(kind) = secrets::detect(&content) {
            return Err(Error::SecretRefused(format!(
                "this looks like {}; secrets are never stored in memory",
                kind.describe()
            )));
        }
        if !item.subjects.is_empty() {
            return Err(Error::InvalidInput("subjects (people) are not supported yet".into()));
        }
        let scope = caller.scope_for_new(item.shared).map_err(Error::InvalidInput)?;
        let expires_at = match item.expires_in_days {
            Some(0) => return Err(Error::InvalidInput("expires-in-days must be at least 1".into())),
            Some(days) => Some(format_time(now + TimeDelta::days(i64::from(days)))),
            None => None,
        };
        let observed_at = match item.observed_at {
            Some(t) => Some(format_time(parse_time(&t).map_err(Error::InvalidInput)?)),
            None => None,
        };
        let (owner_user_id, chat_id) = match scope {
            Scope::Personal { owner_user_id } => (Some(owner_user_id), None),
            Scope::Group { chat_id } => (None, Some(chat_id)),
        };
        let source = item.source.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        Ok(MemoryRecord {
            id: self.ports.new_id(),
            version: RECORD_VERSION,
            memory_type: item.memory_type.unwrap_or_else(|| classify(&content)),
            content,
            embedding: None,
            created_at: format_time(now),
            observed_at,
            owner_user_id,
            chat_id,
            subject_person_ids: Vec::new(),
            source: source.unwrap_or_else(|| "user".to_owned()),
            source_session_id: None,
            source_message_id: None,
            extraction_confidence: None,
            expires_at,
            superseded_at: None,
            superseded_by_id: None,
            archived_at: None,
            archive_reason: None,
            metadata: None,
            embedding_model: None,
            extra: Default::default(),
        })
    }

    /// One memory the caller may see, in any state.
    pub fn get(&mut self, caller: &Caller, id: &str) -> Result<Memory, Error> {
        self.memories.refresh(&self.ports).map_err(storage)?;
        match self.memories.get(id) {
            Some(r) if caller.can_see(r) => Ok(Memory::from(r)),
            _ => Err(not_found(id)),
        }
    }

    /// The caller's memories, newest first.
    pub fn list(&mut self, caller: &Caller, options: &ListOptions) -> Result<Vec<Memory>, Error> {
        self.memories.refresh(&self.ports).map_err(storage)?;
        let now = self.now()?;
        let mut found: Vec<(DateTime<Utc>, usize, &MemoryRecord)> = self
            .memories
            .iter()
            .enumerate()
            .filter(|(_, r)| caller.can_see(r))
            .filter(|(_, r)| options.memory_type.is_none_or(|t| r.memory_type == t))
            .filter(|(_, r)| options.include_superseded || r.superseded_at.is_none())
            .filter(|(_, r)| options.include_expired || !lifecycle::is_expired(r, now))
            .map(|(i, r)| (parse_time(&r.created_at).unwrap_or(DateTime::UNIX_EPOCH), i, r))
            .collect();
        found.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let limit = options.limit.map_or(usize::MAX, |l| l as usize);
        Ok(found.into_iter().take(limit).map(|(_, _, r)| Memory::from(r)).collect())
    }

    /// Vector and full-text search, fused, within the caller's scope, live memories only.
    pub fn search(&mut self, caller: &Caller, query: &SearchQuery) -> Result<SearchResults, Error> {
        let text = query.text.trim();
        if text.is_empty() {
            return Err(Error::InvalidInput("the query is empty".into()));
        }
        let limit = query.limit.unwrap_or(DEFAULT_SEARCH_LIMIT).max(1);
        self.load()?;
        let now = self.now()?;
        let scope = caller.filter();
        let mut notices = Vec::new();
        // Over-fetch: expired memories stay in the index until GC and are dropped here.
        let k = (limit * 4).max(32);
        let usable = |id: &str| {
            self.memories
                .get(id)
                .is_some_and(|r| caller.can_see(r) && lifecycle::is_live(r, now))
        };

        let mut similarity = std::collections::HashMap::new();
        let vector_ids: Vec<String> = match self.ports.embed(&[text.to_owned()]) {
            Ok(mut vectors) if vectors.len() == 1 => {
                let query_vector = vectors.remove(0);
                let hits = self
                    .ports
                    .index_knn(&query_vector, k, &scope)
                    .map_err(|e| Error::Index(e.to_string()))?;
                hits.into_iter()
                    .filter(|h| h.score >= MIN_VECTOR_SIMILARITY && usable(&h.id))
                    .map(|h| {
                        similarity.insert(h.id.clone(), h.score);
                        h.id
                    })
                    .collect()
            }
            Ok(_) | Err(_) => {
                let notice = "the embedding service is unavailable: full-text search only".to_owned();
                self.ports.log(Level::Warn, &notice);
                notices.push(notice);
                Vec::new()
            }
        };
        let terms = query_terms(text);
        let text_ids: Vec<String> = self
            .ports
            .index_text_search(&terms, k, &scope)
            .map_err(|e| Error::Index(e.to_string()))?
            .into_iter()
            .filter(|h| usable(&h.id))
            .map(|h| h.id)
            .collect();

        let hits = fuse(&[vector_ids, text_ids])
            .into_iter()
            .take(limit as usize)
            .filter_map(|(id, score)| {
                let record = self.memories.get(&id)?;
                Some(SearchHit {
                    memory: Memory::from(record),
                    score,
                    similarity: similarity.get(&id).copied(),
                    subjects: Vec::new(),
                })
            })
            .collect();
        Ok(SearchResults { hits, notices })
    }

    /// Deletes a memory the caller may change; it goes to the archive first.
    pub fn delete(&mut self, caller: &Caller, id: &str) -> Result<(), Error> {
        self.load()?;
        let record = match self.memories.get(id) {
            Some(r) if caller.can_see(r) => r.clone(),
            _ => return Err(not_found(id)),
        };
        if !caller.can_delete(&record) {
            return Err(Error::Unauthorized(format!(
                "deleting memory {id} needs a user (--user)"
            )));
        }
        let mut archived = record;
        archived.archived_at = Some(format_time(self.now()?));
        archived.archive_reason = Some("deleted".to_owned());
        self.ports
            .append(Collection::Archive, &[archived.to_line()])
            .map_err(storage)?;
        self.memories.remove(&self.ports, &[id.to_owned()]).map_err(storage)?;
        if let Err(e) = self.ports.index_remove(&[id.to_owned()]) {
            self.ports.log(Level::Warn, &format!("{e}; the index will be rebuilt"));
            self.index_checked = false;
        }
        Ok(())
    }

    /// Clears the index and fills it from the collection.
    pub fn rebuild_index(&mut self) -> Result<RebuildReport, Error> {
        let quarantined = self.memories.refresh(&self.ports).map_err(storage)?;
        let mut report = self.rebuild()?;
        report.quarantined = quarantined;
        self.index_checked = true;
        Ok(report)
    }

    fn rebuild(&mut self) -> Result<RebuildReport, Error> {
        let want = self.wanted_index();
        self.ports.index_clear(&want).map_err(|e| Error::Index(e.to_string()))?;
        let indexable: Vec<MemoryRecord> = self
            .memories
            .iter()
            .filter(|r| r.superseded_at.is_none())
            .cloned()
            .collect();
        let total = indexable.len() as u64;
        let mut report = RebuildReport::default();
        let mut refreshed: Vec<MemoryRecord> = Vec::new();
        let mut embedder_down = false;
        self.ports.progress("rebuilding index", 0, total);
        for batch in indexable.chunks(REBUILD_BATCH) {
            // Reuse stored vectors made by this model at this dimension; embed the rest.
            let mut vectors: Vec<Option<Vec<f32>>> = batch
                .iter()
                .map(|r| {
                    let same_model = r.embedding_model.as_deref().is_none_or(|m| m == want.model);
                    r.vector().filter(|v| same_model && v.len() == want.dimension as usize)
                })
                .collect();
            let missing: Vec<usize> = (0..batch.len()).filter(|&i| vectors[i].is_none()).collect();
            if !missing.is_empty() && !embedder_down {
                let texts: Vec<String> = missing.iter().map(|&i| batch[i].content.clone()).collect();
                match self.ports.embed(&texts) {
                    Ok(new) if new.len() == texts.len() => {
                        for (&i, vector) in missing.iter().zip(new) {
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
            self.ports
                .index_upsert(&entries)
                .map_err(|e| Error::Index(e.to_string()))?;
            report.indexed += batch.len() as u64;
            self.ports.progress("rebuilding index", report.indexed, total);
        }
        // New embeddings go back to the file, so the next rebuild needs no embedding calls.
        self.memories.append(&self.ports, refreshed).map_err(storage)?;
        Ok(report)
    }
}

fn index_entry(record: &MemoryRecord, embedding: Option<Vec<f32>>) -> IndexEntry {
    IndexEntry {
        id: record.id.clone(),
        content: record.content.clone(),
        embedding,
        owner_user_id: record.owner_user_id.clone(),
        chat_id: record.chat_id.clone(),
    }
}

fn storage(e: crate::ports::FileError) -> Error {
    Error::Storage(e.0)
}

fn not_found(id: &str) -> Error {
    Error::NotFound(format!("no memory {id} is visible to you"))
}
