//! The host's capabilities as the policy's ports, without the component: each method
//! calls the same `Host` impl the WIT imports reach (so locking around remote services
//! and the refusal to write after a lost lock are the very same code), converting the
//! guest crate's port types on the way in and out.

use std::cell::RefCell;

use ash_memory_guest::ports::{
    self, Chunk, Collection, EmbedError, EntryKind, FileError, FileState, Held, IndexEntry, IndexError, IndexHit,
    IndexInfo, Level, LlmError, LlmRequest, PolicySettings, Ports, Revision, ScopeFilter, Tally,
};

use crate::bindings::ash::memory::{clock, embedder, files, ids, index, llm, log, settings};
use crate::host_state::HostState;
use ash_memory_index::{self as index_types, packed};

/// The host state as the policy's ports: what a [`super::NativeStore`] runs on.
///
/// `Ports` takes `&self` (the component's imports are free functions) and the `Host`
/// impls take `&mut self`: a `RefCell` bridges them, and no port method calls another,
/// so borrows never overlap.
pub struct HostPorts {
    pub(crate) state: RefCell<HostState>,
}

fn collection(c: Collection) -> files::Collection {
    match c {
        Collection::Memories => files::Collection::Memories,
        Collection::People => files::Collection::People,
        Collection::Archive => files::Collection::Archive,
        Collection::Sessions => files::Collection::Sessions,
        Collection::Messages => files::Collection::Messages,
    }
}

