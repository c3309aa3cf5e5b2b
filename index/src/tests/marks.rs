//! Marks: counted and fetched within the scope, live at the moment asked.

use super::*;

/// An entry with these marks.
fn marked(e: Entry, keys: &[&str], lapses: Option<i64>) -> Entry {
    Entry {
        marks: marks_of(keys, lapses),
        ..e
    }
}

/// The ids `holding` gives, sorted, each checked against its record and against
/// `holding_ids`.
fn held_ids(index: &mut NativeIndex, keys: &[&str], scope: &ScopeFilter, now: i64) -> Vec<String> {
    let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    let mut ids: Vec<String> = index
        .holding(&keys, scope, now)
        .unwrap()
        .into_iter()
        .map(|h| {
            assert_eq!(h.record, format!("{{\"id\":\"{}\"}}", h.id));
            h.id
        })
        .collect();
    // The ids alone, in the same order, without a record read.
    assert_eq!(index.holding_ids(&keys, scope, now).unwrap(), ids);
    ids.sort();
    ids
}

fn tallied(index: &mut NativeIndex, keys: &[&str], scope: &ScopeFilter, now: i64) -> (u64, Vec<u64>) {
    let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    let c = index.tally(&keys, scope, now).unwrap();
    (c.live, c.holding)
}

