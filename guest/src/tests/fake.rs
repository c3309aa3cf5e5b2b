//! In-memory ports for unit tests of the policy. Not a proof that anything works with
//! real files or a real index: the end-to-end tests in `tests/e2e` are that.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use crate::ports::*;

/// Files, index, embedder and clock in memory. The embedder hashes words into a small
/// vector, so texts sharing words are similar and others are not.
#[derive(Default)]
pub struct FakePorts {
    pub files: RefCell<HashMap<&'static str, (String, u64)>>,
    pub quarantined: RefCell<Vec<String>>,
    pub index: RefCell<HashMap<String, IndexEntry>>,
    pub index_info: RefCell<Option<IndexInfo>>,
    pub index_reflects: RefCell<Option<FileState>>,
    pub message_index_reflects: RefCell<Option<FileState>>,
    pub index_broken: Cell<bool>,
    /// Refuses every file write as a host does in a call begun as a read.
    pub read_only: Cell<bool>,
    /// Refuses every upsert of an entry, and nothing else.
    pub fail_upserts: Cell<bool>,
    /// Refuses every replace of this collection, as a call killed at that write leaves
    /// the writes before it done.
    pub fail_replace: Cell<Option<Collection>>,
    pub embedder_down: Cell<bool>,
    pub embed_calls: Cell<usize>,
    /// How many hits each vector and full-text search asked for, in order.
    pub asked_depths: RefCell<Vec<u32>>,
    /// Every text embedded, in order.
    pub embedded: RefCell<Vec<String>>,
    /// The query of every vector search, in order.
    pub knn_queries: RefCell<Vec<Vec<f32>>>,
    /// The embedder's model id, when not the default "fake-words" (to change models).
    pub model: RefCell<Option<String>>,
    pub now: RefCell<String>,
    pub next_id: Cell<u64>,
    pub logs: RefCell<Vec<(Level, String)>>,
    pub settings: RefCell<PolicySettings>,
    /// What the language model answers; `None` means it is unavailable.
    pub llm_answer: RefCell<Option<String>>,
    pub llm_calls: Cell<usize>,
    /// Runs at each completion, as another process could while the lock is let go for it.
    #[allow(clippy::type_complexity)]
    pub while_asked: RefCell<Option<Box<dyn Fn(&FakePorts)>>>,
    /// Bytes handed out by each read of a collection, in order.
    pub reads: RefCell<Vec<(Collection, usize)>>,
    /// The limit of each `index_newest` call, in order.
    pub newest_asked: RefCell<Vec<u32>>,
    /// How many keys each `index_newest_moments` call asked about, in order.
    pub moments_asked: RefCell<Vec<usize>>,
    /// The limit of each `index_recent` call, in order.
    pub recent_asked: RefCell<Vec<u32>>,
    /// When each held entry was first indexed (a count), for `index_recent`'s ties.
    pub indexed_at: RefCell<HashMap<String, u64>>,
    /// How many entries were ever first indexed.
    pub indexed: Cell<u64>,
    /// Runs at each embedding, as another process could while the lock is let go for it.
    #[allow(clippy::type_complexity)]
    pub while_embedding: RefCell<Option<Box<dyn Fn(&FakePorts)>>>,
    /// Runs once, at the next read of what the index reflects of this kind of entry: as
    /// another host's write of other scopes can commit between a call's read of a file and
    /// its read of the index.
    #[allow(clippy::type_complexity)]
    pub before_reflects: RefCell<Option<(EntryKind, Box<dyn FnOnce(&FakePorts)>)>>,
}

pub const DIM: usize = 32;

fn name(c: Collection) -> &'static str {
    match c {
        Collection::Memories => "memories",
        Collection::People => "people",
        Collection::Archive => "archive",
        Collection::Sessions => "sessions",
        Collection::Messages => "messages",
    }
}

impl FakePorts {
    pub fn new() -> Self {
        let ports = FakePorts::default();
        *ports.now.borrow_mut() = "2026-03-01T12:00:00+00:00".into();
        ports
    }

