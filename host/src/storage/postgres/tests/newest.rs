//! `newest`: a key's newest live holders within a scope.

use super::*;

/// `newest` as on SQLite (`index::tests::newest`, the same case): by observed moment then
/// id in byte order, within the scope, live only, following set-records, upserts, moves
/// and removals.
#[test]
fn the_newest_holders_of_a_key_come_by_moment_then_id_within_the_scope_and_follow_every_write() {
    let Some(pg) = pg() else { return };
    let (mut storage, _namespace) = storage(pg, "newest");
    const KEY: &str = "profile:preference";
    let at = |e: Entry, keys: &[&str], observed: i64, lapses: Option<i64>| Entry {
        marks: Marks {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            lapses,
            observed,
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
    let newest = |s: &mut PgStorage, keys: &[&str], scope: &ScopeFilter, now: i64, limit: u32| {
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        let lists = s
            .newest(&keys, scope, now, limit)
            .unwrap()
            .into_iter()
            .map(|list| {
                list.into_iter()
                    .map(|h| {
                        assert_eq!(h.record, format!("{{\"id\":\"{}\"}}", h.id));
                        h.id
                    })
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        // The same lists as ids alone.
        assert_eq!(s.newest_ids(&keys, scope, now, limit).unwrap(), lists);
        lists
    };
    let ids = |lists: &[&[&str]]| -> Vec<Vec<String>> {
        lists
            .iter()
            .map(|l| l.iter().map(|s| s.to_string()).collect())
            .collect()
    };
    call(&mut storage, |s| {
        s.upsert(&[
            at(entry("c", "alice", "three", Some([1.0, 0.0, 0.0])), &[KEY], 200, None),
            at(
                entry("a", "alice", "one", Some([1.0, 0.0, 0.0])),
                &[KEY, "entity:x"],
                300,
                None,
            ),
            at(entry("b", "alice", "two", Some([0.0, 1.0, 0.0])), &[KEY], 200, None),
            // Before "b" by byte, after it by most collations.
            at(entry("B", "alice", "two too", Some([1.0, 0.0, 0.0])), &[KEY], 200, None),
            group(at(
                entry("C", "alice", "three too", Some([1.0, 0.0, 0.0])),
                &[KEY],
                200,
                None,
            )),
            group(at(
                entry("d", "alice", "four", Some([1.0, 1.0, 0.0])),
                &[KEY],
                250,
                None,
            )),
            at(entry("e", "bob", "five", Some([1.0, 0.0, 0.0])), &[KEY], 400, None),
            at(
                entry("f", "alice", "six", Some([1.0, 0.0, 0.0])),
                &[KEY],
                500,
                Some(100),
            ),
            at(
                entry("g", "alice", "seven", Some([1.0, 0.0, 0.0])),
                &["reflection"],
                350,
                None,
            ),
            at(entry("h", "alice", "eight", None), &[KEY], 100, None),
        ])
        .unwrap();
    });
    let keys = [KEY, "reflection", "entity:nowhere"];
    call(&mut storage, |s| {
        assert_eq!(
            newest(s, &keys, &alone, 150, 10),
            ids(&[&["a", "B", "b", "c", "h"], &["g"], &[]])
        );
        assert_eq!(
            newest(s, &keys, &in_chat, 150, 10),
            ids(&[&["a", "d", "B", "C", "b", "c", "h"], &["g"], &[]])
        );
        assert_eq!(newest(s, &keys, &in_chat, 150, 2), ids(&[&["a", "d"], &["g"], &[]]));
        assert_eq!(newest(s, &keys, &alone, 50, 2), ids(&[&["f", "a"], &["g"], &[]]));
        assert_eq!(newest(s, &keys, &alone, 150, 0), ids(&[&[], &[], &[]]));
        // `newest-moments`: when the first of each list was observed.
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        assert_eq!(
            s.newest_moments(&keys, &alone, 150).unwrap(),
            [Some(300), Some(350), None]
        );
        assert_eq!(
            s.newest_moments(&keys, &in_chat, 150).unwrap(),
            [Some(300), Some(350), None]
        );
        assert_eq!(
            s.newest_moments(&keys, &alone, 50).unwrap(),
            [Some(500), Some(350), None]
        );
        let held = s.newest(&[KEY.into()], &alone, 150, 10).unwrap();
        assert_eq!(held[0][0].embedding, Some(vec![1.0, 0.0, 0.0]));
        assert_eq!(held[0][4].embedding, None, "h waits for its vector");
    });
    // A key whose newest holder is the chat's: in the chat, its moment.
    call(&mut storage, |s| {
        s.upsert(&[
            at(
                entry("p1", "alice", "personal", Some([1.0, 0.0, 0.0])),
                &["subject:p"],
                800,
                None,
            ),
            group(at(
                entry("p2", "alice", "shared", Some([1.0, 0.0, 0.0])),
                &["subject:p"],
                900,
                None,
            )),
        ])
        .unwrap();
    });
    call(&mut storage, |s| {
        let person = ["subject:p".to_string()];
        assert_eq!(s.newest_moments(&person, &alone, 150).unwrap(), [Some(800)]);
        assert_eq!(s.newest_moments(&person, &in_chat, 150).unwrap(), [Some(900)]);
    });
    call(&mut storage, |s| {
        s.set_records(&[Revision {
            id: "c".into(),
            record: r#"{"id":"c"}"#.into(),
            marks: Marks {
                keys: vec![KEY.into()],
                lapses: None,
                observed: 600,
                made: 0,
            },
        }])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(newest(s, &[KEY], &alone, 150, 2), ids(&[&["c", "a"]]));
        s.upsert(&[at(entry("b", "alice", "two", Some([0.0, 1.0, 0.0])), &[KEY], 700, None)])
            .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(newest(s, &[KEY], &alone, 150, 2), ids(&[&["b", "c"]]));
        assert_eq!(s.newest_moments(&[KEY.into()], &alone, 150).unwrap(), [Some(700)]);
        s.upsert(&[at(entry("b", "bob", "two", Some([0.0, 1.0, 0.0])), &[KEY], 700, None)])
            .unwrap();
        s.remove(&["a".into()]).unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(newest(s, &[KEY], &alone, 150, 10), ids(&[&["c", "B", "h"]]));
        assert_eq!(newest(s, &[KEY], &scope("bob"), 150, 10), ids(&[&["b", "e"]]));
        assert_eq!(s.newest_moments(&[KEY.into()], &alone, 150).unwrap(), [Some(600)]);
        assert_eq!(
            s.newest_moments(&[KEY.into()], &scope("bob"), 150).unwrap(),
            [Some(700)]
        );
    });
}
