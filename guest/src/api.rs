//! The memory API's request and response types, as plain Rust: the one mirror of the
//! exported WIT interfaces' types, so that the policy is tested natively. The component
//! adapter (`component/convert.rs`) converts them to and from the WIT types.

use std::fmt;

use crate::gc::ArchiveReason;
use crate::memory_type::MemoryType;
use crate::record::MemoryRecord;

/// A memory to store; see `new-memory` in `wit/memories.wit`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewMemory {
    pub content: String,
    pub memory_type: Option<MemoryType>,
    pub expires_in_days: Option<u32>,
    pub subjects: Vec<String>,
    pub shared: bool,
    pub source: Option<String>,
    pub observed_at: Option<String>,
    /// What was said around it; searched with the content, returned apart from it.
    pub context: Option<String>,
    /// Where an extracted fact came from; only extraction sets it (the WIT `new-memory`
    /// has no such field, so no caller can claim it).
    pub provenance: Option<Provenance>,
}

/// A correction of a memory; see `correction` in `wit/memories.wit`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Correction {
    /// The corrected fact.
    pub content: String,
    /// A new type; `None` keeps the memory's.
    pub memory_type: Option<MemoryType>,
    /// Expire this many days from now.
    pub expires_in_days: Option<u32>,
    /// Whom the corrected fact is about; `None` keeps the memory's subjects.
    pub subjects: Option<Vec<String>>,
}

/// The exchange an extracted memory was read from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Provenance {
    pub session_id: String,
    pub message_id: String,
    pub confidence: f64,
}

impl NewMemory {
    /// A personal memory with everything else defaulted.
    pub fn text(content: &str) -> Self {
        NewMemory {
            content: content.to_owned(),
            ..Default::default()
        }
    }
}

/// A stored memory without its embedding; see `memory` in `wit/types.wit`.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub id: String,
    pub content: String,
    pub memory_type: MemoryType,
    pub created_at: String,
    pub observed_at: Option<String>,
    pub context: Option<String>,
    pub owner_user_id: Option<String>,
    pub chat_id: Option<String>,
    pub subject_person_ids: Vec<String>,
    pub source: String,
    /// When it stops being returned: its own expiry, else its type's lifetime from when it
    /// was observed ("I'm stuck in traffic", an observation, three days on).
    pub expires_at: Option<String>,
    pub superseded_at: Option<String>,
    pub superseded_by_id: Option<String>,
    pub embedded: bool,
    /// Set on archived memories only (`history` shows archived links).
    pub archived_at: Option<String>,
    /// Set on archived memories only: the archive's `archive_reason`.
    pub archive_reason: Option<ArchiveReason>,
}

impl From<&MemoryRecord> for Memory {
    fn from(r: &MemoryRecord) -> Self {
        Memory {
            id: r.id.clone(),
            content: r.content.clone(),
            memory_type: r.memory_type,
            created_at: r.created_at.clone(),
            observed_at: r.observed_at.clone(),
            context: r.context.clone(),
            owner_user_id: r.owner_user_id.clone(),
            chat_id: r.chat_id.clone(),
            subject_person_ids: r.subject_person_ids.clone(),
            source: r.source.clone(),
            expires_at: crate::lifecycle::expiry(r).map(crate::record::format_time),
            superseded_at: r.superseded_at.clone(),
            superseded_by_id: r.superseded_by_id.clone(),
            embedded: r.embedding.is_some(),
            archived_at: r.archived_at.clone(),
            archive_reason: r.archive_reason.as_deref().and_then(ArchiveReason::parse),
        }
    }
}

/// Options for `list`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListOptions {
    pub limit: Option<u32>,
    pub memory_type: Option<MemoryType>,
    pub include_expired: bool,
    pub include_superseded: bool,
}

/// A search request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchQuery {
    pub text: String,
    pub limit: Option<u32>,
    /// Only memories about this person (and people one hop away).
    pub about: Option<String>,
}

/// A person as callers see one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub id: String,
    pub name: String,
    pub relation: Option<String>,
    pub aliases: Vec<String>,
    pub created_at: String,
    pub updated_at: Option<String>,
    /// (person id, relation): "Tom" is this person's "brother".
    pub relationships: Vec<(String, String)>,
}

