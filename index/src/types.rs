//! What the index takes and gives: the records of `wit/index.wit`'s `index` interface, as
//! plain Rust types, which each host's bindings map onto.

/// What an entry is, and which collection it caches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A memory, from the memories collection.
    Memory,
    /// A conversation message, from the messages collection.
    Message,
}

/// Which scopes a query may see: a caller's personal memories, a chat's group memories,
/// or both, of one kind. A query with neither sees nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeFilter {
    /// Memories or messages.
    pub kind: EntryKind,
    /// Personal memories owned by this user.
    pub user_id: Option<String>,
    /// Group memories of this chat.
    pub chat_id: Option<String>,
}

/// What, besides its words and vector, an entry is found by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marks {
    /// The keys it holds, each once (the guest's own spelling, which the index only
    /// compares).
    pub keys: Vec<String>,
    /// When it stops being live on its own, in microseconds since the epoch; none if
    /// never. Live at `now` when none or later than `now`.
    pub lapses: Option<i64>,
    /// When what it says was observed (else when it was made): `newest`'s order.
    pub observed: i64,
    /// When it was made: `recent`'s order.
    pub made: i64,
}

/// One memory or message as the index holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// What it is. An id is unique across kinds.
    pub kind: EntryKind,
    /// The memory or message id.
    pub id: String,
    /// Its text, for full-text search.
    pub content: String,
    /// A memory's context, searched with `content` at [`crate::CONTEXT_WEIGHT`] of its
    /// weight; none for a message.
    pub context: Option<String>,
    /// Its vector, or none while its embedding is pending (full-text only until then).
    pub embedding: Option<Vec<f32>>,
    /// Personal scope: the owner.
    pub owner_user_id: Option<String>,
    /// Group scope: the chat.
    pub chat_id: Option<String>,
    /// A memory's record as one JSON line without its embedding: what `fetch` hands back.
    pub record: Option<String>,
    /// Its keys and moments; a message has none.
    pub marks: Marks,
}

/// A memory's record and marks, replaced in place (`set_records`).
#[derive(Debug, Clone, PartialEq)]
pub struct Revision {
    /// The memory id.
    pub id: String,
    /// The record's JSON line, without its embedding.
    pub record: String,
    /// Its keys and expiry now.
    pub marks: Marks,
}

/// How many live entries a scope holds, all told and per key (`tally`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Live entries within the scopes.
    pub live: u64,
    /// Of those, how many hold each key asked, in the order asked.
    pub holding: Vec<u64>,
}

/// A memory's record as the index holds it (`fetch`).
#[derive(Debug, Clone, PartialEq)]
pub struct Held {
    /// The memory id.
    pub id: String,
    /// The record's JSON line, without its embedding.
    pub record: String,
    /// Its vector as `knn` compares it; none while its embedding is pending.
    pub embedding: Option<Vec<f32>>,
}

/// A search hit.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The memory or message id.
    pub id: String,
    /// Higher is better: cosine similarity for `knn`, negated BM25 for `text_search`.
    pub score: f32,
}

/// Which embedding model built the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexInfo {
    /// The embedder's model id.
    pub model: String,
    /// The vector dimension.
    pub dimension: u32,
}

/// A state of a collection file: which incarnation, and where its last whole line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileState {
    /// The file's incarnation.
    pub generation: u64,
    /// The byte offset just past the last whole line.
    pub end: u64,
}

/// What went wrong with the index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// The index file cannot be opened or is corrupt; it must be cleared and rebuilt.
    #[error("the index is unavailable: {0}")]
    Unavailable(String),
    /// A vector's length differs from the index's dimension (expected, got).
    #[error("a vector of {} dimensions where the index has {}", .0.1, .0.0)]
    DimensionMismatch((u32, u32)),
    /// Any other database failure; the text says what.
    #[error("index: {0}")]
    Sql(String),
    /// A write in a call begun as a read; nothing was written.
    #[error("index: {0}")]
    ReadOnly(String),
}

impl EntryKind {
    /// What scope keys of this kind start with: nothing for memories (so that indexes
    /// built before messages existed stay valid), `m` for messages.
    pub fn prefix(self) -> &'static str {
        match self {
            EntryKind::Memory => "",
            EntryKind::Message => "m",
        }
    }

    /// The meta key of the collection state this kind reflects.
    pub fn reflects_key(self) -> &'static str {
        match self {
            // A new key for each change to what the index holds: a host of an older
            // version sharing this index moves only its own key, so a state it wrote is
            // never taken for one with everything this version keeps. Never reuse an old
            // one: `reflects`, `reflects_records`, `reflects_marks`, `reflects_codes`,
            // `reflects_observed`, `reflects_messages`, `reflects_made`,
            // `reflects_message_codes`.
            EntryKind::Memory => "reflects_blocks",
            EntryKind::Message => "reflects_message_blocks",
        }
    }
}

/// No keys, never lapsing: a message's marks.
impl Default for Marks {
    fn default() -> Self {
        Marks {
            keys: Vec::new(),
            lapses: None,
            observed: 0,
            made: 0,
        }
    }
}

impl ScopeFilter {
    /// The scope keys this filter admits: `u:<user>` for personal, `c:<chat>` for group,
    /// after the kind's prefix.
    pub fn keys(&self) -> Vec<String> {
        let kind = self.kind.prefix();
        let mut keys = Vec::new();
        if let Some(u) = &self.user_id {
            keys.push(format!("{kind}u:{u}"));
        }
        if let Some(c) = &self.chat_id {
            keys.push(format!("{kind}c:{c}"));
        }
        keys
    }

    /// The scope keys of a filter of memories; none for messages, which have no marks.
    pub fn memory_keys(&self) -> Vec<String> {
        match self.kind {
            EntryKind::Memory => self.keys(),
            EntryKind::Message => Vec::new(),
        }
    }
}

impl Entry {
    /// The scope key, matching the guest's visibility rule: a chat id makes it a group
    /// memory; otherwise the owner's personal one. Kinds never share a key.
    pub fn scope(&self) -> String {
        let kind = self.kind.prefix();
        match (&self.chat_id, &self.owner_user_id) {
            (Some(c), _) => format!("{kind}c:{c}"),
            (None, Some(u)) => format!("{kind}u:{u}"),
            (None, None) => format!("{kind}none"),
        }
    }
}
