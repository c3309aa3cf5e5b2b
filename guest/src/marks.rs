//! The marks a memory's index entry carries (`marks` in `wit/index.wit`): the keys a search
//! about a person or naming an entity finds it by, and the moment it lapses, so that the
//! index can count and fetch the live memories holding a key without the collection being
//! read. Its moments are in the index's time (`index_time`).

use std::collections::BTreeSet;

use crate::conversation::profile;
use crate::entities;
use crate::index_time::{lapse, made, observed};
use crate::lifecycle;
use crate::memory_type::MemoryType;
use crate::ports::Marks;
use crate::record::MemoryRecord;

/// The key of the memories about a person.
pub fn subject(person_id: &str) -> String {
    format!("subject:{person_id}")
}

/// The key of the memories a profile may hold of this type
/// (`conversation::profile::is_candidate`).
pub fn profile(memory_type: MemoryType) -> String {
    format!("profile:{}", memory_type.as_str())
}

/// The key of personal reflections.
pub const REFLECTION: &str = "reflection";

/// The key of the memories holding an entity (as `entities::held` spells it).
pub fn entity(entity: &str) -> String {
    format!("entity:{entity}")
}

/// A record's marks: its subjects, its entities (found again from its content when the
/// record predates keeping them, as search does), whether a profile may hold it or it is a
/// personal reflection, its expiry, when it was observed and when it was made.
pub fn of(record: &MemoryRecord) -> Marks {
    let found;
    let held = match &record.entities {
        Some(held) => held,
        None => {
            found = entities::held(&record.content, &[]);
            &found
        }
    };
    let keys: BTreeSet<String> = record
        .subject_person_ids
        .iter()
        .map(|id| subject(id))
        .chain(held.iter().map(|e| entity(e)))
        .chain(profile::is_candidate(record).then(|| profile(record.memory_type)))
        .chain(
            (record.memory_type == MemoryType::Reflection && record.chat_id.is_none()).then(|| REFLECTION.to_owned()),
        )
        .collect();
    Marks {
        keys: keys.into_iter().collect(),
        lapses: lifecycle::expiry(record).map(lapse),
        observed: observed(record),
        made: made(record),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_marked_by_its_subjects_entities_and_expiry() {
        let record = MemoryRecord::parse(
            &serde_json::json!({
                "id": "m", "version": 1, "content": "Sarah moved to https://example.com on 2026-03-01",
                "memory_type": "event", "embedding": null,
                "created_at": "2026-01-10T00:00:00+00:00", "owner_user_id": "u",
                "subject_person_ids": ["p2", "p1", "p2"],
            })
            .to_string(),
        )
        .unwrap();
        let marks = of(&record);
        let subjects: Vec<&String> = marks.keys.iter().filter(|k| k.starts_with("subject:")).collect();
        assert_eq!(subjects, ["subject:p1", "subject:p2"], "each subject once");
        let found = entities::held(&record.content, &[]);
        assert!(!found.is_empty());
        for e in &found {
            assert!(marks.keys.contains(&entity(e)), "{e} is a key");
        }
        assert_eq!(marks.lapses, lifecycle::expiry(&record).map(lapse));
        assert!(marks.lapses.is_some(), "an event lapses");
    }

    /// The marks of a fixed set of records, spelled out. Indexes keep the marks they were
    /// written with and trust them while the memories' reflects key stands, so a change
    /// here (entity recognition, a type's lifetime, a key's spelling) must also move that
    /// key, so that indexes built under the old rules are rebuilt: `EntryKind::reflects_key`
    /// (index/src/types.rs, for every host's SQLite index) and the Postgres backend's
    /// layout. Then update what is expected here.
    #[test]
    fn the_marks_of_these_records_change_only_with_the_reflects_key() {
        let record = |json: serde_json::Value| MemoryRecord::parse(&json.to_string()).unwrap();
        let base = |id: &str, t: &str, content: &str| {
            serde_json::json!({
                "id": id, "version": 1, "content": content, "memory_type": t, "embedding": null,
                "created_at": "2026-01-10T08:30:00.123456789+00:00", "owner_user_id": "u",
            })
        };
        let mut with_subject = base("d", "knowledge", "Ana works at Acme Corp in Lisbon");
        with_subject["subject_person_ids"] = serde_json::json!(["p7"]);
        let mut with_entities = base("e", "identity", "I was born in Porto");
        with_entities["entities"] = serde_json::json!(["name:porto"]);
        let mut observed = base("f", "observation", "Sarah seemed tired at the #standup");
        observed["observed_at"] = serde_json::json!("2025-12-01T00:00:00Z");
        let mut related = base("h", "relationship", "Sarah is my sister");
        related["subject_person_ids"] = serde_json::json!(["p8"]);
        let mut theirs = base("i", "preference", "She likes Italian food");
        theirs["subject_person_ids"] = serde_json::json!(["p8"]);
        let mut shared = base("j", "preference", "We like the window table");
        shared["chat_id"] = serde_json::json!("c1");
        let mut shared_reflection = base("k", "reflection", "The team ships on Fridays");
        shared_reflection["chat_id"] = serde_json::json!("c1");
        let records = [
            record(base(
                "a",
                "preference",
                "I love the sushi at Tokyo Bar #food with @sarah",
            )),
            record(base("b", "event", "Dentist appointment on 2026-03-14 at 10:30")),
            record(base(
                "c",
                "task",
                "Send the invoice to https://example.com/pay by Friday",
            )),
            record(with_subject),
            record(with_entities),
            record(observed),
            record(base("g", "reflection", "The user plans trips months ahead")),
            record(related),
            record(theirs),
            record(shared),
            record(shared_reflection),
        ];
        let marks: Vec<String> = records
            .iter()
            .map(|r| {
                let m = of(r);
                format!("{} {:?} {:?} {}", r.id, m.keys, m.lapses, m.observed)
            })
            .collect();
        assert_eq!(marks, EXPECTED, "marks derive differently: see this test's comment");
    }

    const EXPECTED: [&str; 11] = [
        r#"a ["entity:mention:sarah", "entity:name:bar", "entity:name:tokyo", "entity:tag:food", "profile:preference"] None 1768033800123456"#,
        r#"b ["entity:date:2026-03-14"] Some(1770625800123457) 1768033800123456"#,
        r#"c ["entity:url:example.com/pay"] Some(1769243400123457) 1768033800123456"#,
        r#"d ["entity:name:acme", "entity:name:corp", "entity:name:lisbon", "subject:p7"] None 1768033800123456"#,
        r#"e ["entity:name:porto", "profile:identity"] None 1768033800123456"#,
        r#"f ["entity:tag:standup"] Some(1764806400000000) 1764547200000000"#,
        r#"g ["reflection"] None 1768033800123456"#,
        r#"h ["profile:relationship", "subject:p8"] None 1768033800123456"#,
        r#"i ["entity:name:italian", "subject:p8"] None 1768033800123456"#,
        r#"j [] None 1768033800123456"#,
        r#"k ["entity:name:fridays"] None 1768033800123456"#,
    ];
}
