//! What `bench` stores and asks: varied, deterministic facts about a few hundred people,
//! and the searches it times. Shared by the in-process, server and size benches.

use anyhow::Result;

use super::policy::{BenchPolicy, FillFact};

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

/// Imports `memories` facts (the path `ash-memory import` takes); every other one is
/// about one of the bench's people. One memory in ten is an observation seen 30 days ago,
/// already decayed, so that GC has real work: archive, rewrite, unindex.
pub(super) fn fill(policy: &mut impl BenchPolicy, memories: usize) -> Result<()> {
    let observed = (chrono::Utc::now() - chrono::TimeDelta::days(30)).to_rfc3339();
    let facts: Vec<FillFact> = (0..memories)
        .map(|j| FillFact {
            content: fact(j),
            subject: (j % 2 == 0).then(|| format!("Person{}", j % PEOPLE_IN_BENCH)),
            observed_at: (j % 10 == 9).then(|| observed.clone()),
        })
        .collect();
    let stored = policy.import(&facts)?;
    anyhow::ensure!(stored == memories, "the fill stored {stored} of {memories} facts");
    Ok(())
}

/// Creates the bench's people: half friends, half colleagues.
pub(super) fn add_people(policy: &mut impl BenchPolicy) -> Result<()> {
    for n in 0..PEOPLE_IN_BENCH {
        let relation = if n % 2 == 0 { "friend" } else { "colleague" };
        policy.add_person(&format!("Person{n}"), relation)?;
    }
    Ok(())
}
