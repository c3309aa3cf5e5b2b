//! A stretch of days a question names around a date, a month or a holiday: "between 3 and
//! 7 July", "the week before 9 June 2023", "the Sunday before October 25, 2022", "two weeks
//! after 1 May", "the weekend of 14 October", "the second week of November", "the first
//! half of September 2022", "over Christmas 2022". Read before `Period`'s day, month and
//! year, which would take the date in it alone, or the month.
//!
//! A stretch before or after a date holds the date too: a question asked as "what did Jon
//! do the week before 3 August?" is mostly about what was told on the 3rd ("last week, I
//! took my kids to..."), and words of relative time tell their days apart (`relative_time`).

use chrono::{Datelike, Days, Months, NaiveDate, Weekday};

use crate::conversation::extraction::dates::last_weekday;
use crate::entities::{self, TextDate};

/// Days, both ends included. Without a year, the same days of any year: computed in a
/// stand-in leap year (its last day may fall in the next) and compared by month and day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stretch {
    /// The first day.
    pub first: NaiveDate,
    /// The last day.
    pub last: NaiveDate,
    /// Whether the days are those of any year.
    pub any_year: bool,
    /// The holiday it was named by: a memory that names it tells of it, whenever said.
    pub holiday: Option<&'static str>,
}

/// The year a stretch of any year is computed in; a leap year, so the 29th of February
/// is a day of it.
const STAND_IN: i32 = 2000;

/// Words after which a holiday's name names a time: "over Christmas", "on Halloween". A
/// holiday's name alone may name a thing or a purpose ("the Christmas concert", "a gift
/// for Christmas"); one with a year ("Christmas 2022") names the time.
const HOLIDAY_LEADS: &[&str] = &["on", "over", "at", "during", "around", "this", "last"];

/// Words that may follow a holiday named as a time ("at Christmas with the kids");
/// another word after it makes the name part of a thing's ("at the New Year's Day dip").
const AFTER_A_TIME: &[&str] = &[
    "and", "with", "at", "in", "to", "or", "but", "so", "when", "while", "before", "after", "this", "last", "i", "we",
    "you", "he", "she", "they", "did", "was", "were",
];

/// The longest stretch read as one; a range longer than this is rather two times.
const LONGEST_DAYS: i64 = 92;

impl Stretch {
    fn of(first: NaiveDate, last: NaiveDate, any_year: bool) -> Option<Stretch> {
        let days = (last - first).num_days();
        (0..=LONGEST_DAYS).contains(&days).then_some(Stretch {
            first,
            last,
            any_year,
            holiday: None,
        })
    }

    /// The days from `first` to `last` of their year, if it is no longer than a time
    /// named as one (about three months).
    pub fn between(first: NaiveDate, last: NaiveDate) -> Option<Stretch> {
        Stretch::of(first, last, false)
    }

    /// The date `(year, month, day)` as a stretch of one day.
    fn day((year, month, day): TextDate) -> Option<Stretch> {
        let date = NaiveDate::from_ymd_opt(year.unwrap_or(STAND_IN), month, day)?;
        Stretch::of(date, date, year.is_none())
    }

    /// Whether the day lies in the stretch; a day without a year lies in it when its
    /// month and day do.
    pub fn holds(&self, (year, month, day): TextDate) -> bool {
        match year.filter(|_| !self.any_year) {
            Some(year) => NaiveDate::from_ymd_opt(year, month, day).is_some_and(|d| self.first <= d && d <= self.last),
            None => {
                let (first, last) = (
                    (self.first.month(), self.first.day()),
                    (self.last.month(), self.last.day()),
                );
                let wanted = (month, day);
                if first <= last {
                    first <= wanted && wanted <= last
                } else {
                    first <= wanted || wanted <= last
                }
            }
        }
    }

    /// The stretch's days in each year from `from` to `to` (once when it has a year).
    pub fn in_years(&self, from: i32, to: i32) -> Vec<(NaiveDate, NaiveDate)> {
        if !self.any_year {
            return vec![(self.first, self.last)];
        }
        let length = self.last - self.first;
        (from - 1..=to)
            .filter_map(|year| self.first.with_year(year))
            .map(|first| (first, first + length))
            .collect()
    }

    /// The months its days lie in.
    pub fn months(&self) -> Vec<u32> {
        let mut months = vec![self.first.month()];
        if self.last.month() != self.first.month() {
            months.push(self.last.month());
        }
        months
    }
}

