//! Adding: what one add writes, and what it refuses before writing anything.

use super::{alice, search, service};
use crate::api::*;
use crate::memory_type::MemoryType;
use crate::ports::{Collection, Ports};
use crate::record::MemoryRecord;
use crate::scope::Caller;

#[test]
fn add_writes_one_seed_schema_line_with_its_embedding() {
    let mut s = service();
    let m = s
        .add(&alice(), NewMemory::text("I prefer dark mode"))
        .unwrap()
        .memories
        .remove(0);
    assert_eq!(m.memory_type, MemoryType::Preference);
    assert_eq!(m.owner_user_id.as_deref(), Some("alice"));
    assert_eq!(m.chat_id, None);
    let file = s.ports().file(Collection::Memories);
    assert_eq!(file.lines().count(), 1);
    let record = MemoryRecord::parse(file.lines().next().unwrap()).unwrap();
    assert_eq!(record.vector().unwrap().len(), crate::tests::fake::DIM);
    assert_eq!(record.source, "user");
    assert_eq!(record.created_at, "2026-03-01T12:00:00+00:00");
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

#[test]
fn a_context_is_kept_searched_with_the_content_and_returned_apart_from_it() {
    let mut s = service();
    let reply = NewMemory {
        context: Some("  Ana: Have you ever been to Japan?\n".into()),
        ..NewMemory::text("Yes, twice")
    };
    let m = s.add(&alice(), reply).unwrap().memories.remove(0);
    assert_eq!(m.content, "Yes, twice");
    assert_eq!(m.context.as_deref(), Some("Ana: Have you ever been to Japan?"));
    let record = MemoryRecord::parse(s.ports().file(Collection::Memories).lines().next().unwrap()).unwrap();
    assert_eq!(record.context.as_deref(), Some("Ana: Have you ever been to Japan?"));
    // The index finds it by the words of its context, held apart to be weighed less; its
    // vector is made from both.
    let entry = s.ports().index.borrow()[&m.id].clone();
    assert_eq!(entry.content, "Yes, twice");
    assert_eq!(entry.context.as_deref(), Some("Ana: Have you ever been to Japan?"));
    let alone = s.ports().embed(&["Yes, twice".to_owned()]).unwrap().remove(0);
    assert_ne!(entry.embedding.unwrap(), alone);
    assert_eq!(search(&mut s, &alice(), "japan"), ["Yes, twice"]);
    // A blank context is none.
    let blank = NewMemory {
        context: Some(" \n ".into()),
        ..NewMemory::text("I like tea")
    };
    s.add(&alice(), blank).unwrap();
    let last = s.ports().file(Collection::Memories).lines().last().unwrap().to_owned();
    assert_eq!(MemoryRecord::parse(&last).unwrap().context, None);
    assert!(!last.contains("\"context\""), "{last}");
}

#[test]
fn a_context_with_a_secret_or_too_long_is_refused_before_anything_is_written() {
    let mut s = service();
    let secret = NewMemory {
        context: Some("Ben: the key is AKIAIOSFODNN7EXAMPLE".into()),
        ..NewMemory::text("Thanks, noted")
    };
    let err = s.add(&alice(), secret).unwrap_err();
    assert!(
        matches!(&err, Error::SecretRefused(m) if m.contains("context") && !m.contains("AKIA")),
        "{err:?}"
    );
    let long = NewMemory {
        context: Some("word ".repeat(4000)),
        ..NewMemory::text("Thanks, noted")
    };
    assert!(matches!(s.add(&alice(), long), Err(Error::InvalidInput(m)) if m.contains("context")));
    assert_eq!(s.ports().file(Collection::Memories), "");
}
