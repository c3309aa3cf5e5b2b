//! The list of the days a query names (`service::named_days`).

use super::{alice_alone, service};
use crate::api::*;

/// Told over a week of February 2026, each on its day; Sunday's tells of Saturday.
fn week() -> super::MemoryService<crate::tests::fake::FakePorts> {
    let mut s = service();
    for (text, day) in [
        ("Doing laundry and paying bills all evening", "2026-02-02"),
        ("What are you doing for the long weekend?", "2026-02-03"),
        ("Doing nothing much, the rain kept everyone indoors", "2026-02-05"),
        (
            "Went to the pottery open studio yesterday and threw a lopsided bowl",
            "2026-02-08",
        ),
        ("Doing a quiet night in with soup", "2026-02-09"),
    ] {
        let memory = NewMemory {
            observed_at: Some(format!("{day}T20:00:00Z")),
            ..NewMemory::text(text)
        };
        s.add(&alice_alone(), memory).unwrap();
    }
    s
}

fn hits(s: &mut super::MemoryService<crate::tests::fake::FakePorts>, text: &str) -> Vec<SearchHit> {
    let query = SearchQuery {
        text: text.into(),
        limit: None,
        about: None,
    };
    s.search(&alice_alone(), &query).unwrap().hits
}

#[test]
fn a_memory_of_the_day_a_question_names_is_found_though_it_shares_no_word_with_it() {
    let mut s = week();
    // Sunday's "yesterday" is the 7th; the line shares no word with the question.
    let found = hits(&mut s, "What was I doing on 7 February 2026?");
    let pottery = found
        .iter()
        .position(|h| h.memory.content.contains("pottery"))
        .unwrap_or_else(|| panic!("{:?}", found.iter().map(|h| &h.memory.content).collect::<Vec<_>>()));
    assert_eq!(pottery, 0, "weighed up as of the time named, it ranks first");
    assert!(found[0].reasons.contains(&MatchReason::Time), "{:?}", found[0].reasons);
    // Only what the day holds is found by it.
    assert_eq!(
        found.iter().filter(|h| h.reasons.contains(&MatchReason::Time)).count(),
        1
    );
    // A stretch of days too.
    let found = hits(&mut s, "What was I up to between 6 and 8 February 2026?");
    assert!(found.iter().take(2).any(|h| h.memory.content.contains("pottery")));
}

#[test]
fn a_month_is_left_to_the_other_lists() {
    let mut s = week();
    // Every memory is of February: the month's memories are not a list of their own.
    let found = hits(&mut s, "What was I doing in February 2026?");
    assert!(!found.is_empty());
    assert!(
        found.iter().all(|h| !h.reasons.contains(&MatchReason::Time)),
        "{:?}",
        found.iter().map(|h| &h.reasons).collect::<Vec<_>>()
    );
}
