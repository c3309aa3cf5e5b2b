//! Import: refused facts alone, facts already present skipped, supersession by block
//! within the list and against what is stored, and the language model's path.

use super::{alice_alone, service};
use crate::api::*;
use crate::service::MemoryService;
use crate::tests::fake::FakePorts;

fn evolving() -> MemoryService<FakePorts> {
    let s = service();
    s.ports().settings.borrow_mut().supersession_threshold = 0.6;
    s
}

fn facts(texts: &[&str]) -> Vec<NewMemory> {
    texts.iter().map(|t| NewMemory::text(t)).collect()
}

fn live(s: &mut MemoryService<FakePorts>) -> Vec<String> {
    let mut all: Vec<String> = s
        .list(&alice_alone(), &ListOptions::default())
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect();
    all.sort();
    all
}

#[test]
fn later_facts_replace_earlier_ones_and_stored_ones_by_the_rule() {
    let mut s = evolving();
    s.add(&alice_alone(), NewMemory::text("My favorite food is pizza"))
        .unwrap();
    let report = s
        .import(
            &alice_alone(),
            facts(&[
                "My favorite color is red",
                "I like dogs",
                "My favorite color is blue",
                "My favorite food is sushi",
                "I like cats",
            ]),
            false,
        )
        .unwrap();
    assert_eq!(report.added, 5);
    assert_eq!(
        report.superseded, 2,
        "red by blue in the list, pizza by sushi from the store"
    );
    assert_eq!(
        live(&mut s),
        [
            "I like cats",
            "I like dogs",
            "My favorite color is blue",
            "My favorite food is sushi"
        ]
    );
    // No model answered the one probe, so the rule decided and nothing else was asked.
    assert_eq!(s.ports().llm_calls.get(), 1, "only the import's probe");
}

#[test]
fn a_refused_fact_is_reported_alone_and_check_only_writes_nothing() {
    let mut s = evolving();
    let list = facts(&["I live in Lisbon", "my password is hunter2-Zebra!", "", "I like dogs"]);
    let checked = s.import(&alice_alone(), list.clone(), true).unwrap();
    let positions: Vec<u32> = checked.refused.iter().map(|r| r.0).collect();
    assert_eq!(positions, [1, 2]);
    assert!(matches!(checked.refused[0].1, Error::SecretRefused(_)));
    assert!(matches!(checked.refused[1].1, Error::InvalidInput(_)));
    assert_eq!(checked.added, 0);
    assert!(live(&mut s).is_empty(), "check-only wrote nothing");

    let report = s.import(&alice_alone(), list, false).unwrap();
    assert_eq!((report.added, report.refused.len()), (2, 2));
    assert_eq!(live(&mut s), ["I like dogs", "I live in Lisbon"]);
}

#[test]
fn running_an_import_again_stores_nothing_twice_and_brings_nothing_back() {
    let mut s = evolving();
    let list = facts(&[
        "My favorite color is red",
        "I like dogs",
        "I like dogs",
        "My favorite color is blue",
    ]);
    let first = s.import(&alice_alone(), list.clone(), false).unwrap();
    assert_eq!((first.added, first.present, first.superseded), (3, 1, 1));
    let again = s.import(&alice_alone(), list.clone(), false).unwrap();
    assert_eq!((again.added, again.present, again.superseded), (0, 4, 0));
    assert_eq!(live(&mut s), ["I like dogs", "My favorite color is blue"]);
    // Once gc has archived red, red is still a fact this import stored before.
    assert_eq!(s.gc(false).unwrap().archived.len(), 1);
    let after_gc = s.import(&alice_alone(), list, false).unwrap();
    assert_eq!((after_gc.added, after_gc.present), (0, 4));
    assert_eq!(live(&mut s), ["I like dogs", "My favorite color is blue"]);
    // The same text about someone else, or in another scope, is not the same memory.
    let mut about_sarah = NewMemory::text("I like dogs");
    about_sarah.subjects = vec!["Sarah".into()];
    let other = s.import(&alice_alone(), vec![about_sarah], false).unwrap();
    assert_eq!(other.added, 1);
    let bob = s
        .import(
            &crate::scope::Caller::new(Some("bob"), None),
            facts(&["I like dogs"]),
            false,
        )
        .unwrap();
    assert_eq!(bob.added, 1);
}

#[test]
fn with_a_language_model_the_model_judges_the_candidates() {
    let mut s = evolving();
    s.ports().settings.borrow_mut().supersession_threshold = 0.3;
    *s.ports().llm_answer.borrow_mut() = Some("different".into());
    let report = s
        .import(&alice_alone(), facts(&["I like dogs", "I like cats"]), false)
        .unwrap();
    assert_eq!((report.added, report.superseded), (2, 0), "the model said different");
    assert!(s.ports().llm_calls.get() >= 2, "the probe and the verdict");
}

#[test]
fn a_list_over_the_limit_is_refused_whole() {
    let mut s = service();
    let list = vec![NewMemory::text("I like dogs"); crate::service::MAX_IMPORT_ITEMS + 1];
    assert!(matches!(
        s.import(&alice_alone(), list, false),
        Err(Error::InvalidInput(_))
    ));
    assert!(live(&mut s).is_empty());
}

#[test]
fn an_import_leaves_the_index_reflecting_what_it_wrote() {
    // Into a new home, then into one that holds something.
    let mut s = service();
    s.import(&alice_alone(), facts(&["I like dogs", "My sister is Sarah"]), false)
        .unwrap();
    let file_end = s.ports().file(crate::ports::Collection::Memories).len() as u64;
    let reflects = s.ports().index_reflects.borrow().expect("the index reflects a state");
    assert_eq!(reflects.end, file_end, "nothing is left for the next call to replay");
    s.add(&alice_alone(), NewMemory::text("I like tea")).unwrap();
    s.import(&alice_alone(), facts(&["I like cats", "My brother is Tom"]), false)
        .unwrap();
    let file_end = s.ports().file(crate::ports::Collection::Memories).len() as u64;
    let reflects = s.ports().index_reflects.borrow().expect("the index reflects a state");
    assert_eq!(reflects.end, file_end, "nothing is left for the next call to replay");
    assert_eq!(s.ports().index.borrow().len(), 5);
}
