//! The times a booking is told at: a weekday, a day of the month, a month or an hour,
//! read from the words as written ("09:15", "the 13th", "4-6 March", "weds", "4pm").

use std::collections::BTreeSet;

use crate::entities::{MONTHS, WEEKDAYS};

/// A time a thing is booked at, by kind: two values of one kind are two times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum When {
    Weekday(usize),
    Month(usize),
    /// A day of the month.
    Day(u32),
    /// Minutes past twelve, either half of the day: "4pm" is "at 4".
    Clock(u32),
}

impl When {
    pub(super) fn kind(self) -> u8 {
        match self {
            When::Weekday(_) => 0,
            When::Month(_) => 1,
            When::Day(_) => 2,
            When::Clock(_) => 3,
        }
    }
}

/// Words before a time that deny it: "not the 12th", "can't do fridays", "moved from
/// tuesday".
const DENYING: &[&str] = &["not", "can't", "cannot", "isn't", "wasn't", "than", "instead"];

/// Verbs that move a booking from one time to another.
pub(super) const MOVES: &[&str] = &[
    "moved",
    "move",
    "moving",
    "rebooked",
    "rescheduled",
    "postponed",
    "pushed",
    "preponed",
    "bumped",
    "changed",
    "switched",
    "shifted",
    "swapped",
    "put",
    "brought",
];

/// The times the new fact gives, less those it denies or moves from: "the 13th not the
/// 12th" gives the 13th.
pub(super) fn told(words: &[String]) -> BTreeSet<When> {
    let mut out = whens(words);
    for (i, w) in words.iter().enumerate() {
        // "moved from tuesday"; not "booked from the 13th to the 16th".
        let moved_from = w == "from"
            && words[i.saturating_sub(4)..i]
                .iter()
                .any(|x| MOVES.contains(&x.as_str()));
        if !DENYING.contains(&w.as_str()) && !moved_from {
            continue;
        }
        // "instead of the 4th": the time after "of".
        let from = if w == "instead" && words.get(i + 1).is_some_and(|x| x == "of") {
            i + 2
        } else {
            i + 1
        };
        let end = (from + 3).min(words.len());
        // Only the first time after the word: "not the 4th, the 14th"; "from now on" denies
        // none.
        if let Some(first) = (from..end).find_map(|j| whens(&words[j..(j + 2).min(end)]).into_iter().next()) {
            out.remove(&first);
        }
    }
    out
}

