//! Entities: dates, addresses, URLs, mentions, tags and names found in memories by the
//! component's rules, kept in the JSONL, and used as a fourth list in search fusion.

use crate::support::ctx::Ctx;

#[test]
fn a_query_naming_an_entity_finds_the_memories_that_hold_it() {
    let ctx = Ctx::new();
    let facts = [
        "Dentist appointment on 2025-05-03 at nine",
        "Car service is booked for 2025-06-10",
        "The tax deadline is 2025-04-15",
        "Send the quarterly report to ana.ruiz@example.com",
        "Send the invoices to billing@example.org",
        "The design doc lives at https://wiki.example.com/Design",
        "Ping @jordan_k about the offsite",
        "Photos from the trip are tagged #lisbon2024",
        "Lunch with Marco next Tuesday",
        "Lunch with the team every Friday",
        "I prefer window seats on long flights",
        "The wifi at the office is slow in the afternoon",
    ];
    for f in facts {
        ctx.ok(&["--user", "alice", "add", f]);
    }
    // Kept with the record, normalised.
    let dentist = ctx
        .memory_lines()
        .into_iter()
        .find(|l| l["content"] == facts[0])
        .unwrap();
    assert_eq!(dentist["entities"], serde_json::json!(["date:2025-05-03"]));
    let marco = ctx
        .memory_lines()
        .into_iter()
        .find(|l| l["content"] == facts[8])
        .unwrap();
    assert_eq!(marco["entities"], serde_json::json!(["name:marco"]));

    // Written another way in the query, found first.
    for (query, want) in [
        ("What is on May 3, 2025?", facts[0]),
        ("what did I need to send Ana.Ruiz@Example.com", facts[3]),
        ("where is www.wiki.example.com/design/", facts[5]),
        ("What should I ask @Jordan_K?", facts[6]),
        ("show me #Lisbon2024", facts[7]),
        ("When am I seeing Marco?", facts[8]),
    ] {
        let hits = ctx.search("alice", query);
        assert_eq!(hits.first().map(String::as_str), Some(want), "{query}: {hits:?}");
    }
    // Entities stay within scope like everything else.
    assert!(ctx.search("bob", "What is on May 3, 2025?").is_empty());
}
