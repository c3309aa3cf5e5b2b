//! Reading a reference ("my wife", "Sarah", "Sarah's brother Tom", "@bob") into its parts,
//! and finding the person it means among the caller's people.

use super::{PersonRecord, is_capitalized};

/// A reference, read into its parts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reference {
    /// A proper name: "Sarah".
    pub name: Option<String>,
    /// What the person is to the user: "wife" from "my wife".
    pub relation: Option<String>,
    /// For "Sarah's brother Tom": ("Sarah", "brother"), the person Tom is related to.
    pub via: Option<(String, String)>,
    /// "@bob": a handle, as written.
    pub handle: Option<String>,
    /// A bare word or two that may be a relation rather than a name: "wife", "the
    /// wife", "My Sis" give "wife", "wife", "sis". A name match wins over it.
    pub bare_relation: Option<String>,
    /// The reference as written, trimmed.
    pub text: String,
}

/// How deeply a reference may nest possessives: "Sarah's brother's wife's friend" is 3.
pub const MAX_NESTING: usize = 4;

/// Relations common enough that a bare "wife" or "the boss" means one, even before
/// anyone has that relation.
const COMMON_RELATIONS: &[&str] = &[
    "wife",
    "husband",
    "partner",
    "spouse",
    "girlfriend",
    "boyfriend",
    "fiance",
    "fiancee",
    "fiancé",
    "fiancée",
    "mom",
    "mum",
    "mother",
    "mommy",
    "mama",
    "dad",
    "father",
    "daddy",
    "papa",
    "son",
    "daughter",
    "brother",
    "sister",
    "sis",
    "bro",
    "twin",
    "grandma",
    "grandmother",
    "granny",
    "grandpa",
    "grandfather",
    "grandson",
    "granddaughter",
    "aunt",
    "uncle",
    "cousin",
    "niece",
    "nephew",
    "stepmom",
    "stepmother",
    "stepdad",
    "stepfather",
    "stepson",
    "stepdaughter",
    "stepbrother",
    "stepsister",
    "mother-in-law",
    "father-in-law",
    "sister-in-law",
    "brother-in-law",
    "son-in-law",
    "daughter-in-law",
    "boss",
    "manager",
    "colleague",
    "coworker",
    "co-worker",
    "friend",
    "roommate",
    "flatmate",
    "housemate",
    "neighbor",
    "neighbour",
    "landlord",
    "landlady",
    "doctor",
    "dentist",
    "therapist",
    "teacher",
    "tutor",
    "coach",
    "mentor",
    "assistant",
    "lawyer",
    "accountant",
    "babysitter",
    "nanny",
    "ex",
    "ex-wife",
    "ex-husband",
    "ex-girlfriend",
    "ex-boyfriend",
];

/// Words that qualify a relation: "best friend", "older brother".
const RELATION_MODIFIERS: &[&str] = &[
    "best",
    "old",
    "older",
    "younger",
    "little",
    "big",
    "oldest",
    "youngest",
    "eldest",
    "new",
    "former",
    "childhood",
    "close",
    "good",
    "baby",
    "twin",
];

/// Whether a word is (part of) a common relation, whatever its case: "Wife", "best".
fn is_relation_word(word: &str) -> bool {
    let w = word.trim_end_matches(',').to_lowercase();
    let w = w.trim_end_matches("'s");
    COMMON_RELATIONS.contains(&w) || RELATION_MODIFIERS.contains(&w)
}

/// Whether a relation is one of the common ones: "wife", "best friend", "older brother".
pub fn is_common_relation(relation: &str) -> bool {
    let words: Vec<&str> = relation.split_whitespace().collect();
    words
        .last()
        .is_some_and(|last| COMMON_RELATIONS.contains(&last.to_lowercase().as_str()))
        && words.iter().all(|w| is_relation_word(w))
}

/// Splits "best friend Anna" into ("best friend", Some("Anna")): the name starts at the
/// first capitalized word that is not a relation ("My Wife Sarah" is the wife Sarah).
fn relation_and_name(words: &[&str]) -> (Option<String>, Option<String>) {
    let split = words
        .iter()
        .position(|w| is_capitalized(w) && !is_relation_word(w))
        .unwrap_or(words.len());
    let relation = words[..split].join(" ").to_lowercase();
    let relation = relation.trim_end_matches("'s").trim_end_matches(',').trim().to_owned();
    let name = words[split..].join(" ");
    let name = name.trim_end_matches("'s").trim_end_matches(',').trim().to_owned();
    (
        (!relation.is_empty()).then_some(relation),
        (!name.is_empty()).then_some(name),
    )
}

