//! The thin wit-bindgen adapter: WIT imports become [`Ports`], WIT exports call the
//! [`MemoryService`]. No policy lives here.

use std::cell::RefCell;

use crate::api;
use crate::memory_type::MemoryType;
use crate::ports::{self, Collection, Ports};
use crate::scope::Caller;
use crate::service::MemoryService;

wit_bindgen::generate!({
    world: "policy",
    path: "../wit",
});

use ash::memory::{clock, embedder, files, ids, index, llm, log, settings};
use exports::ash::memory::memory as wit;

/// The imports, as the policy's ports.
struct WitPorts;

fn collection(c: Collection) -> files::Collection {
    match c {
        Collection::Memories => files::Collection::Memories,
        Collection::People => files::Collection::People,
        Collection::Archive => files::Collection::Archive,
    }
}

fn file_error(e: files::Error) -> ports::FileError {
    match e {
        files::Error::Io(m) => ports::FileError(m),
        files::Error::InvalidLine(m) => ports::FileError(format!("invalid line: {m}")),
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
        index::Error::Sql(m) => ports::IndexError::Sql(m),
    }
}

fn scope(s: &ports::ScopeFilter) -> index::ScopeFilter {
    index::ScopeFilter {
        user_id: s.user_id.clone(),
        chat_id: s.chat_id.clone(),
    }
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
                id: e.id.clone(),
                content: e.content.clone(),
                embedding: e.embedding.clone(),
                owner_user_id: e.owner_user_id.clone(),
                chat_id: e.chat_id.clone(),
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
    fn index_count(&self) -> Result<u64, ports::IndexError> {
        index::count().map_err(index_error)
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
    fn index_reflects(&self) -> Result<Option<ports::FileState>, ports::IndexError> {
        index::reflects().map(|s| s.map(file_state)).map_err(index_error)
    }
    fn index_set_reflects(&self, state: ports::FileState) -> Result<(), ports::IndexError> {
        index::set_reflects(files::FileState {
            generation: state.generation,
            end: state.end,
        })
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
        }
    }
}

thread_local! {
    /// One service per instance, so the collection cache lives between calls. The host
    /// throws the whole instance away after a trap, which also resets this.
    static SERVICE: RefCell<MemoryService<WitPorts>> = RefCell::new(MemoryService::new(WitPorts));
}

fn with_service<T>(f: impl FnOnce(&mut MemoryService<WitPorts>) -> Result<T, api::Error>) -> Result<T, wit::Error> {
    SERVICE.with(|s| f(&mut s.borrow_mut())).map_err(to_wit_error)
}

fn to_wit_error(e: api::Error) -> wit::Error {
    match e {
        api::Error::InvalidInput(m) => wit::Error::InvalidInput(m),
        api::Error::SecretRefused(m) => wit::Error::SecretRefused(m),
        api::Error::NotFound(m) => wit::Error::NotFound(m),
        api::Error::Unauthorized(m) => wit::Error::Unauthorized(m),
        api::Error::Storage(m) => wit::Error::Storage(m),
        api::Error::Index(m) => wit::Error::Index(m),
    }
}

fn caller(c: wit::Caller) -> Caller {
    Caller::new(c.user_id.as_deref(), c.chat_id.as_deref())
}

fn from_wit_type(t: wit::MemoryType) -> MemoryType {
    match t {
        wit::MemoryType::Preference => MemoryType::Preference,
        wit::MemoryType::Identity => MemoryType::Identity,
        wit::MemoryType::Relationship => MemoryType::Relationship,
        wit::MemoryType::Knowledge => MemoryType::Knowledge,
        wit::MemoryType::Context => MemoryType::Context,
        wit::MemoryType::Event => MemoryType::Event,
        wit::MemoryType::Task => MemoryType::Task,
        wit::MemoryType::Observation => MemoryType::Observation,
    }
}

