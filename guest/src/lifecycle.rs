//! When a memory stops being returned: its explicit expiry, else its type's lifetime
//! measured from when it was observed (else created); or being superseded.

use chrono::{DateTime, Utc};

use crate::record::{MemoryRecord, parse_time};

/// When what the record says was observed (`observed_at`), else when it was made; the
/// epoch when neither reads. Its lifetime runs from here, and a profile and the people in a
/// context are ordered by it.
pub fn observed(record: &MemoryRecord) -> DateTime<Utc> {
    let basis = record.observed_at.as_deref().unwrap_or(&record.created_at);
    parse_time(basis).unwrap_or(DateTime::UNIX_EPOCH)
}

/// The moment the record stops being live on its own (ignoring supersession), if any:
/// `expires_at`, else the type's TTL after `observed_at` (else `created_at`). The type's
/// lifetime is a default: "keep this event for 60 days" keeps it 60, not the event's 30,
/// as a shorter expiry cuts the lifetime short.
pub fn expiry(record: &MemoryRecord) -> Option<DateTime<Utc>> {
    if let Some(explicit) = record.expires_at.as_deref().and_then(|t| parse_time(t).ok()) {
        return Some(explicit);
    }
    record.memory_type.ttl().and_then(|ttl| {
        let basis = record.observed_at.as_deref().unwrap_or(&record.created_at);
        parse_time(basis).ok().map(|t| t + ttl)
    })
}

/// Whether the record is past its expiry at `now`.
pub fn is_expired(record: &MemoryRecord, now: DateTime<Utc>) -> bool {
    expiry(record).is_some_and(|at| at <= now)
}

/// Whether the record may be returned by search: not superseded and not expired.
pub fn is_live(record: &MemoryRecord, now: DateTime<Utc>) -> bool {
    record.superseded_at.is_none() && !is_expired(record, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::format_time;
    use chrono::TimeDelta;

    fn record(memory_type: &str, created: &str, observed: Option<&str>, expires: Option<&str>) -> MemoryRecord {
        MemoryRecord::parse(
            &serde_json::json!({
                "id": "m", "version": 1, "content": "x", "memory_type": memory_type,
                "embedding": null, "created_at": created, "observed_at": observed,
                "expires_at": expires, "owner_user_id": "u",
            })
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn ttl_runs_from_observed_at_and_an_explicit_expiry_stands_for_it() {
        let t0 = parse_time("2026-01-10T00:00:00+00:00").unwrap();
        let obs = format_time(t0 - TimeDelta::days(5));
        let r = record("context", &format_time(t0), Some(&obs), None);
        assert_eq!(expiry(&r), Some(t0 + TimeDelta::days(2)));
        let r = record("knowledge", &format_time(t0), None, None);
        assert_eq!(expiry(&r), None);
        assert!(is_live(&r, t0 + TimeDelta::days(10_000)));
        let soon = format_time(t0 + TimeDelta::days(1));
        let r = record("task", &format_time(t0), None, Some(&soon));
        assert!(!is_expired(&r, t0 + TimeDelta::hours(23)));
        assert!(is_expired(&r, t0 + TimeDelta::days(1)));
        // Further out than the event's 30 days: the expiry asked for.
        let later = t0 + TimeDelta::days(60);
        let r = record("event", &format_time(t0), None, Some(&format_time(later)));
        assert_eq!(expiry(&r), Some(later));
        assert!(is_live(&r, t0 + TimeDelta::days(45)));
    }
}
