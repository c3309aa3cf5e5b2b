//! A doing told as now, without its subject: "queuing at Tesco, it's heaving", "running 10
//! mins late for the standup", "crashing on my mate's sofa while they fix the damp". Of
//! the labelled facts that open with a verb in "-ing", nearly all pass; those that last say
//! so with a habit's words ("every other Tuesday", read before this) or a span of months
//! or years ("learning Japanese, been at it about 18 months").

use super::is_number;

/// Words in "-ing" that are no doing: things, times, people.
const NOT_DOINGS: &[&str] = &[
    "morning",
    "evening",
    "something",
    "nothing",
    "anything",
    "everything",
    "thing",
    "spring",
    "string",
    "sibling",
    "wedding",
    "building",
    "ceiling",
    "pudding",
    "darling",
    "during",
    "king",
    "ring",
    "wing",
    "bring",
    "sing",
    "sting",
    "swing",
    "ping",
    "bling",
    "ding",
];

/// Whether the words count minutes or hours up to now: "been on hold with HMRC for 40
/// mins now". A span that short is of the moment; "I meditate for 20 minutes" without
/// "now" is a habit's.
pub(super) fn minutes_up_to_now(w: &[String]) -> bool {
    w.iter().any(|x| x == "now")
        && w.windows(3).any(|p| {
            p[0] == "for"
                && (is_number(&p[1]) || matches!(p[1].as_str(), "an" | "a"))
                && matches!(
                    p[2].as_str(),
                    "min" | "mins" | "minutes" | "minute" | "hour" | "hours" | "hrs" | "hr"
                )
        })
}

/// Whether the words open with a doing told as now, and tell no span of months or years.
pub(super) fn told_as_now(w: &[String]) -> bool {
    let Some(first) = w.first() else {
        return false;
    };
    let doing = first.len() >= 6 && first.ends_with("ing") && !NOT_DOINGS.contains(&first.as_str());
    let long = w.windows(2).any(|p| {
        (is_number(&p[0]) || matches!(p[0].as_str(), "many" | "several" | "few"))
            && matches!(p[1].as_str(), "months" | "years")
    }) || w.iter().any(|x| x == "ages");
    doing && !long
}

#[cfg(test)]
mod tests {
    use super::{minutes_up_to_now, told_as_now};
    use crate::lifetime::words as w;

    #[test]
    fn a_doing_told_as_now_passes_and_one_of_years_lasts() {
        for now in ["queuing at Tesco, it's heaving", "running 10 mins late for the standup"] {
            assert!(told_as_now(&w(now)), "{now}");
        }
        assert!(minutes_up_to_now(&w("been on hold with HMRC for 40 mins now")));
        assert!(!minutes_up_to_now(&w("I meditate for 20 minutes every morning")));
        for not in [
            "learning Japanese, been at it about 18 months",
            "morning runs are my thing",
            "I'm queuing at Tesco",
            "sing in a choir on Thursdays",
        ] {
            assert!(!told_as_now(&w(not)), "{not}");
        }
    }
}
