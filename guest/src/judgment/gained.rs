//! One of a kind gained after none: "we adopted a kitten!!" after "I don't have any pets",
//! "we had a baby girl" after "We don't have kids". The old fact denies having any of a
//! kind; the new one tells of the teller getting one of it.

use super::fact::{Fact, Subject};

/// Kinds one may have none of, and the words of their members.
const KINDS: &[(&[&str], &[&str])] = &[
    (
        &["pet", "pets", "animals"],
        &[
            "dog", "puppy", "pup", "cat", "kitten", "hamster", "rabbit", "bunny", "parrot", "budgie", "tortoise",
            "goldfish", "snake", "lizard", "ferret", "gerbil", "rescue",
        ],
    ),
    (
        &["kids", "children", "child", "kid"],
        &["baby", "son", "daughter", "twins", "boy", "girl"],
    ),
];

/// Words that tell of one gained.
const GOT: &[&str] = &[
    "adopted", "got", "bought", "rescued", "had", "welcomed", "have", "brought",
];

/// Whether `o` denies the teller any of a kind and `n` tells of the teller getting one.
pub(super) fn one_after_none(o: &Fact, n: &Fact) -> bool {
    let teller = |f: &Fact| matches!(f.subject, Subject::User | Subject::We);
    if !o.denied || n.denied || n.wish || n.former || !teller(o) || !teller(n) || n.words.iter().any(|w| w.asks) {
        return false;
    }
    let old = o.body_lows();
    let words = &n.words[n.body.min(n.words.len())..];
    let new: Vec<&str> = words.iter().map(|w| w.low.as_str()).collect();
    // "we had a dog growing up": history; "we got a puppy at work": the office's.
    let elsewhere = [
        "growing up",
        "as a kid",
        "when i was",
        "years ago",
        "used to",
        "at work",
        "at the office",
    ]
    .iter()
    .any(|p| new.join(" ").contains(p));
    if elsewhere {
        return false;
    }
    // The member is the thing got, not a word of another ("a baby blanket"), and not for
    // someone else ("a kitten for my niece").
    let got_one = |k: usize| {
        let next = words.get(k + 1);
        // "a rescue greyhound called Biscuit": the kind, then its name.
        let named_after = words
            .get(k + 2)
            .is_some_and(|w| matches!(w.low.as_str(), "called" | "named"));
        let ends = words[k].stop || next.is_none_or(|n| AFTER_ONE.contains(&n.low.as_str())) || named_after;
        let for_another = (k + 1..new.len().min(k + 4)).any(|f| {
            new[f] == "for"
                && new[f + 1..new.len().min(f + 3)]
                    .iter()
                    .any(|w| OUTSIDE_THE_HOME.contains(&w.trim_end_matches("'s")))
        });
        ends && !for_another
    };
    KINDS.iter().any(|(kind, members)| {
        old.iter().any(|w| kind.contains(w))
            && (0..new.len()).any(|i| {
                GOT.contains(&new[i])
                    && [i + 1, i + 2].into_iter().any(|k| {
                        k < new.len()
                            && members.contains(&new[k])
                            && (k == i + 1 || matches!(new[i + 1], "a" | "an" | "our" | "two" | "another"))
                            && got_one(k)
                    })
            })
    })
}

/// People one gets a pet or a present for who do not live with the teller.
const OUTSIDE_THE_HOME: &[&str] = &[
    "niece",
    "nephew",
    "sister",
    "brother",
    "mum",
    "mom",
    "dad",
    "friend",
    "neighbour",
    "neighbor",
    "cousin",
    "aunt",
    "uncle",
    "gran",
    "grandma",
    "grandad",
    "colleague",
    "boss",
];

/// Words that may follow the one gained: its name, when, and the rest of the news.
const AFTER_ONE: &[&str] = &[
    "called",
    "named",
    "and",
    "last",
    "yesterday",
    "today",
    "this",
    "on",
    "from",
    "her",
    "his",
    "who",
    "so",
    "too",
    "at",
    "in",
    "she",
    "he",
    "it",
    "we",
    "i",
    "finally",
    "girl",
    "boy",
    "for",
];

#[cfg(test)]
mod tests {
    use super::one_after_none;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn gains(old: &str, new: &str) -> bool {
        let ctx = RuleContext::default();
        one_after_none(&Fact::read(old, &ctx), &Fact::read(new, &ctx))
    }

    #[test]
    fn one_gained_after_none_ends_the_none() {
        assert!(gains(
            "I don't have any pets",
            "we adopted a kitten!! her name is Pepper"
        ));
        assert!(gains("No pets for us", "we got a puppy last weekend"));
        assert!(gains("We don't have kids", "we had a baby girl on Tuesday"));
        assert!(gains(
            "I don't have any pets",
            "We adopted a rescue greyhound called Biscuit! First pet ever"
        ));
        // A wish, a question, someone else's, or none again.
        assert!(!gains("I don't have any pets", "we might get a puppy"));
        assert!(!gains("I don't have any pets", "should we adopt a kitten?"));
        assert!(!gains("I don't have any pets", "my sister adopted a kitten"));
        assert!(!gains("I don't have any pets", "I don't have a dog either"));
        assert!(!gains("I don't have a car", "we adopted a kitten"));
        // Another thing, history, the office's, someone else's.
        assert!(!gains("I don't have any kids", "I bought a baby blanket for my niece"));
        assert!(!gains("We don't have pets", "we had a dog growing up"));
        assert!(!gains(
            "We don't have pets",
            "we got a puppy at work, everyone loves him"
        ));
        assert!(!gains("I don't have any pets", "we got a kitten for my niece"));
    }
}
