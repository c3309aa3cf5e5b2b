//! Attributes that hold one value at a time, and the everyday phrasings that state them:
//! "I work at Google" and "I started a new job at Microsoft" both say who employs the
//! user, so the second replaces the first though they share almost no words.

use super::fact::Fact;
use super::someone::is_relation;
use super::words::{CHANGE_MARKERS, FILLER, FUNCTION, Word, stem};
use crate::entities::{MONTHS, WEEKDAYS};
pub(crate) use roles::is_occupation;
use roles::{STANDINGS, occupation, role_value, role_words};
pub(super) use roles::{ends_employment, job_quit, out_of_work, role_head};

mod allegiance;
mod roles;

/// An attribute read from a fact, and the value it gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Slot {
    pub(super) name: String,
    /// The value's stems, without time words.
    pub(super) value: Vec<String>,
    /// The value was written with a capital (a name or place), not a description.
    pub(super) proper: bool,
}

/// Phrases that introduce a value, by attribute. Longest first within an attribute does
/// not matter: the first phrase found in the text wins, and phrases do not overlap.
const PHRASES: &[(&str, &[&str])] = &[
    (
        "home",
        &[
            "live in",
            "lives in",
            "living in",
            "live at",
            "living at",
            "moved to",
            "move to",
            "moving to",
            "moved back to",
            "moved down to",
            "moved up to",
            "moving down to",
            "moving up to",
            "moved into",
            "moving into",
            "moved over to",
            "relocated to",
            "relocating to",
            "based in",
            "based out of",
            "reside in",
            "residing in",
            "settled in",
            "home is in",
            "house is in",
            // "flat" is folded onto "apartment".
            "apartment is in",
            "new place in",
            "new apartment in",
            "new house in",
            // Where one rents or owns is where one lives: "we rent an apartment in Brooklyn".
            "rent an apartment in",
            "renting an apartment in",
            "rent a house in",
            "renting a house in",
            "rent a place in",
            "renting a place in",
            "rent a room in",
            "renting a room in",
            "own a house in",
            "own an apartment in",
            // ("a flat" reads "a apartment".)
            "rent a apartment in",
            "renting a apartment in",
            "own a apartment in",
            "address is",
            // After "home is in", which comes first: "my home is Leeds".
            "home is",
        ],
    ),
    (
        "employer",
        &[
            "work at",
            "work for",
            "works at",
            "works for",
            "working at",
            "working for",
            "worked at",
            "teach at",
            "teaches at",
            "teaching at",
            "lecture at",
            "lectures at",
            "job at",
            "job with",
            "employed at",
            "employed by",
            "joined",
            "hired at",
            "hired by",
            "started at",
            "position at",
            "role at",
            "gig at",
            "intern at",
            "interning at",
            "employer is",
            "company is",
            "offer from",
        ],
    ),
    (
        "role",
        &[
            "work as",
            "works as",
            "working as",
            "job is",
            "job title is",
            "title is",
            "profession is",
            "occupation is",
            "promoted to",
            "became a",
            "became an",
            "retrained as",
            "qualified as",
        ],
    ),
    (
        "surname",
        &["surname is", "last name is", "family name is", "surname's"],
    ),
    (
        "name",
        &[
            "name is",
            "call me",
            "go by",
            "goes by",
            "am called",
            "is called",
            "be called",
            "name's",
            "known as",
        ],
    ),
    ("age", &["years old", "turned", "turning", "age is", "aged"]),
    (
        "car",
        &[
            "drive a",
            "drive an",
            "drives a",
            "drives an",
            "car is",
            "car is a",
            "car is an",
            "car's a",
            "car's an",
            "driving a",
        ],
    ),
    (
        "phone",
        &[
            "phone is",
            "phone is a",
            "phone is an",
            "use an iphone",
            "use a pixel",
            "use an android",
        ],
    ),
    (
        "commute",
        &["commute by", "commute on", "get to work by", "go to work by"],
    ),
    (
        "school",
        &[
            "study at",
            "studying at",
            "student at",
            "enrolled at",
            "go to school at",
            "attend",
        ],
    ),
    ("major", &["majoring in", "major in"]),
];