    /// The text of a collection.
    pub fn file(&self, c: Collection) -> String {
        self.files
            .borrow()
            .get(name(c))
            .map(|f| f.0.clone())
            .unwrap_or_default()
    }

    /// Writes raw text to a collection, as another process or a crash would.
    pub fn write_raw(&self, c: Collection, text: &str) {
        let mut files = self.files.borrow_mut();
        let entry = files.entry(name(c)).or_default();
        entry.0.push_str(text);
    }

    pub fn vector(text: &str) -> Vec<f32> {
        let mut v = [0.0f32; DIM];
        for word in text
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() > 2)
        {
            let h = word
                .bytes()
                .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
            v[h as usize % DIM] += 1.0;
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
        v.iter().map(|x| x / norm).collect()
    }

    /// An entry as `fetch` and the other reads hand it out; none without a record.
    fn held(e: &IndexEntry) -> Option<Held> {
        Some(Held {
            id: e.id.clone(),
            record: e.record.clone()?,
            embedding: e.embedding.clone(),
        })
    }

    /// The ids of `id`'s scope held as memories, live at `now` (`id` itself whatever its
    /// expiry), in the order `made-after` and `made-around` walk (made, then first
    /// indexed), and where `id` stands among them; none for an id not held as a memory.
    fn told_in_order(&self, id: &str, now: i64) -> Option<(Vec<IndexEntry>, usize)> {
        let index = self.index.borrow();
        let indexed_at = self.indexed_at.borrow();
        let me = index.get(id).filter(|e| e.record.is_some())?;
        let mut order: Vec<IndexEntry> = index
            .values()
            .filter(|e| e.record.is_some() && e.kind == me.kind && e.chat_id == me.chat_id)
            .filter(|e| e.chat_id.is_some() || e.owner_user_id == me.owner_user_id)
            .filter(|e| e.id == me.id || e.marks.lapses.is_none_or(|at| at > now))
            .cloned()
            .collect();
        order.sort_by_key(|e| (e.marks.made, indexed_at.get(&e.id).copied()));
        let at = order.iter().position(|e| e.id == id)?;
        Some((order, at))
    }

    fn in_scope(e: &IndexEntry, scope: &ScopeFilter) -> bool {
        e.kind == scope.kind
            && match (&e.chat_id, &e.owner_user_id) {
                (Some(c), _) => scope.chat_id.as_ref() == Some(c),
                (None, Some(u)) => scope.user_id.as_ref() == Some(u),
                _ => false,
            }
    }

    fn reflects(&self, kind: EntryKind) -> &RefCell<Option<FileState>> {
        match kind {
            EntryKind::Memory => &self.index_reflects,
            EntryKind::Message => &self.message_index_reflects,
        }
    }
}

/// The generation a file gets when an append creates it (a missing one reads as 0).
const CREATED_GENERATION: u64 = 1 << 32;

