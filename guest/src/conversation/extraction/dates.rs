//! Relative dates made absolute. "Tomorrow" means nothing a week later; the date it meant
//! when it was said does. Only the plain, unambiguous phrases are rewritten: "next
//! Tuesday" is the coming Tuesday to some and the one after it to others, so it stays as
//! said (its lifetime runs to the later of the two, `lifetime::infer`).

use chrono::{DateTime, Datelike, NaiveDate, TimeDelta, Utc};

use crate::entities::WEEKDAYS;

/// The text with "today", "tonight", "tomorrow", "yesterday", "the day after tomorrow",
/// "in N days|weeks" and "(on|this|this coming) <weekday>" replaced by dates counted from
/// `at`. A weekday means the first one after the day of `at`, or the last one before it
/// beside a beginning told in the past ("I started a new job on Monday").
pub fn resolve(text: &str, at: DateTime<Utc>) -> String {
    let today = at.date_naive();
    let past = crate::lifetime::begun_in_the_past(text);
    let words: Vec<(usize, usize)> = word_spans(text);
    let lower = text.to_ascii_lowercase();
    let word = |i: usize| words.get(i).map(|&(s, e)| &lower[s..e]);
    let mut out = String::with_capacity(text.len() + 16);
    let mut copied = 0;
    let mut i = 0;
    while i < words.len() {
        let (taken, date) = match phrase(&word, i, today, past) {
            Some(found) => found,
            None => {
                i += 1;
                continue;
            }
        };
        let (start, _) = words[i];
        let (_, end) = words[i + taken - 1];
        out.push_str(&text[copied..start]);
        out.push_str(&format!(
            "on {} {}",
            WEEKDAY_NAMES[date.weekday().num_days_from_monday() as usize],
            date
        ));
        copied = end;
        i += taken;
    }
    out.push_str(&text[copied..]);
    out
}

const WEEKDAY_NAMES: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The relative date phrase starting at word `i`: how many words it takes, and its date.
fn phrase<'a>(
    word: &impl Fn(usize) -> Option<&'a str>,
    i: usize,
    today: NaiveDate,
    past: bool,
) -> Option<(usize, NaiveDate)> {
    let day = |n: i64| today.checked_add_signed(TimeDelta::days(n));
    // A leading "on" is taken with the phrase, so that "on Tuesday" does not become "on on".
    let lead = usize::from(word(i) == Some("on"));
    let w = |k: usize| word(i + lead + k);
    let found = match (w(0)?, w(1), w(2), w(3)) {
        ("the", Some("day"), Some("after"), Some("tomorrow")) => (4, day(2)?),
        ("today" | "tonight", ..) => (1, today),
        ("tomorrow", ..) => (1, day(1)?),
        ("yesterday", ..) => (1, day(-1)?),
        ("in", Some(n), Some(unit), _)
            if let Ok(n) = n.parse::<i64>()
                && (1..=365).contains(&n) =>
        {
            match unit {
                "day" | "days" => (3, day(n)?),
                "week" | "weeks" => (3, day(7 * n)?),
                _ => return None,
            }
        }
        ("this", Some("coming"), Some(d), _) => (3, next_weekday(today, d)?),
        ("this", Some(d), ..) => (2, next_weekday(today, d)?),
        (d, ..) if lead == 1 && past => (1, last_weekday(today, d)?),
        (d, ..) if lead == 1 => (1, next_weekday(today, d)?),
        _ => return None,
    };
    Some((found.0 + lead, found.1))
}

/// The first `name`d weekday after `today`.
fn next_weekday(today: NaiveDate, name: &str) -> Option<NaiveDate> {
    let target = WEEKDAYS.iter().position(|d| *d == name)? as i64;
    let now = i64::from(today.weekday().num_days_from_monday());
    let ahead = (target - now).rem_euclid(7);
    today.checked_add_signed(TimeDelta::days(if ahead == 0 { 7 } else { ahead }))
}

/// The last `name`d weekday before `today`.
pub(crate) fn last_weekday(today: NaiveDate, name: &str) -> Option<NaiveDate> {
    let target = WEEKDAYS.iter().position(|d| *d == name)? as i64;
    let now = i64::from(today.weekday().num_days_from_monday());
    let back = (now - target).rem_euclid(7);
    today.checked_sub_signed(TimeDelta::days(if back == 0 { 7 } else { back }))
}

/// Byte spans of the words (runs of ASCII letters and digits).
fn word_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_ascii_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sunday() -> DateTime<Utc> {
        // 2026-11-22 is a Sunday.
        "2026-11-22T18:00:00Z".parse().unwrap()
    }

    #[test]
    fn resolves_the_plain_phrases() {
        let at = sunday();
        assert_eq!(
            resolve("I have a dentist appointment this coming Tuesday.", at),
            "I have a dentist appointment on Tuesday 2026-11-24."
        );
        assert_eq!(
            resolve("Dinner with Ana on Friday", at),
            "Dinner with Ana on Friday 2026-11-27"
        );
        assert_eq!(resolve("Call mom tomorrow", at), "Call mom on Monday 2026-11-23");
        assert_eq!(
            resolve("the party is in 2 weeks", at),
            "the party is on Sunday 2026-12-06"
        );
        assert_eq!(resolve("Gym this Sunday", at), "Gym on Sunday 2026-11-29");
        // A beginning told in the past: the Monday before.
        assert_eq!(
            resolve("I started a new job on Monday", at),
            "I started a new job on Monday 2026-11-16"
        );
        assert_eq!(
            resolve("I'm getting married on Saturday", at),
            "I'm getting married on Saturday 2026-11-28"
        );
        assert_eq!(
            resolve("Flight the day after tomorrow!", at),
            "Flight on Tuesday 2026-11-24!"
        );
    }

    #[test]
    fn leaves_everything_else_alone() {
        let at = sunday();
        for text in [
            "I live in Porto",
            "Mondays are hard",
            "in many days",
            "next time",
            "café today",
        ] {
            let out = resolve(text, at);
            if text == "café today" {
                assert_eq!(out, "café on Sunday 2026-11-22");
            } else {
                assert_eq!(out, text);
            }
        }
    }
}
