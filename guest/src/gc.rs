//! Which memories GC archives, and which ones eviction picks when `max-entries` is
//! exceeded. Selection only; the service does the writing.

use chrono::{DateTime, Utc};

use crate::lifecycle;
use crate::record::{MemoryRecord, parse_time};

/// Why a memory leaves the active collection; the `archive_reason` written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveReason {
    Superseded,
    Expired,
    EphemeralDecay,
    Evicted,
    /// A caller deleted it; never chosen by GC.
    Deleted,
    /// Its owner forgot the only person it was about; never chosen by GC.
    Forgotten,
    /// Its confidence fell below `decay::THRESHOLD`: long unrecalled, never confirmed.
    Decayed,
}

impl ArchiveReason {
    /// Every reason, in the order of `archive-reason` in `wit/types.wit`.
    pub const ALL: [ArchiveReason; 7] = [
        ArchiveReason::Superseded,
        ArchiveReason::Expired,
        ArchiveReason::EphemeralDecay,
        ArchiveReason::Evicted,
        ArchiveReason::Deleted,
        ArchiveReason::Forgotten,
        ArchiveReason::Decayed,
    ];

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

    /// Reads an `archive_reason` back; unknown reasons (from a newer version) are none.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

/// Why GC would archive this record now, if it would; a told fact decays away only with
/// `decay_told_facts` (see `crate::decay`).
pub fn reason(record: &MemoryRecord, now: DateTime<Utc>, decay_told_facts: bool) -> Option<ArchiveReason> {
    if record.superseded_at.is_some() {
        return Some(ArchiveReason::Superseded);
    }
    let explicit = record.expires_at.as_deref().and_then(|t| parse_time(t).ok());
    if explicit.is_some_and(|at| at <= now) {
        return Some(ArchiveReason::Expired);
    }
    if lifecycle::is_expired(record, now) {
        return Some(ArchiveReason::EphemeralDecay);
    }
    if crate::decay::has_decayed(record, now, decay_told_facts) {
        return Some(ArchiveReason::Decayed);
    }
    None
}

/// Picks `excess` records to evict: dead ones (superseded or expired) first, then
/// ephemeral types, then long-lived ones; the oldest first within each; never one of
/// `protected` (the memories just added).
pub fn eviction_order<'a>(
    records: impl Iterator<Item = &'a MemoryRecord>,
    excess: usize,
    protected: &[String],
    now: DateTime<Utc>,
) -> Vec<&'a MemoryRecord> {
    let mut candidates: Vec<(u8, DateTime<Utc>, usize, &MemoryRecord)> = records
        .enumerate()
        .filter(|(_, r)| !protected.contains(&r.id))
        .map(|(i, r)| {
            let class = if !lifecycle::is_live(r, now) {
                0
            } else if r.memory_type.is_ephemeral() {
                1
            } else {
                2
            };
            let created = parse_time(&r.created_at).unwrap_or(DateTime::UNIX_EPOCH);
            (class, created, i, r)
        })
        .collect();
    candidates.sort_by_key(|a| (a.0, a.1, a.2));
    candidates.into_iter().take(excess).map(|c| c.3).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, memory_type: &str, created: &str) -> MemoryRecord {
        MemoryRecord::parse(
            &serde_json::json!({
                "id": id, "version": 1, "content": id, "memory_type": memory_type,
                "embedding": null, "created_at": created, "owner_user_id": "u",
            })
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn evicts_ephemeral_then_oldest_and_never_the_protected() {
        let now = parse_time("2026-01-05T00:00:00Z").unwrap();
        let records = [
            record("old-fact", "knowledge", "2026-01-01T00:00:00Z"),
            record("new-task", "task", "2026-01-04T00:00:00Z"),
            record("old-task", "task", "2026-01-02T00:00:00Z"),
            record("newer-fact", "knowledge", "2026-01-03T00:00:00Z"),
            record("just-added", "observation", "2026-01-05T00:00:00Z"),
        ];
        let ids = |n| -> Vec<String> {
            eviction_order(records.iter(), n, &["just-added".to_owned()], now)
                .iter()
                .map(|r| r.id.clone())
                .collect()
        };
        assert_eq!(ids(1), ["old-task"]);
        assert_eq!(ids(3), ["old-task", "new-task", "old-fact"]);
        assert_eq!(ids(10).len(), 4, "the protected memory is never picked");
    }

    #[test]
    fn gc_reasons() {
        let now = parse_time("2026-01-10T00:00:00Z").unwrap();
        let mut r = record("a", "knowledge", "2026-01-01T00:00:00Z");
        assert_eq!(reason(&r, now, false), None);
        r.expires_at = Some("2026-01-09T00:00:00+00:00".into());
        assert_eq!(reason(&r, now, false), Some(ArchiveReason::Expired));
        r.superseded_at = Some("2026-01-02T00:00:00+00:00".into());
        assert_eq!(reason(&r, now, false), Some(ArchiveReason::Superseded));
        let o = record("o", "observation", "2026-01-06T00:00:00Z");
        assert_eq!(reason(&o, now, false), Some(ArchiveReason::EphemeralDecay));
    }
}
