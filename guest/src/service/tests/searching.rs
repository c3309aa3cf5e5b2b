//! Searching: by meaning and by words, within the caller's scope, by words alone while
//! the embedder is down, and by entities that tell memories apart.

use std::collections::HashMap;

use super::{alice, alice_alone, bob_alone, search, service};
use crate::api::*;
use crate::ports::{Collection, Ports as _};
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

#[test]
fn search_finds_by_meaning_and_words_within_scope() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("I'm allergic to peanuts")).unwrap();
    s.add(&alice(), NewMemory::text("My favorite color is blue")).unwrap();
    let bob = Caller::new(Some("bob"), Some("chat-1"));
    s.add(&bob, NewMemory::text("Bob is allergic to peanuts too")).unwrap();
    let hits = search(&mut s, &alice(), "peanuts allergy");
    assert_eq!(hits[0], "I'm allergic to peanuts");
    assert!(!hits.iter().any(|h| h.starts_with("Bob")), "{hits:?}");
}

#[test]
fn embedder_down_stores_without_vector_and_searches_text_only() {
    let mut s = service();
    s.ports().embedder_down.set(true);
    let m = s
        .add(&alice(), NewMemory::text("I'm allergic to peanuts"))
        .unwrap()
        .memories
        .remove(0);
    assert!(!m.embedded);
    let results = s
        .search(
            &alice(),
            &SearchQuery {
                text: "peanuts".into(),
                limit: None,
                about: None,
            },
        )
        .unwrap();
    assert_eq!(results.hits.len(), 1);
    assert!(results.notices[0].contains("full-text"));
    // Recovery: a rebuild embeds what is pending and writes it back.
    s.ports().embedder_down.set(false);
    let report = s.rebuild_index().unwrap();
    assert_eq!((report.embedded, report.pending), (1, 0));
    assert!(s.get(&alice(), &m.id).unwrap().embedded);
}

#[test]
fn an_entity_most_memories_hold_does_not_rank_them() {
    let mut s = service();
    let me = alice_alone();
    let places = [
        "the harbour",
        "the museum",
        "a bakery",
        "the library",
        "a concert",
        "the zoo",
        "a market",
        "the beach",
        "a gallery",
        "the park",
        "a cinema",
        "the gym",
        "a lecture",
        "the theatre",
        "a wedding",
        "the airport",
        "a brewery",
        "the dentist",
        "a hackathon",
        "the opera",
        "a vineyard",
        "the aquarium",
        "a bookshop",
        "the stadium",
    ];
    for place in places {
        let added = s
            .add(&me, NewMemory::text(&format!("Went to {place} with Caroline")))
            .unwrap();
        assert!(added.superseded.is_empty(), "{place}");
    }
    s.add(&me, NewMemory::text("Lunch with Marco next Tuesday")).unwrap();
    let now = s.now().unwrap();
    let names = |s: &MemoryService<FakePorts>, q: &str| {
        let wanted = s.wanted_entities(&me, q);
        s.entity_matches(&me, &wanted, None, now, &HashMap::new())
            .into_iter()
            .map(|id| s.memories.get(&id).unwrap().content.clone())
            .collect::<Vec<_>>()
    };
    // 24 of 25 memories name Caroline: her name tells them apart no better than "the".
    assert!(names(&s, "Where did I go with Caroline?").is_empty());
    assert_eq!(names(&s, "Did Caroline meet Marco?"), ["Lunch with Marco next Tuesday"]);

    // In a small store, every name counts, however many memories hold it.
    let mut small = service();
    for place in &places[..5] {
        small
            .add(&me, NewMemory::text(&format!("Went to {place} with Caroline")))
            .unwrap();
    }
    assert_eq!(names(&small, "Where did I go with Caroline?").len(), 5);
}

