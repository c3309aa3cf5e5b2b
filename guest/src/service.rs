//! The memory API over the ports: it validates, decides and orchestrates; the ports do
//! the I/O. One `MemoryService` lives for the lifetime of a component instance and keeps
//! the memories collection cached between calls.

use chrono::{DateTime, TimeDelta, Utc};

use std::collections::{HashMap, HashSet};

use crate::api::{
    Added, Archived, CompactReport, Error, GcReport, ListOptions, Memory, NewMemory, RebuildReport, SearchHit,
    SearchQuery, SearchResults,
};
use crate::collection::{Memories, People};
use crate::gc::{self, ArchiveReason};
use crate::lifecycle;
use crate::memory_type::classify;
use crate::ports::{Collection, IndexEntry, IndexError, IndexInfo, Level, Ports, ScopeFilter};
use crate::record::{MemoryRecord, RECORD_VERSION, encode_embedding, format_time, parse_time};
use crate::scope::{Caller, Scope};
use crate::search::{MIN_VECTOR_SIMILARITY, fuse, query_terms};
use crate::secrets;
use crate::supersession;

/// Default number of search hits.
pub const DEFAULT_SEARCH_LIMIT: u32 = 10;
/// Longest memory accepted, in bytes: a memory is a fact, not a document.
pub const MAX_CONTENT_BYTES: usize = 16 * 1024;
/// Records per index write and embedding call during a rebuild.
const REBUILD_BATCH: usize = 256;

/// The memory API, generic over its host.
pub struct MemoryService<P: Ports> {
    pub(crate) ports: P,
    pub(crate) memories: Memories,
    pub(crate) people: People,
    /// Whether this instance has checked the index against the collection yet.
    index_checked: bool,
}

impl<P: Ports> MemoryService<P> {
    pub fn new(ports: P) -> Self {
        MemoryService {
            ports,
            memories: Memories::default(),
            people: People::default(),
            index_checked: false,
        }
    }

    /// The ports, for tests that inspect what was written.
    pub fn ports(&self) -> &P {
        &self.ports
    }

    pub(crate) fn now(&self) -> Result<DateTime<Utc>, Error> {
        parse_time(&self.ports.now()).map_err(|e| Error::Storage(format!("host clock: {e}")))
    }

