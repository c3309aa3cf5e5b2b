//! The days a memory's words of relative time name, counted from the day it was said.
//!
//! People tell what happened relative to when they speak: "we went to a convention last
//! month", said on 18 April 2023, tells of March 2023, and a question about March should
//! find it. Only words that name a past stretch plainly are read ("yesterday", "the day
//! before yesterday", "last night", "last week", "last Friday", "the Monday before last",
//! "last month", "last year", "three weeks ago", "the other day"); "recently" or "a while
//! ago" name no stretch, and a plan ("next week") is not what happened. A question is read
//! the same way, counted from the day it is asked ([`crate::period::Period::asked_in`]). (`context::told` marks any word that needs its day, plans and
//! "at the moment" included, to show that day beside a fact.)

use chrono::{Datelike, Days, Months, NaiveDate};

use crate::conversation::extraction::dates::last_weekday;
use crate::entities;

/// A stretch of days, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The first day.
    pub first: NaiveDate,
    /// The last day.
    pub last: NaiveDate,
}

impl Span {
    fn day(day: NaiveDate) -> Span {
        Span { first: day, last: day }
    }

    /// The calendar month `months` before the one `day` lies in.
    fn month_before(day: NaiveDate, months: u32) -> Option<Span> {
        let first = day.with_day(1)?.checked_sub_months(Months::new(months))?;
        let last = first.checked_add_months(Months::new(1))?.pred_opt()?;
        Some(Span { first, last })
    }

    /// The calendar year `years` before the one `day` lies in.
    fn year_before(day: NaiveDate, years: i32) -> Option<Span> {
        let year = day.year() - years;
        Some(Span {
            first: NaiveDate::from_ymd_opt(year, 1, 1)?,
            last: NaiveDate::from_ymd_opt(year, 12, 31)?,
        })
    }

    /// The week, Monday to Sunday, before the one `day` lies in; from `from` of its
    /// days (0 Monday) on.
    fn week_before(day: NaiveDate, from: u64) -> Option<Span> {
        let monday = day.checked_sub_days(Days::new(day.weekday().num_days_from_monday() as u64 + 7))?;
        Some(Span {
            first: monday.checked_add_days(Days::new(from))?,
            last: monday.checked_add_days(Days::new(6))?,
        })
    }

    /// From `most` days before `day` to `least` days before it.
    fn days_before(day: NaiveDate, most: u64, least: u64) -> Option<Span> {
        Some(Span {
            first: day.checked_sub_days(Days::new(most))?,
            last: day.checked_sub_days(Days::new(least))?,
        })
    }
}

/// Whether `text` may hold words of relative time: looked for first, since most memories
/// hold none and reading their words costs more.
pub fn may_tell(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    ["yesterday", "last", "past ", " ago", "other day"]
        .iter()
        .any(|w| lower.contains(w))
}

/// The stretches `text`'s words of relative time name, counted from `said`, the day it
/// was said.
pub fn told(text: &str, said: NaiveDate) -> Vec<Span> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let word = |i: usize| words.get(i).map(String::as_str).unwrap_or("");
    let mut spans = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let span = match w.as_str() {
            "yesterday" if word(i.wrapping_sub(1)) == "before" && word(i.wrapping_sub(2)) == "day" => {
                said.checked_sub_days(Days::new(2)).map(Span::day)
            }
            "yesterday" => said.pred_opt().map(Span::day),
            // "the week before last", "Monday before last" where the phrase ends; not "the
            // day before last Friday" nor "the week before last Christmas".
            "before" if word(i + 1) == "last" && ENDS_A_PHRASE.contains(&word(i + 2)) => {
                before_last(word(i.wrapping_sub(1)), said)
            }
            // "last week", and "this past week"; not "the last week of June" nor "at last".
            "last" | "past"
                if word(i.wrapping_sub(1)) != "the" && (w == "last" || word(i.wrapping_sub(1)) == "this") =>
            {
                last(word(i + 1), said)
            }
            "ago" => ago(
                word(i.wrapping_sub(2)),
                word(i.wrapping_sub(1)),
                word(i.wrapping_sub(3)),
                said,
            ),
            "day" if word(i.wrapping_sub(1)) == "other" && word(i.wrapping_sub(2)) == "the" => {
                Span::days_before(said, 7, 1)
            }
            _ => None,
        };
        spans.extend(span);
    }
    spans
}

/// Words that may follow "before last" where it ends its phrase (the words are read
/// without their punctuation; "" is the text's end).
const ENDS_A_PHRASE: &[&str] = &[
    "", "and", "but", "so", "or", "i", "we", "you", "he", "she", "they", "it", "when", "then", "at", "in", "on",
    "with", "for", "to", "was", "were", "is", "which", "that",
];

/// What "<word> before last" names: the one before "last <word>".
fn before_last(word: &str, said: NaiveDate) -> Option<Span> {
    match word {
        "week" | "weekend" => {
            let span = last(word, said)?;
            Some(Span {
                first: span.first.checked_sub_days(Days::new(7))?,
                last: span.last.checked_sub_days(Days::new(7))?,
            })
        }
        "month" => Span::month_before(said, 2),
        "year" => Span::year_before(said, 2),
        weekday => last_weekday(said, weekday)?
            .checked_sub_days(Days::new(7))
            .map(Span::day),
    }
}

/// What "last <word>" names.
fn last(word: &str, said: NaiveDate) -> Option<Span> {
    match word {
        "night" => said.pred_opt().map(Span::day),
        "week" => Span::week_before(said, 0),
        "weekend" => Span::week_before(said, 5),
        "month" => Span::month_before(said, 1),
        "year" => Span::year_before(said, 1),
        // The latest such day before the one it was said on.
        weekday => last_weekday(said, weekday).map(Span::day),
    }
}

