//! The memory API over the ports: it validates, decides and orchestrates; the ports do
//! the I/O. One `MemoryService` lives for the lifetime of a component instance and keeps
//! the collections cached between calls. Index upkeep lives in `index_sync`.

use chrono::{DateTime, Datelike, TimeDelta, Utc};

use std::collections::{HashMap, HashSet};

use crate::api::{
    Added, Archived, CompactReport, Error, GcReport, ListOptions, Memory, NewMemory, SearchHit, SearchQuery,
    SearchResults,
};
use crate::collection::{Memories, People};
use crate::gc::{self, ArchiveReason};
use crate::index_sync::index_entry;
use crate::lifecycle;
use crate::memory_type::classify;
use crate::ports::{Collection, IndexEntry, IndexError, Level, Ports, ScopeFilter};
use crate::record::{MemoryRecord, RECORD_VERSION, encode_embedding, format_time, parse_time};
use crate::scope::{Caller, Scope};
use crate::search::{MIN_VECTOR_SIMILARITY, fuse, query_terms};
use crate::secrets;
use crate::supersession;
use crate::vectors::{self, cosine};

/// Default number of search hits.
pub const DEFAULT_SEARCH_LIMIT: u32 = 10;
/// Most search hits one query returns (the vector index answers at most 4096 neighbours,
/// and a search over-fetches four times its limit).
pub const MAX_SEARCH_LIMIT: u32 = 1000;
/// Longest memory accepted, in bytes: a memory is a fact, not a document.
pub const MAX_CONTENT_BYTES: usize = 16 * 1024;
/// Longest expiry accepted, in days: a hundred years.
pub const MAX_EXPIRES_DAYS: u32 = 36_500;
/// Shortest id prefix that `get`, `delete` and `history` accept, as git does.
pub const MIN_ID_PREFIX: usize = 8;
/// The years a timestamp may fall in: records must stay readable by RFC 3339 parsers.
const YEARS: std::ops::RangeInclusive<i32> = 1970..=9999;

/// The memory API, generic over its host.
pub struct MemoryService<P: Ports> {
    pub(crate) ports: P,
    pub(crate) memories: Memories,
    pub(crate) people: People,
    /// Whether this instance has checked the index's model against the embedder yet.
    pub(crate) index_checked: bool,
    /// Whether this instance has tried to embed memories stored while the embedder was down.
    pub(crate) pending_checked: bool,
}

/// What a new record might replace.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Replaces {
    /// An existing memory, by id.
    Existing(String),
    /// An earlier record of the same batch, by position.
    Batch(usize),
}

/// A supersession candidate: (the new record's position, what it might replace, cosine).
type Candidate = (usize, Replaces, f32);

impl<P: Ports> MemoryService<P> {
    pub fn new(ports: P) -> Self {
        MemoryService {
            ports,
            memories: Memories::default(),
            people: People::default(),
            index_checked: false,
            pending_checked: false,
        }
    }

    /// The ports, for tests that inspect what was written.
    pub fn ports(&self) -> &P {
        &self.ports
    }

    pub(crate) fn now(&self) -> Result<DateTime<Utc>, Error> {
        let now = parse_time(&self.ports.now()).map_err(|e| Error::Storage(format!("host clock: {e}")))?;
        // A hundred years of expiry must still be a readable timestamp.
        if !(1970..=9899).contains(&now.year()) {
            return Err(Error::InvalidInput(format!(
                "the clock reads {}, outside the years 1970 to 9899",
                format_time(now)
            )));
        }
        Ok(now)
    }

    /// Stores one memory; see `add` in `wit/memory.wit`.
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
        if items.is_empty() {
            return Err(Error::InvalidInput("nothing to add".into()));
        }
        let now = self.now()?;
        // Validate everything before anything is read or written.
        let mut records = Vec::with_capacity(items.len());
        let mut subjects = Vec::with_capacity(items.len());
        for (i, mut item) in items.into_iter().enumerate() {
            let which = if i == 0 {
                String::new()
            } else {
                format!("fact {}: ", i + 1)
            };
            let refs = std::mem::take(&mut item.subjects);
            let record = self
                .new_record(caller, item, now)
                .and_then(|r| check_subjects(&refs).map(|()| r))
                .map_err(|e| match e {
                    Error::InvalidInput(m) => Error::InvalidInput(format!("{which}{m}")),
                    Error::SecretRefused(m) => Error::SecretRefused(format!("{which}{m}")),
                    other => other,
                })?;
            subjects.push(refs);
            records.push(record);
        }

