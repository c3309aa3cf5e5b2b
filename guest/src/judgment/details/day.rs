//! A day of a month as people write a birthday's: "March 3rd", "the 3rd of March",
//! "3 May 1990", "1990-05-12", or figures ("02/03/1985") that read either way round.

use super::Value;
use crate::entities::{MONTHS, day as day_of, year};

/// The day written within a few words after one of `triggers` ("my birthday is on the 3rd
/// of March", "born 4 July 1990", "dob 02/03/1985"), with only such words between.
pub(super) fn day_after(tokens: &[&str], triggers: &[&str]) -> Option<Value> {
    let clean: Vec<String> = tokens
        .iter()
        .map(|t| {
            t.trim_matches(|c: char| !c.is_alphanumeric() && c != '/')
                .replace('\u{2019}', "'")
                .to_lowercase()
        })
        .collect();
    let at = clean
        .iter()
        .position(|t| triggers.contains(&t.trim_end_matches("'s")))?;
    let mut i = at + 1;
    while i < clean.len() && i <= at + 6 {
        if let Some(value) = day_at(&clean, i) {
            return Some(value);
        }
        if !BETWEEN.contains(&clean[i].as_str()) {
            return day_before(&clean, at);
        }
        i += 1;
    }
    day_before(&clean, at)
}

/// The day told before the trigger at `at`: "13 march is my birthday", "march 13th's my
/// bday". Only a day's own words and those of [`BETWEEN`] and owners may stand between.
fn day_before(clean: &[String], at: usize) -> Option<Value> {
    let between = |t: &String| {
        BETWEEN.contains(&t.as_str())
            || matches!(t.as_str(), "my" | "our" | "his" | "her" | "their")
            || month_of(t).is_some()
            || day_of(t).is_some()
            || year(Some(&t.as_str())).is_some()
    };
    let start = (0..at).find(|&i| day_at(clean, i).is_some())?;
    clean[start + 1..at]
        .iter()
        .all(between)
        .then(|| day_at(clean, start))
        .flatten()
}

/// Words that may stand between a birthday and its day.
const BETWEEN: &[&str] = &[
    "is",
    "was",
    "on",
    "the",
    "falls",
    "it",
    "it's",
    "its",
    "actually",
    "now",
    "really",
    "of",
    "birth",
    "date",
    "in",
    "day",
    "'s",
    "s",
    "sorry",
    "not",
    "just",
    "i",
    "think",
    "definitely",
    "be",
    "will",
];

/// A date starting at `clean[i]`: "3 March", "3rd of March", "March 3rd, 1990",
/// "02/03/1985", "1990-05-12".
pub(super) fn day_at(clean: &[String], i: usize) -> Option<Value> {
    let word = clean[i].as_str();
    if word.contains('/') || (word.len() == 10 && word.matches('-').count() == 2) {
        let figures: String = word.chars().filter(char::is_ascii_alphanumeric).collect();
        return (figures.len() >= 3 && figures.chars().all(|c| c.is_ascii_digit())).then(|| match iso(word) {
            Some(day) => day,
            None => Value::Figures(word.to_owned()),
        });
    }
    let year_at = |k: usize| year(clean.get(k).map(String::as_str).as_ref());
    if let Some(month) = month_of(word) {
        let day = clean.get(i + 1).and_then(|w| day_of(w))?;
        return Some(Value::Day {
            month,
            day,
            year: year_at(i + 2),
        });
    }
    let day = day_of(word)?;
    let m_at = if clean.get(i + 1).is_some_and(|w| w == "of") {
        i + 2
    } else {
        i + 1
    };
    let month = clean.get(m_at).and_then(|w| month_of(w))?;
    Some(Value::Day {
        month,
        day,
        year: year_at(m_at + 1),
    })
}

/// "1990-05-12" as a day.
fn iso(word: &str) -> Option<Value> {
    let mut parts = word.split('-');
    let year = parts
        .next()?
        .parse::<i32>()
        .ok()
        .filter(|y| (1900..=2199).contains(y))?;
    let month = parts.next()?.parse::<u32>().ok().filter(|m| (1..=12).contains(m))?;
    let day = parts.next()?.parse::<u32>().ok().filter(|d| (1..=31).contains(d))?;
    Some(Value::Day {
        month,
        day,
        year: Some(year),
    })
}

/// A month's number from its name or its three- or four-letter abbreviation, lowercased.
pub(super) fn month_of(word: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|m| *m == word || (word.len() >= 3 && word.len() <= 4 && m.starts_with(word)))
        .map(|i| i as u32 + 1)
}