/// The stretch of days `words` (a text split at white space) name, if they name one.
pub fn named_in(words: &[&str]) -> Option<Stretch> {
    let lower: Vec<String> = words.iter().map(|w| plain(w)).collect();
    (0..words.len()).find_map(|i| {
        range(words, &lower, i)
            .or_else(|| beside(words, &lower, i))
            .or_else(|| week_of(words, &lower, i))
            .or_else(|| part_of_month(words, &lower, i))
            .or_else(|| led_holiday(words, &lower, i))
    })
}

/// A word lower-cased, its curly apostrophe made straight and the punctuation around it
/// taken off.
fn plain(word: &str) -> String {
    word.replace('’', "'")
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_lowercase()
}

/// "between 3 and 7 July", "from May 2 to May 9, 2023", "between August 11 and August 15
/// 2023": a year or month said once is the range's.
fn range(words: &[&str], lower: &[String], i: usize) -> Option<Stretch> {
    if !matches!(lower[i].as_str(), "between" | "from") {
        return None;
    }
    let (start, next) = match entities::date_at(words, i + 1) {
        Some(found) => (Some(found.0), found.1),
        None => (None, i + 2),
    };
    let bare_day = start.is_none().then(|| entities::day(words.get(i + 1)?)).flatten();
    if start.is_none() && bare_day.is_none() {
        return None;
    }
    if !matches!(
        lower.get(next).map(String::as_str),
        Some("and" | "to" | "until" | "till" | "through")
    ) {
        return None;
    }
    let ((end_year, month, day), _) = entities::date_at(words, next + 1)?;
    let (start_year, start_month, start_day) = match start {
        Some(start) => start,
        None => (None, month, bare_day?),
    };
    let year = start_year.or(end_year);
    let mut first = NaiveDate::from_ymd_opt(year.unwrap_or(STAND_IN), start_month, start_day)?;
    let last_year = end_year.or(year).unwrap_or(STAND_IN);
    let mut last = NaiveDate::from_ymd_opt(last_year, month, day)?;
    if last < first {
        // "from 28 December to 3 January": the range crosses a new year.
        match (start_year, end_year) {
            (Some(_), None) => last = last.with_year(last_year + 1)?,
            (None, _) => first = first.with_year(first.year() - 1)?,
            // Two years given the wrong way round name no stretch.
            (Some(_), Some(_)) => return None,
        }
    }
    Stretch::of(first, last, year.is_none())
}

/// A span of time before or after a date or a holiday: "the week before 9 June 2023",
/// "two weeks after 1 May", "the Sunday before October 25, 2022", "the day after
/// Christmas".
fn beside(words: &[&str], lower: &[String], i: usize) -> Option<Stretch> {
    let (after, anchor_at) = match lower[i].as_str() {
        "before" => (false, i + 1),
        "after" | "following" => (true, i + 1),
        "prior" if lower.get(i + 1).is_some_and(|w| w == "to") => (false, i + 2),
        _ => return None,
    };
    let unit = lower.get(i.checked_sub(1)?)?;
    // A count of units, up to 60 ("99999 weeks before" names no stretch); none is one.
    let count = |at: Option<usize>| -> Option<u64> {
        let Some(at) = at else { return Some(1) };
        match lower[at].as_str() {
            "few" => Some(3),
            "of" if at > 0 && lower[at - 1] == "couple" => Some(2),
            word => match word
                .parse::<u64>()
                .ok()
                .or_else(|| entities::number_word(word).map(u64::from))
            {
                Some(n) => (1..=60).contains(&n).then_some(n),
                None => Some(1),
            },
        }
    };
    let weekday: Option<Weekday> = entities::WEEKDAYS
        .iter()
        .position(|d| d == unit)
        .and_then(|n| Weekday::try_from(n as u8).ok());
    let days = match unit.as_str() {
        "day" | "night" | "evening" | "morning" => 1,
        "days" => count(i.checked_sub(2))?,
        "week" | "weekend" => 7,
        "weeks" => 7 * count(i.checked_sub(2))?,
        "fortnight" => 14,
        "month" => 31,
        "months" => 31 * count(i.checked_sub(2))?,
        _ if weekday.is_some() => 7,
        _ => return None,
    };
    let (anchor, _) = anchor(words, lower, anchor_at)?;
    let (mut first, mut last) = (anchor.first, anchor.last);
    if after {
        last = last.checked_add_days(Days::new(days))?;
    } else {
        first = first.checked_sub_days(Days::new(days))?;
    }
    if let Some(weekday) = weekday.filter(|_| !anchor.any_year) {
        // The named day itself, and the date the question counts from.
        let name = entities::WEEKDAYS[weekday.num_days_from_monday() as usize];
        if after {
            last = next_weekday(anchor.last, weekday)?;
        } else {
            first = last_weekday(anchor.first, name)?;
        }
    }
    Stretch::of(first, last, anchor.any_year)
}