fn to_wit_type(t: MemoryType) -> wit::MemoryType {
    match t {
        MemoryType::Preference => wit::MemoryType::Preference,
        MemoryType::Identity => wit::MemoryType::Identity,
        MemoryType::Relationship => wit::MemoryType::Relationship,
        MemoryType::Knowledge => wit::MemoryType::Knowledge,
        MemoryType::Context => wit::MemoryType::Context,
        MemoryType::Event => wit::MemoryType::Event,
        MemoryType::Task => wit::MemoryType::Task,
        MemoryType::Observation => wit::MemoryType::Observation,
    }
}

fn new_memory(m: wit::NewMemory) -> api::NewMemory {
    api::NewMemory {
        content: m.content,
        memory_type: m.memory_type.map(from_wit_type),
        expires_in_days: m.expires_in_days,
        subjects: m.subjects,
        shared: m.shared,
        source: m.source,
        observed_at: m.observed_at,
    }
}

fn memory(m: api::Memory) -> wit::Memory {
    wit::Memory {
        id: m.id,
        content: m.content,
        memory_type: to_wit_type(m.memory_type),
        created_at: m.created_at,
        observed_at: m.observed_at,
        owner_user_id: m.owner_user_id,
        chat_id: m.chat_id,
        subject_person_ids: m.subject_person_ids,
        source: m.source,
        expires_at: m.expires_at,
        superseded_at: m.superseded_at,
        superseded_by_id: m.superseded_by_id,
        embedded: m.embedded,
    }
}

fn added(a: api::Added) -> wit::Added {
    wit::Added {
        memories: a.memories.into_iter().map(memory).collect(),
        superseded: a.superseded.into_iter().map(|(m, by)| (memory(m), by)).collect(),
        evicted: a.evicted.into_iter().map(memory).collect(),
    }
}

fn reason(r: crate::gc::ArchiveReason) -> wit::ArchiveReason {
    match r {
        crate::gc::ArchiveReason::Superseded => wit::ArchiveReason::Superseded,
        crate::gc::ArchiveReason::Expired => wit::ArchiveReason::Expired,
        crate::gc::ArchiveReason::EphemeralDecay => wit::ArchiveReason::EphemeralDecay,
        crate::gc::ArchiveReason::Evicted => wit::ArchiveReason::Evicted,
    }
}

fn hit(h: api::SearchHit) -> wit::SearchHit {
    wit::SearchHit {
        memory: memory(h.memory),
        score: h.score,
        similarity: h.similarity,
        subjects: h.subjects,
    }
}

fn person(p: api::Person) -> wit::Person {
    wit::Person {
        id: p.id,
        name: p.name,
        relation: p.relation,
        aliases: p.aliases,
        created_at: p.created_at,
        updated_at: p.updated_at,
        relationships: p.relationships,
    }
}

struct Component;

impl wit::Guest for Component {
    fn add(c: wit::Caller, item: wit::NewMemory) -> Result<wit::Added, wit::Error> {
        with_service(|s| s.add(&caller(c), new_memory(item))).map(added)
    }

    fn add_batch(c: wit::Caller, items: Vec<wit::NewMemory>) -> Result<wit::Added, wit::Error> {
        let items = items.into_iter().map(new_memory).collect();
        with_service(|s| s.add_batch(&caller(c), items)).map(added)
    }

    fn history(c: wit::Caller, id: String) -> Result<Vec<wit::Memory>, wit::Error> {
        with_service(|s| s.history(&caller(c), &id)).map(|v| v.into_iter().map(memory).collect())
    }

    fn gc(dry_run: bool) -> Result<wit::GcReport, wit::Error> {
        with_service(|s| s.gc(dry_run)).map(|r| wit::GcReport {
            archived: r
                .archived
                .into_iter()
                .map(|a| wit::Archived {
                    id: a.id,
                    content: a.content,
                    reason: reason(a.reason),
                })
                .collect(),
            dry_run: r.dry_run,
        })
    }

