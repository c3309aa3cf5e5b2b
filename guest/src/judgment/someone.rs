//! Someone a fact is about, other than the user: how a relation is read ("my older
//! sister", "my ex-wife", "my friend Sam") and when two mentions may be one person.

use super::fact::Subject;
use super::words::Word;
use crate::supersession::lexicon::{MANY_OF, PERSON_SLOTS};

/// Someone other than the user, as a fact names them. Two facts are about one person when
/// their keys agree and neither their names nor their ages disagree ("my sister" and "my
/// sister Maya" may be one person; "my sister Maya" and "my sister Leah", or "my older
/// sister" and "my younger sister", are two), or when one is named by the other's name
/// alone ("Maya" and "my sister Maya").
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Someone {
    /// A name ("tom"), a relation ("sister", "ex wife", "dad in-law", "stepdad"), or a
    /// relation of someone ("tom wife", "her sister").
    pub(super) key: String,
    /// The name told beside the relation: "my sister Maya".
    pub(super) name: Option<String>,
    /// Older or younger, when the relation says which: "my big sister", "my little brother".
    age: Option<Age>,
}

/// Which of two siblings (or children) a relation means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Age {
    Older,
    Younger,
}

impl Someone {
    /// The subject known by `key` alone: a name, "she", "tom wife".
    pub(super) fn called(key: impl Into<String>) -> Subject {
        Subject::Person(Someone {
            key: key.into(),
            name: None,
            age: None,
        })
    }

    /// Whether the two may be one person (see [`Someone`]).
    pub(super) fn may_be(&self, other: &Someone) -> bool {
        fn agree<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> bool {
            a.is_none() || b.is_none() || a == b
        }
        let by_name = |a: &Someone, b: &Someone| b.name.is_none() && b.age.is_none() && a.name.as_ref() == Some(&b.key);
        (self.key == other.key && agree(&self.name, &other.name) && agree(&self.age, &other.age))
            || by_name(self, other)
            || by_name(other, self)
    }
}

/// People one names by relation, beside the supersession rule's (`PERSON_SLOTS`, one at a
/// time, and `MANY_OF`): "my sister lives in Berlin" is about the sister.
const RELATIONS: &[&str] = &[
    "mom",
    "dad",
    "parents",
    "baby",
    "toddler",
    "bff",
    "grandma",
    "grandpa",
    "grandfather",
    "grandmother",
    "roommate",
    "flatmate",
    "housemate",
    "teacher",
    "coach",
    "mentor",
    "puppy",
    "kitten",
    "team",
    "family",
    "in-laws",
    "stepdad",
    "stepmom",
    "stepson",
    "stepdaughter",
    "ex",
    "twin",
    "classmate",
    "teammate",
    "director",
    "supervisor",
];

/// Whether someone known by `key` ("son", "mum", "lily") may be the one a pronoun
/// ("he", "she") calls: a relation of the other sex may not.
pub(super) fn may_be_called(key: &str, pronoun: &str) -> bool {
    match pronoun {
        "he" => !FEMALE.contains(&key),
        "she" => !MALE.contains(&key),
        _ => true,
    }
}

/// Relations "he" cannot be, and relations "she" cannot be.
const FEMALE: &[&str] = &[
    "mum",
    "mom",
    "mother",
    "sister",
    "daughter",
    "wife",
    "girlfriend",
    "aunt",
    "niece",
    "grandma",
    "nan",
    "granny",
    "stepdaughter",
    "stepmom",
    "fiancee",
    "gran",
];
const MALE: &[&str] = &[
    "dad",
    "father",
    "brother",
    "son",
    "husband",
    "boyfriend",
    "uncle",
    "nephew",
    "grandpa",
    "grandad",
    "stepson",
    "stepdad",
    "fiance",
];

pub(super) fn is_relation(word: &str) -> bool {
    RELATIONS.contains(&word) || PERSON_SLOTS.contains(&word) || MANY_OF.contains(&word)
}

/// Words after a relation that make it a thing's name: "dentist appointment".
const THINGS_OF: &[&str] = &[
    "appointment",
    "appt",
    "visit",
    "checkup",
    "check",
    "surgery",
    "practice",
    "clinic",
    "bill",
    "fees",
    "session",
];

/// Whether `low` is a relation's possessive, with or without its apostrophe: "mum's",
/// "mums", "my mate's".
pub(super) fn possessive(low: &str) -> bool {
    low.strip_suffix("'s").is_some_and(is_relation) || one_of_each(low).is_some()
}

/// The relation of "husbands", "mums": one has one, so the "s" is an "'s" typed without
/// its apostrophe.
fn one_of_each(low: &str) -> Option<&str> {
    low.strip_suffix('s').filter(|one| ONE_OF_EACH.contains(one))
}

/// Relations one has one of at a time, whose plural is an "'s" without its apostrophe.
const ONE_OF_EACH: &[&str] = &[
    "husband",
    "wife",
    "partner",
    "mum",
    "mom",
    "dad",
    "mother",
    "father",
    "boyfriend",
    "girlfriend",
    "fiance",
    "fiancee",
    "hubby",
    "missus",
];

/// Words before a relation that narrow it: "my older sister", "my best friend".
const NARROWING: &[&str] = &[
    "older", "younger", "little", "big", "best", "eldest", "oldest", "youngest", "new", "step", "twin", "baby", "new",
    "old",
];

/// A relation at the start of `words`, and how many words it takes: "sister", "older
/// sister" (older), "ex-wife" ("ex wife"), "step-dad" ("stepdad"), "mother-in-law" ("mom
/// in-law"). A word that narrows the relation without telling one person from another
/// ("best", "new") is left out of it.
pub(super) fn relation(words: &[Word]) -> Option<(Someone, usize)> {
    let low = |k: usize| words.get(k).map(|w| w.low.trim_end_matches("'s"));
    let mut used = 0;
    let mut age = None;
    let mut step = false;
    let mut ex = false;
    while used < 3 {
        match low(used) {
            Some(w) if NARROWING.contains(&w) => {
                age = age.or(match w {
                    "older" | "big" | "eldest" | "oldest" => Some(Age::Older),
                    "younger" | "little" | "youngest" | "baby" => Some(Age::Younger),
                    _ => None,
                });
                step |= w == "step";
            }
            // "my ex-wife", "my ex boyfriend"; "my ex" alone is the relation.
            Some("ex") if low(used + 1).is_some_and(|next| is_relation(next) && next != "ex") => ex = true,
            _ => break,
        }
        used += 1;
    }
    let word = match low(used)? {
        "friends" => "friend",
        // "my husbands in the office 5 days a week", "my mums bungalow".
        w => one_of_each(w).unwrap_or(w),
    };
    if !is_relation(word) {
        return None;
    }
    // "my dentist appointment", "the vet bill": a thing of the relation, no one.
    if low(used + 1).is_some_and(|next| THINGS_OF.contains(&next)) {
        return None;
    }
    let mut key = super::words::stem(word);
    used += 1;
    // "mother-in-law", "sister in law".
    if low(used) == Some("in") && low(used + 1) == Some("law") {
        key.push_str(" in-law");
        used += 2;
    }
    if step {
        key = format!("step{key}");
    }
    if ex {
        key = format!("ex {key}");
    }
    Some((Someone { key, name: None, age }, used))
}

impl Someone {
    /// The same relation of `owner`: "her sister", "tom wife".
    pub(super) fn of(self, owner: &str) -> Subject {
        Subject::Person(Someone {
            key: format!("{owner} {}", self.key),
            ..self
        })
    }
}
