//! The time a question names ("in May 2023", "on 8 May, 2023", "in June", "in 2022", "the
//! week before 9 June", "over Christmas": `stretch`) and
//! whether a memory belongs to it: said or observed then, holding a date of it in its
//! words or its context ("8 May 2023" as a conversation's date), or telling of it in words
//! of relative time ("last month", said in the month after: `relative_time`).
//!
//! Search ranks the memories of the named time higher (`TIME_WEIGHT` in `search`): among
//! a year of turns about camping, "When did Melanie go camping in June?" is answered by
//! one said in June.

use chrono::{DateTime, Datelike, NaiveDate, Utc};

use crate::entities;
use crate::record::{MemoryRecord, parse_time};
use crate::relative_time::{self, Span};

mod stretch;

pub use stretch::Stretch;

/// A stretch of the calendar a text names; without a year, that month or day of any year.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// "on 1 February, 2023", "the 3rd of May".
    Day { year: Option<i32>, month: u32, day: u32 },
    /// "in October 2023", "in June".
    Month { year: Option<i32>, month: u32 },
    /// "in summer 2023", "during the winter": a season's three months (the northern
    /// hemisphere's: winter is December, January and February of one year, or of any).
    Season { year: Option<i32>, months: [u32; 3] },
    /// "in 2022".
    Year(i32),
    /// "between 3 and 7 July", "the week before 9 June 2023", "over Christmas".
    Days(Stretch),
}

type Date = entities::TextDate;

/// Words after which a month's name alone, or a year alone, names a time: "in June",
/// "during 2022". Without one, "May" starts a request and "2022" may be a number; after
/// "before", "since" or "by" it names a bound, not the time asked about.
const LEADS: &[&str] = &["in", "during", "of", "early", "late", "mid", "around", "last", "this"];

/// The seasons' names and months. "Fall" names one only beside a year: "a fall" is not.
const SEASONS: &[(&str, [u32; 3])] = &[
    ("spring", [3, 4, 5]),
    ("summer", [6, 7, 8]),
    ("autumn", [9, 10, 11]),
    ("fall", [9, 10, 11]),
    ("winter", [12, 1, 2]),
];

/// What may join a month or a year to the word before it: "mid-August", "early-2023".
const JOINED: &[&str] = &["mid-", "early-", "late-"];

