//! Marks: counted and fetched within the scope, live at the moment asked.

use super::*;

/// Marks are counted and fetched within the scope, live at the moment asked, and follow
/// every write, as on SQLite (`index::tests::marks`, the same case).
#[test]
fn marks_count_and_fetch_the_live_holders_of_a_scope_and_follow_every_write() {
    let Some(pg) = pg() else { return };
    let (mut storage, namespace) = storage(pg, "marks");
    let marked = |e: Entry, keys: &[&str], lapses: Option<i64>| Entry {
        marks: Marks {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            lapses,
            observed: 0,
            made: 0,
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
    let strings = |keys: &[&str]| keys.iter().map(|k| k.to_string()).collect::<Vec<_>>();
    let tallied = |s: &mut PgStorage, keys: &[&str], scope: &ScopeFilter, now: i64| {
        let c = s.tally(&strings(keys), scope, now).unwrap();
        (c.live, c.holding)
    };
    let held = |s: &mut PgStorage, keys: &[&str], scope: &ScopeFilter, now: i64| {
        let mut ids: Vec<String> = s
            .holding(&strings(keys), scope, now)
            .unwrap()
            .into_iter()
            .map(|h| h.id)
            .collect();
        ids.sort();
        // The ids alone: the same set, without a record read.
        let mut alone = s.holding_ids(&strings(keys), scope, now).unwrap();
        alone.sort();
        assert_eq!(alone, ids);
        ids
    };
    let keys = ["entity:lisbon", "subject:ana", "entity:nowhere"];
    call(&mut storage, |s| {
        s.upsert(&[
            marked(
                entry("a", "alice", "one", Some([1.0, 0.0, 0.0])),
                &["subject:ana", "entity:lisbon"],
                None,
            ),
            marked(
                entry("b", "alice", "two", Some([0.0, 1.0, 0.0])),
                &["entity:lisbon"],
                Some(100),
            ),
            marked(
                entry("c", "bob", "three", Some([0.0, 0.0, 1.0])),
                &["subject:ana", "entity:lisbon"],
                None,
            ),
            group(marked(entry("d", "alice", "four", None), &["entity:lisbon"], None)),
            entry("e", "alice", "five", None),
        ])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(tallied(s, &keys, &alone, 50), (3, vec![2, 1, 0]));
        assert_eq!(tallied(s, &keys, &alone, 100), (2, vec![1, 1, 0]), "b lapses at 100");
        assert_eq!(tallied(s, &keys, &in_chat, 50), (4, vec![3, 1, 0]));
        assert_eq!(held(s, &["entity:lisbon"], &alone, 50), ["a", "b"]);
        assert_eq!(held(s, &["entity:lisbon"], &alone, 100), ["a"]);
        assert_eq!(
            held(s, &["subject:ana", "entity:lisbon"], &alone, 50),
            ["a", "b"],
            "each once"
        );
        assert_eq!(held(s, &["subject:ana"], &in_chat, 50), ["a"], "never Bob's");
        let a = s.holding(&strings(&["subject:ana"]), &alone, 50).unwrap();
        assert_eq!(a[0].embedding, Some(vec![1.0, 0.0, 0.0]), "with its vector");
        let messages = ScopeFilter {
            kind: EntryKind::Message,
            ..scope("alice")
        };
        assert_eq!(
            tallied(s, &keys, &messages, 50),
            (0, vec![0, 0, 0]),
            "messages have no marks"
        );
    });
    // Written again with the same marks (an access, a replay): they stay, not rewritten.
    let versions = || {
        pg.psql(&format!(
            "SET search_path TO ash_{namespace}; SELECT key, id, xmin FROM marks ORDER BY key, id"
        ))
    };
    let before = versions();
    call(&mut storage, |s| {
        s.set_records(&[Revision {
            id: "a".into(),
            record: r#"{"id":"a"}"#.into(),
            marks: Marks {
                keys: strings(&["subject:ana", "entity:lisbon"]),
                lapses: None,
                observed: 0,
                made: 0,
            },
        }])
        .unwrap();
        s.upsert(&[marked(
            entry("b", "alice", "two", Some([0.0, 1.0, 0.0])),
            &["entity:lisbon"],
            Some(100),
        )])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(tallied(s, &keys, &alone, 50), (3, vec![2, 1, 0]));
        assert_eq!(held(s, &["entity:lisbon"], &alone, 50), ["a", "b"]);
    });
    assert!(before.contains("entity:lisbon"), "{before}");
    assert_eq!(versions(), before, "the same rows, not new versions of them");
    // The same key with a later expiry: the kept row takes it.
    call(&mut storage, |s| {
        s.upsert(&[marked(
            entry("b", "alice", "two", Some([0.0, 1.0, 0.0])),
            &["entity:lisbon"],
            Some(120),
        )])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(
            held(s, &["entity:lisbon"], &alone, 110),
            ["a", "b"],
            "b lapses at 120 now"
        );
    });
    call(&mut storage, |s| {
        s.set_records(&[Revision {
            id: "a".into(),
            record: r#"{"id":"a"}"#.into(),
            marks: Marks {
                keys: strings(&["entity:porto"]),
                lapses: Some(60),
                observed: 0,
                made: 0,
            },
        }])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(
            tallied(s, &["entity:lisbon", "entity:porto", "subject:ana"], &alone, 50),
            (3, vec![1, 1, 0])
        );
        assert_eq!(
            tallied(s, &["entity:porto"], &alone, 70),
            (2, vec![0]),
            "a lapses at 60 now"
        );
        s.upsert(&[
            marked(
                entry("a", "alice", "one", Some([1.0, 0.0, 0.0])),
                &["entity:madrid"],
                None,
            ),
            group(marked(
                entry("a", "alice", "one", Some([1.0, 0.0, 0.0])),
                &["entity:lisbon"],
                None,
            )),
        ])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(
            tallied(s, &["entity:lisbon", "entity:porto", "entity:madrid"], &alone, 50),
            (2, vec![1, 0, 0])
        );
        assert_eq!(held(s, &["entity:lisbon"], &in_chat, 50), ["a", "b", "d"]);
        s.remove(&strings(&["a", "b", "c", "d"])).unwrap();
    });
    let left = pg.psql(&format!("SELECT count(*) FROM ash_{namespace}.marks"));
    assert_eq!(left.trim(), "0", "removed entries take their marks");
}
