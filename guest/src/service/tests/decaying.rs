//! Decay over a fixed clock: a long-unrecalled fact fades and GC archives it when told
//! facts are opted in (`decay_told_facts`; extracted facts always may go); recall and
//! confirmation keep one; who the user is does not decay; accesses are appended.

use super::{alice_alone, service};
use crate::api::*;
use crate::gc::ArchiveReason;
use crate::memory_type::MemoryType;
use crate::ports::Collection;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

fn at(s: &MemoryService<FakePorts>, t: &str) {
    *s.ports().now.borrow_mut() = t.to_owned();
}

fn add(s: &mut MemoryService<FakePorts>, text: &str, t: MemoryType) -> String {
    let item = NewMemory {
        memory_type: Some(t),
        ..NewMemory::text(text)
    };
    s.add(&alice_alone(), item).unwrap().memories.remove(0).id
}

#[test]
fn unrecalled_facts_decay_and_recall_or_confirmation_keeps_them() {
    let mut s = service();
    s.ports().settings.borrow_mut().decay_told_facts = true;
    at(&s, "2025-01-01T00:00:00+00:00");
    let jazz = add(&mut s, "I like jazz records", MemoryType::Preference);
    let tea = add(&mut s, "I like green tea", MemoryType::Preference);
    let name = add(&mut s, "My name is Ana", MemoryType::Identity);
    let python = add(&mut s, "Python was created by Guido", MemoryType::Knowledge);
    at(&s, "2025-01-02T00:00:00+00:00");
    s.confirm(&alice_alone(), &python).unwrap();

    // Day 200: jazz is recalled; the access is one appended line.
    at(&s, "2025-07-20T00:00:00+00:00");
    let before = s.ports().file(Collection::Memories);
    let top = |s: &mut MemoryService<FakePorts>| {
        let query = SearchQuery {
            text: "jazz records".into(),
            limit: Some(1),
            about: None,
        };
        s.search(&alice_alone(), &query).unwrap().hits.remove(0).memory.content
    };
    assert_eq!(top(&mut s), "I like jazz records");
    let after = s.ports().file(Collection::Memories);
    let added = &after[before.len()..];
    assert_eq!(
        added,
        format!("{{\"id\":\"{jazz}\",\"version\":1,\"accessed_at\":\"2025-07-20T00:00:00+00:00\"}}\n")
    );
    // Again the same day: nothing more is written.
    top(&mut s);
    assert_eq!(s.ports().file(Collection::Memories), after);

    // Day 320: tea (never recalled) fell below the threshold; the others did not.
    at(&s, "2025-11-17T00:00:00+00:00");
    let stats = s.stats().unwrap();
    assert_eq!(stats.decayed, 1);
    let report = s.gc(false).unwrap();
    let archived: Vec<(String, ArchiveReason)> = report.archived.into_iter().map(|a| (a.id, a.reason)).collect();
    assert_eq!(archived, [(tea, ArchiveReason::Decayed)]);
    let live: Vec<String> = s
        .list(&alice_alone(), &ListOptions::default())
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    for id in [&jazz, &name, &python] {
        assert!(live.contains(id), "{id} is kept");
    }
    assert!(
        s.ports()
            .file(Collection::Archive)
            .contains(r#""archive_reason":"decayed""#)
    );
    // The access survives a rewrite of the file, folded into the record.
    s.memories.rewrite(&s.ports).unwrap();
    let mut fresh = MemoryService::new(FakePorts::new());
    *fresh.ports.files.borrow_mut() = s.ports().files.borrow().clone();
    *fresh.ports.now.borrow_mut() = "2025-11-17T00:00:00+00:00".into();
    fresh.memories.refresh(&fresh.ports).unwrap();
    assert_eq!(
        fresh.memories.get(&jazz).unwrap().last_accessed_at.as_deref(),
        Some("2025-07-20T00:00:00+00:00")
    );
}

#[test]
fn only_who_may_delete_a_memory_may_confirm_it() {
    let mut s = service();
    let id = add(&mut s, "I like jazz", MemoryType::Preference);
    let before = s.ports().file(Collection::Memories);
    assert!(matches!(s.confirm(&super::bob_alone(), &id), Err(Error::NotFound(_))));
    assert!(matches!(
        s.confirm(&crate::scope::Caller::new(None, Some("chat-1")), &id),
        Err(Error::NotFound(_))
    ));
    assert_eq!(s.ports().file(Collection::Memories), before);
    s.confirm(&alice_alone(), &id).unwrap();
    let once = s.ports().file(Collection::Memories);
    s.confirm(&alice_alone(), &id).unwrap();
    assert_eq!(
        s.ports().file(Collection::Memories),
        once,
        "confirming twice changes nothing"
    );
}

#[test]
fn a_told_fact_that_faded_stays_unless_told_facts_are_opted_in() {
    let mut s = service();
    at(&s, "2025-01-01T00:00:00+00:00");
    let tea = add(&mut s, "I like green tea", MemoryType::Preference);
    at(&s, "2026-01-01T00:00:00+00:00");
    let stats = s.stats().unwrap();
    assert_eq!((stats.decayed, stats.fading), (0, 0));
    assert!(s.gc(false).unwrap().archived.is_empty(), "a told fact stays");
    s.ports().settings.borrow_mut().decay_told_facts = true;
    let archived: Vec<String> = s.gc(false).unwrap().archived.into_iter().map(|a| a.id).collect();
    assert_eq!(archived, [tea]);
}
