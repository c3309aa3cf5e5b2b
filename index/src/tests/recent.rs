//! `recent`: a scope's entries most recently made first, equal moments the later first
//! indexed first, with their records and vectors, following every write. Postgres
//! (`storage::postgres::tests::recent`) runs the same case.

use super::*;

/// An entry made at `made`, lapsing at `lapses`; observed in the reverse order, so that
/// ordering by the wrong moment fails.
fn made(e: Entry, made: i64, lapses: Option<i64>) -> Entry {
    Entry {
        marks: Marks {
            observed: 1000 - made,
            made,
            ..marks_of(&[], lapses)
        },
        ..e
    }
}

/// The ids `recent` gives, each checked against its record.
fn recent_ids(index: &mut NativeIndex, scope: &ScopeFilter, now: Option<i64>, limit: u32) -> Vec<String> {
    index
        .recent(scope, now, limit)
        .unwrap()
        .into_iter()
        .map(|h| {
            assert_eq!(h.record, format!("{{\"id\":\"{}\"}}", h.id));
            h.id
        })
        .collect()
}

#[test]
fn recent_lists_the_most_recently_made_equal_moments_latest_indexed_first() {
    let (_dir, mut index) = fresh_index(2);
    let group = |e: Entry| Entry {
        chat_id: Some("c1".into()),
        ..e
    };
    let mut unkept = entry("h", "eight", vec![0.0, 1.0], "alice");
    unkept.record = None;
    let b = made(entry("b", "two", vec![0.0, 1.0], "alice"), 200, None);
    let c = made(entry("c", "three", vec![1.0, 0.0], "alice"), 200, None);
    index
        .upsert(&[
            b.clone(),
            made(entry("a", "one", vec![1.0, 0.0], "alice"), 100, None),
            c.clone(),
            made(entry("e", "five", vec![1.0, 1.0], "alice"), 200, None),
            made(entry("d", "four", vec![1.0, 0.5], "alice"), 300, Some(150)),
            group(made(entry("f", "six", vec![1.0, 0.0], "alice"), 250, None)),
            group(made(entry("g", "seven", vec![1.0, 0.0], "alice"), 200, None)),
            made(unkept, 400, None),
            made(entry("i", "nine", vec![1.0, 0.0], "bob"), 500, None),
        ])
        .unwrap();
    // Written again, b keeps its place; removed and written again, c is indexed last.
    index.upsert(&[b]).unwrap();
    index.remove(&["c".into()]).unwrap();
    index.upsert(&[c]).unwrap();

    let alone = alice_in(None);
    let in_chat = alice_in(Some("c1"));
    assert_eq!(recent_ids(&mut index, &alone, None, 10), ["d", "c", "e", "b", "a"]);
    assert_eq!(
        recent_ids(&mut index, &alone, Some(200), 10),
        ["c", "e", "b", "a"],
        "d lapsed at 150"
    );
    assert_eq!(
        recent_ids(&mut index, &in_chat, None, 10),
        ["d", "f", "c", "g", "e", "b", "a"],
        "the chat's memories merged in"
    );
    assert_eq!(recent_ids(&mut index, &in_chat, None, 2), ["d", "f"]);
    assert!(recent_ids(&mut index, &in_chat, None, 0).is_empty());
    assert_eq!(recent_ids(&mut index, &alice_of("bob"), None, 10), ["i"]);
    let held = index.recent(&alone, None, 1).unwrap();
    assert_eq!(held[0].embedding.as_deref(), Some(&[1.0, 0.5][..]));

    // A new moment through set-records moves an entry; one moved to Bob leaves Alice's.
    index
        .set_records(&[revision(
            "a",
            r#"{"id":"a"}"#,
            Marks {
                made: 600,
                ..marks_of(&[], None)
            },
        )])
        .unwrap();
    assert_eq!(recent_ids(&mut index, &alone, None, 2), ["a", "d"]);
    index
        .upsert(&[made(entry("e", "five", vec![1.0, 1.0], "bob"), 200, None)])
        .unwrap();
    assert_eq!(recent_ids(&mut index, &alone, None, 10), ["a", "d", "c", "b"]);
    assert_eq!(recent_ids(&mut index, &alice_of("bob"), None, 10), ["i", "e"]);
}

/// Walking a scope reads `items_made` backwards: no sort of the whole scope.
#[test]
fn recent_walks_its_index_without_sorting() {
    let (_dir, mut index) = fresh_index(2);
    let plan: Vec<String> = {
        let conn = index.raw();
        let mut explain = conn
            .prepare(&format!(
                "EXPLAIN QUERY PLAN {}",
                crate::database::limited(super::super::recent::RECENT, 10)
            ))
            .unwrap();
        explain
            .query_map(params!["u:alice", 5], |r| r.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(plan, ["SEARCH items USING INDEX items_made (scope=?)"]);
}

fn alice_of(user: &str) -> ScopeFilter {
    ScopeFilter {
        kind: EntryKind::Memory,
        user_id: Some(user.into()),
        chat_id: None,
    }
}
