//! The thin wit-bindgen adapter: WIT imports become [`Ports`], WIT exports call the
//! [`MemoryService`]. No policy lives here; every conversion between the WIT types and
//! the policy's plain-Rust mirrors (`api`, `ports`) is in this file, and nowhere else.

use std::cell::RefCell;

use crate::api;
use crate::gc::ArchiveReason;
use crate::memory_type::MemoryType;
use crate::ports::{self, Collection, Ports};
use crate::scope::Caller;
use crate::service::MemoryService;

wit_bindgen::generate!({
    world: "policy",
    path: "../wit",
});

use ash::memory::types;
use ash::memory::{clock, embedder, files, ids, index, llm, log, settings};
use exports::ash::memory::{maintenance, memories, people, recall, tools};

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

/// Runs `f` on the instance's service, mapping the policy's error onto the calling
/// interface's own `error` variant.
fn with_service<T, E>(
    f: impl FnOnce(&mut MemoryService<WitPorts>) -> Result<T, api::Error>,
    to_wit: impl FnOnce(api::Error) -> E,
) -> Result<T, E> {
    SERVICE.with(|s| f(&mut s.borrow_mut())).map_err(to_wit)
}

// ---- errors: the policy's one error type onto each interface's variant ----
//
// A case an interface has no variant for cannot happen there (the service does not
// produce it for that call); it is still mapped, to the closest case with its text,
// rather than trapping.

fn memories_error(e: api::Error) -> memories::Error {
    use api::Error as E;
    match e {
        E::InvalidInput(m) => memories::Error::InvalidInput(m),
        E::SecretRefused(m) => memories::Error::SecretRefused(m),
        E::NotFound(id) => memories::Error::NotFound(id),
        E::AmbiguousId(prefix) => memories::Error::AmbiguousId(prefix),
        E::UnknownPerson(reference) => memories::Error::UnknownPerson(reference),
        E::Unauthorized(id) => memories::Error::Unauthorized(id),
        E::Storage(m) => memories::Error::Storage(m),
        E::Index(m) => memories::Error::Index(m),
        e @ E::UnknownTool(_) => memories::Error::InvalidInput(e.to_string()),
    }
}

fn recall_error(e: api::Error) -> recall::Error {
    use api::Error as E;
    match e {
        E::InvalidInput(m) => recall::Error::InvalidInput(m),
        E::Storage(m) => recall::Error::Storage(m),
        E::Index(m) => recall::Error::Index(m),
        e => recall::Error::InvalidInput(e.to_string()),
    }
}

fn people_error(e: api::Error) -> people::Error {
    use api::Error as E;
    match e {
        E::InvalidInput(m) => people::Error::InvalidInput(m),
        E::UnknownPerson(reference) => people::Error::NotFound(reference),
        E::Storage(m) => people::Error::Storage(m),
        e @ E::Index(_) => people::Error::Storage(e.to_string()),
        e => people::Error::InvalidInput(e.to_string()),
    }
}

fn tools_error(e: api::Error) -> tools::Error {
    use api::Error as E;
    match e {
        E::UnknownTool(name) => tools::Error::UnknownTool(name),
        E::InvalidInput(m) => tools::Error::InvalidArguments(m),
        E::SecretRefused(m) => tools::Error::SecretRefused(m),
        E::Storage(m) => tools::Error::Storage(m),
        E::Index(m) => tools::Error::Index(m),
        e => tools::Error::InvalidArguments(e.to_string()),
    }
}

fn maintenance_error(e: api::Error) -> maintenance::Error {
    use api::Error as E;
    match e {
        E::Storage(m) => maintenance::Error::Storage(m),
        E::Index(m) => maintenance::Error::Index(m),
        e => maintenance::Error::Storage(e.to_string()),
    }
}

// ---- types ----

fn caller(c: types::Caller) -> Caller {
    Caller::new(c.user_id.as_deref(), c.chat_id.as_deref())
}

