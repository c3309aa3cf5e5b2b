//! The WIT imports as the policy's ports.

use super::ash::memory::{clock, embedder, files, ids, index, llm, log, settings};
use crate::ports::{self, Collection, Ports};
use crate::record::{decode_embedding, encode_embedding};

/// The imports, as the policy's ports.
pub(super) struct WitPorts;

fn collection(c: Collection) -> files::Collection {
    match c {
        Collection::Memories => files::Collection::Memories,
        Collection::People => files::Collection::People,
        Collection::Archive => files::Collection::Archive,
        Collection::Sessions => files::Collection::Sessions,
        Collection::Messages => files::Collection::Messages,
    }
}

fn kind(k: ports::EntryKind) -> index::EntryKind {
    match k {
        ports::EntryKind::Memory => index::EntryKind::Memory,
        ports::EntryKind::Message => index::EntryKind::Message,
    }
}

fn file_error(e: files::Error) -> ports::FileError {
    match e {
        files::Error::Io(m) => ports::FileError::Failed(m),
        files::Error::InvalidLine(m) => ports::FileError::Failed(format!("invalid line: {m}")),
        files::Error::ReadOnly(m) => ports::FileError::ReadOnly(m),
    }
}

fn file_state(s: files::FileState) -> ports::FileState {
    ports::FileState {
        generation: s.generation,
        end: s.end,
    }
}

fn index_error(e: index::Error) -> ports::IndexError {
    match e {
        index::Error::Unavailable(m) => ports::IndexError::Unavailable(m),
        index::Error::DimensionMismatch((a, b)) => ports::IndexError::DimensionMismatch(a, b),
        index::Error::Sql(m) | index::Error::ReadOnly(m) => ports::IndexError::Sql(m),
    }
}

fn scope(s: &ports::ScopeFilter) -> index::ScopeFilter {
    index::ScopeFilter {
        kind: kind(s.kind),
        user_id: s.user_id.clone(),
        chat_id: s.chat_id.clone(),
    }
}

fn marks(m: &ports::Marks) -> index::Marks {
    index::Marks {
        keys: m.keys.clone(),
        lapses: m.lapses,
        observed: m.observed,
        made: m.made,
    }
}

/// Records from the index, their vectors unpacked (`packed-vector`).
fn held(h: Vec<index::Held>) -> Result<Vec<ports::Held>, ports::IndexError> {
    h.into_iter()
        .map(|h| {
            let embedding = match h.embedding {
                Some(text) => Some(decode_embedding(&text).ok_or_else(|| {
                    ports::IndexError::Sql(format!("the index gave {} a vector that is not whole floats", h.id))
                })?),
                None => None,
            };
            Ok(ports::Held {
                id: h.id,
                record: h.record,
                embedding,
            })
        })
        .collect()
}

fn hits(h: Vec<index::Hit>) -> Vec<ports::IndexHit> {
    h.into_iter()
        .map(|h| ports::IndexHit {
            id: h.id,
            score: h.score,
        })
        .collect()
}

