//! The moment a fact's words name ahead of when it was told ("tomorrow at 3pm", "next
//! Friday", "in two weeks"), at which it stops mattering.

use chrono::{DateTime, Datelike, TimeDelta, Utc, Weekday};

use super::{phrase, pregnancy, stay};
use crate::entities::MONTHS;

pub(super) const DAYS: [(&str, Weekday); 7] = [
    ("monday", Weekday::Mon),
    ("tuesday", Weekday::Tue),
    ("wednesday", Weekday::Wed),
    ("thursday", Weekday::Thu),
    ("friday", Weekday::Fri),
    ("saturday", Weekday::Sat),
    ("sunday", Weekday::Sun),
];

/// A word that is a date as "2026-03-18" (as extraction writes one it resolved).
pub(super) fn iso_date(word: &str) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(word, "%Y-%m-%d").ok()
}

/// The moment the words name ahead of `said`, as when it has certainly passed (the end of
/// the day named, and a day's grace): "tomorrow at 3pm", "next Friday", "until Wednesday",
/// "this weekend", "in two weeks", "on the 14th". `None` when they name none.
pub(super) fn moment(w: &[String], said: DateTime<Utc>, weekdays_past: bool) -> Option<DateTime<Utc>> {
    let has = |x: &str| w.iter().any(|v| v == x);
    let today = said.date_naive();
    let end_of = |days: i64| {
        (today + TimeDelta::days(days))
            .and_hms_opt(23, 59, 59)
            .map(|t| t.and_utc() + TimeDelta::days(1))
    };
    let count = |x: &str| -> Option<i64> {
        match x {
            "a" | "an" | "one" => Some(1),
            "two" | "couple" => Some(2),
            "three" | "few" => Some(3),
            "four" => Some(4),
            "five" => Some(5),
            "six" => Some(6),
            "ten" => Some(10),
            n => n.parse().ok().filter(|n: &i64| *n > 0 && *n < 400),
        }
    };
    let mut days: Option<i64> = None;
    let mut later = |d: i64| days = Some(days.map_or(d, |x: i64| x.max(d)));
    if has("tonight")
        || has("today")
        || has("later")
        || phrase(w, &["this", "evening"])
        || phrase(w, &["this", "afternoon"])
    {
        later(0);
    }
    if has("tomorrow") {
        later(1);
    }
    // "at 2", "at 3pm", "by 5", "in an hour", "in 20 minutes": today. Not the hour one
    // rises or sleeps at ("up at 5:30", "in bed by 10", "my alarm goes off at 6"), nor the hour of what one does in
    // the simple present ("I go to the gym at 6am before work"): a habit's.
    let simple_present = w.first().is_some_and(|x| x == "i")
        && w.get(1).is_some_and(|v| {
            v.len() > 1
                && !v.ends_with("ing")
                && (!v.ends_with("ed") || super::habit::present_in_eed(v))
                && !matches!(
                    v.as_str(),
                    "am" | "have"
                        | "will"
                        | "need"
                        | "must"
                        | "should"
                        | "can"
                        | "could"
                        | "was"
                        | "had"
                        | "got"
                        | "would"
                        | "might"
                        | "want"
                        | "think"
                        | "hope"
                        | "just"
                        | "only"
                        | "really"
                )
        });
    if !simple_present
        && w.windows(2).enumerate().any(|(i, p)| {
            // "my alarm goes off at 4:45 now": the hour one rises, a few words on.
            let rising = w[i.saturating_sub(3)..i].iter().any(|v| {
                matches!(
                    v.as_str(),
                    "up" | "wake" | "wakes" | "bed" | "asleep" | "sleep" | "bedtime" | "alarm"
                )
            });
            // "8 till 6", "9 until 5": hours kept, a range, not a moment today.
            let range = matches!(p[0].as_str(), "till" | "until" | "til" | "to")
                && i > 0
                && w[i - 1]
                    .trim_end_matches("am")
                    .trim_end_matches("pm")
                    .parse::<u32>()
                    .is_ok();
            !rising
                && !range
                && matches!(p[0].as_str(), "at" | "by" | "till" | "until" | "til")
                && p[1]
                    .trim_end_matches("am")
                    .trim_end_matches("pm")
                    .split(':')
                    .next()
                    .and_then(|h| h.parse::<u32>().ok())
                    .is_some_and(|h| (1..=12).contains(&h) || p[1].contains(':'))
                || (matches!(p[0].as_str(), "at" | "by") && matches!(p[1].as_str(), "midnight" | "noon" | "lunchtime"))
        })
        || w.windows(3)
            .any(|p| p[0] == "in" && (p[2].starts_with("hour") || p[2].starts_with("min")))
    {
        later(0);
    }
    let to_weekday = |day: Weekday| -> i64 {
        let from = today.weekday().num_days_from_monday() as i64;
        let to = day.num_days_from_monday() as i64;
        (to - from).rem_euclid(7)
    };
    for (i, x) in w.iter().enumerate() {
        // "2026-03-18", as extraction writes a date it resolved ("in two weeks" becomes
        // "on Wednesday 2026-03-18"): that day, and not the weekday before it. A past one
        // names no moment to come.
        if let Some(d) = iso_date(x) {
            if d >= today {
                later((d - today).num_days());
            }
            continue;
        }
        let dated = w.get(i + 1).is_some_and(|next| iso_date(next).is_some());
        // "my last day at stripe was friday": the one gone.
        let gone = i > 0 && matches!(w[i - 1].as_str(), "was" | "were");
        if let Some((_, day)) = DAYS
            .iter()
            .find(|(n, _)| n == x)
            .filter(|_| !dated && !weekdays_past && !gone)
        {
            let mut d = to_weekday(*day);
            if d == 0 {
                d = 7;
            }
            if i > 0 && w[i - 1] == "next" {
                d += 7;
            }
            later(d);
        }
        let prev = |k: usize| (i >= k).then(|| w[i - k].as_str());
        match x.as_str() {
            "weekend" if matches!(prev(1), Some("this" | "the")) => later(to_weekday(Weekday::Sun)),
            "weekend" if prev(1) == Some("next") => later(to_weekday(Weekday::Sun) + 7),
            "week" if prev(1) == Some("this") => later(to_weekday(Weekday::Sun)),
            "week" if prev(1) == Some("next") => later(to_weekday(Weekday::Sun) + 7),
            "month" if prev(1) == Some("next") => later(31 + 30 - today.day() as i64),
            "month" if matches!(prev(1), Some("this")) || phrase(w, &["end", "of", "the", "month"]) => {
                later(31 - today.day() as i64)
            }
            "days" | "day" | "weeks" | "week" | "fortnight"
                if matches!(prev(2), Some("in" | "for"))
                    || matches!(prev(1), Some("in" | "for"))
                    // "for a couple of weeks", "in a few days".
                    || (prev(1) == Some("of") && matches!(prev(4), Some("in" | "for")))
                    // "for the next two weeks".
                    || (prev(2) == Some("next") && prev(3) == Some("the") && matches!(prev(4), Some("in" | "for"))) =>
            {
                let n = if prev(1) == Some("of") { prev(2) } else { prev(1) }
                    .and_then(count)
                    .unwrap_or(1);
                let unit = if x.starts_with("week") {
                    7
                } else if x == "fortnight" {
                    14
                } else {
                    1
                };
                later(n * unit);
            }
            _ => {}
        }
        // "on March 10", "10 March", "the 10th of March".
        if let Some(m) = MONTHS
            .iter()
            .position(|m| x == m || (x.len() >= 3 && m.starts_with(x.as_str()) && x.len() == 3))
        {
            let number = |t: Option<&str>| {
                t.map(|t| t.trim_end_matches(|c: char| c.is_alphabetic()))
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|n| (1..=31).contains(n))
            };
            let day = number(w.get(i + 1).map(String::as_str))
                .or_else(|| number(prev(1)))
                .or_else(|| (prev(1) == Some("of")).then(|| number(prev(2))).flatten());
            // "3 June 2019", "July 1, 2015": the year written, whose date may be past.
            let written_year = (1..=3)
                .filter_map(|k| w.get(i + k))
                .find_map(|y| y.parse::<i32>().ok().filter(|y| (1900..2200).contains(y)));
            if let Some(day) = day {
                let date = match written_year {
                    Some(year) => chrono::NaiveDate::from_ymd_opt(year, m as u32 + 1, day),
                    // "for 14 June next year".
                    None if w[i + 1..(i + 4).min(w.len())]
                        .windows(2)
                        .any(|p| p[0] == "next" && p[1] == "year") =>
                    {
                        chrono::NaiveDate::from_ymd_opt(today.year() + 1, m as u32 + 1, day)
                    }
                    None => {
                        let this_year = chrono::NaiveDate::from_ymd_opt(today.year(), m as u32 + 1, day);
                        match this_year {
                            Some(d) if d < today => {
                                chrono::NaiveDate::from_ymd_opt(today.year() + 1, m as u32 + 1, day)
                            }
                            d => d,
                        }
                    }
                };
                if let Some(d) = date.filter(|d| *d >= today) {
                    later((d - today).num_days());
                }
            }
        }
        // "on the 14th", "by the 20th".
        if let Some(n) = x
            .strip_suffix("th")
            .or_else(|| x.strip_suffix("st"))
            .or_else(|| x.strip_suffix("nd"))
            .or_else(|| x.strip_suffix("rd"))
            .and_then(|n| n.parse::<i64>().ok())
            .filter(|n| (1..=31).contains(n))
            && matches!(prev(1), Some("the" | "on" | "by"))
            // "the 3rd floor", "5th Avenue": an ordinal of a thing is no day.
            && w.get(i + 1).is_none_or(|next| {
                !next.chars().all(char::is_alphabetic)
                    || MONTHS.contains(&next.as_str())
                    || DAYS.iter().any(|(d, _)| d == next)
                    || matches!(
                        next.as_str(),
                        "of" | "at" | "by" | "in" | "and" | "or" | "for" | "so" | "but" | "then" | "when" | "from"
                            | "to" | "until" | "till" | "about" | "with" | "on" | "i" | "we" | "is" | "please"
                    )
            })
        {
            let here = today.day() as i64;
            later(if n >= here { n - here } else { n + 30 - here });
        }
    }
    if let Some(d) = stay::season_left(w, today) {
        later(d);
    }
    // "in July", ahead this year and no day named: the month's end.
    for p in w.windows(2) {
        if p[0] == "in"
            && let Some(m) = MONTHS.iter().position(|m| *m == p[1])
            && m as u32 + 1 > today.month()
            && let Some(end) = chrono::NaiveDate::from_ymd_opt(today.year(), m as u32 + 2, 1)
                .or_else(|| chrono::NaiveDate::from_ymd_opt(today.year() + 1, 1, 1))
                .and_then(|first| first.pred_opt())
        {
            later((end - today).num_days());
        }
    }
    // A pregnancy ends within its forty weeks when nothing sooner than them but after this
    // week is named: "Today I found out I'm pregnant!" is no day's news.
    let days = match days {
        Some(d) if d >= 7 => Some(d),
        _ if pregnancy::told_as_now(w) => Some(pregnancy::days_left(w)),
        d => d,
    };
    let d = days?;
    // A moment named as past ("yesterday", "last Friday") is no plan; "the last one" is
    // none.
    let last_time = w.windows(2).any(|p| {
        p[0] == "last"
            && (DAYS.iter().any(|(d, _)| *d == p[1])
                || matches!(
                    p[1].as_str(),
                    "night"
                        | "week"
                        | "weekend"
                        | "month"
                        | "year"
                        | "time"
                        | "summer"
                        | "winter"
                        | "spring"
                        | "autumn"
                        | "christmas"
                ))
    });
    if has("yesterday") || has("ago") || last_time {
        return None;
    }
    end_of(d)
}
