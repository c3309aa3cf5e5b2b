//! Decay of long-lived memories that are never recalled (seed 004): a confidence of
//! `exp(-rate × days since last access)`, starting from 1 at the last access (or at
//! creation), 1 for ever once confirmed. Search and context weigh hits by it gently; GC
//! archives what fell below [`THRESHOLD`] (reason `decayed`).
//!
//! The rate is seed 004's formula with a slower default: its 0.1 a day would archive an
//! allergy nobody asked about for a month. At 0.01 a day a fact fades below the threshold
//! after about ten months without being recalled. Who the user is (identity), the people
//! in their life (relationship) and reflections do not decay; ephemeral types have their
//! lifetimes instead.
//!
//! Decay lowers every fading memory's rank, but GC archives by decay only what the system
//! inferred (facts extracted from conversations): a fact the user told stays until it is
//! replaced or deleted (seed 000), unless `[memory] decay_told_facts` opts told facts in.

use chrono::{DateTime, Utc};

use crate::memory_type::MemoryType;
use crate::record::{MemoryRecord, parse_time};

/// Confidence lost per day without access, as seed 004's `decay_rate`.
pub const RATE_PER_DAY: f64 = 0.01;
/// Below this confidence GC archives a memory (seed 004's default).
pub const THRESHOLD: f64 = 0.05;
/// How much of a search score rests on confidence: a hit with none keeps 75% of its score.
pub const PRIOR_WEIGHT: f32 = 0.25;
/// Accesses closer together than this are not recorded again: decay is counted in days.
pub const ACCESS_GRANULARITY_HOURS: i64 = 24;

/// Whether memories of this type decay.
pub fn decays(memory_type: MemoryType) -> bool {
    matches!(memory_type, MemoryType::Preference | MemoryType::Knowledge)
}

/// When the record was last accessed: its last recorded access, else its creation.
pub fn last_access(record: &MemoryRecord) -> Option<DateTime<Utc>> {
    let accessed = record.last_accessed_at.as_deref().and_then(|t| parse_time(t).ok());
    let created = parse_time(&record.created_at).ok();
    accessed.max(created)
}

/// The record's confidence now, from 0 to 1.
pub fn confidence(record: &MemoryRecord, now: DateTime<Utc>) -> f64 {
    if !decays(record.memory_type) || record.confirmed_at.is_some() {
        return 1.0;
    }
    let Some(since) = last_access(record) else {
        return 1.0;
    };
    let days = (now - since).num_seconds().max(0) as f64 / 86_400.0;
    (-RATE_PER_DAY * days).exp()
}

/// The `source` of facts the system inferred from a conversation rather than was told.
pub const INFERRED_SOURCE: &str = "extraction";

/// Whether GC may archive the record once it has faded: a fact of a decaying type, never
/// confirmed, that was inferred, or told when `decay_told_facts` opts told facts in.
pub fn may_fade_away(record: &MemoryRecord, decay_told_facts: bool) -> bool {
    decays(record.memory_type)
        && record.confirmed_at.is_none()
        && (decay_told_facts || record.source == INFERRED_SOURCE)
}

/// Whether GC should archive it as decayed.
pub fn has_decayed(record: &MemoryRecord, now: DateTime<Utc>, decay_told_facts: bool) -> bool {
    may_fade_away(record, decay_told_facts) && confidence(record, now) < THRESHOLD
}

/// A search score weighed by confidence: unchanged at 1, three quarters at 0.
pub fn weigh(score: f32, confidence: f64) -> f32 {
    score * (1.0 - PRIOR_WEIGHT + PRIOR_WEIGHT * confidence as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(memory_type: &str, created: &str) -> MemoryRecord {
        let mut r = told(memory_type, created);
        r.source = INFERRED_SOURCE.to_owned();
        r
    }

    fn told(memory_type: &str, created: &str) -> MemoryRecord {
        MemoryRecord::parse(
            &serde_json::json!({"id": "m", "version": 1, "content": "x", "memory_type": memory_type,
                "embedding": null, "created_at": created, "owner_user_id": "u"})
            .to_string(),
        )
        .unwrap()
    }

    fn at(t: &str) -> DateTime<Utc> {
        parse_time(t).unwrap()
    }

    #[test]
    fn confidence_falls_with_days_since_access_and_confirmation_stops_it() {
        let mut r = record("knowledge", "2025-01-01T00:00:00+00:00");
        assert_eq!(confidence(&r, at("2025-01-01T00:00:00+00:00")), 1.0);
        let c100 = confidence(&r, at("2025-04-11T00:00:00+00:00"));
        assert!((c100 - (-1.0f64).exp()).abs() < 1e-9, "{c100}");
        assert!(!has_decayed(&r, at("2025-10-01T00:00:00+00:00"), false));
        assert!(
            has_decayed(&r, at("2025-11-01T00:00:00+00:00"), false),
            "300 days: 0.0498"
        );
        // An access restarts the clock.
        r.last_accessed_at = Some("2025-10-01T00:00:00+00:00".into());
        assert!(!has_decayed(&r, at("2025-11-01T00:00:00+00:00"), false));
        r.last_accessed_at = None;
        r.confirmed_at = Some("2025-01-02T00:00:00+00:00".into());
        assert_eq!(confidence(&r, at("2030-01-01T00:00:00+00:00")), 1.0);
    }

    #[test]
    fn a_told_fact_fades_in_rank_but_is_archived_only_when_opted_in() {
        let r = told("preference", "2025-01-01T00:00:00+00:00");
        let late = at("2026-01-01T00:00:00+00:00");
        assert!(confidence(&r, late) < THRESHOLD, "its rank still fades");
        assert!(!has_decayed(&r, late, false));
        assert!(has_decayed(&r, late, true));
        let mut confirmed = record("knowledge", "2025-01-01T00:00:00+00:00");
        confirmed.confirmed_at = Some("2025-01-02T00:00:00+00:00".into());
        assert!(!may_fade_away(&confirmed, true));
    }

    #[test]
    fn who_the_user_is_does_not_decay() {
        for t in ["identity", "relationship", "reflection", "task"] {
            assert_eq!(
                confidence(&record(t, "2020-01-01T00:00:00+00:00"), at("2030-01-01T00:00:00+00:00")),
                1.0
            );
        }
        assert_eq!(weigh(0.04, 1.0), 0.04);
        assert!((weigh(0.04, 0.0) - 0.03).abs() < 1e-6);
    }
}