impl Period {
    /// The time `text` names, the most precise first: a stretch of days around a date or
    /// a holiday, a date, a month of a year, a month, a year. None when it names none.
    pub fn named_in(text: &str) -> Option<Period> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if let Some(stretch) = stretch::named_in(&words) {
            return Some(Period::Days(stretch));
        }
        if let Some(date) = entities::recognise(text, &[])
            .iter()
            .find_map(|e| e.strip_prefix("date:").and_then(parse_date))
        {
            let (year, month, day) = date;
            return Some(Period::Day { year, month, day });
        }
        // The prefix is ASCII, so what follows it starts on a character's boundary.
        let joined = |i: usize| {
            JOINED.iter().find_map(|j| {
                let word = words[i];
                word.get(..j.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(j))
                    .then(|| &word[j.len()..])
            })
        };
        let led = |i: usize| joined(i).is_some() || i > 0 && LEADS.contains(&words[i - 1].to_lowercase().as_str());
        let mut named = None;
        for (i, word) in words.iter().enumerate() {
            let word = &joined(i).unwrap_or(word);
            if let Some(months) = season(&words, i) {
                let year = match words.get(i + 1) {
                    Some(w) if w.eq_ignore_ascii_case("of") => entities::year(words.get(i + 2)),
                    next => entities::year(next),
                };
                let the_led = i > 1 && words[i - 1].eq_ignore_ascii_case("the") && led(i - 1);
                let fall = words[i].to_lowercase().starts_with("fall");
                if year.is_some() || (!fall && (led(i) || the_led)) {
                    // A season of a year is as precise as a month of one, and said first.
                    if year.is_some() {
                        return Some(Period::Season { year, months });
                    }
                    named.get_or_insert(Period::Season { year, months });
                }
            } else if let Some(month) = entities::month(word) {
                match entities::year(words.get(i + 1)) {
                    Some(year) => {
                        return Some(Period::Month {
                            year: Some(year),
                            month,
                        });
                    }
                    None if led(i) && named.is_none() => named = Some(Period::Month { year: None, month }),
                    None => {}
                }
            } else if let Some(year) = entities::year(Some(word)).filter(|_| led(i)) {
                named.get_or_insert(Period::Year(year));
            }
        }
        named
    }

    /// The time a question asked on `today` names: as [`Period::named_in`], else in words
    /// of relative time counted from today ("what did I cook last weekend?", "who did I
    /// meet two weeks ago?"). A bound ("since last month", "until yesterday") names no
    /// time asked about, as in `named_in`.
    pub fn asked_in(text: &str, today: NaiveDate) -> Option<Period> {
        if let Some(named) = Period::named_in(text) {
            return Some(named);
        }
        let lower = text.to_lowercase();
        if !relative_time::may_tell(text) || BOUNDS.iter().any(|b| lower.contains(b)) {
            return None;
        }
        let span = relative_time::told(text, today).into_iter().next()?;
        let (first, last) = (span.first, span.last);
        let month_ends = first.day() == 1 && last.succ_opt().is_some_and(|next| next.day() == 1);
        if month_ends && first.month() == 1 && last.month() == 12 && first.year() == last.year() {
            Some(Period::Year(first.year()))
        } else if month_ends && first.month() == last.month() && first.year() == last.year() {
            Some(Period::Month {
                year: Some(first.year()),
                month: first.month(),
            })
        } else {
            Stretch::between(first, last).map(Period::Days)
        }
    }

    /// Whether the period is a day or a stretch of days ("on 3 May", "the second week of
    /// November"): few enough memories are said in one for them to be a list of search's
    /// own. A month's or a year's are whole conversations, which the other lists rank
    /// better (docs/judgment.md).
    pub fn is_days(&self) -> bool {
        matches!(self, Period::Day { .. } | Period::Days(_))
    }

    /// Whether `date` lies in the period; a date without a year lies in a period of
    /// any year with its month (and day).
    fn holds(&self, (year, month, day): Date) -> bool {
        let same_year = |wanted: &Option<i32>| wanted.is_none() || year.is_none() || *wanted == year;
        match self {
            Period::Day {
                year: y,
                month: m,
                day: d,
            } => same_year(y) && *m == month && *d == day,
            Period::Month { year: y, month: m } => same_year(y) && *m == month,
            Period::Season { year: y, months } => same_year(y) && months.contains(&month),
            Period::Year(y) => year == Some(*y),
            Period::Days(stretch) => stretch.holds((year, month, day)),
        }
    }

    /// Whether the stretch of days shares a day with the period and is no longer than it
    /// or a week: "last year" does not tell of a June, nor "last month" of a day, but
    /// "last weekend" may tell of its Saturday.
    fn overlaps(&self, span: Span) -> bool {
        let years = |wanted: Option<i32>| match wanted {
            Some(year) => year..=year,
            None => span.first.year()..=span.last.year(),
        };
        let month_of = |y: i32, month: u32| {
            let first = NaiveDate::from_ymd_opt(y, month, 1)?;
            let next = first.checked_add_months(chrono::Months::new(1))?;
            Some((first, next.pred_opt()?))
        };
        let own: Vec<(NaiveDate, NaiveDate)> = match *self {
            Period::Day { year, month, day } => years(year)
                .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day).map(|d| (d, d)))
                .collect(),
            Period::Month { year, month } => years(year).filter_map(|y| month_of(y, month)).collect(),
            Period::Season { year, months } => years(year)
                .flat_map(|y| months.map(|m| month_of(y, m)))
                .flatten()
                .collect(),
            Period::Year(y) => NaiveDate::from_ymd_opt(y, 1, 1)
                .zip(NaiveDate::from_ymd_opt(y, 12, 31))
                .into_iter()
                .collect(),
            Period::Days(stretch) => stretch.in_years(span.first.year(), span.last.year()),
        };
        own.iter().any(|(first, last)| {
            let short = span.last - span.first <= (*last - *first).max(chrono::TimeDelta::days(6));
            *first <= span.last && span.first <= *last && short
        })
    }

    /// Whether the memory belongs to the period: observed (else made) in it, holding a
    /// date in it in its content or its context, or telling of it in words of relative
    /// time. `content_entities` are the content's entities when already known.
    pub fn covers(&self, record: &MemoryRecord, content_entities: Option<&[String]>) -> bool {
        let said = record.observed_at.as_deref().unwrap_or(&record.created_at);
        let said = parse_time(said).ok().map(date_of);
        if said.is_some_and(|d| self.holds(d)) {
            return true;
        }
        // A holiday is named in the memory's words or its context (the question it
        // answers), said in the holiday's year when it has one.
        if let Period::Days(
            stretch @ Stretch {
                holiday: Some(holiday), ..
            },
        ) = self
            && [Some(&record.content), record.context.as_ref()]
                .into_iter()
                .flatten()
                .any(|text| names_words(text, holiday))
            && (stretch.any_year
                || Period::said_days(record, said)
                    .iter()
                    .any(|d| (stretch.first.year()..=stretch.last.year()).contains(&d.year())))
        {
            return true;
        }
        let found;
        let content = match content_entities {
            Some(held) => held,
            None if self.may_hold(&record.content) => {
                found = entities::recognise(&record.content, &[]);
                &found
            }
            None => &[][..],
        };
        let context = record
            .context
            .as_deref()
            .filter(|c| self.may_hold(c))
            .map(|c| entities::recognise(c, &[]));
        if content
            .iter()
            .chain(context.iter().flatten())
            .filter_map(|e| e.strip_prefix("date:").and_then(parse_date))
            .any(|d| self.holds(d))
        {
            return true;
        }
        relative_time::may_tell(&record.content) && self.told_of(record, said)
    }

    /// The days the memory was said on: when it was observed, else the dates its context
    /// holds (a conversation stored after it was held), else `made`.
    fn said_days(record: &MemoryRecord, made: Option<Date>) -> Vec<NaiveDate> {
        let full = |(year, month, day): Date| NaiveDate::from_ymd_opt(year?, month, day);
        let observed = record.observed_at.as_deref().and_then(|t| parse_time(t).ok());
        let mut said: Vec<NaiveDate> = match observed {
            Some(t) => vec![t.date_naive()],
            None => record
                .context
                .as_deref()
                .map(|c| entities::recognise(c, &[]))
                .unwrap_or_default()
                .iter()
                .filter_map(|e| e.strip_prefix("date:").and_then(parse_date))
                .filter_map(full)
                .collect(),
        };
        if said.is_empty() {
            said.extend(made.and_then(full));
        }
        said
    }

    /// Whether the memory's words of relative time tell of the period, counted from the
    /// day it was said: when it was observed, else the dates its context holds (a
    /// conversation stored after it was held), else when it was made.
    fn told_of(&self, record: &MemoryRecord, made: Option<Date>) -> bool {
        Period::said_days(record, made)
            .iter()
            .flat_map(|d| relative_time::told(&record.content, *d))
            .any(|span| self.overlaps(span))
    }

    /// Whether `text` may hold a date of the period: it names the month (or gives its
    /// number in an ISO date), or the year. Looked for first, since recognising a text's
    /// entities costs far more and most candidates of a search hold no such date.
    fn may_hold(&self, text: &str) -> bool {
        match self {
            Period::Year(year) => text.contains(&year.to_string()),
            Period::Day { month, .. } | Period::Month { month, .. } => names_month(text, *month),
            Period::Season { months, .. } => months.iter().any(|m| names_month(text, *m)),
            Period::Days(stretch) => stretch.months().iter().any(|m| names_month(text, *m)),
        }
    }
}

