//! Whether a fact that holds all of another's telling words keeps them in their place.
//! "I love coffee cake" holds "I love coffee" word for word, and so do "I'm dating a
//! lawyer" and "I'm a lawyer", "I have a cold" and "I hate the cold" (less), yet each
//! says something else. A detail that refines a fact mostly comes after what it refines
//! ("I have a cat called Miso", "I speak Spanish fluently") or stands before it as a
//! modifier ("an older brother"), which the rules cannot tell from "hot dogs"; what they
//! can tell is a new verb before it, a compound made of it, and an owner made of it.

use std::collections::BTreeSet;

use super::fact::Fact;
use super::words::{Word, is_frame, is_generic};
use crate::entities::WEEKDAYS;

/// Whether `big`'s telling words that `small` lacks only add to what `small` says. Not
/// when, before the first word they share, `big` tells something being done ("I'm dating
/// a lawyer") or a feeling where `small` tells having ("I hate the cold" / "I have a
/// cold"); nor when a shared word that ends what `small` says is followed in `big` by a
/// noun that makes a compound of it ("coffee cake", "cold feet"), or becomes an owner
/// ("an accountant's worst nightmare").
pub(super) fn kept_in_place(small: &Fact, big: &Fact) -> bool {
    let words = &big.words[big.body.min(big.words.len())..];
    let told = &small.words[small.body.min(small.words.len())..];
    let number = |w: &Word| w.low.chars().all(|c| c.is_ascii_digit());
    let telling = |w: &Word| !is_frame(&w.low) && (big.content.contains(&w.stem) || number(w));
    let shared = |w: &Word| small.content.contains(&w.stem) || (number(w) && told.iter().any(|t| t.low == w.low));
    // Where what `small` says begins in `big`: its first shared word that is no common
    // verb ("I love dogs" / "I love hot dogs"), else its first shared word.
    let first = (0..words.len())
        .find(|&i| telling(&words[i]) && shared(&words[i]) && !is_generic(&words[i].stem))
        .or_else(|| (0..words.len()).find(|&i| telling(&words[i]) && shared(&words[i])))
        .unwrap_or(words.len());
    // "my grandparents raised me" is not more of in "my grandparents raised my dad": what
    // was done to the teller was done to someone else.
    // ("for me", "to me" tell no one done to; "us" may be the country.)
    let to_me = |words: &[Word]| {
        words.windows(2).any(|p| {
            p[1].low == "me"
                && !matches!(
                    p[0].low.as_str(),
                    "for" | "to" | "with" | "at" | "by" | "from" | "of" | "about" | "like" | "than" | "on"
                )
        })
    };
    if to_me(told) && !to_me(words) {
        return false;
    }
    // "I'm from Leeds" is where one comes from; "I met my wife in Leeds" holds the place
    // and tells something else of it.
    let origin = told
        .windows(2)
        .any(|p| p[0].low == "from" && small.content.contains(&p[1].stem));
    if origin && !words.iter().any(|w| w.low == "from") {
        return false;
    }
    let mut checked: BTreeSet<&str> = BTreeSet::new();
    for (i, w) in words.iter().enumerate() {
        if !telling(w) {
            continue;
        }
        if shared(w) {
            if !checked.insert(&w.stem) {
                continue;
            }
            // A noun after it that `small` lacks: what makes a compound or an owner of it. The
            // cheap test first; the rest reads `told` again.
            let head = words
                .get(i + 1)
                .is_some_and(|next| telling(next) && !shared(next) && names_a_thing(next));
            if !head {
                continue;
            }
            // "I'm an accountant's worst nightmare" is no accountant.
            // ("Melbourne's where my parents are" is a place, not its owner.)
            if w.low.ends_with("'s") && told.iter().any(|t| t.stem == w.stem && !t.low.ends_with("'s")) {
                return false;
            }
            if !w.stop && !is_generic(&w.stem) && i > 0 && ends_there(told, w) && !told_of_the_subject(words, i) {
                return false;
            }
        } else if i < first && (begun(words, i, told) || feels(w) && told.iter().any(has)) {
            return false;
        }
    }
    true
}

/// Whether the word at `i` is a verb in "-ing" after "am", "is" or "are": what the fact
/// tells is being done ("I'm dating a lawyer" is no lawyer).
fn begun(words: &[Word], i: usize, told: &[Word]) -> bool {
    let Some(base) = words[i].low.strip_suffix("ing") else {
        return false;
    };
    i.checked_sub(1)
        .is_some_and(|j| matches!(words[j].low.as_str(), "am" | "is" | "are" | "was" | "were" | "been"))
        // "I've been working" tells what "I've worked" does.
        && !told.iter().any(|t| base.len() > 2 && t.low.starts_with(base))
}

/// Whether the word tells how one feels about something: "I hate the cold" is not "I
/// have a cold".
fn feels(w: &Word) -> bool {
    matches!(
        w.low.as_str(),
        "like"
            | "likes"
            | "love"
            | "loves"
            | "hate"
            | "hates"
            | "enjoy"
            | "enjoys"
            | "adore"
            | "adores"
            | "dislike"
            | "dislikes"
            | "prefer"
            | "prefers"
            | "miss"
            | "misses"
    )
}

