//! Time as the index keeps it: whole microseconds since the epoch. A memory's marks carry
//! these (`marks.observed`, `marks.made`, `marks.lapses`), and whatever must order or
//! compare as the index does (search, newest, recent, the profile) uses them too.

use chrono::{DateTime, Utc};

use crate::lifecycle;
use crate::record::{MemoryRecord, parse_time};

/// A moment as the index compares it: whole microseconds since the epoch, rounded down.
/// A search truncates its `now` to whole microseconds (`whole_micros`) so that this loses
/// nothing of it.
pub fn micros(at: DateTime<Utc>) -> i64 {
    at.timestamp_micros()
}

/// When a record was observed, as the index keeps it (`marks.observed`) and `newest` orders
/// by: `lifecycle::observed` in whole microseconds.
pub fn observed(record: &MemoryRecord) -> i64 {
    micros(lifecycle::observed(record))
}

/// When a record was made, as the index keeps it (`marks.made`) and `recent` and `list`
/// order by: its `created_at` in whole microseconds, the epoch when it does not read.
pub fn made(record: &MemoryRecord) -> i64 {
    micros(parse_time(&record.created_at).unwrap_or(DateTime::UNIX_EPOCH))
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

#[cfg(test)]
mod tests {
    use super::*;

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
