//! The guest's view of its imports: one trait, so that the policy runs the same inside the
//! component (backed by WIT imports) and in native unit tests (backed by in-memory fakes).

use std::fmt;

/// A JSONL collection the host stores for the guest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Collection {
    /// `memory/memories.jsonl`.
    Memories,
    /// `people.jsonl`.
    People,
    /// `memory/archive.jsonl`.
    Archive,
    /// `memory/sessions.jsonl`.
    Sessions,
    /// `memory/messages.jsonl`.
    Messages,
}

/// What an index entry is; see `entry-kind` in the `index` interface.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A memory, from `memories.jsonl`.
    #[default]
    Memory,
    /// A conversation message, from `messages.jsonl`.
    Message,
}

/// Where a collection stands; see `file-state` in the `files` interface.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileState {
    /// The file's incarnation: changes whenever bytes already read may have changed.
    pub generation: u64,
    /// Offset just past the last whole line.
    pub end: u64,
}

/// Bytes read from a collection; see the `files` interface.
#[derive(Debug, Clone, Default)]
pub struct Chunk {
    /// Whole lines (and possibly one trailing torn line).
    pub data: String,
    /// Offset just past `data`.
    pub end: u64,
    /// The file's incarnation; changes when it is replaced.
    pub generation: u64,
}

/// Which scopes an index query may see, of which kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopeFilter {
    pub kind: EntryKind,
    /// Personal memories of this user.
    pub user_id: Option<String>,
    /// Group memories of this chat.
    pub chat_id: Option<String>,
}

/// One memory or message as the index holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexEntry {
    pub kind: EntryKind,
    pub id: String,
    pub content: String,
    /// A memory's context, full-text searched at a quarter of `content`'s weight.
    pub context: Option<String>,
    pub embedding: Option<Vec<f32>>,
    pub owner_user_id: Option<String>,
    pub chat_id: Option<String>,
    /// A memory's record line without its embedding; none for a message.
    pub record: Option<String>,
    /// Its keys and expiry; see `marks` in the `index` interface.
    pub marks: Marks,
}

/// What, besides its words and vector, an entry is found by; see `marks` in the `index`
/// interface.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// Its subjects and entities, as `crate::marks` spells them.
    pub keys: Vec<String>,
    /// When it stops being live on its own, in microseconds since the epoch.
    pub lapses: Option<i64>,
    /// When what it says was observed (else made), in microseconds since the epoch; what
    /// `newest` orders by.
    pub observed: i64,
    /// When it was made, in microseconds since the epoch; what `recent` orders by.
    pub made: i64,
}

/// A held memory's record and marks, replaced in place; see `set-records`.
#[derive(Debug, Clone, PartialEq)]
pub struct Revision {
    pub id: String,
    /// The record's line without its embedding.
    pub record: String,
    pub marks: Marks,
}

/// Live entries within a scope, all told and per key asked; see `tally`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub live: u64,
    pub holding: Vec<u64>,
}

/// A memory's record as the index holds it; see `held` in the `index` interface.
#[derive(Debug, Clone, PartialEq)]
pub struct Held {
    pub id: String,
    /// The record's line without its embedding.
    pub record: String,
    pub embedding: Option<Vec<f32>>,
}

/// A search hit from the index; higher score is better.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexHit {
    pub id: String,
    pub score: f32,
}

/// Which embedding model and dimension built the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexInfo {
    pub model: String,
    pub dimension: u32,
}

/// A failed file operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// The host failed it; the text says why.
    Failed(String),
    /// The call was begun as a read and may not write; nothing was written.
    ReadOnly(String),
    /// A record would be a line longer than a reader takes ([`crate::collection::MAX_LINE_BYTES`]);
    /// nothing was written. The text names the record.
    Oversized(String),
}

/// A failed index operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexError {
    /// Missing or corrupt: clear and rebuild.
    Unavailable(String),
    /// Expected, got.
    DimensionMismatch(u32, u32),
    Sql(String),
}

/// A failed embedding call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedError {
    Unavailable(String),
    /// Expected, got.
    DimensionMismatch(u32, u32),
}

/// A failed completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmError(pub String);

/// A completion request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmRequest {
    pub system: String,
    pub prompt: String,
    pub max_tokens: u32,
}

/// Policy settings from the host's configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicySettings {
    /// Cosine similarity at or above which an older memory is a supersession candidate.
    pub supersession_threshold: f32,
    /// The most active memories to keep.
    pub max_entries: Option<u64>,
    /// Whether `extract` reads conversations for facts.
    pub extraction_enabled: bool,
    /// The least confidence a language model's fact needs to be stored.
    pub extraction_confidence_threshold: f32,
    /// Whether embedding costs nothing but time (a model in the host), so that a change of
    /// model may embed everything again without asking.
    pub local_embedder: bool,
    /// Whether GC archives decayed facts the user told, not only extracted ones.
    pub decay_told_facts: bool,
    /// Below this similarity the best hit found by meaning alone is noise (0: never).
    pub weak_similarity: f32,
}

