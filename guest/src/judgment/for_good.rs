//! A routine changed or ended for good, told in words that share only its thing: "Tom and
//! I carpool every day now, so no more bus for me" after "I take the bus to work", "from
//! now on it's oat milk for me" after "I drink cow's milk", "transferred to the Bristol
//! office permanently" after "I work in the London office". The words of "for good"
//! ([`crate::lifetime::told_for_good`]) say the old way is over; a break of a day or a
//! month ("not drinking anymore tonight") is none.

use super::fact::{Fact, same_subject};
use super::words::{is_generic, is_light_verb, stem};
use crate::supersession::RuleContext;

/// Whether `n` (whose words are `new`) ends `o` for good. Whose the change is, is read
/// from the clause that tells it: "Mum's moved in with us, so no more Sunday phone calls"
/// is the teller's; "my sister doesn't walk her dog anymore" is the sister's.
pub(super) fn ended(o: &Fact, n: &Fact, new: &str, ctx: &RuleContext) -> bool {
    if o.denied || o.past || o.former || o.wish || n.wish {
        return false;
    }
    if !crate::lifetime::told_for_good(new) {
        return false;
    }
    let clauses: Vec<String> = new
        .split([',', ';', '.', '!'])
        .flat_map(|c| c.split(" so "))
        .filter(|c| crate::lifetime::told_for_good(c))
        .map(|c| c.trim().to_owned())
        .collect();
    // "He's retired, so no more early starts for him", "Weird, I heard Tom doesn't take the
    // bus anymore": someone else's (hearsay that opens the fact is read with its subject).
    let someone_elses = clauses.iter().any(|c| {
        let low = c.to_lowercase();
        let words: Vec<&str> = low.split_whitespace().collect();
        words
            .windows(2)
            .any(|p| p[0] == "for" && matches!(p[1], "him" | "her" | "them"))
            || reported(c).is_some_and(|rest| !same_subject(&o.subject, &Fact::read(rest, ctx).subject))
    });
    let mine = same_subject(&o.subject, &n.subject)
        || clauses
            .iter()
            .any(|c| same_subject(&o.subject, &Fact::read(c, ctx).subject));
    if someone_elses || !mine {
        return false;
    }
    let thing = o.content.intersection(&n.content).any(|s| !is_light_verb(s)) || kind_of(o, n);
    // Told again for good ("vegan for good now" after "I'm vegan") says nothing new.
    let news = n.denied
        || n.content.difference(&o.content).any(|s| {
            !matches!(
                s.as_str(),
                "permanent" | "permanently" | "good" | "forward" | "now" | "longer" | "anymore" | "more" | "on"
            )
        });
    thing && news
}

/// Kinds a change for good is told by, and things of each kind a routine names: "I've
/// given up alcohol for good" after "I drink wine with dinner".
const KINDS: &[(&str, &[&str])] = &[
    (
        "alcohol",
        &[
            "wine", "beer", "pint", "gin", "vodka", "whisky", "cider", "prosecco", "drink", "booze",
        ],
    ),
    (
        "booze",
        &["wine", "beer", "pint", "gin", "vodka", "whisky", "cider", "prosecco"],
    ),
    ("caffeine", &["coffee", "tea", "espresso", "latte", "cola", "decaf"]),
    (
        "meat",
        &[
            "chicken", "beef", "pork", "lamb", "steak", "bacon", "burger", "ham", "sausage",
        ],
    ),
    ("dairy", &["milk", "cheese", "butter", "yoghurt", "yogurt", "cream"]),
    ("sugar", &["cake", "sweet", "chocolate", "biscuit", "fizzy", "dessert"]),
    ("social", &["facebook", "instagram", "tiktok", "twitter", "snapchat"]),
];

/// Whether `n` names a kind of which `o` names a thing.
fn kind_of(o: &Fact, n: &Fact) -> bool {
    KINDS
        .iter()
        .any(|(kind, things)| n.content.contains(&stem(kind)) && things.iter().any(|t| o.content.contains(&stem(t))))
}

