//! A value replaced "instead of" the old one, of the same thing: "change of plan, the
//! wedding is going to be in Cornwall instead of Tuscany" after "We're having the wedding
//! in Tuscany". What follows "instead of" is what the old fact said, and the rest of the
//! old fact (the wedding) is told again. A one-off done instead ("had tea instead of
//! coffee today" after "I drink coffee every morning") tells nothing else of the old fact.

use super::fact::{Fact, same_subject};
use super::words::is_generic;

/// Whether `n` puts a new value in place of what `o` said, of the same thing.
pub(super) fn replaced(o: &Fact, n: &Fact) -> bool {
    // A wish ("we might do the shop at Aldi instead of Tesco") or a past one-off ("did the
    // shop at Aldi instead of Tesco this week") keeps the old way.
    if !same_subject(&o.subject, &n.subject) || o.denied || o.past || o.former || n.former || n.past {
        return false;
    }
    let words = &n.words[n.body.min(n.words.len())..];
    let lows: Vec<&str> = words.iter().map(|w| w.low.as_str()).collect();
    let once = lows.windows(2).any(|p| {
        matches!(
            p,
            ["this", "week" | "weekend" | "time" | "once" | "morning" | "evening"]
                | ["for", "once"]
                | ["just", "today"]
        )
    }) || lows.iter().any(|w| matches!(*w, "today" | "tonight" | "yesterday"));
    let tentative = lows.iter().any(|w| {
        matches!(
            *w,
            "might" | "may" | "maybe" | "thinking" | "considering" | "could" | "probably" | "perhaps" | "hoping"
        )
    });
    if words.iter().any(|w| w.asks) || once || tentative {
        return false;
    }
    let Some(at) = words.windows(2).position(|p| p[0].low == "instead" && p[1].low == "of") else {
        return false;
    };
    // What was put aside, up to the end of its clause (the word the mark follows included).
    let end = words[at + 2..]
        .iter()
        .position(|w| w.stop)
        .map_or(words.len(), |k| at + 2 + k + 1);
    let aside: Vec<&str> = words[at + 2..end]
        .iter()
        .map(|w| w.stem.as_str())
        // "instead of 8" puts aside "8am".
        .filter(|s| {
            o.content.contains(*s)
                || s.chars().all(|c| c.is_ascii_digit())
                    && o.content
                        .iter()
                        .any(|c| c.starts_with(*s) && c[s.len()..].chars().all(char::is_alphabetic))
        })
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
        assert!(instead(
            "We're having the wedding in Tuscany",
            "the wedding is going to be in Cornwall instead of Tuscany!"
        ));
        // A wish, and a one-off.
        assert!(!instead(
            "We do our food shop at Tesco",
            "we might do the food shop at Aldi instead of Tesco from next month"
        ));
        assert!(!instead(
            "We do our food shop at Tesco",
            "did the food shop at Aldi instead of Tesco this week"
        ));
    }
}