impl Ports for WitPorts {
    fn read(&self, c: Collection, from: u64, generation: Option<u64>) -> Result<ports::Chunk, ports::FileError> {
        files::read(collection(c), from, generation)
            .map(|c| ports::Chunk {
                data: c.data,
                end: c.end,
                generation: c.generation,
            })
            .map_err(file_error)
    }
    fn append(&self, c: Collection, lines: &[String]) -> Result<ports::FileState, ports::FileError> {
        files::append(collection(c), lines).map(file_state).map_err(file_error)
    }
    fn replace(&self, c: Collection, lines: &[String]) -> Result<ports::FileState, ports::FileError> {
        files::replace(collection(c), lines).map(file_state).map_err(file_error)
    }
    fn quarantine(&self, c: Collection, lines: &[String], reason: &str) -> Result<(), ports::FileError> {
        files::quarantine(collection(c), lines, reason).map_err(file_error)
    }
    fn index_upsert(&self, entries: &[ports::IndexEntry]) -> Result<(), ports::IndexError> {
        let entries: Vec<index::Entry> = entries
            .iter()
            .map(|e| index::Entry {
                kind: kind(e.kind),
                id: e.id.clone(),
                content: e.content.clone(),
                context: e.context.clone(),
                embedding: e.embedding.as_deref().map(encode_embedding),
                owner_user_id: e.owner_user_id.clone(),
                chat_id: e.chat_id.clone(),
                record: e.record.clone(),
                marks: marks(&e.marks),
            })
            .collect();
        index::upsert(&entries).map_err(index_error)
    }
    fn index_remove(&self, ids: &[String]) -> Result<(), ports::IndexError> {
        index::remove(ids).map_err(index_error)
    }
    fn index_knn(
        &self,
        query: &[f32],
        k: u32,
        s: &ports::ScopeFilter,
    ) -> Result<Vec<ports::IndexHit>, ports::IndexError> {
        index::knn(query, k, &scope(s)).map(hits).map_err(index_error)
    }
    fn index_text_search(
        &self,
        terms: &[String],
        k: u32,
        s: &ports::ScopeFilter,
    ) -> Result<Vec<ports::IndexHit>, ports::IndexError> {
        index::text_search(terms, k, &scope(s)).map(hits).map_err(index_error)
    }
    fn index_fetch(&self, ids: &[String]) -> Result<Vec<ports::Held>, ports::IndexError> {
        index::fetch(ids).map_err(index_error).and_then(held)
    }
    fn index_set_records(&self, revisions: &[ports::Revision]) -> Result<(), ports::IndexError> {
        let revisions: Vec<index::Revision> = revisions
            .iter()
            .map(|r| index::Revision {
                id: r.id.clone(),
                record: r.record.clone(),
                marks: marks(&r.marks),
            })
            .collect();
        index::set_records(&revisions).map_err(index_error)
    }
    fn index_tally(
        &self,
        keys: &[String],
        s: &ports::ScopeFilter,
        now: i64,
    ) -> Result<ports::Tally, ports::IndexError> {
        index::tally(keys, &scope(s), now)
            .map(|t| ports::Tally {
                live: t.live,
                holding: t.holding,
            })
            .map_err(index_error)
    }
    fn index_holding(
        &self,
        keys: &[String],
        s: &ports::ScopeFilter,
        now: i64,
    ) -> Result<Vec<ports::Held>, ports::IndexError> {
        index::holding(keys, &scope(s), now).map_err(index_error).and_then(held)
    }
    fn index_newest(
        &self,
        keys: &[String],
        s: &ports::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<ports::Held>>, ports::IndexError> {
        index::newest(keys, &scope(s), now, limit)
            .map_err(index_error)?
            .into_iter()
            .map(held)
            .collect()
    }
    fn index_holding_ids(
        &self,
        keys: &[String],
        s: &ports::ScopeFilter,
        now: i64,
    ) -> Result<Vec<String>, ports::IndexError> {
        index::holding_ids(keys, &scope(s), now).map_err(index_error)
    }
    fn index_newest_ids(
        &self,
        keys: &[String],
        s: &ports::ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, ports::IndexError> {
        index::newest_ids(keys, &scope(s), now, limit).map_err(index_error)
    }
    fn index_newest_moments(
        &self,
        keys: &[String],
        s: &ports::ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, ports::IndexError> {
        index::newest_moments(keys, &scope(s), now).map_err(index_error)
    }
    fn index_recent(
        &self,
        s: &ports::ScopeFilter,
        now: Option<i64>,
        limit: u32,
    ) -> Result<Vec<ports::Held>, ports::IndexError> {
        index::recent(&scope(s), now, limit).map_err(index_error).and_then(held)
    }
    fn index_made_after(
        &self,
        ids: &[String],
        now: i64,
        within: i64,
    ) -> Result<Vec<Option<String>>, ports::IndexError> {
        index::made_after(ids, now, within).map_err(index_error)
    }
    fn index_made_around(&self, ids: &[String], places: u32, now: i64) -> Result<Vec<Vec<String>>, ports::IndexError> {
        index::made_around(ids, places, now).map_err(index_error)
    }
    fn index_pending(&self, k: ports::EntryKind) -> Result<u64, ports::IndexError> {
        index::pending(kind(k)).map_err(index_error)
    }
    fn index_count(&self, k: ports::EntryKind) -> Result<u64, ports::IndexError> {
        index::count(kind(k)).map_err(index_error)
    }
    fn index_clear(&self, info: &ports::IndexInfo) -> Result<(), ports::IndexError> {
        index::clear(&index::IndexInfo {
            model: info.model.clone(),
            dimension: info.dimension,
        })
        .map_err(index_error)
    }
    fn index_info(&self) -> Result<Option<ports::IndexInfo>, ports::IndexError> {
        index::info()
            .map(|i| {
                i.map(|i| ports::IndexInfo {
                    model: i.model,
                    dimension: i.dimension,
                })
            })
            .map_err(index_error)
    }
    fn index_reflects(&self, k: ports::EntryKind) -> Result<Option<ports::FileState>, ports::IndexError> {
        index::reflects(kind(k)).map(|s| s.map(file_state)).map_err(index_error)
    }
    fn index_set_reflects(&self, k: ports::EntryKind, state: ports::FileState) -> Result<(), ports::IndexError> {
        index::set_reflects(
            kind(k),
            files::FileState {
                generation: state.generation,
                end: state.end,
            },
        )
        .map_err(index_error)
    }
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ports::EmbedError> {
        embedder::embed(texts).map_err(|e| match e {
            embedder::Error::Unavailable(m) => ports::EmbedError::Unavailable(m),
            embedder::Error::DimensionMismatch((a, b)) => ports::EmbedError::DimensionMismatch(a, b),
        })
    }
    fn embedder_model(&self) -> String {
        embedder::model_id()
    }
    fn embedder_dimension(&self) -> u32 {
        embedder::dimension()
    }
    fn complete(&self, r: &ports::LlmRequest) -> Result<String, ports::LlmError> {
        let request = llm::Request {
            system: r.system.clone(),
            prompt: r.prompt.clone(),
            max_tokens: r.max_tokens,
        };
        llm::complete(&request).map_err(|llm::Error::Unavailable(m)| ports::LlmError(m))
    }
    fn now(&self) -> String {
        clock::now()
    }
    fn new_id(&self) -> String {
        ids::new_id()
    }
    fn log(&self, level: ports::Level, message: &str) {
        let level = match level {
            ports::Level::Debug => log::Level::Debug,
            ports::Level::Info => log::Level::Info,
            ports::Level::Warn => log::Level::Warn,
            ports::Level::Error => log::Level::Error,
        };
        log::log(level, message);
    }
    fn progress(&self, task: &str, done: u64, total: u64) {
        log::progress(task, done, total);
    }
    fn settings(&self) -> ports::PolicySettings {
        let s = settings::get();
        ports::PolicySettings {
            supersession_threshold: s.supersession_threshold,
            max_entries: s.max_entries,
            extraction_enabled: s.extraction_enabled,
            extraction_confidence_threshold: s.extraction_confidence_threshold,
            local_embedder: s.local_embedder,
            decay_told_facts: s.decay_told_facts,
            weak_similarity: s.weak_similarity,
        }
    }
}
