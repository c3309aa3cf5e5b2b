//! Export and import: a lossless round trip, re-imports that store nothing twice, ids
//! that collide, and lines that are refused alone.

use super::{alice, bob_alone, service, with_subjects};
use crate::api::*;
use crate::ports::Collection;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

/// Alice's home: people with an edge, a replaced memory, a shared one, a deleted one.
fn home() -> MemoryService<FakePorts> {
    let mut s = service();
    // The fake embedder's vectors are crude: a low threshold lets Porto replace Lisbon.
    s.ports().settings.borrow_mut().supersession_threshold = 0.4;
    s.add(
        &alice(),
        with_subjects("Sarah likes tulips", &["my wife Sarah", "Sarah's brother Tom"]),
    )
    .unwrap();
    let moved = s
        .add_batch(
            &alice(),
            vec![NewMemory::text("I live in Lisbon"), NewMemory::text("I live in Porto")],
        )
        .unwrap();
    assert_eq!(moved.superseded.len(), 1, "Porto replaces Lisbon");
    s.add(
        &alice(),
        NewMemory {
            shared: true,
            ..NewMemory::text("The team lunch is on Friday")
        },
    )
    .unwrap();
    let gone = s
        .add(&alice(), NewMemory::text("I like jazz"))
        .unwrap()
        .memories
        .remove(0)
        .id;
    s.delete(&alice(), &gone).unwrap();
    s.add(&bob_alone(), NewMemory::text("Bob's own fact")).unwrap();
    s
}

/// The lines after the header (which carries the time of the export).
fn body(lines: &[String]) -> &[String] {
    &lines[1..]
}

