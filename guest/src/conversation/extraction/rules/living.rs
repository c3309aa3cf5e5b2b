//! How the teller lives, in forms the openers of `mod.rs` do not reach: where "we" live,
//! how they work ("I work from home", "I work nights"), what they keep from ("I don't
//! drink", "I never eat pork", "I gave up smoking"), what they play or are learning, and a
//! standing told with "I'm" or "I've been" ("I'm retired", "I've been vegan for ten
//! years", "I've been a nurse for 12 years").

use super::sentences::{capitalise, clause, starts_with_word};
use super::words::having::VEHICLES;
use super::words::living::{
    ABSTAINING, DRIVEN, GROUPS, HABITS_LEFT, KEEPING, LANGUAGES, LONG, NOT_A_STANDING, NOT_KEPT_FROM, PLAYED,
    PRACTISED, STANDINGS, WE_PLACES, WORKING,
};
use super::words::{CONDITIONS, DIETS};
use super::{fact_of, object_ok};
use crate::conversation::extraction::Fact;
use crate::judgment::is_occupation;
use crate::memory_type::MemoryType;

/// The fact `text` (lowercased as `lower`, leads gone) tells of how the teller lives.
/// Read before the sentence's negation (`negated`, of the fact's clause) refuses it: a
/// keeping-from is a negation.
pub(super) fn living(text: &str, lower: &str, negated: bool) -> Option<Fact> {
    let told = |t: MemoryType| Some(fact_of(capitalise(&clause(text)), t, Vec::new()));
    if let Some((opener, t)) = ABSTAINING.iter().find(|(o, _)| lower.starts_with(*o)) {
        let rest = lower[opener.len()..].trim_start();
        let left_habit = opener.contains("gave up") || opener.contains("given up") || opener.contains("quit");
        let ok = if left_habit {
            HABITS_LEFT.iter().any(|h| starts_with_word(rest, h))
        } else {
            // "I don't drink" alone; else its object is a thing.
            (rest.is_empty() || rest.starts_with([',', '.', '!']) || object_ok(rest))
                && !NOT_KEPT_FROM.iter().any(|n| starts_with_word(rest, n))
        };
        return if ok { told(*t) } else { None };
    }
    if negated {
        return None;
    }
    if let Some(opener) = WE_PLACES.iter().find(|o| lower.starts_with(**o)) {
        let rest = &lower[opener.len()..];
        return if object_ok(rest) {
            told(MemoryType::Identity)
        } else {
            None
        };
    }
    if let Some(rest) = lower.strip_prefix("i work ") {
        return if WORKING.iter().any(|w| rest.starts_with(w) && object_ok(rest)) {
            told(MemoryType::Identity)
        } else {
            None
        };
    }
    if let Some(rest) = lower.strip_prefix("i play ") {
        let rest = rest.strip_prefix("the ").unwrap_or(rest);
        return if PLAYED
            .iter()
            .any(|p| starts_with_word(rest, p.trim_end()) || rest.starts_with(p))
        {
            told(MemoryType::Preference)
        } else {
            None
        };
    }
    for learning in ["i'm learning ", "i am learning ", "im learning "] {
        if let Some(rest) = lower.strip_prefix(learning) {
            let rest = rest.strip_prefix("the ").unwrap_or(rest);
            let learnt = LANGUAGES.iter().any(|l| starts_with_word(rest, l))
                || PLAYED.iter().any(|p| starts_with_word(rest, p.trim_end()))
                || (rest.starts_with("to ") && object_ok(&rest[3..]));
            return if learnt { told(MemoryType::Identity) } else { None };
        }
    }
    if KEEPING.iter().any(|k| starts_with_word(lower, k)) {
        return told(MemoryType::Preference);
    }
    for driving in [
        "i drive a",
        "i drive an",
        "we drive a",
        "we drive an",
        "i ride a",
        "i ride an",
    ] {
        if starts_with_word(lower, driving) {
            let at = driving.len();
            let named = text[at..]
                .split_whitespace()
                .take(3)
                .any(|w| w.starts_with(char::is_uppercase))
                || lower[at..]
                    .split_whitespace()
                    .take(3)
                    .map(|w| w.trim_end_matches([',', '.']))
                    .any(|w| DRIVEN.contains(&w) || VEHICLES.contains(&w));
            return if named { told(MemoryType::Identity) } else { None };
        }
    }
    for played in ["i've played ", "i have played ", "ive played "] {
        if let Some(rest) = lower.strip_prefix(played) {
            let rest = rest.strip_prefix("the ").unwrap_or(rest);
            return if PLAYED.iter().any(|p| starts_with_word(rest, p.trim_end())) {
                told(MemoryType::Preference)
            } else {
                None
            };
        }
    }
    for been in ["i've been ", "i have been ", "ive been "] {
        if let Some(rest) = lower.strip_prefix(been)
            && PRACTISED.iter().any(|p| starts_with_word(rest, p))
        {
            // "for 20 years", "since 2015": not "for an hour".
            let fact = clause(lower);
            let long = fact.split_whitespace().any(|w| LONG.contains(&w));
            return if long { told(MemoryType::Identity) } else { None };
        }
    }
    for be in ["i'm in ", "i am in ", "im in "] {
        if let Some(rest) = lower.strip_prefix(be) {
            let rest = rest.strip_prefix("a ").or_else(|| rest.strip_prefix("an "));
            let group = rest.is_some_and(|r| {
                r.split_whitespace()
                    .take(3)
                    .any(|w| GROUPS.contains(&w.trim_end_matches([',', '.', '!'])))
            });
            return if group { told(MemoryType::Identity) } else { None };
        }
    }
    standing(lower).and_then(told)
}

