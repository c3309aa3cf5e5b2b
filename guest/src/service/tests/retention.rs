//! Retention: delete, eviction beyond `max_entries`, and compaction of the archive.

use super::{alice, service};
use crate::api::*;
use crate::memory_type::MemoryType;
use crate::ports::Collection;
use crate::record::MemoryRecord;
use crate::scope::Caller;

#[test]
fn delete_by_a_stranger_changes_nothing_and_delete_by_the_owner_archives() {
    let mut s = service();
    let m = s
        .add(&alice(), NewMemory::text("I live in Lisbon"))
        .unwrap()
        .memories
        .remove(0);
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
fn max_entries_evicts_ephemeral_and_oldest_first() {
    let mut s = service();
    s.ports().settings.borrow_mut().max_entries = Some(3);
    let typed = |t: MemoryType, c: &str| NewMemory {
        memory_type: Some(t),
        ..NewMemory::text(c)
    };
    s.add(&alice(), typed(MemoryType::Knowledge, "Alpha fact")).unwrap();
    *s.ports().now.borrow_mut() = "2026-03-01T12:00:01+00:00".into();
    s.add(&alice(), typed(MemoryType::Task, "Bravo task")).unwrap();
    *s.ports().now.borrow_mut() = "2026-03-01T12:00:02+00:00".into();
    s.add(&alice(), typed(MemoryType::Knowledge, "Charlie fact")).unwrap();
    *s.ports().now.borrow_mut() = "2026-03-01T12:00:03+00:00".into();
    let added = s
        .add(&alice(), typed(MemoryType::Observation, "Delta observation"))
        .unwrap();
    let evicted: Vec<&str> = added.evicted.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(evicted, ["Bravo task"]);
    *s.ports().now.borrow_mut() = "2026-03-01T12:00:04+00:00".into();
    let added = s.add(&alice(), typed(MemoryType::Knowledge, "Echo fact")).unwrap();
    let evicted: Vec<&str> = added.evicted.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(
        evicted,
        ["Delta observation"],
        "ephemeral before long-lived, even if newer"
    );
    let archive = s.ports().file(Collection::Archive);
    assert_eq!(archive.matches("\"archive_reason\":\"evicted\"").count(), 2);
}

#[test]
fn compaction_removes_only_old_archive_entries_and_only_with_force() {
    let mut s = service();
    let m = s.add(&alice(), NewMemory::text("Old news")).unwrap().memories.remove(0);
    s.delete(&alice(), &m.id).unwrap();
    *s.ports().now.borrow_mut() = "2026-05-01T12:00:00+00:00".into();
    let m = s
        .add(&alice(), NewMemory::text("Recent news"))
        .unwrap()
        .memories
        .remove(0);
    s.delete(&alice(), &m.id).unwrap();
    s.ports().write_raw(Collection::Archive, "not json\n");
    *s.ports().now.borrow_mut() = "2026-06-15T12:00:00+00:00".into();
    let before = s.ports().file(Collection::Archive);
    let report = s.compact(90, false).unwrap();
    assert_eq!((report.removed.len(), report.kept, report.forced), (1, 2, false));
    assert_eq!(s.ports().file(Collection::Archive), before);
    let report = s.compact(90, true).unwrap();
    assert_eq!(report.removed.len(), 1);
    let after = s.ports().file(Collection::Archive);
    assert!(!after.contains("Old news") && after.contains("Recent news") && after.contains("not json"));
}
