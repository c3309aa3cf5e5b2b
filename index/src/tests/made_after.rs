//! `made-after`: the live memory of an entry's own scope made next after it, equal moments
//! in the order first indexed, within a window. Postgres
//! (`storage::postgres::tests::made_after`) runs the same case.

use super::*;

/// What `made-after` answers for each id ("-" for none).
fn next(index: &mut NativeIndex, ids: &[&str], now: i64, within: i64) -> Vec<String> {
    let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    index
        .made_after(&ids, now, within)
        .unwrap()
        .into_iter()
        .map(|n| n.unwrap_or("-".into()))
        .collect()
}

#[test]
fn made_after_is_the_live_memory_made_next_in_the_same_scope() {
    let (_dir, mut index) = fresh_index(2);
    index.upsert(&told_in_order()).unwrap();
    assert_eq!(
        next(&mut index, &["a", "b", "c", "d", "late"], 1_000, 1_000),
        ["b", "c", "d", "-", "-"],
        "the lapsed entry is passed over; late is beyond the window"
    );
    assert_eq!(
        next(&mut index, &["c", "d"], 255, 1_000),
        ["lapsed", "-"],
        "live before it lapses"
    );
    assert_eq!(next(&mut index, &["a"], 1_000, 99), ["-"], "b is 100 after a");
    assert_eq!(next(&mut index, &["a"], 1_000, 100), ["b"]);
    assert_eq!(next(&mut index, &["b"], 1_000, 0), ["c"], "the same moment");
    assert_eq!(
        next(&mut index, &["a", "late"], 1_000, i64::MAX),
        ["b", "-"],
        "no window"
    );
    assert_eq!(
        next(&mut index, &["nobody", "m1", "group", "b2"], 1_000, 1_000),
        ["-", "-", "group2", "-"],
        "unknown ids and messages have none; a chat's memories follow one another"
    );
    assert_eq!(next(&mut index, &["a", "a"], 1_000, 1_000), ["b", "b"]);
    assert!(next(&mut index, &[], 1_000, 1_000).is_empty());

    // Written again, b keeps its place; removed and written again, b is indexed after c.
    index.upsert(&[made_at("b", "alice", None, 200, None)]).unwrap();
    assert_eq!(next(&mut index, &["a", "b"], 1_000, 1_000), ["b", "c"]);
    index.remove(&["b".into()]).unwrap();
    index.upsert(&[made_at("b", "alice", None, 200, None)]).unwrap();
    assert_eq!(next(&mut index, &["a", "b", "c"], 1_000, 1_000), ["c", "d", "b"]);
}

/// Each answer is a walk along `items_made` from the entry, not a scan of its scope.
#[test]
fn made_after_walks_the_index_of_moments() {
    let (_dir, mut index) = fresh_index(2);
    let conn = index.raw();
    let mut explain = conn
        .prepare(&format!("EXPLAIN QUERY PLAN {}", super::super::made_after::MADE_AFTER))
        .unwrap();
    let plan: Vec<String> = explain
        .query_map(params!["[\"a\"]", 5, 10], |r| r.get::<_, String>(3))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for seek in ["made=? AND rowid>?", "made>? AND made<?"] {
        let wanted = format!("SEARCH a USING INDEX items_made (scope=? AND {seek})");
        assert!(plan.iter().any(|p| p.ends_with(&wanted)), "{wanted}: {plan:?}");
    }
    assert!(!plan.iter().any(|p| p.contains("TEMP B-TREE")), "{plan:?}");
}

#[test]
fn made_after_among_many_memories_made_at_one_moment() {
    let (_dir, mut index) = fresh_index(2);
    let entries: Vec<Entry> = (0..300)
        .map(|i| made_at(&format!("m{i}"), "alice", None, 7, None))
        .collect();
    index.upsert(&entries).unwrap();
    index.upsert(&[made_at("later", "alice", None, 9, None)]).unwrap();
    assert_eq!(
        next(&mut index, &["m0", "m150", "m299", "later"], 100, 5),
        ["m1", "m151", "later", "-"]
    );
    assert_eq!(next(&mut index, &["m299"], 100, 1), ["-"], "later is 2 after");
}
