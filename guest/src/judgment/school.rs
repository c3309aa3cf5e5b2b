//! A child's school changed: "Leo's moved schools, he's at Oakfield Primary since this
//! term" after "my son Leo goes to St Mary's Primary", "aisha started secondary school at
//! Kingsmead this september" after "my daughter Aisha is in year 6 at Parkside Primary".
//! A school is one at a time; one visited, a plan or another child's is not a move.

use super::fact::{Fact, Subject, same_subject};
use super::words::Word;

/// Words that end a school's name: "Oakfield Primary", "St Mary's School".
const SCHOOL_HEADS: &[&str] = &[
    "primary",
    "secondary",
    "school",
    "academy",
    "high",
    "college",
    "prep",
    "grammar",
    "juniors",
    "infants",
    "nursery",
    "preschool",
    "kindergarten",
];

/// Whether `n` tells that the child `o` names as at one school is at another now.
pub(super) fn moved_schools(o: &Fact, n: &Fact) -> bool {
    let Subject::Person(child) = &o.subject else {
        return false;
    };
    if o.denied || o.past || o.former || o.wish || n.wish || n.past && !told_as_moved(n) {
        return false;
    }
    if n.words.iter().any(|w| w.asks) {
        return false;
    }
    // The same child: read as such, or named first in lower case ("aisha started ...").
    let named_first = n
        .words
        .first()
        .is_some_and(|w| child.name.as_deref() == Some(w.low.trim_end_matches("'s")));
    if !(same_subject(&o.subject, &n.subject) || named_first && matches!(n.subject, Subject::User)) {
        return false;
    }
    let Some(old) = school(&o.words[o.body.min(o.words.len())..]) else {
        return false;
    };
    let told = &n.words[n.lead.min(n.words.len())..];
    // The old school named again is history told beside it ("moved from St Mary's").
    if told.iter().any(|w| old.contains(&w.low)) {
        return false;
    }
    told_as_moved(n) && (school(told).is_some() || moved_words(told))
}

/// The words of the school a fact names: the capitalised words before a head ("Oakfield
/// Primary", "St Mary's"), lowercased.
fn school(words: &[Word]) -> Option<Vec<String>> {
    let head = words
        .iter()
        .position(|w| SCHOOL_HEADS.contains(&w.low.as_str()) && w.upper)
        .or_else(|| {
            words.windows(2).position(|p| {
                matches!(p[0].low.as_str(), "primary" | "secondary" | "high")
                    && p[1].low == "school"
                    && words.iter().any(|w| w.cap)
            })
        })?;
    let before: Vec<String> = words[..head]
        .iter()
        .rev()
        .take_while(|w| w.upper && !w.stop)
        .map(|w| w.low.clone())
        .collect();
    if !before.is_empty() {
        return Some(before);
    }
    // "started secondary school at Kingsmead".
    let at = head + words[head..].iter().position(|w| w.low == "at")?;
    let after: Vec<String> = words[at + 1..]
        .iter()
        .take_while(|w| w.upper && !w.stop)
        .map(|w| w.low.clone())
        .collect();
    (!after.is_empty()).then_some(after)
}

/// "moved schools", "changed schools", "new school".
fn moved_words(words: &[Word]) -> bool {
    words.windows(2).any(|p| {
        matches!(p[0].low.as_str(), "moved" | "changed" | "switched" | "new")
            && matches!(p[1].low.as_str(), "schools" | "school")
    })
}

/// Told as a move: "moved schools", "started at", "is at ... now", "since this term".
fn told_as_moved(n: &Fact) -> bool {
    let lows: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    moved_words(&n.words)
        || lows
            .iter()
            .any(|w| matches!(*w, "started" | "starts" | "now" | "since" | "transferred"))
}

#[cfg(test)]
mod tests {
    use super::moved_schools;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn read(text: &str) -> Fact {
        Fact::read(text, &RuleContext::default())
    }

    #[test]
    fn a_child_at_another_school_has_moved() {
        for (old, new) in [
            (
                "my son Leo goes to St Mary's Primary",
                "Leo's moved schools, he's at Oakfield Primary since this term",
            ),
            (
                "my daughter Aisha is in year 6 at Parkside Primary",
                "aisha started secondary school at Kingsmead this september",
            ),
        ] {
            assert!(moved_schools(&read(old), &read(new)), "{old} / {new}");
        }
        for (old, new) in [
            (
                "my son Leo goes to St Mary's Primary",
                "Leo's class went to visit Oakfield Primary for sports day",
            ),
            (
                "my son Leo goes to St Mary's Primary",
                "we're thinking of moving Leo to Oakfield Primary next year",
            ),
            (
                "my son Leo goes to St Mary's Primary",
                "my son Tom is at Oakfield Primary now",
            ),
            (
                "my son Leo goes to St Mary's Primary",
                "Leo's teacher at St Mary's Primary is new this term",
            ),
        ] {
            assert!(!moved_schools(&read(old), &read(new)), "{old} / {new}");
        }
    }
}
