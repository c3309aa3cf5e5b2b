//! A new instance (one CLI process) answering a search from the index's records.

use super::*;
use crate::ports::Collection;
use crate::record::MemoryRecord;

fn query(text: &str) -> SearchQuery {
    SearchQuery {
        text: text.into(),
        limit: None,
        about: None,
    }
}

/// A new instance over the same home, as the next process would be, with the reads so far
/// forgotten.
fn reopen(s: MemoryService<FakePorts>) -> MemoryService<FakePorts> {
    s.ports.reads.borrow_mut().clear();
    MemoryService::new(s.ports)
}

/// The bytes of memories.jsonl this instance has read.
fn memories_read(s: &MemoryService<FakePorts>) -> usize {
    s.ports
        .reads
        .borrow()
        .iter()
        .filter(|(c, _)| *c == Collection::Memories)
        .map(|(_, n)| n)
        .sum()
}

fn home() -> MemoryService<FakePorts> {
    let mut s = service();
    let alice = alice_alone();
    for fact in [
        "I live in Porto near the river",
        "I prefer dark mode in every editor",
        "The standup is at half past nine",
        "I run about twenty kilometres every week",
    ] {
        s.add(&alice, NewMemory::text(fact)).unwrap();
    }
    s.add(&bob_alone(), NewMemory::text("Bob lives in Porto too")).unwrap();
    // Two days on, a search records that it returned a memory.
    *s.ports.now.borrow_mut() = LATER.into();
    s
}

const LATER: &str = "2026-03-03T12:00:00+00:00";

#[test]
fn a_new_instance_answers_from_the_index_what_the_whole_file_answers() {
    let mut s = home();
    let alice = alice_alone();
    // The first search records the accesses; the second is what a reader of the whole
    // file answers once they are in.
    s.search(&alice, &query("where do I live")).unwrap();
    let whole = s.search(&alice, &query("where do I live")).unwrap();
    assert_eq!(whole.hits[0].memory.content, "I live in Porto near the river");
    let id = whole.hits[0].memory.id.clone();
    assert!(s.memories.get(&id).unwrap().last_accessed_at.is_some());

    let mut cold = reopen(s);
    let answered = cold.search(&alice, &query("where do I live")).unwrap();
    assert_eq!(answered, whole, "the same hits and scores");
    assert!(cold.memories.is_partial());
    assert!(
        cold.memories.get(&id).unwrap().last_accessed_at.is_some(),
        "with the access"
    );
    assert_eq!(memories_read(&cold), 0, "only the empty tail was read");
    assert!(
        answered
            .hits
            .iter()
            .all(|h| h.memory.owner_user_id.as_deref() == Some("alice")),
        "Bob's memory never reaches Alice"
    );

    // A call that needs everything reads everything, and answers as before.
    let listed = cold.list(&alice, &Default::default()).unwrap();
    assert_eq!(listed.len(), 4);
    assert!(!cold.memories.is_partial());
}

#[test]
fn an_access_made_by_an_instance_reading_from_the_index_reaches_the_index() {
    let s = home();
    let alice = alice_alone();
    let mut cold = reopen(s);
    let first = cold.search(&alice, &query("where do I live")).unwrap();
    let id = first.hits[0].memory.id.clone();
    assert!(cold.memories.is_partial());
    let accessed = cold.memories.get(&id).unwrap().last_accessed_at.clone();
    assert_eq!(accessed.as_deref(), Some(LATER));

    // The next process reads the access from the index's record, not from the file.
    let mut s = reopen(cold);
    let second = s.search(&alice, &query("where do I live")).unwrap();
    assert_eq!(memories_read(&s), 0);
    assert_eq!(second.hits[0].memory.id, id);
    assert_eq!(
        s.memories.get(&id).unwrap().last_accessed_at,
        accessed,
        "from the index's record"
    );
}

