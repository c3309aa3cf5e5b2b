//! The JSONL memory record (seed 000's schema, `version` 1) and its embedding codec.
//!
//! The record is the source of truth on disk, so it round-trips fields it does not know
//! (`extra`): a newer writer's fields survive an older guest's rewrite.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::memory_type::MemoryType;

/// The schema version this guest writes.
pub const RECORD_VERSION: u32 = 1;

/// One line of `memories.jsonl` or `archive.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryRecord {
    pub id: String,
    pub version: u32,
    pub content: String,
    pub memory_type: MemoryType,
    /// Base64 of little-endian f32s; `None` while the embedding is pending.
    pub embedding: Option<String>,
    pub created_at: String,
    #[serde(default)]
    pub observed_at: Option<String>,
    #[serde(default)]
    pub owner_user_id: Option<String>,
    #[serde(default)]
    pub chat_id: Option<String>,
    #[serde(default)]
    pub subject_person_ids: Vec<String>,
    #[serde(default = "default_source")]
    pub source: String,
    #[serde(default)]
    pub source_session_id: Option<String>,
    #[serde(default)]
    pub source_message_id: Option<String>,
    #[serde(default)]
    pub extraction_confidence: Option<f64>,
    #[serde(default)]
    pub expires_at: Option<String>,
    #[serde(default)]
    pub superseded_at: Option<String>,
    #[serde(default)]
    pub superseded_by_id: Option<String>,
    #[serde(default)]
    pub archived_at: Option<String>,
    #[serde(default)]
    pub archive_reason: Option<String>,
    #[serde(default)]
    pub metadata: Option<serde_json::Value>,
    /// The embedder model that produced `embedding`, so that a rebuild reuses vectors only
    /// when they came from the model the index is built for. An addition to seed 000's
    /// schema; absent on records from older writers, which are then re-embedded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedding_model: Option<String>,
    /// Entities the content names (`crate::entities`: `email:…`, `url:…`, `date:…`,
    /// `mention:…`, `tag:…`, `name:…`), for search; `[]` when it names none. An
    /// addition to seed 000's schema, absent on records from older writers, whose
    /// entities are found when a search needs them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entities: Option<Vec<String>>,
    /// When search or context last returned it (recorded at most daily, as appended
    /// access lines folded in; a rewrite keeps it here). Decay counts from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_accessed_at: Option<String>,
    /// When its owner confirmed it (`confirm`): it no longer decays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmed_at: Option<String>,
    /// What was said around the fact when it was stored (in a conversation, the turn
    /// before it): embedded and searched with the content, returned apart from it. A
    /// reply such as "Yes, last week!" is found by the question it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// Fields written by a newer schema; kept so that a rewrite never drops them.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

fn default_source() -> String {
    "user".to_owned()
}

