//! A change told of someone the old fact does not name: "Jess stopped going to the gym"
//! after "I go to the gym on Mondays". Told without a subject, a change is the teller's
//! ("stopped going to the gym"); a capitalised word before its verb is someone else, unless
//! the old fact holds it ("Invisalign fitted today!" after "I'm looking into Invisalign").

use super::fact::{Fact, NAME_VERBS, PASTS, Subject, tells_of_the_teller};
use super::words::{CHANGE_MARKERS, FILLER, FUNCTION, is_generic};

/// Words that open a sentence capitalised and name nobody: replies (beside the filler
/// skipped before), and people told of by no name.
const NOBODY: &[&str] = &[
    "nah",
    "yep",
    "nope",
    "omg",
    "wow",
    "ugh",
    "hmm",
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

/// Endings of nouns that name no one: "Redundancy confirmed", "Application approved".
const NOUN_ENDINGS: &[&str] = &["cy", "tion", "sion", "ment", "ness", "ity", "ance", "ence"];

/// Whether `n` tells a change of someone named by a capitalised word the user's own fact
/// `o` does not hold, and says nothing of the teller ("I", "my", "we", ...; "mine" is
/// often the teller's beside someone else's: "next to mine").
pub(super) fn someone_elses(o: &Fact, n: &Fact) -> bool {
    if !matches!(o.subject, Subject::User | Subject::We) || !matches!(n.subject, Subject::User) {
        return false;
    }
    let first_person = tells_of_the_teller(&n.words);
    let rest = &n.words[n.lead.min(n.words.len())..];
    let Some(mut at) = rest.iter().position(|w| !FILLER.contains(&w.low.as_str())) else {
        return false;
    };
    // A word of fondness before the name: "old Bill gave up his allotment next to mine"
    // (not "new Boardman arrived").
    if matches!(rest[at].low.as_str(), "old" | "little" | "poor" | "young" | "dear")
        && rest.get(at + 1).is_some_and(|w| w.cap)
    {
        at += 1;
    }
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
        && !NOUN_ENDINGS.iter().any(|e| low.ends_with(e))
        && !PASTS.contains(&low)
        && !NAME_VERBS.contains(&low)
        && !o.words.iter().any(|w| w.low == low || w.stem == name.stem);
    // A verb that ends its clause tells a thing's state: "Visa approved, moved to Toronto".
    let told = !verb.stop
        && ((verb.low.chars().count() > 4 && verb.low.ends_with("ed")) || PASTS.contains(&verb.low.as_str()));
    !first_person && a_name && told
}

#[cfg(test)]
mod tests {
    use super::super::{Verdict, judge};
    use crate::supersession::RuleContext;

    /// Pairs a review of these rules put to them: someone else's news, told with an aside
    /// first, through "told me", as a guess, or of a partner's friend, keeps the user's fact;
    /// the user's own change after an aside still replaces it.
    #[test]
    fn someone_elses_news_in_other_shapes_keeps_the_users_fact() {
        let me = RuleContext::default();
        for (old, new) in [
            ("I work at Tesco", "Dad told me he's retired"),
            ("I smoke", "My sister told me she quit smoking"),
            ("I smoke", "My doctor told me to give up smoking"),
            (
                "I take the bus to work",
                "Weird, I heard Tom doesn't take the bus anymore",
            ),
            ("Chloe is my wife's best friend", "My wife and I split up"),
            ("My brother lives in Leeds", "I think my brother moved to York"),
            (
                "I work at Barclays",
                "Redundancy confirmed, last day at Barclays was Friday",
            ),
            (
                "I've got an allotment at the Elm Road site",
                "old Bill gave up his allotment next to mine",
            ),
            (
                "I'm learning Spanish on Duolingo",
                "kate gave up on duolingo, she lost her streak and rage quit",
            ),
        ] {
            assert_ne!(judge(old, new, &me), Verdict::Change, "{old:?} / {new:?}");
        }
        for (old, new) in [
            ("I smoke", "Mate, I quit smoking"),
            ("I smoke", "Quit smoking at last, since my wife kept begging me to"),
            ("I go to the gym on Mondays", "stopped going to the gym"),
        ] {
            assert_eq!(judge(old, new, &me), Verdict::Change, "{old:?} / {new:?}");
        }
    }

    /// An ending is looked for by the thing it ends; someone else's by nothing.
    #[test]
    fn an_ending_is_looked_for_by_its_thing() {
        let terms = super::super::candidate_terms("Gary and I quit the club after the row with the chair");
        assert!(terms.iter().any(|t| t == "club"), "{terms:?}");
        assert!(super::super::candidate_terms("my sister quit her job").is_empty());
    }
}
