//! How the teller lives, in forms the openers of `mod.rs` do not reach: where "we" live,
//! how they work ("I work from home", "I work nights"), what they keep from ("I don't
//! drink", "I never eat pork", "I gave up smoking"), what they play or are learning, and a
//! standing told with "I'm" or "I've been" ("I'm retired", "I've been vegan for ten
//! years", "I've been a nurse for 12 years").

use super::sentences::{capitalise, clause, starts_with_word};
use super::words::{CONDITIONS, DIETS};
use super::{fact_of, object_ok};
use crate::conversation::extraction::Fact;
use crate::judgment::is_occupation;
use crate::memory_type::MemoryType;

/// "We" and the places a household lives in.
const WE_PLACES: &[&str] = &[
    "we live in ",
    "we live on ",
    "we live near ",
    "we live just outside ",
    "we moved to ",
    "we've moved to ",
    "we relocated to ",
    "we're based in ",
    "we are based in ",
    "we're from ",
    "we are from ",
];

/// Ways of working that last, after "I work".
const WORKING: &[&str] = &[
    "in ",
    "from home",
    "remotely",
    "nights",
    "night shifts",
    "nightshifts",
    "shifts",
    "lates",
    "earlies",
    "part-time",
    "part time",
    "full-time",
    "full time",
    "weekends",
    "freelance",
    "for myself",
    "two jobs",
    "in a ",
    "with ",
];

/// A keeping-from, each with its type: what is eaten or drunk is a taste, the rest who the
/// teller is.
const ABSTAINING: &[(&str, MemoryType)] = &[
    ("i don't eat ", MemoryType::Preference),
    ("i do not eat ", MemoryType::Preference),
    ("i never eat ", MemoryType::Preference),
    ("i can't eat ", MemoryType::Preference),
    ("i cannot eat ", MemoryType::Preference),
    ("i don't drink", MemoryType::Preference),
    ("i do not drink", MemoryType::Preference),
    ("i never drink", MemoryType::Preference),
    ("i can't drink ", MemoryType::Preference),
    ("i haven't eaten ", MemoryType::Preference),
    ("i haven't had a drink", MemoryType::Preference),
    ("i don't smoke", MemoryType::Identity),
    ("i do not smoke", MemoryType::Identity),
    ("i never smoke", MemoryType::Identity),
    ("i don't drive", MemoryType::Identity),
    ("i do not drive", MemoryType::Identity),
    ("i can't drive", MemoryType::Identity),
    ("i gave up ", MemoryType::Preference),
    ("i've given up ", MemoryType::Preference),
    ("i quit ", MemoryType::Preference),
    ("i stopped eating ", MemoryType::Preference),
    ("i stopped drinking", MemoryType::Preference),
];

/// What may not follow a keeping-from: a measure of the moment ("I don't eat much"), a
/// pointer into the talk, or a time of the day.
const NOT_KEPT_FROM: &[&str] = &[
    "much", "a lot", "enough", "anything", "properly", "well", "yet", "for", "on", "and", "until", "today", "tonight",
    "my job", "work", "school", "the",
];

/// What "gave up" and "quit" must name to be a habit left: not a job or a game.
const HABITS_LEFT: &[&str] = &[
    "smoking",
    "drinking",
    "alcohol",
    "booze",
    "meat",
    "sugar",
    "caffeine",
    "coffee",
    "dairy",
    "gluten",
    "cigarettes",
    "vaping",
    "red meat",
    "pork",
    "beef",
    "social media",
    "gambling",
];

/// What one plays that lasts: instruments, sports, games.
const PLAYED: &[&str] = &[
    "guitar",
    "piano",
    "drums",
    "violin",
    "viola",
    "cello",
    "bass",
    "ukulele",
    "uke",
    "saxophone",
    "sax",
    "trumpet",
    "trombone",
    "flute",
    "clarinet",
    "harp",
    "keyboard",
    "keys",
    "banjo",
    "mandolin",
    "accordion",
    "harmonica",
    "tennis",
    "football",
    "soccer",
    "basketball",
    "golf",
    "chess",
    "cricket",
    "rugby",
    "squash",
    "badminton",
    "volleyball",
    "hockey",
    "netball",
    "pickleball",
    "padel",
    "baseball",
    "softball",
    "bridge",
    "poker",
    "d&d",
    "dnd",
    "dungeons",
    "table tennis",
    "ping pong",
    "darts",
    "pool",
    "snooker",
    "bowls",
    "in a band",
    "in an orchestra",
    "for a ",
    "in a league",
    "video games",
    "board games",
];

