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
            about: None,
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
    let m = s
        .add(&alice(), NewMemory::text("I'm allergic to peanuts"))
        .unwrap()
        .memories
        .remove(0);
    assert!(!m.embedded);
    let results = s
        .search(
            &alice(),
            &SearchQuery {
                text: "peanuts".into(),
                limit: None,
                about: None,
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

/// The fake embedder scores "favorite color is red" and "... blue" at 2/3: below the real
/// default threshold, so these tests lower it.
fn evolving() -> MemoryService<FakePorts> {
    let s = service();
    s.ports().settings.borrow_mut().supersession_threshold = 0.6;
    s
}

#[test]
fn a_changed_value_supersedes_and_history_keeps_the_chain() {
    let mut s = evolving();
    let red = s
        .add(&alice(), NewMemory::text("My favorite color is red"))
        .unwrap()
        .memories
        .remove(0);
    let added = s.add(&alice(), NewMemory::text("My favorite color is blue")).unwrap();
    let blue = &added.memories[0];
    assert_eq!(added.superseded.len(), 1);
    assert_eq!(
        (added.superseded[0].0.id.as_str(), added.superseded[0].1.as_str()),
        (red.id.as_str(), blue.id.as_str())
    );
    assert_eq!(
        search(&mut s, &alice(), "favorite color"),
        ["My favorite color is blue"]
    );
    assert!(
        !s.ports().index.borrow().contains_key(&red.id),
        "the superseded memory left the index"
    );
    let old = s.get(&alice(), &red.id).unwrap();
    assert_eq!(old.superseded_by_id.as_deref(), Some(blue.id.as_str()));

    let chain: Vec<String> = s
        .history(&alice(), &red.id)
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect();
    assert_eq!(chain, ["My favorite color is red", "My favorite color is blue"]);
    assert_eq!(s.history(&alice(), &blue.id).unwrap().len(), 2, "from either end");
    assert!(matches!(
        s.history(&Caller::new(Some("bob"), None), &blue.id),
        Err(Error::NotFound(_))
    ));

    let report = s.gc(false).unwrap();
    assert_eq!(report.archived.len(), 1);
    assert_eq!(report.archived[0].reason, crate::gc::ArchiveReason::Superseded);
    assert_eq!(
        s.ports().file(Collection::Memories).matches("favorite color").count(),
        1
    );
    let chain: Vec<String> = s
        .history(&alice(), &blue.id)
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect();
    assert_eq!(
        chain,
        ["My favorite color is red", "My favorite color is blue"],
        "archived links still count"
    );
}

#[test]
fn facts_that_can_both_be_true_are_kept() {
    let mut s = evolving();
    s.ports().settings.borrow_mut().supersession_threshold = 0.3;
    s.add(&alice(), NewMemory::text("I like dogs")).unwrap();
    let added = s.add(&alice(), NewMemory::text("I like cats")).unwrap();
    assert!(added.superseded.is_empty());
    // Different scopes never supersede each other.
    s.add(&alice(), NewMemory::text("My favorite color is red")).unwrap();
    let group = NewMemory {
        shared: true,
        ..NewMemory::text("My favorite color is blue")
    };
    assert!(s.add(&alice(), group).unwrap().superseded.is_empty());
    assert_eq!(s.list(&alice(), &ListOptions::default()).unwrap().len(), 4);
}

#[test]
fn the_language_model_decides_when_it_answers_and_only_a_clear_yes_counts() {
    let mut s = evolving();
    *s.ports().llm_answer.borrow_mut() = Some("no".into());
    s.add(&alice(), NewMemory::text("My favorite color is red")).unwrap();
    assert!(
        s.add(&alice(), NewMemory::text("My favorite color is blue"))
            .unwrap()
            .superseded
            .is_empty()
    );
    *s.ports().llm_answer.borrow_mut() = Some("Yes, it probably does".into());
    assert!(
        s.add(&alice(), NewMemory::text("My favorite color is green"))
            .unwrap()
            .superseded
            .is_empty()
    );
    *s.ports().llm_answer.borrow_mut() = Some("Yes.".into());
    let added = s.add(&alice(), NewMemory::text("My favorite color is teal")).unwrap();
    assert_eq!(added.superseded.len(), 3, "red, blue and green all replaced by teal");
    assert!(s.ports().llm_calls.get() >= 4);
}

#[test]
fn later_facts_in_a_batch_supersede_earlier_ones() {
    let mut s = evolving();
    s.ports().settings.borrow_mut().supersession_threshold = 0.4;
    let batch = vec![NewMemory::text("I live in Lisbon"), NewMemory::text("I live in Porto")];
    let added = s.add_batch(&alice(), batch).unwrap();
    assert!(added.memories[0].superseded_by_id.as_deref() == Some(added.memories[1].id.as_str()));
    assert_eq!(search(&mut s, &alice(), "where do I live"), ["I live in Porto"]);
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

fn with_subjects(content: &str, subjects: &[&str]) -> NewMemory {
    NewMemory {
        subjects: subjects.iter().map(|s| s.to_string()).collect(),
        ..NewMemory::text(content)
    }
}

#[test]
fn references_converge_and_people_stay_with_their_owner() {
    let mut s = service();
    s.add(&alice(), NewMemory::text("My wife's name is Sarah")).unwrap();
    let a = s
        .add(&alice(), with_subjects("She likes Italian food", &["my wife"]))
        .unwrap()
        .memories
        .remove(0);
    let b = s
        .add(&alice(), with_subjects("She runs", &["sarah"]))
        .unwrap()
        .memories
        .remove(0);
    let c = s
        .add(&alice(), with_subjects("She sings", &["my wife Sarah"]))
        .unwrap()
        .memories
        .remove(0);
    assert_eq!(s.people_list(&alice()).unwrap().len(), 1);
    assert_eq!(a.subject_person_ids, b.subject_person_ids);
    assert_eq!(b.subject_person_ids, c.subject_person_ids);

    let bob = Caller::new(Some("bob"), Some("chat-1"));
    assert!(s.people_list(&bob).unwrap().is_empty());
    let sarah = &a.subject_person_ids[0];
    assert!(matches!(
        s.add(&bob, with_subjects("x", &[sarah])),
        Err(Error::NotFound(_))
    ));
    assert!(matches!(s.people_show(&bob, "Sarah"), Err(Error::NotFound(_))));
}

#[test]
fn a_placeholder_gets_its_name_later() {
    let mut s = service();
    s.add(&alice(), with_subjects("My boss likes golf", &["my boss"]))
        .unwrap();
    assert_eq!(s.people_list(&alice()).unwrap()[0].name, "my boss");
    s.add(&alice(), with_subjects("He is from Oslo", &["my boss Mike"]))
        .unwrap();
    let people = s.people_list(&alice()).unwrap();
    assert_eq!(people.len(), 1);
    assert_eq!(
        (people[0].name.as_str(), people[0].relation.as_deref()),
        ("Mike", Some("boss"))
    );
}

#[test]
fn tool_calls_validate_before_writing() {
    let mut s = service();
    let err = s
        .tool_call(
            &alice(),
            "remember",
            r#"{"facts": [{"content": "ok"}, {"content": 3}]}"#,
        )
        .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidInput(m) if m.contains("facts[1].content")),
        "{err:?}"
    );
    assert_eq!(s.ports().file(Collection::Memories), "");
    let ok = s
        .tool_call(
            &alice(),
            "remember",
            r#"{"content": "I like tea", "expires_in_days": 3}"#,
        )
        .unwrap();
    assert_eq!(ok, "Remembered 1 fact.");
    let recalled = s.tool_call(&alice(), "recall", r#"{"query": "tea"}"#).unwrap();
    assert_eq!(recalled, "- I like tea");
}
