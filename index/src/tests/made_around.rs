//! `made-around`: the live memories of an entry's own scope made just before and after
//! it, equal moments in the order first indexed. Postgres
//! (`storage::postgres::tests::made_around`) runs the same case.

use super::*;

/// What `made-around` answers for each id, each list joined by spaces.
fn around(index: &mut NativeIndex, ids: &[&str], places: u32, now: i64) -> Vec<String> {
    let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    index
        .made_around(&ids, places, now)
        .unwrap()
        .into_iter()
        .map(|a| a.join(" "))
        .collect()
}

#[test]
fn made_around_is_the_live_memories_made_next_to_it_in_the_same_scope() {
    let (_dir, mut index) = fresh_index(2);
    index.upsert(&told_in_order()).unwrap();
    assert_eq!(
        around(&mut index, &["c", "a", "late"], 2, 1_000),
        ["b a d late", "b c", "d c"],
        "nearest first on each side; the lapsed entry is passed over"
    );
    assert_eq!(
        around(&mut index, &["c"], 1, 255),
        ["b lapsed"],
        "live before it lapses"
    );
    assert_eq!(
        around(&mut index, &["c"], 10, 1_000),
        ["b a d late"],
        "fewer than asked for"
    );
    assert_eq!(
        around(&mut index, &["nobody", "m1", "group", "b2"], 3, 1_000),
        ["", "", "group2", ""],
        "unknown ids and messages have none; a chat's memories are one another's"
    );
    assert_eq!(around(&mut index, &["a", "a"], 1, 1_000), ["b", "b"]);
    assert_eq!(around(&mut index, &["a"], 0, 1_000), [""]);
    assert!(around(&mut index, &[], 3, 1_000).is_empty());

    // Written again, b keeps its place; removed and written again, b is indexed after c.
    index.upsert(&[made_at("b", "alice", None, 200, None)]).unwrap();
    assert_eq!(around(&mut index, &["c"], 1, 1_000), ["b d"]);
    index.remove(&["b".into()]).unwrap();
    index.upsert(&[made_at("b", "alice", None, 200, None)]).unwrap();
    assert_eq!(around(&mut index, &["c", "b"], 1, 1_000), ["a b", "c d"]);
}

/// Each side is two seeks along `items_made` from the entry, its own moment's and the
/// others', not a scan of its scope or of a moment many entries share; and each walk stays
/// prepared from one entry to the next.
#[test]
fn made_around_seeks_along_the_index_of_moments_without_preparing_again() {
    use crate::database::limited;
    use crate::made_around::WALKS;
    let (_dir, mut index) = fresh_index(2);
    let entries: Vec<Entry> = (0..40)
        .map(|i| made_at(&format!("m{i}"), "alice", None, i / 4, None))
        .collect();
    index.upsert(&entries).unwrap();
    let conn = index.raw();
    let seeks = ["made=? AND rowid<?", "made<?", "made=? AND rowid>?", "made>?"];
    for (sql, seek) in WALKS.into_iter().zip(seeks) {
        let sql = limited(sql, 3);
        // (scope, made, now, rowid): the walks of other moments take the first three.
        let values = |made: i64, rowid: i64| -> Vec<rusqlite::types::Value> {
            let all = vec!["u:alice".to_owned().into(), made.into(), 0.into(), rowid.into()];
            let n = if seek.contains("rowid") { 4 } else { 3 };
            all.into_iter().take(n).collect()
        };
        let mut explain = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let plan: Vec<String> = explain
            .query_map(rusqlite::params_from_iter(values(5, 10)), |r| r.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let wanted = format!("SEARCH items USING INDEX items_made (scope=? AND {seek})");
        assert_eq!(plan, [wanted]);

        let mut statement = conn.prepare(&sql).unwrap();
        // Numbered without a gap: a host's binding may count ?1, ?2, ?4 as three values.
        for i in 1..=statement.parameter_count() {
            assert_eq!(statement.parameter_name(i), Some(format!("?{i}").as_str()), "{sql}");
        }
        let mut rows = 0;
        for (made, rowid) in [(2, 10), (5, 22), (7, 30)] {
            let mut found = statement
                .query(rusqlite::params_from_iter(values(made, rowid)))
                .unwrap();
            while found.next().unwrap().is_some() {
                rows += 1;
            }
        }
        assert!(rows > 0, "{sql}");
        assert_eq!(statement.get_status(rusqlite::StatementStatus::RePrepare), 0, "{sql}");
    }
}

#[test]
fn many_memories_made_at_one_moment_are_in_the_order_first_indexed() {
    let (_dir, mut index) = fresh_index(2);
    let entries: Vec<Entry> = (0..300)
        .map(|i| made_at(&format!("m{i}"), "alice", None, 7, None))
        .collect();
    index.upsert(&entries).unwrap();
    index
        .upsert(&[
            made_at("later", "alice", None, 8, None),
            made_at("earlier", "alice", None, 6, None),
        ])
        .unwrap();
    assert_eq!(around(&mut index, &["m150"], 2, 100), ["m149 m148 m151 m152"]);
    assert_eq!(around(&mut index, &["m1"], 3, 100), ["m0 earlier m2 m3 m4"]);
    assert_eq!(around(&mut index, &["m298"], 3, 100), ["m297 m296 m295 m299 later"]);
}