#[test]
fn a_search_that_may_not_write_puts_its_accesses_off_until_a_flush() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("I'm allergic to peanuts")).unwrap();
    let accesses =
        |s: &MemoryService<FakePorts>| s.ports().file(Collection::Memories).matches("\"accessed_at\"").count();
    let before = accesses(&s);
    // Recalled two days after it was told: an access worth recording.
    *s.ports().now.borrow_mut() = "2026-03-03T12:00:00+00:00".into();
    s.ports().read_only.set(true);
    assert_eq!(search(&mut s, &alice(), "peanuts"), ["I'm allergic to peanuts"]);
    assert_eq!(accesses(&s), before, "a read writes nothing");
    let refused = s.flush_deferred().unwrap_err().to_string();
    assert!(refused.contains("begun as a read"), "{refused}");
    s.ports().read_only.set(false);
    assert_eq!(s.flush_deferred().unwrap(), 1);
    assert_eq!(accesses(&s), before + 1, "the access is written once");
    assert_eq!(s.flush_deferred().unwrap(), 0, "nothing is left to write");
    // Within the day, a search that may write adds nothing more.
    search(&mut s, &alice(), "peanuts");
    assert_eq!(accesses(&s), before + 1);
}

#[test]
fn a_recall_another_instance_recorded_meanwhile_is_not_written_twice() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("I'm allergic to peanuts")).unwrap();
    *s.ports().now.borrow_mut() = "2026-03-03T12:00:00+00:00".into();
    s.ports().read_only.set(true);
    search(&mut s, &alice(), "peanuts");
    s.ports().read_only.set(false);
    // Another reader of the same home wrote its access an hour earlier.
    let id = s.list(&alice(), &ListOptions::default()).unwrap()[0].id.clone();
    s.ports()
        .append(
            Collection::Memories,
            &[format!(
                r#"{{"id":"{id}","version":1,"accessed_at":"2026-03-03T11:00:00+00:00"}}"#
            )],
        )
        .unwrap();
    assert_eq!(s.flush_deferred().unwrap(), 0);
}

#[test]
fn each_hit_says_which_lists_found_it() {
    let mut s = service();
    let alice = alice_alone();
    s.add(
        &alice,
        NewMemory {
            subjects: vec!["Sarah".into()],
            ..NewMemory::text("Dinner on Friday at the harbour")
        },
    )
    .unwrap();
    s.add(&alice, NewMemory::text("The harbour ferry leaves at noon"))
        .unwrap();
    let query = |text: &str| SearchQuery {
        text: text.into(),
        limit: None,
        about: None,
    };
    let hits = s.search(&alice, &query("dinner with Sarah")).unwrap().hits;
    let dinner = hits
        .iter()
        .find(|h| h.memory.content.starts_with("Dinner"))
        .expect("found");
    assert!(dinner.reasons.contains(&MatchReason::Person), "{:?}", dinner.reasons);
    assert!(dinner.reasons.contains(&MatchReason::Words), "{:?}", dinner.reasons);
    let ferry = s.search(&alice, &query("ferry")).unwrap().hits;
    assert_eq!(ferry[0].memory.content, "The harbour ferry leaves at noon");
    assert!(ferry[0].reasons.contains(&MatchReason::Words));
    assert!(!ferry[0].reasons.contains(&MatchReason::Person), "it is about no one");
    // Every hit was found some way, and no way twice.
    for h in hits.iter().chain(&ferry) {
        let mut seen = h.reasons.clone();
        seen.dedup();
        assert!(
            !h.reasons.is_empty() && seen.len() == h.reasons.len(),
            "{:?}",
            h.reasons
        );
    }
}

