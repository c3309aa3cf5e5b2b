//! A question found brings the reply stored next after it: the same from the whole file
//! and from the index, and when the index cannot hand over the reply's record.

use super::from_index::{query, reopen};
use super::*;

/// Adds `text` for `caller` at `at`.
fn add_at(s: &mut MemoryService<FakePorts>, caller: &Caller, at: &str, text: &str) -> String {
    *s.ports.now.borrow_mut() = at.into();
    s.add(caller, NewMemory::text(text)).unwrap().memories.remove(0).id
}

const REPLY: &str = "Yes, twice, and I would go back tomorrow";

/// A conversation stored turn by turn, a run of facts, and another user's turn between a
/// question and its reply.
fn home() -> (MemoryService<FakePorts>, String) {
    let mut s = service();
    let alice = alice_alone();
    add_at(
        &mut s,
        &alice,
        "2026-03-01T10:00:00+00:00",
        "Have you ever been to Japan?",
    );
    add_at(
        &mut s,
        &bob_alone(),
        "2026-03-01T10:00:10+00:00",
        "Bob has never left Europe",
    );
    let reply = add_at(&mut s, &alice, "2026-03-01T10:00:20+00:00", REPLY);
    add_at(
        &mut s,
        &alice,
        "2026-03-01T11:00:00+00:00",
        "Is the cello hard to learn?",
    );
    // Twenty minutes on: not the cello question's reply.
    add_at(&mut s, &alice, "2026-03-01T11:20:00+00:00", "The library opens at nine");
    add_at(
        &mut s,
        &alice,
        "2026-03-01T12:00:00+00:00",
        "I live in Porto near the river",
    );
    add_at(&mut s, &alice, "2026-03-01T12:00:05+00:00", "I am allergic to peanuts");
    *s.ports.now.borrow_mut() = "2026-03-01T13:00:00+00:00".into();
    (s, reply)
}

/// Each hit's content and reasons.
fn found(s: &mut MemoryService<FakePorts>, text: &str) -> Vec<(String, Vec<MatchReason>)> {
    s.search(&alice_alone(), &query(text))
        .unwrap()
        .hits
        .into_iter()
        .map(|h| (h.memory.content, h.reasons))
        .collect()
}

#[test]
fn the_reply_to_a_question_found_is_found_with_it() {
    let (mut s, _) = home();
    let japan = found(&mut s, "Has Alice visited Japan?");
    // Nothing but its question finds the reply: it shares no word with the query.
    assert!(
        japan.contains(&(REPLY.to_owned(), vec![MatchReason::Reply])),
        "{japan:?}"
    );
    assert!(!japan.iter().any(|(c, _)| c.starts_with("Bob")), "{japan:?}");
    let cello = found(&mut s, "Does Alice play the cello?");
    assert!(!cello.iter().any(|(_, r)| r.contains(&MatchReason::Reply)), "{cello:?}");
    // A run of facts brings nothing along: no question among them.
    let home = found(&mut s, "Where do I live?");
    assert!(!home.iter().any(|(c, _)| c.contains("peanuts")), "{home:?}");
}

#[test]
fn a_new_instance_finds_the_reply_from_the_index_as_the_whole_file_does() {
    let (mut s, _) = home();
    // The first search records the accesses; the second answers as the file stands then.
    s.search(&alice_alone(), &query("Has Alice visited Japan?")).unwrap();
    let whole = s.search(&alice_alone(), &query("Has Alice visited Japan?")).unwrap();
    let mut cold = reopen(s);
    let answered = cold.search(&alice_alone(), &query("Has Alice visited Japan?")).unwrap();
    assert!(cold.memories.is_partial());
    assert_eq!(answered, whole);
}

#[test]
fn a_reply_whose_record_the_index_cannot_hand_over_is_read_from_the_file() {
    let mut s = service();
    let alice = alice_alone();
    // More memories closer to the query than the reply than a search's lists hold (40), so
    // that only its question brings the reply in.
    let things = [
        "apples",
        "boats",
        "candles",
        "dahlias",
        "eagles",
        "ferns",
        "gliders",
        "harps",
        "igloos",
        "jackets",
        "kites",
        "lemons",
        "maps",
        "nutmeg",
        "opals",
        "pianos",
        "quilts",
        "radishes",
        "saddles",
        "tulips",
        "umbrellas",
        "violins",
        "walnuts",
        "xylophones",
        "yoghurt",
        "zithers",
        "anchors",
        "beetles",
        "cellos",
        "drums",
        "easels",
        "figs",
        "gongs",
        "hammocks",
        "inks",
        "jasmine",
        "kettles",
        "lanterns",
        "mangoes",
        "needles",
        "oboes",
        "parsnips",
        "quinces",
        "rafts",
        "sails",
    ];
    for (i, thing) in things.iter().enumerate() {
        let at = format!("2026-03-01T09:{:02}:00+00:00", i);
        add_at(&mut s, &alice, &at, &format!("Alice likes {thing}"));
    }
    add_at(
        &mut s,
        &alice,
        "2026-03-01T10:00:00+00:00",
        "Have you ever been to Japan?",
    );
    let reply = add_at(&mut s, &alice, "2026-03-01T10:00:20+00:00", REPLY);
    *s.ports.now.borrow_mut() = "2026-03-01T13:00:00+00:00".into();
    s.search(&alice_alone(), &query("Has Alice ever been to Japan?"))
        .unwrap();
    let whole = s
        .search(&alice_alone(), &query("Has Alice ever been to Japan?"))
        .unwrap();
    let mut cold = reopen(s);
    // The index's copy of the reply's record no longer reads as the reply.
    cold.ports.index.borrow_mut().get_mut(&reply).unwrap().record = Some("{}".into());
    let answered = cold
        .search(&alice_alone(), &query("Has Alice ever been to Japan?"))
        .unwrap();
    let reply_hit = answered.hits.iter().find(|h| h.memory.id == reply);
    assert!(
        reply_hit.is_some_and(|h| h.reasons == [MatchReason::Reply]),
        "found through its question alone: {answered:?}"
    );
    assert!(!cold.memories.is_partial(), "the whole file was read");
    assert_eq!(answered, whole, "and searched again over it");
}

#[test]
fn a_reply_that_says_when_is_weighed_up_for_a_question_that_asks_when() {
    let mut s = service();
    let alice = alice_alone();
    add_at(
        &mut s,
        &alice,
        "2026-03-01T10:00:00+00:00",
        "When is the hip operation going to be?",
    );
    add_at(&mut s, &alice, "2026-03-01T10:00:20+00:00", "Thursday after next");
    *s.ports.now.borrow_mut() = "2026-03-01T13:00:00+00:00".into();
    let hits = found(&mut s, "When is the hip operation?");
    let at = |text: &str| hits.iter().position(|(c, _)| c == text);
    // The reply gains 0.7 of the question's score, and then twice that for saying when: it
    // ranks above the question (without the second weighing, at 0.7 of it, below).
    let (reply, question) = (at("Thursday after next"), at("When is the hip operation going to be?"));
    assert!(reply.is_some() && question.is_some() && reply < question, "{hits:?}");
    assert_eq!(hits[reply.unwrap()].1, [MatchReason::Reply]);
}
