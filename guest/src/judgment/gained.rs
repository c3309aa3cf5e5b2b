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
    let new = n.body_lows();
    KINDS.iter().any(|(kind, members)| {
        old.iter().any(|w| kind.contains(w))
            && new.windows(3).any(|w| {
                GOT.contains(&w[0])
                    && (members.contains(&w[1])
                        || matches!(w[1], "a" | "an" | "our" | "two" | "another") && members.contains(&w[2]))
            })
    })
}

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
        // A wish, a question, someone else's, or none again.
        assert!(!gains("I don't have any pets", "we might get a puppy"));
        assert!(!gains("I don't have any pets", "should we adopt a kitten?"));
        assert!(!gains("I don't have any pets", "my sister adopted a kitten"));
        assert!(!gains("I don't have any pets", "I don't have a dog either"));
        assert!(!gains("I don't have a car", "we adopted a kitten"));
    }
}
