//! `list` answered from the index's most recently made entries (`service::recent`): the
//! same list, in the same order, as the whole file gives, without reading it.

use super::from_index::{memories_read, reopen};
use super::*;
use crate::memory_type::MemoryType;
use crate::ports::{Collection, Ports};

fn typed(content: &str, memory_type: MemoryType) -> NewMemory {
    NewMemory {
        memory_type: Some(memory_type),
        ..NewMemory::text(content)
    }
}

fn options(limit: Option<u32>, memory_type: Option<MemoryType>, expired: bool, superseded: bool) -> ListOptions {
    ListOptions {
        limit,
        memory_type,
        include_expired: expired,
        include_superseded: superseded,
    }
}

fn contents(list: &[Memory]) -> Vec<&str> {
    list.iter().map(|m| m.content.as_str()).collect()
}

/// Alice: a batch of three made at one moment, facts and preferences made later, one
/// that lapses, one replaced, one deleted and one written again; a memory shared in her
/// chat; Bob's memories, made last.
fn home() -> MemoryService<FakePorts> {
    let mut s = service();
    // The fake embedder's vectors are coarse: the threshold the supersession tests use.
    s.ports().settings.borrow_mut().supersession_threshold = 0.6;
    let alone = alice_alone();
    s.add_batch(
        &alone,
        vec![
            NewMemory::text("I keep bees in the garden"),
            NewMemory::text("I play the cello on Sundays"),
            NewMemory::text("I collect old maps of Lisbon"),
        ],
    )
    .unwrap();
    *s.ports.now.borrow_mut() = "2026-03-02T12:00:00+00:00".into();
    for i in 0..12 {
        s.add(&alone, NewMemory::text(&format!("Fact number {i} about Alice's week")))
            .unwrap();
    }
    let aisle = s
        .add(&alone, typed("I prefer aisle seats on trains", MemoryType::Preference))
        .unwrap()
        .memories[0]
        .id
        .clone();
    s.add(
        &alone,
        NewMemory {
            expires_in_days: Some(1),
            ..NewMemory::text("The plumber comes on Tuesday morning")
        },
    )
    .unwrap();
    s.add(&alone, NewMemory::text("My favorite color is red")).unwrap();
    let doomed = s
        .add(&alone, NewMemory::text("My locker code is on the blue card"))
        .unwrap()
        .memories[0]
        .id
        .clone();
    *s.ports.now.borrow_mut() = "2026-03-03T12:00:00.000000500+00:00".into();
    // Made half a microsecond later than the fact at the same whole microsecond: equal
    // moments for the list, so the last written comes first.
    s.add(&alone, typed("I prefer tea to coffee", MemoryType::Preference))
        .unwrap();
    *s.ports.now.borrow_mut() = "2026-03-03T12:00:00.000000100+00:00".into();
    s.add(&alone, NewMemory::text("I planted pear trees in the orchard"))
        .unwrap();
    s.delete(&alone, &doomed).unwrap();
    // Written again, later: it keeps its moment and its place among its equals.
    s.confirm(&alone, &aisle).unwrap();
    s.add(
        &alice(),
        NewMemory {
            shared: true,
            ..NewMemory::text("We meet at the harbour cafe")
        },
    )
    .unwrap();
    *s.ports.now.borrow_mut() = "2026-03-04T12:00:00+00:00".into();
    let replaced = s.add(&alone, NewMemory::text("My favorite color is blue")).unwrap();
    assert_eq!(replaced.superseded.len(), 1, "red is replaced");
    for i in 0..3 {
        s.add(&bob_alone(), NewMemory::text(&format!("Bob's note {i}")))
            .unwrap();
    }
    *s.ports.now.borrow_mut() = "2026-03-05T12:00:00+00:00".into();
    s
}