/// Whether the word at `i` modifies what follows "am", "is" or "a": "I'm a self-employed
/// electrician" is self-employed still, as "I run a vegan bakery" is not vegan.
fn told_of_the_subject(words: &[Word], i: usize) -> bool {
    let mut before = words[..i].iter().rev().skip_while(|w| !is_frame(&w.low) && !w.stop);
    let mut next = before.next();
    if next.is_some_and(|w| matches!(w.low.as_str(), "a" | "an")) {
        next = before.next();
    }
    next.is_some_and(|w| matches!(w.low.as_str(), "am" | "is" | "are" | "was" | "were"))
}

/// Whether the word tells of having: "have", "has", "got".
fn has(w: &Word) -> bool {
    matches!(w.low.as_str(), "have" | "has" | "got" | "had")
}

/// Whether `w` (as `big` writes it) ends what `told` says as a thing: written the same,
/// after a word that is no subject ("a cold", "love coffee"; not "I knit"), and last in
/// its clause or before a time ("a laptop last week").
fn ends_there(told: &[Word], w: &Word) -> bool {
    let Some(at) = told.iter().position(|t| t.stem == w.stem) else {
        return false;
    };
    // A verb ("I knit", "I'm studying") takes an object, it makes no compound.
    let after_subject = at.checked_sub(1).is_none_or(|j| {
        let before = told[j].low.as_str();
        matches!(before, "i" | "we" | "you" | "he" | "she" | "they" | "to" | "not" | "do")
            || (told[at].low.ends_with("ing") && matches!(before, "am" | "is" | "are"))
    });
    told[at].low == w.low
        && !after_subject
        && !told[at].joined
        && (told[at].stop
            || told[at + 1..]
                .iter()
                .find(|w| !is_frame(&w.low) || w.stop)
                .is_none_or(|w| is_time(&w.low) || (is_frame(&w.low) && w.stop)))
}

/// Whether a word after a shared one may be the head of a compound: not an adverb, a
/// short word ("eh", "rn"), a conjunction, a number, a common verb, a word of time or a
/// name ("I speak Spanish fluently", "tennis twice a week", "yoga every Monday").
fn names_a_thing(w: &Word) -> bool {
    !(w.low.ends_with("ly")
        || w.low.len() < 3
        || matches!(
            w.low.as_str(),
            "but"
                | "though"
                | "although"
                | "because"
                | "when"
                | "where"
                | "while"
                | "who's"
                | "that's"
                | "which"
                | "whose"
                | "online"
                | "together"
                | "alone"
                | "abroad"
                | "outside"
                | "inside"
        )
        || w.low.chars().any(|c| c.is_ascii_digit())
        || is_generic(&w.stem)
        || is_time(&w.low)
        || w.upper)
}

/// Words of when: a detail of time refines, it makes no compound.
fn is_time(low: &str) -> bool {
    const TIMES: &[&str] = &[
        "weekend",
        "weekends",
        "weekday",
        "weekdays",
        "morning",
        "mornings",
        "evening",
        "evenings",
        "night",
        "nights",
        "afternoon",
        "afternoons",
        "daily",
        "weekly",
        "twice",
        "once",
        "tonight",
        "tomorrow",
        "yesterday",
        "ago",
        "last",
        "next",
        "year",
        "years",
        "month",
        "months",
        "week",
        "weeks",
        "day",
        "days",
        "rn",
    ];
    let day = |d: &str| WEEKDAYS.contains(&d);
    TIMES.contains(&low) || day(low) || low.strip_suffix('s').is_some_and(day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::supersession::RuleContext;

    fn kept(small: &str, big: &str) -> bool {
        let ctx = RuleContext::default();
        kept_in_place(&Fact::read(small, &ctx), &Fact::read(big, &ctx))
    }

    #[test]
    fn a_detail_after_the_fact_keeps_it_in_place() {
        assert!(kept("I have a cat", "I have a cat called Miso"));
        assert!(kept("I speak Spanish", "I speak Spanish fluently"));
        assert!(kept("My sister lives in Berlin", "My sister lives in Berlin, Germany"));
        assert!(kept("I play tennis", "I play tennis twice a week"));
        assert!(kept("I knit", "I knit jumpers for the grandkids"));
        assert!(kept("Zoe and Ben have twins", "Zoe and Ben have twin girls"));
        assert!(kept("I'm Canadian", "im canadian eh"));
        assert!(kept("I'm not into spicy food", "I don't like spicy food"));
        assert!(kept("I'm self-employed", "I'm a self-employed electrician"));
        assert!(kept("I'm studying", "I'm in my second year studying nursing"));
        assert!(kept("I have a son", "I have a son who's 7"));
    }

    #[test]
    fn a_word_before_it_or_a_compound_of_it_moves_it() {
        assert!(!kept("I love coffee", "I love coffee cake"));
        assert!(!kept("I'm a lawyer", "I'm dating a lawyer"));
        assert!(!kept("I have a cold", "I hate the cold"));
        assert!(!kept("I've got a cold", "I've got cold feet about the move"));
        assert!(!kept("I'm an accountant", "I'm an accountant's worst nightmare"));
        assert!(!kept("I'm a doctor", "I'm playing a doctor on TV"));
        assert!(kept(
            "I live in Melbourne",
            "I live in Sydney, Melbourne's where my parents are"
        ));
        assert!(kept(
            "I've worked at the council for 6 years",
            "I've been working at the council for six years"
        ));
    }
}