/// What a clause reports after a frame of hearsay or opinion ("I heard Tom doesn't take the
/// bus anymore": "Tom doesn't take the bus anymore").
fn reported(clause: &str) -> Option<&str> {
    const FRAMES: &[&str] = &[
        "i heard that ",
        "i heard ",
        "i think ",
        "i noticed ",
        "i found out ",
        "i guess ",
        "i reckon ",
        "apparently ",
        "turns out ",
    ];
    let low = clause.to_lowercase();
    // The frames are ASCII: their length in the lower-cased clause is theirs in the clause.
    FRAMES
        .iter()
        .find(|f| low.starts_with(*f))
        .and_then(|f| clause.get(f.len()..))
}

/// The words a change for good may share with the routine it ends, to look for that
/// routine by: a change told so is often not alike it by meaning ("Our old boy can't
/// manage walks anymore" after "I walk the dog twice a day"). `None` for other facts.
pub(super) fn candidate_terms(n: &Fact, text: &str) -> Option<Vec<String>> {
    if !crate::lifetime::told_for_good(text) {
        return None;
    }
    let mut terms: Vec<String> = n.words[n.body.min(n.words.len())..]
        .iter()
        .filter(|w| {
            n.content.contains(&w.stem)
                && w.low.chars().count() > 2
                && w.low.chars().all(char::is_alphabetic)
                && !is_light_verb(&w.stem)
                && !is_generic(&w.stem)
        })
        .map(|w| w.low.clone())
        .collect();
    terms.sort();
    terms.dedup();
    terms.truncate(8);
    Some(terms)
}

#[cfg(test)]
mod tests {
    use super::super::{Verdict, judge};
    use crate::supersession::RuleContext;

    #[test]
    fn a_routine_ended_for_good_and_its_look_alikes() {
        let me = RuleContext::default();
        for (old, new) in [
            (
                "I take the bus to work.",
                "Tom and I carpool every day now, so no more bus for me.",
            ),
            (
                "I call my mum every Sunday.",
                "Mum's moved in with us, so no more Sunday phone calls, I see her every day.",
            ),
            (
                "I work in the London office.",
                "Transferred to the Bristol office permanently as of this month.",
            ),
            (
                "I drink wine with dinner.",
                "I've given up alcohol for good, doctor's orders.",
            ),
        ] {
            assert_eq!(judge(old, new, &me), Verdict::Change, "{old:?} / {new:?}");
        }
        for (old, new) in [
            ("I walk the dog twice a day", "my sister doesn't walk her dog anymore"),
            ("I drink wine with dinner", "no more wine for me this week, detoxing"),
            (
                "I take the bus to work",
                "no more bus for me tonight, getting a taxi home",
            ),
            ("I start work at 6am", "He's retired, so no more early starts for him"),
            (
                "I go to the gym in the mornings",
                "The gym isn't as quiet in the mornings anymore",
            ),
            (
                "I drink wine with dinner",
                "no more alcohol for me this month, dry january",
            ),
            ("I drink wine with dinner", "my dad's given up alcohol for good"),
        ] {
            assert_ne!(judge(old, new, &me), Verdict::Change, "{old:?} / {new:?}");
        }
    }

    /// Hearsay is of whom it reports: Tom's, as the subject is read.
    #[test]
    fn a_change_heard_of_is_someone_elses() {
        use super::super::fact::Fact;
        let me = RuleContext::default();
        let new = "I heard Tom doesn't take the bus anymore, he bought a car";
        let (o, n) = (Fact::read("I take the bus to work", &me), Fact::read(new, &me));
        assert!(!super::ended(&o, &n, new, &me));
        assert_eq!(judge("I take the bus to work", new, &me), Verdict::Different);
    }

    #[test]
    fn a_change_for_good_looks_for_its_routine_by_its_thing() {
        let terms = super::super::candidate_terms(
            "Our old boy can't manage walks anymore, so it's a potter round the garden now",
        );
        assert!(terms.iter().any(|t| t == "walks"), "{terms:?}");
        assert!(super::super::candidate_terms("I'm cold").is_empty());
    }
}