impl Ports for FakePorts {
    fn read(&self, c: Collection, from: u64, generation: Option<u64>) -> Result<Chunk, FileError> {
        let files = self.files.borrow();
        let (text, gen_) = files.get(name(c)).cloned().unwrap_or_default();
        // As `wit/files.wit` says (and the Postgres host does): without a generation,
        // from `from`.
        let from = if generation.is_none_or(|g| g == gen_) && from as usize <= text.len() {
            from as usize
        } else {
            0
        };
        self.reads.borrow_mut().push((c, text.len() - from));
        Ok(Chunk {
            data: text[from..].to_owned(),
            end: text.len() as u64,
            generation: gen_,
        })
    }
    fn append(&self, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
        if self.read_only.get() {
            return Err(FileError::ReadOnly(format!(
                "{}: the call was begun as a read",
                name(c)
            )));
        }
        let mut files = self.files.borrow_mut();
        // As on a real disk, creating a missing file gives it a generation of its own.
        let entry = files
            .entry(name(c))
            .or_insert_with(|| (String::new(), CREATED_GENERATION));
        if !entry.0.is_empty() && !entry.0.ends_with('\n') {
            entry.0.push('\n');
        }
        for l in lines {
            entry.0.push_str(l);
            entry.0.push('\n');
        }
        Ok(FileState {
            generation: entry.1,
            end: entry.0.len() as u64,
        })
    }
    fn replace(&self, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
        if self.read_only.get() {
            return Err(FileError::ReadOnly(format!(
                "{}: the call was begun as a read",
                name(c)
            )));
        }
        if self.fail_replace.get() == Some(c) {
            return Err(FileError::Failed(format!("{}: no space left on device", name(c))));
        }
        let mut files = self.files.borrow_mut();
        let entry = files.entry(name(c)).or_default();
        entry.0 = lines.iter().map(|l| format!("{l}\n")).collect();
        entry.1 += 1;
        Ok(FileState {
            generation: entry.1,
            end: entry.0.len() as u64,
        })
    }
    fn quarantine(&self, c: Collection, lines: &[String], _reason: &str) -> Result<(), FileError> {
        if self.read_only.get() {
            return Err(FileError::ReadOnly(format!(
                "{}: the call was begun as a read",
                name(c)
            )));
        }
        self.quarantined.borrow_mut().extend(lines.iter().cloned());
        Ok(())
    }
    fn index_upsert(&self, entries: &[IndexEntry]) -> Result<(), IndexError> {
        if self.index_broken.get() {
            return Err(IndexError::Unavailable("broken".into()));
        }
        if self.fail_upserts.get() && !entries.is_empty() {
            return Err(IndexError::Sql("refused".into()));
        }
        for e in entries {
            // An entry upserted again keeps its place; a new one comes after every other.
            let next = self.indexed.get();
            self.indexed_at.borrow_mut().entry(e.id.clone()).or_insert_with(|| {
                self.indexed.set(next + 1);
                next
            });
            self.index.borrow_mut().insert(e.id.clone(), e.clone());
        }
        Ok(())
    }
    fn index_remove(&self, ids: &[String]) -> Result<(), IndexError> {
        for id in ids {
            self.index.borrow_mut().remove(id);
            self.indexed_at.borrow_mut().remove(id);
        }
        Ok(())
    }
    fn index_knn(&self, query: &[f32], k: u32, scope: &ScopeFilter) -> Result<Vec<IndexHit>, IndexError> {
        self.asked_depths.borrow_mut().push(k);
        self.knn_queries.borrow_mut().push(query.to_vec());
        let mut hits: Vec<IndexHit> = self
            .index
            .borrow()
            .values()
            .filter(|e| Self::in_scope(e, scope))
            .filter_map(|e| {
                let v = e.embedding.as_ref()?;
                Some(IndexHit {
                    id: e.id.clone(),
                    score: v.iter().zip(query).map(|(a, b)| a * b).sum(),
                })
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
        hits.truncate(k as usize);
        Ok(hits)
    }
    fn index_text_search(&self, terms: &[String], k: u32, scope: &ScopeFilter) -> Result<Vec<IndexHit>, IndexError> {
        self.asked_depths.borrow_mut().push(k);
        let mut hits: Vec<IndexHit> = self
            .index
            .borrow()
            .values()
            .filter(|e| Self::in_scope(e, scope))
            .filter_map(|e| {
                // As the index weighs them: a term the context holds counts a quarter.
                let content = e.content.to_lowercase();
                let context = e.context.as_deref().unwrap_or("").to_lowercase();
                let score: f32 = terms
                    .iter()
                    .map(|t| match (content.contains(t.as_str()), context.contains(t.as_str())) {
                        (true, _) => 1.0,
                        (false, true) => 0.25,
                        (false, false) => 0.0,
                    })
                    .sum();
                (score > 0.0).then(|| IndexHit {
                    id: e.id.clone(),
                    score,
                })
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
        hits.truncate(k as usize);
        Ok(hits)
    }
    fn index_fetch(&self, ids: &[String]) -> Result<Vec<Held>, IndexError> {
        let index = self.index.borrow();
        Ok(ids
            .iter()
            .filter_map(|id| index.get(id))
            .filter_map(Self::held)
            .collect())
    }
    fn index_set_records(&self, revisions: &[Revision]) -> Result<(), IndexError> {
        let mut index = self.index.borrow_mut();
        for r in revisions {
            if let Some(e) = index.get_mut(&r.id) {
                e.record = Some(r.record.clone());
                e.marks = r.marks.clone();
            }
        }
        Ok(())
    }
    fn index_tally(&self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Tally, IndexError> {
        let index = self.index.borrow();
        let live: Vec<&IndexEntry> = index
            .values()
            .filter(|e| Self::in_scope(e, scope) && e.marks.lapses.is_none_or(|at| at > now))
            .collect();
        Ok(Tally {
            live: live.len() as u64,
            holding: keys
                .iter()
                .map(|k| live.iter().filter(|e| e.marks.keys.contains(k)).count() as u64)
                .collect(),
        })
    }
    fn index_holding(&self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Vec<Held>, IndexError> {
        let index = self.index.borrow();
        let mut held: Vec<Held> = index
            .values()
            .filter(|e| Self::in_scope(e, scope) && e.marks.lapses.is_none_or(|at| at > now))
            .filter(|e| e.marks.keys.iter().any(|k| keys.contains(k)))
            .filter_map(Self::held)
            .collect();
        // The host promises no order: the fake gives one no search may rely on.
        held.sort_by(|a, b| b.id.cmp(&a.id));
        Ok(held)
    }
    fn index_holding_ids(&self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Vec<String>, IndexError> {
        Ok(self
            .index_holding(keys, scope, now)?
            .into_iter()
            .map(|h| h.id)
            .collect())
    }
    fn index_newest_ids(
        &self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, IndexError> {
        let lists = self.index_newest(keys, scope, now, limit)?;
        Ok(lists
            .into_iter()
            .map(|l| l.into_iter().map(|h| h.id).collect())
            .collect())
    }
    fn index_newest(
        &self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<Held>>, IndexError> {
        self.newest_asked.borrow_mut().push(limit);
        let index = self.index.borrow();
        Ok(keys
            .iter()
            .map(|key| {
                let mut holders: Vec<&IndexEntry> = index
                    .values()
                    .filter(|e| Self::in_scope(e, scope) && e.marks.lapses.is_none_or(|at| at > now))
                    .filter(|e| e.marks.keys.contains(key) && e.record.is_some())
                    .collect();
                holders.sort_by(|a, b| b.marks.observed.cmp(&a.marks.observed).then(a.id.cmp(&b.id)));
                holders
                    .into_iter()
                    .take(limit as usize)
                    .filter_map(Self::held)
                    .collect()
            })
            .collect())
    }
    fn index_newest_moments(
        &self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, IndexError> {
        self.moments_asked.borrow_mut().push(keys.len());
        let index = self.index.borrow();
        Ok(keys
            .iter()
            .map(|key| {
                index
                    .values()
                    .filter(|e| Self::in_scope(e, scope) && e.marks.lapses.is_none_or(|at| at > now))
                    .filter(|e| e.marks.keys.contains(key) && e.record.is_some())
                    .map(|e| e.marks.observed)
                    .max()
            })
            .collect())
    }
    fn index_recent(&self, scope: &ScopeFilter, now: Option<i64>, limit: u32) -> Result<Vec<Held>, IndexError> {
        self.recent_asked.borrow_mut().push(limit);
        let index = self.index.borrow();
        let indexed_at = self.indexed_at.borrow();
        let mut found: Vec<&IndexEntry> = index
            .values()
            .filter(|e| Self::in_scope(e, scope) && e.record.is_some())
            .filter(|e| now.is_none_or(|now| e.marks.lapses.is_none_or(|at| at > now)))
            .collect();
        found.sort_by_key(|e| std::cmp::Reverse((e.marks.made, indexed_at.get(&e.id).copied())));
        Ok(found.into_iter().take(limit as usize).filter_map(Self::held).collect())
    }
    fn index_made_after(&self, ids: &[String], now: i64, within: i64) -> Result<Vec<Option<String>>, IndexError> {
        Ok(ids
            .iter()
            .map(|id| {
                let (order, at) = self.told_in_order(id, now)?;
                let me = order[at].marks.made;
                let next = order.get(at + 1).filter(|e| e.marks.made - me <= within)?;
                Some(next.id.clone())
            })
            .collect())
    }
    fn index_made_around(&self, ids: &[String], places: u32, now: i64) -> Result<Vec<Vec<String>>, IndexError> {
        Ok(ids
            .iter()
            .map(|id| {
                let Some((order, at)) = self.told_in_order(id, now) else {
                    return Vec::new();
                };
                let before = order[..at].iter().rev().take(places as usize);
                let after = order[at + 1..].iter().take(places as usize);
                before.chain(after).map(|e| e.id.clone()).collect()
            })
            .collect())
    }
    fn index_pending(&self, kind: EntryKind) -> Result<u64, IndexError> {
        Ok(self
            .index
            .borrow()
            .values()
            .filter(|e| e.kind == kind && e.embedding.is_none())
            .count() as u64)
    }
    fn index_count(&self, kind: EntryKind) -> Result<u64, IndexError> {
        Ok(self.index.borrow().values().filter(|e| e.kind == kind).count() as u64)
    }
    fn index_reflects(&self, kind: EntryKind) -> Result<Option<FileState>, IndexError> {
        let due = self.before_reflects.borrow().as_ref().is_some_and(|(k, _)| *k == kind);
        if due {
            let meanwhile = self.before_reflects.borrow_mut().take();
            if let Some((_, meanwhile)) = meanwhile {
                meanwhile(self);
            }
        }
        if self.index_broken.get() {
            return Err(IndexError::Unavailable("broken".into()));
        }
        Ok(*self.reflects(kind).borrow())
    }
    fn index_set_reflects(&self, kind: EntryKind, state: FileState) -> Result<(), IndexError> {
        *self.reflects(kind).borrow_mut() = Some(state);
        Ok(())
    }
    fn index_clear(&self, info: &IndexInfo) -> Result<(), IndexError> {
        self.index_broken.set(false);
        *self.index_reflects.borrow_mut() = None;
        *self.message_index_reflects.borrow_mut() = None;
        self.index.borrow_mut().clear();
        self.indexed_at.borrow_mut().clear();
        *self.index_info.borrow_mut() = Some(info.clone());
        Ok(())
    }
    fn index_info(&self) -> Result<Option<IndexInfo>, IndexError> {
        if self.index_broken.get() {
            return Err(IndexError::Unavailable("broken".into()));
        }
        Ok(self.index_info.borrow().clone())
    }
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if self.embedder_down.get() {
            return Err(EmbedError::Unavailable("connection refused".into()));
        }
        self.embed_calls.set(self.embed_calls.get() + 1);
        self.embedded.borrow_mut().extend(texts.iter().cloned());
        if let Some(meanwhile) = self.while_embedding.borrow().as_ref() {
            meanwhile(self);
        }
        Ok(texts.iter().map(|t| Self::vector(t)).collect())
    }
    fn embedder_model(&self) -> String {
        self.model.borrow().clone().unwrap_or_else(|| "fake-words".into())
    }
    fn embedder_dimension(&self) -> u32 {
        DIM as u32
    }
    fn complete(&self, _request: &LlmRequest) -> Result<String, LlmError> {
        self.llm_calls.set(self.llm_calls.get() + 1);
        if let Some(meanwhile) = self.while_asked.borrow().as_ref() {
            meanwhile(self);
        }
        self.llm_answer
            .borrow()
            .clone()
            .ok_or_else(|| LlmError("no model configured".into()))
    }
    fn now(&self) -> String {
        self.now.borrow().clone()
    }
    fn new_id(&self) -> String {
        self.next_id.set(self.next_id.get() + 1);
        format!("00000000-0000-4000-8000-{:012}", self.next_id.get())
    }
    fn log(&self, level: Level, message: &str) {
        self.logs.borrow_mut().push((level, message.to_owned()));
    }
    fn progress(&self, _task: &str, _done: u64, _total: u64) {}
    fn settings(&self) -> PolicySettings {
        self.settings.borrow().clone()
    }
}
