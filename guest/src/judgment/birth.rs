//! A birth ends the pregnancy before it: "We had the baby! A little girl" or "my wife gave
//! birth to a boy on Tuesday" after "My wife is pregnant". Whose pregnancy a birth ends is
//! read loosely within the household (the user, "we", a partner) and strictly outside it
//! ("my sister had her baby" ends only the sister's).

use super::fact::{Fact, Subject, same_subject};
use super::slots::PARTNERS;
use super::words::stem;

/// Whether `n` tells the birth that ends the pregnancy `o` tells.
pub(super) fn ends_pregnancy(o: &Fact, n: &Fact) -> bool {
    let asks = |f: &Fact| f.words.iter().any(|w| w.asks);
    if o.denied || o.former || o.past || o.wish || n.denied || n.wish || asks(o) || asks(n) {
        return false;
    }
    if !pregnant(o) || !born(n) {
        return false;
    }
    let household = |f: &Fact| match &f.subject {
        Subject::User | Subject::We => true,
        Subject::Person(p) => PARTNERS.iter().any(|w| stem(w) == p.key),
        Subject::Speaker => false,
    };
    // "Our daughter was born": the household's child, whoever's subject it reads as.
    let ours = n.words.first().is_some_and(|w| matches!(w.low.as_str(), "our" | "my"))
        && n.words[1..n.words.len().min(3)]
            .iter()
            .any(|w| BABY.contains(&w.low.as_str()) || CHILD.contains(&w.low.as_str()));
    (household(o) && (household(n) || ours)) || same_subject(&o.subject, &n.subject)
}

/// A pregnancy told as now: "pregnant", or "expecting" a baby.
fn pregnant(f: &Fact) -> bool {
    let lows: Vec<&str> = f.words.iter().map(|w| w.low.as_str()).collect();
    lows.contains(&"pregnant")
        || lows.windows(2).any(|p| p[0] == "expecting" && BABY.contains(&p[1]))
        || lows.windows(3).any(|p| {
            p[0] == "expecting" && matches!(p[1], "a" | "our" | "my" | "her" | "another") && BABY.contains(&p[2])
        })
}

/// A birth told: "was born", "gave birth", "had the baby", "had a little girl", "the baby
/// arrived", "welcomed our son".
pub(super) fn born(f: &Fact) -> bool {
    let lows: Vec<&str> = f.words.iter().map(|w| w.low.as_str()).collect();
    let had = |i: usize| {
        let rest = &lows[i + 1..lows.len().min(i + 4)];
        matches!(lows[i], "had" | "welcomed")
            && matches!(rest.first(), Some(&("the" | "a" | "our" | "her" | "their")))
            && rest.iter().any(|w| BABY.contains(w) || CHILD.contains(w))
    };
    // "I was born in Leeds" is the user's own birth.
    let mine = |i: usize| i > 0 && matches!(lows[i - 1], "i" | "you" | "we");
    (0..lows.len()).any(had)
        || lows.windows(2).enumerate().any(|(i, p)| {
            (matches!(p, ["was" | "were" | "been" | "is" | "just", "born"]) && !mine(i))
                || p == ["gave", "birth"]
                || (BABY.contains(&p[0]) && matches!(p[1], "arrived" | "came"))
        })
}

/// What one expects when expecting a child.
const BABY: &[&str] = &["baby", "twins", "triplets", "first", "second", "third", "boy", "girl"];

/// What one has when the baby comes.
const CHILD: &[&str] = &["son", "daughter", "babies"];

#[cfg(test)]
mod tests {
    use super::ends_pregnancy;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn ends(old: &str, new: &str) -> bool {
        let me = RuleContext::default();
        ends_pregnancy(&Fact::read(old, &me), &Fact::read(new, &me))
    }

    #[test]
    fn a_birth_ends_the_pregnancy_before_it_and_nothing_else() {
        for (old, new) in [
            ("My wife is pregnant", "We had the baby! A little girl"),
            ("My wife is pregnant", "my wife gave birth to a boy on Tuesday"),
            ("I'm pregnant with our second", "Our daughter was born last night"),
            ("We're expecting a baby in May", "the baby arrived early, 6lb 2oz"),
            ("My sister is pregnant", "my sister had her baby yesterday"),
        ] {
            assert!(ends(old, new), "{old} / {new}");
        }
        for (old, new) in [
            ("My sister is pregnant", "We had the baby! A little girl"),
            ("My wife is pregnant", "my sister had her baby yesterday"),
            ("My wife is pregnant", "I was born in Leeds"),
            ("My wife is pregnant", "we'd love to have a baby girl one day"),
            ("I was pregnant with Tom in 2019", "Tom was born in March 2020"),
        ] {
            assert!(!ends(old, new), "{old} / {new}");
        }
    }
}
