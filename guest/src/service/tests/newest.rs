//! A context block and a profile answered from the index's newest holders of a key
//! (`service::newest`): the same as the whole file gives, without reading it.

use super::from_index::{memories_read, reopen};
use super::*;
use crate::memory_type::MemoryType;

fn typed(content: &str, memory_type: MemoryType, observed: &str) -> NewMemory {
    NewMemory {
        memory_type: Some(memory_type),
        observed_at: Some(observed.into()),
        ..NewMemory::text(content)
    }
}

/// Alice: three identities, 50 preferences (past the first ask) whose newest repeat one
/// note in different cases, relationships and a preference about Sarah, two reflections,
/// a memory shared in a chat; Bob: newer memories of every kind.
fn profile_home() -> MemoryService<FakePorts> {
    let mut s = service();
    let alice = alice_alone();
    for i in 0..3 {
        let at = format!("2024-0{}-01T00:00:00+00:00", i + 1);
        s.add(
            &alice,
            typed(&format!("I was born in town number {i}"), MemoryType::Identity, &at),
        )
        .unwrap();
    }
    for i in 0..50 {
        // Three a day, so that equal moments come out by id.
        let at = format!("2025-01-{:02}T00:00:00+00:00", i / 3 + 1);
        s.add(
            &alice,
            typed(
                &format!("I enjoy hobby number {i} on weekends"),
                MemoryType::Preference,
                &at,
            ),
        )
        .unwrap();
    }
    // The 30 newest preferences make one note, in thirty spellings that differ only in
    // case (the newest all lower case): the profile's walk goes past the first 40 it asks
    // for. One import each: an add would keep the first and count the others as told
    // again, but a store written before restatements were recognised holds them all.
    for i in 0..30 {
        let mut mask = 29 - i;
        let note: String = "i like green tea"
            .chars()
            .map(|c| {
                if !c.is_alphabetic() {
                    return c;
                }
                let upper = mask & 1 == 1;
                mask >>= 1;
                if upper { c.to_ascii_uppercase() } else { c }
            })
            .collect();
        let at = format!("2025-03-{:02}T00:00:00+00:00", i + 1);
        s.import(&alice, vec![typed(&note, MemoryType::Preference, &at)], false)
            .unwrap();
    }
    let mut relationship = with_subjects("Sarah is my sister", &["Sarah"]);
    relationship.memory_type = Some(MemoryType::Relationship);
    s.add(&alice, relationship).unwrap();
    let mut theirs = with_subjects("She likes Italian food", &["Sarah"]);
    theirs.memory_type = Some(MemoryType::Preference);
    s.add(&alice, theirs).unwrap();
    let mut neighbour = with_subjects("Tom is my neighbour", &["Tom"]);
    neighbour.memory_type = Some(MemoryType::Relationship);
    s.add(&alice, neighbour).unwrap();
    for (text, at) in [
        ("Alice plans her trips months ahead", "2026-01-01T00:00:00+00:00"),
        ("Alice is cutting down on sugar", "2026-02-01T00:00:00+00:00"),
    ] {
        s.add(&alice, typed(text, MemoryType::Reflection, at)).unwrap();
    }
    s.add(
        &alice_in_chat(),
        NewMemory {
            shared: true,
            ..typed(
                "We like the window table",
                MemoryType::Preference,
                "2026-02-20T00:00:00+00:00",
            )
        },
    )
    .unwrap();
    let bob = bob_alone();
    s.add(
        &bob,
        typed("I am a baker", MemoryType::Identity, "2026-02-25T00:00:00+00:00"),
    )
    .unwrap();
    s.add(
        &bob,
        typed("Bob rises at four", MemoryType::Reflection, "2026-02-25T00:00:00+00:00"),
    )
    .unwrap();
    // Later, a memory about Tom makes him the most recently active of Alice's people.
    *s.ports.now.borrow_mut() = "2026-03-05T12:00:00+00:00".into();
    s.add(&alice, with_subjects("Tom lent me his ladder", &["Tom"]))
        .unwrap();
    s
}

fn alice_in_chat() -> Caller {
    alice()
}

