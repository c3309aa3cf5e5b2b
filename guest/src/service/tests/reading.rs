//! Reading: scopes decide what is seen, expired memories are not, and the last line for
//! an id wins over earlier ones and over lines that cannot be read.

use super::{alice, search, service};
use crate::api::*;
use crate::memory_type::MemoryType;
use crate::ports::{Collection, Level};
use crate::record::MemoryRecord;
use crate::scope::Caller;

#[test]
fn group_memories_are_seen_in_their_chat_only() {
    let mut s = service();
    let shared = NewMemory {
        shared: true,
        ..NewMemory::text("Standup is at 9am")
    };
    let m = s.add(&alice(), shared).unwrap().memories.remove(0);
    assert_eq!((m.owner_user_id, m.chat_id.as_deref()), (None, Some("chat-1")));
    let bob_here = Caller::new(Some("bob"), Some("chat-1"));
    let bob_elsewhere = Caller::new(Some("bob"), Some("chat-2"));
    assert_eq!(search(&mut s, &bob_here, "standup"), ["Standup is at 9am"]);
    assert!(search(&mut s, &bob_elsewhere, "standup").is_empty());
    assert!(s.list(&bob_elsewhere, &ListOptions::default()).unwrap().is_empty());
    assert!(matches!(s.get(&bob_elsewhere, &m.id), Err(Error::NotFound(_))));
    assert!(matches!(s.delete(&bob_elsewhere, &m.id), Err(Error::NotFound(_))));
    s.delete(&bob_here, &m.id).unwrap();
    assert!(s.list(&alice(), &ListOptions::default()).unwrap().is_empty());
}

#[test]
fn expired_memories_are_never_returned() {
    let mut s = service();
    let soon = NewMemory {
        expires_in_days: Some(2),
        ..NewMemory::text("The garage code changes on Friday")
    };
    s.add(&alice(), soon).unwrap();
    let observed = NewMemory {
        memory_type: Some(MemoryType::Observation),
        observed_at: Some("2026-02-20T00:00:00Z".into()),
        ..NewMemory::text("Mentioned feeling tired")
    };
    s.add(&alice(), observed).unwrap();
    // The observation was observed 9 days before now: past its 3-day lifetime already.
    assert_eq!(
        search(&mut s, &alice(), "garage code"),
        ["The garage code changes on Friday"]
    );
    assert!(search(&mut s, &alice(), "tired").is_empty());
    *s.ports().now.borrow_mut() = "2026-03-03T12:00:00+00:00".into();
    assert!(search(&mut s, &alice(), "garage code").is_empty());
    assert!(s.list(&alice(), &ListOptions::default()).unwrap().is_empty());
    let all = ListOptions {
        include_expired: true,
        ..Default::default()
    };
    assert_eq!(s.list(&alice(), &all).unwrap().len(), 2);
}

#[test]
fn last_line_for_an_id_wins_and_bad_lines_are_quarantined() {
    let mut s = service();
    let m = s
        .add(&alice(), NewMemory::text("I live in Lisbon"))
        .unwrap()
        .memories
        .remove(0);
    let mut updated = MemoryRecord::parse(s.ports().file(Collection::Memories).trim()).unwrap();
    updated.content = "I live in Porto".into();
    s.ports().write_raw(
        Collection::Memories,
        &format!("{{garbage\n{}\n{{\"id\":\"torn", updated.to_line()),
    );
    let listed = s.list(&alice(), &ListOptions::default()).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].id.as_str(), listed[0].content.as_str()),
        (m.id.as_str(), "I live in Porto")
    );
    assert_eq!(*s.ports().quarantined.borrow(), ["{garbage", "{\"id\":\"torn"]);
    let file = s.ports().file(Collection::Memories);
    assert_eq!(file.lines().count(), 1, "rewritten without the bad lines: {file}");
    assert!(
        s.ports()
            .logs
            .borrow()
            .iter()
            .any(|(l, m)| *l == Level::Warn && m.contains("quarantined"))
    );
}

#[test]
fn a_read_that_may_not_set_bad_lines_aside_fails_and_the_write_that_follows_does() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("I live in Lisbon")).unwrap();
    s.ports().write_raw(Collection::Memories, "{garbage\n");
    s.ports().read_only.set(true);
    assert!(
        s.list(&alice(), &ListOptions::default()).is_err(),
        "the read cannot set the line aside"
    );
    s.ports().read_only.set(false);
    // Run again as a write: the line is read again, set aside, and nothing else is lost.
    let listed = s.list(&alice(), &ListOptions::default()).unwrap();
    assert_eq!(
        listed.iter().map(|m| m.content.as_str()).collect::<Vec<_>>(),
        ["I live in Lisbon"]
    );
    assert_eq!(*s.ports().quarantined.borrow(), ["{garbage"]);
}