/// Why a line could not become a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl MemoryRecord {
    /// Parses one JSONL line, checking what serde alone does not: a known version, a
    /// non-empty id and content, and well-formed timestamps.
    pub fn parse(line: &str) -> Result<Self, ParseError> {
        let record: MemoryRecord =
            serde_json::from_str(line).map_err(|e| ParseError(format!("not a memory record: {e}")))?;
        if record.version != RECORD_VERSION {
            return Err(ParseError(format!("unsupported version {}", record.version)));
        }
        if record.id.is_empty() || record.content.is_empty() {
            return Err(ParseError("empty id or content".into()));
        }
        for (name, value) in [
            ("created_at", Some(&record.created_at)),
            ("observed_at", record.observed_at.as_ref()),
            ("expires_at", record.expires_at.as_ref()),
            ("superseded_at", record.superseded_at.as_ref()),
        ] {
            if let Some(v) = value {
                parse_time(v).map_err(|e| ParseError(format!("{name}: {e}")))?;
            }
        }
        Ok(record)
    }

    /// The record as one JSONL line (no trailing newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a memory record always serializes")
    }

    /// The text the record is embedded by: the content, then its context. Content first,
    /// so that a long context is what an embedder truncates. One vector of both finds more
    /// answers than the content alone, at a small cost to the top rank (figures:
    /// docs/judgment.md). The full-text index holds the two apart and weighs the context
    /// less (`IndexEntry::context`).
    pub fn embedded_text(&self) -> String {
        match &self.context {
            Some(context) => format!("{}\n{context}", self.content),
            None => self.content.clone(),
        }
    }

    /// The stored vector, if there is one and it decodes.
    pub fn vector(&self) -> Option<Vec<f32>> {
        self.embedding.as_deref().and_then(decode_embedding)
    }

    /// The record's line as the index keeps it beside its vector (`record` of an index
    /// entry): without the embedding when the index keeps the vector itself, so that a
    /// record costs the index its fields and not its vector twice.
    pub fn held_line(&self, vector_kept: bool) -> String {
        if vector_kept && self.embedding.is_some() {
            let mut bare = self.clone();
            bare.embedding = None;
            bare.to_line()
        } else {
            self.to_line()
        }
    }

    /// The record back from the index: its held line, and the vector the index kept,
    /// which is the embedding the line left out.
    pub fn from_held(line: &str, vector: Option<&[f32]>) -> Result<Self, ParseError> {
        let mut record = MemoryRecord::parse(line)?;
        if let Some(vector) = vector {
            record.embedding = Some(encode_embedding(vector));
        }
        Ok(record)
    }
}

/// Encodes a vector as base64 of little-endian f32s.
pub fn encode_embedding(vector: &[f32]) -> String {
    let mut bytes = Vec::with_capacity(vector.len() * 4);
    for x in vector {
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    BASE64.encode(bytes)
}

/// Decodes base64 of little-endian f32s; `None` if malformed.
pub fn decode_embedding(text: &str) -> Option<Vec<f32>> {
    let bytes = BASE64.decode(text).ok()?;
    if bytes.len() % 4 != 0 {
        return None;
    }
    Some(
        bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

/// Parses an RFC 3339 timestamp.
pub fn parse_time(text: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| format!("bad timestamp {text:?}: {e}"))
}

/// Formats a timestamp the way records store them: RFC 3339 with a `+00:00` offset.
pub fn format_time(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> MemoryRecord {
        MemoryRecord::parse(
            r#"{"id":"a","version":1,"content":"User prefers dark mode","memory_type":"preference",
                "embedding":null,"created_at":"2026-02-09T10:00:00+00:00","future_field":[1,2]}"#,
        )
        .unwrap()
    }

    #[test]
    fn embedding_round_trips_bit_for_bit() {
        let v = vec![0.25f32, -1.5, 3.0e-7, f32::MAX];
        assert_eq!(decode_embedding(&encode_embedding(&v)).unwrap(), v);
        // Little-endian layout: 1.0f32 is 00 00 80 3f.
        assert_eq!(encode_embedding(&[1.0]), "AACAPw==");
    }

    #[test]
    fn unknown_fields_survive_a_rewrite() {
        let line = sample().to_line();
        assert!(line.contains(r#""future_field":[1,2]"#), "{line}");
        assert_eq!(MemoryRecord::parse(&line).unwrap(), sample());
    }

    #[test]
    fn rejects_bad_lines() {
        assert!(MemoryRecord::parse("{not json").is_err());
        assert!(MemoryRecord::parse(r#"{"id":"a","version":2,"content":"x","memory_type":"knowledge","embedding":null,"created_at":"2026-01-01T00:00:00Z"}"#).is_err());
        assert!(MemoryRecord::parse(r#"{"id":"a","version":1,"content":"x","memory_type":"knowledge","embedding":null,"created_at":"yesterday"}"#).is_err());
        assert!(MemoryRecord::parse(r#"{"id":"a","version":1,"content":"x","memory_type":"nonsense","embedding":null,"created_at":"2026-01-01T00:00:00Z"}"#).is_err());
    }
}