/// Words that name one value of their attribute wherever they stand.
const STATES: &[(&str, &[&str])] = &[
    (
        "diet",
        &[
            "vegetarian",
            "vegan",
            "pescatarian",
            "pescetarian",
            "keto",
            "paleo",
            "carnivore",
            "omnivore",
            "flexitarian",
            "plant-based",
        ],
    ),
    (
        "status",
        &[
            "single",
            "married",
            "engaged",
            "divorced",
            "separated",
            "widowed",
            "widow",
            "widower",
            "dating",
            "relationship",
        ],
    ),
    (
        "employment",
        &[
            "retired",
            "unemployed",
            "jobless",
            "laid",
            "fired",
            "resigned",
            "redundant",
            "freelance",
            "freelancer",
            "self-employed",
            "between",
        ],
    ),
];

/// Whether the clause before a verb of where one lives names a thing someone has, which
/// is what the verb is said of: "my office moved to", "our local pub relocated to", "the
/// kids' school moved to". A determiner or a possessive followed by a word that is no
/// relation, name or frame word is such a thing; "my sister moved to", "Aunt Ruth's moved
/// to", "we packed up and moved to" and "after the move to" name none. `body` is where
/// the fact's subject ends in `clause`.
fn names_a_thing(clause: &[Word], body: usize) -> bool {
    let owner = |w: &Word| {
        matches!(
            w.low.as_str(),
            "my" | "our" | "the" | "his" | "her" | "their" | "your" | "a" | "an"
        ) || w.low.ends_with("'s")
            || w.low.ends_with("s'")
    };
    let thing = |w: &Word| {
        let low = w.low.trim_end_matches("'s").trim_end_matches('\'');
        !(w.cap
            || is_relation(low)
            || FILLER.contains(&low)
            || FUNCTION.contains(&low)
            || CHANGE_MARKERS.contains(&low)
            || is_time(low))
    };
    // The subject's own words ("my older sister") are a person, not a thing.
    clause
        .iter()
        .position(owner)
        .is_some_and(|k| clause[(k + 1).max(body)..].iter().any(thing))
}

/// Words about time, which a value does not include: "moved to Porto last month".
const TIME: &[&str] = &[
    "last",
    "next",
    "this",
    "that",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "ago",
    "yesterday",
    "today",
    "tomorrow",
    "since",
    "day",
    "days",
    "back",
    "couple",
    "few",
    "recently",
    "now",
    "officially",
    "finally",
    "again",
    "permanently",
    "full-time",
    "part-time",
    "fulltime",
    "parttime",
    "time",
    "full",
    "part",
    "just",
    "new",
    "currently",
];

/// Whether a word is about time: a time word, a weekday or a month.
pub(super) fn is_time(low: &str) -> bool {
    TIME.contains(&low) || WEEKDAYS.contains(&low) || MONTHS.contains(&low)
}

/// Words that end a value: "Porto with my wife", "Google because ...".
const BREAKS: &[&str] = &[
    "with", "because", "since", "and", "but", "for", "as", "after", "before", "when", "while", "so", "though",
    "although", "until", "where", "which", "who", "on", "not",
];

/// Words that say what a surname is like rather than what it is (as stems).
const NOT_A_SURNAME: &[&str] = &[
    "welsh",
    "irish",
    "english",
    "scottish",
    "polish",
    "italian",
    "spanish",
    "french",
    "german",
    "greek",
    "indian",
    "chinese",
    "japanese",
    "korean",
    "jewish",
    "dutch",
    "danish",
    "swedish",
    "russian",
    "turkish",
    "portugues",
    "nigerian",
    "arabic",
    "hebrew",
    "latin",
    "common",
    "unusual",
    "long",
    "short",
    "hyphenated",
    "weird",
    "rare",
    "spelt",
    "spelled",
    "pronounced",
    "double",
];

/// A slot's name and its phrases, each cut into its words.
type PhraseWords = (&'static str, Vec<Vec<&'static str>>);

/// `PHRASES` with each phrase cut into its words, once: an add judges up to sixteen
/// pairs, and cutting them at every call was a fifth of the judgment's time.
fn phrase_words() -> &'static [PhraseWords] {
    static WORDS: std::sync::OnceLock<Vec<PhraseWords>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        PHRASES
            .iter()
            .map(|(name, phrases)| (*name, phrases.iter().map(|p| p.split(' ').collect()).collect()))
            .collect()
    })
}

