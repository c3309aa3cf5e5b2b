//! Lasting facts about someone the user names by relation: "my sister is a vet", "my
//! husband is allergic to shellfish", "my mum lives in Cardiff", "my son is 7". Only a few
//! forms, each of a kind that holds for months: where they live or work, a job among the
//! occupations the judgment knows, a diet, a condition, an age. "My boss is a legend",
//! "my wife is tired" and "my son is a nightmare" state none.

use super::sentences::{capitalise, clause, starts_with_word};
use super::words::{CONDITIONS, DIETS, RELATIONS};
use super::{fact_of, name_at, object_ok};
use crate::conversation::extraction::Fact;
use crate::judgment::is_occupation;
use crate::memory_type::MemoryType;

/// Verbs of where someone lives or works, each followed by its place or employer.
const PLACES: &[&str] = &[
    "lives in ",
    "lives at ",
    "works at ",
    "works for ",
    "works as ",
    "is from ",
];

/// The fact `text` (lowercased as `lower`, leads gone) states about someone of the user's.
pub(super) fn about_someone(text: &str, lower: &str) -> Option<Fact> {
    // "our son is 7": the household's is the teller's.
    let (opener, rest) = ["my ", "our "]
        .iter()
        .find_map(|o| lower.strip_prefix(o).map(|r| (o.len(), r)))?;
    let rel = RELATIONS.iter().find(|r| starts_with_word(rest, r))?;
    let mut at = opener + rel.len();
    let mut subject = format!("my {rel}");
    // "my sister Ana lives in Lisbon": her name, then what is said of her.
    // The name must follow at once: "my sister  Zoë" (two spaces) would put the offset
    // inside a character.
    if lower[at..].starts_with(' ')
        && let Some(name) = name_at(&text[at + 1..])
        && !name.contains(' ')
        && text[at + 1..].starts_with(name.as_str())
    {
        subject = format!("{subject} {name}");
        at += 1 + name.len();
    }
    let predicate = &lower[at..];
    // "my dad passed away in 2019", "my cat died": a loss is lasting news.
    let loss = [" passed away", " died", " passed on"]
        .iter()
        .any(|v| starts_with_word(predicate, v));
    // "my mum has dementia", "my son's got autism", "my sister has two kids".
    let had = ["has got ", "'s got ", "has "]
        .iter()
        .find_map(|v| predicate.strip_prefix(' ').unwrap_or(predicate).strip_prefix(v));
    // "my husband Pete hates spicy food", "my son can't eat nuts": a taste or a need of
    // theirs, of a thing ("my boss hates me" names none).
    let taste = TASTES
        .iter()
        .find_map(|v| predicate.strip_prefix(' ').and_then(|p| p.strip_prefix(v)));
    let said = if loss {
        true
    } else if let Some(object) = taste {
        // "my wife loves the flowers I got her" is of one time.
        let of_once = [" i ", " we ", " you "].iter().any(|c| object.contains(c));
        object_ok(object) && !of_once && !PEOPLE_WORDS.iter().any(|p| starts_with_word(object, p))
    } else if let Some(object) = had {
        super::having::names_a_lasting_thing(object) && object_ok(object)
    } else if let Some(verb) = PLACES
        .iter()
        .find(|v| predicate.strip_prefix(' ').is_some_and(|p| p.starts_with(**v)))
    {
        object_ok(&predicate[1 + verb.len()..])
    } else {
        let state = predicate
            .strip_prefix(" is ")
            .or_else(|| predicate.strip_prefix("'s "))?;
        states_a_lasting_thing(state) || starts_with_word(state, "pregnant")
    };
    said.then(|| fact_of(capitalise(&clause(text)), MemoryType::Relationship, vec![subject]))
}

/// Verbs of a lasting taste or need, each followed by its thing.
const TASTES: &[&str] = &[
    "hates ",
    "loves ",
    "can't stand ",
    "doesn't like ",
    "doesn't eat ",
    "can't eat ",
    "won't eat ",
];

/// Whether `lower` tells a need of someone's with a denial ("can't eat", "doesn't like"),
/// which `about_someone` reads though the sentence is denied.
pub(super) fn a_need_denied(lower: &str) -> bool {
    TASTES
        .iter()
        .filter(|t| t.contains('\''))
        .any(|t| lower.contains(&format!(" {t}")))
}

/// Objects that are people, not things: "my boss hates me".
const PEOPLE_WORDS: &[&str] = &[
    "me",
    "us",
    "him",
    "her",
    "them",
    "you",
    "everyone",
    "everybody",
    "people",
];

/// "a vet", "an accountant at Deloitte", "vegetarian", "allergic to cats", "7", "70 years
/// old": what may follow "is" in a lasting fact about someone.
fn states_a_lasting_thing(state: &str) -> bool {
    if let Some(role) = state.strip_prefix("a ").or_else(|| state.strip_prefix("an ")) {
        // The occupation within its first three words: "a vet", "a primary school teacher".
        return role
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .take(3)
            .any(is_occupation);
    }
    if DIETS.iter().any(|d| starts_with_word(state, d)) {
        return true;
    }
    if let Some(c) = CONDITIONS.iter().find(|c| starts_with_word(state, c)) {
        return !c.ends_with(" to") || object_ok(&state[c.len()..]);
    }
    // An age: a number alone, or with "years old".
    let mut words = state.split_whitespace();
    let number = words
        .next()
        .map(|w| w.trim_end_matches(['.', ',', '!']))
        .and_then(|w| w.parse::<u32>().ok())
        .is_some_and(|n| n < 130);
    let rest: Vec<&str> = words.collect();
    // "my dad's 82 and lives on his own": the age, then another clause.
    number && (rest.is_empty() || rest.starts_with(&["years", "old"]) || rest.first() == Some(&"and"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(message: &str) -> Option<String> {
        let lower = message.to_ascii_lowercase();
        about_someone(message, &lower).map(|f| f.content)
    }

    #[test]
    fn a_lasting_fact_about_someone_is_read_and_a_passing_one_is_not() {
        for lasting in [
            "my sister is a vet",
            "My husband is allergic to shellfish",
            "my mum lives in Cardiff",
            "my son is 7",
            "my daughter's vegetarian",
            "My brother Tom works at Tesco",
            "my dad is a retired teacher",
            "my sister Zoë lives in Lisbon",
            "my dad passed away in 2019",
            "My cat died last spring",
            "My mum has dementia",
            "my son's got autism",
            "my sister has two kids",
            "our son is 7",
            "Our dog died in her sleep",
            "my husband Pete hates spicy food",
            "my son can't eat nuts",
            "My wife Priya is pregnant with our first",
            "My dad's 82 and lives on his own in Swansea",
        ] {
            assert!(said(lasting).is_some(), "{lasting}");
        }
        for passing in [
            "my wife is tired",
            "my boss is a legend",
            "my son is a nightmare",
            "my sister is at the shops",
            "my dad is 70 percent sure",
            "my sister's husband is a vet",
            "my sister has a meeting",
            "my dad has the car today",
            "my boss hates me",
            "my daughter loves it",
            "my wife loves the flowers I got her",
        ] {
            assert_eq!(said(passing), None, "{passing}");
        }
        // Spacing and names of any script read without a panic.
        for odd in [
            "my sister  Zoë lives in Lisbon",
            "my sister Zoë",
            "my sister \u{130}\u{130} is a vet",
        ] {
            let _ = said(odd);
        }
    }
}