#[test]
fn a_list_from_the_index_is_the_whole_files() {
    let mut s = home();
    let callers = [alice_alone(), alice(), bob_alone()];
    let asks = [
        options(Some(5), None, false, false),
        options(Some(1), None, false, false),
        options(Some(40), None, false, false),
        options(Some(40), None, true, false),
        options(Some(3), Some(MemoryType::Preference), false, false),
        options(Some(2), Some(MemoryType::Event), true, false),
    ];
    for caller in &callers {
        for ask in &asks {
            let mut whole = reopen(s);
            whole.list(caller, &Default::default()).unwrap();
            let expected = whole.list(caller, ask).unwrap();
            assert!(!whole.memories.is_partial());

            let mut cold = reopen(whole);
            let answered = cold.list(caller, ask).unwrap();
            assert_eq!(contents(&answered), contents(&expected), "{caller:?} {ask:?}");
            assert_eq!(answered, expected);
            assert!(cold.memories.is_partial(), "{ask:?} was answered from the index");
            assert_eq!(memories_read(&cold), 0, "{ask:?}");
            s = cold;
        }
    }

    // A limit of 0 is refused on both paths, as search refuses it.
    let zero = options(Some(0), None, false, false);
    for path in ["index", "file"] {
        let mut service = reopen(s);
        if path == "file" {
            service.list(&alice(), &Default::default()).unwrap();
        }
        let refused = service.list(&alice(), &zero);
        assert!(
            matches!(&refused, Err(Error::InvalidInput(m)) if m.contains("limit is 0")),
            "{path}: {refused:?}"
        );
        s = service;
    }

    // What the lists say (not only the same on both paths).
    let mut cold = reopen(s);
    let alice_five = cold.list(&alice(), &options(Some(5), None, false, false)).unwrap();
    assert_eq!(
        contents(&alice_five),
        [
            "My favorite color is blue",
            "We meet at the harbour cafe",
            // Equal whole microseconds: the last written first.
            "I planted pear trees in the orchard",
            "I prefer tea to coffee",
            "I prefer aisle seats on trains",
        ],
        "the replaced, the deleted and the lapsed are not listed"
    );
    let batch: Vec<String> = cold
        .list(&alice_alone(), &options(Some(40), None, false, false))
        .unwrap()
        .into_iter()
        .rev()
        .take(3)
        .map(|m| m.content)
        .collect();
    assert_eq!(
        batch,
        [
            "I keep bees in the garden",
            "I play the cello on Sundays",
            "I collect old maps of Lisbon"
        ],
        "one moment: the batch listed last written first"
    );
    let with_lapsed = cold
        .list(&alice_alone(), &options(Some(40), None, true, false))
        .unwrap();
    assert!(contents(&with_lapsed).contains(&"The plumber comes on Tuesday morning"));
    assert_eq!(
        contents(&cold.list(&bob_alone(), &options(Some(5), None, false, false)).unwrap()),
        ["Bob's note 2", "Bob's note 1", "Bob's note 0"]
    );
    assert!(cold.memories.is_partial());
    assert_eq!(memories_read(&cold), 0);

    // A rebuilt index lists in the same order: it indexes in file order.
    let all = options(Some(40), None, true, false);
    let before = cold.list(&alice(), &all).unwrap();
    cold.rebuild_index().unwrap();
    let mut rebuilt = reopen(cold);
    assert_eq!(rebuilt.list(&alice(), &all).unwrap(), before);
    assert!(rebuilt.memories.is_partial());
}

/// A list of one type asks for more until it has enough; one with superseded memories,
/// or without a limit, reads the file.
#[test]
fn a_typed_list_asks_again_and_some_lists_read_the_file() {
    let mut s = home();
    let alice = alice_alone();
    for i in 0..70 {
        s.add(&alice, NewMemory::text(&format!("Later fact number {i}")))
            .unwrap();
    }
    let mut cold = reopen(s);
    let preferences = cold
        .list(&alice, &options(Some(2), Some(MemoryType::Preference), false, false))
        .unwrap();
    assert_eq!(
        contents(&preferences),
        ["My favorite color is blue", "I prefer tea to coffee"]
    );
    assert_eq!(cold.ports.recent_asked.borrow().as_slice(), [64, 512], "asked again");
    assert_eq!(memories_read(&cold), 0);

    for ask in [options(Some(100), None, false, true), options(None, None, false, false)] {
        cold = reopen(cold);
        cold.ports.recent_asked.borrow_mut().clear();
        let listed = cold.list(&alice, &ask).unwrap();
        assert!(!listed.is_empty());
        assert!(cold.ports.recent_asked.borrow().is_empty(), "{ask:?}");
        assert!(memories_read(&cold) > 0, "{ask:?} read the file");
        let superseded = contents(&listed).contains(&"My favorite color is red");
        assert_eq!(superseded, ask.include_superseded, "{ask:?}");
    }
}

/// An index behind the file, whose tail removes a memory and writes it again: the replay
/// puts it last, where the file has it, so a list from the index still answers as the
/// file does.
#[test]
fn a_replayed_tail_that_writes_a_memory_again_puts_it_last() {
    let mut s = service();
    let alice = alice_alone();
    for fact in ["I keep bees in the garden", "I play the cello on Sundays"] {
        s.add(&alice, NewMemory::text(fact)).unwrap();
    }
    // The index as it stands now, which the next writes leave behind.
    let behind = (
        s.ports.index.borrow().clone(),
        s.ports.indexed_at.borrow().clone(),
        *s.ports.index_reflects.borrow(),
    );
    let bees = s.list(&alice, &options(None, None, false, false)).unwrap()[1].clone();
    assert_eq!(bees.content, "I keep bees in the garden");
    let line = s.ports.files.borrow()["memories"]
        .0
        .lines()
        .find(|l| l.contains("bees"))
        .unwrap()
        .to_owned();
    s.delete(&alice, &bees.id).unwrap();
    // Another writer (a host restoring it by hand) writes the same memory again.
    s.ports.append(Collection::Memories, &[line]).unwrap();
    s = reopen(s);
    let expected = contents(&s.list(&alice, &options(Some(5), None, false, false)).unwrap())
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    assert_eq!(
        expected,
        ["I keep bees in the garden", "I play the cello on Sundays"],
        "written again, last"
    );

    *s.ports.index.borrow_mut() = behind.0;
    *s.ports.indexed_at.borrow_mut() = behind.1;
    *s.ports.index_reflects.borrow_mut() = behind.2;
    let mut cold = reopen(s);
    search(&mut cold, &alice, "cello");
    let mut cold = reopen(cold);
    let answered = cold.list(&alice, &options(Some(5), None, false, false)).unwrap();
    assert!(cold.memories.is_partial(), "answered from the index");
    assert_eq!(contents(&answered), expected);
}
