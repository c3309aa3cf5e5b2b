//! Supersession: a changed value replaces the old one (and history keeps both), facts
//! that can both be true stay, and the language model has the last word when it answers.

use super::{alice, search, service};
use crate::api::*;
use crate::fake::FakePorts;
use crate::ports::Collection;
use crate::scope::Caller;
use crate::service::MemoryService;

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
    // The caller is told, as for an older memory: the first fact, replaced by the second.
    let told: Vec<(&str, &str)> = added
        .superseded
        .iter()
        .map(|(m, by)| (m.content.as_str(), by.as_str()))
        .collect();
    assert_eq!(told, [("I live in Lisbon", added.memories[1].id.as_str())]);
    assert_eq!(search(&mut s, &alice(), "where do I live"), ["I live in Porto"]);
}