impl From<&crate::people::PersonRecord> for Person {
    fn from(p: &crate::people::PersonRecord) -> Self {
        Person {
            id: p.id.clone(),
            name: p.name.clone(),
            relation: p.relation.clone(),
            aliases: p.aliases.clone(),
            created_at: p.created_at.clone(),
            updated_at: p.updated_at.clone(),
            relationships: p
                .relationships
                .iter()
                .map(|r| (r.person_id.clone(), r.relation.clone()))
                .collect(),
        }
    }
}

/// What forgetting a person did; see `forgotten` in `wit/people.wit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forgotten {
    /// The person, as they were.
    pub person: Person,
    /// Memories about them alone: archived, or removed with `purge`.
    pub archived: Vec<String>,
    /// Memories about them and others, which lost them as a subject.
    pub unlinked: Vec<String>,
    /// Older archive entries about them alone that `purge` removed.
    pub purged: u32,
}

/// What reading an export did; see `imported-records` in `wit/portability.wit`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordsImported {
    pub memories: u32,
    pub archived: u32,
    pub people: u32,
    pub renamed: u32,
    pub present: u32,
    pub reembedded: u32,
    /// (position in the lines given, why).
    pub refused: Vec<(u32, String)>,
}

/// The context an agent injects before a response.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ContextBlock {
    /// "Known People": the most recently active first.
    pub people: Vec<Person>,
    /// "Relevant Context from Memory": the most relevant first.
    pub memories: Vec<SearchHit>,
    /// Both blocks rendered as markdown for a system prompt.
    pub markdown: String,
    /// The estimated tokens of `markdown` (see `context::estimate_tokens`).
    pub estimated_tokens: u32,
    /// "Relevant past messages": of the caller's other sessions, the most relevant first.
    pub past_messages: Vec<PastMessage>,
    /// "About the user": the profile's notes.
    pub profile: Vec<String>,
    /// Memories, people, past messages and notes left out to fit the budget.
    pub dropped: u32,
}

/// One exchange to store; see `turn` in `wit/conversations.wit`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Turn {
    pub session: String,
    pub provider: Option<String>,
    pub user_message: String,
    pub assistant_message: Option<String>,
}

/// What `persist-turn` stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredTurn {
    pub session_id: String,
    pub message_ids: Vec<String>,
    pub redacted: u32,
}

/// A past message as the context shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PastMessage {
    pub id: String,
    pub session: String,
    pub role: crate::conversation::Role,
    pub content: String,
    pub created_at: String,
    pub score: f32,
}

/// What `extract` did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extraction {
    pub turns: u32,
    pub llm_calls: u32,
    pub offline: bool,
    pub stored: Vec<Memory>,
    pub skipped: Vec<String>,
}

/// The user's profile.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub notes: Vec<String>,
    pub memory_ids: Vec<String>,
}

/// One search result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub memory: Memory,
    pub score: f32,
    pub similarity: Option<f32>,
    pub subjects: Vec<String>,
    /// The fusion's lists that held it, strongest first.
    pub reasons: Vec<MatchReason>,
}

/// One way a search finds a memory; see `match-reason` in `wit/types.wit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchReason {
    Meaning,
    Words,
    Person,
    Entity,
    Time,
    Reply,
}

/// How a memory stands today; see `standing` in `wit/browse.wit`.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub id: String,
    pub subjects: Vec<String>,
    pub confidence: f32,
    pub confirmed_at: Option<String>,
    pub fading: bool,
    pub session: Option<String>,
    pub message: Option<String>,
    pub turn: Option<u32>,
    pub extraction_confidence: Option<f32>,
}

/// One of the caller's conversations; see `session-summary` in `wit/browse.wit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSummary {
    pub name: String,
    pub provider: String,
    pub turns: u32,
    pub extracted_turns: u32,
    pub created_at: String,
    pub updated_at: String,
}

/// One stored message with what extraction took from it; see `session-message` in
/// `wit/browse.wit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionMessage {
    pub id: String,
    pub turn: u32,
    pub role: crate::conversation::Role,
    pub content: String,
    pub created_at: String,
    pub extracted: Vec<String>,
}

/// Search results and notices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchResults {
    pub hits: Vec<SearchHit>,
    pub notices: Vec<String>,
}

/// What a rebuild did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RebuildReport {
    pub indexed: u64,
    pub embedded: u64,
    pub pending: u64,
    pub quarantined: u64,
}

