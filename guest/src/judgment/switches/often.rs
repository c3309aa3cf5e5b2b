//! How often one does a routine, told again with another rate: "gym's down to once a week"
//! after "I go to the gym three times a week", "we've gone down to fortnightly sessions"
//! after "I see my therapist every week". The routine is the same when the two share a
//! telling word, or when the new one names none but its sessions ("up to 5 a week now").

use super::super::fact::{Fact, Subject};
use super::super::words::{is_frame, is_generic};
use super::{ONE_OFFS, PLANS, has};

/// Whether `n` tells the routine of `o` at another rate, as news.
pub(in crate::judgment) fn new_rate(o: &Fact, n: &Fact) -> bool {
    let (old, new) = (lows(o), lows(n));
    let (Some(was), Some(is)) = (rate(&old), rate(&new)) else {
        return false;
    };
    let teller = |f: &Fact| match &f.subject {
        Subject::User | Subject::We => true,
        // "guitar's fortnightly now": the "'s" of the routine read it as someone.
        Subject::Person(p) => p.name.is_none() && o.words.iter().any(|w| w.stem == p.key),
        Subject::Speaker => false,
    };
    if was == is || !matches!(o.subject, Subject::User | Subject::We) || !teller(n) {
        return false;
    }
    if o.past || o.former || o.wish || n.words.iter().any(|w| w.asks) {
        return false;
    }
    // "once a month" and "every second week" are rates here, not one-offs.
    let once = ONE_OFFS
        .iter()
        .filter(|p| !matches!(**p, "once a month" | "second"))
        .any(|p| has(&new, p));
    if once || PLANS.iter().any(|p| has(&new, p)) || !NEWS.iter().any(|p| has(&new, p)) {
        return false;
    }
    // The same routine: a word of it shared, or the new one told by its sessions alone
    // ("up to 5 sessions a week now"); a rate told of nothing ("down to once a week now")
    // is no routine's.
    let (a, b) = (routine(o), routine(n));
    a.iter().any(|w| b.contains(w)) || !b.is_empty() && b.iter().all(|w| SESSIONS.contains(&w.as_str()))
}

/// Words that tell a rate as changed.
const NEWS: &[&str] = &[
    "now",
    "these days",
    "anymore",
    "down to",
    "up to",
    "only",
    "lately",
    "nowadays",
    "back to",
    "gone",
    "since",
];

/// What a routine is counted in, when the new fact names nothing else.
const SESSIONS: &[&str] = &[
    "session", "sessions", "lesson", "lessons", "class", "classes", "time", "times",
];

/// The rate a text tells, as one string: "daily", "3/week", "fortnightly".
fn rate(lows: &[&str]) -> Option<String> {
    let at = |p: &'static str| has(lows, p);
    for (said, rate) in [
        ("every day", "daily"),
        ("every morning", "daily"),
        ("every night", "daily"),
        ("every evening", "daily"),
        ("each day", "daily"),
        ("daily", "daily"),
        ("everyday", "daily"),
        ("fortnightly", "fortnightly"),
        ("every other week", "fortnightly"),
        ("every 2 weeks", "fortnightly"),
        ("every fortnight", "fortnightly"),
        ("once a fortnight", "fortnightly"),
        ("monthly", "monthly"),
        ("once a month", "monthly"),
        ("every month", "monthly"),
        ("twice a month", "2/month"),
        ("once a week", "1/week"),
        ("every week", "1/week"),
        ("weekly", "1/week"),
        ("twice a week", "2/week"),
    ] {
        if at(said) {
            return Some(rate.to_owned());
        }
    }
    // "3 times a week", "5 sessions a week", "4 x a week", "every Sunday".
    (0..lows.len())
        .find_map(|i| {
            let n: u32 = lows[i].parse().ok()?;
            let per = |k: usize| lows.get(k).is_some_and(|x| matches!(*x, "a" | "per" | "each"));
            let week = |k: usize| lows.get(k) == Some(&"week");
            let unit = lows
                .get(i + 1)
                .is_some_and(|x| matches!(*x, "times" | "x" | "sessions" | "days" | "lessons" | "classes" | "runs"));
            (per(i + 1) && week(i + 2) || unit && per(i + 2) && week(i + 3)).then(|| format!("{n}/week"))
        })
        .or_else(|| {
            lows.windows(2)
                .any(|w| w[0] == "every" && crate::entities::WEEKDAYS.contains(&w[1].trim_end_matches('s')))
                .then(|| "1/week".to_owned())
        })
}

/// The telling words of a routine: what is done, not how often or when.
fn routine(f: &Fact) -> Vec<String> {
    f.words
        .iter()
        .map(|w| w.stem.split('#').next().unwrap_or("").to_owned())
        .filter(|s| !s.is_empty() && !is_generic(s) && !is_frame(s) && s.parse::<f32>().is_err())
        // A weekday ("every Sunday"), not "friend" or "wedding".
        .filter(|s| {
            !crate::entities::WEEKDAYS
                .iter()
                .any(|d| s.starts_with(&d[..d.len() - 1]))
        })
        .filter(|s| {
            !matches!(
                s.as_str(),
                "every"
                    | "day"
                    | "daily"
                    | "morn"
                    | "morning"
                    | "night"
                    | "even"
                    | "evening"
                    | "week"
                    | "weekly"
                    | "tim"
                    | "time"
                    | "times"
                    | "onc"
                    | "once"
                    | "twic"
                    | "twice"
                    | "fortnight"
                    | "fortnightly"
                    | "month"
                    | "monthly"
                    | "other"
                    | "down"
                    | "go"
                    | "gon"
                    | "gone"
                    | "do"
                    | "doing"
            )
        })
        .collect()
}

fn lows(f: &Fact) -> Vec<&str> {
    f.words.iter().map(|w| w.low.as_str()).collect()
}
