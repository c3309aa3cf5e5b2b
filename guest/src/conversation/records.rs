//! The JSONL records of `sessions.jsonl` and `messages.jsonl`.
//!
//! A session belongs to one scope, as a memory does: a chat (its members all see it) or,
//! without a chat, a user. Its messages carry the same scope, so that the index keeps
//! them apart without looking the session up. Messages are written once and never
//! change; the session's line is written again as turns arrive and are read for facts.

use serde::{Deserialize, Serialize};

use crate::collection::Record;
use crate::ports::{Collection, EntryKind, IndexEntry, Marks};
use crate::record::decode_embedding;
use crate::scope::Caller;

/// The schema version these records are written in.
pub const CONVERSATION_VERSION: u32 = 1;

/// One line of `sessions.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionRecord {
    pub id: String,
    pub version: u32,
    /// The host's name for it; unique within a scope and provider.
    pub name: String,
    pub provider: String,
    /// Personal scope: the user. Exactly one of `owner_user_id` and `chat_id` is set.
    #[serde(default)]
    pub owner_user_id: Option<String>,
    /// Group scope: the chat.
    #[serde(default)]
    pub chat_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Exchanges stored, numbered from 1.
    pub turns: u64,
    /// Exchanges read for facts: the first `extracted_turns`.
    #[serde(default)]
    pub extracted_turns: u64,
    /// Fields written by a newer schema, kept by a rewrite.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
}

/// One line of `messages.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageRecord {
    pub id: String,
    pub version: u32,
    pub session_id: String,
    /// The exchange it belongs to, from 1.
    pub turn: u64,
    pub role: Role,
    /// The text, secrets replaced by `[redacted]`.
    pub content: String,
    pub created_at: String,
    /// The user who said it (user messages), when the caller had one.
    #[serde(default)]
    pub author_user_id: Option<String>,
    /// The session's scope, copied.
    #[serde(default)]
    pub owner_user_id: Option<String>,
    #[serde(default)]
    pub chat_id: Option<String>,
    /// Base64 of little-endian f32s, as in memories; `None` when the embedder was down.
    #[serde(default)]
    pub embedding: Option<String>,
    #[serde(default)]
    pub embedding_model: Option<String>,
    /// Fields written by a newer schema, kept by a rewrite.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// The scope a caller's sessions live in: the chat when there is one, else the user.
/// Stricter than memories (a caller in a chat does not see their private sessions): past
/// talk quoted into a group must have been said in that group.
pub fn session_scope(caller: &Caller) -> Option<(Option<String>, Option<String>)> {
    match (&caller.chat_id, &caller.user_id) {
        (Some(chat), _) => Some((None, Some(chat.clone()))),
        (None, Some(user)) => Some((Some(user.clone()), None)),
        (None, None) => None,
    }
}

impl SessionRecord {
    /// Whether the caller's sessions include this one.
    pub fn visible_to(&self, caller: &Caller) -> bool {
        session_scope(caller).is_some_and(|(user, chat)| self.owner_user_id == user && self.chat_id == chat)
    }
}

impl MessageRecord {
    /// The stored vector, if any.
    pub fn vector(&self) -> Option<Vec<f32>> {
        self.embedding.as_deref().and_then(decode_embedding)
    }

    /// The index entry for this message.
    pub fn index_entry(&self, embedding: Option<Vec<f32>>) -> IndexEntry {
        IndexEntry {
            kind: EntryKind::Message,
            id: self.id.clone(),
            content: self.content.clone(),
            context: None,
            embedding,
            owner_user_id: self.owner_user_id.clone(),
            chat_id: self.chat_id.clone(),
            record: None,
            marks: Marks::default(),
        }
    }
}

fn parse<T: serde::de::DeserializeOwned + HasVersion>(line: &str) -> Result<T, String> {
    let record: T = serde_json::from_str(line).map_err(|e| e.to_string())?;
    if record.version() != CONVERSATION_VERSION {
        return Err(format!("version {} is not {CONVERSATION_VERSION}", record.version()));
    }
    Ok(record)
}

trait HasVersion {
    fn version(&self) -> u32;
}

impl HasVersion for SessionRecord {
    fn version(&self) -> u32 {
        self.version
    }
}

impl HasVersion for MessageRecord {
    fn version(&self) -> u32 {
        self.version
    }
}

impl Record for SessionRecord {
    const COLLECTION: Collection = Collection::Sessions;
    const FILE: &'static str = "sessions.jsonl";
    const VERSION: u32 = CONVERSATION_VERSION;
    fn id(&self) -> &str {
        &self.id
    }
    fn parse(line: &str) -> Result<Self, String> {
        parse(line)
    }
    fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a session serializes")
    }
}

impl Record for MessageRecord {
    const COLLECTION: Collection = Collection::Messages;
    const FILE: &'static str = "messages.jsonl";
    const VERSION: u32 = CONVERSATION_VERSION;
    fn id(&self) -> &str {
        &self.id
    }
    fn parse(line: &str) -> Result<Self, String> {
        parse(line)
    }
    fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a message serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_keep_unknown_fields() {
        let line = r#"{"id":"m1","version":1,"session_id":"s","turn":1,"role":"user","content":"hi","created_at":"2026-01-01T00:00:00+00:00","owner_user_id":"alice","future":7}"#;
        let m = MessageRecord::parse(line).unwrap();
        assert_eq!((m.role, m.turn, m.extra["future"].as_i64()), (Role::User, 1, Some(7)));
        assert_eq!(MessageRecord::parse(&m.to_line()).unwrap(), m);
        // A removal or access line is not a message.
        assert!(MessageRecord::parse(r#"{"id":"m1","version":1,"removed_at":"T"}"#).is_err());
    }

    #[test]
    fn a_chat_caller_sees_only_that_chats_sessions() {
        let session = |user: Option<&str>, chat: Option<&str>| SessionRecord {
            id: "s".into(),
            version: 1,
            name: "n".into(),
            provider: "cli".into(),
            owner_user_id: user.map(Into::into),
            chat_id: chat.map(Into::into),
            created_at: String::new(),
            updated_at: String::new(),
            turns: 0,
            extracted_turns: 0,
            extra: Default::default(),
        };
        let alice = Caller::new(Some("alice"), None);
        let alice_in_g = Caller::new(Some("alice"), Some("g"));
        assert!(session(Some("alice"), None).visible_to(&alice));
        assert!(!session(Some("alice"), None).visible_to(&alice_in_g));
        assert!(session(None, Some("g")).visible_to(&alice_in_g));
        assert!(session(None, Some("g")).visible_to(&Caller::new(Some("bob"), Some("g"))));
        assert!(!session(None, Some("g")).visible_to(&alice));
        assert!(!session(Some("alice"), None).visible_to(&Caller::new(Some("bob"), None)));
    }
}
