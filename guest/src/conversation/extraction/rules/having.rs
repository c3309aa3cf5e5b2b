//! What the teller's household has, or has not: "I have a dog named Max", "we've got two
//! kids", "my husband and I own a flat in Leith", "I have type 1 diabetes", "I don't have
//! a car". Only things that last: pets, children, vehicles, homes and conditions, each
//! named by a noun of its own list. "I have a meeting at 3", "I have a question about my
//! dog" and "I have the kids this weekend" name none as the head of what is had.

use super::sentences::{capitalise, clause, starts_with_word};
use super::words::having::{
    AFTER, AFTER_ALLERGY, AFTER_COMING, AFTER_PLACE, AILMENTS, BREAKS, CHILDREN, COUNTS, HOMES, PETS, RENTING,
    VEHICLES, VERBS,
};
use super::{fact_of, object_ok};
use crate::conversation::extraction::Fact;
use crate::memory_type::MemoryType;

/// Kinds of lasting things had, each its own type of memory.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    /// Pets and children: the people and animals of the household.
    Household,
    /// Cars, bikes, boats.
    Vehicle,
    /// A house, a flat, a garden: where the household lives.
    Home,
    /// A lasting condition of the teller's health.
    Condition,
}

/// Where the subject ends when the teller has it: "i", "we", "my husband and i", "me and
/// my wife".
fn subject_end(lower: &str) -> Option<usize> {
    if let Some(s) = ["i ", "i'", "we ", "we'"].iter().find(|s| lower.starts_with(**s)) {
        return Some(s.len() - 1);
    }
    if let Some(rest) = lower.strip_prefix("me and my ") {
        return Some("me and my ".len() + rest.find(' ')?);
    }
    // "my husband and i", "my ex-wife and i": at most two words before "and i".
    let rest = lower.strip_prefix("my ")?;
    let at = rest.find(" and i ")?;
    (rest[..at].split(' ').count() <= 2).then_some("my ".len() + at + " and i".len())
}

/// The fact the teller states by having (or lacking) a lasting thing; `negated` says
/// whether the fact's clause negates (only a verb of lacking may).
pub(super) fn having(text: &str, lower: &str, negated: bool) -> Option<Fact> {
    let subject = subject_end(lower)?;
    let after_subject = lower[subject..].trim_start_matches(' ');
    if let Some(verb) = RENTING.iter().find(|v| after_subject.starts_with(**v)) {
        let object = &after_subject[verb.len()..];
        return (head_of(object, false)? == Kind::Home && object_ok(object))
            .then(|| fact_of(capitalise(&told(text, subject)), MemoryType::Identity, Vec::new()));
    }
    let (verb, coming, denies) = VERBS
        .iter()
        .filter(|(v, ..)| after_subject.starts_with(*v))
        .max_by_key(|(v, ..)| v.len())?;
    let mut object = &after_subject[verb.len()..];
    // "we own our house outright": owning is the one having that names its own.
    if verb.contains("own ") {
        object = object
            .strip_prefix("our ")
            .or_else(|| object.strip_prefix("my "))
            .unwrap_or(object);
    }
    let kind = head_of(object, *coming)?;
    // Only a verb of lacking may deny ("I have never had a cat"), and lacking a condition
    // is no fact worth keeping ("I don't have asthma").
    let denial_ok = if *denies { kind != Kind::Condition } else { !negated };
    if !denial_ok || !object_ok(object) {
        return None;
    }
    let (fact, memory_type) = match kind {
        Kind::Household => (with_names(text, told(text, subject)), MemoryType::Relationship),
        Kind::Vehicle | Kind::Home | Kind::Condition => (told(text, subject), MemoryType::Identity),
    };
    Some(fact_of(capitalise(&fact), memory_type, Vec::new()))
}

/// The subject as told and its verb's clause: "my husband and I" holds a joining word that
/// the clause would end at.
fn told(text: &str, subject: usize) -> String {
    let after = &text[subject..];
    let spaces = after.len() - after.trim_start().len();
    format!("{}{}", &text[..subject + spaces], clause(after))
}

/// The clause with the names told just after it: "I've got two cats, Luna and Pepper".
fn with_names(text: &str, fact: String) -> String {
    let Some(after) = text.get(fact.len()..).and_then(|t| t.strip_prefix(", ")) else {
        return fact;
    };
    // The names as told, commas and all, up to the first word that is not one.
    let (mut end, mut at) = (0, 0);
    for word in after.split_inclusive(' ') {
        let bare = word.trim_end().trim_end_matches([',', '.', '!', ';']);
        let name = bare.len() > 1
            && bare.starts_with(char::is_uppercase)
            && bare.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'');
        if name {
            end = at + bare.len();
        } else if bare != "and" || end == 0 {
            break;
        }
        at += word.len();
        if name && word.trim_end().len() != bare.len() && !word.trim_end().ends_with(',') {
            break;
        }
    }
    if end == 0 {
        return fact;
    }
    format!("{fact}, {}", &after[..end])
}