/// Words that make words of relative time a bound: "What changed since last month?"
/// asks about no time of last month.
const BOUNDS: &[&str] = &[
    "since last",
    "since yesterday",
    "since the other day",
    "until last",
    "until yesterday",
    "till last",
    "till yesterday",
];

/// Whether `text` holds `words` (lower case, one or more) as whole words.
fn names_words(text: &str, words: &str) -> bool {
    let lower = text.to_lowercase();
    lower.match_indices(words).any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + words.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Whether `text` names the month, or gives its number in an ISO date.
fn names_month(text: &str, month: u32) -> bool {
    let name = &entities::MONTHS[month as usize - 1][..3];
    text.to_ascii_lowercase().contains(name) || text.contains(&format!("-{month:02}-"))
}

/// The months of the season `words[i]` names, if it names one.
fn season(words: &[&str], i: usize) -> Option<[u32; 3]> {
    let word = words[i].trim_end_matches(|c: char| !c.is_alphabetic()).to_lowercase();
    SEASONS
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(_, months)| *months)
}

fn date_of(t: DateTime<Utc>) -> Date {
    (Some(t.year()), t.month(), t.day())
}

/// A date entity's value: `2023-05-08`, or `--05-08` without a year.
fn parse_date(value: &str) -> Option<Date> {
    let (year, rest) = match value.strip_prefix("--") {
        Some(rest) => (None, rest),
        None => {
            let (y, rest) = value.split_once('-')?;
            (Some(y.parse().ok()?), rest)
        }
    };
    let (m, d) = rest.split_once('-')?;
    Some((year, m.parse().ok()?, d.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_names_a_day_a_month_or_a_year() {
        let day = |year, month, day| Some(Period::Day { year, month, day });
        let month = |year, month| Some(Period::Month { year, month });
        assert_eq!(
            Period::named_in("What did Gina find on 1 February, 2023?"),
            day(Some(2023), 2, 1)
        );
        assert_eq!(
            Period::named_in("Which painting did she show on October 13, 2023?"),
            day(Some(2023), 10, 13)
        );
        assert_eq!(Period::named_in("What happened on 2024-01-05?"), day(Some(2024), 1, 5));
        assert_eq!(Period::named_in("Plans for the 3rd of May?"), day(None, 5, 3));
        assert_eq!(
            Period::named_in("What setback did Melanie face in October 2023?"),
            month(Some(2023), 10)
        );
        assert_eq!(
            Period::named_in("What did Mel paint in July, 2023?"),
            month(Some(2023), 7)
        );
        assert_eq!(Period::named_in("When did Melanie go camping in June?"), month(None, 6));
        assert_eq!(Period::named_in("What did John do in 2022?"), Some(Period::Year(2022)));
        assert_eq!(Period::named_in("May I ask where Sarah lives?"), None);
        assert_eq!(Period::named_in("Who scored 2022 points?"), None);
        assert_eq!(Period::named_in("What did she finish before June?"), None);
        assert_eq!(Period::named_in("Where do I live?"), None);
    }

    #[test]
    fn a_question_names_a_season_or_a_time_joined_to_mid_early_or_late() {
        let season = |year, months| Some(Period::Season { year, months });
        let summer = [6, 7, 8];
        assert_eq!(
            Period::named_in("What state did Jo visit in summer 2021?"),
            season(Some(2021), summer)
        );
        assert_eq!(
            Period::named_in("Which band did Rafa see in the Summer of 2022?"),
            season(Some(2022), summer)
        );
        assert_eq!(
            Period::named_in("What did Dev paint in the fall of 2022?"),
            season(Some(2022), [9, 10, 11])
        );
        assert_eq!(
            Period::named_in("What did he do during the winter?"),
            season(None, [12, 1, 2])
        );
        assert_eq!(
            Period::named_in("What did Lou plant last spring?"),
            season(None, [3, 4, 5])
        );
        assert_eq!(
            Period::named_in("What happened towards the end of summer 2023, in August?"),
            season(Some(2023), summer),
            "a season of a year is said first"
        );
        assert_eq!(Period::named_in("Did she have a fall in the garden?"), None);
        assert_eq!(Period::named_in("How was the summer camp?"), None);
        assert_eq!(
            Period::named_in("Which classes did Evan join in mid-August 2023?"),
            Some(Period::Month {
                year: Some(2023),
                month: 8
            })
        );
        assert_eq!(
            Period::named_in("What did Theo learn in mid-2023?"),
            Some(Period::Year(2023))
        );
        assert_eq!(
            Period::named_in("What is a mid-2023 model worth?"),
            Some(Period::Year(2023))
        );
        // Words that open with characters of several bytes are read without a panic.
        assert_eq!(Period::named_in("Was the mıd-2023 trip €€€€ or ÉTÉ-2023?"), None);
    }

    #[test]
    fn a_question_in_words_of_relative_time_names_the_time_counted_from_the_day_it_is_asked() {
        // 2023-05-10 was a Wednesday.
        let today = NaiveDate::from_ymd_opt(2023, 5, 10).unwrap();
        let asked = |text: &str| Period::asked_in(text, today);
        let days = |first: (i32, u32, u32), last: (i32, u32, u32)| {
            let date = |(y, m, d)| NaiveDate::from_ymd_opt(y, m, d).unwrap();
            Stretch::between(date(first), date(last)).map(Period::Days)
        };
        assert_eq!(asked("What did I cook last weekend?"), days((2023, 5, 6), (2023, 5, 7)));
        assert_eq!(asked("Who called yesterday?"), days((2023, 5, 9), (2023, 5, 9)));
        assert_eq!(
            asked("Where did we eat two weeks ago?"),
            days((2023, 4, 23), (2023, 4, 29))
        );
        assert_eq!(
            asked("What did I read last month?"),
            Some(Period::Month {
                year: Some(2023),
                month: 4
            })
        );
        assert_eq!(asked("Where did I go last year?"), Some(Period::Year(2022)));
        assert_eq!(
            asked("Who called the day before yesterday?"),
            days((2023, 5, 8), (2023, 5, 8))
        );
        assert_eq!(asked("What changed since last month?"), None, "a bound");
        assert_eq!(asked("What do I have to do today?"), None, "a plan's day is not read");
        assert_eq!(
            asked("What did I do last weekend before April 10, 2023?"),
            Period::named_in("the week before April 10, 2023"),
            "a date named is counted from"
        );
        assert_eq!(asked("What was the last book I read?"), None);
        assert!(
            matches!(asked("What did I do in the last week of June?"), Some(Period::Days(s)) if s.any_year),
            "June's last week, not the week before today"
        );
    }

    fn record(created: &str, content: &str, context: Option<&str>) -> MemoryRecord {
        serde_json::from_value(serde_json::json!({
            "id": "m", "version": 1, "content": content, "memory_type": "knowledge",
            "embedding": null, "created_at": created, "context": context,
        }))
        .unwrap()
    }

    #[test]
    fn a_memory_belongs_to_the_time_it_was_said_or_whose_date_it_holds() {
        let june = Period::named_in("camping in June?").unwrap();
        let may_2023 = Period::named_in("in May 2023").unwrap();
        let said_in_june = record("2023-06-20T10:00:00Z", "We went camping", None);
        assert!(june.covers(&said_in_june, None));
        assert!(!may_2023.covers(&said_in_june, None));
        let dated_context = record(
            "2026-11-28T00:00:00Z",
            "We went camping",
            Some("8 May 2023\nHow was it?"),
        );
        assert!(may_2023.covers(&dated_context, None));
        assert!(!june.covers(&dated_context, None));
        let dated_words = record("2026-11-28T00:00:00Z", "The party is on May 3, 2023", None);
        assert!(may_2023.covers(&dated_words, None));
        assert!(
            !may_2023.covers(&dated_words, Some(&[])),
            "the entities given are the content's"
        );
        let iso = record("2026-11-28T00:00:00Z", "x", Some("said on 2023-05-08"));
        assert!(may_2023.covers(&iso, None));
        let in_2022 = Period::named_in("in 2022").unwrap();
        assert!(in_2022.covers(&record("2022-12-31T23:00:00Z", "x", None), None));
        assert!(!in_2022.covers(&record("2023-01-01T00:00:00Z", "x", None), None));
        assert!(!in_2022.covers(&record("2026-01-01T00:00:00Z", "on 3 May", None), None));
    }

    #[test]
    fn a_memory_belongs_to_the_time_its_words_of_relative_time_tell_of() {
        let march = Period::named_in("What did John attend in March 2023?").unwrap();
        let told = record(
            "2026-11-28T00:00:00Z",
            "My colleagues and I went to a convention last month.",
            Some("18 April 2023\nAnything new?"),
        );
        assert!(march.covers(&told, None), "counted from the context's date");
        assert!(!Period::named_in("in February 2023").unwrap().covers(&told, None));
        let first_of_may = Period::named_in("What movie did Joanna watch on 1 May, 2022?").unwrap();
        let mut observed = record("2026-11-28T00:00:00Z", "Watched the trilogy last night!", None);
        assert!(!first_of_may.covers(&observed, None));
        observed.observed_at = Some("2022-05-02T11:54:00Z".into());
        assert!(
            first_of_may.covers(&observed, None),
            "counted from when it was observed"
        );
        let made = record("2022-05-02T11:54:00Z", "Watched the trilogy last night!", None);
        assert!(first_of_may.covers(&made, None), "else from when it was made");
        let in_june = Period::named_in("camping in June?").unwrap();
        assert!(!in_june.covers(&record("2022-05-02T11:54:00Z", "We went camping last year", None), None));
        assert!(Period::Year(2021).covers(&record("2022-05-02T11:54:00Z", "We went camping last year", None), None));
        let a_saturday = Period::named_in("on 22 April, 2023").unwrap();
        let weekend = record("2023-04-30T19:00:00Z", "Went to a convention last weekend", None);
        assert!(a_saturday.covers(&weekend, None), "a week at most tells of its days");
        let month = record("2023-05-10T19:00:00Z", "Went to a convention last month", None);
        assert!(!a_saturday.covers(&month, None));
    }

    #[test]
    fn a_memory_belongs_to_a_stretch_of_days_it_was_said_in_or_tells_of_or_to_a_holiday_it_names() {
        let week = Period::named_in("What did John do the week before August 3, 2023?").unwrap();
        assert!(matches!(week, Period::Days(_)), "{week:?}");
        assert!(week.covers(&record("2023-07-29T10:00:00Z", "Took the kids to the lake", None), None));
        assert!(
            week.covers(&record("2023-08-03T10:00:00Z", "Hi Tim!", None), None),
            "the day counted from"
        );
        assert!(!week.covers(&record("2023-07-20T10:00:00Z", "Took the kids to the lake", None), None));
        assert!(!week.covers(&record("2023-08-04T10:00:00Z", "Took the kids to the lake", None), None));
        let told = record(
            "2026-11-28T00:00:00Z",
            "We went to the castle last Friday",
            Some(
                "16 November 2023
Hey!",
            ),
        );
        let second_week = Period::named_in("Where was Tim in the second week of November?").unwrap();
        assert!(second_week.covers(&told, None), "the 10th, told on the 16th");
        let dated = record("2026-11-28T00:00:00Z", "The fair is on 9 November", None);
        assert!(second_week.covers(&dated, None));
        assert!(!second_week.covers(
            &record("2026-11-28T00:00:00Z", "The fair is on 19 November", None),
            None
        ));
        let christmas = Period::named_in("What did Sam cook over Christmas?").unwrap();
        assert!(christmas.covers(&record("2021-12-25T18:00:00Z", "Roast goose, finally", None), None));
        assert!(
            christmas.covers(
                &record("2021-11-02T18:00:00Z", "Sam plans a goose for christmas", None),
                None
            ),
            "a memory that names the holiday tells of it"
        );
        assert!(!christmas.covers(&record("2021-11-02T18:00:00Z", "Sam plans a goose", None), None));
        let easter = Period::named_in("Where did we go at Easter 2024?").unwrap();
        assert!(!easter.covers(
            &record("2024-01-02T18:00:00Z", "We drove up the eastern coast", None),
            None
        ));
        assert!(easter.covers(&record("2024-01-02T18:00:00Z", "Easter at Gran's again", None), None));
        assert!(
            !easter.covers(&record("2019-01-02T18:00:00Z", "Easter at Gran's again", None), None),
            "said in another year than the holiday's"
        );
        assert!(
            christmas.covers(
                &record(
                    "2021-11-02T18:00:00Z",
                    "A goose, I think",
                    Some("What will you cook for Christmas?")
                ),
                None
            ),
            "the context it answers names it"
        );
    }

    #[test]
    fn a_memory_belongs_to_a_season_it_was_said_in_or_tells_of() {
        let summer = Period::named_in("Where did Jo go in summer 2022?").unwrap();
        assert!(summer.covers(&record("2022-07-14T10:00:00Z", "We drove to Maine", None), None));
        assert!(!summer.covers(&record("2022-09-01T10:00:00Z", "We drove to Maine", None), None));
        assert!(!summer.covers(&record("2023-07-14T10:00:00Z", "We drove to Maine", None), None));
        let dated = record(
            "2026-11-28T00:00:00Z",
            "We drove to Maine",
            Some("3 August 2022\nWhere to?"),
        );
        assert!(summer.covers(&dated, None));
        let told = record(
            "2026-11-28T00:00:00Z",
            "We drove to Maine last month",
            Some("2 September 2022"),
        );
        assert!(summer.covers(&told, None), "August, told in September");
        let winter = Period::named_in("during the winter").unwrap();
        assert!(winter.covers(&record("2021-12-20T10:00:00Z", "x", None), None));
        assert!(winter.covers(&record("2022-02-20T10:00:00Z", "x", None), None));
        assert!(!winter.covers(&record("2022-03-01T10:00:00Z", "x", None), None));
    }
}
