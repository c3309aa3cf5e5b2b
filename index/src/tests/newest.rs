//! `newest`: a key's newest live holders within a scope, by observed moment then id, with
//! their records and vectors, following every write; `newest-moments`, when the first was
//! observed. Postgres
//! (`storage::postgres::tests::newest`) runs the same case.

use super::*;

const KEY: &str = "profile:preference";

/// An entry holding these keys, observed at `observed`, lapsing at `lapses`.
fn at(e: Entry, keys: &[&str], observed: i64, lapses: Option<i64>) -> Entry {
    Entry {
        marks: Marks {
            observed,
            ..marks_of(keys, lapses)
        },
        ..e
    }
}

/// The ids `newest` gives per key, each checked against its record, and the same lists
/// as `newest_ids` gives them.
fn newest_ids(index: &mut NativeIndex, keys: &[&str], scope: &ScopeFilter, now: i64, limit: u32) -> Vec<Vec<String>> {
    let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    let lists: Vec<Vec<String>> = index
        .newest(&keys, scope, now, limit)
        .unwrap()
        .into_iter()
        .map(|list| {
            list.into_iter()
                .map(|h| {
                    assert_eq!(h.record, format!("{{\"id\":\"{}\"}}", h.id));
                    h.id
                })
                .collect()
        })
        .collect();
    assert_eq!(index.newest_ids(&keys, scope, now, limit).unwrap(), lists);
    lists
}

#[test]
fn the_newest_holders_of_a_key_come_by_moment_then_id_within_the_scope_and_follow_every_write() {
    let (_dir, mut index) = fresh_index(2);
    let group = |e: Entry| Entry {
        chat_id: Some("c1".into()),
        ..e
    };
    let mut pending = entry("h", "eight", vec![0.0, 1.0], "alice");
    pending.embedding = None;
    index
        .upsert(&[
            at(entry("c", "three", vec![1.0, 0.0], "alice"), &[KEY], 200, None),
            at(
                entry("a", "one", vec![1.0, 0.0], "alice"),
                &[KEY, "entity:x"],
                300,
                None,
            ),
            at(entry("b", "two", vec![0.0, 1.0], "alice"), &[KEY], 200, None),
            // Before "b" by byte, after it by most collations.
            at(entry("B", "two too", vec![1.0, 0.0], "alice"), &[KEY], 200, None),
            group(at(entry("C", "three too", vec![1.0, 0.0], "alice"), &[KEY], 200, None)),
            group(at(entry("d", "four", vec![1.0, 1.0], "alice"), &[KEY], 250, None)),
            at(entry("e", "five", vec![1.0, 0.0], "bob"), &[KEY], 400, None),
            at(entry("f", "six", vec![1.0, 0.0], "alice"), &[KEY], 500, Some(100)),
            at(entry("g", "seven", vec![1.0, 0.0], "alice"), &["reflection"], 350, None),
            at(pending, &[KEY], 100, None),
        ])
        .unwrap();
    let keys = [KEY, "reflection", "entity:nowhere"];
    let alone = alice_in(None);
    let in_chat = alice_in(Some("c1"));
    let ids = |lists: &[&[&str]]| -> Vec<Vec<String>> {
        lists
            .iter()
            .map(|l| l.iter().map(|s| s.to_string()).collect())
            .collect()
    };
    // Equal moments by id, by byte (B before b before c, whatever order they were
    // written in); f lapsed at 100; Bob's never.
    assert_eq!(
        newest_ids(&mut index, &keys, &alone, 150, 10),
        ids(&[&["a", "B", "b", "c", "h"], &["g"], &[]])
    );
    assert_eq!(
        newest_ids(&mut index, &keys, &in_chat, 150, 10),
        ids(&[&["a", "d", "B", "C", "b", "c", "h"], &["g"], &[]]),
        "the chat's memories merged in"
    );
    assert_eq!(
        newest_ids(&mut index, &keys, &in_chat, 150, 2),
        ids(&[&["a", "d"], &["g"], &[]])
    );
    assert_eq!(
        newest_ids(&mut index, &keys, &alone, 50, 2),
        ids(&[&["f", "a"], &["g"], &[]]),
        "live before it lapses"
    );
    assert_eq!(newest_ids(&mut index, &keys, &alone, 150, 0), ids(&[&[], &[], &[]]));
    // `newest-moments`: when the first of each list was observed (a 300, d 250 is later in
    // the chat's list, g 350; f 500 before it lapses), none for a key without a holder.
    let keys_owned: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    let mut moments = |scope: &ScopeFilter, now: i64| index.newest_moments(&keys_owned, scope, now).unwrap();
    assert_eq!(moments(&alone, 150), [Some(300), Some(350), None]);
    assert_eq!(moments(&in_chat, 150), [Some(300), Some(350), None]);
    assert_eq!(moments(&alone, 50), [Some(500), Some(350), None]);
    // A key whose newest holder is the chat's: in the chat, its moment.
    index
        .upsert(&[
            at(
                entry("p1", "personal", vec![1.0, 0.0], "alice"),
                &["subject:p"],
                800,
                None,
            ),
            group(at(
                entry("p2", "shared", vec![1.0, 0.0], "alice"),
                &["subject:p"],
                900,
                None,
            )),
        ])
        .unwrap();
    let person = ["subject:p".to_string()];
    assert_eq!(index.newest_moments(&person, &alone, 150).unwrap(), [Some(800)]);
    assert_eq!(index.newest_moments(&person, &in_chat, 150).unwrap(), [Some(900)]);
    let held = index.newest(&[KEY.into()], &alone, 150, 10).unwrap();
    assert_eq!(held[0][0].embedding.as_deref(), Some(&[1.0, 0.0][..]));
    assert_eq!(held[0][4].embedding, None, "h waits for its vector");

    // A new moment, through set-records and through upsert, with the same keys: the marks
    // rows follow (a rewrite that compared only keys and expiry would leave them).
    index
        .set_records(&[revision(
            "c",
            r#"{"id":"c"}"#,
            Marks {
                observed: 600,
                ..marks_of(&[KEY], None)
            },
        )])
        .unwrap();
    assert_eq!(newest_ids(&mut index, &[KEY], &alone, 150, 2), ids(&[&["c", "a"]]));
    index
        .upsert(&[at(entry("b", "two", vec![0.0, 1.0], "alice"), &[KEY], 700, None)])
        .unwrap();
    assert_eq!(newest_ids(&mut index, &[KEY], &alone, 150, 2), ids(&[&["b", "c"]]));
    assert_eq!(
        index.newest_moments(&[KEY.into()], &alone, 150).unwrap(),
        [Some(700)],
        "the moments follow the writes"
    );
    // Moved to Bob, and removed.
    index
        .upsert(&[at(entry("b", "two", vec![0.0, 1.0], "bob"), &[KEY], 700, None)])
        .unwrap();
    index.remove(&["a".into()]).unwrap();
    assert_eq!(
        newest_ids(&mut index, &[KEY], &alone, 150, 10),
        ids(&[&["c", "B", "h"]])
    );
    let bob = ScopeFilter {
        user_id: Some("bob".into()),
        ..alice()
    };
    assert_eq!(newest_ids(&mut index, &[KEY], &bob, 150, 10), ids(&[&["b", "e"]]));
    assert_eq!(
        index.newest_moments(&[KEY.into()], &alone, 150).unwrap(),
        [Some(600)],
        "c, once b moved and a went"
    );
    assert_eq!(index.newest_moments(&[KEY.into()], &bob, 150).unwrap(), [Some(700)]);
}
