//! The contract's request and response types: the types `bindgen!` generates from `wit/`,
//! used as they are (one definition, no mirrors), plus constructors that make requests
//! short to write:
//!
//! ```
//! use ash_memory::{Caller, ListOptions, MemoryType, NewMemory, SearchQuery};
//! let me = Caller::user("alice");
//! let fact = NewMemory::text("Dinner with Sarah on Friday").memory_type(MemoryType::Event).subject("Sarah");
//! let query = SearchQuery::new("what is planned with Sarah?").limit(5);
//! let recent = ListOptions::new().limit(20).include_superseded(true);
//! # let _ = (me, fact, query, recent);
//! ```

pub use crate::bindings::ash::memory::types::{
    ArchiveReason, Caller, MatchReason, Memory, MemoryType, Person, SearchHit,
};
pub use crate::bindings::exports::ash::memory::browse::{SessionMessage, SessionSummary, Standing};
pub use crate::bindings::exports::ash::memory::conversations::{
    Extraction, PastMessage, Role, StoredTurn, Turn, UserProfile as Profile,
};
pub use crate::bindings::exports::ash::memory::maintenance::{
    Ages, Archived, CompactReport, Finding, GcReport, HomeStats, IndexState, RebuildReport,
};
pub use crate::bindings::exports::ash::memory::memories::{Added, Correction, ListOptions, NewMemory, Reflection};
pub use crate::bindings::exports::ash::memory::people::{Forgotten, NewPerson};
pub use crate::bindings::exports::ash::memory::portability::{ImportedRecords, RefusedLine};
pub use crate::bindings::exports::ash::memory::recall::{ContextBlock, SearchQuery, SearchResults};

/// A tool call's answer (see `run` in `wit/tools.wit`).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolAnswer {
    /// The text to hand back to the model.
    pub text: String,
    /// The same answer as a JSON object, of the shape the tool's `output_schema` declares.
    pub data: serde_json::Value,
}

/// What a home holds: the policy's counts over every scope, and what only the host sees.
#[derive(Debug, Clone)]
pub struct Stats {
    /// The policy's counts (see `stats` in `wit/maintenance.wit`).
    pub home: HomeStats,
    /// Lines set aside in the quarantine files because they did not parse.
    pub quarantined: u64,
}

impl Turn {
    /// A turn of the named session with the user's message only; provider "cli".
    pub fn new(session: impl Into<String>, user_message: impl Into<String>) -> Self {
        Turn {
            session: session.into(),
            provider: None,
            user_message: user_message.into(),
            assistant_message: None,
        }
    }

    /// The agent's answer.
    pub fn answer(mut self, assistant_message: impl Into<String>) -> Self {
        self.assistant_message = Some(assistant_message.into());
        self
    }

    /// Where the conversation happens ("telegram").
    pub fn provider(mut self, provider: impl Into<String>) -> Self {
        self.provider = Some(provider.into());
        self
    }
}

impl Caller {
    /// A user, in no chat: sees their personal memories.
    pub fn user(user_id: impl Into<String>) -> Self {
        Caller {
            user_id: Some(user_id.into()),
            chat_id: None,
        }
    }

    /// The same caller in a chat: also sees, and may share into, that chat's memories.
    pub fn in_chat(mut self, chat_id: impl Into<String>) -> Self {
        self.chat_id = Some(chat_id.into());
        self
    }

    /// The scopes this caller's writes are confined to, the user's first, named as the
    /// policy reads the ids (`scope.rs` in the guest: trimmed, an empty one being none):
    /// `u:<user id>` and `c:<chat id>`. None for a caller with neither.
    pub fn scopes(&self) -> Vec<String> {
        fn clean(id: Option<&str>) -> Option<&str> {
            id.map(str::trim).filter(|s| !s.is_empty())
        }
        let user = clean(self.user_id.as_deref()).map(|u| format!("u:{u}"));
        let chat = clean(self.chat_id.as_deref()).map(|c| format!("c:{c}"));
        user.into_iter().chain(chat).collect()
    }
}

impl Correction {
    /// A new text for a memory, keeping its type and subjects.
    pub fn text(content: impl Into<String>) -> Self {
        Correction {
            content: content.into(),
            memory_type: None,
            expires_in_days: None,
            subjects: None,
        }
    }
}

impl NewMemory {
    /// A personal memory with everything else defaulted (type inferred, source "user").
    pub fn text(content: impl Into<String>) -> Self {
        NewMemory {
            content: content.into(),
            memory_type: None,
            expires_in_days: None,
            subjects: Vec::new(),
            shared: false,
            source: None,
            observed_at: None,
            context: None,
        }
    }

    /// Sets the type instead of inferring it.
    pub fn memory_type(mut self, memory_type: MemoryType) -> Self {
        self.memory_type = Some(memory_type);
        self
    }

    /// Expires this many days after now (1 to 36500).
    pub fn expires_in_days(mut self, days: u32) -> Self {
        self.expires_in_days = Some(days);
        self
    }

