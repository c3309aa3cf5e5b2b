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
    "save money",
    "save up",
    "save for",
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
    // "I use Figma for everything", "I use a wheelchair"; not "I use it", "I use to" (used
    // to), "I use a lot of garlic in this recipe".
    if let Some(rest) = after(&["i use ", "we use ", "i mainly use ", "i only use "]) {
        let amount = [
            "to", "a lot", "a bit", "a little", "lots", "loads", "some", "too", "more", "less",
        ]
        .iter()
        .any(|a| starts_with_word(rest, a));
        let at_hand = [" this ", " that ", " these ", " today", " tonight"]
            .iter()
            .any(|d| rest.contains(d));
        return (object_ok(rest) && !amount && !at_hand).then(told)?;
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
        // "a diet coke kick" is no diet: the word after "diet" ends it or tells what for.
        let words: Vec<&str> = rest.split(|c: char| !c.is_alphanumeric() && c != '-').collect();
        let diet = words.iter().take(4).position(|w| *w == "diet").is_some_and(|k| {
            words.get(k + 1).is_none_or(|n| {
                matches!(
                    *n,
                    "" | "for" | "since" | "and" | "to" | "at" | "now" | "because" | "atm" | "these" | "so" | "btw"
                )
            })
        });
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
    // "I have Wednesdays off", "I'm off on Fridays": days, every week ("I'm off on Friday"
    // is one).
    if let Some(rest) = after(&["i have ", "i get ", "i'm off on ", "i am off on "]) {
        let days = WEEKDAYS.iter().any(|d| {
            let plural = format!("{}s", d.to_ascii_lowercase());
            starts_with_word(rest, &plural)
        });
        let off = lower.starts_with("i'm off") || lower.starts_with("i am off");
        return (days && (off || rest.contains(" off"))).then(told)?;
    }
    // "training for the London marathon"; not "training for an hour then dinner".
    if let Some(rest) = after(&[
        "i'm training for ",
        "i am training for ",
        "im training for ",
        "training for ",
    ]) {
        let span = rest.starts_with(|c: char| c.is_ascii_digit())
            || ["an hour", "a bit", "a while", "a few", "ages", "hours", "half an hour"]
                .iter()
                .any(|s| starts_with_word(rest, s));
        return (object_ok(rest) && !span).then(told)?;
    }
    if let Some(rest) = after(&["i'm trying to ", "i am trying to ", "im trying to ", "trying to "]) {
        return AIMS.iter().any(|a| starts_with_word(rest, a)).then(told)?;
    }
    // "I'm doing intermittent fasting", "doing keto": a way of eating, not a chore.
    if let Some(rest) = after(&["i'm doing ", "i am doing ", "im doing ", "doing "]) {
        let eating = [
            "intermittent fasting",
            "keto",
            "the keto diet",
            "5:2",
            "the 5:2",
            "16:8",
            "paleo",
            "whole30",
            "slimming world",
            "weight watchers",
        ]
        .iter()
        .any(|e| starts_with_word(rest, e));
        return eating.then(told)?;
    }
    // "just had a baby girl, Ruby, 3 weeks ago!": a birth, with the name told.
    if let Some(rest) = after(&[
        "had a baby",
        "just had a baby",
        "we had a baby",
        "we just had a baby",
        "i had a baby",
        "i just had a baby",
        "we've had a baby",
        "i've had a baby",
    ]) {
        // Not "had a baby shower": a girl, a boy, a name or when comes next.
        let next = rest.trim_start();
        let born = next.is_empty()
            || next.starts_with([',', '!', '.'])
            || ["girl", "boy", "on", "last", "yesterday", "this", "today", "at"]
                .iter()
                .any(|w| starts_with_word(next, w));
        if !born {
            return None;
        }
        let kind = ["girl", "boy"].iter().find(|k| starts_with_word(next, k));
        let who = if lower.starts_with("we") { "We" } else { "I" };
        let said = &text[text.len() - rest.len()..];
        let name = said
            .split([',', ' ', '!', '.'])
            .filter(|w| !w.is_empty())
            .take(3)
            .find(|w| w.starts_with(char::is_uppercase) && w.chars().all(char::is_alphabetic) && !names_a_time(w));
        let fact = match (kind, name) {
            (Some(k), Some(n)) => format!("{who} had a baby {k}, {n}"),
            (Some(k), None) => format!("{who} had a baby {k}"),
            (None, Some(n)) => format!("{who} had a baby, {n}"),
            (None, None) => format!("{who} had a baby"),
        };
        return Some(fact_of(fact, MemoryType::Relationship, Vec::new()));
    }
    // "I always fly economy plus", "I learn best with diagrams": how the teller likes it.
    if let Some(rest) = after(&["i always fly ", "i learn best "]) {
        return object_ok(rest).then(|| fact_of(capitalise(&clause(text)), MemoryType::Preference, Vec::new()));
    }
    // "I code mostly in Go", "I program in Rust": a language, named with its capital.
    if let Some(at) = [
        "i code in ",
        "i code mostly in ",
        "i mostly code in ",
        "i program in ",
        "i write code in ",
    ]
    .iter()
    .find(|o| lower.starts_with(**o))
    .map(|o| o.len())
    {
        return text[at..].starts_with(char::is_uppercase).then(told)?;
    }
    // "my laptop's a ThinkPad running Ubuntu", "my car is a 2017 Skoda Octavia": a thing
    // one has, named by its make.
    let things = ["laptop", "phone", "car", "bike", "computer", "pc", "tablet", "watch"];
    if let Some(rest) = lower.strip_prefix("my ").and_then(|r| {
        things.iter().find_map(|t| {
            ["'s a ", "'s an ", " is a ", " is an "]
                .iter()
                .find_map(|be| r.strip_prefix(t).and_then(|x| x.strip_prefix(be)))
        })
    }) {
        let named = text[text.len() - rest.len()..]
            .split_whitespace()
            .take(3)
            .any(|w| w.starts_with(char::is_uppercase) || w.starts_with(|c: char| c.is_ascii_digit()));
        return named.then(told)?;
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
    // "I'm moving from Austin to Denver next month": read from the "to".
    let moved_from = [
        "i'm moving from ",
        "i am moving from ",
        "we're moving from ",
        "we are moving from ",
    ]
    .iter()
    .find(|o| lower.starts_with(**o))
    .and_then(|o| lower[o.len()..].find(" to ").map(|k| o.len() + k + " to ".len()));
    if let Some(at) = moved_from {
        let place = text[at..].chars().next().is_some_and(char::is_uppercase);
        if !(place && names_a_when(&text[at..])) {
            return None;
        }
        let fact = capitalise(&clause(text));
        let t = classify(&fact);
        return Some(fact_of(fact, t, Vec::new()));
    }
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
    let when = names_a_when(&text[opener.len()..]);
    let moving = opener.contains("moving") || opener.contains("relocating");
    // "I'm moving to Canada lol" says no when.
    if !place || !when {
        return None;
    }
    // A move begins what lasts; a trip ends with its day.
    let fact = capitalise(&clause(text));
    let t = if moving { classify(&fact) } else { MemoryType::Event };
    Some(fact_of(fact, t, Vec::new()))
}

/// Whether `said` names when: a month ("May" only with its capital: "may grab wine" is
/// none), a season or a feast, or "next week", "next month", "next year".
fn names_a_when(said: &str) -> bool {
    let lower = said.to_ascii_lowercase();
    said.split(|c: char| !c.is_alphanumeric()).any(|w| {
        MONTHS.iter().any(|m| m.eq_ignore_ascii_case(w)) && w != "may" && w != "MAY"
            || matches!(
                w.to_ascii_lowercase().as_str(),
                "summer" | "spring" | "autumn" | "winter" | "christmas" | "easter"
            )
    }) || ["next week", "next month", "next year"]
        .iter()
        .any(|n| lower.contains(n))
}

/// Whether a capitalised word is a day or a month, which is no name.
fn names_a_time(word: &str) -> bool {
    MONTHS
        .iter()
        .chain(WEEKDAYS.iter())
        .any(|t| t.eq_ignore_ascii_case(word))
}

/// Where `part` (lowercased as `lower`) tells a plan with "going to": the first one that
/// does not go to a place ("going to Rome" is a trip, told as a fact; "going to Rome in May
/// and going to propose there" holds a plan from its second).
pub(super) fn going_to_a_plan(part: &str, lower: &str) -> Option<usize> {
    lower.match_indices("going to").map(|(i, _)| i).find(|&i| {
        let whole = !lower[..i].chars().next_back().is_some_and(char::is_alphanumeric)
            && !lower[i + "going to".len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric);
        let place = part
            .get(i + "going to ".len()..)
            .and_then(|rest| rest.chars().next())
            .is_some_and(char::is_uppercase);
        whole && !place
    })
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
            "just had a baby girl, Ruby, 3 weeks ago!",
            "I'm doing intermittent fasting, 16:8",
            "I'm moving from Austin to Denver next month",
            "I always fly economy plus and I need an aisle seat",
            "I code mostly in Go",
            "my laptop's a ThinkPad running Ubuntu",
            "my car is a 2017 Skoda Octavia",
            "I learn best with diagrams, not text",
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
            "I'm going to Tesco, may grab wine",
            "I'm moving to Canada lol",
            "I'm trying to save my essay but Word keeps crashing",
            "training for an hour then dinner",
            "I use a lot of garlic in this recipe",
            "I'm on a diet coke kick",
            "I'm off on Friday",
            "I had a baby shower last weekend",
            "I'm doing the dishes",
            "I code in my spare time",
            "my phone is a nightmare",
            "my car is a mess",
            "I live for weekends",
            "I'm on a train",
            "my partner and I are exhausted",
            "we're going to the beach",
        ] {
            assert_eq!(read(not_told), None, "{not_told}");
        }
    }
}
