//! A dose changed: "my sertraline dose went up to 100mg" after "I take 50mg of
//! sertraline". The new telling often shares little with the old but the thing dosed and
//! the unit, so the words' rules leave both live.

use std::collections::BTreeSet;

use super::super::fact::Fact;
use super::super::words::is_generic;

/// Units a dose is told in: of medicines, and of what one takes by weight or volume.
const UNITS: &[&str] = &["mg", "mcg", "ug", "µg", "ml", "iu", "units", "unit", "g"];

/// Whether `n` gives a thing that `o` gives a dose of another dose in the same unit.
pub(in crate::judgment) fn another_dose(o: &Fact, n: &Fact) -> bool {
    // "On sick days I go up to 24 units": a dose for some days only.
    let lows: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    let conditional = lows.iter().any(|w| matches!(*w, "if" | "when" | "whenever" | "unless"))
        || lows.windows(3).any(|w| w[0] == "on" && matches!(w[2], "days" | "day"));
    if conditional {
        return false;
    }
    let (a, b) = (doses(o), doses(n));
    let changed = a
        .iter()
        .any(|(unit, x)| b.iter().any(|(u, _)| u == unit) && !b.iter().any(|(u, y)| u == unit && y == x));
    if !changed {
        return false;
    }
    // What the dose is of: a word both tell that is neither a figure, a unit nor a word
    // every fact may hold ("take").
    let thing = |f: &Fact| -> BTreeSet<String> {
        f.content
            .iter()
            .filter(|w| w.chars().all(char::is_alphabetic) && !UNITS.contains(&w.as_str()) && !is_generic(w))
            .filter(|w| !matches!(w.as_str(), "dose" | "dosage" | "daily" | "day" | "twice"))
            .cloned()
            .collect()
    };
    let shared: BTreeSet<String> = thing(o).intersection(&thing(n)).cloned().collect();
    // "The GP increased my dad's metformin to 1000mg": the dad's dose, not the user's.
    let owner_before = |f: &Fact| {
        f.words
            .windows(2)
            .any(|w| w[0].low.ends_with("'s") && w[0].low != "'s" && shared.contains(&w[1].stem))
    };
    !shared.is_empty() && (owner_before(o) || !owner_before(n))
}

/// The doses a fact tells, each as (unit, number): "50mg" and "50 mg" alike.
fn doses(f: &Fact) -> Vec<(String, String)> {
    let words = &f.words[f.body.min(f.words.len())..];
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let low = w.low.as_str();
        let digits = low.trim_end_matches(|c: char| c.is_alphabetic() || c == 'µ');
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit() || c == '.') {
            continue;
        }
        let attached = &low[digits.len()..];
        let unit = if attached.is_empty() {
            words.get(i + 1).map(|u| u.low.as_str()).unwrap_or_default()
        } else {
            attached
        };
        if UNITS.contains(&unit) {
            let unit = if unit == "unit" { "units" } else { unit };
            out.push((unit.to_owned(), digits.trim_end_matches(".0").to_owned()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::another_dose;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn dosed(old: &str, new: &str) -> bool {
        let me = RuleContext::default();
        another_dose(&Fact::read(old, &me), &Fact::read(new, &me))
    }

    #[test]
    fn another_dose_of_the_same_thing_is_a_change() {
        for (old, new) in [
            ("I take 50mg of sertraline", "my sertraline dose went up to 100mg"),
            ("I take 50mg of sertraline", "they upped my sertraline to 100 mg"),
            (
                "I'm on 10 units of insulin at night",
                "my night insulin is 12 units now",
            ),
        ] {
            assert!(dosed(old, new), "{old} / {new}");
        }
        for (old, new) in [
            ("I take 50mg of sertraline", "I take 500mg of paracetamol for headaches"),
            ("I take 50mg of sertraline", "my sertraline dose is still 50mg"),
            ("I take 50mg of sertraline", "I take sertraline every morning"),
            ("I run 5km every morning", "I run 10km on Sundays"),
            (
                "I take 500mg metformin twice a day",
                "The GP increased my dad's metformin to 1000mg",
            ),
        ] {
            assert!(!dosed(old, new), "{old} / {new}");
        }
    }
}
