//! Retention: delete, eviction beyond `max_entries`, and compaction of the archive.

use super::{STAMP, alice, search, service};
use crate::api::*;
use crate::memory_type::MemoryType;
use crate::ports::Collection;
use crate::record::MemoryRecord;
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

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
    // One removal line appended; the record's own line stays until a rewrite.
    let file = s.ports().file(Collection::Memories);
    let lines: Vec<&str> = file.lines().collect();
    assert_eq!(lines.len(), 2, "{file}");
    assert!(file.starts_with(before.as_str()), "nothing before it was rewritten");
    assert_eq!(
        lines[1],
        format!(
            r#"{{"id":"{}","version":1,"removed_at":"2026-03-01T12:00:00+00:00"}}"#,
            m.id
        )
    );
    let archived = MemoryRecord::parse(s.ports().file(Collection::Archive).trim()).unwrap();
    assert_eq!(archived.archive_reason.as_deref(), Some("deleted"));
    assert!(s.ports().index.borrow().is_empty());
    assert!(matches!(s.get(&alice(), &m.id), Err(Error::NotFound(_))));
}

/// A fresh service over these files, as the next process would open them.
fn reopened(s: &mut MemoryService<FakePorts>) -> MemoryService<FakePorts> {
    let fresh = FakePorts::new();
    *fresh.files.borrow_mut() = s.ports().files.borrow().clone();
    MemoryService::new(fresh)
}

#[test]
fn a_deleted_memory_stays_gone_for_the_next_reader_and_gc_folds_it_away() {
    let mut s = service();
    let ids: Vec<String> = ["I live in Lisbon", "My cat is called Tom", "I play the cello"]
        .iter()
        .map(|c| s.add(&alice(), NewMemory::text(c)).unwrap().memories.remove(0).id)
        .collect();
    s.delete(&alice(), &ids[1]).unwrap();
    let mut next = reopened(&mut s);
    let listed = |s: &mut MemoryService<FakePorts>| {
        let mut ids: Vec<String> = s
            .list(&alice(), &ListOptions::default())
            .unwrap()
            .into_iter()
            .map(|m| m.id)
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(listed(&mut next), [ids[0].clone(), ids[2].clone()]);
    assert!(
        search(&mut next, &alice(), "cat called Tom")
            .iter()
            .all(|c| c != "My cat is called Tom")
    );
    // An idle GC folds the stale lines away once they are a quarter of the file: here the
    // deleted record's line and its removal, against two live records.
    let report = s.gc(false).unwrap();
    assert!(report.archived.is_empty());
    let file = s.ports().file(Collection::Memories);
    assert_eq!(file.lines().count(), 2, "{file}");
    assert!(!file.contains("removed_at") && !file.contains("cat"));
    assert_eq!(listed(&mut reopened(&mut s)), [ids[0].clone(), ids[2].clone()]);
}

#[test]
fn gc_archives_by_removal_lines_and_rewrites_only_once_a_quarter_is_stale() {
    let mut s = service();
    let short = |c: &str| NewMemory {
        expires_in_days: Some(1),
        ..NewMemory::text(c)
    };
    let facts = [
        "Alpha likes tea",
        "Bravo plays chess",
        "Charlie owns a boat",
        "Delta reads poetry",
        "Echo grows tomatoes",
        "Foxtrot speaks Dutch",
        "Golf collects stamps",
        "Hotel bakes bread",
        "India paints murals",
        "Juliet runs marathons",
    ];
    for fact in facts {
        s.add(&alice(), NewMemory::text(fact)).unwrap();
    }
    s.add(&alice(), short("The parcel arrives tomorrow")).unwrap();
    let before = s.ports().file(Collection::Memories);
    *s.ports().now.borrow_mut() = "2026-03-03T12:00:00+00:00".into();
    // One of eleven expired: its line and its removal line make 2 stale lines against 10
    // live ones, under a quarter, so the file is appended to, not rewritten.
    let report = s.gc(false).unwrap();
    assert_eq!(report.archived.len(), 1);
    let file = s.ports().file(Collection::Memories);
    assert!(file.starts_with(before.as_str()), "nothing before it was rewritten");
    assert_eq!(file.lines().count(), 12, "{file}");
    assert!(file.lines().last().unwrap().contains("removed_at"));
    assert!(
        s.ports()
            .file(Collection::Archive)
            .contains("The parcel arrives tomorrow")
    );
    let mut next = reopened(&mut s);
    assert_eq!(next.list(&alice(), &ListOptions::default()).unwrap().len(), 10);
    let found = search(&mut next, &alice(), "parcel arrives");
    assert!(found.iter().all(|c| !c.contains("parcel")), "{found:?}");
    // One more expired memory: 4 stale lines against 10 live, a quarter, so this GC folds
    // every stale line away in one rewrite.
    s.add(&alice(), short("The plumber comes at noon")).unwrap();
    *s.ports().now.borrow_mut() = "2026-03-05T12:00:00+00:00".into();
    assert_eq!(s.gc(false).unwrap().archived.len(), 1);
    let file = s.ports().file(Collection::Memories);
    assert_eq!(file.lines().count(), 10, "{file}");
    assert!(!file.contains("removed_at") && !file.contains("parcel") && !file.contains("plumber"));
    assert_eq!(listed_after_reopen(&mut s), 10);
}

fn listed_after_reopen(s: &mut MemoryService<FakePorts>) -> usize {
    reopened(s).list(&alice(), &ListOptions::default()).unwrap().len()
}

#[test]
fn a_removal_line_written_by_another_process_is_followed_and_replayed_into_the_index() {
    let mut s = service();
    let m = s
        .add(&alice(), NewMemory::text("My cat is called Tom"))
        .unwrap()
        .memories
        .remove(0);
    assert_eq!(search(&mut s, &alice(), "cat called Tom"), ["My cat is called Tom"]);
    // Another process deleted it and died before touching the index.
    s.ports().write_raw(
        Collection::Memories,
        &format!("{{\"id\":\"{}\",\"version\":1,\"removed_at\":\"{STAMP}\"}}\n", m.id),
    );
    assert!(search(&mut s, &alice(), "cat called Tom").is_empty());
    assert!(
        s.ports().index.borrow().is_empty(),
        "the replay took it out of the index"
    );
    assert!(s.ports().quarantined.borrow().is_empty());
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