#[test]
fn doubt_reads_the_whole_file() {
    let s = home();
    let alice = alice_alone();

    // A line written after the index's state (a crash between the two writes).
    let line = s.ports.file(Collection::Memories).lines().next().unwrap().to_owned();
    let mut record = MemoryRecord::parse(&line).unwrap();
    record.id = "written-by-a-crashed-process".into();
    record.content = "I live by the sea in a blue house".into();
    s.ports
        .write_raw(Collection::Memories, &format!("{}\n", record.to_line()));
    let mut cold = reopen(s);
    let found = search(&mut cold, &alice, "where do I live by the sea");
    assert!(
        found.contains(&"I live by the sea in a blue house".to_owned()),
        "{found:?}"
    );
    assert!(!cold.memories.is_partial());
    assert!(memories_read(&cold) > 0);

    // A query naming a person walks the person graph, which needs every memory.
    let mut s = reopen(cold);
    s.add(&alice, with_subjects("Ana is my sister", &["Ana"])).unwrap();
    let mut cold = reopen(s);
    search(&mut cold, &alice, "what about Ana");
    assert!(!cold.memories.is_partial());

    // An index without records (written by an older version) is read around.
    let s = reopen(cold);
    for entry in s.ports.index.borrow_mut().values_mut() {
        entry.record = None;
    }
    let mut cold = reopen(s);
    let found = search(&mut cold, &alice, "where do I live");
    assert_eq!(found[0], "I live in Porto near the river");
    assert!(!cold.memories.is_partial());
}

#[test]
fn a_superseded_or_deleted_memory_never_comes_back_from_the_index() {
    let mut s = home();
    let alice = alice_alone();
    let porto = search(&mut s, &alice, "where do I live");
    assert_eq!(porto[0], "I live in Porto near the river");
    let id = s.search(&alice, &query("where do I live")).unwrap().hits[0]
        .memory
        .id
        .clone();
    s.delete(&alice, &id).unwrap();
    let mut cold = reopen(s);
    let found = search(&mut cold, &alice, "where do I live");
    assert!(!found.contains(&porto[0]), "{found:?}");
    assert!(cold.memories.is_partial());
}

#[test]
fn a_new_instance_adds_and_supersedes_from_the_index() {
    let mut s = service();
    s.ports().settings.borrow_mut().supersession_threshold = 0.6;
    let alice = alice_alone();
    let red = s
        .add(&alice, NewMemory::text("My favorite color is red"))
        .unwrap()
        .memories[0]
        .id
        .clone();
    s.add(&alice, NewMemory::text("I prefer dark mode in every editor"))
        .unwrap();

    let mut cold = reopen(s);
    let added = cold.add(&alice, NewMemory::text("My favorite color is blue")).unwrap();
    assert!(cold.memories.is_partial());
    assert_eq!(memories_read(&cold), 0, "the candidates came from the index");
    let replaced: Vec<&str> = added.superseded.iter().map(|(m, _)| m.id.as_str()).collect();
    assert_eq!(replaced, [red.as_str()]);

    // A reader of the whole file agrees, and the next search from the index never
    // returns the old colour.
    let mut whole = reopen(cold);
    let mut listed: Vec<String> = whole
        .list(&alice, &Default::default())
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect();
    listed.sort();
    assert_eq!(
        listed,
        ["I prefer dark mode in every editor", "My favorite color is blue"]
    );
    let mut cold = reopen(whole);
    assert_eq!(
        search(&mut cold, &alice, "favorite color"),
        ["My favorite color is blue"]
    );
    assert!(cold.memories.is_partial());

    // With `max_entries`, an add counts the scope: it reads the whole file.
    let mut capped = reopen(cold);
    capped.ports().settings.borrow_mut().max_entries = Some(10);
    capped
        .add(&alice, NewMemory::text("The standup is at half past nine"))
        .unwrap();
    assert!(!capped.memories.is_partial());
}

#[test]
fn a_failed_index_write_keeps_the_index_from_claiming_the_lines_after_it() {
    let mut s = home();
    let alice = alice_alone();
    // One call: the new memory is written to the file and refused by the index; the
    // eviction it causes is written to both.
    s.ports().settings.borrow_mut().max_entries = Some(4);
    s.ports.fail_upserts.set(true);
    let added = s.add(&alice, NewMemory::text("I keep bees on the roof")).unwrap();
    assert_eq!(added.evicted.len(), 1);
    s.ports.fail_upserts.set(false);
    s.ports().settings.borrow_mut().max_entries = None;

    let mut cold = reopen(s);
    let found = search(&mut cold, &alice, "bees on the roof");
    assert_eq!(
        found.first().map(String::as_str),
        Some("I keep bees on the roof"),
        "{found:?}"
    );
    assert!(!cold.memories.is_partial(), "the gap was read and replayed");
    let mut again = reopen(cold);
    assert_eq!(
        search(&mut again, &alice, "bees on the roof")[0],
        "I keep bees on the roof"
    );
    assert!(again.memories.is_partial(), "and the index stands for the file again");
}
