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
    // "bin day is Thursday", "bin day's a Thursday".
    let day_is = w.windows(3).any(|p| {
        (p[0] == "day" && p[1] == "is" && weekday(&p[2])) || (p[0] == "day's" && (weekday(&p[1]) || p[1] == "a"))
    });
    let recurring = w.iter().any(|x| RECURRING.contains(&x.trim_end_matches("'s")))
        || w.windows(2).any(|p| {
            matches!(
                (p[0].as_str(), p[1].as_str()),
                ("school", "run") | ("opening", "hours") | ("office", "hours") | ("visiting", "hours")
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
    day_is || recurring || hours
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        text.to_lowercase().split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_standing_schedule_and_a_moment() {
        for standing_ in [
            "bin day is thursday",
            "school pickup is at 3:15",
            "our team standup is at 9:30",
            "the pool opens at 7",
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