#[test]
fn an_export_read_into_an_empty_home_exports_the_same_lines() {
    let mut a = home();
    let lines = a.export_records(&alice(), true).unwrap();
    assert!(lines[0].contains(r#""format":"ash-memory-export""#), "{}", lines[0]);
    assert!(lines.iter().all(|l| !l.contains("Bob's own fact")), "nothing of Bob's");
    let kinds = |k: &str| lines.iter().filter(|l| l.contains(&format!(r#""kind":"{k}""#))).count();
    assert_eq!((kinds("person"), kinds("memory"), kinds("archived")), (2, 4, 1));

    let mut b = service();
    let r = b.import_records(&alice(), &lines, false).unwrap();
    assert_eq!(
        (r.people, r.memories, r.archived, r.renamed, r.present, r.reembedded),
        (2, 4, 1, 0, 0, 0),
        "{r:?}"
    );
    assert!(r.refused.is_empty(), "{:?}", r.refused);
    let again = b.export_records(&alice(), true).unwrap();
    assert_eq!(body(&again), body(&lines), "lossless, field by field");
    // Searchable and scoped as before.
    assert_eq!(super::search(&mut b, &alice(), "tulips")[0], "Sarah likes tulips");
    assert!(super::search(&mut b, &bob_alone(), "tulips").is_empty());

    // Reading it again stores nothing twice.
    let twice = b.import_records(&alice(), &lines, false).unwrap();
    assert_eq!(
        (twice.people, twice.memories, twice.archived, twice.present),
        (0, 0, 0, 7)
    );
    assert_eq!(body(&b.export_records(&alice(), true).unwrap()), body(&lines));
}

#[test]
fn colliding_ids_are_renamed_and_references_follow() {
    let mut a = home();
    let lines = a.export_records(&alice(), true).unwrap();
    // Bob imports Alice's export into her own home: every id is taken by her records,
    // archive entries included.
    let r = a
        .import_records(&crate::scope::Caller::new(Some("bob"), Some("chat-9")), &lines, false)
        .unwrap();
    assert_eq!(
        (r.people, r.memories, r.archived, r.renamed, r.present),
        (2, 4, 1, 7, 0),
        "{r:?}"
    );
    let bobs = a.list(
        &crate::scope::Caller::new(Some("bob"), Some("chat-9")),
        &ListOptions {
            include_superseded: true,
            ..ListOptions::default()
        },
    );
    let bobs = bobs.unwrap();
    let tulips = bobs.iter().find(|m| m.content == "Sarah likes tulips").unwrap();
    let bob_people: Vec<String> = a.people_list(&bob_alone()).unwrap().into_iter().map(|p| p.id).collect();
    assert_eq!(tulips.subject_person_ids.len(), 2);
    assert!(
        tulips.subject_person_ids.iter().all(|id| bob_people.contains(id)),
        "subjects follow the new ids"
    );
    let lisbon = bobs.iter().find(|m| m.content == "I live in Lisbon").unwrap();
    let porto = bobs.iter().find(|m| m.content == "I live in Porto").unwrap();
    assert_eq!(
        lisbon.superseded_by_id.as_ref(),
        Some(&porto.id),
        "the chain follows the new id"
    );
    let lunch = bobs.iter().find(|m| m.content.contains("lunch")).unwrap();
    assert_eq!(
        lunch.chat_id.as_deref(),
        Some("chat-9"),
        "group records go to the importer's chat"
    );
    // Alice's records are untouched.
    assert_eq!(body(&a.export_records(&alice(), true).unwrap()), body(&lines));
}

#[test]
fn records_changed_since_the_export_are_present_not_doubled_and_foreign_people_are_dropped() {
    let mut a = home();
    let lines = a.export_records(&alice(), true).unwrap();
    // Alice's home moves on: a person gets an alias, a memory is deleted (archived).
    a.people_alias(&alice(), "Sarah", "Sally").unwrap();
    let listed = a.list(&alice(), &ListOptions::default()).unwrap();
    let lunch = listed.iter().find(|m| m.content.contains("lunch")).unwrap().id.clone();
    a.delete(&alice(), &lunch).unwrap();
    let before = a.export_records(&alice(), true).unwrap();
    let again = a.import_records(&alice(), &lines, false).unwrap();
    assert_eq!(
        (again.people, again.memories, again.archived, again.renamed),
        (0, 0, 0, 0),
        "{again:?}"
    );
    assert_eq!(again.present, 7);
    assert_eq!(
        body(&a.export_records(&alice(), true).unwrap()),
        body(&before),
        "the home's versions stay"
    );

    // A subject naming someone else's person is dropped on the way in.
    let carol = crate::scope::Caller::new(Some("carol"), None);
    let carols = super::subjects_of(&mut a, &carol, &["Carol's boss"]);
    let foreign = format!(
        r#"{{"kind":"memory","id":"m-foreign","version":1,"content":"A fact about someone","memory_type":"knowledge","embedding":null,"created_at":"2026-03-01T12:00:00+00:00","owner_user_id":"x","subject_person_ids":["{}"]}}"#,
        carols[0]
    );
    let r = a.import_records(&alice(), &[lines[0].clone(), foreign], false).unwrap();
    assert_eq!(r.memories, 1);
    assert!(a.get(&alice(), "m-foreign").unwrap().subject_person_ids.is_empty());
}

#[test]
fn bad_lines_are_refused_alone_and_a_check_writes_nothing() {
    let mut a = home();
    let mut lines = a.export_records(&alice(), false).unwrap();
    lines.push("not json".into());
    lines.push(r#"{"kind":"memory","id":"x","version":1,"content":"password: hunter2hunter2","memory_type":"knowledge","embedding":null,"created_at":"2026-03-01T12:00:00+00:00","owner_user_id":"alice"}"#.into());
    lines.push(r#"{"kind":"planet","id":"y"}"#.into());
    let mut b = service();
    let before = [Collection::Memories, Collection::People, Collection::Archive].map(|c| b.ports().file(c));
    let check = b.import_records(&alice(), &lines, true).unwrap();
    let positions: Vec<u32> = check.refused.iter().map(|(p, _)| *p).collect();
    let n = lines.len() as u32;
    assert_eq!(positions, [n - 3, n - 2, n - 1], "{:?}", check.refused);
    assert!(check.refused[1].1.contains("secret"), "{:?}", check.refused[1]);
    assert_eq!(
        [Collection::Memories, Collection::People, Collection::Archive].map(|c| b.ports().file(c)),
        before
    );
    let done = b.import_records(&alice(), &lines, false).unwrap();
    assert_eq!((done.memories, done.refused.len()), (4, 3));
    assert!(!b.ports().file(Collection::Memories).contains("hunter2"));
    // Not an export at all.
    assert!(matches!(
        b.import_records(&alice(), &["I like tea".to_owned()], false),
        Err(Error::InvalidInput(m)) if m.contains("not an ash-memory export")
    ));
}

/// A file naming a memory twice, replaced and then live again: the second line is
/// refused, and the collection and the index both hold the first (replaced, so not held
/// by the index and found by no search).
#[test]
fn a_memory_named_twice_keeps_its_first_line_in_the_collection_and_the_index() {
    let mut a = home();
    let mut lines = a.export_records(&alice(), false).unwrap();
    let at = lines.iter().position(|l| l.contains("I live in Lisbon")).unwrap();
    let mut live: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
    assert!(!live["superseded_at"].is_null(), "{live}");
    let id = live["id"].as_str().unwrap().to_owned();
    live["superseded_at"] = serde_json::Value::Null;
    live["superseded_by_id"] = serde_json::Value::Null;
    lines.push(live.to_string());

    let mut b = service();
    let done = b.import_records(&alice(), &lines, false).unwrap();
    assert_eq!(done.refused.len(), 1, "{:?}", done.refused);
    assert_eq!(done.refused[0].0 as usize, lines.len() - 1);
    assert!(
        done.refused[0]
            .1
            .contains(&format!("memory {id} is on line {} already", at + 1)),
        "{:?}",
        done.refused
    );
    assert!(
        !b.ports.index.borrow().contains_key(&id),
        "the replaced memory is not indexed"
    );
    assert!(
        super::search(&mut b, &alice(), "Lisbon")
            .iter()
            .all(|c| c != "I live in Lisbon")
    );
}
