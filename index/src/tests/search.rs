//! Searches by vector and by words: kept within their scope and kind, and following
//! every write.

use super::*;

#[test]
fn knn_and_text_search_respect_scope_and_replace_by_id() {
    let dir = tempfile::tempdir().unwrap();
    let mut index = SqliteIndex::new(dir.path().join("i.db"));
    assert_eq!(index.info().unwrap(), None);
    index
        .clear(&IndexInfo {
            model: "m".into(),
            dimension: 2,
        })
        .unwrap();
    index
        .upsert(&[
            entry("a", "peanut allergy", vec![1.0, 0.0], "alice"),
            entry("b", "likes blue", vec![0.0, 1.0], "alice"),
            entry("c", "peanut farmer", vec![1.0, 0.0], "bob"),
        ])
        .unwrap();
    let hits = index.knn(&[1.0, 0.0], 10, &alice()).unwrap();
    assert_eq!(hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    assert!((hits[0].score - 1.0).abs() < 1e-5 && hits[1].score.abs() < 1e-5);
    let text = index.text_search(&["peanuts".into()], 10, &alice()).unwrap();
    assert_eq!(
        text.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(),
        ["a"],
        "stemmed, scoped"
    );
    index.upsert(&[entry("a", "sky", vec![0.0, 1.0], "alice")]).unwrap();
    assert_eq!(index.count(EntryKind::Memory).unwrap(), 3);
    assert!(index.text_search(&["peanut".into()], 10, &alice()).unwrap().is_empty());
    index.remove(&["a".into(), "nope".into()]).unwrap();
    assert_eq!(index.count(EntryKind::Memory).unwrap(), 2);
    assert_eq!(
        index.upsert(&[entry("d", "x", vec![1.0], "alice")]),
        Err(IndexError::DimensionMismatch((2, 1)))
    );
    // Query syntax in terms is quoted, not interpreted.
    assert!(index.text_search(&["\"AND(".into()], 10, &alice()).is_ok());
}

/// A short reply whose context is the turn it answered, beside a long turn that says the
/// word itself: counted as one text, the reply's brevity put it first.
#[test]
fn a_word_the_content_says_outranks_the_same_word_in_a_shorter_context() {
    let (_dir, mut index) = fresh_index(2);
    let said = entry(
        "said",
        "After weeks of visits and forms we finally brought the tabby kitten home from the shelter on Elm Street",
        vec![1.0, 0.0],
        "alice",
    );
    let reply = Entry {
        context: Some("We adopted a kitten!".into()),
        ..entry("reply", "So lovely", vec![0.0, 1.0], "alice")
    };
    index.upsert(&[reply, said]).unwrap();
    let ranked = |index: &mut NativeIndex, term: &str| -> Vec<String> {
        index
            .text_search(&[term.into()], 10, &alice())
            .unwrap()
            .into_iter()
            .map(|h| h.id)
            .collect()
    };
    assert_eq!(
        ranked(&mut index, "kitten"),
        ["said", "reply"],
        "the context still finds it, second"
    );
    assert_eq!(
        ranked(&mut index, "adopted"),
        ["reply"],
        "a word only the context holds"
    );
    assert_eq!(ranked(&mut index, "lovely"), ["reply"]);
}

#[test]
fn full_text_follows_replacements_duplicates_and_removals_in_any_order() {
    let (_dir, mut index) = fresh_index(2);
    let v = || vec![1.0, 0.0];
    index
        .upsert(
            &(0..20)
                .map(|i| entry(&format!("m{i:02}"), "walnut", v(), "alice"))
                .collect::<Vec<_>>(),
        )
        .unwrap();
    // One call: replacements of older rows after a new one (smaller rowids after a larger),
    // and an id twice, whose last text must win.
    index
        .upsert(&[
            entry("new", "cashew", v(), "alice"),
            entry("m15", "cashew", v(), "alice"),
            entry("m03", "pecan", v(), "alice"),
            entry("twice", "almond", v(), "alice"),
            entry("twice", "hazelnut", v(), "alice"),
        ])
        .unwrap();
    assert_eq!(texts(&mut index, "cashew"), ["m15", "new"]);
    assert_eq!(texts(&mut index, "pecan"), ["m03"]);
    assert_eq!(texts(&mut index, "hazelnut"), ["twice"]);
    assert!(texts(&mut index, "almond").is_empty());
    assert_eq!(texts(&mut index, "walnut").len(), 18);
    // Removals out of rowid order, one unknown.
    index
        .remove(&["m19".into(), "m01".into(), "twice".into(), "ghost".into(), "m10".into()])
        .unwrap();
    assert_eq!(texts(&mut index, "walnut").len(), 15);
    assert!(texts(&mut index, "hazelnut").is_empty());
    assert_eq!(index.count(EntryKind::Memory).unwrap(), 18);
    // FTS5's own check of its index against its content.
    let conn = index.raw();
    conn.execute("INSERT INTO fts (fts, rank) VALUES ('integrity-check', 1)", [])
        .unwrap();
}

#[test]
fn vectors_without_direction_never_poison_a_scope() {
    let (_dir, mut index) = fresh_index(2);
    index
        .upsert(&[
            entry("zero", "smiley", vec![0.0, 0.0], "alice"),
            entry("nan", "broken", vec![f32::NAN, 1.0], "alice"),
            entry("a", "peanut allergy", vec![1.0, 0.0], "alice"),
        ])
        .unwrap();
    let hits = index.knn(&[1.0, 0.0], 5000, &alice()).unwrap();
    assert_eq!(hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["a"]);
    assert!(index.knn(&[0.0, 0.0], 10, &alice()).unwrap().is_empty());
    assert_eq!(
        index.text_search(&["smiley".into()], 10, &alice()).unwrap()[0].id,
        "zero",
        "still found by its words"
    );
    // A zero vector that an older version stored directly answers a NULL distance.
    let conn = index.raw();
    conn.execute("INSERT INTO items (id, scope) VALUES ('old', 'u:alice')", [])
        .unwrap();
    let rowid = conn.last_insert_rowid();
    conn.execute(
        "INSERT INTO vecs (rowid, scope, embedding) VALUES (?1, 'u:alice', ?2)",
        params![rowid, f32_bytes(&[0.0, 0.0])],
    )
    .unwrap();
    let hits = index.knn(&[1.0, 0.0], 10, &alice()).unwrap();
    assert_eq!(hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["a"]);
}

#[test]
fn memories_and_messages_of_one_user_never_meet() {
    let (_dir, mut index) = fresh_index(2);
    let message = Entry {
        kind: EntryKind::Message,
        ..entry("msg", "peanuts were mentioned", vec![1.0, 0.0], "alice")
    };
    index
        .upsert(&[entry("mem", "allergic to peanuts", vec![1.0, 0.0], "alice"), message])
        .unwrap();
    let messages = ScopeFilter {
        kind: EntryKind::Message,
        ..alice()
    };
    let ids = |hits: Vec<Hit>| hits.into_iter().map(|h| h.id).collect::<Vec<_>>();
    assert_eq!(ids(index.knn(&[1.0, 0.0], 10, &alice()).unwrap()), ["mem"]);
    assert_eq!(ids(index.knn(&[1.0, 0.0], 10, &messages).unwrap()), ["msg"]);
    let peanuts = ["peanuts".to_owned()];
    assert_eq!(ids(index.text_search(&peanuts, 10, &alice()).unwrap()), ["mem"]);
    assert_eq!(ids(index.text_search(&peanuts, 10, &messages).unwrap()), ["msg"]);
    assert_eq!(index.count(EntryKind::Memory).unwrap(), 1);
    assert_eq!(index.count(EntryKind::Message).unwrap(), 1);
}