/// What "<count> <unit> ago" names; `before` is the word before the count ("a couple of").
fn ago(count: &str, unit: &str, before: &str, said: NaiveDate) -> Option<Span> {
    let unit = unit.strip_suffix('s').unwrap_or(unit);
    // "a couple of weeks ago"; "a few" is about three, and "a few days" two to five.
    let count = match count {
        "of" if before == "couple" => 2,
        "few" if unit == "day" => return Span::days_before(said, 5, 2),
        "few" => 3,
        _ => number(count)?,
    };
    match unit {
        "day" => said.checked_sub_days(Days::new(count)).map(Span::day),
        // A count of weeks is loosely told: the week around that many weeks back.
        "week" => Span::days_before(said, count * 7 + 3, (count * 7).saturating_sub(3)),
        "month" => Span::month_before(said, u32::try_from(count).ok()?),
        "year" => Span::year_before(said, i32::try_from(count).ok()?),
        _ => None,
    }
}

/// A count of "ago": "a", a word up to twelve, or up to 60 in digits.
fn number(word: &str) -> Option<u64> {
    match word {
        "a" => Some(1),
        _ => entities::number_word(word)
            .map(u64::from)
            .or_else(|| word.parse().ok())
            .filter(|n| (1..=60).contains(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    fn spans(text: &str, said: &str) -> Vec<(String, String)> {
        told(text, date(said))
            .iter()
            .map(|s| (s.first.to_string(), s.last.to_string()))
            .collect()
    }

    fn one(first: &str, last: &str) -> Vec<(String, String)> {
        vec![(first.to_string(), last.to_string())]
    }

    #[test]
    fn days_and_nights_before() {
        // 2023-04-18 was a Tuesday.
        assert_eq!(
            spans("Yesterday was wild", "2023-04-18"),
            one("2023-04-17", "2023-04-17")
        );
        assert_eq!(
            spans("I watched the trilogy last night!", "2023-05-02"),
            one("2023-05-01", "2023-05-01")
        );
        assert_eq!(
            spans("I printed it last Friday.", "2023-04-18"),
            one("2023-04-14", "2023-04-14")
        );
        assert_eq!(
            spans("Last Tuesday we met", "2023-04-18"),
            one("2023-04-11", "2023-04-11"),
            "a week back when said on that weekday"
        );
        assert_eq!(
            spans("I left two days ago", "2023-04-18"),
            one("2023-04-16", "2023-04-16")
        );
        assert_eq!(
            spans("saw her the other day", "2023-04-18"),
            one("2023-04-11", "2023-04-17")
        );
    }

    #[test]
    fn weeks_months_and_years_before() {
        assert_eq!(
            spans("My colleagues and I went to a convention last month.", "2023-04-18"),
            one("2023-03-01", "2023-03-31")
        );
        assert_eq!(
            spans("Last week was wild", "2023-04-18"),
            one("2023-04-10", "2023-04-16")
        );
        assert_eq!(
            spans("this past weekend we hiked", "2023-04-18"),
            one("2023-04-15", "2023-04-16")
        );
        assert_eq!(
            spans("We moved last year", "2023-01-05"),
            one("2022-01-01", "2022-12-31")
        );
        assert_eq!(
            spans("It started a couple of months ago", "2023-01-05"),
            one("2022-11-01", "2022-11-30")
        );
        assert_eq!(
            spans("three weeks ago I quit", "2023-04-18"),
            one("2023-03-25", "2023-03-31")
        );
        assert_eq!(spans("ten years ago", "2023-04-18"), one("2013-01-01", "2013-12-31"));
        assert_eq!(
            spans("a month ago", "2023-03-31"),
            one("2023-02-01", "2023-02-28"),
            "the month before, whatever its length"
        );
    }

    #[test]
    fn the_one_before_last() {
        // 2023-05-22 was a Monday; "last Monday" was the 15th.
        assert_eq!(
            spans("I started Monday before last", "2023-05-22"),
            one("2023-05-08", "2023-05-08")
        );
        assert_eq!(
            spans("It came out the Friday before last.", "2023-05-22"),
            one("2023-05-12", "2023-05-12")
        );
        assert_eq!(
            spans("the week before last", "2023-05-22"),
            one("2023-05-08", "2023-05-14")
        );
        assert_eq!(
            spans("the month before last", "2023-05-22"),
            one("2023-03-01", "2023-03-31")
        );
        assert_eq!(
            spans("the day before last Friday", "2023-05-22"),
            one("2023-05-19", "2023-05-19"),
            "last Friday, not the day before last"
        );
        assert_eq!(
            spans("the week before last Christmas", "2023-05-22"),
            [],
            "a holiday, not the week before last"
        );
        assert_eq!(
            spans("the day before yesterday", "2023-05-22"),
            one("2023-05-20", "2023-05-20")
        );
    }

    #[test]
    fn words_that_name_no_past_stretch() {
        for text in [
            "At last, it's done",
            "the last week of June",
            "The last time I saw her",
            "I'll go next week",
            "I did it recently",
            "a while ago",
            "the past is the past",
            "ages ago",
            "Last of all, thanks",
        ] {
            assert_eq!(spans(text, "2023-04-18"), [], "{text}");
        }
    }

    #[test]
    fn the_cheap_look_finds_what_the_words_read() {
        for text in [
            "Yesterday",
            "last week",
            "two days ago",
            "the other day",
            "this past Friday",
            "the Monday before last?",
        ] {
            assert!(may_tell(text), "{text}");
        }
        assert!(!may_tell("We went camping in June"));
    }
}