/// "the week of 14 October", "the weekend of May 6, 2023": the days around the date (the
/// week it lies in, Monday to Sunday, when its year is known).
fn week_of(words: &[&str], lower: &[String], i: usize) -> Option<Stretch> {
    let weekend = match lower[i].as_str() {
        "week" => false,
        "weekend" => true,
        _ => return None,
    };
    if lower.get(i + 1).is_none_or(|w| w != "of") {
        return None;
    }
    let (anchor, _) = anchor(words, lower, i + 2)?;
    let day = anchor.first;
    let (first, last) = if weekend {
        (day.pred_opt()?, day.succ_opt()?)
    } else if anchor.any_year {
        (day.checked_sub_days(Days::new(3))?, day.checked_add_days(Days::new(3))?)
    } else {
        let monday = day.checked_sub_days(Days::new(day.weekday().num_days_from_monday().into()))?;
        (monday, monday.checked_add_days(Days::new(6))?)
    };
    Stretch::of(first, last, anchor.any_year)
}

/// "the second week of November", "the first half of September 2022", "the end of May":
/// part of a month, of a year or of any.
fn part_of_month(words: &[&str], lower: &[String], i: usize) -> Option<Stretch> {
    let (part, of) = match lower[i].as_str() {
        "start" | "beginning" | "end" => (lower[i].as_str(), i + 1),
        "first" | "second" | "third" | "fourth" | "last" | "final" | "latter" => {
            match lower.get(i + 1).map(String::as_str) {
                Some("week" | "half") => (lower[i].as_str(), i + 2),
                _ => return None,
            }
        }
        _ => return None,
    };
    if lower.get(of).is_none_or(|w| w != "of") {
        return None;
    }
    let month = entities::month(words.get(of + 1)?)?;
    let year = entities::year(words.get(of + 2));
    // Of any year, a common year's month: "the last week of February" is the 22nd to the
    // 28th, as in three years of four.
    let first_day = NaiveDate::from_ymd_opt(year.unwrap_or(STAND_IN + 1), month, 1)?;
    let last_day = first_day.checked_add_months(Months::new(1))?.pred_opt()?;
    let day = |n: u32| first_day.with_day(n);
    let half = lower[i + 1] == "half";
    let (first, last) = match part {
        "start" | "beginning" => (first_day, day(10)?),
        "end" => (day(last_day.day() - 9)?, last_day),
        "first" if half => (first_day, day(15)?),
        "second" | "last" | "final" | "latter" if half => (day(16)?, last_day),
        "last" | "final" => (day(last_day.day() - 6)?, last_day),
        nth => {
            let n = ["first", "second", "third", "fourth"].iter().position(|w| *w == nth)? as u32;
            (day(7 * n + 1)?, day(7 * n + 7)?)
        }
    };
    Stretch::of(first, last, year.is_none())
}

/// A holiday named as a time: followed by a year, or led by a word that leads one and
/// ending its phrase.
fn led_holiday(words: &[&str], lower: &[String], i: usize) -> Option<Stretch> {
    let (stretch, after) = holiday_at(words, lower, i)?;
    let led = i > 0 && HOLIDAY_LEADS.contains(&lower[i - 1].as_str());
    let ends = words[after - 1].ends_with(|c: char| !c.is_alphanumeric() && c != '\'')
        || lower
            .get(after)
            .is_none_or(|next| AFTER_A_TIME.contains(&next.as_str()));
    (!stretch.any_year || led && ends).then_some(stretch)
}

/// What a stretch may be counted from: a date at `words[i]` ("9 June 2023", "2023-06-09")
/// or a holiday ("Christmas", "the 4th of July"), and the index after it.
fn anchor(words: &[&str], lower: &[String], i: usize) -> Option<(Stretch, usize)> {
    let i = if lower.get(i).is_some_and(|w| w == "the") {
        i + 1
    } else {
        i
    };
    if let Some((date, next)) = entities::date_at(words, i) {
        return Some((Stretch::day(date)?, next));
    }
    if let Some(date) = lower.get(i).and_then(|w| NaiveDate::parse_from_str(w, "%Y-%m-%d").ok()) {
        return Some((Stretch::of(date, date, false)?, i + 1));
    }
    holiday_at(words, lower, i)
}

