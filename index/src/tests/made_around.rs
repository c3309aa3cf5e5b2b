//! `made-around`: the live memories of an entry's own scope made just before and after
//! it, equal moments in the order first indexed. Postgres
//! (`storage::postgres::tests::made_around`) runs the same case.

use super::*;

/// An entry of `user` (or of chat `chat`) made at `made`, lapsing at `lapses`.
fn at(id: &str, user: &str, chat: Option<&str>, made: i64, lapses: Option<i64>) -> Entry {
    Entry {
        chat_id: chat.map(str::to_owned),
        marks: Marks {
            made,
            ..marks_of(&[], lapses)
        },
        ..entry(id, id, vec![1.0, 0.0], user)
    }
}

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
    let mut message = at("m1", "alice", None, 250, None);
    message.kind = EntryKind::Message;
    message.record = None;
    index
        .upsert(&[
            at("a", "alice", None, 100, None),
            at("b", "alice", None, 200, None),
            // Made at b's moment, indexed after it: after b.
            at("c", "alice", None, 200, None),
            at("lapsed", "alice", None, 250, Some(260)),
            at("d", "alice", None, 300, None),
            // Other scopes and kinds in between are passed over.
            at("group", "alice", Some("chat"), 120, None),
            at("group2", "alice", Some("chat"), 130, None),
            at("b2", "bob", None, 210, None),
            message,
            at("e", "alice", None, 5_000, None),
        ])
        .unwrap();
    assert_eq!(
        around(&mut index, &["c", "a", "e"], 2, 1_000),
        ["b a d e", "b c", "d c"],
        "nearest first on each side; the lapsed entry is passed over"
    );
    assert_eq!(
        around(&mut index, &["c"], 1, 255),
        ["b lapsed"],
        "live before it lapses"
    );
    assert_eq!(
        around(&mut index, &["c"], 10, 1_000),
        ["b a d e"],
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
    index.upsert(&[at("b", "alice", None, 200, None)]).unwrap();
    assert_eq!(around(&mut index, &["c"], 1, 1_000), ["b d"]);
    index.remove(&["b".into()]).unwrap();
    index.upsert(&[at("b", "alice", None, 200, None)]).unwrap();
    assert_eq!(around(&mut index, &["c", "b"], 1, 1_000), ["a b", "c d"]);
}

/// Each side is two seeks along `items_made` from the entry, its own moment's and the
/// others', not a scan of its scope or of a moment many entries share.
#[test]
fn made_around_seeks_along_the_index_of_moments() {
    let (_dir, mut index) = fresh_index(2);
    let conn = index.raw();
    let walks = [
        (super::super::made_around::MADE_BEFORE, "made=? AND rowid<?", "made<?"),
        (super::super::made_around::MADE_AFTER_IT, "made=? AND rowid>?", "made>?"),
    ];
    for (walk, same_moment, others) in walks {
        let mut explain = conn.prepare(&format!("EXPLAIN QUERY PLAN {walk}")).unwrap();
        let plan: Vec<String> = explain
            .query_map(params!["a", 5, 10], |r| r.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for seek in [same_moment, others] {
            let wanted = format!("SEARCH a USING INDEX items_made (scope=? AND {seek})");
            assert!(plan.iter().any(|p| p == &wanted), "{wanted}: {plan:?}");
        }
        assert!(
            !plan.iter().any(|p| p.starts_with("SCAN a") || p.starts_with("SCAN i")),
            "{plan:?}"
        );
    }
}

#[test]
fn many_memories_made_at_one_moment_are_in_the_order_first_indexed() {
    let (_dir, mut index) = fresh_index(2);
    let entries: Vec<Entry> = (0..300).map(|i| at(&format!("m{i}"), "alice", None, 7, None)).collect();
    index.upsert(&entries).unwrap();
    index
        .upsert(&[
            at("later", "alice", None, 8, None),
            at("earlier", "alice", None, 6, None),
        ])
        .unwrap();
    assert_eq!(around(&mut index, &["m150"], 2, 100), ["m149 m148 m151 m152"]);
    assert_eq!(around(&mut index, &["m1"], 3, 100), ["m0 earlier m2 m3 m4"]);
    assert_eq!(around(&mut index, &["m298"], 3, 100), ["m297 m296 m295 m299 later"]);
}
