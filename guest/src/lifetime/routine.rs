//! A routine told in the simple present with the time it is kept at: "I take metformin with
//! breakfast", "I take levothyroxine at 6am on an empty stomach", "we walk the dog before
//! work". A meal's or the body's words pass elsewhere ("breakfast", "stomach"), so such
//! routines were kept for three days. The same times told of one day still pass: "took my
//! metformin with lunch today", "feeding the cat at 6pm tonight".

use super::habit::simple_present;
use super::phrase;

/// Meals, and the parts of a day that a routine is kept before, after or with.
const MARKS_OF_A_DAY: &[&str] = &[
    "breakfast",
    "brekkie",
    "lunch",
    "dinner",
    "tea",
    "supper",
    "food",
    "meals",
    "work",
    "school",
    "bed",
    "church",
    "mass",
];

/// Words that name one day or one stretch of days: the time is that day's, not a routine's.
const ONE_DAY: &[&str] = &[
    "today",
    "tonight",
    "tomorrow",
    "yesterday",
    "later",
    "instead",
    "once",
    "anyway",
];

/// Whether the words tell a routine kept at a time of day, in the simple present.
pub(super) fn kept_at_a_time(w: &[String]) -> bool {
    simple_present(w) && at_a_time_of_day(w) && !of_one_day(w)
}

/// "with breakfast", "before work", "after school", "on an empty stomach", "first thing",
/// "in the mornings", "at night", "at 6am".
fn at_a_time_of_day(w: &[String]) -> bool {
    w.windows(2).any(|p| {
        let mark = || MARKS_OF_A_DAY.contains(&p[1].as_str());
        match p[0].as_str() {
            "with" | "before" | "after" => mark(),
            "at" => clock(&p[1]) || matches!(p[1].as_str(), "night" | "bedtime" | "lunchtime" | "noon" | "midnight"),
            _ => false,
        }
    }) || phrase(w, &["empty", "stomach"])
        || phrase(w, &["first", "thing"])
        || w.windows(3).any(|p| {
            matches!(p[0].as_str(), "in" | "every")
                && p[1] == "the"
                && matches!(
                    p[2].as_str(),
                    "morning" | "mornings" | "evening" | "evenings" | "afternoon" | "afternoons"
                )
        })
}

/// "6", "6am", "11pm" (the words have "6:30" as "6" and "30").
fn clock(x: &str) -> bool {
    let h = x.trim_end_matches("am").trim_end_matches("pm");
    h.parse::<u32>().is_ok_and(|h| (1..=12).contains(&h))
}

/// "today", "this week", "next Tuesday", "last night", "at 3 Friday": the time is of one
/// day, and so is any weekday named. (Days that come round are `schedule`'s.)
fn of_one_day(w: &[String]) -> bool {
    w.iter()
        .any(|x| ONE_DAY.contains(&x.as_str()) || super::moment::DAYS.iter().any(|(d, _)| d == x))
        || w.windows(2).any(|p| {
            matches!(p[0].as_str(), "this" | "next" | "last" | "on")
                && matches!(
                    p[1].as_str(),
                    "week" | "weekend" | "morning" | "evening" | "afternoon" | "night" | "time"
                )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifetime::words as w;

    #[test]
    fn a_routine_at_a_time_of_day_and_one_day_kept_so() {
        for routine in [
            "i take metformin with breakfast",
            "i take levothyroxine at 6am on an empty stomach",
            "we walk the dog before work",
            "i feed the cat at 6pm",
            "i stretch first thing",
        ] {
            assert!(kept_at_a_time(&w(routine)), "{routine}");
        }
        for one_day in [
            "took my metformin with lunch today",
            "feeding the cat at 6pm tonight",
            "i take the bins out after work tomorrow",
            "i finish at 3 this friday",
            "i finish at 3 friday",
            "we agreed to meet after work",
            "i have a meeting at 3",
            "i feel sick after lunch",
        ] {
            assert!(!kept_at_a_time(&w(one_day)), "{one_day}");
        }
    }
}
