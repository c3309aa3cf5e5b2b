//! The user profile (seed 003's profile notes): what an agent should know about the user
//! before anything else, assembled from their long-lived personal memories. Identity
//! first, then preferences, then the people in their life; the newest first within each.

use chrono::{DateTime, Utc};

use crate::memory_type::MemoryType;
use crate::record::{MemoryRecord, parse_time};

/// The most notes a profile holds.
pub const MAX_NOTES: usize = 20;
/// The longest note, in characters; a longer memory is cut with an ellipsis.
pub const MAX_NOTE_CHARS: usize = 200;

/// The order types come in, and which types a profile holds.
const ORDER: [MemoryType; 3] = [MemoryType::Identity, MemoryType::Preference, MemoryType::Relationship];

/// The notes, and the ids of the memories they come from, from the user's live personal
/// memories (the caller filters them).
pub fn assemble<'a>(memories: impl Iterator<Item = &'a MemoryRecord>) -> (Vec<String>, Vec<String>) {
    let mut picked: Vec<(usize, DateTime<Utc>, &MemoryRecord)> = memories
        .filter_map(|r| {
            let rank = ORDER.iter().position(|t| *t == r.memory_type)?;
            let at = r.observed_at.as_deref().unwrap_or(&r.created_at);
            Some((rank, parse_time(at).unwrap_or(DateTime::UNIX_EPOCH), r))
        })
        .collect();
    picked.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.id.cmp(&b.2.id)));
    let mut notes: Vec<String> = Vec::new();
    let mut ids = Vec::new();
    for (_, _, r) in picked {
        let note = note(&r.content);
        if notes.iter().any(|n| n.eq_ignore_ascii_case(&note)) {
            continue;
        }
        notes.push(note);
        ids.push(r.id.clone());
        if notes.len() == MAX_NOTES {
            break;
        }
    }
    (notes, ids)
}

fn note(content: &str) -> String {
    let one_line = content.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(MAX_NOTE_CHARS) {
        Some((i, _)) => format!("{}\u{2026}", &one_line[..i]),
        None => one_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, t: &str, content: &str, at: &str) -> MemoryRecord {
        let line = serde_json::json!({
            "id": id, "version": 1, "content": content, "memory_type": t, "embedding": null,
            "created_at": at, "owner_user_id": "alice",
        });
        MemoryRecord::parse(&line.to_string()).unwrap()
    }

    #[test]
    fn identity_first_then_preferences_then_people_newest_first() {
        let records = [
            record("1", "preference", "I like tea", "2026-01-01T00:00:00Z"),
            record("2", "identity", "I live in Porto", "2026-01-01T00:00:00Z"),
            record("3", "task", "Buy milk", "2026-01-05T00:00:00Z"),
            record("4", "identity", "I am a nurse", "2026-01-03T00:00:00Z"),
            record("5", "relationship", "My wife's name is Sarah", "2026-01-09T00:00:00Z"),
            record("6", "preference", "i like tea", "2026-01-02T00:00:00Z"),
        ];
        let (notes, ids) = assemble(records.iter());
        assert_eq!(
            notes,
            [
                "I am a nurse",
                "I live in Porto",
                "i like tea",
                "My wife's name is Sarah"
            ]
        );
        assert_eq!(ids, ["4", "2", "6", "5"]);
        let long = record("7", "identity", &"x".repeat(500), "2026-01-01T00:00:00Z");
        assert_eq!(
            assemble(std::iter::once(&long)).0[0].chars().count(),
            MAX_NOTE_CHARS + 1
        );
    }
}
