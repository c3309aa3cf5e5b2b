//! More of how the teller lives, in forms told in passing: what they use ("I use Figma
//! for everything", "I use Linux, Arch btw"), a business they run or own ("I run a small
//! Italian restaurant in Bath"), a diet they are on ("I'm on a low-FODMAP diet for IBS"),
//! whom they live with ("I live alone with my dog Rufus"), their days off ("I have
//! Wednesdays off"), what they work toward ("I'm training for the London marathon in
//! April", "I'm trying to cut down on sugar"), and a move or a trip told with its place
//! ("I'm moving to Berlin in September", "I'm going to Rome for my 40th in October").

use super::sentences::{capitalise, clause, starts_with_word};
use super::words::DIETS;
use super::{fact_of, object_ok};
use crate::conversation::extraction::Fact;
use crate::entities::{MONTHS, WEEKDAYS};
use crate::memory_type::{MemoryType, classify};

/// What one may be trying to do for good: "cut down on sugar", "quit smoking".
const AIMS: &[&str] = &[
    "cut down",
    "cut back",
    "cut out",
    "quit",
    "stop",
    "give up",
    "lose",
    "eat less",
    "eat more",
    "drink less",
    "drink more",
    "save",
    "get fit",
    "learn",
    "reduce",
    "avoid",
    "be more",
    "be less",
    "sleep more",
    "walk more",
];

/// The fact `text` (lowercased as `lower`, leads gone) tells of a pursuit, if any.
pub(super) fn pursuit(text: &str, lower: &str) -> Option<Fact> {
    let told = || {
        let fact = capitalise(&clause(text));
        let t = match classify(&fact) {
            MemoryType::Context | MemoryType::Observation | MemoryType::Event => MemoryType::Knowledge,
            t => t,
        };
        Some(fact_of(fact, t, Vec::new()))
    };
    let after = |openers: &[&str]| openers.iter().find_map(|o| lower.strip_prefix(o));
    // "I use Figma for everything"; not "I use it", "I use to" (used to).
    if let Some(rest) = after(&["i use ", "we use ", "i mainly use ", "i only use "]) {
        return (object_ok(rest) && !starts_with_word(rest, "to")).then(told)?;
    }
    if let Some(rest) = after(&[
        "i run a ",
        "i run an ",
        "i own a ",
        "i own an ",
        "we run a ",
        "we own a ",
    ]) {
        return object_ok(rest).then(told)?;
    }
    // "I'm on a low-FODMAP diet", "I'm on the keto diet".
    if let Some(rest) = after(&["i'm on a ", "i am on a ", "im on a ", "i'm on the ", "i am on the "]) {
        let diet = rest.split(|c: char| !c.is_alphanumeric()).take(4).any(|w| w == "diet");
        return diet.then(told)?;
    }
    // "I live alone", "I live with my dog Rufus"; a condition lived with is `standing`'s.
    if let Some(rest) = after(&["i live "]) {
        let with = [
            "alone",
            "on my own",
            "by myself",
            "with my ",
            "with a ",
            "with two ",
            "with three ",
        ]
        .iter()
        .any(|w| rest.starts_with(w));
        return with.then(told)?;
    }
    // "I have Wednesdays off", "I'm off on Fridays".
    if let Some(rest) = after(&["i have ", "i get ", "i'm off on ", "i am off on ", "my day off is "]) {
        let day = WEEKDAYS.iter().any(|d| rest.starts_with(&d.to_ascii_lowercase()));
        let off = lower.starts_with("i'm off") || lower.starts_with("i am off") || lower.starts_with("my day off");
        return (day && (off || rest.contains(" off"))).then(told)?;
    }
    if let Some(rest) = after(&[
        "i'm training for ",
        "i am training for ",
        "im training for ",
        "training for ",
    ]) {
        return object_ok(rest).then(told)?;
    }
    if let Some(rest) = after(&["i'm trying to ", "i am trying to ", "im trying to ", "trying to "]) {
        return AIMS.iter().any(|a| starts_with_word(rest, a)).then(told)?;
    }
    // "my partner and I are vegan", "we're both vegetarian": the teller's diet too.
    let both = lower
        .strip_prefix("my ")
        .and_then(|r| r.split_once(" and i are "))
        .filter(|(who, _)| !who.contains(' '))
        .map(|(_, rest)| rest)
        .or_else(|| after(&["we're both ", "we are both ", "we're ", "we are "]));
    if let Some(rest) = both {
        if !DIETS.iter().any(|d| starts_with_word(rest, d)) {
            return None;
        }
        // The clause from the diet on: its "and I" is the subject's.
        let at = text.len() - rest.len();
        let fact = format!("{}{}", &text[..at], clause(&text[at..]));
        return Some(fact_of(capitalise(&fact), MemoryType::Preference, Vec::new()));
    }
    trip(text, lower)
}

