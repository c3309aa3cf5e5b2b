//! A change told of someone the old fact does not name: "Jess stopped going to the gym"
//! after "I go to the gym on Mondays". Told without a subject, a change is the teller's
//! ("stopped going to the gym"); a capitalised word before its verb is someone else, unless
//! the old fact holds it ("Invisalign fitted today!" after "I'm looking into Invisalign").

use super::fact::{Fact, NAME_VERBS, PASTS, Subject};
use super::words::{CHANGE_MARKERS, FILLER, FUNCTION, is_generic};

/// Words that open a sentence capitalised and name nobody: replies, and people told of
/// by no name.
const NOBODY: &[&str] = &[
    "nah",
    "yeah",
    "yes",
    "yep",
    "nope",
    "ok",
    "okay",
    "lol",
    "omg",
    "wow",
    "well",
    "oh",
    "ugh",
    "hmm",
    "um",
    "update",
    "everyone",
    "everybody",
    "someone",
    "somebody",
    "nobody",
    "anyone",
    "people",
    "it",
    "this",
    "that",
    "there",
    "they",
    "he",
    "she",
    "you",
    "we",
    "i",
];

/// Whether `n` tells a change of someone named by a capitalised word the user's own fact
/// `o` does not hold, and says nothing of the teller ("I", "my", "we", ...).
pub(super) fn someone_elses(o: &Fact, n: &Fact) -> bool {
    if !matches!(o.subject, Subject::User | Subject::We) || !matches!(n.subject, Subject::User) {
        return false;
    }
    let first_person = n.words.iter().any(|w| {
        matches!(
            w.low.as_str(),
            "i" | "me" | "my" | "mine" | "myself" | "we" | "us" | "our" | "ours"
        )
    });
    let rest = &n.words[n.lead.min(n.words.len())..];
    let Some(at) = rest.iter().position(|w| !FILLER.contains(&w.low.as_str())) else {
        return false;
    };
    let (Some(name), Some(verb)) = (rest.get(at), rest.get(at + 1)) else {
        return false;
    };
    let low = name.low.as_str();
    let a_name = name.upper
        && !name.stop
        && low.chars().count() >= 2
        && low.chars().all(char::is_alphabetic)
        && !NOBODY.contains(&low)
        && !FUNCTION.contains(&low)
        && !CHANGE_MARKERS.contains(&low)
        && !is_generic(&name.stem)
        && !(low.ends_with("ed") || low.ends_with("ing") || low.ends_with("ly"))
        && !PASTS.contains(&low)
        && !NAME_VERBS.contains(&low)
        && !o.words.iter().any(|w| w.low == low || w.stem == name.stem);
    let told = (verb.low.chars().count() > 4 && verb.low.ends_with("ed")) || PASTS.contains(&verb.low.as_str());
    !first_person && a_name && told
}
