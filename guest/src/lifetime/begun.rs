//! A state begun before it was told: "I became vegan", "we had a baby boy", "I quit
//! smoking in January" (a verb that begins only with a moment beside it), "since 2015".

use chrono::{DateTime, Utc};

use super::moment::iso_date;
use super::{is_number, phrase};
use crate::entities::MONTHS;

/// Verbs, in the past, that began a state which then lasts: "I became vegan", "we
/// adopted a dog", "I started a new job on Monday".
pub(super) const BEGAN: &[&str] = &[
    "became",
    "started",
    "moved",
    "married",
    "engaged",
    "divorced",
    "adopted",
    "bought",
    "joined",
    "graduated",
    "retired",
    "promoted",
    "diagnosed",
    "converted",
    "switched",
    "born",
    "hired",
    "opened",
    "launched",
    "founded",
    "inherited",
    "qualified",
    "emigrated",
    "relocated",
    "separated",
    "enrolled",
    "signed",
    "remortgaged",
    "refixed",
    "refinanced",
];

/// Verbs that begin a lasting state only with a past moment beside them: "I quit smoking
/// in January", but "I got a headache".
pub(super) const BEGAN_WHEN_DATED: &[&str] = &[
    "quit",
    "stopped",
    "passed",
    "gave",
    "finished",
    "left",
    "split",
    "lost",
    "sold",
    "got",
    "become",
    "start",
    // A dose or an amount changed: "doc upped my sertraline to 100mg today".
    "upped",
    "increased",
    "raised",
    "lowered",
    "reduced",
    "doubled",
    "halved",
];

pub(super) fn told_as_begun(w: &[String]) -> bool {
    begun_by_phrase(w)
        || w.iter().enumerate().any(|(i, x)| {
            BEGAN.contains(&x.as_str())
                && !(i > 0
                    && matches!(
                        w[i - 1].as_str(),
                        "getting" | "get" | "be" | "being" | "to" | "will" | "i'll" | "we'll" | "i'm" | "am" | "are"
                    ))
        })
}

/// Beginnings told in a phrase: "we had a baby boy", "Leo turned 5", "I just turned 35".
pub(super) fn begun_by_phrase(w: &[String]) -> bool {
    // A job lost: "I was made redundant today", "got laid off".
    let job_lost = w
        .windows(2)
        .any(|p| matches!((p[0].as_str(), p[1].as_str()), ("made", "redundant") | ("laid", "off")))
        || w.windows(2)
            .any(|p| matches!(p[0].as_str(), "got" | "was" | "been") && matches!(p[1].as_str(), "fired" | "sacked"));
    job_lost
        || w.windows(2).any(|p| p[0] == "turned" && is_number(&p[1]))
        || w.iter().enumerate().any(|(i, x)| {
            x == "had"
                && w[i + 1..(i + 4).min(w.len())]
                    .iter()
                    .any(|n| matches!(n.as_str(), "baby" | "twins" | "boy" | "girl"))
                && !w[..i]
                    .iter()
                    .any(|b| matches!(b.as_str(), "if" | "we'd" | "i'd" | "wish"))
        })
}

/// Whether the words place the fact's start in the past: "two years ago", "since 2015",
/// "last month", "in 2019", "for ten years", "was born".
pub(super) fn past_anchor(w: &[String], said: DateTime<Utc>) -> bool {
    let has = |x: &str| w.iter().any(|v| v == x);
    // A date before the day it was said: "yesterday" as extraction writes it.
    let before = |x: &String| iso_date(x).is_some_and(|d| d < said.date_naive());
    w.iter().any(before)
        || has("ago")
        || has("since")
        || has("yesterday")
        || has("born")
        || phrase(w, &["last", "year"])
        || phrase(w, &["last", "month"])
        || phrase(w, &["last", "week"])
        || phrase(w, &["last", "summer"])
        || phrase(w, &["last", "spring"])
        || phrase(w, &["last", "autumn"])
        || phrase(w, &["last", "winter"])
        || phrase(w, &["this", "year"])
        || w.windows(2)
            .any(|p| p[0] == "in" && p[1].len() == 4 && p[1].parse::<u32>().is_ok_and(|y| y < 2100))
        || w.windows(2).any(|p| p[0] == "in" && MONTHS.contains(&p[1].as_str()))
        || w.windows(3).any(|p| p[0] == "for" && p[2].starts_with("year"))
}