    /// Adds a person the fact is about: "Sarah", "my wife", or a person id.
    pub fn subject(mut self, reference: impl Into<String>) -> Self {
        self.subjects.push(reference.into());
        self
    }

    /// Stores it in the caller's chat (group scope) instead of for the caller alone.
    pub fn shared(mut self) -> Self {
        self.shared = true;
        self
    }

    /// Where the fact came from ("cli", "rpc", "extraction", ...).
    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = Some(source.into());
        self
    }

    /// When it was observed (RFC 3339); decay is measured from then.
    pub fn observed_at(mut self, timestamp: impl Into<String>) -> Self {
        self.observed_at = Some(timestamp.into());
        self
    }

    /// What was said around it (a conversation's date and the turn before): searched
    /// with the content, returned apart from it.
    pub fn context(mut self, context: impl Into<String>) -> Self {
        self.context = Some(context.into());
        self
    }
}

impl ListOptions {
    /// Every live memory: no limit, any type, neither expired nor superseded ones.
    pub fn new() -> Self {
        ListOptions {
            limit: None,
            memory_type: None,
            include_expired: false,
            include_superseded: false,
        }
    }

    /// At most this many, newest first.
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Only this type.
    pub fn memory_type(mut self, memory_type: MemoryType) -> Self {
        self.memory_type = Some(memory_type);
        self
    }

    /// Also memories past their expiry or their type's lifetime.
    pub fn include_expired(mut self, yes: bool) -> Self {
        self.include_expired = yes;
        self
    }

    /// Also memories that a newer one replaced.
    pub fn include_superseded(mut self, yes: bool) -> Self {
        self.include_superseded = yes;
        self
    }
}

impl Default for ListOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl SearchQuery {
    /// A search for `text`, with the default limit (10) and no person filter.
    pub fn new(text: impl Into<String>) -> Self {
        SearchQuery {
            text: text.into(),
            limit: None,
            about: None,
        }
    }

    /// At most this many hits (1 to 1000).
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Only memories about this person ("Sarah", "my wife") and people one hop away.
    pub fn about(mut self, person: impl Into<String>) -> Self {
        self.about = Some(person.into());
        self
    }
}

impl NewPerson {
    /// A person by name, with no relation or aliases yet.
    pub fn named(name: impl Into<String>) -> Self {
        NewPerson {
            name: name.into(),
            relation: None,
            aliases: Vec::new(),
        }
    }

    /// What they are to the user: "wife", "boss".
    pub fn relation(mut self, relation: impl Into<String>) -> Self {
        self.relation = Some(relation.into());
        self
    }

    /// Another name or reference that means them.
    pub fn alias(mut self, alias: impl Into<String>) -> Self {
        self.aliases.push(alias.into());
        self
    }
}

impl ArchiveReason {
    /// The `archive_reason` written to the archive.
    pub fn as_str(self) -> &'static str {
        match self {
            ArchiveReason::Superseded => "superseded",
            ArchiveReason::Expired => "expired",
            ArchiveReason::EphemeralDecay => "ephemeral_decay",
            ArchiveReason::Evicted => "evicted",
            ArchiveReason::Deleted => "deleted",
            ArchiveReason::Forgotten => "forgotten",
            ArchiveReason::Decayed => "decayed",
        }
    }
}

impl MatchReason {
    /// Its name in the WIT and on the wire: "meaning", "words", "person", "entity",
    /// "time", "reply".
    pub fn as_str(self) -> &'static str {
        match self {
            MatchReason::Meaning => "meaning",
            MatchReason::Words => "words",
            MatchReason::Person => "person",
            MatchReason::Entity => "entity",
            MatchReason::Time => "time",
            MatchReason::Reply => "reply",
        }
    }
}

impl MemoryType {
    /// All types, long-lived first, then reflections.
    pub const ALL: [MemoryType; 9] = [
        MemoryType::Preference,
        MemoryType::Identity,
        MemoryType::Relationship,
        MemoryType::Knowledge,
        MemoryType::Context,
        MemoryType::Event,
        MemoryType::Task,
        MemoryType::Observation,
        MemoryType::Reflection,
    ];

    /// The lowercase name used in JSONL and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryType::Preference => "preference",
            MemoryType::Identity => "identity",
            MemoryType::Relationship => "relationship",
            MemoryType::Knowledge => "knowledge",
            MemoryType::Context => "context",
            MemoryType::Event => "event",
            MemoryType::Task => "task",
            MemoryType::Observation => "observation",
            MemoryType::Reflection => "reflection",
        }
    }

    /// Parses a lowercase name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == name.trim().to_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callers_scopes_are_its_trimmed_user_then_chat() {
        assert_eq!(Caller::user(" ann ").in_chat("team").scopes(), ["u:ann", "c:team"]);
        let chat_only = Caller {
            user_id: Some("  ".into()),
            chat_id: Some("team".into()),
        };
        assert_eq!(chat_only.scopes(), ["c:team"]);
        let nobody = Caller {
            user_id: None,
            chat_id: Some(String::new()),
        };
        assert!(nobody.scopes().is_empty());
    }
}
