//! Whether a new fact may end an old one in words the rules cannot read, so that a
//! language model, when there is one, should be asked: "walked across the stage on
//! saturday, diploma in hand!!" after "I'm a sophomore at Ohio State", "got the keys to my
//! own flat today" after "I still live at my parents'". The two share no word, so the
//! rules call them different; they are news of the same person's life told after a state
//! of it. Only the model can tell a graduation from a day out.

use super::fact::{Fact, same_subject};
use super::history;

/// Words that tell a fact as news of a change.
const NEWS: &[&str] = &[
    "now",
    "anymore",
    "longer",
    "finally",
    "officially",
    "today",
    "yesterday",
    "just",
    "again",
    "tonight",
];

/// Whether `n` is news of the same person's life told after `o`, a state of it: both
/// statements, neither a wish, a plan or history long past, no transcript line, `o` in
/// the present and `n` told in the past or with a word of news.
pub(super) fn may_end(o: &Fact, n: &Fact) -> bool {
    let asks = |f: &Fact| f.words.iter().any(|w| w.asks);
    if n.speaker.is_some() || n.wish || asks(n) || history::long_ago(n) || n.content.is_empty() {
        return false;
    }
    // Told in the past ("walked", "got", "passed") or with a word of news.
    let told_as_news = n.past
        || n.words[n.body.min(n.words.len())..].iter().any(|w| {
            NEWS.contains(&w.low.as_str())
                || (w.low.len() > 4 && w.low.ends_with("ed"))
                || matches!(
                    w.low.as_str(),
                    "got"
                        | "went"
                        | "left"
                        | "sold"
                        | "bought"
                        | "came"
                        | "had"
                        | "was"
                        | "were"
                        | "lost"
                        | "won"
                        | "quit"
                        | "broke"
                        | "split"
                        | "began"
                        | "became"
                )
        });
    if !told_as_news {
        return false;
    }
    o.speaker.is_none()
        && !o.wish
        && !o.past
        && !o.former
        && !asks(o)
        && !o.content.is_empty()
        && same_subject(&o.subject, &n.subject)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::supersession::RuleContext;

    fn may(old: &str, new: &str) -> bool {
        let me = RuleContext::default();
        may_end(&Fact::read(old, &me), &Fact::read(new, &me))
    }

    #[test]
    fn news_of_ones_own_life_may_end_a_state_of_it() {
        assert!(may(
            "I'm a sophomore at Ohio State",
            "walked across the stage on saturday, diploma in hand!!"
        ));
        assert!(may("I still live at my parents'", "got the keys to my own flat today"));
        assert!(!may("I'm at college", "my roommate just graduated and moved out"));
        assert!(!may("I'm a student", "can't wait to graduate next summer"));
        assert!(!may("I'm married", "I got divorced from my first husband back in 2010"));
        assert!(!may("Ana: I live in Porto", "Ana: we went to the beach today"));
        assert!(!may("I'm a student", "should I drop out?"));
    }
}