/// Whether `object` names a lasting thing had: "two kids", "type 1 diabetes", "a boat".
pub(super) fn names_a_lasting_thing(object: &str) -> bool {
    head_of(object, false).is_some()
}

/// The kind of the head of a noun phrase: up to three words before it, after a count.
fn head_of(object: &str, coming: bool) -> Option<Kind> {
    let phrase = clause(object).to_ascii_lowercase();
    let mut rest = phrase.as_str();
    if let Some(count) = COUNTS.iter().find(|c| starts_with_word(rest, c)) {
        rest = rest[count.len()..].trim_start();
    } else if rest.starts_with(|c: char| c.is_ascii_digit()) {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
    }
    let mut at = 0;
    for _ in 0..4 {
        let here = &rest[at..];
        if here.is_empty() {
            return None;
        }
        if let Some((kind, len)) = noun_at(here) {
            let tail = here[len..].trim_start();
            let follows = |words: &[&str]| words.iter().any(|w| starts_with_word(tail, w));
            // "four kids (yes four)": an aside in brackets.
            let fits = tail.is_empty()
                || tail.starts_with('(')
                || follows(AFTER)
                || (kind == Kind::Home && follows(AFTER_PLACE))
                || (kind == Kind::Condition && follows(AFTER_ALLERGY))
                || (coming && follows(AFTER_COMING));
            if fits {
                return Some(kind);
            }
            // "a cat allergy": the first noun only qualifies the head.
        } else if BREAKS.iter().any(|b| starts_with_word(here, b)) {
            return None;
        }
        at += here.find(' ').map_or(here.len(), |i| i + 1);
    }
    None
}

/// The noun of a list at the start of `text`, and its length; the longest that fits.
fn noun_at(text: &str) -> Option<(Kind, usize)> {
    [
        (Kind::Household, PETS),
        (Kind::Household, CHILDREN),
        (Kind::Vehicle, VEHICLES),
        (Kind::Home, HOMES),
        (Kind::Condition, AILMENTS),
    ]
    .into_iter()
    .flat_map(|(kind, nouns)| nouns.iter().map(move |n| (kind, *n)))
    .filter(|(_, n)| starts_with_word(text, n) && !text[n.len()..].starts_with('-'))
    .max_by_key(|(_, n)| n.len())
    .map(|(kind, n)| (kind, n.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(message: &str) -> Option<String> {
        let lower = message.to_ascii_lowercase();
        let negated = super::super::sentences::negated(&clause(&lower));
        having(message, &lower, negated).map(|f| f.content)
    }

    #[test]
    fn the_names_told_after_a_pet_or_a_child_are_kept() {
        assert_eq!(
            said("my wife and I rent a flat in Leith").as_deref(),
            Some("My wife and I rent a flat in Leith")
        );
        assert_eq!(
            said("We've got two cats, Pickle and Biscuit, and a very old labrador").as_deref(),
            Some("We've got two cats, Pickle and Biscuit")
        );
        assert_eq!(said("I have a son, Leo.").as_deref(), Some("I have a son, Leo"));
        assert_eq!(
            said("I have two kids, and I work full time").as_deref(),
            Some("I have two kids")
        );
        assert_eq!(said("I have a car, Honda").as_deref(), Some("I have a car"));
        assert_eq!(
            said("I've got three cats now, Luna, Pepper and Miso.").as_deref(),
            Some("I've got three cats now, Luna, Pepper and Miso")
        );
    }

    #[test]
    fn a_lasting_thing_had_is_read_and_a_passing_one_is_not() {
        for lasting in [
            "I have a dog named Max",
            "I've got two cats",
            "We adopted a puppy called Biscuit",
            "My husband and I have three kids",
            "me and my wife have twins",
            "we have a golden retriever",
            "I have type 1 diabetes",
            "I've got asthma",
            "I have a nut allergy",
            "I have an allergy to penicillin",
            "We own a flat in Leith",
            "I don't have a car",
            "I have no kids",
            "we got a puppy last month",
            "I bought a house in 2019",
            "we rent a two-bed flat in Hackney",
            "I'm renting a studio near the station",
            "my wife and I rent a flat in Leith",
            "we rent a two bed in Croydon",
            "we own our house outright now",
            "we adopted a beagle mix from the shelter",
            "I have three boys under 8",
        ] {
            assert!(said(lasting).is_some(), "{lasting}");
        }
        for passing in [
            "I have a meeting at 3",
            "I have a headache",
            "I have a question about my dog",
            "I have the kids this weekend",
            "we have a problem with the build",
            "I have to walk the dog",
            "I have a car for the weekend",
            "I got a car wash",
            "I have a cat allergy appointment",
            "I have a lot of kids in my class",
            "I have anxiety about tomorrow",
            "I don't have asthma",
            "my sister has a dog",
            "I rent a car when I travel",
            "I got fish and chips",
            "I have never had a cat",
        ] {
            assert_eq!(said(passing), None, "{passing}");
        }
    }
}
