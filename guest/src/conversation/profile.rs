//! The user profile (seed 003's profile notes): what an agent should know about the user
//! before anything else, assembled from their long-lived personal memories. Identity
//! first, then preferences, then the people in their life; the newest first within each.

use std::cmp::Reverse;

use crate::index_time;
use crate::memory_type::MemoryType;
use crate::record::MemoryRecord;

/// The most notes a profile holds.
pub const MAX_NOTES: usize = 20;
/// The longest note, in characters; a longer memory is cut with an ellipsis.
pub const MAX_NOTE_CHARS: usize = 200;

/// The order types come in, and which types a profile holds.
pub const ORDER: [MemoryType; 3] = [MemoryType::Identity, MemoryType::Preference, MemoryType::Relationship];

/// Whether a profile may hold this record, whoever owns it and whether or not it is live: a
/// personal memory of a profile type about the user. A preference about someone else ("She
/// likes Italian food", about Sarah) is theirs, not the user's; a relationship names the
/// people it is about.
pub fn is_candidate(r: &MemoryRecord) -> bool {
    r.chat_id.is_none()
        && ORDER.contains(&r.memory_type)
        && (r.subject_person_ids.is_empty() || r.memory_type == MemoryType::Relationship)
}

/// Where a record comes in a profile: by type, then newest first by when it was observed, in
/// whole microseconds, then by id. Within a type this is the order in which the index's
/// `newest` hands out the holders of the type's key (`marks::profile`).
pub fn rank(r: &MemoryRecord) -> Option<(usize, Reverse<i64>, &str)> {
    let by_type = ORDER.iter().position(|t| *t == r.memory_type)?;
    Some((by_type, Reverse(index_time::observed(r)), r.id.as_str()))
}

/// The notes, and the ids of the memories they come from, from the user's live personal
/// memories (the caller filters them).
pub fn assemble<'a>(memories: impl Iterator<Item = &'a MemoryRecord>) -> (Vec<String>, Vec<String>) {
    let picked = pick(ordered(memories).into_iter());
    (picked.notes, picked.ids)
}

/// The records of profile types among these, in the profile's order (`rank`).
pub fn ordered<'a>(memories: impl Iterator<Item = &'a MemoryRecord>) -> Vec<&'a MemoryRecord> {
    let mut ranked: Vec<_> = memories.filter_map(|r| Some((rank(r)?, r))).collect();
    ranked.sort_by(|a, b| a.0.cmp(&b.0));
    ranked.into_iter().map(|(_, r)| r).collect()
}

/// The notes a profile makes of its candidates, taken in its order (`rank`).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Picked {
    pub notes: Vec<String>,
    /// The memories the notes come from.
    pub ids: Vec<String>,
    /// How many candidates were read to make them: all there were, unless the notes filled
    /// up first.
    pub read: usize,
}

/// Notes from candidates already in the profile's order: each once (a note that repeats
/// one already taken, ignoring case, is skipped), until there are `MAX_NOTES`.
pub fn pick<'a>(ordered: impl Iterator<Item = &'a MemoryRecord>) -> Picked {
    let mut picked = Picked::default();
    for r in ordered {
        if picked.notes.len() == MAX_NOTES {
            break;
        }
        picked.read += 1;
        let note = note(&r.content);
        if picked.notes.iter().any(|n| n.eq_ignore_ascii_case(&note)) {
            continue;
        }
        picked.notes.push(note);
        picked.ids.push(r.id.clone());
    }
    picked
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
