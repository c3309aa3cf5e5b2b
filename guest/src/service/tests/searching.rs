//! Searching: by meaning and by words, within the caller's scope, and by words alone
//! while the embedder is down.

use super::{alice, search, service};
use crate::api::*;
use crate::scope::Caller;

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
