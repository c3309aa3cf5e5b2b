//! Writes of other scopes that commit beside this instance's calls, as on a backend that
//! locks scopes (Postgres): another host's lines and index entries land between a call's
//! reads, and the call reads what it missed instead of taking the gap for a fault.

use super::{alice_alone, bob_alone, service};
use crate::api::*;
use crate::ports::{Collection, EntryKind, FileState, Level, Ports};
use crate::scope::Caller;
use crate::tests::fake::FakePorts;

/// What another host's add for bob commits: his memory's line at the end of the file, its
/// index entry, and the index's new state.
fn bobs_commit() -> impl FnOnce(&FakePorts) {
    let mut other = service();
    // Ids of its own, as another host's are.
    other.ports().next_id.set(1000);
    other
        .add(&bob_alone(), NewMemory::text("I sing in a choir on Thursdays"))
        .unwrap();
    let line = other.ports().file(Collection::Memories);
    let entries = other.ports().index.borrow().clone();
    move |p: &FakePorts| {
        let state = p.append(Collection::Memories, &[line.trim_end().to_owned()]).unwrap();
        p.index.borrow_mut().extend(entries);
        *p.index_reflects.borrow_mut() = Some(state);
    }
}

fn rebuilt(p: &FakePorts) -> bool {
    p.logs
        .borrow()
        .iter()
        .any(|(level, text)| *level == Level::Warn && text.contains("rebuilding"))
}

#[test]
fn a_write_committed_between_reading_the_file_and_the_index_is_read_not_rebuilt() {
    let mut s = service();
    let alice = alice_alone();
    s.add(&alice, NewMemory::text("I keep bees in the garden")).unwrap();
    *s.ports().before_reflects.borrow_mut() = Some((EntryKind::Memory, Box::new(bobs_commit())));

    s.add(&alice, NewMemory::text("I play the cello on Sundays")).unwrap();
    assert!(
        s.ports().before_reflects.borrow().is_none(),
        "bob's write landed in the call"
    );
    assert!(!rebuilt(s.ports()), "{:?}", s.ports().logs.borrow());
    let end = s.ports().file(Collection::Memories).len() as u64;
    assert_eq!(
        s.ports().index_reflects.borrow().map(|r: FileState| r.end),
        Some(end),
        "the index stands for the whole file, bob's line included"
    );
    assert_eq!(s.ports().index.borrow().len(), 3);
    let listed = s.list(&bob_alone(), &ListOptions::default()).unwrap();
    assert_eq!(listed.len(), 1, "the cache holds bob's memory");
    assert_eq!(listed[0].content, "I sing in a choir on Thursdays");
}

fn turn(said: &str) -> Turn {
    Turn {
        session: "s".into(),
        provider: None,
        user_message: said.into(),
        assistant_message: Some("Noted.".into()),
    }
}

/// What another host's turn for bob commits: his session's and messages' lines, their
/// index entries, and the messages' new state in the index.
fn bobs_turn() -> impl FnOnce(&FakePorts) {
    let mut other = service();
    other.ports().next_id.set(1000);
    other
        .persist_turn(&bob_alone(), turn("I sing in a choir on Thursdays"))
        .unwrap();
    let sessions = other.ports().file(Collection::Sessions);
    let messages = other.ports().file(Collection::Messages);
    let entries = other.ports().index.borrow().clone();
    move |p: &FakePorts| {
        let lines = |text: &str| text.lines().map(str::to_owned).collect::<Vec<_>>();
        p.append(Collection::Sessions, &lines(&sessions)).unwrap();
        let state = p.append(Collection::Messages, &lines(&messages)).unwrap();
        p.index.borrow_mut().extend(entries);
        *p.message_index_reflects.borrow_mut() = Some(state);
    }
}

#[test]
fn a_turn_committed_between_reading_the_messages_and_the_index_is_read_not_rebuilt() {
    let mut s = service();
    let alice: Caller = alice_alone();
    s.persist_turn(&alice, turn("I keep bees in the garden")).unwrap();
    *s.ports().before_reflects.borrow_mut() = Some((EntryKind::Message, Box::new(bobs_turn())));

    s.persist_turn(&alice, turn("I play the cello on Sundays")).unwrap();
    assert!(
        s.ports().before_reflects.borrow().is_none(),
        "bob's turn landed in the call"
    );
    assert!(!rebuilt(s.ports()), "{:?}", s.ports().logs.borrow());
    let end = s.ports().file(Collection::Messages).len() as u64;
    assert_eq!(
        s.ports().message_index_reflects.borrow().map(|r: FileState| r.end),
        Some(end),
        "the index stands for every message, bob's included"
    );
    let messages = s.ports().file(Collection::Messages).lines().count();
    assert_eq!(messages, 6, "two turns of alice's and one of bob's, two messages each");
}
