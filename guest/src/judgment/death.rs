//! A pet or a person the household had, who died: "Biscuit passed away last week" ends "We
//! have a dog called Biscuit". Only a fact of having them ends; their name, their breed or
//! what they liked stays true of them ("My dog is called Max" is kept beside "Max died").
//! A pet rehomed ("We rehomed Charlie with my aunt") leaves the household as one who died.

use super::fact::{Fact, WISH, is_ignored};

/// Verbs of having someone in one's household.
const HAVING: &[&str] = &["have", "has", "got", "own", "owns"];

/// Whether `n` tells the death of one whom `o` says the user or the household has.
pub(super) fn ends_having(o: &Fact, n: &Fact) -> bool {
    // A wish in a later clause is no doubt of the loss: "We rehomed Charlie with my aunt,
    // couldn't give him enough attention". One in the loss's own clause is, and so is a
    // plan or a need ("we're going to have to put Max down", "we may need to rehome him").
    let clause = n.words.iter().position(|w| w.stop).map_or(n.words.len(), |i| i + 1);
    let first: Vec<&str> = n.words[..clause].iter().map(|w| w.low.as_str()).collect();
    let wished = first
        .iter()
        .any(|w| WISH.contains(w) || matches!(*w, "going" | "gonna" | "need" | "needs" | "may"))
        || first.windows(2).any(|p| p == ["have", "to"]);
    if o.denied || o.former || o.past || wished || n.words.iter().any(|w| w.asks) {
        return false;
    }
    let Some(name) = died(n) else {
        return false;
    };
    let lows: Vec<&str> = o.words.iter().map(|w| w.low.as_str()).collect();
    let has = lows.iter().position(|w| HAVING.contains(w));
    let named_after = has.is_some_and(|at| {
        o.words[at + 1..]
            .iter()
            .any(|w| w.upper && w.low.trim_end_matches("'s") == name)
    });
    matches!(lows.first(), Some(&("i" | "we" | "i've" | "we've"))) && named_after
}

/// The name (lowercased) of whom the words say died, when they open with it: "Biscuit
/// passed away last week", "luna died on Sunday", "Max was put down"; or when the user or
/// the household did it or lost them: "we had to put Max down", "we lost Rolo on sunday".
pub(super) fn died(n: &Fact) -> Option<String> {
    if let Some(name) = lost_by_us(n) {
        return Some(name);
    }
    // In chat a pet's name is often written in lower case ("bubbles died sadly"): whose
    // name it is, the fact of having them says.
    let first = n
        .words
        .first()
        .filter(|w| w.upper || !is_ignored(w) && w.low.chars().all(char::is_alphabetic))?;
    let lows: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    let dies = lows
        .windows(2)
        .any(|p| matches!(p, ["passed", "away"] | ["put", "down"] | ["put", "to"]) || p[0] == "died")
        || lows.get(1..3) == Some(&["passed", "on"][..]);
    // "Biscuit's vet died" is someone else's death.
    let theirs = lows
        .get(1)
        .is_some_and(|w| matches!(*w, "passed" | "died" | "was" | "has" | "had"));
    (dies && theirs && !first.low.ends_with("'s")).then(|| first.low.clone())
}

/// The name of one the user or the household put down or lost: "we had to put Max down",
/// "we lost Rolo on sunday" ("we lost Rolo's ball", "I lost to Sam" lose no one).
fn lost_by_us(n: &Fact) -> Option<String> {
    let lows: Vec<&str> = n.words.iter().map(|w| w.low.as_str()).collect();
    if !matches!(lows.first(), Some(&("i" | "we"))) {
        return None;
    }
    // In chat a pet's name is often lower case ("we had to have biscuit put to sleep"):
    // the old fact, which must name them capitalized, says whose name it is.
    let named = |i: usize| {
        n.words
            .get(i)
            .filter(|w| (w.upper || !is_ignored(w) && w.low.chars().all(char::is_alphabetic)) && !w.low.ends_with("'s"))
            .map(|w| w.low.clone())
    };
    (0..lows.len()).find_map(|i| match &lows[i..] {
        ["put", _, "down", ..] | ["put", _, "to", "sleep", ..] => named(i + 1),
        // "we had to have Biscuit put to sleep": done by the vet, for us.
        ["have" | "had", _, "put", "down", ..] | ["have" | "had", _, "put", "to", "sleep", ..] => named(i + 1),
        ["lost", _, ..] => named(i + 1).filter(|_| !matches!(lows.get(i + 2), Some(&"'s"))),
        // "We rehomed Charlie with my aunt": gone from the household, as a death is.
        // "We rehomed Luna from Battersea" is an adoption.
        ["rehomed" | "rehome", _, next, ..] if *next == "from" => None,
        ["rehomed" | "rehome", _, ..] => named(i + 1),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::ends_having;
    use crate::judgment::fact::Fact;
    use crate::supersession::RuleContext;

    fn ends(old: &str, new: &str) -> bool {
        let me = RuleContext::default();
        ends_having(&Fact::read(old, &me), &Fact::read(new, &me))
    }

    #[test]
    fn a_pet_put_down_or_lost_by_us_ends_having_them() {
        assert!(ends(
            "I have a dog called Max",
            "we had to put Max down yesterday, absolutely gutted"
        ));
        assert!(ends("We've got a cat, Rolo", "we lost Rolo on sunday. gutted"));
        assert!(!ends("I have a dog called Max", "we lost Max's ball in the park"));
        assert!(!ends("I have a dog called Max", "Max lost his collar"));
        assert!(ends(
            "I have a dog named Charlie",
            "We rehomed Charlie with my aunt, couldn't give him enough attention"
        ));
        assert!(!ends(
            "We've got a cat called Luna",
            "We rehomed Luna from Battersea in 2021"
        ));
        assert!(!ends(
            "I have a dog called Max",
            "We're going to have to put Max down next week"
        ));
        assert!(!ends("I have a dog named Charlie", "We may need to rehome Charlie"));
        assert!(ends(
            "I've got a golden retriever called Biscuit, he's 13",
            "we had to have Biscuit put to sleep on tuesday. the house is so quiet"
        ));
        assert!(!ends(
            "I've got a golden retriever called Biscuit",
            "we might have to have Biscuit put down soon"
        ));
    }

    #[test]
    fn a_death_ends_having_them_and_nothing_else() {
        assert!(ends(
            "We have a dog called Biscuit",
            "Biscuit passed away last week, we're gutted"
        ));
        assert!(ends("I have a cat named Luna", "Luna died on Sunday"));
        assert!(ends("We've got a rabbit, Thumper", "Thumper was put down yesterday"));
        assert!(!ends("My dog is called Max", "Max died in April"));
        assert!(!ends("We have a dog called Biscuit", "Biscuit's vet died"));
        assert!(!ends("We have a dog called Biscuit", "Luna died on Sunday"));
        assert!(!ends(
            "We have a dog called Biscuit",
            "If Biscuit died I'd be heartbroken"
        ));
    }
}
