//! Supersession: a changed value replaces the old one (and history keeps both), facts
//! that can both be true stay, and the language model has the last word when it answers.

use super::{alice, search, service};
use crate::api::*;
use crate::ports::Collection;
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

/// What is live for alice, newest first.
fn live(s: &mut MemoryService<FakePorts>) -> Vec<String> {
    s.list(&alice(), &ListOptions::default())
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect()
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
fn the_language_model_settles_what_the_rules_cannot_and_is_read_strictly() {
    let mut s = evolving();
    s.ports().settings.borrow_mut().supersession_threshold = 0.3;
    // Liking dogs and liking cats: the rules cannot tell whether one replaces the other.
    *s.ports().llm_answer.borrow_mut() = Some("no".into());
    s.add(&alice(), NewMemory::text("I like dogs")).unwrap();
    assert!(
        s.add(&alice(), NewMemory::text("I like cats"))
            .unwrap()
            .superseded
            .is_empty()
    );
    *s.ports().llm_answer.borrow_mut() = Some("Change, it probably does".into());
    assert!(
        s.add(&alice(), NewMemory::text("I like birds"))
            .unwrap()
            .superseded
            .is_empty()
    );
    let asked = s.ports().llm_calls.get();
    assert!(asked >= 2, "the model was asked about the unsure pairs");
    *s.ports().llm_answer.borrow_mut() = Some("Change.".into());
    let added = s.add(&alice(), NewMemory::text("I like hamsters")).unwrap();
    assert_eq!(
        added.superseded.len(),
        3,
        "dogs, cats and birds all replaced by hamsters"
    );
    // What the rules settle is not put to the model, whatever it would say.
    *s.ports().llm_answer.borrow_mut() = Some("different".into());
    s.add(&alice(), NewMemory::text("My favorite color is red")).unwrap();
    let calls = s.ports().llm_calls.get();
    let blue = s.add(&alice(), NewMemory::text("My favorite color is blue")).unwrap();
    assert_eq!(blue.superseded.len(), 1, "the rules see a change");
    assert_eq!(s.ports().llm_calls.get(), calls, "and ask nobody");
}

#[test]
fn a_fact_judged_by_the_model_is_stamped_when_it_is_written() {
    let mut s = evolving();
    s.ports().settings.borrow_mut().supersession_threshold = 0.3;
    *s.ports().llm_answer.borrow_mut() = Some("different".into());
    s.add(&alice(), NewMemory::text("I like dogs")).unwrap();
    // The model is asked without the lock, and answers a minute later, when another
    // process has written: whatever it says, the new memory is made when it is written,
    // after what was written meanwhile.
    let line = s.ports().file(Collection::Memories).lines().last().unwrap().to_owned();
    let mut other: serde_json::Value = serde_json::from_str(&line).unwrap();
    other["id"] = "00000000-0000-4000-8000-000000009999".into();
    other["content"] = "I work at a bakery".into();
    other["created_at"] = "2026-03-01T12:00:30+00:00".into();
    let other = other.to_string();
    *s.ports().while_asked.borrow_mut() = Some(Box::new(move |p: &FakePorts| {
        *p.now.borrow_mut() = "2026-03-01T12:01:00Z".into();
        crate::ports::Ports::append(p, Collection::Memories, std::slice::from_ref(&other)).unwrap();
    }));
    let cats = s.add(&alice(), NewMemory::text("I like cats")).unwrap();
    assert!(s.ports().llm_calls.get() >= 1, "the model was asked");
    assert!(cats.superseded.is_empty());
    assert_eq!(cats.memories[0].created_at, "2026-03-01T12:01:00+00:00");
}

#[test]
fn a_fact_told_again_is_kept_once_and_observed_again() {
    let mut s = evolving();
    let first = s.add(&alice(), NewMemory::text("I like jazz music")).unwrap();
    let id = first.memories[0].id.clone();
    for again in [
        "I like jazz music.",
        "i like Jazz music",
        "I really like jazz music",
        "I like jazz music!",
    ] {
        let added = s.add(&alice(), NewMemory::text(again)).unwrap();
        assert_eq!(added.restated, std::slice::from_ref(&id), "{again}");
        assert_eq!(added.memories[0].id, id, "{again}: answered with the kept memory");
    }
    let batch = s
        .add_batch(
            &alice(),
            vec![
                NewMemory::text("I drive a blue Volvo"),
                NewMemory::text("I drive a blue Volvo."),
                NewMemory::text("I drive a blue volvo"),
            ],
        )
        .unwrap();
    assert!(batch.restated.is_empty(), "new in this call");
    assert!(
        batch.memories.iter().all(|m| m.id == batch.memories[0].id),
        "stored once"
    );
    let live = live(&mut s);
    assert_eq!(live, ["I drive a blue Volvo", "I like jazz music"]);
}

#[test]
fn a_change_in_other_words_replaces_and_keeps_the_lifetime() {
    let mut s = evolving();
    s.add(&alice(), NewMemory::text("I live in Lisbon")).unwrap();
    let moved = s.add(&alice(), NewMemory::text("I moved to Porto last month")).unwrap();
    assert_eq!(moved.superseded.len(), 1, "{moved:?}");
    assert!(
        !moved.memories[0].memory_type.is_ephemeral(),
        "where the user lives lasts: {:?}",
        moved.memories[0].memory_type
    );
    s.add(&alice(), NewMemory::text("I work at Google")).unwrap();
    let job = s
        .add(&alice(), NewMemory::text("I started a new job at Microsoft"))
        .unwrap();
    assert_eq!(job.superseded.len(), 1, "found by the attribute's words: {job:?}");
    assert_eq!(job.superseded[0].0.content, "I work at Google");
}

#[test]
fn later_facts_in_a_batch_supersede_earlier_ones() {
    let mut s = evolving();
    s.ports().settings.borrow_mut().supersession_threshold = 0.4;
    let batch = vec![NewMemory::text("I live in Lisbon"), NewMemory::text("I live in Porto")];
    let added = s.add_batch(&alice(), batch).unwrap();
    assert!(added.memories[0].superseded_by_id.as_deref() == Some(added.memories[1].id.as_str()));
    // The caller is told, as for an older memory: the first fact, replaced by the second.
    let told: Vec<(&str, &str)> = added
        .superseded
        .iter()
        .map(|(m, by)| (m.content.as_str(), by.as_str()))
        .collect();
    assert_eq!(told, [("I live in Lisbon", added.memories[1].id.as_str())]);
    assert_eq!(search(&mut s, &alice(), "where do I live"), ["I live in Porto"]);
}

#[test]
fn a_fact_that_ends_at_a_moment_replaces_none_that_lasts() {
    let mut s = evolving();
    let red = s.add(&alice(), NewMemory::text("My favorite color is red")).unwrap();
    let today = NewMemory {
        expires_in_days: Some(1),
        ..NewMemory::text("My favorite color is blue")
    };
    let added = s.add(&alice(), today).unwrap();
    assert!(added.superseded.is_empty(), "{added:?}");
    // Once the day has passed, what lasted is still there; without the rule, nothing was.
    *s.ports().now.borrow_mut() = "2026-03-04T12:00:00+00:00".into();
    let live = live(&mut s);
    assert_eq!(live, ["My favorite color is red"], "{red:?}");
    // Within one batch too.
    let batch = vec![
        NewMemory::text("I live in Lisbon"),
        NewMemory {
            expires_in_days: Some(1),
            ..NewMemory::text("I live in Porto")
        },
    ];
    let added = s.add_batch(&alice(), batch).unwrap();
    assert!(added.memories[0].superseded_by_id.is_none(), "{added:?}");
    // A lasting change still replaces.
    let blue = s.add(&alice(), NewMemory::text("My favorite color is blue")).unwrap();
    assert_eq!(blue.superseded.len(), 1, "{blue:?}");
}