    fn compact(older_than_days: u32, force: bool) -> Result<wit::CompactReport, wit::Error> {
        with_service(|s| s.compact(older_than_days, force)).map(|r| wit::CompactReport {
            removed: r.removed,
            kept: r.kept,
            forced: r.forced,
        })
    }

    fn get(c: wit::Caller, id: String) -> Result<wit::Memory, wit::Error> {
        with_service(|s| s.get(&caller(c), &id)).map(memory)
    }

    fn list(c: wit::Caller, o: wit::ListOptions) -> Result<Vec<wit::Memory>, wit::Error> {
        let options = api::ListOptions {
            limit: o.limit,
            memory_type: o.memory_type.map(from_wit_type),
            include_expired: o.include_expired,
            include_superseded: o.include_superseded,
        };
        with_service(|s| s.list(&caller(c), &options)).map(|v| v.into_iter().map(memory).collect())
    }

    fn search(c: wit::Caller, q: wit::SearchQuery) -> Result<wit::SearchResults, wit::Error> {
        let query = api::SearchQuery {
            text: q.text,
            limit: q.limit,
            about: q.about,
        };
        with_service(|s| s.search(&caller(c), &query)).map(|r| wit::SearchResults {
            hits: r.hits.into_iter().map(hit).collect(),
            notices: r.notices,
        })
    }

    fn delete(c: wit::Caller, id: String) -> Result<String, wit::Error> {
        with_service(|s| s.delete(&caller(c), &id))
    }

    fn people_list(c: wit::Caller) -> Result<Vec<wit::Person>, wit::Error> {
        with_service(|s| s.people_list(&caller(c))).map(|v| v.into_iter().map(person).collect())
    }

    fn people_show(c: wit::Caller, reference: String) -> Result<wit::Person, wit::Error> {
        with_service(|s| s.people_show(&caller(c), &reference)).map(person)
    }

    fn people_add(
        c: wit::Caller,
        name: String,
        relation: Option<String>,
        aliases: Vec<String>,
    ) -> Result<wit::Person, wit::Error> {
        with_service(|s| s.people_add(&caller(c), &name, relation.as_deref(), &aliases)).map(person)
    }

    fn people_alias(c: wit::Caller, reference: String, alias: String) -> Result<wit::Person, wit::Error> {
        with_service(|s| s.people_alias(&caller(c), &reference, &alias)).map(person)
    }

    fn people_merge(c: wit::Caller, keep: String, merge: String) -> Result<wit::Person, wit::Error> {
        with_service(|s| s.people_merge(&caller(c), &keep, &merge)).map(person)
    }

    fn context(c: wit::Caller, message: String, max_tokens: Option<u32>) -> Result<wit::ContextBlock, wit::Error> {
        with_service(|s| s.context(&caller(c), &message, max_tokens)).map(|b| wit::ContextBlock {
            people: b.people.into_iter().map(person).collect(),
            memories: b.memories.into_iter().map(hit).collect(),
            markdown: b.markdown,
            estimated_tokens: b.estimated_tokens,
            dropped: b.dropped,
        })
    }

    fn tool_schemas() -> String {
        crate::tools::schemas().to_string()
    }

    fn tool_call(c: wit::Caller, name: String, arguments: String) -> Result<String, wit::Error> {
        with_service(|s| s.tool_call(&caller(c), &name, &arguments))
    }

    fn rebuild_index() -> Result<wit::RebuildReport, wit::Error> {
        with_service(|s| s.rebuild_index()).map(|r| wit::RebuildReport {
            indexed: r.indexed,
            embedded: r.embedded,
            pending: r.pending,
            quarantined: r.quarantined,
        })
    }

    fn doctor(fix: bool) -> Result<Vec<wit::Finding>, wit::Error> {
        with_service(|s| s.doctor(fix)).map(|findings| {
            findings
                .into_iter()
                .map(|f| wit::Finding {
                    check: f.check,
                    ok: f.ok,
                    detail: f.detail,
                    fixed: f.fixed,
                })
                .collect()
        })
    }
}

export!(Component);