/// Notes that fill up within the first ask: no second one, and still the whole file's.
#[test]
fn a_profile_whose_notes_fill_within_the_first_ask_asks_once() {
    let mut s = service();
    let alice = alice_alone();
    for i in 0..45 {
        let at = format!("2025-01-01T00:{i:02}:00+00:00");
        s.add(
            &alice,
            typed(&format!("I was born in town number {i}"), MemoryType::Identity, &at),
        )
        .unwrap();
    }
    s.add(
        &alice,
        typed("I like green tea", MemoryType::Preference, "2026-01-01T00:00:00+00:00"),
    )
    .unwrap();
    let mut whole = reopen(s);
    whole.list(&alice, &Default::default()).unwrap();
    let expected = whole.profile(&alice).unwrap();
    let mut cold = reopen(whole);
    cold.ports.newest_asked.borrow_mut().clear();
    assert_eq!(cold.profile(&alice).unwrap(), expected);
    assert!(cold.memories.is_partial());
    assert_eq!(cold.ports.newest_asked.borrow().as_slice(), [40], "one ask");
    assert_eq!(expected.notes[0], "I was born in town number 44");
    assert_eq!(expected.notes[19], "I was born in town number 25");
}

#[test]
fn a_context_and_a_profile_from_the_index_are_the_whole_files() {
    let mut s = profile_home();
    let asks = [
        (alice_alone(), "what hobbies do I enjoy"),
        (alice_alone(), ""),
        (alice_in_chat(), "where do we sit"),
        (bob_alone(), "when do I get up"),
    ];
    for (caller, message) in &asks {
        let mut whole = reopen(s);
        whole.list(caller, &Default::default()).unwrap();
        // The first call records the hits' accesses; the second is what a reader of the
        // whole file answers once they are in.
        whole.context(caller, message, None, None).unwrap();
        let expected = whole.context(caller, message, None, None).unwrap();
        let expected_profile = caller.chat_id.is_none().then(|| whole.profile(caller).unwrap());
        assert!(!whole.memories.is_partial());

        let mut cold = reopen(whole);
        let answered = cold.context(caller, message, None, None).unwrap();
        assert_eq!(answered, expected, "{caller:?} {message:?}");
        assert!(cold.memories.is_partial(), "{message:?} was answered from the index");
        assert_eq!(memories_read(&cold), 0, "{message:?}");
        if let Some(expected_profile) = expected_profile {
            let mut cold = reopen(cold);
            assert_eq!(cold.profile(caller).unwrap(), expected_profile);
            assert!(cold.memories.is_partial());
            assert_eq!(memories_read(&cold), 0);
            s = cold;
        } else {
            s = cold;
        }
    }

    // What the answers say (not only the same on both paths).
    let mut cold = reopen(s);
    cold.ports.newest_asked.borrow_mut().clear();
    cold.ports.moments_asked.borrow_mut().clear();
    let block = cold.context(&alice_alone(), "", None, None).unwrap();
    assert_eq!(
        cold.ports.newest_asked.borrow().as_slice(),
        [1, 40, 320],
        "the profile asked again"
    );
    assert_eq!(block.profile.len(), 20);
    assert_eq!(
        &block.profile[..5],
        [
            "I was born in town number 2",
            "I was born in town number 1",
            "I was born in town number 0",
            "i like green tea",
            // Observed on the same day as 49, and made first: the lower id.
            "I enjoy hobby number 48 on weekends",
        ]
    );
    assert!(
        !block
            .profile
            .iter()
            .any(|n| n.contains("Italian") || n.contains("window")),
        "{:?}",
        block.profile
    );
    assert!(
        block.markdown.contains("Alice is cutting down on sugar"),
        "the newer reflection"
    );
    assert!(!block.markdown.contains("months ahead"), "{}", block.markdown);
    let people: Vec<&str> = block.people.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(people, ["Tom", "Sarah"]);
    // The people were ranked by the index's moments: one ask for both, no record fetched
    // for them (the one `newest` of a single key above is the reflection's).
    assert_eq!(cold.ports.moments_asked.borrow().as_slice(), [2]);
    assert!(cold.memories.is_partial());
    assert_eq!(memories_read(&cold), 0);
}