        let vectors = self.embed_new(&records);
        let model = self.ports.embedder_model();
        for (record, vector) in records.iter_mut().zip(&vectors) {
            if let Some(vector) = vector {
                record.embedding = Some(encode_embedding(vector));
                record.embedding_model = Some(model.clone());
            }
        }

        self.load()?;
        let stamp = format_time(now);
        let mut people_writes = self.link_people(caller, &mut records, &subjects, &stamp)?;
        let candidates = self.supersession_candidates(&records, &vectors, now)?;
        let judged: Vec<(Candidate, String, bool)> = candidates
            .into_iter()
            .map(|c| {
                let old = self.candidate_content(&c, &records);
                let context = self.rule_context(&records[c.0], &people_writes);
                let verdict = self.verify(&old, &records[c.0].content, &context);
                (c, old, verdict)
            })
            .collect();
        let superseded = if judged.is_empty() {
            Vec::new()
        } else {
            // The language model may have been asked without the lock: read again, resolve
            // the people again, and keep only verdicts on candidates that are still live and
            // still say what was judged (anything new is kept, unjudged: doubt keeps both).
            self.load()?;
            people_writes = self.link_people(caller, &mut records, &subjects, &stamp)?;
            let still: Vec<(Candidate, String)> = self
                .supersession_candidates(&records, &vectors, now)?
                .into_iter()
                .map(|c| {
                    let old = self.candidate_content(&c, &records);
                    (c, old)
                })
                .collect();
            let (candidates, verdicts): (Vec<Candidate>, Vec<bool>) = judged
                .into_iter()
                .filter(|(c, old, _)| {
                    still
                        .iter()
                        .any(|(s, now_old)| s.0 == c.0 && s.1 == c.1 && now_old == old)
                })
                .map(|(c, _, verdict)| (c, verdict))
                .unzip();
            self.apply_verdicts(&mut records, candidates, verdicts, &stamp)
        };
        self.write_added(records, superseded, people_writes, &vectors, now)
    }

    /// The text of what a candidate would replace.
    fn candidate_content(&self, candidate: &Candidate, records: &[MemoryRecord]) -> String {
        match &candidate.1 {
            Replaces::Existing(id) => self.memories.get(id).map(|r| r.content.clone()).unwrap_or_default(),
            Replaces::Batch(j) => records[*j].content.clone(),
        }
    }

    /// Writes what an add decided: people first, then the new memories with the marks on
    /// what they replace in one append, then the index; then enforces `max_entries`.
    fn write_added(
        &mut self,
        records: Vec<MemoryRecord>,
        superseded: Vec<MemoryRecord>,
        people_writes: HashMap<String, crate::people::PersonRecord>,
        vectors: &[Option<Vec<f32>>],
        now: DateTime<Utc>,
    ) -> Result<Added, Error> {
        self.write_people(people_writes)?;
        let mut lines = records.clone();
        lines.extend(superseded.iter().cloned());
        self.memories.append(&self.ports, lines).map_err(storage)?;

        let entries: Vec<IndexEntry> = records
            .iter()
            .zip(vectors)
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
        Ok(Added {
            memories: records.iter().map(Memory::from).collect(),
            superseded: superseded
                .iter()
                .map(|r| (Memory::from(r), r.superseded_by_id.clone().unwrap_or_default()))
                .collect(),
            evicted,
        })
    }

    /// People: the subjects named, anyone the content introduces ("My wife's name is
    /// Sarah"), and known people it names. Returns the people to write (not yet written).
    fn link_people(
        &self,
        caller: &Caller,
        records: &mut [MemoryRecord],
        subjects: &[Vec<String>],
        stamp: &str,
    ) -> Result<HashMap<String, crate::people::PersonRecord>, Error> {
        let mut writes = HashMap::new();
        for (record, refs) in records.iter_mut().zip(subjects) {
            let mut ids: Vec<String> = Vec::new();
            for reference in refs {
                ids.push(self.resolve_person_in(caller, reference, Some(&record.content), stamp, &mut writes)?);
            }
            if caller.user_id.is_some() {
                if let Some((name, relation)) = crate::people::introduced(&record.content) {
                    let reference = format!("my {relation} {name}");
                    if secrets::detect(&reference).is_none() {
                        ids.push(self.resolve_person(caller, &reference, stamp, &mut writes)?);
                    }
                }
                let known = crate::people::named_in(&record.content, &self.people_of(caller));
                ids.extend(known.iter().map(|p| p.id.clone()));
            }
            let mut seen = HashSet::new();
            ids.retain(|id| seen.insert(id.clone()));
            record.subject_person_ids = ids;
        }
        Ok(writes)
    }

    /// Embeds new memories. A memory whose vector is unusable (the embedder failed, or
    /// returned zeros, NaN or the wrong length) gets none and is found by its words.
    fn embed_new(&self, records: &[MemoryRecord]) -> Vec<Option<Vec<f32>>> {
        let texts: Vec<String> = records.iter().map(|r| r.content.clone()).collect();
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

    /// What each new record might replace, most similar first: live memories in the same
    /// scope about the same subjects at or above the threshold, and earlier records of the
    /// same batch. Each is (new record's position, candidate, similarity).
    fn supersession_candidates(
        &self,
        records: &[MemoryRecord],
        vectors: &[Option<Vec<f32>>],
        now: DateTime<Utc>,
    ) -> Result<Vec<Candidate>, Error> {
        let threshold = self.ports.settings().supersession_threshold;
        let mut out = Vec::new();
        for (i, new) in records.iter().enumerate() {
            let Some(vector) = &vectors[i] else { continue };
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
            let hits = self.ports.index_knn(vector, 8, &scope).map_err(index_err)?;
            let mut mine: Vec<Candidate> = hits
                .into_iter()
                .filter(|h| h.score >= threshold)
                .filter(|h| {
                    self.memories
                        .get(&h.id)
                        .is_some_and(|old| same_slot(old, new) && lifecycle::is_live(old, now))
                })
                .map(|h| (i, Replaces::Existing(h.id), h.score))
                .collect();
            for j in 0..i {
                if let Some(earlier) = &vectors[j] {
                    let sim = cosine(vector, earlier);
                    if sim >= threshold && same_slot(&records[j], new) {
                        mine.push((i, Replaces::Batch(j), sim));
                    }
                }
            }
            mine.sort_by(|a, b| b.2.total_cmp(&a.2));
            out.extend(mine);
        }
        Ok(out)
    }

    /// Marks what the verdicts say is replaced: batch records in place; existing memories
    /// returned, already updated. A memory is replaced once, by the first new record that
    /// claims it.
    fn apply_verdicts(
        &self,
        records: &mut [MemoryRecord],
        candidates: Vec<Candidate>,
        verdicts: Vec<bool>,
        stamp: &str,
    ) -> Vec<MemoryRecord> {
        let mut replaced: Vec<MemoryRecord> = Vec::new();
        let mut taken: HashSet<String> = HashSet::new();
        for ((i, candidate, _), verdict) in candidates.into_iter().zip(verdicts) {
            if !verdict {
                continue;
            }
            let new_id = records[i].id.clone();
            match candidate {
                Replaces::Existing(id) => {
                    if taken.insert(id.clone())
                        && let Some(old) = self.memories.get(&id)
                    {
                        let mut old = old.clone();
                        old.superseded_at = Some(stamp.to_owned());
                        old.superseded_by_id = Some(new_id);
                        replaced.push(old);
                    }
                }
                Replaces::Batch(j) => {
                    if records[j].superseded_at.is_none() {
                        records[j].superseded_at = Some(stamp.to_owned());
                        records[j].superseded_by_id = Some(new_id);
                    }
                }
            }
        }
        replaced
    }

    /// Whether `new` replaces `old`: the language model's clear yes, or, when it cannot
    /// be asked, the conservative rule. An unclear answer keeps both.
    fn verify(&self, old: &str, new: &str, context: &supersession::RuleContext) -> bool {
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
                supersession::rule_replaces(old, new, context)
            }
        }
    }

    /// Archives the oldest, most ephemeral memories beyond `max_entries` in each scope the
    /// new records went to, never the ones just added. The limit is per scope (a user's
    /// personal memories, a chat's group memories): one user's adds never evict another's.
    fn enforce_max_entries(
        &mut self,
        added: &[MemoryRecord],
        protected: &[String],
        now: DateTime<Utc>,
    ) -> Result<Vec<Memory>, Error> {
        let Some(max) = self.ports.settings().max_entries else {
            return Ok(Vec::new());
        };
        let mut scopes: Vec<(Option<String>, Option<String>)> = Vec::new();
        for r in added {
            let key = (r.owner_user_id.clone(), r.chat_id.clone());
            if !scopes.contains(&key) {
                scopes.push(key);
            }
        }
        let mut victims: Vec<MemoryRecord> = Vec::new();
        for (owner, chat) in scopes {
            let in_scope: Vec<&MemoryRecord> = self
                .memories
                .iter()
                .filter(|r| r.owner_user_id == owner && r.chat_id == chat)
                .collect();
            let count = in_scope.len() as u64;
            if count > max {
                victims.extend(
                    gc::eviction_order(in_scope.into_iter(), (count - max) as usize, protected, now)
                        .into_iter()
                        .cloned(),
                );
            }
        }
        let evicted = victims.iter().map(Memory::from).collect();
        self.archive(victims.into_iter().map(|r| (r, ArchiveReason::Evicted)).collect(), now)?;
        Ok(evicted)
    }

    /// Appends records to the archive with a reason, then rewrites the collection without
    /// them and drops them from the index. The archive is written first: the host treats
    /// the rewrite as the commit point, and a crash before it rolls the archive back.
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
        self.index_written(&[], &ids);
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
        // A cutoff before the calendar begins means nothing is that old.
        let cutoff = now
            .checked_sub_signed(TimeDelta::days(i64::from(older_than_days)))
            .unwrap_or(DateTime::<Utc>::MIN_UTC);
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
        let id = resolve_id(id, all.values().filter(|r| caller.can_see(r)).map(|r| r.id.as_str()))?;
        let id = id.as_str();
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
        if content.chars().all(is_invisible) {
            return Err(Error::InvalidInput(if content.is_empty() {
                "content is empty".into()
            } else {
                "content is empty: it holds only invisible or control characters".into()
            }));
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
        let source = item.source.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        if let Some(kind) = source.as_deref().and_then(secrets::detect) {
            return Err(Error::SecretRefused(format!(
                "the source looks like {}; secrets are never stored in memory",
                kind.describe()
            )));
        }
        let scope = caller.scope_for_new(item.shared).map_err(Error::InvalidInput)?;
        let expires_at = match item.expires_in_days {
            Some(days) if !(1..=MAX_EXPIRES_DAYS).contains(&days) => {
                return Err(Error::InvalidInput(format!(
                    "expires-in-days is {days}; it must be from 1 to {MAX_EXPIRES_DAYS} (a hundred years)"
                )));
            }
            Some(days) => Some(format_time(now + TimeDelta::days(i64::from(days)))),
            None => None,
        };
        let observed_at = match item.observed_at {
            Some(t) => {
                let t = parse_time(&t).map_err(Error::InvalidInput)?;
                check_year("observed-at", t)?;
                Some(format_time(t))
            }
            None => None,
        };
        let (owner_user_id, chat_id) = match scope {
            Scope::Personal { owner_user_id } => (Some(owner_user_id), None),
            Scope::Group { chat_id } => (None, Some(chat_id)),
        };
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
        let id = self.visible_id(caller, id)?;
        match self.memories.get(&id) {
            Some(r) if caller.can_see(r) => Ok(Memory::from(r)),
            _ => Err(not_found(&id)),
        }
    }

    /// The full id of a memory the caller may see, from its id or a unique prefix.
    fn visible_id(&self, caller: &Caller, reference: &str) -> Result<String, Error> {
        resolve_id(
            reference,
            self.memories
                .iter()
                .filter(|r| caller.can_see(r))
                .map(|r| r.id.as_str()),
        )
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
        let limit = query.limit.unwrap_or(DEFAULT_SEARCH_LIMIT).clamp(1, MAX_SEARCH_LIMIT);
        let mut notices = Vec::new();
        // The query is embedded before the collections are read: a remote embedder is
        // asked without the home's lock.
        let dimension = self.ports.embedder_dimension();
        let query_vector = match self.ports.embed(&[text.to_owned()]) {
            Ok(mut vectors) if vectors.len() == 1 => vectors::usable(vectors.remove(0), dimension),
            Ok(_) | Err(_) => {
                let notice = "the embedding service is unavailable: full-text search only".to_owned();
                self.ports.log(Level::Warn, &notice);
                notices.push(notice);
                None
            }
        };
        self.load()?;
        let now = self.now()?;
        let scope = caller.filter();

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
        let k = (limit * 4).clamp(32, 4096);
        let usable = |id: &str| {
            self.memories
                .get(id)
                .is_some_and(|r| caller.can_see(r) && lifecycle::is_live(r, now))
        };
        let mut similarity = HashMap::new();
        let vector_ids: Vec<String> = match &query_vector {
            Some(v) => self
                .ports
                .index_knn(v, k, &scope)
                .map_err(index_err)?
                .into_iter()
                .filter(|h| h.score >= min_similarity && usable(&h.id))
                .map(|h| {
                    similarity.insert(h.id.clone(), h.score);
                    h.id
                })
                .collect(),
            None => Vec::new(),
        };
        let terms = query_terms(text);
        let text_ids: Vec<String> = self
            .ports
            .index_text_search(&terms, k, &scope)
            .map_err(index_err)?
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
    pub fn delete(&mut self, caller: &Caller, id: &str) -> Result<String, Error> {
        self.load()?;
        let id = self.visible_id(caller, id)?;
        let record = match self.memories.get(&id) {
            Some(r) if caller.can_see(r) => r.clone(),
            _ => return Err(not_found(&id)),
        };
        if !caller.can_delete(&record) {
            return Err(Error::Unauthorized(format!("deleting memory {id} needs a user")));
        }
        let mut archived = record;
        archived.archived_at = Some(format_time(self.now()?));
        archived.archive_reason = Some("deleted".to_owned());
        self.ports
            .append(Collection::Archive, &[archived.to_line()])
            .map_err(storage)?;
        self.memories
            .remove(&self.ports, std::slice::from_ref(&id))
            .map_err(storage)?;
        self.index_written(&[], std::slice::from_ref(&id));
        Ok(id)
    }
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

/// Subject references are user text like any other: a secret in one is refused.
fn check_subjects(refs: &[String]) -> Result<(), Error> {
    for r in refs {
        if let Some(kind) = secrets::detect(r) {
            return Err(Error::SecretRefused(format!(
                "a subject looks like {}; secrets are never stored in memory",
                kind.describe()
            )));
        }
    }
    Ok(())
}

/// Whether a character shows nothing: controls, zero-width and formatting characters,
/// variation selectors. Content made only of these (and spaces) is empty.
fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
            | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}')
}

