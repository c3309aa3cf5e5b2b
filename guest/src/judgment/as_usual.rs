//! A routine told again in passing, with a word that says it is the usual: "Fish Friday
//! as always." after "I eat fish on Fridays", "porridge again this morning, as always"
//! after "I have porridge for breakfast", "Another night shift, standard." after "I work
//! night shifts". Told so, the words seldom match the fact's own, and each telling was
//! stored again.
//!
//! A word of change anywhere leaves the pair to the other rules: "Fish Friday as always,
//! but at mum's this week", "still at the council but only three days now".

use std::collections::BTreeSet;

use super::fact::{Fact, Subject};
use super::words::{is_generic, is_light_verb};

/// Words in a row that say the thing told is the usual.
const USUAL: &[&[&str]] = &[
    &["as", "always"],
    &["as", "usual"],
    &["as", "normal"],
    &["as", "per"],
    &["like", "always"],
    &["like", "every"],
    &["same", "as", "every"],
    &["same", "as", "always"],
    &["as", "ever"],
    &["my", "usual"],
    &["our", "usual"],
    &["the", "usual"],
    &["always", "will", "be"],
    &["daily", "ritual"],
    &["standard"],
    &["still"],
];

/// Words that tell a change, a break, or a turn against the usual.
const TURNS: &[&str] = &[
    "but",
    "except",
    "instead",
    "now",
    "anymore",
    "longer",
    "switched",
    "changed",
    "moved",
    "new",
    "from",
    "until",
    "till",
    "not",
    "no",
    "never",
    "skipped",
    "skip",
    "cancelled",
    "canceled",
    "without",
    "off",
    "though",
    "however",
    "apart",
    "only",
    "stopped",
    "quit",
    "gave",
    "finally",
    "used",
    "up",
    "down",
    "gone",
    "too",
    "also",
    "opened",
    "started",
    "extra",
    "well",
];

/// Whether `n` tells `o` again as the usual.
pub(super) fn told_again(o: &Fact, n: &Fact) -> bool {
    let told = &n.words[n.lead.min(n.words.len())..];
    let lows: Vec<&str> = told.iter().map(|w| w.low.as_str()).collect();
    let old_lows: Vec<&str> = o.words.iter().map(|w| w.low.as_str()).collect();
    // The marker is the new telling's own ("My usual coffee order is ..." after "My usual
    // coffee order is ..." is another order); "standard" closes a clause ("Another night
    // shift, standard."), not names a thing ("Octopus's standard tariff").
    let usual = USUAL.iter().any(|u| {
        let at = lows.windows(u.len()).position(|w| w == *u);
        let closes = |k: usize| told[k].stop || k + 1 == told.len();
        at.is_some_and(|k| u.len() > 1 || u[0] != "standard" || closes(k))
            && !old_lows.windows(u.len()).any(|w| w == *u)
    });
    // A name the old fact does not hold is another place or thing ("Still at Google, in the
    // Zurich office").
    let named = told.iter().any(|w| w.cap && !o.all.contains(&w.stem));
    // A figure the old fact does not hold is another amount or time ("went up to R3,550
    // in January as usual").
    let old_figures: BTreeSet<&str> = o.words.iter().map(|w| w.low.as_str()).collect();
    let figure = lows
        .iter()
        .any(|w| w.chars().any(|c| c.is_ascii_digit()) && !old_figures.contains(w));
    let turned = figure || named || lows.iter().any(|w| TURNS.contains(w) || w.ends_with("n't"));
    let of_the_user = |s: &Subject| matches!(s, Subject::User | Subject::We);
    // Lines of a conversation record what was said each time, the usual included.
    let lines = o.speaker.is_some() || n.speaker.is_some();
    if !usual || turned || lines || n.denied || o.denied || n.former || o.former || n.wish || o.wish {
        return false;
    }
    if !of_the_user(&o.subject) || !of_the_user(&n.subject) {
        return false;
    }
    let shared: BTreeSet<&String> = o.content.intersection(&n.all).collect();
    let telling = shared.iter().filter(|s| !is_light_verb(s) && !is_generic(s)).count();
    telling >= 2 || (telling == 1 && o.content.len() <= 2)
}

#[cfg(test)]
mod tests {
    use super::super::{Verdict, judge};
    use crate::supersession::RuleContext;

    #[test]
    fn a_routine_told_again_as_the_usual_and_its_look_alikes() {
        let me = RuleContext::default();
        for (old, new) in [
            ("I eat fish on Fridays", "Fish Friday as always."),
            (
                "I have porridge for breakfast",
                "porridge again this morning, as always",
            ),
            ("I work night shifts", "Another night shift, standard."),
        ] {
            assert_eq!(judge(old, new, &me), Verdict::Same, "{old:?} / {new:?}");
        }
        for (old, new) in [
            (
                "My medical aid debit order is R3,200 a month",
                "medical aid went up to R3,550 in january as usual",
            ),
            ("I eat fish on Fridays", "Fish Friday as always, but at mum's this week"),
            ("I wear glasses", "my husband still wears glasses"),
            (
                "My usual coffee order is a caramel latte",
                "My usual coffee order is an oat flat white",
            ),
            (
                "I work at Google in the London office",
                "Still at Google, in the Zurich office",
            ),
            (
                "I'm on the Agile tariff with Octopus",
                "I'm on Octopus's standard tariff",
            ),
        ] {
            assert_ne!(judge(old, new, &me), Verdict::Same, "{old:?} / {new:?}");
        }
    }
}