#[test]
fn a_whole_cache_finds_the_people_and_entity_lists_by_the_index_marks_as_its_walk_does() {
    let mut s = service();
    let me = alice_alone();
    for place in [
        "the harbour",
        "the museum",
        "a bakery",
        "the library",
        "a concert",
        "the zoo",
    ] {
        s.add(&me, NewMemory::text(&format!("Went to {place} with Caroline")))
            .unwrap();
    }
    s.add(
        &me,
        NewMemory {
            subjects: vec!["Marco".into()],
            ..NewMemory::text("Lunch with Marco next Tuesday at Casa Nova")
        },
    )
    .unwrap();
    s.add(&bob_alone(), NewMemory::text("Went to Casa Nova with Marco"))
        .unwrap();
    assert!(!s.memories.is_partial(), "the adds read the whole collection");
    let marked = |s: &MemoryService<FakePorts>| {
        s.ports()
            .logs
            .borrow()
            .iter()
            .filter(|(_, m)| m.contains("cached memories named by"))
            .count()
    };
    let asked = |s: &mut MemoryService<FakePorts>, q: &str| {
        s.search(
            &me,
            &SearchQuery {
                text: q.into(),
                limit: None,
                about: None,
            },
        )
        .unwrap()
        .hits
        .into_iter()
        .map(|h| (h.memory.content, h.reasons))
        .collect::<Vec<_>>()
    };
    let queries = [
        "Did I go anywhere with Caroline?",
        "When is lunch with Marco at Casa Nova?",
    ];
    let by_marks: Vec<_> = queries.iter().map(|q| asked(&mut s, q)).collect();
    assert_eq!(
        marked(&s),
        queries.len(),
        "each search read the marks, not every memory"
    );
    assert_eq!(by_marks[1][0].0, "Lunch with Marco next Tuesday at Casa Nova");
    assert!(by_marks[1][0].1.contains(&MatchReason::Person) && by_marks[1][0].1.contains(&MatchReason::Entity));

    // A new instance answers from the index alone (a partial cache, `hold_marked`), as
    // `from_index` shows a walk of the whole file does: the same answers.
    let mut fresh = super::from_index::reopen(s);
    let from_index: Vec<_> = queries.iter().map(|q| asked(&mut fresh, q)).collect();
    assert!(fresh.memories.is_partial());
    assert_eq!(from_index, by_marks);
    let caroline: Vec<&str> = by_marks[0].iter().map(|h| h.0.as_str()).collect();
    assert_eq!(caroline.len(), 6, "{caroline:?}");
    assert!(caroline.iter().all(|c| c.ends_with("with Caroline")));
}

#[test]
fn each_list_brings_at_least_list_depth_candidates_to_the_fusion() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("I'm allergic to peanuts")).unwrap();
    s.ports.asked_depths.borrow_mut().clear();
    search(&mut s, &alice(), "peanuts");
    let depth = crate::search::LIST_DEPTH;
    assert_eq!(
        *s.ports.asked_depths.borrow(),
        [depth, depth],
        "a default search of ten"
    );
    s.ports.asked_depths.borrow_mut().clear();
    let query = SearchQuery {
        text: "peanuts".into(),
        limit: Some(50),
        about: None,
    };
    s.search(&alice(), &query).unwrap();
    assert_eq!(*s.ports.asked_depths.borrow(), [200, 200], "four times a larger limit");
}

/// What Caroline told the user, each about something else.
const CAROLINE_SAYS: [&str; 24] = [
    "the lake was freezing this morning",
    "my cousin opened a bakery downtown",
    "pottery class starts on Thursday",
    "the new bridge finally opened",
    "our neighbour adopted two cats",
    "the concert tickets sold out fast",
    "I repainted the kitchen cabinets green",
    "the library extended its hours",
    "my bike chain snapped on the hill",
    "we planted tomatoes along the fence",
    "the museum has a dinosaur exhibit",
    "my sister bought a sailboat",
    "the bus route changed last month",
    "I finished knitting a scarf",
    "the farmers market moved indoors",
    "our team won the trivia night",
    "the storm knocked out the power",
    "I started learning the violin",
    "the cafe on Main closed down",
    "my grandmother visited from Lisbon",
    "the puppy chewed my sandals",
    "we hiked the coastal trail",
    "I burned the pancakes again",
    "the theatre staged a new comedy",
];