/// "@bob": a handle is one word after an `@`.
fn handle_of(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('@')?;
    (!rest.is_empty()
        && rest
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-')))
    .then_some(text)
}

/// Where the last possessive that is followed by more words is: the split of
/// "Sarah's brother's wife" into "Sarah's brother" and "wife".
fn last_possessive(words: &[&str]) -> Option<usize> {
    words
        .iter()
        .rposition(|w| w.chars().count() > 2 && w.to_lowercase().ends_with("'s"))
        .filter(|&p| p + 1 < words.len())
}

/// How many possessives a reference nests: "Sarah's brother's wife" is 2.
pub fn nesting(text: &str) -> usize {
    let text = text.replace('’', "'");
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .iter()
        .take(words.len().saturating_sub(1))
        .filter(|w| w.chars().count() > 2 && w.to_lowercase().ends_with("'s"))
        .count()
}

/// Reads a reference: "my wife", "Sarah", "my wife Sarah", "Sarah's brother Tom",
/// "Sarah's brother's wife", "the wife", "@bob".
pub fn parse_reference(text: &str) -> Reference {
    let text = text.trim().replace('’', "'");
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut r = Reference {
        text: text.clone(),
        ..Default::default()
    };
    if words.is_empty() {
        return r;
    }
    if let Some(handle) = handle_of(&text) {
        r.name = Some(handle[1..].to_owned());
        r.handle = Some(handle.to_owned());
        return r;
    }
    // "Sarah's brother Tom", "my wife's brother": a relation of someone else.
    if let Some(pos) = last_possessive(&words) {
        let owner = words[..=pos].join(" ");
        let owner = owner[..owner.len() - 2].trim().to_owned();
        let (relation, name) = relation_and_name(&words[pos + 1..]);
        if let Some(relation) = relation
            && !owner.is_empty()
            && !owner.eq_ignore_ascii_case("my")
        {
            r.via = Some((owner, relation));
            r.name = name;
            return r;
        }
    }
    let first = words[0].to_lowercase();
    if first == "my" || (first == "the" && words.len() > 1) {
        let (relation, name) = relation_and_name(&words[1..]);
        if first == "my" || relation.is_some() {
            match (relation, name) {
                // "my Sis": a relation, or a name; a known name decides.
                (None, Some(name)) => {
                    r.bare_relation = Some(name.to_lowercase());
                    r.name = Some(name);
                }
                (relation, name) => {
                    r.relation = relation;
                    r.name = name;
                }
            }
            return r;
        }
    }
    let name = text.trim_end_matches("'s").trim().to_owned();
    // "'s" alone names nobody: no name, no relation, so the reference is refused.
    if name.is_empty() {
        return r;
    }
    if words.len() <= 3 {
        let lower = name.to_lowercase();
        r.bare_relation = Some(lower.strip_prefix("the ").unwrap_or(&lower).to_owned());
    }
    r.name = Some(name);
    r
}

impl Reference {
    /// The relation this reference means, if it means one: "wife" for "my wife" and,
    /// when no one answers to the word as a name, for "wife" and "the wife" if someone
    /// is a wife or "wife" is a common relation. "Mike" stays a name.
    pub fn relation_meant(&self, people: &[&PersonRecord]) -> Option<String> {
        if let Some(relation) = &self.relation {
            return Some(relation.clone());
        }
        let bare = self.bare_relation.as_ref()?;
        let named = self.name.as_deref().unwrap_or(&self.text);
        if people.iter().any(|p| p.answers_to(named) || p.answers_to(&self.text)) {
            return None;
        }
        let known = people
            .iter()
            .any(|p| p.relation.as_deref().is_some_and(|r| r.eq_ignore_ascii_case(bare)));
        (known || is_common_relation(bare)).then(|| bare.clone())
    }
}

/// Finds the caller's person a reference means, without creating anyone.
pub fn find<'a>(people: &[&'a PersonRecord], reference: &Reference) -> Option<&'a PersonRecord> {
    find_at(people, reference, 0)
}

fn find_at<'a>(people: &[&'a PersonRecord], reference: &Reference, depth: usize) -> Option<&'a PersonRecord> {
    if reference.text.is_empty() {
        return None;
    }
    // A name is many people's: "my son Sam" is not "my brother Sam".
    let may_be = |p: &&&PersonRecord| match (&reference.relation, &p.relation) {
        (Some(told), Some(known)) => !super::kinship::exclusive(told, known),
        _ => true,
    };
    if let Some(p) = people.iter().filter(may_be).find(|p| p.answers_to(&reference.text)) {
        return Some(p);
    }
    if let Some(name) = &reference.name
        && let Some(p) = people.iter().filter(may_be).find(|p| p.answers_to(name))
    {
        return Some(p);
    }
    let has_relation =
        |p: &&&PersonRecord, relation: &str| p.relation.as_deref().is_some_and(|r| r.eq_ignore_ascii_case(relation));
    if let Some(relation) = &reference.relation {
        let by_relation: Vec<&&PersonRecord> = people.iter().filter(|p| has_relation(p, relation)).collect();
        // "my wife Sarah" must not land on a wife named Anna; "my wife" alone may.
        return match &reference.name {
            None => by_relation.first().map(|p| **p),
            Some(_) => by_relation.into_iter().find(|p| p.has_placeholder_name()).copied(),
        };
    }
    // "wife", "the wife", "My Sis": no one has that name, so the relation.
    if let Some(bare) = &reference.bare_relation
        && let Some(p) = people.iter().find(|p| has_relation(p, bare))
    {
        return Some(p);
    }
    // "Sarah's brother": the person Sarah's record points at as her brother.
    if let Some((owner, relation)) = &reference.via
        && depth < MAX_NESTING
    {
        let anchor = find_at(people, &parse_reference(owner), depth + 1)?;
        let related: Vec<&PersonRecord> = anchor
            .relationships
            .iter()
            .filter(|r| r.relation.eq_ignore_ascii_case(relation))
            .filter_map(|r| people.iter().find(|p| p.id == r.person_id).copied())
            .collect();
        return match &reference.name {
            None => related.first().copied(),
            // A named relation not yet known by that name may be the stand-in.
            Some(_) => related.into_iter().find(|p| p.has_placeholder_name()),
        };
    }
    None
}
