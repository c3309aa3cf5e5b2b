//! People: the person record (seed 000's schema), and how a reference such as "my wife",
//! "Sarah", "my wife Sarah" or "Sarah's brother Tom" finds or creates one. A person
//! belongs to one user and is never visible to another.
//!
//! The record is here; reading a reference and finding whom it means is in `reference`,
//! and spotting people in a memory's content in `mentions`.

mod erasure;
pub mod holder;
mod kinship;
mod mentions;
mod reference;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use erasure::{Erasure, FORGOTTEN};
pub use kinship::{holder_words, one_holder};
pub use mentions::{introduced, name_in_content, named_in};
pub use reference::{MAX_NESTING, Reference, find, is_common_relation, nesting, parse_reference};

/// The schema version this guest writes for people.
pub const PERSON_VERSION: u32 = 1;

/// A relationship edge from one person to another: `relation` is what the other person is
/// to this one ("brother" on Sarah's record, pointing at Tom). It gives the person graph
/// its one hop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relationship {
    pub person_id: String,
    pub relation: String,
}

/// One line of `people.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersonRecord {
    pub id: String,
    pub version: u32,
    pub owner_user_id: String,
    pub name: String,
    /// What the person is to the owner: "wife", "boss".
    #[serde(default)]
    pub relation: Option<String>,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub created_at: String,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub metadata: Option<serde_json::Value>,
    /// Edges to other people of the same owner. An addition to seed 000's schema.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relationships: Vec<Relationship>,
    /// Set when `people merge` folded this entry into another; such entries are kept
    /// (nothing is lost) but never resolved or listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_into: Option<String>,
    /// Set when the owner asked for this person to be purged: written before anything
    /// is removed, so that a purge cut short is finished by the next call that reads
    /// people (`service::purging`). The person leaves the file when it is done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purge_requested_at: Option<String>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl PersonRecord {
    pub fn parse(line: &str) -> Result<Self, String> {
        let p: PersonRecord = serde_json::from_str(line).map_err(|e| format!("not a person record: {e}"))?;
        if p.version != PERSON_VERSION {
            return Err(format!("unsupported person version {}", p.version));
        }
        if p.id.is_empty() || p.name.trim().is_empty() || p.owner_user_id.is_empty() {
            return Err("a person needs an id, an owner and a name".into());
        }
        Ok(p)
    }

    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a person record always serializes")
    }

    /// Whether the name is a stand-in made from a relation ("my wife") until the real
    /// name is known.
    /// So is "Sarah's brother", a relation of another person.
    pub fn has_placeholder_name(&self) -> bool {
        is_stand_in(&self.name)
    }

    /// Whether `text` is this person's name or one of their aliases, ignoring case.
    pub fn answers_to(&self, text: &str) -> bool {
        let t = text.trim();
        self.name.eq_ignore_ascii_case(t) || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(t))
    }

    /// Adds an alias unless the person already answers to it.
    pub fn add_alias(&mut self, alias: &str) -> bool {
        let alias = alias.trim();
        if alias.is_empty() || self.answers_to(alias) {
            return false;
        }
        self.aliases.push(alias.to_owned());
        true
    }
}

/// Whether a name is a stand-in made from a relation: "my wife", or "Sarah's brother", a
/// relation of another person.
pub fn is_stand_in(name: &str) -> bool {
    // Both ways need two words; most names checked (every person, at every add) are one.
    if !name.contains(char::is_whitespace) {
        return false;
    }
    let words: Vec<&str> = name.split_whitespace().collect();
    name.to_lowercase().starts_with("my ")
        || words
            .windows(2)
            .any(|w| w[0].to_lowercase().ends_with("'s") && !is_capitalized(w[1]))
}

fn is_capitalized(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}
