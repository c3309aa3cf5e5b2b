//! Unit tests of the memory service over in-memory ports, one file per capability as in
//! the service itself. The fixtures here are shared by all of them.

use std::collections::HashMap;

use crate::api::*;
use crate::people::PersonRecord;
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

mod adding;
mod browsing;
mod decaying;
mod forgetting;
mod from_index;
mod importing;
mod listing;
mod maintenance;
mod named_days;
mod newest;
mod past_messages;
mod people;
mod portability;
mod purging;
mod reading;
mod reflecting;
mod replies;
mod resolving;
mod retention;
mod searching;
mod side_by_side;
mod superseding;
mod tools;

fn service() -> MemoryService<FakePorts> {
    MemoryService::new(FakePorts::new())
}

/// Alice in a chat, where she may also share memories with the group.
fn alice() -> Caller {
    Caller::new(Some("alice"), Some("chat-1"))
}

/// Alice outside any chat, as most people tests have her: people belong to a user.
fn alice_alone() -> Caller {
    Caller::new(Some("alice"), None)
}

fn bob_alone() -> Caller {
    Caller::new(Some("bob"), None)
}

fn search(s: &mut MemoryService<FakePorts>, caller: &Caller, q: &str) -> Vec<String> {
    s.search(
        caller,
        &SearchQuery {
            text: q.into(),
            limit: None,
            about: None,
        },
    )
    .unwrap()
    .hits
    .into_iter()
    .map(|h| h.memory.content)
    .collect()
}

fn with_subjects(content: &str, subjects: &[&str]) -> NewMemory {
    NewMemory {
        subjects: subjects.iter().map(|s| s.to_string()).collect(),
        ..NewMemory::text(content)
    }
}

const STAMP: &str = "2026-03-01T12:00:00+00:00";

/// The subject ids of a memory added with these subjects.
fn subjects_of(s: &mut MemoryService<FakePorts>, caller: &Caller, subjects: &[&str]) -> Vec<String> {
    s.add(caller, with_subjects("A fact", subjects))
        .unwrap()
        .memories
        .remove(0)
        .subject_person_ids
}

/// Resolves as `add` will with the content hint, and writes what it created.
fn resolve_in(
    s: &mut MemoryService<FakePorts>,
    caller: &Caller,
    reference: &str,
    content: Option<&str>,
) -> Result<String, Error> {
    s.people_list(caller)?;
    let mut writes: HashMap<String, PersonRecord> = HashMap::new();
    let id = s.resolve_person_in(caller, reference, content, STAMP, &mut writes)?;
    s.write_people(writes)?;
    Ok(id)
}

/// One subject id, as a memory's subject list.
fn one(id: &str) -> Vec<String> {
    vec![id.to_owned()]
}

fn names(s: &mut MemoryService<FakePorts>, caller: &Caller) -> Vec<String> {
    s.people_list(caller).unwrap().into_iter().map(|p| p.name).collect()
}
