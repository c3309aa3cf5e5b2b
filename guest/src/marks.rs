//! The marks a memory's index entry carries (`marks` in `wit/index.wit`): the keys a search
//! about a person or naming an entity finds it by, and the moment it lapses, so that the
//! index can count and fetch the live memories holding a key without the collection being
//! read.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};

use crate::entities;
use crate::lifecycle;
use crate::ports::Marks;
use crate::record::MemoryRecord;

/// The key of the memories about a person.
pub fn subject(person_id: &str) -> String {
    format!("subject:{person_id}")
}

/// The key of the memories holding an entity (as `entities::recognise` spells it).
pub fn entity(entity: &str) -> String {
    format!("entity:{entity}")
}

/// A moment as the index compares it: whole microseconds since the epoch, rounded down.
/// A search truncates its `now` to whole microseconds (`whole_micros`) so that this loses
/// nothing of it.
pub fn micros(at: DateTime<Utc>) -> i64 {
    at.timestamp_micros()
}

/// An expiry as the index keeps it: rounded up to a whole microsecond, so that it is later
/// than a whole-microsecond `now` exactly when the expiry itself is.
pub fn lapse(at: DateTime<Utc>) -> i64 {
    let down = at.timestamp_micros();
    if at.timestamp_subsec_nanos().is_multiple_of(1000) {
        down
    } else {
        down + 1
    }
}

/// A moment truncated to whole microseconds (nanosecond clocks give finer ones).
pub fn whole_micros(at: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp_micros(at.timestamp_micros()).unwrap_or(at)
}

/// A record's marks: its subjects, its entities (found again from its content when the
/// record predates keeping them, as search does), and its expiry.
pub fn of(record: &MemoryRecord) -> Marks {
    let found;
    let held = match &record.entities {
        Some(held) => held,
        None => {
            found = entities::recognise(&record.content, &[]);
            &found
        }
    };
    let keys: BTreeSet<String> = record
        .subject_person_ids
        .iter()
        .map(|id| subject(id))
        .chain(held.iter().map(|e| entity(e)))
        .collect();
    Marks {
        keys: keys.into_iter().collect(),
        lapses: lifecycle::expiry(record).map(lapse),
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
        let found = entities::recognise(&record.content, &[]);
        assert!(!found.is_empty());
        for e in &found {
            assert!(marks.keys.contains(&entity(e)), "{e} is a key");
        }
        assert_eq!(marks.lapses, lifecycle::expiry(&record).map(lapse));
        assert!(marks.lapses.is_some(), "an event lapses");
    }

    /// Live in the index exactly when live in the file, for a search's whole-microsecond
    /// `now`, whatever the nanoseconds of the expiry.
    #[test]
    fn an_expiry_within_a_microsecond_of_now_is_live_on_both_paths_or_neither() {
        let base = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        for now_ns in [0, 700, 1000, 1300] {
            let now = whole_micros(base + chrono::TimeDelta::nanoseconds(now_ns));
            for expiry_ns in [0, 1, 500, 999, 1000, 1001, 1500, 2000] {
                let expiry = base + chrono::TimeDelta::nanoseconds(expiry_ns);
                assert_eq!(
                    lapse(expiry) > micros(now),
                    expiry > now,
                    "expiry +{expiry_ns} ns, now +{now_ns} ns"
                );
            }
        }
    }
}
