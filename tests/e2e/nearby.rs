//! What was stored around the best hits (`guest/src/nearby.rs`): of two memories a search
//! ranks alike, the one told in the same sitting as its best hits comes first, whichever
//! was stored first.

use serde_json::{Value, json};

use crate::support::ctx::Ctx;

/// Everyday lines about nothing the question asks.
const ELSEWHERE: [&str; 34] = [
    "I switched my phone plan to a cheaper one",
    "My sister is learning to play the cello",
    "We ordered pizza on Friday night",
    "The dentist moved my appointment to Tuesday",
    "I finally fixed the squeaky kitchen door",
    "Our neighbour adopted two kittens",
    "I started reading a mystery novel",
    "The bakery on the corner closed down",
    "I have a meeting with my manager tomorrow",
    "My running shoes are worn out",
    "We planted tomatoes in the garden",
    "The train was twenty minutes late today",
    "I signed up for a pottery class",
    "My laptop battery barely lasts an hour",
    "We watched a documentary about bees",
    "I need to renew my passport soon",
    "My dad turned sixty last month",
    "The gym raised its monthly fee",
    "I bought a new winter coat",
    "Our landlord is replacing the windows",
    "I have been sleeping badly this week",
    "My cousin got engaged in Madrid",
    "The library has a new reading room",
    "I tried making sourdough bread",
    "We are saving for a new sofa",
    "My knee hurts after long walks",
    "I volunteer at the food bank on Sundays",
    "The office coffee machine broke again",
    "I learned a few words of Japanese",
    "My grandmother knits scarves for everyone",
    "We had a barbecue at my uncle's place",
    "I lost my umbrella on the bus",
    "The kids have a school play next week",
    "I cancelled my streaming subscription",
];

/// The sitting the question is about, and a line told in it and again another day.
const SITTING: [&str; 3] = [
    "We rented a little boat on Lake Bled",
    "Lake Bled was glassy calm that morning",
    "We rowed the boat out to the island church",
];
const TWIN: &str = "The boat was painted a cheerful yellow";

fn memory(group: &str, id: &str, text: &str) -> Value {
    json!({"kind": "memory", "id": id, "text": text, "group": group})
}

#[test]
fn of_two_alike_the_memory_told_beside_the_best_hits_comes_first() {
    let ctx = Ctx::new();
    let mut lines: Vec<Value> = Vec::new();
    // In one group the twin told beside the sitting is stored first, in the other last;
    // thirty lines about other things stand between it and the other twin.
    for (group, sitting_first) in [("near-first", true), ("far-first", false)] {
        let mut told = vec![memory(group, "e0", ELSEWHERE[0]), memory(group, "e1", ELSEWHERE[1])];
        let mut sitting: Vec<Value> = SITTING
            .iter()
            .enumerate()
            .map(|(i, text)| memory(group, &format!("s{i}"), text))
            .collect();
        sitting.insert(1, memory(group, "near", TWIN));
        let between: Vec<Value> = ELSEWHERE[2..32]
            .iter()
            .enumerate()
            .map(|(i, text)| memory(group, &format!("e{}", i + 2), text))
            .collect();
        let far = memory(group, "far", TWIN);
        if sitting_first {
            told.extend(sitting);
            told.extend(between);
            told.push(far);
        } else {
            told.push(far);
            told.extend(between);
            told.extend(sitting);
        }
        told.push(memory(group, "e32", ELSEWHERE[32]));
        told.push(memory(group, "e33", ELSEWHERE[33]));
        lines.extend(told);
        lines.push(
            json!({"kind": "question", "question": "What colour was the little boat we rented on Lake Bled?",
                          "answers": ["near"], "group": group}),
        );
    }
    std::fs::create_dir_all(ctx.home()).unwrap();
    let file = ctx.home().join("sittings.jsonl");
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(&file, text.join("\n")).unwrap();
    let ranks = ctx.home().join("ranks.jsonl");

    let report = ctx.json(&["eval", file.to_str().unwrap(), "--ranks", ranks.to_str().unwrap()]);
    assert_eq!(report["memories"], 2 * 39);
    for line in std::fs::read_to_string(&ranks).unwrap().lines() {
        let asked: Value = serde_json::from_str(line).unwrap();
        let ranked: Vec<&str> = asked["ranked"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_str().unwrap())
            .collect();
        let at = |id: &str| ranked.iter().position(|x| *x == id);
        // The sitting's first line is the best hit; both twins are found, and only their
        // order is the rule's.
        assert_eq!(ranked.first(), Some(&"s0"), "{}: {ranked:?}", asked["group"]);
        assert!(
            at("near").is_some() && at("near") < at("far") && at("far").is_some(),
            "{}: {ranked:?}",
            asked["group"]
        );
    }
}