    /// Reads what changed on disk, then makes sure the index matches the collection.
    fn load(&mut self) -> Result<u64, Error> {
        let quarantined = self.memories.refresh(&self.ports).map_err(storage)?;
        self.people.refresh(&self.ports).map_err(storage)?;
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
            Ok(Some(have)) if have != want => {
                // Rebuilding is free when the stored vectors already fit the embedder; when
                // they would all have to be embedded again (possibly by a paid service),
                // that is the user's call.
                let stale = self
                    .memories
                    .iter()
                    .filter(|r| r.superseded_at.is_none() && !fits(r, &want))
                    .count();
                if stale > 0 {
                    return Err(Error::Index(format!(
                        "the index was built by {} ({} dimensions) but the embedder is {} ({} dimensions); \
                         run `ash-memory rebuild-index` to embed {stale} memories again",
                        have.model, have.dimension, want.model, want.dimension
                    )));
                }
                Some(format!(
                    "the index was built by {} and the embedder is {}",
                    have.model, want.model
                ))
            }
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
        } else {
            self.fill_pending()?;
        }
        Ok(())
    }

    /// Embeds memories stored while the embedder was down, now that this instance
    /// starts, and indexes their vectors. If the embedder is still down, they wait.
    fn fill_pending(&mut self) -> Result<(), Error> {
        let pending: Vec<MemoryRecord> = self
            .memories
            .iter()
            .filter(|r| r.superseded_at.is_none() && r.embedding.is_none())
            .cloned()
            .collect();
        if pending.is_empty() {
            return Ok(());
        }
        let texts: Vec<String> = pending.iter().map(|r| r.content.clone()).collect();
        let vectors = match self.ports.embed(&texts) {
            Ok(v) if v.len() == pending.len() => v,
            Ok(_) | Err(_) => return Ok(()),
        };
        let model = self.ports.embedder_model();
        let mut updated = Vec::with_capacity(pending.len());
        let mut entries = Vec::with_capacity(pending.len());
        for (mut record, vector) in pending.into_iter().zip(vectors) {
            record.embedding = Some(encode_embedding(&vector));
            record.embedding_model = Some(model.clone());
            entries.push(index_entry(&record, Some(vector)));
            updated.push(record);
        }
        let n = updated.len();
        self.memories.append(&self.ports, updated).map_err(storage)?;
        self.ports
            .index_upsert(&entries)
            .map_err(|e| Error::Index(e.to_string()))?;
        self.ports.log(
            Level::Info,
            &format!("embedded {n} memories stored while the embedder was down"),
        );
        Ok(())
    }

    /// Stores one memory; see `add` in `wit/memory.wit`.
    pub fn add(&mut self, caller: &Caller, item: NewMemory) -> Result<Added, Error> {
        self.add_batch(caller, vec![item])
    }

    /// Stores several memories in one append, all or none, then supersedes what they
    /// replace and evicts beyond `max_entries`.
    pub fn add_batch(&mut self, caller: &Caller, items: Vec<NewMemory>) -> Result<Added, Error> {
        if items.is_empty() {
            return Err(Error::InvalidInput("nothing to add".into()));
        }
        let now = self.now()?;
        // Validate everything before anything is written.
        let mut records = Vec::with_capacity(items.len());
        let mut subjects = Vec::with_capacity(items.len());
        for (i, mut item) in items.into_iter().enumerate() {
            let which = if i == 0 {
                String::new()
            } else {
                format!("fact {}: ", i + 1)
            };
            subjects.push(std::mem::take(&mut item.subjects));
            let record = self.new_record(caller, item, now).map_err(|e| match e {
                Error::InvalidInput(m) => Error::InvalidInput(format!("{which}{m}")),
                Error::SecretRefused(m) => Error::SecretRefused(format!("{which}{m}")),
                other => other,
            })?;
            records.push(record);
        }
        self.load()?;
        // People: the subjects named, anyone the content introduces ("My wife's name is
        // Sarah"), and known people it names. Resolved before anything is written.
        let stamp = format_time(now);
        let mut people_writes = HashMap::new();
        for (record, refs) in records.iter_mut().zip(&subjects) {
            let mut ids: Vec<String> = Vec::new();
            for reference in refs {
                ids.push(self.resolve_person(caller, reference, &stamp, &mut people_writes)?);
            }
            if caller.user_id.is_some() {
                if let Some((name, relation)) = crate::people::introduced(&record.content) {
                    let reference = format!("my {relation} {name}");
                    ids.push(self.resolve_person(caller, &reference, &stamp, &mut people_writes)?);
                }
                let known = crate::people::named_in(&record.content, &self.people_of(caller));
                ids.extend(known.iter().map(|p| p.id.clone()));
            }
            let mut seen = HashSet::new();
            ids.retain(|id| seen.insert(id.clone()));
            record.subject_person_ids = ids;
        }
        self.write_people(people_writes)?;

        let vectors = self.embed_new(&records);
        let model = self.ports.embedder_model();
        if let Some(vectors) = &vectors {
            for (record, vector) in records.iter_mut().zip(vectors) {
                record.embedding = Some(encode_embedding(vector));
                record.embedding_model = Some(model.clone());
            }
        }
        let superseded = match &vectors {
            Some(vectors) => self.supersede(&mut records, vectors, now)?,
            // Without vectors there are no candidates: keep everything.
            None => Vec::new(),
        };

        let mut lines = records.clone();
        lines.extend(superseded.iter().cloned());
        self.memories.append(&self.ports, lines).map_err(storage)?;

        let entries: Vec<IndexEntry> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.superseded_at.is_none())
            .map(|(i, r)| index_entry(r, vectors.as_ref().map(|v| v[i].clone())))
            .collect();
        let gone: Vec<String> = superseded.iter().map(|r| r.id.clone()).collect();
        let indexed = self
            .ports
            .index_upsert(&entries)
            .and_then(|()| self.ports.index_remove(&gone));
        if let Err(e) = indexed {
            // The memories are safe in the file; the next start rebuilds the index.
            self.ports.log(Level::Warn, &format!("{e}; the index will be rebuilt"));
            self.index_checked = false;
        }

        let new_ids: Vec<String> = records.iter().map(|r| r.id.clone()).collect();
        let evicted = self.enforce_max_entries(&new_ids, now)?;
        Ok(Added {
            memories: records.iter().map(Memory::from).collect(),
            superseded: superseded
                .iter()
                .map(|r| (Memory::from(r), r.superseded_by_id.clone().unwrap_or_default()))
                .collect(),
            evicted,
        })
    }

    /// Embeds new memories; `None` (with a warning) when the embedder fails, so that the
    /// memories are still stored.
    fn embed_new(&self, records: &[MemoryRecord]) -> Option<Vec<Vec<f32>>> {
        let texts: Vec<String> = records.iter().map(|r| r.content.clone()).collect();
        match self.ports.embed(&texts) {
            Ok(vectors) if vectors.len() == records.len() => Some(vectors),
            Ok(vectors) => {
                self.ports.log(
                    Level::Warn,
                    &format!(
                        "the embedder returned {} vectors for {} texts; stored without embeddings",
                        vectors.len(),
                        records.len()
                    ),
                );
                None
            }
            Err(e) => {
                self.ports.log(
                    Level::Warn,
                    &format!("{e}; stored without an embedding (found by words only until the embedder is back)"),
                );
                None
            }
        }
    }

    /// Finds and verifies what each new record replaces: live memories in the same scope
    /// about the same subjects at or above the similarity threshold, and earlier records
    /// of the same batch. Marks batch records in place; returns the existing memories
    /// to mark, already updated.
    fn supersede(
        &mut self,
        records: &mut [MemoryRecord],
        vectors: &[Vec<f32>],
        now: DateTime<Utc>,
    ) -> Result<Vec<MemoryRecord>, Error> {
        let threshold = self.ports.settings().supersession_threshold;
        let stamp = format_time(now);
        let mut replaced: Vec<MemoryRecord> = Vec::new();
        let mut taken: HashSet<String> = HashSet::new();
        for i in 0..records.len() {
            let new = records[i].clone();
            // Only the new memory's own scope: a group fact never replaces a personal one.
            let scope = match &new.chat_id {
                Some(chat) => ScopeFilter {
                    user_id: None,
                    chat_id: Some(chat.clone()),
                },
                None => ScopeFilter {
                    user_id: new.owner_user_id.clone(),
                    chat_id: None,
                },
            };
            let hits = self
                .ports
                .index_knn(&vectors[i], 8, &scope)
                .map_err(|e| Error::Index(e.to_string()))?;
            let mut candidates: Vec<(f32, Result<String, usize>)> = hits
                .into_iter()
                .filter(|h| h.score >= threshold && !taken.contains(&h.id))
                .filter(|h| {
                    self.memories
                        .get(&h.id)
                        .is_some_and(|old| same_slot(old, &new) && lifecycle::is_live(old, now))
                })
                .map(|h| (h.score, Ok(h.id)))
                .collect();
            for j in 0..i {
                let sim = cosine(&vectors[i], &vectors[j]);
                if sim >= threshold && records[j].superseded_at.is_none() && same_slot(&records[j], &new) {
                    candidates.push((sim, Err(j)));
                }
            }
            candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (_, candidate) in candidates {
                match candidate {
                    Ok(id) => {
                        let mut old = self.memories.get(&id).expect("filtered above").clone();
                        if self.verify(&old.content, &new.content) {
                            old.superseded_at = Some(stamp.clone());
                            old.superseded_by_id = Some(new.id.clone());
                            taken.insert(id);
                            replaced.push(old);
                        }
                    }
                    Err(j) => {
                        if self.verify(&records[j].content, &new.content) {
                            records[j].superseded_at = Some(stamp.clone());
                            records[j].superseded_by_id = Some(new.id.clone());
                        }
                    }
                }
            }
        }
        Ok(replaced)
    }

    /// Whether `new` replaces `old`: the language model's clear yes, or, when it cannot
    /// be asked, the conservative rule. An unclear answer keeps both.
    fn verify(&self, old: &str, new: &str) -> bool {
        match self.ports.complete(&supersession::verification_request(old, new)) {
            Ok(answer) => match supersession::parse_verdict(&answer) {
                Some(verdict) => verdict,
                None => {
                    let shown: String = answer.chars().take(80).collect();
                    self.ports.log(
                        Level::Warn,
                        &format!("the language model's answer {shown:?} is neither yes nor no; keeping both memories"),
                    );
                    false
                }
            },
            Err(e) => {
                self.ports
                    .log(Level::Debug, &format!("{}; the supersession rule decides", e.0));
                supersession::rule_says_replaces(old, new)
            }
        }
    }

    /// Archives the oldest, most ephemeral memories beyond `max_entries`, never the ones
    /// just added.
    fn enforce_max_entries(&mut self, protected: &[String], now: DateTime<Utc>) -> Result<Vec<Memory>, Error> {
        let Some(max) = self.ports.settings().max_entries else {
            return Ok(Vec::new());
        };
        let count = self.memories.len() as u64;
        if count <= max {
            return Ok(Vec::new());
        }
        let victims: Vec<MemoryRecord> =
            gc::eviction_order(self.memories.iter(), (count - max) as usize, protected, now)
                .into_iter()
                .cloned()
                .collect();
        let evicted = victims.iter().map(Memory::from).collect();
        self.archive(victims.into_iter().map(|r| (r, ArchiveReason::Evicted)).collect(), now)?;
        Ok(evicted)
    }

    /// Appends records to the archive with a reason, then rewrites the collection without
    /// them and drops them from the index. The archive is written first: a crash between
    /// the two leaves a copy in both, never in neither.
    fn archive(&mut self, victims: Vec<(MemoryRecord, ArchiveReason)>, now: DateTime<Utc>) -> Result<(), Error> {
        if victims.is_empty() {
            return Ok(());
        }
        let stamp = format_time(now);
        let lines: Vec<String> = victims
            .iter()
            .map(|(r, reason)| {
                let mut r = r.clone();
                r.archived_at = Some(stamp.clone());
                r.archive_reason = Some(reason.as_str().to_owned());
                r.to_line()
            })
            .collect();
        self.ports.append(Collection::Archive, &lines).map_err(storage)?;
        let ids: Vec<String> = victims.iter().map(|(r, _)| r.id.clone()).collect();
        self.memories.remove(&self.ports, &ids).map_err(storage)?;
        if let Err(e) = self.ports.index_remove(&ids) {
            self.ports.log(Level::Warn, &format!("{e}; the index will be rebuilt"));
            self.index_checked = false;
        }
        Ok(())
    }

    /// Archives superseded, expired and decayed memories; see `gc` in `wit/memory.wit`.
    pub fn gc(&mut self, dry_run: bool) -> Result<GcReport, Error> {
        self.load()?;
        let now = self.now()?;
        let selected: Vec<(MemoryRecord, ArchiveReason)> = self
            .memories
            .iter()
            .filter_map(|r| gc::reason(r, now).map(|reason| (r.clone(), reason)))
            .collect();
        let archived = selected
            .iter()
            .map(|(r, reason)| Archived {
                id: r.id.clone(),
                content: r.content.clone(),
                reason: *reason,
            })
            .collect();
        if !dry_run {
            self.archive(selected, now)?;
        }
        Ok(GcReport { archived, dry_run })
    }

    /// Removes archive entries archived more than `older_than_days` ago, if `force`.
    pub fn compact(&mut self, older_than_days: u32, force: bool) -> Result<CompactReport, Error> {
        let now = self.now()?;
        let cutoff = now - TimeDelta::days(i64::from(older_than_days));
        let chunk = self.ports.read(Collection::Archive, 0, None).map_err(storage)?;
        let mut kept: Vec<String> = Vec::new();
        let mut removed: Vec<String> = Vec::new();
        for line in chunk.data.lines().filter(|l| !l.trim().is_empty()) {
            // Judged by the archive stamp alone; a line that cannot be read is never removed.
            let value: Option<serde_json::Value> = serde_json::from_str(line).ok();
            let archived_at = value
                .as_ref()
                .and_then(|v| v["archived_at"].as_str())
                .and_then(|t| parse_time(t).ok());
            match archived_at {
                Some(at) if at < cutoff => {
                    removed.push(value.as_ref().and_then(|v| v["id"].as_str()).unwrap_or("?").to_owned())
                }
                _ => kept.push(line.to_owned()),
            }
        }
        if force && !removed.is_empty() {
            self.ports.replace(Collection::Archive, &kept).map_err(storage)?;
        }
        Ok(CompactReport {
            removed,
            kept: kept.len() as u64,
            forced: force,
        })
    }

    /// The supersession chain through `id`, oldest first; see `history` in the WIT.
    pub fn history(&mut self, caller: &Caller, id: &str) -> Result<Vec<Memory>, Error> {
        self.memories.refresh(&self.ports).map_err(storage)?;
        let chunk = self.ports.read(Collection::Archive, 0, None).map_err(storage)?;
        let mut all: HashMap<String, MemoryRecord> = HashMap::new();
        for line in chunk.data.lines() {
            if let Ok(r) = MemoryRecord::parse(line) {
                all.insert(r.id.clone(), r);
            }
        }
        for r in self.memories.iter() {
            all.insert(r.id.clone(), r.clone());
        }
        match all.get(id) {
            Some(r) if caller.can_see(r) => {}
            _ => return Err(not_found(id)),
        }
        let mut predecessors: HashMap<&str, Vec<&str>> = HashMap::new();
        for r in all.values() {
            if let Some(by) = &r.superseded_by_id {
                predecessors.entry(by.as_str()).or_default().push(r.id.as_str());
            }
        }
        let mut chain: Vec<&MemoryRecord> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        let mut stack = vec![id];
        while let Some(cur) = stack.pop() {
            if !seen.insert(cur) {
                continue;
            }
            let Some(r) = all.get(cur) else { continue };
            chain.push(r);
            stack.extend(predecessors.get(cur).into_iter().flatten());
            if let Some(next) = &r.superseded_by_id {
                stack.push(next);
            }
        }
        chain.retain(|r| caller.can_see(r));
        chain.sort_by_key(|r| {
            (
                parse_time(&r.created_at).unwrap_or(DateTime::UNIX_EPOCH),
                r.superseded_at.is_none(),
            )
        });
        Ok(chain.into_iter().map(Memory::from).collect())
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

    /// Vector, full-text and person-graph search, fused, within the caller's scope, live
    /// memories only; see `search` in `wit/memory.wit`.
    pub fn search(&mut self, caller: &Caller, query: &SearchQuery) -> Result<SearchResults, Error> {
        self.search_with(caller, query, MIN_VECTOR_SIMILARITY)
    }

    /// Search with a floor on vector similarity (context assembly passes none: a small
    /// store's best memories are worth showing even when they are weak matches).
    pub(crate) fn search_with(
        &mut self,
        caller: &Caller,
        query: &SearchQuery,
        min_similarity: f32,
    ) -> Result<SearchResults, Error> {
        let text = query.text.trim();
        if text.is_empty() {
            return Err(Error::InvalidInput("the query is empty".into()));
        }
        let limit = query.limit.unwrap_or(DEFAULT_SEARCH_LIMIT).max(1);
        self.load()?;
        let now = self.now()?;
        let scope = caller.filter();
        let mut notices = Vec::new();

        // Whom the search is about: `about` filters to that person and one hop; a person
        // named in the query only adds their memories to the candidates.
        let mut about: HashSet<String> = HashSet::new();
        let mut filter_to_about = false;
        if let Some(reference) = query.about.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            match self.find_person(caller, reference)? {
                Some(person) => {
                    about = self.neighbourhood(caller, &person.id);
                    filter_to_about = true;
                }
                None => notices.push(format!("no person {reference:?} is known to you; showing all results")),
            }
        } else {
            let named: Vec<String> = crate::people::named_in(text, &self.people_of(caller))
                .iter()
                .map(|p| p.id.clone())
                .chain(self.relations_in(caller, text))
                .collect();
            for id in named {
                about.extend(self.neighbourhood(caller, &id));
            }
        }

        // Over-fetch: expired memories stay in the index until GC and are dropped here.
        let k = (limit * 4).max(32);
        let usable = |id: &str| {
            self.memories
                .get(id)
                .is_some_and(|r| caller.can_see(r) && lifecycle::is_live(r, now))
        };
        let mut similarity = HashMap::new();
        let mut query_vector = None;
        let vector_ids: Vec<String> = match self.ports.embed(&[text.to_owned()]) {
            Ok(mut vectors) if vectors.len() == 1 => {
                let v = vectors.remove(0);
                let hits = self
                    .ports
                    .index_knn(&v, k, &scope)
                    .map_err(|e| Error::Index(e.to_string()))?;
                query_vector = Some(v);
                hits.into_iter()
                    .filter(|h| h.score >= min_similarity && usable(&h.id))
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

        // Person graph: memories about those people, closest to the query first.
        let mut graph: Vec<(f32, DateTime<Utc>, String)> = self
            .memories
            .iter()
            .filter(|r| !about.is_empty() && r.subject_person_ids.iter().any(|s| about.contains(s)))
            .filter(|r| caller.can_see(r) && lifecycle::is_live(r, now))
            .map(|r| {
                let sim = match (&query_vector, r.vector()) {
                    (Some(q), Some(v)) => cosine(q, &v),
                    _ => 0.0,
                };
                (
                    sim,
                    parse_time(&r.created_at).unwrap_or(DateTime::UNIX_EPOCH),
                    r.id.clone(),
                )
            })
            .collect();
        graph.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
        let graph_ids: Vec<String> = graph.into_iter().map(|g| g.2).collect();
        for id in &graph_ids {
            if let (Some(q), Some(v)) = (&query_vector, self.memories.get(id).and_then(|r| r.vector())) {
                similarity.entry(id.clone()).or_insert_with(|| cosine(q, &v));
            }
        }

        let hits = fuse(&[vector_ids, text_ids, graph_ids])
            .into_iter()
            .filter(|(id, _)| {
                !filter_to_about
                    || self
                        .memories
                        .get(id)
                        .is_some_and(|r| r.subject_person_ids.iter().any(|s| about.contains(s)))
            })
            .take(limit as usize)
            .filter_map(|(id, score)| {
                let record = self.memories.get(&id)?;
                Some(SearchHit {
                    memory: Memory::from(record),
                    score,
                    similarity: similarity.get(&id).copied(),
                    subjects: self.names(caller, &record.subject_person_ids),
                })
            })
            .collect();
        Ok(SearchResults { hits, notices })
    }

    /// People the text refers to by relation: "my wife" in "What does my wife like?".
    fn relations_in(&self, caller: &Caller, text: &str) -> Vec<String> {
        let lower = text.to_lowercase();
        self.people_of(caller)
            .into_iter()
            .filter(|p| {
                p.relation.as_deref().is_some_and(|r| {
                    let needle = format!("my {r}");
                    lower.match_indices(&needle).any(|(i, _)| {
                        let after = lower[i + needle.len()..].chars().next();
                        after.is_none_or(|c| !c.is_alphanumeric() || c == '\'')
                    })
                })
            })
            .map(|p| p.id.clone())
            .collect()
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
                .map(|r| if fits(r, &want) { r.vector() } else { None })
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

/// Whether the record's stored vector can be indexed for `want` without embedding again:
/// made by the same model (or by an unrecorded one) at the same dimension.
fn fits(record: &MemoryRecord, want: &IndexInfo) -> bool {
    let same_model = record.embedding_model.as_deref().is_none_or(|m| m == want.model);
    same_model && record.vector().is_some_and(|v| v.len() == want.dimension as usize)
}

/// Whether two records could state the same fact: the same scope and the same set of
/// subjects. A fact about Sarah never replaces a fact about the user.
fn same_slot(a: &MemoryRecord, b: &MemoryRecord) -> bool {
    let subjects = |r: &MemoryRecord| {
        let mut s = r.subject_person_ids.clone();
        s.sort();
        s.dedup();
        s
    };
    a.owner_user_id == b.owner_user_id && a.chat_id == b.chat_id && subjects(a) == subjects(b)
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 { 0.0 } else { dot / (na * nb) }
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
