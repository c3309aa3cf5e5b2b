//! Which parts of the context block a tight budget keeps: the parts are ranked by how much
//! they say about the message, and the block takes them in that order, each that still
//! fits (a long part does not shut out the short ones after it). From kept first to
//! dropped first:
//!
//! 1. the people the message names (by name, alias or relation: "my wife" is Sarah);
//! 2. the memories that answer it: every hit that shares a word with the message or is
//!    about a person it names, and the best hit unless it is weak (below the embedder's
//!    weak similarity, as search judges it), by relevance;
//! 3. the people those memories are about;
//! 4. profile notes that share a word with the message;
//! 5. the other memories, by relevance;
//! 6. the other profile notes, in the profile's order (identity first, newest first);
//! 7. past messages, by relevance;
//! 8. the latest reflection;
//! 9. the other people, most recently active first.
//!
//! Within the block each section keeps its own order; only what is left out changes.

use crate::api::{Person, SearchHit};
use crate::search::{mentions, query_terms};

use super::Blocks;

/// One part of the block, by its place in its section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Profile(usize),
    Person(usize),
    Memory(usize),
    PastMessage(usize),
    Reflection,
}

/// Every part of `blocks`, the ones that matter most to `message` first; `weak_similarity`
/// is the embedder's (`settings.weak-similarity`).
pub fn keep_order(message: &str, blocks: &Blocks, weak_similarity: f32) -> Vec<Part> {
    let terms = query_terms(message);
    let shares_a_word = |text: &str| terms.iter().any(|t| mentions(text, t));
    let named: Vec<usize> = (0..blocks.people.len())
        .filter(|&i| is_named(&blocks.people[i], message))
        .collect();
    let named_names: Vec<&str> = named.iter().map(|&i| blocks.people[i].name.as_str()).collect();
    let answers = |i: usize, h: &SearchHit| {
        (i == 0 && h.similarity.is_some_and(|s| s >= weak_similarity))
            || shares_a_word(&h.memory.content)
            || h.subjects.iter().any(|s| named_names.contains(&s.as_str()))
    };
    let answering: Vec<usize> = (0..blocks.memories.len())
        .filter(|&i| answers(i, &blocks.memories[i]))
        .collect();
    let about_answers = |p: &Person| answering.iter().any(|&i| blocks.memories[i].subjects.contains(&p.name));

    let mut order: Vec<Part> = named.iter().map(|&i| Part::Person(i)).collect();
    order.extend(answering.iter().map(|&i| Part::Memory(i)));
    push_new(
        &mut order,
        (0..blocks.people.len())
            .filter(|&i| about_answers(&blocks.people[i]))
            .map(Part::Person),
    );
    push_new(
        &mut order,
        (0..blocks.profile.len())
            .filter(|&i| shares_a_word(&blocks.profile[i]))
            .map(Part::Profile),
    );
    push_new(&mut order, (0..blocks.memories.len()).map(Part::Memory));
    push_new(&mut order, (0..blocks.profile.len()).map(Part::Profile));
    push_new(&mut order, (0..blocks.past_messages.len()).map(Part::PastMessage));
    if blocks.reflection.is_some() {
        order.push(Part::Reflection);
    }
    push_new(&mut order, (0..blocks.people.len()).map(Part::Person));
    order
}

fn push_new(order: &mut Vec<Part>, parts: impl Iterator<Item = Part>) {
    for part in parts {
        if !order.contains(&part) {
            order.push(part);
        }
    }
}

/// Whether the message names the person: their name, one of their aliases, or their
/// relation to the user ("What should I cook for my wife?" names the wife).
fn is_named(person: &Person, message: &str) -> bool {
    let words = words(message);
    let said = |phrase: &str| {
        let phrase = self::words(phrase);
        !phrase.is_empty() && words.windows(phrase.len()).any(|w| w == phrase.as_slice())
    };
    said(&person.name) || person.aliases.iter().any(|a| said(a)) || person.relation.as_deref().is_some_and(said)
}

/// Lowercased words, a possessive "'s" taken off ("Sarah's" is Sarah).
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .map(|w| {
            let w = w.trim_matches(['\'', '\u{2019}']);
            w.strip_suffix("'s")
                .or_else(|| w.strip_suffix("\u{2019}s"))
                .unwrap_or(w)
                .to_owned()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Memory;

    fn person(name: &str, relation: Option<&str>) -> Person {
        Person {
            id: name.to_lowercase(),
            name: name.into(),
            relation: relation.map(Into::into),
            aliases: vec![],
            created_at: "2026-01-01T00:00:00+00:00".into(),
            updated_at: None,
            relationships: vec![],
        }
    }

    fn hit(content: &str, about: &[&str]) -> SearchHit {
        let record = crate::record::MemoryRecord::parse(
            &serde_json::json!({"id": content, "version": 1, "content": content,
                "memory_type": "knowledge", "embedding": null, "created_at": "2026-01-01T00:00:00Z"})
            .to_string(),
        )
        .unwrap();
        SearchHit {
            memory: Memory::from(&record),
            score: 0.5,
            similarity: Some(0.5),
            subjects: about.iter().map(|s| s.to_string()).collect(),
            reasons: vec![],
        }
    }

    #[test]
    fn a_person_is_named_by_name_alias_or_relation() {
        let mut sarah = person("Sarah", Some("wife"));
        sarah.aliases.push("Sal".into());
        assert!(is_named(&sarah, "What should I cook for my wife?"));
        assert!(is_named(&sarah, "Is it Sarah's birthday soon?"));
        assert!(is_named(&sarah, "sal called"));
        assert!(!is_named(&sarah, "Salsa recipes please"));
        assert!(!is_named(&person("Ann", Some("best friend")), "my friend's dog"));
        assert!(is_named(
            &person("Ann", Some("best friend")),
            "what does my best friend like?"
        ));
    }

    #[test]
    fn what_answers_the_message_comes_before_unrelated_people_and_notes() {
        let people = [person("Michael", Some("boss")), person("Sarah", Some("wife"))];
        let memories = [
            hit("Sarah likes Italian food", &["Sarah"]),
            hit("The quarterly report is due Friday", &[]),
        ];
        let profile = ["I prefer concise responses".to_owned(), "I cook on Sundays".to_owned()];
        let blocks = Blocks {
            profile: &profile,
            people: &people,
            memories: &memories,
            ..Default::default()
        };
        let order = keep_order("What should I cook for my wife?", &blocks, 0.3);
        assert_eq!(
            order,
            [
                Part::Person(1),
                Part::Memory(0),
                Part::Profile(1),
                Part::Memory(1),
                Part::Profile(0),
                Part::Person(0),
            ]
        );
    }
}
