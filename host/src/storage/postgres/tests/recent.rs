//! `recent`: the entries of a scope most recently made.

use super::*;

/// `recent` on Postgres: the case of the SQLite index's `recent` test.
#[test]
fn recent_lists_the_most_recently_made_equal_moments_latest_indexed_first() {
    let Some(pg) = pg() else { return };
    let (mut storage, _namespace) = storage(pg, "recent");
    // Observed in the reverse order, so that ordering by the wrong moment fails.
    let made = |e: Entry, made: i64, lapses: Option<i64>| Entry {
        marks: Marks {
            keys: Vec::new(),
            lapses,
            observed: 1000 - made,
            made,
        },
        ..e
    };
    let group = |e: Entry| Entry {
        chat_id: Some("c1".into()),
        ..e
    };
    let alone = scope("alice");
    let in_chat = ScopeFilter {
        chat_id: Some("c1".into()),
        ..scope("alice")
    };
    let recent = |s: &mut PgStorage, scope: &ScopeFilter, now: Option<i64>, limit: u32| -> Vec<String> {
        s.recent(scope, now, limit)
            .unwrap()
            .into_iter()
            .map(|h| {
                assert_eq!(h.record, format!("{{\"id\":\"{}\"}}", h.id));
                h.id
            })
            .collect()
    };
    let mut unkept = entry("h", "alice", "eight", Some([0.0, 1.0, 0.0]));
    unkept.record = None;
    let b = made(entry("b", "alice", "two", Some([0.0, 1.0, 0.0])), 200, None);
    let c = made(entry("c", "alice", "three", Some([1.0, 0.0, 0.0])), 200, None);
    call(&mut storage, |s| {
        s.upsert(&[
            b.clone(),
            made(entry("a", "alice", "one", Some([1.0, 0.0, 0.0])), 100, None),
            c.clone(),
            made(entry("e", "alice", "five", Some([1.0, 1.0, 0.0])), 200, None),
            made(entry("d", "alice", "four", Some([1.0, 0.5, 0.0])), 300, Some(150)),
            group(made(entry("f", "alice", "six", Some([1.0, 0.0, 0.0])), 250, None)),
            group(made(entry("g", "alice", "seven", Some([1.0, 0.0, 0.0])), 200, None)),
            made(unkept, 400, None),
            made(entry("i", "bob", "nine", Some([1.0, 0.0, 0.0])), 500, None),
        ])
        .unwrap();
        // Written again, b keeps its place; removed and written again, c is indexed last.
        s.upsert(&[b]).unwrap();
        s.remove(&["c".into()]).unwrap();
        s.upsert(&[c]).unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(recent(s, &alone, None, 10), ["d", "c", "e", "b", "a"]);
        assert_eq!(
            recent(s, &alone, Some(200), 10),
            ["c", "e", "b", "a"],
            "d lapsed at 150"
        );
        assert_eq!(recent(s, &in_chat, None, 10), ["d", "f", "c", "g", "e", "b", "a"]);
        assert_eq!(recent(s, &in_chat, None, 2), ["d", "f"]);
        assert!(recent(s, &in_chat, None, 0).is_empty());
        assert_eq!(recent(s, &scope("bob"), None, 10), ["i"]);
        let held = s.recent(&alone, None, 1).unwrap();
        assert_eq!(held[0].embedding, Some(vec![1.0, 0.5, 0.0]));
        s.set_records(&[Revision {
            id: "a".into(),
            record: r#"{"id":"a"}"#.into(),
            marks: Marks {
                keys: Vec::new(),
                lapses: None,
                observed: 0,
                made: 600,
            },
        }])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(recent(s, &alone, None, 2), ["a", "d"]);
        s.upsert(&[made(entry("e", "bob", "five", Some([1.0, 1.0, 0.0])), 200, None)])
            .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(recent(s, &alone, None, 10), ["a", "d", "c", "b"]);
        assert_eq!(recent(s, &scope("bob"), None, 10), ["i", "e"]);
    });
}