/// The single-valued attribute a fact states, if one of the known phrasings is in it.
pub(super) fn slot_of(fact: &Fact) -> Option<Slot> {
    let words = &fact.words[fact.body.min(fact.words.len())..];
    let lows: Vec<&str> = words.iter().map(|w| w.low.as_str()).collect();
    for (name, phrases) in phrase_words() {
        for p in phrases {
            let Some(at) = lows.windows(p.len()).position(|w| w == p.as_slice()) else {
                continue;
            };
            // An email or a web address is no home.
            if p[0] == "address"
                && at > 0
                && matches!(lows[at - 1], "email" | "mail" | "web" | "ip" | "work" | "office")
            {
                continue;
            }
            // "My office moved to Bradford", "our church relocated to Otley": a thing of the
            // subject's moved, not the subject. The verb's clause is read with the subject's
            // words ("my"); a phrase that names the home itself ("our new place in") needs
            // no such look.
            if *name == "home" && !matches!(p[0], "home" | "house" | "apartment" | "new" | "address") {
                let from = fact.body.min(fact.words.len());
                let lead = fact.lead.min(from);
                let clause = fact.words[lead..from + at]
                    .iter()
                    .rposition(|w| w.stop || w.end)
                    .map_or(lead, |e| lead + e + 1);
                if names_a_thing(&fact.words[clause..from + at], from.saturating_sub(clause)) {
                    continue;
                }
            }
            let after = at + p.len();
            let mut value = Vec::new();
            let mut proper = false;
            // "I'm 34 years old", "I turned 40": the number is the value wherever it is.
            if *name == "age" {
                value = lows
                    .iter()
                    .filter(|w| w.parse::<u32>().is_ok())
                    .map(|w| (*w).to_owned())
                    .collect();
            } else {
                for w in &words[after..] {
                    if BREAKS.contains(&w.low.as_str()) {
                        break;
                    }
                    if is_time(&w.low) || FILLER.contains(&w.low.as_str()) || FUNCTION.contains(&w.low.as_str()) {
                        continue;
                    }
                    proper |= w.cap || w.upper;
                    value.push(w.stem.clone());
                    // "my surname's Welsh, it's from my dad's side": a surname ends with its
                    // clause (an address goes on past its commas).
                    if w.stop && *name == "surname" {
                        break;
                    }
                }
            }
            // A surname told of, not told: "my surname's Welsh", "... is hyphenated".
            if value.is_empty() || *name == "surname" && value.iter().any(|v| NOT_A_SURNAME.contains(&v.as_str())) {
                continue;
            }
            return Some(Slot {
                name: (*name).to_owned(),
                value,
                proper,
            });
        }
    }
    // "I'm 34", "My son is 7": a number alone after "am" or "is" is an age.
    let copula = lows.first().is_some_and(|w| matches!(*w, "am" | "is" | "are"));
    let number = |w: &str| {
        w.rsplit('#')
            .next()
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| *n < 130)
    };
    if copula && fact.content.len() == 1 && fact.content.iter().all(|w| number(w).is_some()) {
        return Some(Slot {
            name: "age".to_owned(),
            value: fact
                .content
                .iter()
                .filter_map(|w| number(w))
                .map(|n| n.to_string())
                .collect(),
            proper: false,
        });
    }
    // "a retired teacher", "a freelance writer": the standing is said of an occupation,
    // which is the value with it.
    if let Some(at) = lows
        .windows(2)
        .position(|w| matches!(w[0], "a" | "an") && STANDINGS.contains(&w[1]))
    {
        let value = role_value(role_words(&words[at + 1..]));
        if value.len() > 1 {
            return Some(Slot {
                name: "role".to_owned(),
                value,
                proper: false,
            });
        }
    }
    if let Some(slot) = occupation(words, &lows) {
        return Some(slot);
    }
    // A state named is the fact's value: "I've been vegetarian for years, though I still
    // eat fish" is vegetarian.
    for (name, states) in STATES {
        // Not one asked about: "How long have you been married?".
        if let Some((_, w)) = lows
            .iter()
            .enumerate()
            .find(|(k, w)| states.contains(w) && !words[*k].asks)
        {
            return Some(Slot {
                name: (*name).to_owned(),
                value: vec![stem(w)],
                proper: false,
            });
        }
    }
    // "Sarah eats fish now" after "Sarah is vegetarian".
    let eats = lows.iter().any(|w| matches!(*w, "eat" | "eats" | "eating" | "ate"));
    let flesh = lows.iter().any(|w| {
        matches!(
            *w,
            "meat" | "fish" | "chicken" | "beef" | "pork" | "bacon" | "steak" | "seafood" | "burgers"
        )
    });
    // "ate a bit of chicken at the wedding yesterday by accident": one meal, no diet; but
    // "started eating meat again, had a burger yesterday" is one.
    let by_accident = lows
        .iter()
        .any(|w| matches!(*w, "accident" | "accidentally" | "mistake"));
    let a_day = lows.iter().any(|w| matches!(*w, "yesterday" | "today" | "tonight"))
        || lows
            .windows(2)
            .any(|p| matches!(p, ["last", "night"] | ["this", "morning"]));
    let taken_up = lows
        .iter()
        .any(|w| matches!(*w, "started" | "start" | "again" | "now" | "anymore" | "nowadays"));
    let once = by_accident || a_day && !taken_up;
    if eats && flesh && !fact.denied && !once {
        return Some(Slot {
            name: "diet".to_owned(),
            value: vec!["meat".to_owned()],
            proper: false,
        });
    }
    allegiance::allegiance(words).or_else(|| favorite(fact, &lows))
}