/// "I'm retired", "I'm married to Tom", "I've been vegan for ten years", "I've been a
/// nurse for 12 years": the type of the standing told, if one is.
fn standing(lower: &str) -> Option<MemoryType> {
    let (rest, been) = ["i'm ", "i am ", "im "]
        .iter()
        .find_map(|be| lower.strip_prefix(be).map(|r| (r, false)))
        .or_else(|| {
            ["i've been ", "i have been ", "ive been "]
                .iter()
                .find_map(|be| lower.strip_prefix(be).map(|r| (r, true)))
        })?;
    if let Some((word, t)) = STANDINGS.iter().find(|(w, _)| starts_with_word(rest, w)) {
        let tail = rest[word.len()..].trim_start();
        let clean = !rest[word.len()..].starts_with('-') && !NOT_A_STANDING.iter().any(|n| starts_with_word(tail, n));
        return clean.then_some(*t);
    }
    if !been {
        return None;
    }
    // "I've been" with what "I'm" already reads: a diet, a condition, a job.
    if DIETS.iter().any(|d| starts_with_word(rest, d)) {
        return Some(MemoryType::Preference);
    }
    if CONDITIONS.iter().any(|c| starts_with_word(rest, c)) {
        return Some(MemoryType::Identity);
    }
    let role = rest.strip_prefix("a ").or_else(|| rest.strip_prefix("an "))?;
    role.split(|c: char| !c.is_alphanumeric() && c != '-')
        .take(3)
        .any(is_occupation)
        .then_some(MemoryType::Identity)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(message: &str) -> Option<String> {
        let lower = message.to_ascii_lowercase();
        let negated = super::super::sentences::negated(&clause(&lower));
        living(message, &lower, negated).map(|f| f.content)
    }

    #[test]
    fn a_way_of_living_is_read_and_a_moment_is_not() {
        for lasting in [
            "We live in a two-bed flat in Hackney",
            "we moved to Denver in the spring",
            "I work from home",
            "I work night shifts at the hospital",
            "I work in marketing",
            "I don't drink",
            "I don't drink alcohol",
            "I never eat pork",
            "I gave up smoking in 2015",
            "I don't drive",
            "I play the guitar in a band",
            "I play tennis on Sundays",
            "I'm learning Japanese",
            "I'm learning to drive",
            "I'm retired",
            "I'm married to Tom",
            "I've been vegan for ten years",
            "I've been a nurse for 12 years",
            "I'm Jewish and keep kosher",
            "I drive a 2014 VW Golf",
            "I ride a Honda CB500 to work",
            "I've played violin since I was seven",
            "I'm in an amateur orchestra now",
            "I've been teaching secondary maths for 20 years",
            "I keep kosher",
        ] {
            assert!(said(lasting).is_some(), "{lasting}");
        }
        for passing in [
            "I don't eat much",
            "I don't eat until noon on fridays lol",
            "I don't drink that",
            "I quit my job",
            "I gave up on the book",
            "I work on it",
            "I work out",
            "I play it by ear",
            "I'm learning a lot",
            "I'm engaged in a debate",
            "I'm single-handedly running the shop",
            "I've been a bit tired",
            "I've been waiting for an hour",
            "we don't live in London",
            "I drive an hour to work",
            "I've been working on this for an hour",
            "I'm in a meeting",
            "I'm in a bad mood",
        ] {
            assert_eq!(said(passing), None, "{passing}");
        }
    }
}
