//! Living alone ends when someone moves in: "my mum's moved in with us" or "Tom and I
//! moved in together" after "I live alone". Whoever moves, the fact of the user's
//! household changed; the two tellings share no words but "live".

use super::fact::Fact;

/// Whether `n` tells a move into the user's home, or of the user into someone's, that
/// ends `o`'s living alone.
pub(super) fn ends_living_alone(o: &Fact, n: &Fact) -> bool {
    let asks = |f: &Fact| f.words.iter().any(|w| w.asks);
    if o.denied || o.former || o.past || n.denied || n.wish || asks(o) || asks(n) {
        return false;
    }
    let old: Vec<&str> = o.words.iter().map(|w| w.low.as_str()).collect();
    let alone = old
        .windows(2)
        .any(|p| matches!(p[0], "live" | "lives" | "living") && matches!(p[1], "alone" | "solo" | "by" | "on"))
        && old.iter().any(|w| matches!(*w, "alone" | "solo" | "myself" | "own"));
    alone && matches!(old.first(), Some(&("i" | "i'm" | "i've"))) && moves_in(n)
}

/// Whether a fact tells of someone moving in with the user, or of the user moving in with
/// someone: the words to look for a fact of living alone by ([`super::candidate_terms`]).
pub(super) fn moves_in(n: &Fact) -> bool {
    let new: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    new.iter().enumerate().any(|(i, w)| {
        if !matches!(*w, "moved" | "moving") || new.get(i + 1) != Some(&"in") {
            return false;
        }
        let by_me = new[i.saturating_sub(2)..i].iter().any(|b| matches!(*b, "i" | "we"));
        match (new.get(i + 2).copied(), new.get(i + 3).copied()) {
            (Some("together"), _) => true,
            (Some("with"), Some("me" | "us")) => true,
            (Some("with"), Some(_)) => by_me,
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::ends_living_alone;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn ends(old: &str, new: &str) -> bool {
        let me = RuleContext::default();
        ends_living_alone(&Fact::read(old, &me), &Fact::read(new, &me))
    }

    #[test]
    fn someone_moving_in_ends_living_alone_and_nothing_else() {
        for (old, new) in [
            ("I live alone", "my mum's moved in with us"),
            (
                "I live on my own in a flat in Hull",
                "Tom and I moved in together last month",
            ),
            ("I live by myself", "my brother is moving in with me"),
            ("I live alone", "I moved in with my girlfriend"),
        ] {
            assert!(ends(old, new), "{old} / {new}");
        }
        for (old, new) in [
            ("I live alone", "my mum might move in with us"),
            ("I live alone", "my sister moved in with her boyfriend"),
            ("I live alone", "I'd never want anyone moving in with me"),
            ("I love living alone", "Is your mum moving in with you?"),
            ("My dad lives alone", "my mum's moved in with us"),
        ] {
            assert!(!ends(old, new), "{old} / {new}");
        }
    }
}
