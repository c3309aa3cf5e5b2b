//! Maintenance: a broken index is rebuilt from the file.

use super::{alice, search, service};
use crate::api::*;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

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

/// A new model: a remote embedder (possibly paid) waits for `rebuild-index`; a model in the
/// host embeds everything again at the next call, once, reporting progress.
#[test]
fn a_change_of_model_embeds_again_by_itself_only_when_the_embedder_is_local() {
    for local in [false, true] {
        let mut s = service();
        s.add(&alice(), NewMemory::text("I'm allergic to peanuts")).unwrap();
        s.add(&alice(), NewMemory::text("My favorite color is blue")).unwrap();
        // A new process with another model, as after editing `[embedder]`.
        let fresh = FakePorts::new();
        *fresh.files.borrow_mut() = std::mem::take(&mut *s.ports().files.borrow_mut());
        *fresh.index.borrow_mut() = std::mem::take(&mut *s.ports().index.borrow_mut());
        *fresh.index_info.borrow_mut() = s.ports().index_info.borrow().clone();
        *fresh.index_reflects.borrow_mut() = *s.ports().index_reflects.borrow();
        *fresh.model.borrow_mut() = Some("fake-words-2".into());
        fresh.settings.borrow_mut().local_embedder = local;
        let before = fresh.file(crate::ports::Collection::Memories);
        let mut s2 = MemoryService::new(fresh);
        let query = SearchQuery {
            text: "peanuts".into(),
            ..SearchQuery::default()
        };
        let found = s2.search(&alice(), &query);
        if !local {
            let err = found.unwrap_err().to_string();
            assert!(err.contains("rebuild-index") && err.contains("fake-words-2"), "{err}");
            // Nothing embedded again or rewritten; the index is still the old model's.
            assert_eq!(s2.ports().file(crate::ports::Collection::Memories), before);
            assert_eq!(s2.ports().index_info.borrow().as_ref().unwrap().model, "fake-words");
            continue;
        }
        assert_eq!(found.unwrap().hits[0].memory.content, "I'm allergic to peanuts");
        // One batch for both memories, and the query.
        assert_eq!(s2.ports().embed_calls.get(), 2);
        let info = s2.ports().index_info.borrow().clone().unwrap();
        assert_eq!(info.model, "fake-words-2");
        assert!(
            s2.ports()
                .logs
                .borrow()
                .iter()
                .any(|(_, m)| m.contains("2 memories to embed again"))
        );
        // The new vectors went back to the file: another process embeds nothing.
        let again = FakePorts::new();
        *again.files.borrow_mut() = s2.ports().files.borrow().clone();
        *again.model.borrow_mut() = Some("fake-words-2".into());
        let mut s3 = MemoryService::new(again);
        assert_eq!(s3.rebuild_index().unwrap().embedded, 0);
    }
}

#[test]
fn stats_count_by_type_scope_source_and_age_and_report_the_index_as_found() {
    let mut s = service();
    let at = |s: &MemoryService<FakePorts>, t: &str| *s.ports().now.borrow_mut() = t.to_owned();
    at(&s, "2025-01-01T00:00:00+00:00");
    s.add(&super::alice_alone(), NewMemory::text("I'm allergic to peanuts"))
        .unwrap();
    at(&s, "2026-02-20T00:00:00+00:00");
    let standup = NewMemory {
        memory_type: Some(crate::memory_type::MemoryType::Context),
        ..NewMemory::text("Standup is at nine")
    };
    s.add(&super::alice_alone(), standup).unwrap();
    at(&s, "2026-03-01T00:00:00+00:00");
    let shared = NewMemory {
        shared: true,
        source: Some("rpc".into()),
        ..NewMemory::text("The party is on Friday")
    };
    s.add(&alice(), shared).unwrap();
    let gone = s
        .add(&super::bob_alone(), NewMemory::text("I like jazz"))
        .unwrap()
        .memories
        .remove(0)
        .id;
    s.delete(&super::bob_alone(), &gone).unwrap();
    at(&s, "2026-03-01T12:00:00+00:00");

    let st = s.stats().unwrap();
    assert_eq!(
        (st.memories, st.personal, st.group, st.users, st.chats),
        (3, 2, 1, 1, 1)
    );
    let count = |t: crate::memory_type::MemoryType| st.by_type.iter().find(|(x, _)| *x == t).unwrap().1;
    use crate::memory_type::MemoryType as T;
    assert_eq!((count(T::Context), count(T::Task)), (1, 0));
    assert_eq!(st.by_type.iter().map(|(_, n)| n).sum::<u64>(), 3);
    assert_eq!(st.by_type.len(), 9, "every type is listed");
    assert_eq!(st.by_source, [("user".to_owned(), 2), ("rpc".to_owned(), 1)]);
    assert_eq!(
        (
            st.by_age.day,
            st.by_age.week,
            st.by_age.month,
            st.by_age.year,
            st.by_age.older
        ),
        (1, 0, 1, 0, 1)
    );
    // The standup (context, 7 days) is 9 days old: expired, waiting for gc.
    assert_eq!((st.superseded, st.expired, st.pending), (0, 1, 0));
    assert_eq!(st.archived, [(crate::gc::ArchiveReason::Deleted, 1)]);
    assert!(st.index.in_step && st.index.entries == 3, "{:?}", st.index);
    assert_eq!(st.index.model, Some(crate::ports::Ports::embedder_model(s.ports())));
    // A broken index is reported, not mended.
    s.ports().index_broken.set(true);
    let st = s.stats().unwrap();
    assert_eq!(st.index, IndexState::default());
}
