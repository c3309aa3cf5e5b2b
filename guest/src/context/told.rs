//! The day a fact was told, beside words only that day gives a meaning. "Our son Jack was
//! born this morning" or "I'm unemployed at the moment", read to an agent six months on,
//! would be news of this morning or of now; with the day they were said, the agent can
//! tell how old they are ("born on 3 March", "unemployed as of March").

use chrono::{DateTime, NaiveDate, Utc};

use crate::entities::WEEKDAYS;

/// `text`, with " (said on YYYY-MM-DD)" after it when it holds a word of time relative to
/// when it was said and that day is before `today`.
pub fn with_day(text: &str, said: DateTime<Utc>, today: NaiveDate) -> String {
    let day = said.date_naive();
    if day < today && relative(text) {
        format!("{text} (said on {day})")
    } else {
        text.to_owned()
    }
}

/// Words that name a time by the day they are said: "today", "last week", "on Saturday",
/// "at the moment", "just got".
const ALONE: &[&str] = &[
    "today",
    "today's",
    "tonight",
    "tonight's",
    "tomorrow",
    "tomorrow's",
    "yesterday",
    "yesterday's",
    "recently",
    "currently",
    "lately",
    "nowadays",
    "ago",
    "atm",
];

/// What "this", "last" and "next" make relative.
const SPANS: &[&str] = &[
    "morning",
    "afternoon",
    "evening",
    "night",
    "week",
    "weekend",
    "month",
    "year",
    "spring",
    "summer",
    "autumn",
    "fall",
    "winter",
];

/// Verbs that, after "just", tell something that has only now happened: "just got engaged".
const JUST_DONE: &[&str] = &[
    "got", "had", "been", "won", "lost", "found", "bought", "made", "left", "begun",
];

/// Whether `text` holds a word of time relative to when it was said.
pub(crate) fn relative(text: &str) -> bool {
    let low = text.to_lowercase().replace('\u{2019}', "'");
    let w: Vec<&str> = low
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let phrase = |p: &[&str]| w.windows(p.len()).any(|win| win == p);
    w.iter().any(|x| ALONE.contains(x))
        // A weekday is relative after these ("married on Saturday"), not in a standing
        // schedule ("I work Monday to Friday").
        || w.windows(2).any(|p| {
            matches!(
                p[0],
                "on" | "this" | "last" | "next" | "since" | "until" | "till" | "by" | "from" | "coming"
            ) && WEEKDAYS.contains(&p[1])
        })
        || w.windows(2).any(|p| {
            matches!(p[0], "this" | "last" | "next" | "coming") && SPANS.contains(&p[1])
                || p[0] == "just" && (p[1].ends_with("ed") || JUST_DONE.contains(&p[1]))
        })
        || phrase(&["at", "the", "moment"])
        || phrase(&["right", "now"])
        || phrase(&["these", "days"])
        || phrase(&["for", "now"])
        || phrase(&["the", "other", "day"])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn a_relative_time_told_before_today_gets_its_day() {
        let said = at("2025-03-03T09:00:00Z");
        let later = NaiveDate::from_ymd_opt(2025, 9, 1).unwrap();
        for relative in [
            "Our son Jack was born this morning, 7lb 2oz",
            "My mum died last week",
            "I've just been diagnosed with coeliac disease today",
            "Passed my driving test today!!",
            "We moved to Bristol last month",
            "Today's my birthday!",
            "I'm unemployed at the moment",
            "Just got engaged to Marcus",
            "Getting married next Saturday",
        ] {
            assert_eq!(
                with_day(relative, said, later),
                format!("{relative} (said on 2025-03-03)"),
                "{relative}"
            );
        }
        for lasting in [
            "I live in Leeds",
            "My birthday is 3 March",
            "I go to yoga on Saturdays",
            "I just love tea",
            "I work Monday to Friday",
            "My name is Olivia",
        ] {
            assert_eq!(with_day(lasting, said, later), lasting, "{lasting}");
        }
        // On the day it was said, "today" is today.
        let same_day = NaiveDate::from_ymd_opt(2025, 3, 3).unwrap();
        assert_eq!(with_day("Passed my test today", said, same_day), "Passed my test today");
    }
}
