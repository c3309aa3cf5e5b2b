//! People: the person record (seed 000's schema), and how a reference such as "my wife",
//! "Sarah", "my wife Sarah" or "Sarah's brother Tom" finds or creates one. A person
//! belongs to one user and is never visible to another.

use serde::{Deserialize, Serialize};

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
    pub fn has_placeholder_name(&self) -> bool {
        self.name.to_lowercase().starts_with("my ")
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

/// A reference, read into its parts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reference {
    /// A proper name: "Sarah".
    pub name: Option<String>,
    /// What the person is to the user: "wife" from "my wife".
    pub relation: Option<String>,
    /// For "Sarah's brother Tom": ("Sarah", "brother"), the person Tom is related to.
    pub via: Option<(String, String)>,
    /// The reference as written, trimmed.
    pub text: String,
}

fn is_capitalized(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// Splits "best friend Anna" into ("best friend", Some("Anna")): the trailing capitalized
/// words are a name, the rest is a relation.
fn relation_and_name(words: &[&str]) -> (Option<String>, Option<String>) {
    let split = words.iter().position(|w| is_capitalized(w)).unwrap_or(words.len());
    let relation = words[..split].join(" ").to_lowercase();
    let relation = relation.trim_end_matches("'s").trim_end_matches(',').trim().to_owned();
    let name = words[split..].join(" ");
    let name = name.trim_end_matches("'s").trim_end_matches(',').trim().to_owned();
    (
        (!relation.is_empty()).then_some(relation),
        (!name.is_empty()).then_some(name),
    )
}

/// Reads a reference: "my wife", "Sarah", "my wife Sarah", "Sarah's brother Tom".
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
    if words[0].eq_ignore_ascii_case("my") {
        let (relation, name) = relation_and_name(&words[1..]);
        r.relation = relation;
        r.name = name;
        return r;
    }
    if let Some(pos) = words
        .iter()
        .position(|w| w.ends_with("'s") && is_capitalized(w))
        .filter(|&p| p + 1 < words.len())
    {
        let owner = words[..=pos].join(" ");
        let owner = owner.trim_end_matches("'s").to_owned();
        let (relation, name) = relation_and_name(&words[pos + 1..]);
        if let Some(relation) = relation {
            r.via = Some((owner, relation));
            r.name = name;
            return r;
        }
    }
    r.name = Some(text.trim_end_matches("'s").to_owned());
    r
}

/// Finds the caller's person a reference means, without creating anyone.
pub fn find<'a>(people: &[&'a PersonRecord], reference: &Reference) -> Option<&'a PersonRecord> {
    if reference.text.is_empty() {
        return None;
    }
    if let Some(p) = people.iter().find(|p| p.answers_to(&reference.text)) {
        return Some(p);
    }
    if let Some(name) = &reference.name
        && let Some(p) = people.iter().find(|p| p.answers_to(name))
    {
        return Some(p);
    }
    if let Some(relation) = &reference.relation {
        let same = |p: &&&PersonRecord| p.relation.as_deref().is_some_and(|r| r.eq_ignore_ascii_case(relation));
        let by_relation: Vec<&&PersonRecord> = people.iter().filter(same).collect();
        // "my wife Sarah" must not land on a wife named Anna; "my wife" alone may.
        return match &reference.name {
            None => by_relation.first().map(|p| **p),
            Some(_) => by_relation.into_iter().find(|p| p.has_placeholder_name()).copied(),
        };
    }
    None
}

/// A person introduced by the content itself: "My wife's name is Sarah", "My boss is
/// called Mike", "Sarah is my wife". Returns (name, relation).
pub fn introduced(content: &str) -> Option<(String, String)> {
    let text = content.trim().trim_end_matches(['.', '!']).replace('’', "'");
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let name_at = |i: usize| -> Option<String> {
        let name: Vec<&str> = words
            .get(i..)?
            .iter()
            .take_while(|w| is_capitalized(w))
            .copied()
            .collect();
        (!name.is_empty()).then(|| name.join(" ").trim_end_matches([',', '.']).to_owned())
    };
    // "my <relation>'s name is <Name>"
    if lower.len() >= 5 && lower[0] == "my" && lower[1].ends_with("'s") && lower[2] == "name" && lower[3] == "is" {
        return Some((name_at(4)?, lower[1].trim_end_matches("'s").to_owned()));
    }
    // "my <relation> is called|named <Name>"
    if lower.len() >= 5 && lower[0] == "my" && lower[2] == "is" && (lower[3] == "called" || lower[3] == "named") {
        return Some((name_at(4)?, lower[1].clone()));
    }
    // "<Name> is my <relation>"
    if let Some(is) = lower.iter().position(|w| w == "is")
        && is > 0
        && lower.get(is + 1).is_some_and(|w| w == "my")
        && lower.len() == is + 3
        && words[..is].iter().all(|w| is_capitalized(w))
    {
        return Some((words[..is].join(" "), lower[is + 2].clone()));
    }
    None
}