/// Languages, for "I'm learning".
const LANGUAGES: &[&str] = &[
    "spanish",
    "french",
    "german",
    "italian",
    "portuguese",
    "japanese",
    "mandarin",
    "chinese",
    "cantonese",
    "korean",
    "arabic",
    "hindi",
    "russian",
    "dutch",
    "swedish",
    "norwegian",
    "danish",
    "polish",
    "greek",
    "turkish",
    "welsh",
    "irish",
    "gaelic",
    "hebrew",
    "latin",
    "urdu",
    "bengali",
    "tamil",
    "vietnamese",
    "thai",
    "sign language",
    "bsl",
    "asl",
    "esperanto",
];

/// A standing that lasts, after "I'm" or "I've been".
const STANDINGS: &[(&str, MemoryType)] = &[
    ("married", MemoryType::Relationship),
    ("divorced", MemoryType::Relationship),
    ("separated", MemoryType::Relationship),
    ("widowed", MemoryType::Relationship),
    ("engaged", MemoryType::Relationship),
    ("single", MemoryType::Relationship),
    ("retired", MemoryType::Identity),
    ("self-employed", MemoryType::Identity),
    ("freelance", MemoryType::Identity),
    ("unemployed", MemoryType::Identity),
    ("pregnant", MemoryType::Identity),
    ("sober", MemoryType::Identity),
    ("teetotal", MemoryType::Identity),
    ("a stay-at-home", MemoryType::Identity),
    ("a single mum", MemoryType::Identity),
    ("a single mom", MemoryType::Identity),
    ("a single dad", MemoryType::Identity),
    ("a single parent", MemoryType::Identity),
    ("jewish", MemoryType::Identity),
    ("muslim", MemoryType::Identity),
    ("christian", MemoryType::Identity),
    ("catholic", MemoryType::Identity),
    ("protestant", MemoryType::Identity),
    ("hindu", MemoryType::Identity),
    ("sikh", MemoryType::Identity),
    ("buddhist", MemoryType::Identity),
    ("mormon", MemoryType::Identity),
    ("quaker", MemoryType::Identity),
    ("atheist", MemoryType::Identity),
    ("an atheist", MemoryType::Identity),
    ("agnostic", MemoryType::Identity),
];

/// Food kept by a rule of faith or conscience: "I keep kosher", "I only eat halal".
const KEEPING: &[&str] = &[
    "i keep kosher",
    "i keep halal",
    "i eat halal",
    "i eat kosher",
    "i only eat halal",
    "i only eat kosher",
];

/// Groups one belongs to for years: "I'm in a choir", "I'm in an amateur orchestra".
const GROUPS: &[&str] = &[
    "band",
    "choir",
    "orchestra",
    "club",
    "league",
    "team",
    "society",
    "guild",
];

/// Verbs of work or practice that "I've been ... for years" makes lasting.
const PRACTISED: &[&str] = &[
    "teaching",
    "working",
    "nursing",
    "coaching",
    "training",
    "playing",
    "learning",
    "volunteering",
    "running",
    "painting",
    "writing",
    "cooking",
    "practising",
    "practicing",
    "studying",
    "dancing",
    "singing",
    "climbing",
    "cycling",
    "swimming",
    "doing",
];

/// Words that make a stretch of time long: "for 20 years", "for a decade", "since 2015".
const LONG: &[&str] = &["years", "year", "decades", "decade", "since"];

/// Vehicles driven or ridden: a make names itself with a capital ("a Honda CB500").
const DRIVEN: &[&str] = &[
    "car",
    "van",
    "truck",
    "pickup",
    "motorbike",
    "motorcycle",
    "bike",
    "e-bike",
    "scooter",
    "hybrid",
    "electric",
    "ev",
    "estate",
    "hatchback",
    "suv",
    "convertible",
    "campervan",
];

/// What may not follow a standing: "engaged in a debate", "single-handedly".
const NOT_A_STANDING: &[&str] = &["in", "with", "by", "out", "of", "from", "on"];

/// The fact `text` (lowercased as `lower`, leads gone) tells of how the teller lives.
/// Read before the sentence's negation is judged: a keeping-from is a negation.
pub(super) fn living(text: &str, lower: &str) -> Option<Fact> {
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
    if super::sentences::negated(&clause(lower)) {
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
                    .any(|w| DRIVEN.contains(&w.trim_end_matches([',', '.'])));
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
        living(message, &lower).map(|f| f.content)
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
