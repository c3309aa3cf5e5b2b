//! A habit or an arrangement of months told with words of the present: "these days I
//! cycle to work", "I'm currently learning Japanese", "renting in Hackney for now". The
//! present words are the type's cues for a passing context; the verb says what lasts.
//! "At the moment I'm reading Dune", "right now I'm stuck on the M25" and "currently
//! cooking dinner" still pass.

use super::phrase;

/// Words that place a fact in the present without naming a moment.
pub(super) fn told_as_present(w: &[String]) -> bool {
    w.iter().any(|x| {
        matches!(
            x.as_str(),
            "nowadays" | "lately" | "currently" | "atm" | "rn" | "presently"
        )
    }) || [
        &["these", "days"][..],
        &["at", "the", "moment"],
        &["right", "now"],
        &["for", "now"],
        &["at", "present"],
    ]
    .iter()
    .any(|p| phrase(w, p))
}

/// Whether the words tell a habit ("I cycle to work", "we mostly cook at home") or a
/// pursuit of months ("learning Japanese", "working as a nurse"), not a doing of the
/// moment ("reading Dune", "waiting for the plumber").
pub(super) fn lasts(w: &[String]) -> bool {
    pursuit(w) || simple_present(w)
}

/// Doings that take months: a course, a training, a tenancy, a job.
const PURSUITS: &[&str] = &[
    "learning",
    "studying",
    "training",
    "renting",
    "living",
    "saving",
    "dating",
    "teaching",
    "volunteering",
    "freelancing",
];

fn pursuit(w: &[String]) -> bool {
    w.iter().enumerate().any(|(i, x)| {
        PURSUITS.contains(&x.as_str())
            // "working as a nurse", "working nights", but not "working on the report".
            // "working from home", not "working from a café while the wifi's down".
            || (x == "working"
                && w.get(i + 1).is_some_and(|n| {
                    matches!(
                        n.as_str(),
                        "as" | "at" | "for" | "nights" | "days" | "weekends" | "part-time" | "full-time" | "remotely"
                    ) || n == "from" && w.get(i + 2).is_some_and(|h| h == "home")
                }))
    })
}

/// Words between a subject and its verb that leave the verb a habit: "we mostly cook".
pub(super) const ADVERBS: &[&str] = &[
    "mostly",
    "mainly",
    "usually",
    "generally",
    "normally",
    "now",
    "just",
    "only",
    "still",
    "really",
    "actually",
    "also",
    "currently",
    "tend",
    "nowadays",
    "lately",
];

/// Verbs in the present that tell a state of the moment, or no verb at all.
const NOT_HABITS: &[&str] = &[
    "am", "is", "are", "was", "were", "have", "has", "had", "can", "can't", "cannot", "will", "would", "could",
    "should", "need", "needs", "want", "wants", "feel", "feels", "think", "hope", "guess", "miss", "got", "do",
    "don't", "did", "didn't", "love", "hate", "like", "wish", "must", "might", "may", "just", "so", "really", "and",
    "but", "to", "the", "a",
];

/// Whether a word ending in "-ed" is a verb in the present ("I feed the cat at 6pm"), not
/// a past ("we agreed to meet after work").
pub(super) fn present_in_eed(word: &str) -> bool {
    matches!(
        word,
        "feed" | "bleed" | "breed" | "speed" | "weed" | "seed" | "heed" | "proceed" | "succeed" | "exceed"
    )
}

/// A subject followed by a verb in the simple present: "I cycle", "she works nights", "I
/// feed the cat".
pub(super) fn simple_present(w: &[String]) -> bool {
    w.iter().enumerate().any(|(i, x)| {
        if !matches!(x.as_str(), "i" | "we" | "they" | "he" | "she") {
            return false;
        }
        let Some(verb) = w[i + 1..].iter().find(|v| !ADVERBS.contains(&v.as_str())) else {
            return false;
        };
        verb.chars().all(char::is_alphabetic)
            && !verb.ends_with("ing")
            && (!verb.ends_with("ed") || present_in_eed(verb))
            && !NOT_HABITS.contains(&verb.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Vec<String> {
        text.to_lowercase().split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn a_verb_of_habit_or_a_pursuit_lasts_and_a_doing_does_not() {
        for lasting in [
            "these days i cycle to work",
            "we mostly cook at home",
            "currently working as a nurse",
            "i'm learning japanese",
        ] {
            assert!(lasts(&w(lasting)), "{lasting}");
        }
        for passing in [
            "i'm reading dune",
            "i feel awful",
            "i'm waiting for the plumber",
            "currently working on the report",
        ] {
            assert!(!lasts(&w(passing)), "{passing}");
        }
    }
}
