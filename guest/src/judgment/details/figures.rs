//! Numbers as values: a phone's digits however spaced, and the same words told again with
//! another number ("I weigh 84kg these days" after "I weigh 90 kg").

use std::collections::BTreeSet;

use super::super::fact::{Fact, is_ignored};
use super::super::slots::is_time;

/// Whether `n` gives what `o` gives another number, in the same words: "I weigh 84kg these
/// days" after "I weigh 90 kg", "Sorry, the gate code is 4521" after "... 4512". The
/// number must be a value, told after a verb or "at" ("lands at 6pm", "is 4512", "have 2
/// cats"): a number that names a thing ("Table 4 is booked", "Room 101 has the
/// projector") is another thing, not another value.
pub(in crate::judgment) fn another_number(o: &Fact, n: &Fact) -> bool {
    let (a, b) = (figures(o), figures(n));
    match (a, b) {
        (Some((words_a, numbers_a)), Some((words_b, numbers_b))) => {
            words_a == words_b && numbers_a.len() == numbers_b.len() && numbers_a != numbers_b
        }
        _ => false,
    }
}

/// Whether `n` gives another number where `o` gave one and denies `o`'s, all else the
/// same: "my house number is 24 not 42" after "my house number is 42".
pub(in crate::judgment) fn corrected_number(o: &Fact, n: &Fact) -> bool {
    let old: Vec<(&str, &str)> = o.content.iter().filter_map(|s| s.split_once('#')).collect();
    let [(at, value)] = old.as_slice() else {
        return false;
    };
    let denied = n.content.contains(&format!("not#{value}"));
    let another = n
        .content
        .iter()
        .filter_map(|s| s.split_once('#'))
        .any(|(w, v)| w == *at && v != *value);
    let rest = |c: &BTreeSet<String>| -> BTreeSet<String> { c.iter().filter(|s| !s.contains('#')).cloned().collect() };
    denied && another && rest(&o.content) == rest(&n.content)
}

/// A fact's telling stems without its numbers, and its numbers as values (see
/// [`another_number`]); `None` when it holds no number or one that names a thing.
fn figures(fact: &Fact) -> Option<(BTreeSet<String>, Vec<String>)> {
    let words = &fact.words[fact.body.min(fact.words.len())..];
    let mut stems = BTreeSet::new();
    let mut numbers = Vec::new();
    let mut before: Option<&str> = None;
    for w in words {
        let low = w.low.as_str();
        let digits = low.trim_end_matches(|c: char| c.is_alphabetic());
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || c == '.') {
            if !before.is_some_and(|b| VALUE_AFTER.contains(&b)) {
                return None;
            }
            numbers.push(digits.to_owned());
            // "84kg", "7pm": the unit is a word of the fact.
            let unit = &low[digits.len()..];
            if !unit.is_empty() {
                stems.insert(unit.to_owned());
            }
            continue;
        }
        before = Some(low);
        if !is_ignored(w) && !is_time(low) && low != "these" {
            stems.insert(w.stem.clone());
        }
    }
    (!numbers.is_empty()).then_some((stems, numbers))
}

/// Words after which a number is a value.
const VALUE_AFTER: &[&str] = &[
    "is", "are", "am", "was", "at", "weigh", "weighs", "have", "has", "got", "earn", "earns", "to", "be", "about",
    "around", "now", "of", "size", "costs", "cost", "pay", "paid", "on",
];

/// The digits of the longest run of figures in `text` that can be a phone or account
/// number: at least seven digits, in words of figures, dashes, dots, brackets and pluses.
pub(super) fn phone_digits(text: &str) -> Option<String> {
    let mut best = String::new();
    let mut run = String::new();
    for token in text.split_whitespace() {
        let t = token.trim_end_matches([',', ';', ':', '!', '?']);
        let figures =
            t.chars().any(|c| c.is_ascii_digit()) && t.chars().all(|c| c.is_ascii_digit() || "-.()+".contains(c));
        if figures {
            run.extend(t.chars().filter(char::is_ascii_digit));
        } else {
            best = longer(best, std::mem::take(&mut run));
        }
    }
    let best = longer(best, run);
    (best.len() >= 7).then_some(best)
}

fn longer(a: String, b: String) -> String {
    if b.len() > a.len() { b } else { a }
}