/// The holidays read, by the words that name them (lower case, the longest first where
/// one begins another), and their days in a year.
const HOLIDAYS: &[(&[&str], &str)] = &[
    (&["christmas", "eve"], "christmas"),
    (&["christmas", "day"], "christmas"),
    (&["christmas"], "christmas"),
    (&["xmas"], "christmas"),
    (&["new", "year's", "eve"], "new year"),
    (&["new", "year's", "day"], "new year"),
    (&["new", "year's"], "new year"),
    (&["new", "year"], "new year"),
    (&["halloween"], "halloween"),
    (&["valentine's", "day"], "valentine"),
    (&["valentines", "day"], "valentine"),
    (&["valentine's"], "valentine"),
    (&["independence", "day"], "independence day"),
    (&["fourth", "of", "july"], "independence day"),
    (&["thanksgiving"], "thanksgiving"),
    (&["easter"], "easter"),
];

/// The holiday named at `words[i]` with the year after it, if any, and the index after.
fn holiday_at(words: &[&str], lower: &[String], i: usize) -> Option<(Stretch, usize)> {
    let (names, holiday) = HOLIDAYS.iter().find(|(names, _)| {
        names
            .iter()
            .enumerate()
            .all(|(k, w)| lower.get(i + k).is_some_and(|l| l == w))
    })?;
    let mut after = i + names.len();
    // "Christmas 2022", "Christmas in 2022".
    let year = match entities::year(words.get(after)) {
        Some(year) => {
            after += 1;
            Some(year)
        }
        None if lower.get(after).is_some_and(|w| w == "in") => {
            let year = entities::year(words.get(after + 1));
            after += if year.is_some() { 2 } else { 0 };
            year
        }
        None => None,
    };
    let y = year.unwrap_or(STAND_IN);
    let date = |m: u32, d: u32| NaiveDate::from_ymd_opt(y, m, d);
    let (first, last) = match *names {
        ["christmas", "eve"] => (date(12, 24)?, date(12, 24)?),
        ["christmas", "day"] => (date(12, 25)?, date(12, 25)?),
        ["christmas"] | ["xmas"] => (date(12, 24)?, date(12, 26)?),
        [_, _, "eve"] => (date(12, 31)?, date(12, 31)?),
        [_, _, "day"] => (date(1, 1)?, date(1, 1)?),
        ["new", _] => (NaiveDate::from_ymd_opt(y - 1, 12, 31)?, date(1, 1)?),
        ["halloween"] => (date(10, 31)?, date(10, 31)?),
        [_, "day"] | ["valentine's"] if *holiday == "valentine" => (date(2, 14)?, date(2, 14)?),
        ["thanksgiving"] => {
            // The fourth Thursday of November, and the days off after it.
            let first = date(11, 1)?;
            let to_thursday = (Weekday::Thu.num_days_from_monday() + 7 - first.weekday().num_days_from_monday()) % 7;
            let thursday = first.checked_add_days(Days::new(u64::from(to_thursday) + 21))?;
            match year {
                Some(_) => (thursday, thursday.checked_add_days(Days::new(3))?),
                None => (date(11, 22)?, date(12, 1)?),
            }
        }
        ["easter"] => {
            let sunday = easter_sunday(year?)?;
            (sunday.checked_sub_days(Days::new(2))?, sunday.succ_opt()?)
        }
        _ => (date(7, 4)?, date(7, 4)?),
    };
    let mut stretch = Stretch::of(first, last, year.is_none())?;
    stretch.holiday = Some(holiday);
    Some((stretch, after))
}

/// The first `weekday` after `day`.
fn next_weekday(day: NaiveDate, weekday: Weekday) -> Option<NaiveDate> {
    let ahead = (weekday.num_days_from_monday() + 7 - day.weekday().num_days_from_monday()) % 7;
    day.checked_add_days(Days::new(if ahead == 0 { 7 } else { ahead.into() }))
}

/// Easter Sunday of a Gregorian year, by the anonymous algorithm of 1876 (Meeus,
/// "Astronomical Algorithms", ch. 8).
fn easter_sunday(year: i32) -> Option<NaiveDate> {
    let a = year % 19;
    let (b, c) = (year / 100, year % 100);
    let (d, e) = (b / 4, b % 4);
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let (i, k) = (c / 4, c % 4);
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    NaiveDate::from_ymd_opt(year, month as u32, day as u32)
}

#[cfg(test)]
mod tests;
