//! The export types to and from the policy's own, and the policy's one error onto each
//! interface's `error` variant.

use super::ash::memory::types;
use super::exports::ash::memory::{browse, conversations, maintenance, memories, people, portability, recall, tools};
use crate::api;
use crate::conversation::Role;
use crate::gc::ArchiveReason;
use crate::memory_type::MemoryType;
use crate::scope::Caller;

// ---- errors: the policy's one error type onto each interface's variant ----
//
// A case an interface has no variant for cannot happen there (the service does not
// produce it for that call); it is still mapped, to the closest case with its text,
// rather than trapping.

pub(super) fn memories_error(e: api::Error) -> memories::Error {
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

pub(super) fn recall_error(e: api::Error) -> recall::Error {
    use api::Error as E;
    match e {
        E::InvalidInput(m) => recall::Error::InvalidInput(m),
        E::Storage(m) => recall::Error::Storage(m),
        E::Index(m) => recall::Error::Index(m),
        e => recall::Error::InvalidInput(e.to_string()),
    }
}

pub(super) fn people_error(e: api::Error) -> people::Error {
    use api::Error as E;
    match e {
        E::InvalidInput(m) => people::Error::InvalidInput(m),
        E::SecretRefused(m) => people::Error::SecretRefused(m),
        E::UnknownPerson(reference) => people::Error::NotFound(reference),
        E::Storage(m) => people::Error::Storage(m),
        e @ E::Index(_) => people::Error::Storage(e.to_string()),
        e => people::Error::InvalidInput(e.to_string()),
    }
}

pub(super) fn portability_error(e: api::Error) -> portability::Error {
    use api::Error as E;
    match e {
        E::Storage(m) => portability::Error::Storage(m),
        E::Index(m) => portability::Error::Index(m),
        e => portability::Error::InvalidInput(e.to_string()),
    }
}

pub(super) fn tools_error(e: api::Error) -> tools::Error {
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

pub(super) fn maintenance_error(e: api::Error) -> maintenance::Error {
    use api::Error as E;
    match e {
        E::Storage(m) => maintenance::Error::Storage(m),
        E::Index(m) => maintenance::Error::Index(m),
        e => maintenance::Error::Storage(e.to_string()),
    }
}

// ---- types ----

pub(super) fn caller(c: types::Caller) -> Caller {
    Caller::new(c.user_id.as_deref(), c.chat_id.as_deref())
}

pub(super) fn from_wit_type(t: types::MemoryType) -> MemoryType {
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
        W::Reflection => MemoryType::Reflection,
    }
}

pub(super) fn to_wit_type(t: MemoryType) -> types::MemoryType {
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
        MemoryType::Reflection => W::Reflection,
    }
}

pub(super) fn reason(r: ArchiveReason) -> types::ArchiveReason {
    use types::ArchiveReason as W;
    match r {
        ArchiveReason::Superseded => W::Superseded,
        ArchiveReason::Expired => W::Expired,
        ArchiveReason::EphemeralDecay => W::EphemeralDecay,
        ArchiveReason::Evicted => W::Evicted,
        ArchiveReason::Deleted => W::Deleted,
        ArchiveReason::Forgotten => W::Forgotten,
        ArchiveReason::Decayed => W::Decayed,
    }
}

pub(super) fn new_memory(m: memories::NewMemory) -> api::NewMemory {
    api::NewMemory {
        content: m.content,
        memory_type: m.memory_type.map(from_wit_type),
        expires_in_days: m.expires_in_days,
        subjects: m.subjects,
        shared: m.shared,
        source: m.source,
        observed_at: m.observed_at,
        context: m.context,
        provenance: None,
    }
}

pub(super) fn correction_of(c: memories::Correction) -> api::Correction {
    api::Correction {
        content: c.content,
        memory_type: c.memory_type.map(from_wit_type),
        expires_in_days: c.expires_in_days,
        subjects: c.subjects,
    }
}

