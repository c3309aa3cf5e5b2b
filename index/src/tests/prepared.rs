//! The statements a search and a context run stay prepared from one call to the next.
//! SQLite prepares a statement again whenever the parameter of its LIMIT is bound
//! (`database::limited`); its authorizer is asked about every statement compiled, a
//! statement prepared again included, so counting its questions counts compilations.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::hooks::{AuthAction, Authorization};

use super::*;

#[test]
fn the_calls_of_a_search_and_a_context_compile_nothing_once_warm() {
    let (_dir, mut index) = fresh_index(2);
    let mut entries = told_in_order();
    for (i, e) in entries.iter_mut().enumerate() {
        e.content = format!("apple pear plum {}", e.id);
        e.marks.keys = vec![format!("k:{}", i % 3)];
    }
    index.upsert(&entries).unwrap();
    let compiled = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&compiled);
    index
        .raw()
        .authorizer(Some(move |context: rusqlite::hooks::AuthContext<'_>| {
            if matches!(context.action, AuthAction::Select) {
                counter.fetch_add(1, Ordering::SeqCst);
            }
            Authorization::Allow
        }));
    let scope = alice();
    let ids = |xs: &[&str]| -> Vec<String> { xs.iter().map(|x| x.to_string()).collect() };
    let calls = |index: &mut NativeIndex, term: &str, id: &str, key: &str, now: i64| {
        index.text_search(&[term.to_owned()], 10, &scope).unwrap();
        index.knn(&[1.0, now as f32], 10, &scope).unwrap();
        index.recent(&scope, Some(now), 5).unwrap();
        index.newest(&ids(&[key]), &scope, now, 5).unwrap();
        index.newest_ids(&ids(&[key]), &scope, now, 5).unwrap();
        index.made_after(&ids(&[id]), now, 1_000).unwrap();
        index.made_around(&ids(&[id, "b"]), 3, now).unwrap();
    };
    // Three rounds warm them up: the third knn of a scope reads its vectors into memory,
    // a statement of its own.
    for (term, id, key, now) in [
        ("apple", "a", "k:0", 1_000),
        ("pear", "c", "k:1", 2_000),
        ("plum", "d", "k:2", 3_000),
    ] {
        calls(&mut index, term, id, key, now);
    }
    let warm = compiled.load(Ordering::SeqCst);
    assert!(warm > 0, "the authorizer counts");
    calls(&mut index, "pear", "b", "k:2", 4_000);
    calls(&mut index, "apple", "late", "k:0", 5_000);
    assert_eq!(compiled.load(Ordering::SeqCst), warm, "statements compiled again");
}