fn from_wit_type(t: types::MemoryType) -> MemoryType {
    use types::MemoryType as W;
    match t {
        W::Preference => MemoryType::Preference,
        W::Identity => MemoryType::Identity,
        W::Relationship => MemoryType::Relationship,
        W::Knowledge => MemoryType::Knowledge,
        W::Context => MemoryType::Context,
        W::Event => MemoryType::Event,
        W::Task => MemoryType::Task,
        W::Observation => MemoryType::Observation,
    }
}

fn to_wit_type(t: MemoryType) -> types::MemoryType {
    use types::MemoryType as W;
    match t {
        MemoryType::Preference => W::Preference,
        MemoryType::Identity => W::Identity,
        MemoryType::Relationship => W::Relationship,
        MemoryType::Knowledge => W::Knowledge,
        MemoryType::Context => W::Context,
        MemoryType::Event => W::Event,
        MemoryType::Task => W::Task,
        MemoryType::Observation => W::Observation,
    }
}

fn reason(r: ArchiveReason) -> types::ArchiveReason {
    use types::ArchiveReason as W;
    match r {
        ArchiveReason::Superseded => W::Superseded,
        ArchiveReason::Expired => W::Expired,
        ArchiveReason::EphemeralDecay => W::EphemeralDecay,
        ArchiveReason::Evicted => W::Evicted,
        ArchiveReason::Deleted => W::Deleted,
    }
}