/// Whether `f`, beside an older fact of the same allegiance ([`allegiance`]), tells it
/// as changed; `old_named` when `f` names the old one too.
pub(super) fn allegiance_changed(f: &Fact, old_named: bool) -> bool {
    allegiance::told_as_changed(&f.words[f.body.min(f.words.len())..], old_named)
}

/// "My favorite color is blue", "Blue is my favourite colour": the attribute is the
/// favorite kind of thing, the value the rest.
fn favorite(fact: &Fact, lows: &[&str]) -> Option<Slot> {
    let at = lows.iter().position(|w| *w == "favorite")?;
    let kind = lows.get(at + 1)?;
    // "One of my favorite shows", "my favourite films are ...": many, not one value.
    if lows.get(at + 2) == Some(&"are") || (at >= 2 && lows[at - 2] == "of") {
        return None;
    }
    let words = &fact.words[fact.body.min(fact.words.len())..];
    // "What's your favourite film?" asks the other's and states none ("fave food these
    // days? biryani" answers itself).
    if words[at].asks && at > 0 && matches!(words[at - 1].low.as_str(), "your" | "ur") {
        return None;
    }
    // The value is told in the favorite's own sentence.
    let first = words[..at].iter().rposition(|w| w.end).map_or(0, |e| e + 1);
    let last = words[at..]
        .iter()
        .position(|w| w.end)
        .map_or(words.len(), |e| at + e + 1);
    let value: Vec<String> = words[first..last]
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            let i = first + i;
            i != at
                && i != at + 1
                && !FUNCTION.contains(&w.low.as_str())
                && !FILLER.contains(&w.low.as_str())
                && !is_time(&w.low)
                && !matches!(
                    w.low.as_str(),
                    "favorite" | "still" | "anymore" | "not" | "no" | "longer"
                )
        })
        .map(|(_, w)| w.stem.clone())
        .collect();
    (!value.is_empty()).then(|| Slot {
        name: format!("favorite {}", stem(kind)),
        value,
        proper: false,
    })
}

/// Words that say one has a partner: "single" no longer holds.
pub(super) const PARTNERS: &[&str] = &[
    "girlfriend",
    "boyfriend",
    "wife",
    "husband",
    "fiance",
    "fiancee",
    "fiancé",
    "fiancée",
    "partner",
    "married",
    "engaged",
    "dating",
];

/// The words that state an attribute, whatever its value: a fact's candidates are found by
/// them.
pub(super) fn family(name: &str) -> &'static [&'static str] {
    match name {
        "home" => &["live", "lives", "living", "moved", "home"],
        "employer" | "role" => &["work", "works", "job", "employer", "company"],
        "diet" => &["vegetarian", "vegan", "meat", "eat"],
        "status" => &[
            "single",
            "married",
            "engaged",
            "partner",
            "girlfriend",
            "boyfriend",
            "dating",
        ],
        "employment" => &["work", "job", "retired"],
        "name" => &["name", "call", "called"],
        "surname" => &["surname", "name"],
        "team" => &["support", "supporter", "fan"],
        "vote" => &["vote", "voter", "voting"],
        "age" => &["old", "age", "turned"],
        "car" => &["drive", "car"],
        "phone" => &["phone"],
        "commute" => &["commute", "work"],
        "school" | "major" => &["study", "studying", "school", "university"],
        _ => &["favorite", "favourite"],
    }
}
