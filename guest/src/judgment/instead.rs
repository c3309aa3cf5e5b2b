//! A value replaced "instead of" the old one, of the same thing: "change of plan, the
//! wedding is going to be in Cornwall instead of Tuscany" after "We're having the wedding
//! in Tuscany". What follows "instead of" is what the old fact said, and the rest of the
//! old fact (the wedding) is told again. A one-off done instead ("had tea instead of
//! coffee today" after "I drink coffee every morning") tells nothing else of the old fact.

use super::fact::{Fact, same_subject};
use super::words::is_generic;

/// Whether `n` puts a new value in place of what `o` said, of the same thing.
pub(super) fn replaced(o: &Fact, n: &Fact) -> bool {
    if !same_subject(&o.subject, &n.subject) || o.denied || o.past || o.former || n.former {
        return false;
    }
    let words = &n.words[n.body.min(n.words.len())..];
    if words.iter().any(|w| w.asks) {
        return false;
    }
    let Some(at) = words.windows(2).position(|p| p[0].low == "instead" && p[1].low == "of") else {
        return false;
    };
    // What was put aside, up to the end of its clause.
    let aside: Vec<&str> = words[at + 2..]
        .iter()
        .take_while(|w| !w.stop)
        .map(|w| w.stem.as_str())
        .filter(|s| o.content.contains(*s))
        .collect();
    let kept = o
        .content
        .iter()
        .filter(|s| !aside.contains(&s.as_str()) && !is_generic(s) && n.content.contains(*s))
        .count();
    !aside.is_empty() && kept > 0
}

#[cfg(test)]
mod tests {
    use super::replaced;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn instead(old: &str, new: &str) -> bool {
        let ctx = RuleContext::default();
        replaced(&Fact::read(old, &ctx), &Fact::read(new, &ctx))
    }

    #[test]
    fn a_value_put_in_place_of_the_old_one() {
        assert!(instead(
            "We're having the wedding in Tuscany",
            "change of plan, the wedding is going to be in Cornwall instead of Tuscany"
        ));
        assert!(instead(
            "My book club meets on Tuesdays",
            "book club meets on Wednesdays now instead of Tuesdays"
        ));
        // A one-off in place of a habit, and another thing.
        assert!(!instead(
            "I drink coffee every morning",
            "had tea instead of coffee today"
        ));
        assert!(!instead("I drive to work", "taking the bus instead of driving today"));
        assert!(!instead(
            "We're having the wedding in Tuscany",
            "my sister's having hers in Cornwall instead of Tuscany"
        ));
    }
}
