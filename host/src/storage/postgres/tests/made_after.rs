//! `made-after`: the memory made next after one in its scope.

use super::*;

/// `made-after` on Postgres: the case of the SQLite index's `made_after` test.
#[test]
fn made_after_is_the_live_memory_made_next_in_the_same_scope() {
    let Some(pg) = pg() else { return };
    let (mut storage, _namespace) = storage(pg, "made_after");
    let next = |s: &mut PgStorage, ids: &[&str], now: i64, within: i64| -> Vec<String> {
        let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
        s.made_after(&ids, now, within)
            .unwrap()
            .into_iter()
            .map(|n| n.unwrap_or("-".into()))
            .collect()
    };
    call(&mut storage, |s| s.upsert(&told_in_order()).unwrap());
    call(&mut storage, |s| {
        assert_eq!(
            next(s, &["a", "b", "c", "d", "late"], 1_000, 1_000),
            ["b", "c", "d", "-", "-"]
        );
        assert_eq!(next(s, &["c", "d"], 255, 1_000), ["lapsed", "-"]);
        assert_eq!(next(s, &["a"], 1_000, 99), ["-"]);
        assert_eq!(next(s, &["a"], 1_000, 100), ["b"]);
        assert_eq!(next(s, &["b"], 1_000, 0), ["c"]);
        assert_eq!(next(s, &["a", "late"], 1_000, i64::MAX), ["b", "-"]);
        assert_eq!(
            next(s, &["nobody", "m1", "group", "b2"], 1_000, 1_000),
            ["-", "-", "group2", "-"]
        );
        assert_eq!(next(s, &["a", "a"], 1_000, 1_000), ["b", "b"]);
        assert!(next(s, &[], 1_000, 1_000).is_empty());
    });
    call(&mut storage, |s| {
        s.upsert(&[made_at("b", "alice", None, 200, None)]).unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(next(s, &["a", "b"], 1_000, 1_000), ["b", "c"])
    });
    call(&mut storage, |s| {
        s.remove(&["b".into()]).unwrap();
        s.upsert(&[made_at("b", "alice", None, 200, None)]).unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(next(s, &["a", "b", "c"], 1_000, 1_000), ["c", "d", "b"]);
    });
}
