//! The `clock` capability: system time, or a fixed instant (`--now`, `ASH_NOW`) so that
//! expiry and decay can be tested without waiting.

use chrono::{DateTime, SecondsFormat, Utc};

/// Where "now" comes from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Clock {
    /// The system clock.
    #[default]
    System,
    /// Always this instant.
    Fixed(DateTime<Utc>),
}

impl Clock {
    /// Parses an RFC 3339 instant into a fixed clock.
    /// The years are bounded so that a hundred years of expiry still writes a timestamp
    /// that RFC 3339 can read back.
    pub fn fixed(rfc3339: &str) -> Result<Self, String> {
        use chrono::Datelike;
        let t = DateTime::parse_from_rfc3339(rfc3339)
            .map(|t| t.with_timezone(&Utc))
            .map_err(|e| format!("{rfc3339:?} is not an RFC 3339 time ({e}); for example 2026-03-01T12:00:00Z"))?;
        if !(1970..=9899).contains(&t.year()) {
            return Err(format!("{rfc3339:?} is outside the years 1970 to 9899"));
        }
        Ok(Clock::Fixed(t))
    }

    /// Now: the system's time, or the fixed one.
    pub fn now(&self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(t) => *t,
        }
    }

    /// Now, as the `clock` interface returns it.
    pub fn now_rfc3339(&self) -> String {
        self.now().to_rfc3339_opts(SecondsFormat::AutoSi, false)
    }
}