#[test]
fn a_name_most_memories_hold_is_left_out_of_the_query_as_a_stop_word() {
    let mut s = service();
    for line in CAROLINE_SAYS {
        s.add(&alice(), NewMemory::text(&format!("Talked to Caroline: {line}")))
            .unwrap();
    }
    s.add(&alice(), NewMemory::text("With Caroline I research adoption agencies"))
        .unwrap();
    for line in ["the weather turned", "dinner was lovely", "the train was late"] {
        s.add(&alice(), NewMemory::text(&format!("Talked to Melanie: {line}")))
            .unwrap();
    }
    let options = ListOptions {
        limit: Some(100),
        ..ListOptions::default()
    };
    let live = s.list(&alice(), &options).unwrap().len();
    assert_eq!(live, 28, "every line is its own memory");

    // 25 of 28 memories hold "caroline": more than COMMON_FLOOR and COMMON_SHARE. Counted
    // over the whole cache when no census came with the query, and by the index's marks.
    let now = s.now().unwrap();
    let wanted = ["name:caroline".to_owned(), "name:melanie".to_owned()];
    let caroline = ["caroline".to_owned()];
    let melanie = ["melanie".to_owned()];
    let both = ["caroline".to_owned(), "melanie".to_owned()];
    assert_eq!(s.common_names(&alice(), &both, None, &wanted, now), caroline);
    assert!(s.common_names(&alice(), &melanie, None, &wanted, now).is_empty());

    // The query is embedded once, with and without the names it holds, before anything
    // is read; the vector list searches the one without the common name.
    s.ports.embedded.borrow_mut().clear();
    let hits = search(&mut s, &alice(), "What did Caroline's team research?");
    assert_eq!(hits[0], "With Caroline I research adoption agencies", "{hits:?}");
    assert_eq!(
        *s.ports.embedded.borrow(),
        ["What did Caroline's team research?", "What did team research?"]
    );
    let searched = s.ports.knn_queries.borrow().last().cloned().unwrap();
    assert_eq!(searched, FakePorts::vector("What did team research?"));

    // Melanie is held by three: still telling, and the whole query is searched.
    search(&mut s, &alice(), "What did Melanie say about dinner?");
    let searched = s.ports.knn_queries.borrow().last().cloned().unwrap();
    assert_eq!(searched, FakePorts::vector("What did Melanie say about dinner?"));
    // Nothing but the name left after it: the whole query is searched.
    search(&mut s, &alice(), "Who is Caroline?");
    let searched = s.ports.knn_queries.borrow().last().cloned().unwrap();
    assert_eq!(searched, FakePorts::vector("Who is Caroline?"));

    // Beside a name that still tells, the common one is left out alone: the query is
    // embedded without each set of its two names.
    s.ports.embedded.borrow_mut().clear();
    search(&mut s, &alice(), "Did Melanie hear about Caroline's violin?");
    assert_eq!(
        *s.ports.embedded.borrow(),
        [
            "Did Melanie hear about Caroline's violin?",
            "Did Melanie hear about violin?",
            "Did hear about Caroline's violin?",
            "Did hear about violin?",
        ]
    );
    let searched = s.ports.knn_queries.borrow().last().cloned().unwrap();
    assert_eq!(searched, FakePorts::vector("Did Melanie hear about violin?"));
}

#[test]
fn a_query_of_more_than_two_names_is_embedded_without_them_all_only() {
    let s = service();
    let (vectors, _) = s.embed_query("Did Melanie tell Caroline about Oscar?");
    let sets: Vec<&[String]> = vectors.unnamed.iter().map(|u| u.names.as_slice()).collect();
    assert_eq!(sets, [["caroline", "melanie", "oscar"]]);
    assert_eq!(vectors.unnamed[0].text, "Did tell about");
    let two = ["caroline".to_owned(), "melanie".to_owned()];
    assert!(vectors.without(&two).is_none(), "no vector without two of three");
    assert!(vectors.without(&[]).is_none(), "nothing left out is the whole query");
}
