//! `made-around`: the memories made just before and after one in its scope.

use super::*;

/// `made-around` on Postgres: the case of the SQLite index's `made_around` test.
#[test]
fn made_around_is_the_live_memories_made_next_to_it_in_the_same_scope() {
    let Some(pg) = pg() else { return };
    let (mut storage, _namespace) = storage(pg, "made_around");
    let around = |s: &mut PgStorage, ids: &[&str], places: u32, now: i64| -> Vec<String> {
        let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
        s.made_around(&ids, places, now)
            .unwrap()
            .into_iter()
            .map(|a| a.join(" "))
            .collect()
    };
    call(&mut storage, |s| s.upsert(&told_in_order()).unwrap());
    call(&mut storage, |s| {
        assert_eq!(around(s, &["c", "a", "late"], 2, 1_000), ["b a d late", "b c", "d c"]);
        assert_eq!(around(s, &["c"], 1, 255), ["b lapsed"]);
        assert_eq!(around(s, &["c"], 10, 1_000), ["b a d late"]);
        assert_eq!(
            around(s, &["nobody", "m1", "group", "b2"], 3, 1_000),
            ["", "", "group2", ""]
        );
        assert_eq!(around(s, &["a", "a"], 1, 1_000), ["b", "b"]);
        assert_eq!(around(s, &["a"], 0, 1_000), [""]);
        assert!(around(s, &[], 3, 1_000).is_empty());
    });
    call(&mut storage, |s| {
        s.upsert(&[made_at("b", "alice", None, 200, None)]).unwrap();
    });
    call(&mut storage, |s| assert_eq!(around(s, &["c"], 1, 1_000), ["b d"]));
    call(&mut storage, |s| {
        s.remove(&["b".into()]).unwrap();
        s.upsert(&[made_at("b", "alice", None, 200, None)]).unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(around(s, &["c", "b"], 1, 1_000), ["a b", "c d"]);
    });
}
