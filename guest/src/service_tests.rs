//! Unit tests of the memory service over in-memory ports.

use crate::api::*;
use crate::fake::FakePorts;
use crate::memory_type::MemoryType;
use crate::ports::{Collection, Level};
use crate::record::MemoryRecord;
use crate::scope::Caller;
use crate::service::MemoryService;

fn service() -> MemoryService<FakePorts> {
    MemoryService::new(FakePorts::new())
}

fn alice() -> Caller {
    Caller::new(Some("alice"), Some("chat-1"))
}

fn search(s: &mut MemoryService<FakePorts>, caller: &Caller, q: &str) -> Vec<String> {
    s.search(
        caller,
        &SearchQuery {
            text: q.into(),
            limit: None,
        },
    )
    .unwrap()
    .hits
    .into_iter()
    .map(|h| h.memory.content)
    .collect()
}

#[test]
fn add_writes_one_seed_schema_line_with_its_embedding() {
    let mut s = service();
    let m = s.add(&alice(), NewMemory::text("I prefer dark mode")).unwrap();
    assert_eq!(m.memory_type, MemoryType::Preference);
    assert_eq!(m.owner_user_id.as_deref(), Some("alice"));
    assert_eq!(m.chat_id, None);
    let file = s.ports().file(Collection::Memories);
    assert_eq!(file.lines().count(), 1);
    let record = MemoryRecord::parse(file.lines().next().unwrap()).unwrap();
    assert_eq!(record.vector().unwrap().len(), crate::fake::DIM);
    assert_eq!(record.source, "user");
    assert_eq!(record.created_at, "2026-03-01T12:00:00+00:00");
}

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
fn group_memories_are_seen_in_their_chat_only() {
    let mut s = service();
    let shared = NewMemory {
        shared: true,
        ..NewMemory::text("Standup is at 9am")
    };
    let m = s.add(&alice(), shared).unwrap();
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
fn delete_by_a_stranger_changes_nothing_and_delete_by_the_owner_archives() {
    let mut s = service();
    let m = s.add(&alice(), NewMemory::text("I live in Lisbon")).unwrap();
    let before = s.ports().file(Collection::Memories);
    let bob = Caller::new(Some("bob"), None);
    assert!(matches!(s.delete(&bob, &m.id), Err(Error::NotFound(_))));
    assert_eq!(s.ports().file(Collection::Memories), before);
    assert_eq!(s.ports().file(Collection::Archive), "");
    s.delete(&alice(), &m.id).unwrap();
    assert_eq!(s.ports().file(Collection::Memories), "");
    let archived = MemoryRecord::parse(s.ports().file(Collection::Archive).trim()).unwrap();
    assert_eq!(archived.archive_reason.as_deref(), Some("deleted"));
    assert!(s.ports().index.borrow().is_empty());
}

#[test]
fn secrets_are_refused_before_anything_is_written() {
    let mut s = service();
    let err = s.add(&alice(), NewMemory::text("my password is hunter2")).unwrap_err();
    assert!(matches!(&err, Error::SecretRefused(m) if m.contains("password") && !m.contains("hunter2")));
    let batch = vec![
        NewMemory::text("I like tea"),
        NewMemory::text("key AKIAIOSFODNN7EXAMPLE"),
    ];
    let err = s.add_batch(&alice(), batch).unwrap_err();
    assert!(
        matches!(&err, Error::SecretRefused(m) if m.starts_with("fact 2")),
        "{err:?}"
    );
    assert_eq!(s.ports().file(Collection::Memories), "");
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
    let m = s.add(&alice(), NewMemory::text("I live in Lisbon")).unwrap();
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
fn a_broken_index_is_rebuilt_from_the_file_without_embedding_calls() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("I'm allergic to peanuts")).unwrap();
    s.add(&alice(), NewMemory::text("My favorite color is blue")).unwrap();
    let calls = s.ports().embed_calls.get();
    // A fresh instance over a broken index, as after `rm memory.db`.
    let ports = std::mem::take(&mut *s.ports().files.borrow_mut());
    let fresh = FakePorts::new();
    *fresh.files.borrow_mut() = ports;
    fresh.index_broken.set(true);
    let mut s2 = MemoryService::new(fresh);
    let report = s2.rebuild_index().unwrap();
    assert_eq!((report.indexed, report.embedded, report.pending), (2, 0, 0));
    assert_eq!(
        s2.ports().embed_calls.get(),
        0,
        "rebuild reused stored vectors ({calls} before)"
    );
    assert_eq!(search(&mut s2, &alice(), "peanuts")[0], "I'm allergic to peanuts");
}

#[test]
fn embedder_down_stores_without_vector_and_searches_text_only() {
    let mut s = service();
    s.ports().embedder_down.set(true);
    let m = s.add(&alice(), NewMemory::text("I'm allergic to peanuts")).unwrap();
    assert!(!m.embedded);
    let results = s
        .search(
            &alice(),
            &SearchQuery {
                text: "peanuts".into(),
                limit: None,
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
fn bad_input_is_refused() {
    let mut s = service();
    assert!(matches!(
        s.add(&alice(), NewMemory::text("  ")),
        Err(Error::InvalidInput(_))
    ));
    let nobody = Caller::new(None, None);
    assert!(matches!(
        s.add(&nobody, NewMemory::text("x y z")),
        Err(Error::InvalidInput(_))
    ));
    let zero = NewMemory {
        expires_in_days: Some(0),
        ..NewMemory::text("x")
    };
    assert!(matches!(s.add(&alice(), zero), Err(Error::InvalidInput(_))));
    let bad_time = NewMemory {
        observed_at: Some("last tuesday".into()),
        ..NewMemory::text("x")
    };
    assert!(matches!(s.add(&alice(), bad_time), Err(Error::InvalidInput(_))));
    assert!(matches!(
        s.search(&alice(), &SearchQuery::default()),
        Err(Error::InvalidInput(_))
    ));
    assert_eq!(s.ports().file(Collection::Memories), "");
}