/// A timestamp's year must stay within what RFC 3339 can write and read back.
fn check_year(name: &str, t: DateTime<Utc>) -> Result<(), Error> {
    if YEARS.contains(&t.year()) {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "{name} {} is outside the years {} to {}",
            format_time(t),
            YEARS.start(),
            YEARS.end()
        )))
    }
}

pub(crate) fn index_err(e: IndexError) -> Error {
    Error::Index(e.to_string())
}

pub(crate) fn storage(e: crate::ports::FileError) -> Error {
    Error::Storage(e.0)
}

pub(crate) fn not_found(id: &str) -> Error {
    Error::NotFound(format!("no memory {id} is visible to you"))
}

/// Finds the one id among `candidates` that `reference` names: the id itself, or a unique
/// prefix of at least [`MIN_ID_PREFIX`] characters. Callers pass only ids the caller may
/// see, so neither an ambiguous nor a missing prefix says anything about other scopes.
pub(crate) fn resolve_id<'a>(reference: &str, candidates: impl Iterator<Item = &'a str>) -> Result<String, Error> {
    let reference = reference.trim();
    let mut found: Vec<&str> = Vec::new();
    for id in candidates {
        if id == reference {
            return Ok(id.to_owned());
        }
        if reference.len() >= MIN_ID_PREFIX && id.starts_with(reference) && !found.contains(&id) {
            found.push(id);
        }
    }
    match found.as_slice() {
        [one] => Ok((*one).to_owned()),
        [] => Err(not_found(reference)),
        many => Err(Error::InvalidInput(format!(
            "{reference} is ambiguous: {} of your memories start with it; give more characters",
            many.len()
        ))),
    }
}
