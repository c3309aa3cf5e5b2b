//! A standing schedule told without a word of habit: "bin day is Thursday", "school
//! pickup is at 3:15", "the gym opens at 6". A time or a weekday beside them names no one
//! moment; "standup's pushed to 10 today" does, and a word of the day is read first.

/// Things that happen at the same time each day or week.
const RECURRING: &[&str] = &[
    "standup", "stand-up", "standups", "pickup", "pick-up", "drop-off", "dropoff", "bedtime", "curfew", "check-in",
];

/// Verbs of a place's hours.
const HOURS: &[&str] = &["opens", "closes", "shuts"];

/// Whether the words tell a standing schedule.
pub(super) fn standing(w: &[String]) -> bool {
    let weekday = |x: &str| {
        matches!(
            x,
            "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"
        )
    };
    // "bin day is Thursday", "bin day's a Thursday", "changed our bin day to Tuesday", "my
    // day off is Monday now".
    let day_is = w.iter().enumerate().any(|(i, x)| {
        // "my day off is Monday now", not "booked a day off on Friday".
        let off = w.get(i + 1).is_some_and(|o| o == "off");
        let i = if off { i + 1 } else { i };
        matches!(x.as_str(), "day" | "day's")
            && w[i + 1..(i + 4).min(w.len())].iter().any(|d| weekday(d) || d == "a")
            && w.get(i + 1).is_some_and(|n| {
                matches!(n.as_str(), "is" | "to" | "moved" | "now") || n == "on" && !off || x == "day's"
            })
    });
    // "Monday to Friday", "the first Monday of the month".
    let span = w.windows(3).any(|p| {
        weekday(&p[0]) && matches!(p[1].as_str(), "to" | "through" | "thru" | "till" | "until") && weekday(&p[2])
    }) || w
        .iter()
        .any(|x| x.split_once('-').is_some_and(|(a, b)| weekday(a) && weekday(b)))
        || w.windows(3).any(|p| {
            matches!(
                p[0].as_str(),
                "first" | "second" | "third" | "fourth" | "last" | "1st" | "2nd" | "3rd" | "4th"
            ) && weekday(&p[1])
                && p[2] == "of"
        });
    let recurring = w.iter().any(|x| RECURRING.contains(&x.trim_end_matches("'s")))
        || w.windows(2).any(|p| {
            matches!(
                (p[0].as_str(), p[1].as_str()),
                ("school", "run")
                    | ("opening", "hours")
                    | ("office", "hours")
                    | ("visiting", "hours")
                    // "a standing order of £200 into savings on the 1st": every month's 1st.
                    | ("standing", "order")
                    | ("direct", "debit")
            )
        });
    // "the gym opens at 6", "the shop shuts on Sundays"; not "I close at 5".
    let hours = w.iter().enumerate().any(|(i, x)| {
        HOURS.contains(&x.as_str())
            && i > 0
            && !matches!(w[i - 1].as_str(), "i" | "we" | "it" | "that" | "this")
            && w.get(i + 1)
                .is_some_and(|n| matches!(n.as_str(), "at" | "on" | "till" | "until" | "from" | "early" | "late"))
    });
    day_is || span || recurring || hours || several_weekdays(w)
}

/// "Monday, Wednesday and Friday", "tuesdays and thursdays": days of a week that comes
/// round, unless one week is named ("Monday and Tuesday next week", "this Friday and
/// Saturday") or the days are told as dates are ("a course on Monday and Tuesday").
fn several_weekdays(w: &[String]) -> bool {
    let day = |x: &str| {
        let x = x.strip_suffix('s').unwrap_or(x);
        super::moment::DAYS.iter().position(|(n, _)| *n == x)
    };
    // The days told as a list, one after another ("Monday, Wednesday and Friday"), not
    // each of its own thing ("Dentist Tuesday, haircut Thursday") nor one or the other.
    let listed = w.windows(2).any(|p| day(&p[0]).is_some() && day(&p[1]).is_some())
        || w.windows(3)
            .any(|p| day(&p[0]).is_some() && matches!(p[1].as_str(), "and" | "&") && day(&p[2]).is_some());
    // "I'm off Thursday and Friday": days off of one week, unless they come round ("off
    // Mondays and Tuesdays").
    let plural = w.iter().any(|x| x.ends_with('s') && day(x).is_some());
    let off = w.iter().any(|x| x == "off") && !plural;
    if !listed || off {
        return false;
    }
    let mut days: Vec<usize> = w.iter().filter_map(|x| day(x)).collect();
    days.dedup();
    let one_week = w.windows(2).any(|p| {
        let week = matches!(p[0].as_str(), "this" | "next" | "last" | "coming")
            && (day(&p[1]).is_some() || matches!(p[1].as_str(), "week" | "week's" | "weekend"));
        let dated = p[0] == "on" && super::moment::DAYS.iter().any(|(n, _)| *n == p[1]);
        week || dated
    }) || w
        .iter()
        .any(|x| matches!(x.as_str(), "today" | "tonight" | "tomorrow" | "yesterday"));
    days.len() >= 2 && !one_week
}

/// Words that say a standing thing changed.
const CHANGED: &[&str] = &[
    "switched",
    "switching",
    "changed",
    "changing",
    "moved",
    "moving",
    "instead",
    "now",
    "new",
];

/// Whether a change is told from a moment on: "switched to day shifts from this week",
/// "from next month we'll meet on Thursdays instead". The moment begins it; it is no end.
pub(super) fn changed_from_a_moment(w: &[String]) -> bool {
    let from = w.windows(2).any(|p| {
        matches!(p[0].as_str(), "from" | "starting")
            && matches!(
                p[1].as_str(),
                "this"
                    | "next"
                    | "today"
                    | "tomorrow"
                    | "monday"
                    | "tuesday"
                    | "wednesday"
                    | "thursday"
                    | "friday"
                    | "saturday"
                    | "sunday"
                    | "now"
            )
    }) || w.windows(2).any(|p| p[0] == "as" && p[1] == "of");
    from && w.iter().any(|x| CHANGED.contains(&x.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lifetime::words as w;

    #[test]
    fn several_days_of_a_week_come_round() {
        for standing_ in [
            "i go to the gym monday, wednesday and friday before work",
            "the milkman comes monday wednesday and friday",
            "swimming is tuesdays and thursdays",
        ] {
            assert!(standing(&w(standing_)), "{standing_}");
        }
        for one_week in [
            "i'm off monday and tuesday next week",
            "working this friday and saturday",
            "monday's my day off",
            "doing a two-day first aid course on monday and tuesday",
            "dentist tuesday, haircut thursday",
            "i'm off thursday and friday",
            "the plumber's coming tuesday or wednesday",
            "booked a day off on friday for the dentist",
        ] {
            assert!(!standing(&w(one_week)), "{one_week}");
        }
    }

    #[test]
    fn a_standing_schedule_and_a_moment() {
        for standing_ in [
            "bin day is thursday",
            "school pickup is at 3:15",
            "our team standup is at 9:30",
            "the pool opens at 7",
            "i've got a standing order of £200 into savings on the 1st",
            "the direct debit for the car goes out on the 28th",
            "my day off is monday now",
        ] {
            assert!(standing(&w(standing_)), "{standing_}");
        }
        for once in [
            "my dentist appointment is at 3",
            "the party is saturday",
            "i close at 5 today",
        ] {
            assert!(!standing(&w(once)), "{once}");
        }
    }
}