/// What an add did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Added {
    /// The new memories, in the order given.
    pub memories: Vec<Memory>,
    /// Memories now marked superseded, each with the id of its replacement: older ones,
    /// then those of this call replaced by a later one of it.
    pub superseded: Vec<(Memory, String)>,
    /// Memories archived to stay within `max_entries`.
    pub evicted: Vec<Memory>,
    /// Ids in `memories` that were already stored: the fact was told again, so nothing new
    /// was written but the kept memory's new observation (and any subjects it gained).
    pub restated: Vec<String>,
}

/// What an import did; see `imported` in `wit/memories.wit`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    /// Facts stored as new memories.
    pub added: u32,
    /// Facts already stored, not stored again.
    pub present: u32,
    /// Memories the new ones replace: older ones and facts of the list.
    pub superseded: u32,
    /// Memories archived to stay within `max_entries`.
    pub evicted: u32,
    /// Facts refused, by position in the list, and why.
    pub refused: Vec<(u32, Error)>,
}

/// One memory GC archived or would archive.
#[derive(Debug, Clone, PartialEq)]
pub struct Archived {
    pub id: String,
    pub content: String,
    pub reason: ArchiveReason,
}

/// What GC did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GcReport {
    pub archived: Vec<Archived>,
    pub dry_run: bool,
}

/// One thing `doctor` checked; see `finding` in `wit/maintenance.wit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub check: String,
    pub ok: bool,
    pub detail: String,
    pub fixed: bool,
}

/// How old memories are; see `ages` in `wit/maintenance.wit`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ages {
    pub day: u64,
    pub week: u64,
    pub month: u64,
    pub year: u64,
    pub older: u64,
}

/// The index as found; see `index-state` in `wit/maintenance.wit`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexState {
    pub model: Option<String>,
    pub dimension: Option<u32>,
    pub entries: u64,
    pub in_step: bool,
}

/// What a home holds; see `stats` in `wit/maintenance.wit`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    pub memories: u64,
    pub by_type: Vec<(MemoryType, u64)>,
    pub personal: u64,
    pub group: u64,
    pub users: u64,
    pub chats: u64,
    pub by_source: Vec<(String, u64)>,
    pub by_age: Ages,
    pub superseded: u64,
    pub expired: u64,
    pub decayed: u64,
    pub fading: u64,
    pub pending: u64,
    pub archived: Vec<(ArchiveReason, u64)>,
    pub people: u64,
    pub newer_format: u64,
    pub index: IndexState,
}

/// What compaction did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompactReport {
    pub removed: Vec<String>,
    pub kept: u64,
    pub forced: bool,
}

/// Why a call failed: the union of the exported interfaces' `error` variants, whose
/// payloads it carries. The component adapter maps it onto each interface's own variant.
/// Every error leaves the collections as they were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A malformed request; the text names the field.
    InvalidInput(String),
    /// The content looks like a credential; the text names what was detected.
    SecretRefused(String),
    /// No memory with this id (or prefix) is visible to the caller.
    NotFound(String),
    /// This id prefix starts more than one of the caller's memories.
    AmbiguousId(String),
    /// No person of the caller's answers to this reference or id.
    UnknownPerson(String),
    /// The caller may see this memory but not change it.
    Unauthorized(String),
    /// No agent tool has this name.
    UnknownTool(String),
    /// A file operation failed.
    Storage(String),
    /// The index failed in a way a rebuild did not mend.
    Index(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidInput(m) => write!(f, "invalid input: {m}"),
            Error::SecretRefused(m) => write!(f, "refused: {m}"),
            Error::NotFound(id) => write!(f, "no memory {id} is visible to you"),
            Error::AmbiguousId(p) => write!(
                f,
                "{p} is ambiguous: several of your memories start with it; give more characters"
            ),
            Error::UnknownPerson(r) => write!(f, "no person {r:?} is known to you"),
            Error::Unauthorized(id) => write!(f, "not allowed: deleting memory {id} needs a user"),
            Error::UnknownTool(name) => write!(f, "unknown tool {name:?}: the tools are \"remember\" and \"recall\""),
            Error::Storage(m) => write!(f, "storage error: {m}"),
            Error::Index(m) => write!(f, "index error: {m}"),
        }
    }
}

impl std::error::Error for Error {}