fn new_memory(m: memories::NewMemory) -> api::NewMemory {
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

fn memory(m: api::Memory) -> types::Memory {
    types::Memory {
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
        archived_at: m.archived_at,
        archive_reason: m.archive_reason.map(reason),
    }
}

fn memories_of(v: Vec<api::Memory>) -> Vec<types::Memory> {
    v.into_iter().map(memory).collect()
}

fn added(a: api::Added) -> memories::Added {
    memories::Added {
        memories: memories_of(a.memories),
        superseded: a.superseded.into_iter().map(|(m, by)| (memory(m), by)).collect(),
        evicted: memories_of(a.evicted),
    }
}

fn hit(h: api::SearchHit) -> types::SearchHit {
    types::SearchHit {
        memory: memory(h.memory),
        score: h.score,
        similarity: h.similarity,
        subjects: h.subjects,
    }
}

fn person(p: api::Person) -> types::Person {
    types::Person {
        id: p.id,
        name: p.name,
        relation: p.relation,
        aliases: p.aliases,
        created_at: p.created_at,
        updated_at: p.updated_at,
        relationships: p.relationships,
    }
}

// ---- exports: one impl per interface ----

struct Component;

impl memories::Guest for Component {
    fn add(c: types::Caller, item: memories::NewMemory) -> Result<memories::Added, memories::Error> {
        with_service(|s| s.add(&caller(c), new_memory(item)), memories_error).map(added)
    }

    fn add_batch(c: types::Caller, items: Vec<memories::NewMemory>) -> Result<memories::Added, memories::Error> {
        let items = items.into_iter().map(new_memory).collect();
        with_service(|s| s.add_batch(&caller(c), items), memories_error).map(added)
    }

    fn get(c: types::Caller, id: String) -> Result<types::Memory, memories::Error> {
        with_service(|s| s.get(&caller(c), &id), memories_error).map(memory)
    }

    fn list(c: types::Caller, o: memories::ListOptions) -> Result<Vec<types::Memory>, memories::Error> {
        let options = api::ListOptions {
            limit: o.limit,
            memory_type: o.memory_type.map(from_wit_type),
            include_expired: o.include_expired,
            include_superseded: o.include_superseded,
        };
        with_service(|s| s.list(&caller(c), &options), memories_error).map(memories_of)
    }

    fn history(c: types::Caller, id: String) -> Result<Vec<types::Memory>, memories::Error> {
        with_service(|s| s.history(&caller(c), &id), memories_error).map(memories_of)
    }

    fn delete(c: types::Caller, id: String) -> Result<String, memories::Error> {
        with_service(|s| s.delete(&caller(c), &id), memories_error)
    }
}

impl recall::Guest for Component {
    fn search(c: types::Caller, q: recall::SearchQuery) -> Result<recall::SearchResults, recall::Error> {
        let query = api::SearchQuery {
            text: q.text,
            limit: q.limit,
            about: q.about,
        };
        with_service(|s| s.search(&caller(c), &query), recall_error).map(|r| recall::SearchResults {
            hits: r.hits.into_iter().map(hit).collect(),
            notices: r.notices,
        })
    }

    fn context(
        c: types::Caller,
        message: String,
        max_tokens: Option<u32>,
    ) -> Result<recall::ContextBlock, recall::Error> {
        with_service(|s| s.context(&caller(c), &message, max_tokens), recall_error).map(|b| recall::ContextBlock {
            people: b.people.into_iter().map(person).collect(),
            memories: b.memories.into_iter().map(hit).collect(),
            markdown: b.markdown,
            estimated_tokens: b.estimated_tokens,
            dropped: b.dropped,
        })
    }
}

impl people::Guest for Component {
    fn list(c: types::Caller) -> Result<Vec<types::Person>, people::Error> {
        with_service(|s| s.people_list(&caller(c)), people_error).map(|v| v.into_iter().map(person).collect())
    }

    fn show(c: types::Caller, reference: String) -> Result<types::Person, people::Error> {
        with_service(|s| s.people_show(&caller(c), &reference), people_error).map(person)
    }

    fn add(c: types::Caller, p: people::NewPerson) -> Result<types::Person, people::Error> {
        with_service(
            |s| s.people_add(&caller(c), &p.name, p.relation.as_deref(), &p.aliases),
            people_error,
        )
        .map(person)
    }

    fn alias(c: types::Caller, reference: String, alias: String) -> Result<types::Person, people::Error> {
        with_service(|s| s.people_alias(&caller(c), &reference, &alias), people_error).map(person)
    }

    fn merge(c: types::Caller, keep: String, merge: String) -> Result<types::Person, people::Error> {
        with_service(|s| s.people_merge(&caller(c), &keep, &merge), people_error).map(person)
    }
}

impl tools::Guest for Component {
    fn schemas() -> String {
        crate::tools::schemas().to_string()
    }

    fn call(c: types::Caller, name: String, arguments: String) -> Result<String, tools::Error> {
        with_service(|s| s.tool_call(&caller(c), &name, &arguments), tools_error)
    }
}

impl maintenance::Guest for Component {
    fn gc(dry_run: bool) -> Result<maintenance::GcReport, maintenance::Error> {
        with_service(|s| s.gc(dry_run), maintenance_error).map(|r| maintenance::GcReport {
            archived: r
                .archived
                .into_iter()
                .map(|a| maintenance::Archived {
                    id: a.id,
                    content: a.content,
                    reason: reason(a.reason),
                })
                .collect(),
            dry_run: r.dry_run,
        })
    }

    fn compact(older_than_days: u32, force: bool) -> Result<maintenance::CompactReport, maintenance::Error> {
        with_service(|s| s.compact(older_than_days, force), maintenance_error).map(|r| maintenance::CompactReport {
            removed: r.removed,
            kept: r.kept,
            forced: r.forced,
        })
    }

    fn rebuild_index() -> Result<maintenance::RebuildReport, maintenance::Error> {
        with_service(|s| s.rebuild_index(), maintenance_error).map(|r| maintenance::RebuildReport {
            indexed: r.indexed,
            embedded: r.embedded,
            pending: r.pending,
            quarantined: r.quarantined,
        })
    }

    fn doctor(fix: bool) -> Result<Vec<maintenance::Finding>, maintenance::Error> {
        with_service(|s| s.doctor(fix), maintenance_error).map(|findings| {
            findings
                .into_iter()
                .map(|f| maintenance::Finding {
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