impl Default for PolicySettings {
    fn default() -> Self {
        PolicySettings {
            supersession_threshold: 0.75,
            max_entries: None,
            extraction_enabled: true,
            extraction_confidence_threshold: 0.7,
            local_embedder: false,
            decay_told_facts: false,
            weak_similarity: 0.0,
        }
    }
}

/// Log levels, as in the `log` interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Failed(m) | FileError::ReadOnly(m) | FileError::Oversized(m) => f.write_str(m),
        }
    }
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Unavailable(m) => write!(f, "index unavailable: {m}"),
            IndexError::DimensionMismatch(want, got) => {
                write!(f, "vector dimension {got} does not match the index's {want}")
            }
            IndexError::Sql(m) => write!(f, "index error: {m}"),
        }
    }
}

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmbedError::Unavailable(m) => write!(f, "embedder unavailable: {m}"),
            EmbedError::DimensionMismatch(want, got) => {
                write!(f, "embedder returned dimension {got}, expected {want}")
            }
        }
    }
}

/// Everything the policy may ask of its host. Mirrors the WIT imports one to one.
pub trait Ports {
    fn read(&self, c: Collection, from: u64, generation: Option<u64>) -> Result<Chunk, FileError>;
    fn append(&self, c: Collection, lines: &[String]) -> Result<FileState, FileError>;
    fn replace(&self, c: Collection, lines: &[String]) -> Result<FileState, FileError>;
    fn quarantine(&self, c: Collection, lines: &[String], reason: &str) -> Result<(), FileError>;

    fn index_upsert(&self, entries: &[IndexEntry]) -> Result<(), IndexError>;
    fn index_remove(&self, ids: &[String]) -> Result<(), IndexError>;
    fn index_knn(&self, query: &[f32], k: u32, scope: &ScopeFilter) -> Result<Vec<IndexHit>, IndexError>;
    fn index_text_search(&self, terms: &[String], k: u32, scope: &ScopeFilter) -> Result<Vec<IndexHit>, IndexError>;
    fn index_fetch(&self, ids: &[String]) -> Result<Vec<Held>, IndexError>;
    fn index_set_records(&self, revisions: &[Revision]) -> Result<(), IndexError>;
    fn index_tally(&self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Tally, IndexError>;
    fn index_holding(&self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Vec<Held>, IndexError>;
    fn index_newest(
        &self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<Held>>, IndexError>;
    fn index_holding_ids(&self, keys: &[String], scope: &ScopeFilter, now: i64) -> Result<Vec<String>, IndexError>;
    fn index_newest_ids(
        &self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
        limit: u32,
    ) -> Result<Vec<Vec<String>>, IndexError>;
    fn index_newest_moments(
        &self,
        keys: &[String],
        scope: &ScopeFilter,
        now: i64,
    ) -> Result<Vec<Option<i64>>, IndexError>;
    fn index_recent(&self, scope: &ScopeFilter, now: Option<i64>, limit: u32) -> Result<Vec<Held>, IndexError>;
    fn index_made_after(&self, ids: &[String], now: i64, within: i64) -> Result<Vec<Option<String>>, IndexError>;
    fn index_made_around(&self, ids: &[String], places: u32, now: i64) -> Result<Vec<Vec<String>>, IndexError>;
    fn index_pending(&self, kind: EntryKind) -> Result<u64, IndexError>;
    fn index_count(&self, kind: EntryKind) -> Result<u64, IndexError>;
    fn index_clear(&self, info: &IndexInfo) -> Result<(), IndexError>;
    fn index_info(&self) -> Result<Option<IndexInfo>, IndexError>;
    fn index_reflects(&self, kind: EntryKind) -> Result<Option<FileState>, IndexError>;
    fn index_set_reflects(&self, kind: EntryKind, state: FileState) -> Result<(), IndexError>;

    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
    fn embedder_model(&self) -> String;
    fn embedder_dimension(&self) -> u32;

    fn complete(&self, request: &LlmRequest) -> Result<String, LlmError>;

    /// RFC 3339, UTC.
    fn now(&self) -> String;
    fn new_id(&self) -> String;
    fn log(&self, level: Level, message: &str);
    fn progress(&self, task: &str, done: u64, total: u64);
    fn settings(&self) -> PolicySettings;
}
