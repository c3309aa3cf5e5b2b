//! Two facts of the same words whose people trade places: "Jo owes me £50" / "i owe jo
//! £50", "my husband drives me to work" / "i drive my husband to work", "Ravi is my
//! accountant" / "I'm Ravi's accountant". Word for word the same, each says the other's
//! opposite.

use std::collections::BTreeMap;

use super::fact::{Fact, Subject};
use super::words::Word;

/// Whether `a` and `b` tell the same words with their people in each other's places: one
/// is the user's and tells of someone the other is about, who does it to "me"; or a thing
/// is one's own in one ("my accountant") and someone else's in the other ("Ravi's
/// accountant").
pub(super) fn turned_round(a: &Fact, b: &Fact) -> bool {
    done_to_me(a, b) || done_to_me(b, a) || owners_differ(a, b)
}

/// `other` is about someone and does something to "me"; `mine` is the user's and names
/// that someone.
fn done_to_me(mine: &Fact, other: &Fact) -> bool {
    let (Subject::User | Subject::We, Subject::Person(someone)) = (&mine.subject, &other.subject) else {
        return false;
    };
    let to_me = other.words[other.body.min(other.words.len())..]
        .iter()
        .any(|w| matches!(w.low.as_str(), "me" | "us"));
    let names = |w: &Word| {
        let low = w.low.trim_end_matches("'s");
        low == someone.key || someone.name.as_deref() == Some(low) || w.stem == someone.key
    };
    // "i was taught to knit by my grandmother" is "my grandmother taught me to knit".
    let body = &mine.words[mine.body.min(mine.words.len())..];
    let by = |i: usize| body[..i].iter().rev().take(2).any(|w| w.low == "by");
    to_me && (0..body.len()).any(|i| names(&body[i]) && !by(i))
}

/// Whether a thing both name is owned by one in one fact and by another in the other:
/// "my accountant" and "ravi's accountant", "our kids" and "ellie's kids".
fn owners_differ(a: &Fact, b: &Fact) -> bool {
    let (oa, ob) = (owners(a), owners(b));
    oa.iter()
        .any(|(thing, owner)| ob.get(thing).is_some_and(|other| other != owner))
}

/// Each thing told with an owner before it, and the owner: "my" (or "our") for the user's,
/// else the owner's name.
fn owners(f: &Fact) -> BTreeMap<&str, String> {
    let mut out = BTreeMap::new();
    for pair in f.words[f.lead.min(f.words.len())..].windows(2) {
        let owner = match pair[0].low.as_str() {
            "my" | "our" => "my".to_owned(),
            low if low.ends_with("'s") && low.len() > 2 => low.trim_end_matches("'s").to_owned(),
            _ => continue,
        };
        out.insert(pair[1].stem.as_str(), owner);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::turned_round;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn read(text: &str) -> Fact {
        Fact::read(text, &RuleContext::default())
    }

    #[test]
    fn people_who_trade_places_are_told_apart_from_words_in_another_order() {
        for (a, b) in [
            ("my husband drives me to work", "i drive my husband to work"),
            ("Ravi is my accountant", "I'm Ravi's accountant"),
            (
                "Ellie looks after our kids on thursdays",
                "on thursdays we look after ellie's kids",
            ),
            ("i bought my house from my aunt", "my aunt bought her house from me"),
        ] {
            assert!(turned_round(&read(a), &read(b)), "{a} / {b}");
        }
        for (a, b) in [
            ("Dune is my favorite book", "My favorite book is Dune"),
            ("I'm dating Marcus", "Marcus and I are dating"),
            ("my cat's called Biscuit", "I named my cat Biscuit"),
            (
                "my grandmother taught me to knit",
                "i was taught to knit by my grandmother",
            ),
            ("Sofia is my girlfriend", "My girlfriend is Sofia"),
        ] {
            assert!(!turned_round(&read(a), &read(b)), "{a} / {b}");
        }
    }
}
