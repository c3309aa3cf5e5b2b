//! A new instance (one CLI process) answering a search from the index's records.

use super::*;
use crate::ports::Collection;
use crate::record::MemoryRecord;

/// A search for `text` with the default limit.
pub(super) fn query(text: &str) -> SearchQuery {
    SearchQuery {
        text: text.into(),
        limit: None,
        about: None,
    }
}

/// A new instance over the same home, as the next process would be, with the reads so far
/// forgotten.
pub(super) fn reopen(s: MemoryService<FakePorts>) -> MemoryService<FakePorts> {
    s.ports.reads.borrow_mut().clear();
    MemoryService::new(s.ports)
}

/// The bytes of memories.jsonl this instance has read.
pub(super) fn memories_read(s: &MemoryService<FakePorts>) -> usize {
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

/// Alice's memories about people and entities, with a common name among them, an expired
/// one, and Bob's about the same names.
fn people_home() -> MemoryService<FakePorts> {
    let mut s = service();
    let alice = alice_alone();
    // Forty memories that come before Ana's in the index's answers, so that a search finds
    // hers only by their marks.
    for i in 0..40 {
        s.add(&alice, NewMemory::text(&format!("Filler number {i} of the list")))
            .unwrap();
    }
    // 22 of Alice's 70 memories name Caroline: past the floor and the share, her name
    // tells them apart no better than a stop word.
    for i in 0..22 {
        s.add(
            &alice,
            NewMemory::text(&format!("Went to place number {i} with Caroline")),
        )
        .unwrap();
    }
    s.add(&alice, NewMemory::text("Lunch with Marco next Tuesday")).unwrap();
    s.add(&alice, NewMemory::text("Marco fixed the boiler")).unwrap();
    s.add(&alice, with_subjects("Ana is my sister", &["Ana"])).unwrap();
    s.add(&alice, with_subjects("Ana plays the cello", &["Ana"])).unwrap();
    s.add(&alice, with_subjects("Cello lessons twice a week", &["Ana"]))
        .unwrap();
    s.add(&alice, with_subjects("Ana and Tom got married", &["Ana", "Tom"]))
        .unwrap();
    s.add(&alice, with_subjects("Tom bakes bread", &["Tom"])).unwrap();
    let old = NewMemory {
        memory_type: Some(crate::memory_type::MemoryType::Event),
        observed_at: Some("2025-01-01T00:00:00+00:00".into()),
        ..with_subjects("Ana visited Marco in Lisbon", &["Ana"])
    };
    s.add(&alice, old).unwrap();
    s.add(&alice, NewMemory::text("The standup is at half past nine"))
        .unwrap();
    s.add(
        &bob_alone(),
        with_subjects("Ana is my cousin and knows Marco", &["Ana"]),
    )
    .unwrap();
    s.add(&bob_alone(), NewMemory::text("Caroline and Marco run a bakery"))
        .unwrap();
    *s.ports.now.borrow_mut() = LATER.into();
    s
}

/// A search about a person, or naming an entity, fetches what it needs by the index's
/// marks and answers what a reader of the whole file answers: the same hits and scores,
/// a common name left out by the index's counts as by the file's, an expired memory and
/// Bob's memories never fetched.
#[test]
fn a_search_about_people_and_entities_answers_from_the_index_what_the_whole_file_answers() {
    let alice = alice_alone();
    let asked = [
        query("what about Ana"),
        query("Where did I go with Caroline?"),
        query("Did Caroline meet Marco?"),
        query("what does my sister like"),
        SearchQuery {
            about: Some("Ana".into()),
            ..query("music")
        },
    ];
    let mut s = people_home();
    for q in &asked {
        // Read whole (`list` reads everything); the first search records the accesses.
        let mut whole = reopen(s);
        whole.list(&alice, &Default::default()).unwrap();
        whole.search(&alice, q).unwrap();
        let expected = whole.search(&alice, q).unwrap();
        assert!(!whole.memories.is_partial());

        let mut cold = reopen(whole);
        let answered = cold.search(&alice, q).unwrap();
        assert_eq!(answered, expected, "{:?}", q.text);
        assert!(cold.memories.is_partial(), "{:?} was answered from the index", q.text);
        assert_eq!(memories_read(&cold), 0, "{:?}", q.text);
        s = cold;
    }

    // The answers say what they should (not only the same on both paths).
    let mut cold = reopen(s);
    let ana = search(&mut cold, &alice, "what about Ana");
    assert!(ana.contains(&"Ana plays the cello".to_owned()), "{ana:?}");
    let music = cold
        .search(
            &alice,
            &SearchQuery {
                about: Some("Ana".into()),
                ..query("music")
            },
        )
        .unwrap();
    let music: Vec<&str> = music.hits.iter().map(|h| h.memory.content.as_str()).collect();
    assert!(
        music.contains(&"Cello lessons twice a week"),
        "found by its subject alone: {music:?}"
    );
    assert!(!ana.iter().any(|c| c.contains("Lisbon")), "expired: {ana:?}");
    let caroline = cold.search(&alice, &query("Did Caroline meet Marco?")).unwrap();
    assert!(
        caroline.hits[0].memory.content.contains("Marco"),
        "{:?}",
        caroline.hits[0]
    );
    assert!(cold.memories.is_partial());
    // Caroline's name is too common to fetch its holders by: only Marco's are (one live,
    // the other expired).
    let logs = cold.ports.logs.borrow();
    assert!(
        logs.iter().any(|(_, m)| m.contains("fetched 1 memories by 1 marks")),
        "{logs:?}"
    );
}

/// A person merged into another relinks their memories by the index's marks too: a search
/// about the one kept finds what was about the other, from the index.
#[test]
fn a_merge_moves_the_marks_a_search_about_a_person_finds_memories_by() {
    let alice = alice_alone();
    let mut s = people_home();
    s.add(&alice, with_subjects("Annie loves sailing", &["Annie"])).unwrap();
    s.people_merge(&alice, "Ana", "Annie").unwrap();
    let mut cold = reopen(s);
    let found = cold
        .search(
            &alice,
            &SearchQuery {
                about: Some("Ana".into()),
                ..query("hobbies")
            },
        )
        .unwrap();
    assert!(cold.memories.is_partial(), "{:?}", cold.ports.logs.borrow());
    let contents: Vec<&str> = found.hits.iter().map(|h| h.memory.content.as_str()).collect();
    assert!(contents.contains(&"Annie loves sailing"), "{contents:?}");
    assert!(contents.iter().all(|c| !c.contains("Marco fixed")), "{contents:?}");
}
