//! Full text with common words: a term held by more than `RARE_TERM` entries does not make
//! a search rank all of them.

use super::*;

/// Alice's entries `prefix{n}` for each n of `range`, each saying `content(n)`, in order.
fn fill(index: &mut NativeIndex, prefix: &str, range: std::ops::Range<u32>, content: impl Fn(u32) -> String) {
    let entries: Vec<Entry> = range
        .map(|n| entry(&format!("{prefix}{n}"), &content(n), vec![1.0, 0.0], "alice"))
        .collect();
    index.upsert(&entries).unwrap();
}

fn found(index: &mut NativeIndex, terms: &[&str], k: u32) -> Vec<String> {
    let terms: Vec<String> = terms.iter().map(|t| t.to_string()).collect();
    index
        .text_search(&terms, k, &alice())
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn a_term_held_by_at_most_rare_term_entries_is_ranked_with_the_others() {
    let (_dir, mut index) = fresh_index(2);
    let rare = RARE_TERM;
    fill(&mut index, "k", 0..rare, |n| format!("kiwi {n}"));
    fill(&mut index, "m", 0..1, |_| {
        "a mango and many other words to make it long".into()
    });
    // Both rare: every match ranked, the rarer word's first.
    assert_eq!(found(&mut index, &["kiwi", "mango"], 5), ["m0", "k0", "k1", "k2", "k3"]);
    assert_eq!(found(&mut index, &["kiwi", "mango"], 2_000).len(), 1_001);

    // One more kiwi makes the word common: the rare word alone picks and ranks.
    fill(&mut index, "k", rare..rare + 1, |n| format!("kiwi {n}"));
    assert_eq!(found(&mut index, &["kiwi", "mango"], 5), ["m0"]);
    assert_eq!(found(&mut index, &["mango", "kiwi"], 2_000), ["m0"]);
}

#[test]
fn common_terms_alone_rank_their_newest_holders() {
    let (_dir, mut index) = fresh_index(2);
    // The oldest holder is the best on BM25 (shortest, the word twice); the next best is
    // among the newest.
    fill(&mut index, "old", 0..1, |_| "pear pear".into());
    fill(&mut index, "p", 0..1_500, |n| {
        if n == 1_200 {
            "pear plum".into()
        } else {
            format!("pear number {n} in a longer line of words")
        }
    });
    assert_eq!(
        found(&mut index, &["pear", "plum"], 10),
        ["p1200"],
        "plum is rare: it picks"
    );
    let hits = found(&mut index, &["pear"], 10);
    assert_eq!(hits[0], "p1200", "{hits:?}");
    assert!(
        !hits.contains(&"old0".to_owned()),
        "older than the newest {RECENT_MATCHES}"
    );
    // Every hit is among the newest matches, best first and equal ones in insertion order.
    let newest = 1_500 - RECENT_MATCHES;
    for id in &hits[1..] {
        let n: u32 = id[1..].parse().unwrap();
        assert!(n >= newest, "{id} is older than the newest {RECENT_MATCHES}");
    }
    assert_eq!(hits[1], format!("p{newest}"));
    // Asked for more than the window, the window grows to twice as many.
    let many = found(&mut index, &["pear"], 1_000);
    assert_eq!(many.len(), 1_000);
    assert!(many.contains(&"old0".to_owned()), "2,000 of 1,501 holders: all ranked");
    assert_eq!(many[0], "old0");
}
