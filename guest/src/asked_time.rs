//! A question that asks for a time without naming one, and the memories that tell one.
//!
//! "When did Kat leave for Berlin?" is answered by "Kat flew out on Tuesday", which shares
//! one word with it: what makes it the answer is that it says when. Search weighs up the
//! memories whose words tell a time ([`ASKED_TIME_WEIGHT`]) for a question that asks when,
//! on what date, how long or how many weeks; a question that names a time ("in June") is
//! `period`'s, and weighs up the memories of that time instead. Only a memory's content is
//! read: a stored conversation's context holds the day of every turn.
//!
//! Chosen on the one-topic conversations and LoCoMo's development half (docs/judgment.md,
//! "A question that asks when").

use crate::context::told;
use crate::entities::{self, WEEKDAYS};

/// What a memory that tells a time is weighed by, for a question that asks for one.
pub const ASKED_TIME_WEIGHT: f32 = 2.0;

/// Pairs of words that ask for a time or a stretch of it, wherever they stand.
const ASKING: &[[&str; 2]] = &[
    ["what", "date"],
    ["which", "date"],
    ["what", "day"],
    ["which", "day"],
    ["what", "month"],
    ["which", "month"],
    ["what", "year"],
    ["which", "year"],
    ["what", "time"],
    ["since", "when"],
    ["how", "long"],
    ["how", "old"],
    ["how", "soon"],
];

/// Units a count asks for after "how many": "How many weeks after the inspection ...?"
const UNITS: &[&str] = &["days", "weeks", "months", "years", "nights", "hours"];

/// Whether `question` asks for a time: it opens with "when", or asks what date, which
/// year, how long, how old or how many days, weeks, months or years.
pub fn asks(question: &str) -> bool {
    let words = words(question);
    let opens_with_when = words.first().is_some_and(|w| w == "when");
    let asking = words
        .windows(2)
        .any(|p| ASKING.iter().any(|[a, b]| p[0] == *a && p[1] == *b));
    let counting = words
        .windows(3)
        .any(|p| p[0] == "how" && p[1] == "many" && UNITS.contains(&p[2].as_str()));
    opens_with_when || asking || counting
}

/// Whether `content` tells a time: a weekday, a month, a year, a day of a month ("the
/// 25th"), or words of time relative to when it was said ("yesterday", "last week",
/// "three weeks ago", "at the moment": `context::told`).
pub fn tells(content: &str) -> bool {
    if told::relative(content) {
        return true;
    }
    let raw: Vec<&str> = content.split_whitespace().collect();
    let lower = words(content);
    lower.iter().any(|w| {
        weekday(w)
            || entities::year(Some(&w.as_str())).is_some()
            || ordinal_day(w)
            || ["noon", "midnight", "o'clock"].contains(&w.as_str())
    }) || raw.iter().any(|w| clock(w))
        || raw.iter().enumerate().any(|(i, w)| {
            // "May" the month only beside a day: "May I ask" is not a time.
            entities::month(w).is_some()
                && (!w.starts_with("May")
                    || [i.checked_sub(1), Some(i + 1)]
                        .into_iter()
                        .flatten()
                        .filter_map(|j| raw.get(j))
                        .any(|n| entities::day(n).is_some()))
        })
}

/// A day of the week, or its plural: "Tuesday", "Mondays".
fn weekday(word: &str) -> bool {
    WEEKDAYS.contains(&word) || word.strip_suffix('s').is_some_and(|w| WEEKDAYS.contains(&w))
}

/// A time of day: "9:30", "6am", "3pm,", "7.30pm".
fn clock(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    let digits = w.strip_suffix("am").or_else(|| w.strip_suffix("pm"));
    let hour_minutes = |t: &str| {
        t.split_once([':', '.']).is_some_and(|(h, m)| {
            (1..=2).contains(&h.len()) && m.len() == 2 && h.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit())
        })
    };
    match digits {
        Some(t) => (1..=2).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()) || hour_minutes(t),
        None => hour_minutes(&w),
    }
}

/// A text's words, lower case, apostrophes kept.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace('\u{2019}', "'")
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A day of a month written with its suffix: "25th", "1st"; a bare number is a count.
fn ordinal_day(word: &str) -> bool {
    word.chars().next().is_some_and(|c| c.is_ascii_digit())
        && ["st", "nd", "rd", "th"].iter().any(|s| word.ends_with(s))
        && entities::day(word).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_asks_when_on_what_date_how_long_or_how_many_weeks() {
        for asking in [
            "When did Kat leave for Berlin?",
            "when was Esi born",
            "On what date did Derek help Marcus dig his plot?",
            "In which year did Priya take up running?",
            "How long was Gwen away in Italy?",
            "How many weeks after the inspection did Rosa deliver to a café?",
            "How old was Esi at her outdooring?",
            "Since when has Leon worked at the theatre?",
        ] {
            assert!(asks(asking), "{asking}");
        }
        for not in [
            "Where did Kat go?",
            "What did Gwen bring back from Italy?",
            "How many plants did Marcus put in?",
            "What did Ines do when her amp died?",
        ] {
            assert!(!asks(not), "{not}");
        }
    }

    #[test]
    fn a_memory_tells_a_time_by_a_day_a_month_a_year_or_words_of_relative_time() {
        for telling in [
            "Kat flew out on Tuesday and the rehearsal room already feels too quiet.",
            "Sunday was the best race day I've had in years.",
            "Thursday after next. The twenty-sixth.",
            "The AGM is on the 25th at the village hall.",
            "We moved in March.",
            "Our wedding is on 4 May.",
            "I started running in 2020.",
            "I landed three weeks ago today.",
            "It was last Saturday and I've been recovering ever since.",
            "Mondays and Fridays I work from my kitchen table.",
            "After a night shift I sleep from roughly 9am to 3pm.",
            "I wake at 5:30 without an alarm.",
        ] {
            assert!(tells(telling), "{telling}");
        }
        for not in [
            "May I ask what you think?",
            "I ran 8 x 800 m and went too hard on the last one.",
            "She plays everything slightly behind the beat.",
            "Brindle, skinny, terrified of the washing machine.",
            "We took £1,420 over the two days, and the pitch is 3.5 metres wide.",
        ] {
            assert!(!tells(not), "{not}");
        }
    }
}