pub(super) fn memory(m: api::Memory) -> types::Memory {
    types::Memory {
        id: m.id,
        content: m.content,
        memory_type: to_wit_type(m.memory_type),
        created_at: m.created_at,
        observed_at: m.observed_at,
        context: m.context,
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

pub(super) fn memories_of(v: Vec<api::Memory>) -> Vec<types::Memory> {
    v.into_iter().map(memory).collect()
}

pub(super) fn added(a: api::Added) -> memories::Added {
    memories::Added {
        memories: memories_of(a.memories),
        superseded: a.superseded.into_iter().map(|(m, by)| (memory(m), by)).collect(),
        evicted: memories_of(a.evicted),
        restated: a.restated,
    }
}

pub(super) fn imported(i: api::Imported) -> memories::Imported {
    memories::Imported {
        added: i.added,
        present: i.present,
        superseded: i.superseded,
        evicted: i.evicted,
        refused: i
            .refused
            .into_iter()
            .map(|(position, e)| memories::RefusedFact {
                position,
                error: memories_error(e),
            })
            .collect(),
    }
}

pub(super) fn hit(h: api::SearchHit) -> types::SearchHit {
    types::SearchHit {
        memory: memory(h.memory),
        score: h.score,
        similarity: h.similarity,
        subjects: h.subjects,
        reasons: h.reasons.into_iter().map(match_reason).collect(),
    }
}

fn match_reason(r: api::MatchReason) -> types::MatchReason {
    match r {
        api::MatchReason::Meaning => types::MatchReason::Meaning,
        api::MatchReason::Words => types::MatchReason::Words,
        api::MatchReason::Person => types::MatchReason::Person,
        api::MatchReason::Entity => types::MatchReason::Entity,
        api::MatchReason::Time => types::MatchReason::Time,
        api::MatchReason::Reply => types::MatchReason::Reply,
    }
}

pub(super) fn standing(s: api::Standing) -> browse::Standing {
    browse::Standing {
        id: s.id,
        subjects: s.subjects,
        confidence: s.confidence,
        confirmed_at: s.confirmed_at,
        fading: s.fading,
        session: s.session,
        message: s.message,
        turn: s.turn,
        extraction_confidence: s.extraction_confidence,
    }
}

pub(super) fn session_summary(s: api::SessionSummary) -> browse::SessionSummary {
    browse::SessionSummary {
        name: s.name,
        provider: s.provider,
        turns: s.turns,
        extracted_turns: s.extracted_turns,
        created_at: s.created_at,
        updated_at: s.updated_at,
    }
}

pub(super) fn session_message(m: api::SessionMessage) -> browse::SessionMessage {
    browse::SessionMessage {
        id: m.id,
        turn: m.turn,
        role: role(m.role),
        content: m.content,
        created_at: m.created_at,
        extracted: m.extracted,
    }
}

pub(super) fn browse_error(e: api::Error) -> browse::Error {
    use api::Error as E;
    match e {
        E::InvalidInput(m) => browse::Error::InvalidInput(m),
        E::NotFound(m) => browse::Error::NotFound(m),
        E::Storage(m) => browse::Error::Storage(m),
        E::Index(m) => browse::Error::Index(m),
        e => browse::Error::InvalidInput(e.to_string()),
    }
}

pub(super) fn person(p: api::Person) -> types::Person {
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

pub(super) fn people_of(v: Vec<api::Person>) -> Vec<types::Person> {
    v.into_iter().map(person).collect()
}

pub(super) fn list_options(o: memories::ListOptions) -> api::ListOptions {
    api::ListOptions {
        limit: o.limit,
        memory_type: o.memory_type.map(from_wit_type),
        include_expired: o.include_expired,
        include_superseded: o.include_superseded,
    }
}

pub(super) fn search_query(q: recall::SearchQuery) -> api::SearchQuery {
    api::SearchQuery {
        text: q.text,
        limit: q.limit,
        about: q.about,
    }
}

pub(super) fn search_results(r: api::SearchResults) -> recall::SearchResults {
    recall::SearchResults {
        hits: r.hits.into_iter().map(hit).collect(),
        notices: r.notices,
    }
}

pub(super) fn context_block(b: api::ContextBlock) -> recall::ContextBlock {
    recall::ContextBlock {
        people: people_of(b.people),
        memories: b.memories.into_iter().map(hit).collect(),
        past_messages: b.past_messages.into_iter().map(past_message).collect(),
        profile: b.profile,
        markdown: b.markdown,
        estimated_tokens: b.estimated_tokens,
        dropped: b.dropped,
    }
}

pub(super) fn gc_report(r: api::GcReport) -> maintenance::GcReport {
    maintenance::GcReport {
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
    }
}

pub(super) fn compact_report(r: api::CompactReport) -> maintenance::CompactReport {
    maintenance::CompactReport {
        removed: r.removed,
        kept: r.kept,
        forced: r.forced,
    }
}

pub(super) fn rebuild_report(r: api::RebuildReport) -> maintenance::RebuildReport {
    maintenance::RebuildReport {
        indexed: r.indexed,
        embedded: r.embedded,
        pending: r.pending,
        quarantined: r.quarantined,
    }
}

pub(super) fn finding(f: api::Finding) -> maintenance::Finding {
    maintenance::Finding {
        check: f.check,
        ok: f.ok,
        detail: f.detail,
        fixed: f.fixed,
    }
}

pub(super) fn stats(s: api::Stats) -> maintenance::HomeStats {
    maintenance::HomeStats {
        memories: s.memories,
        by_type: s.by_type.into_iter().map(|(t, n)| (to_wit_type(t), n)).collect(),
        personal: s.personal,
        group: s.group,
        users: s.users,
        chats: s.chats,
        by_source: s.by_source,
        by_age: maintenance::Ages {
            day: s.by_age.day,
            week: s.by_age.week,
            month: s.by_age.month,
            year: s.by_age.year,
            older: s.by_age.older,
        },
        superseded: s.superseded,
        expired: s.expired,
        decayed: s.decayed,
        fading: s.fading,
        pending: s.pending,
        archived: s.archived.into_iter().map(|(r, n)| (reason(r), n)).collect(),
        people: s.people,
        newer_format: s.newer_format,
        index: maintenance::IndexState {
            model: s.index.model,
            dimension: s.index.dimension,
            entries: s.index.entries,
            in_step: s.index.in_step,
        },
    }
}

fn role(r: Role) -> conversations::Role {
    match r {
        Role::User => conversations::Role::User,
        Role::Assistant => conversations::Role::Assistant,
    }
}

pub(super) fn past_message(m: api::PastMessage) -> conversations::PastMessage {
    conversations::PastMessage {
        id: m.id,
        session: m.session,
        role: role(m.role),
        content: m.content,
        created_at: m.created_at,
        score: m.score,
    }
}

pub(super) fn turn(t: conversations::Turn) -> api::Turn {
    api::Turn {
        session: t.session,
        provider: t.provider,
        user_message: t.user_message,
        assistant_message: t.assistant_message,
    }
}

pub(super) fn extraction(e: api::Extraction) -> conversations::Extraction {
    conversations::Extraction {
        turns: e.turns,
        llm_calls: e.llm_calls,
        offline: e.offline,
        stored: memories_of(e.stored),
        skipped: e.skipped,
    }
}

pub(super) fn conversations_error(e: api::Error) -> conversations::Error {
    use api::Error as E;
    match e {
        E::InvalidInput(m) => conversations::Error::InvalidInput(m),
        E::Storage(m) => conversations::Error::Storage(m),
        E::Index(m) => conversations::Error::Index(m),
        e => conversations::Error::InvalidInput(e.to_string()),
    }
}