/// Marks are counted and fetched within the scope, live at the moment asked, and follow
/// every write: an upsert into another scope, new marks by `set-records`, a removal.
#[test]
fn marks_count_and_fetch_the_live_holders_of_a_scope_and_follow_every_write() {
    let (_dir, mut index) = fresh_index(2);
    let group = |e: Entry| Entry {
        chat_id: Some("c1".into()),
        ..e
    };
    index
        .upsert(&[
            marked(
                entry("a", "one", vec![1.0, 0.0], "alice"),
                &["subject:ana", "entity:lisbon"],
                None,
            ),
            marked(
                entry("b", "two", vec![0.0, 1.0], "alice"),
                &["entity:lisbon"],
                Some(100),
            ),
            marked(
                entry("c", "three", vec![1.0, 1.0], "bob"),
                &["subject:ana", "entity:lisbon"],
                None,
            ),
            group(marked(
                entry("d", "four", vec![1.0, 0.5], "alice"),
                &["entity:lisbon"],
                None,
            )),
            entry("e", "five", vec![0.5, 1.0], "alice"),
        ])
        .unwrap();
    let keys = ["entity:lisbon", "subject:ana", "entity:nowhere"];
    let alone = alice_in(None);
    assert_eq!(tallied(&mut index, &keys, &alone, 50), (3, vec![2, 1, 0]));
    assert_eq!(
        tallied(&mut index, &keys, &alone, 100),
        (2, vec![1, 1, 0]),
        "b lapses at 100"
    );
    assert_eq!(
        tallied(&mut index, &keys, &alice_in(Some("c1")), 50),
        (4, vec![3, 1, 0])
    );
    assert_eq!(held_ids(&mut index, &["entity:lisbon"], &alone, 50), ["a", "b"]);
    assert_eq!(held_ids(&mut index, &["entity:lisbon"], &alone, 100), ["a"]);
    assert_eq!(
        held_ids(&mut index, &["subject:ana", "entity:lisbon"], &alone, 50),
        ["a", "b"],
        "each once"
    );
    assert_eq!(
        held_ids(&mut index, &["subject:ana"], &alice_in(Some("c1")), 50),
        ["a"],
        "never Bob's"
    );
    let held = index.holding(&["subject:ana".into()], &alone, 50).unwrap();
    assert_eq!(held[0].embedding, Some(vec![1.0, 0.0]), "with its vector");
    let messages = ScopeFilter {
        kind: EntryKind::Message,
        ..alone.clone()
    };
    assert_eq!(tallied(&mut index, &keys, &messages, 50), (0, vec![0, 0, 0]));

    // Written again with the same marks (an access, a replay): they stay, and only the
    // record is written.
    let before = index.raw().total_changes();
    index
        .set_records(&[revision(
            "a",
            r#"{"id":"a"}"#,
            marks_of(&["subject:ana", "entity:lisbon"], None),
        )])
        .unwrap();
    assert_eq!(index.raw().total_changes() - before, 1, "the marks rows untouched");
    index
        .upsert(&[marked(
            entry("b", "two", vec![0.0, 1.0], "alice"),
            &["entity:lisbon"],
            Some(100),
        )])
        .unwrap();
    assert_eq!(tallied(&mut index, &keys, &alone, 50), (3, vec![2, 1, 0]));
    assert_eq!(held_ids(&mut index, &["entity:lisbon"], &alone, 50), ["a", "b"]);
    // The same keys with another expiry: the rows follow it.
    index
        .set_records(&[revision("b", r#"{"id":"b"}"#, marks_of(&["entity:lisbon"], Some(40)))])
        .unwrap();
    assert_eq!(tallied(&mut index, &keys, &alone, 50), (2, vec![1, 1, 0]));
    index
        .set_records(&[revision("b", r#"{"id":"b"}"#, marks_of(&["entity:lisbon"], Some(100)))])
        .unwrap();

    // New marks in place of the old.
    index
        .set_records(&[revision("a", r#"{"id":"a"}"#, marks_of(&["entity:porto"], Some(60)))])
        .unwrap();
    assert_eq!(
        tallied(
            &mut index,
            &["entity:lisbon", "entity:porto", "subject:ana"],
            &alone,
            50
        ),
        (3, vec![1, 1, 0])
    );
    assert_eq!(
        tallied(&mut index, &["entity:porto"], &alone, 70),
        (2, vec![0]),
        "a lapses at 60 now"
    );

    // Into the group, marked again: it leaves Alice's own scope. The last of an id twice
    // in one call counts.
    index
        .upsert(&[
            marked(entry("a", "one", vec![1.0, 0.0], "alice"), &["entity:madrid"], None),
            group(marked(
                entry("a", "one", vec![1.0, 0.0], "alice"),
                &["entity:lisbon"],
                None,
            )),
        ])
        .unwrap();
    assert_eq!(
        tallied(
            &mut index,
            &["entity:lisbon", "entity:porto", "entity:madrid"],
            &alone,
            50
        ),
        (2, vec![1, 0, 0])
    );
    assert_eq!(
        held_ids(&mut index, &["entity:lisbon"], &alice_in(Some("c1")), 50),
        ["a", "b", "d"]
    );

    // Removed entries take their marks: none is left behind for a rowid used again.
    index.remove(&["a".into(), "b".into(), "c".into(), "d".into()]).unwrap();
    let rows: i64 = index
        .raw()
        .query_row("SELECT count(*) FROM marks", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 0);
    assert_eq!(tallied(&mut index, &keys, &alone, 50), (1, vec![0, 0, 0]));
}

/// The count of live entries is kept between tallies, and counted again when it may have
/// changed: an entry lapsed, the clock was set back, this connection wrote, or another
/// one (another process) did.
#[test]
fn the_live_count_is_counted_again_after_a_lapse_a_clock_set_back_or_any_write() {
    let (dir, mut index) = fresh_index(2);
    index
        .upsert(&[
            marked(entry("a", "one", vec![1.0, 0.0], "alice"), &["entity:x"], Some(100)),
            marked(entry("b", "two", vec![0.0, 1.0], "alice"), &["entity:x"], Some(200)),
            entry("c", "three", vec![1.0, 1.0], "alice"),
        ])
        .unwrap();
    let alone = alice_in(None);
    let live = |index: &mut NativeIndex, now: i64| tallied(index, &["entity:x"], &alone, now);
    assert_eq!(live(&mut index, 50), (3, vec![2]));
    assert_eq!(live(&mut index, 99), (3, vec![2]));
    assert_eq!(live(&mut index, 100), (2, vec![1]), "a lapses at 100");
    assert_eq!(live(&mut index, 199), (2, vec![1]));
    assert_eq!(live(&mut index, 200), (1, vec![0]), "b lapses at 200");
    assert_eq!(live(&mut index, 50), (3, vec![2]), "the clock set back");
    index.remove(&["c".to_owned()]).unwrap();
    assert_eq!(live(&mut index, 50), (2, vec![2]), "this connection's removal");
    let mut other = SqliteIndex::new(dir.path().join("i.db"));
    other.upsert(&[entry("d", "four", vec![0.5, 0.5], "alice")]).unwrap();
    assert_eq!(live(&mut index, 50), (3, vec![2]), "another connection's add");
    other
        .set_records(&[Revision {
            id: "d".into(),
            record: "{\"id\":\"d\"}".into(),
            marks: marks_of(&[], Some(60)),
        }])
        .unwrap();
    assert_eq!(live(&mut index, 70), (2, vec![2]), "another connection's new lapse");
}