/// Known people whose name appears in the content as whole capitalized words: the
/// conservative linking of facts that name people without a `--subject`.
pub fn named_in<'a>(content: &str, people: &[&'a PersonRecord]) -> Vec<&'a PersonRecord> {
    let words: Vec<String> = content
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map(|w| w.trim_end_matches("'s").to_owned())
        .filter(|w| is_capitalized(w))
        .collect();
    people
        .iter()
        .filter(|p| !p.has_placeholder_name())
        .filter(|p| {
            let parts: Vec<&str> = p.name.split_whitespace().collect();
            !parts.is_empty()
                && words
                    .windows(parts.len())
                    .any(|w| w.iter().zip(&parts).all(|(a, b)| a == b))
        })
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(name: &str, relation: Option<&str>, aliases: &[&str]) -> PersonRecord {
        PersonRecord {
            id: format!("p-{name}"),
            version: 1,
            owner_user_id: "u".into(),
            name: name.into(),
            relation: relation.map(str::to_owned),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            created_at: "2026-01-01T00:00:00+00:00".into(),
            updated_at: None,
            metadata: None,
            relationships: Vec::new(),
            merged_into: None,
            extra: Default::default(),
        }
    }

    #[test]
    fn references_parse_into_name_relation_and_edge() {
        let r = parse_reference("my wife");
        assert_eq!((r.name, r.relation), (None, Some("wife".into())));
        let r = parse_reference("my wife Sarah");
        assert_eq!(
            (r.name.as_deref(), r.relation.as_deref()),
            (Some("Sarah"), Some("wife"))
        );
        let r = parse_reference("my best friend Anna Lee");
        assert_eq!(
            (r.name.as_deref(), r.relation.as_deref()),
            (Some("Anna Lee"), Some("best friend"))
        );
        let r = parse_reference("Sarah's brother Tom");
        assert_eq!(
            (r.name.as_deref(), r.via),
            (Some("Tom"), Some(("Sarah".into(), "brother".into())))
        );
        assert_eq!(parse_reference("Mike").name.as_deref(), Some("Mike"));
    }

    #[test]
    fn finding_by_relation_name_and_alias() {
        let sarah = person("Sarah", Some("wife"), &["my wife"]);
        let mike = person("Michael", Some("boss"), &["Mike"]);
        let people = [&sarah, &mike];
        for r in ["my wife", "Sarah", "sarah", "my wife Sarah", "SARAH"] {
            assert_eq!(
                find(&people, &parse_reference(r)).map(|p| p.id.as_str()),
                Some("p-Sarah"),
                "{r}"
            );
        }
        assert_eq!(
            find(&people, &parse_reference("mike")).map(|p| p.id.as_str()),
            Some("p-Michael")
        );
        assert!(
            find(&people, &parse_reference("my wife Anna")).is_none(),
            "a named wife is not another name"
        );
        assert!(find(&people, &parse_reference("Tom")).is_none());
    }

    #[test]
    fn introductions_in_content() {
        assert_eq!(
            introduced("My wife's name is Sarah"),
            Some(("Sarah".into(), "wife".into()))
        );
        assert_eq!(
            introduced("My boss is called Mike."),
            Some(("Mike".into(), "boss".into()))
        );
        assert_eq!(introduced("Sarah is my wife"), Some(("Sarah".into(), "wife".into())));
        assert_eq!(introduced("My wife likes Italian food"), None);
        assert_eq!(introduced("The sky is my limit"), None);
    }

    #[test]
    fn names_in_content_link_only_whole_capitalized_words() {
        let sarah = person("Sarah", Some("wife"), &[]);
        let placeholder = person("my boss", Some("boss"), &[]);
        let people = [&sarah, &placeholder];
        assert_eq!(named_in("Sarah likes Italian food", &people).len(), 1);
        assert_eq!(named_in("Dinner at Sarah's place", &people).len(), 1);
        assert!(named_in("Sarahville is a town", &people).is_empty());
        assert!(named_in("my boss likes golf", &people).is_empty());
    }
}