/// The text's words, lowercase, split where a time is not ("09:15", "9.30" and "1,100"
/// stay one word, "4-6" is two), with "," where a clause ends.
pub(super) fn tokens(text: &str) -> Vec<String> {
    let text = text.to_lowercase().replace(['\u{2019}', '\u{2018}'], "'");
    let mut out = Vec::new();
    for chunk in text.split_whitespace() {
        let bare = chunk.trim_matches(|c: char| !(c.is_alphanumeric() || c == '\''));
        let bare = bare.trim_matches('\'');
        let chars: Vec<char> = bare.chars().collect();
        let mut word = String::new();
        for (k, c) in chars.iter().enumerate() {
            let digits = k > 0 && chars[k - 1].is_ascii_digit() && chars.get(k + 1).is_some_and(char::is_ascii_digit);
            match c {
                ',' if digits => {}
                '.' if digits => word.push(':'),
                c if c.is_alphanumeric() || *c == ':' || *c == '\'' => word.push(*c),
                _ => {
                    if !word.is_empty() {
                        out.push(std::mem::take(&mut word));
                    }
                }
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
        if chunk
            .trim_end_matches(['\'', '"', ')'])
            .ends_with([',', '.', '!', '?', ';'])
        {
            out.push(",".to_owned());
        }
    }
    out
}

pub(super) fn weekday(w: &str) -> Option<usize> {
    let w = w.trim_end_matches("'s");
    let w = w.strip_suffix('s').filter(|s| s.ends_with("day")).unwrap_or(w);
    WEEKDAYS.iter().position(|d| *d == w).or_else(|| {
        let abbreviations: &[&[&str]] = &[
            &["mon"],
            &["tues", "tue"],
            &["wed", "weds"],
            &["thurs", "thur", "thu"],
            &["fri"],
            &[],
            &[],
        ];
        abbreviations.iter().position(|a| a.contains(&w))
    })
}

/// A month's name; not "may" and "march", which are months only beside a day ([`whens`]).
pub(super) fn month(w: &str) -> Option<usize> {
    if matches!(w, "may" | "march") {
        return None;
    }
    MONTHS.iter().position(|m| *m == w).or_else(|| {
        let short = [
            "jan", "feb", "", "apr", "", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ];
        short
            .iter()
            .position(|s| !s.is_empty() && *s == w)
            .or((w == "sept").then_some(8))
    })
}

fn ordinal(w: &str) -> Option<u32> {
    let d = ["st", "nd", "rd", "th"].iter().find_map(|s| w.strip_suffix(s))?;
    d.parse().ok().filter(|d| (1..=31).contains(d))
}

/// The hour of "4pm", "10am", "9:30", "09:15".
fn clock(w: &str) -> Option<u32> {
    let (w, pm) = match w.strip_suffix("pm").or_else(|| w.strip_suffix("am")) {
        Some(h) => (h, true),
        None => (w, false),
    };
    let (h, m) = match w.split_once(':') {
        Some((h, m)) => (h, m.parse::<u32>().ok().filter(|m| *m < 60)?),
        None if pm => (w, 0),
        None => return None,
    };
    let h: u32 = h.parse().ok().filter(|h| *h <= 24)?;
    Some(h % 12 * 60 + m)
}

/// Whether the word after a figure leaves it a time: "up to 6 people", "up to 9 quid" and
/// "the 12th driving lesson" count or price something.
fn ends_a_time(next: Option<&String>) -> bool {
    next.is_none_or(|x| {
        !x.chars().all(char::is_alphabetic)
            || weekday(x).is_some()
            || month(x).is_some()
            || matches!(
                x.as_str(),
                "am" | "pm"
                    | "o'clock"
                    | "ish"
                    | "sharp"
                    | "now"
                    | "instead"
                    | "not"
                    | "on"
                    | "at"
                    | "and"
                    | "or"
                    | "to"
                    | "till"
                    | "until"
                    | "for"
                    | "so"
                    | "then"
                    | "still"
                    | "every"
                    | "each"
                    | "this"
                    | "next"
                    | "from"
                    | "of"
                    | "march"
                    | "may"
                    | "tomorrow"
                    | "tonight"
                    | "today"
                    | "in"
                    | "with"
                    | "lol"
                    | "ugh"
                    | "please"
                    | "again"
                    | "too"
                    | "as"
                    | "but"
                    | "same"
                    | "going"
                    | "onwards"
            )
    })
}

/// The times the words give.
pub(super) fn whens(words: &[String]) -> BTreeSet<When> {
    let number = |w: &str| w.parse::<u32>().ok();
    let month_at = |i: usize| {
        words.get(i).and_then(|w| {
            month(w).or(match w.as_str() {
                "march" => Some(2),
                "may" => Some(4),
                _ => None,
            })
        })
    };
    let mut out = BTreeSet::new();
    for (i, w) in words.iter().enumerate() {
        let dated = |j: Option<usize>| j.is_some_and(|j| number(&words[j]).or_else(|| ordinal(&words[j])).is_some());
        let near = |j: usize| j < words.len();
        if let Some(d) = weekday(w) {
            out.insert(When::Weekday(d));
        } else if let Some(m) = month(w) {
            out.insert(When::Month(m));
        } else if matches!(w.as_str(), "march" | "may")
            && (dated(i.checked_sub(1)) || dated(Some(i + 1).filter(|j| near(*j))))
        {
            out.insert(When::Month(if w == "march" { 2 } else { 4 }));
        } else if let Some(d) = ordinal(w) {
            // "6th grade", "my 12th driving lesson", "1st class": no day of a month.
            if ends_a_time(words.get(i + 1)) {
                out.insert(When::Day(d));
            }
        } else if let Some(c) = clock(w) {
            out.insert(When::Clock(c));
        } else if let Some(n) = number(w) {
            let month_near = i.checked_sub(1).and_then(month_at).is_some()
                || month_at(i + 1).is_some()
                || month_at(i + 2).is_some() && number(words.get(i + 1).map_or("", String::as_str)).is_some();
            let before = i.checked_sub(1).map(|j| words[j].as_str());
            let after = words.get(i + 1).map(String::as_str);
            if month_near && (1..=31).contains(&n) {
                out.insert(When::Day(n));
            } else if (1..=12).contains(&n)
                && (matches!(before, Some("at" | "to" | "till" | "til" | "until" | "from" | "not"))
                    && ends_a_time(words.get(i + 1))
                    || matches!(after, Some("till" | "til" | "until" | "to" | "o'clock")))
            {
                out.insert(When::Clock(n % 12 * 60));
            }
        }
    }
    out
}