fn kind(k: EntryKind) -> index::EntryKind {
    match k {
        EntryKind::Memory => index::EntryKind::Memory,
        EntryKind::Message => index::EntryKind::Message,
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
fn held(h: Vec<index::Held>) -> Result<Vec<Held>, IndexError> {
    h.into_iter()
        .map(|h| {
            let embedding = h.embedding.as_deref().map(packed::unpack).transpose();
            Ok(Held {
                embedding: embedding.map_err(|e| match e {
                    index_types::IndexError::Sql(m) => IndexError::Sql(format!("the index's vector of {}: {m}", h.id)),
                    other => IndexError::Sql(other.to_string()),
                })?,
                id: h.id,
                record: h.record,
            })
        })
        .collect()
}

fn file_error(e: files::Error) -> FileError {
    match e {
        files::Error::Io(m) => FileError::Failed(m),
        files::Error::InvalidLine(m) => FileError::Failed(format!("invalid line: {m}")),
        files::Error::ReadOnly(m) => FileError::ReadOnly(m),
    }
}

fn file_state(s: files::FileState) -> FileState {
    FileState {
        generation: s.generation,
        end: s.end,
    }
}

fn index_error(e: index::Error) -> IndexError {
    match e {
        index::Error::Unavailable(m) => IndexError::Unavailable(m),
        index::Error::DimensionMismatch((want, got)) => IndexError::DimensionMismatch(want, got),
        index::Error::Sql(m) | index::Error::ReadOnly(m) => IndexError::Sql(m),
    }
}

fn scope(s: &ScopeFilter) -> index::ScopeFilter {
    index::ScopeFilter {
        kind: kind(s.kind),
        user_id: s.user_id.clone(),
        chat_id: s.chat_id.clone(),
    }
}

fn hits(list: Vec<index::Hit>) -> Vec<IndexHit> {
    list.into_iter()
        .map(|h| IndexHit {
            id: h.id,
            score: h.score,
        })
        .collect()
}

impl Ports for HostPorts {
    fn read(&self, c: Collection, from: u64, generation: Option<u64>) -> Result<Chunk, FileError> {
        files::Host::read(&mut *self.state.borrow_mut(), collection(c), from, generation)
            .map(|c| Chunk {
                data: c.data,
                end: c.end,
                generation: c.generation,
            })
            .map_err(file_error)
    }
    fn append(&self, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
        files::Host::append(&mut *self.state.borrow_mut(), collection(c), lines.to_vec())
            .map(file_state)
            .map_err(file_error)
    }
    fn replace(&self, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
        files::Host::replace(&mut *self.state.borrow_mut(), collection(c), lines.to_vec())
            .map(file_state)
            .map_err(file_error)
    }
    fn quarantine(&self, c: Collection, lines: &[String], reason: &str) -> Result<(), FileError> {
        files::Host::quarantine(
            &mut *self.state.borrow_mut(),
            collection(c),
            lines.to_vec(),
            reason.to_owned(),
        )
        .map_err(file_error)
    }

    fn index_upsert(&self, entries: &[IndexEntry]) -> Result<(), IndexError> {
        let entries = entries
            .iter()
            .map(|e| index::Entry {
                kind: kind(e.kind),
                id: e.id.clone(),
                content: e.content.clone(),
                context: e.context.clone(),
                embedding: e.embedding.as_deref().map(packed::pack),
                owner_user_id: e.owner_user_id.clone(),
                chat_id: e.chat_id.clone(),
                record: e.record.clone(),
                marks: marks(&e.marks),
            })
            .collect();
        index::Host::upsert(&mut *self.state.borrow_mut(), entries).map_err(index_error)
    }
    fn index_remove(&self, ids: &[String]) -> Result<(), IndexError> {
        index::Host::remove(&mut *self.state.borrow_mut(), ids.to_vec()).map_err(index_error)
    }
    fn index_knn(&self, query: &[f32], k: u32, filter: &ScopeFilter) -> Result<Vec<IndexHit>, IndexError> {
        index::Host::knn(&mut *self.state.borrow_mut(), query.to_vec(), k, scope(filter))
            .map(hits)
            .map_err(index_error)
    }
    fn index_text_search(&self, terms: &[String], k: u32, filter: &ScopeFilter) -> Result<Vec<IndexHit>, IndexError> {
        index::Host::text_search(&mut *self.state.borrow_mut(), terms.to_vec(), k, scope(filter))
            .map(hits)
            .map_err(index_error)
    }
    fn index_fetch(&self, ids: &[String]) -> Result<Vec<Held>, IndexError> {
        index::Host::fetch(&mut *self.state.borrow_mut(), ids.to_vec())
            .map_err(index_error)
            .and_then(held)
    }
    fn index_set_records(&self, revisions: &[Revision]) -> Result<(), IndexError> {
        let revisions = revisions
            .iter()
            .map(|r| index::Revision {
                id: r.id.clone(),
                record: r.record.clone(),
                marks: marks(&r.marks),
            })
            .collect();
        index::Host::set_records(&mut *self.state.borrow_mut(), revisions).map_err(index_error)
    }
    fn index_tally(&self, keys: &[String], filter: &ScopeFilter, now: i64) -> Result<Tally, IndexError> {
        index::Host::tally(&mut *self.state.borrow_mut(), keys.to_vec(), scope(filter), now)
            .map(|t| Tally {
                live: t.live,
                holding: t.holding,
            })
            .map_err(index_error)
    }
    fn index_holding(&self, keys: &[String], filter: &ScopeFilter, now: i64) -> Result<Vec<Held>, IndexError> {
        index::Host::holding(&mut *self.state.borrow_mut(), keys.to_vec(), scope(filter), now)
            .map_err(index_error)
            .and_then(held)
    }
    fn index_newest(
        &self,
        keys: &[String],
        filter: &ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<Held>>, IndexError> {
        index::Host::newest(&mut *self.state.borrow_mut(), keys.to_vec(), scope(filter), now, limit)
            .map_err(index_error)?
            .into_iter()
            .map(held)
            .collect()
    }
    fn index_holding_ids(&self, keys: &[String], filter: &ScopeFilter, now: i64) -> Result<Vec<String>, IndexError> {
        index::Host::holding_ids(&mut *self.state.borrow_mut(), keys.to_vec(), scope(filter), now).map_err(index_error)
    }
    fn index_newest_ids(
        &self,
        keys: &[String],
        filter: &ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, IndexError> {
        index::Host::newest_ids(&mut *self.state.borrow_mut(), keys.to_vec(), scope(filter), now, limit)
            .map_err(index_error)
    }
    fn index_newest_moments(
        &self,
        keys: &[String],
        filter: &ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, IndexError> {
        index::Host::newest_moments(&mut *self.state.borrow_mut(), keys.to_vec(), scope(filter), now)
            .map_err(index_error)
    }
    fn index_recent(&self, filter: &ScopeFilter, now: Option<i64>, limit: u32) -> Result<Vec<Held>, IndexError> {
        index::Host::recent(&mut *self.state.borrow_mut(), scope(filter), now, limit)
            .map_err(index_error)
            .and_then(held)
    }
    fn index_made_after(&self, ids: &[String], now: i64, within: i64) -> Result<Vec<Option<String>>, IndexError> {
        index::Host::made_after(&mut *self.state.borrow_mut(), ids.to_vec(), now, within).map_err(index_error)
    }
    fn index_made_around(&self, ids: &[String], places: u32, now: i64) -> Result<Vec<Vec<String>>, IndexError> {
        index::Host::made_around(&mut *self.state.borrow_mut(), ids.to_vec(), places, now).map_err(index_error)
    }
    fn index_pending(&self, k: EntryKind) -> Result<u64, IndexError> {
        index::Host::pending(&mut *self.state.borrow_mut(), kind(k)).map_err(index_error)
    }
    fn index_count(&self, k: EntryKind) -> Result<u64, IndexError> {
        index::Host::count(&mut *self.state.borrow_mut(), kind(k)).map_err(index_error)
    }
    fn index_clear(&self, info: &IndexInfo) -> Result<(), IndexError> {
        let info = index::IndexInfo {
            model: info.model.clone(),
            dimension: info.dimension,
        };
        index::Host::clear(&mut *self.state.borrow_mut(), info).map_err(index_error)
    }
    fn index_info(&self) -> Result<Option<IndexInfo>, IndexError> {
        index::Host::info(&mut *self.state.borrow_mut())
            .map(|i| {
                i.map(|i| IndexInfo {
                    model: i.model,
                    dimension: i.dimension,
                })
            })
            .map_err(index_error)
    }
    fn index_reflects(&self, k: EntryKind) -> Result<Option<FileState>, IndexError> {
        index::Host::reflects(&mut *self.state.borrow_mut(), kind(k))
            .map(|s| s.map(file_state))
            .map_err(index_error)
    }
    fn index_set_reflects(&self, k: EntryKind, state: FileState) -> Result<(), IndexError> {
        let state = files::FileState {
            generation: state.generation,
            end: state.end,
        };
        index::Host::set_reflects(&mut *self.state.borrow_mut(), kind(k), state).map_err(index_error)
    }

    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        embedder::Host::embed(&mut *self.state.borrow_mut(), texts.to_vec()).map_err(|e| match e {
            embedder::Error::Unavailable(m) => EmbedError::Unavailable(m),
            embedder::Error::DimensionMismatch((want, got)) => EmbedError::DimensionMismatch(want, got),
        })
    }
    fn embedder_model(&self) -> String {
        embedder::Host::model_id(&mut *self.state.borrow_mut())
    }
    fn embedder_dimension(&self) -> u32 {
        embedder::Host::dimension(&mut *self.state.borrow_mut())
    }

    fn complete(&self, request: &LlmRequest) -> Result<String, LlmError> {
        let request = llm::Request {
            system: request.system.clone(),
            prompt: request.prompt.clone(),
            max_tokens: request.max_tokens,
        };
        llm::Host::complete(&mut *self.state.borrow_mut(), request).map_err(|e| match e {
            llm::Error::Unavailable(m) => LlmError(m),
        })
    }

    fn now(&self) -> String {
        clock::Host::now(&mut *self.state.borrow_mut())
    }
    fn new_id(&self) -> String {
        ids::Host::new_id(&mut *self.state.borrow_mut())
    }
    fn log(&self, level: Level, message: &str) {
        let level = match level {
            Level::Debug => log::Level::Debug,
            Level::Info => log::Level::Info,
            Level::Warn => log::Level::Warn,
            Level::Error => log::Level::Error,
        };
        log::Host::log(&mut *self.state.borrow_mut(), level, message.to_owned());
    }
    fn progress(&self, task: &str, done: u64, total: u64) {
        log::Host::progress(&mut *self.state.borrow_mut(), task.to_owned(), done, total);
    }
    fn settings(&self) -> PolicySettings {
        let s = settings::Host::get(&mut *self.state.borrow_mut());
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
