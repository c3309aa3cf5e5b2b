//! What `bench` stores and asks: varied, deterministic facts about a few hundred people,
//! and the searches it times. Shared by the in-process, server and size benches.

use anyhow::Result;

use ash_memory::{Caller, MemoryStore, MemoryType, NewMemory, NewPerson};

const PEOPLE: &[&str] = &[
    "Sarah",
    "Mike",
    "my boss",
    "my sister",
    "Tom",
    "the landlord",
    "Priya",
    "my dentist",
];
const VERBS: &[&str] = &[
    "likes",
    "recommended",
    "mentioned",
    "asked about",
    "is planning",
    "prefers",
    "talked about",
    "booked",
];
const THINGS: &[&str] = &[
    "Italian food",
    "the hiking trip",
    "a new laptop",
    "the quarterly report",
    "jazz concerts",
    "the kitchen remodel",
    "vegan recipes",
    "the Lisbon conference",
    "chess openings",
    "a blue bicycle",
    "the insurance renewal",
    "sourdough",
    "the marathon",
    "gardening tools",
    "the tax return",
    "a camping stove",
];
const WHEN: &[&str] = &[
    "on weekends",
    "every Monday",
    "this spring",
    "after work",
    "in the morning",
    "last year",
    "for the holidays",
    "at the office",
];

/// A varied, deterministic fact.
pub(super) fn fact(i: usize) -> String {
    let pick = |list: &[&'static str], salt: usize| {
        list[(i.wrapping_mul(2654435761).wrapping_add(salt * 40503) >> 7) % list.len()]
    };
    format!(
        "{} {} {} {} (note {i})",
        pick(PEOPLE, 1),
        pick(VERBS, 2),
        pick(THINGS, 3),
        pick(WHEN, 4)
    )
}

/// The searches timed, in turn.
pub(super) const QUERIES: [&str; 6] = [
    "What does Sarah like to eat?",
    "travel plans",
    "paperwork deadlines",
    "sports",
    "music",
    "my sister's hobbies",
];

/// People created before the fill.
pub(super) const PEOPLE_IN_BENCH: usize = 200;

/// Imports `memories` facts (`MemoryStore::import`: the path `ash-memory import` takes);
/// every other one is about one of the bench's people. One memory in ten is an
/// observation seen 30 days ago, already decayed, so that GC has real work: archive,
/// rewrite, unindex.
pub(super) fn fill(store: &mut MemoryStore, me: &Caller, memories: usize) -> Result<()> {
    let items: Vec<NewMemory> = (0..memories)
        .map(|j| {
            let mut item = NewMemory::text(fact(j));
            if j % 2 == 0 {
                item.subjects = vec![format!("Person{}", j % PEOPLE_IN_BENCH)];
            }
            if j % 10 == 9 {
                item.memory_type = Some(MemoryType::Observation);
                item.observed_at = Some((chrono::Utc::now() - chrono::TimeDelta::days(30)).to_rfc3339());
            }
            item
        })
        .collect();
    let report = store.import(me, &items, |_| {})?;
    anyhow::ensure!(
        report.refused.is_empty() && report.added + report.present == memories,
        "the fill stored {} of {memories} facts",
        report.added
    );
    Ok(())
}

/// Creates the bench's people: half friends, half colleagues.
pub(super) fn add_people(store: &mut MemoryStore, me: &Caller) -> Result<()> {
    for n in 0..PEOPLE_IN_BENCH {
        let relation = if n % 2 == 0 { "friend" } else { "colleague" };
        store.people_add(me, &NewPerson::named(format!("Person{n}")).relation(relation))?;
    }
    Ok(())
}