/// "I'm moving to Berlin in September", "we're going to Rome in October": a place named,
/// then when.
fn trip(text: &str, lower: &str) -> Option<Fact> {
    let openers = [
        "i'm moving to ",
        "i am moving to ",
        "we're moving to ",
        "we are moving to ",
        "i'm relocating to ",
        "i'm going to ",
        "i am going to ",
        "we're going to ",
        "we are going to ",
    ];
    let opener = openers.iter().find(|o| lower.starts_with(**o))?;
    // A place, written with a capital: "going to Rome", not "going to try that".
    let place = text[opener.len()..].chars().next().is_some_and(char::is_uppercase);
    let rest = &lower[opener.len()..];
    let when = rest.split(|c: char| !c.is_alphanumeric()).any(|w| {
        MONTHS.iter().any(|m| m.eq_ignore_ascii_case(w))
            || matches!(w, "summer" | "spring" | "autumn" | "winter" | "christmas" | "easter")
    }) || rest.contains("next year")
        || rest.contains("next month");
    let moving = opener.contains("moving") || opener.contains("relocating");
    if !place || !(when || moving) {
        return None;
    }
    // A move begins what lasts; a trip ends with its day.
    let fact = capitalise(&clause(text));
    let t = if moving { classify(&fact) } else { MemoryType::Event };
    Some(fact_of(fact, t, Vec::new()))
}

/// Whether a plan's "going to" at `at` of `part` goes to a place ("going to Rome"), which
/// is told as a trip, not as a plan that holds from where it is said.
pub(super) fn going_to_a_place(part: &str, at: usize) -> bool {
    part.get(at + "going to ".len()..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::pursuit;

    fn read(text: &str) -> Option<String> {
        pursuit(text, &text.to_ascii_lowercase()).map(|f| f.content)
    }

    #[test]
    fn a_diet_of_two_keeps_both_subjects() {
        assert_eq!(
            read("my partner and I are vegan, have been for 5 years").as_deref(),
            Some("My partner and I are vegan")
        );
    }

    #[test]
    fn a_pursuit_told_in_passing_is_read_and_its_look_alikes_are_not() {
        for told in [
            "I use Figma for everything",
            "I use Linux, Arch btw",
            "I run a small Italian restaurant in Bath",
            "I'm on a low-FODMAP diet for IBS",
            "I live alone with my dog Rufus",
            "I have Wednesdays off",
            "I'm training for the London marathon in April",
            "I'm trying to cut down on sugar",
            "I'm moving to Berlin in September for a new job",
            "I'm going to Rome for my 40th birthday in October",
            "my partner and I are vegan",
            "we're both vegetarian",
        ] {
            assert!(read(told).is_some(), "{told}");
        }
        for not_told in [
            "I use it every day",
            "I use to live in Leeds",
            "I have a meeting on Wednesday",
            "I'm trying to find a recipe",
            "I'm going to try that",
            "I'm going to bed",
            "I'm going to Tesco",
            "I live for weekends",
            "I'm on a train",
            "my partner and I are exhausted",
            "we're going to the beach",
        ] {
            assert_eq!(read(not_told), None, "{not_told}");
        }
    }
}
