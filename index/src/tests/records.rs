//! Records: fetched with their vectors, following `set-records`.

use super::*;

#[test]
fn records_are_fetched_with_their_vectors_and_follow_set_records() {
    let (_dir, mut index) = fresh_index(2);
    let pending = Entry {
        embedding: None,
        ..entry("p", "no vector yet", vec![], "alice")
    };
    let bare = Entry {
        record: None,
        ..entry("bare", "written without a record", vec![0.0, 1.0], "alice")
    };
    index
        .upsert(&[entry("a", "lives in Lisbon", vec![1.0, 0.0], "alice"), pending, bare])
        .unwrap();
    assert_eq!(index.pending(EntryKind::Memory).unwrap(), 1);
    assert_eq!(index.pending(EntryKind::Message).unwrap(), 0);

    // In the order asked; unknown ids and entries without a record left out.
    let held = index
        .fetch(&["p".into(), "nobody".into(), "bare".into(), "a".into()])
        .unwrap();
    let got: Vec<(&str, &str, Option<Vec<f32>>)> = held
        .iter()
        .map(|h| (h.id.as_str(), h.record.as_str(), h.embedding.clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("p", r#"{"id":"p"}"#, None),
            ("a", r#"{"id":"a"}"#, Some(vec![1.0, 0.0]))
        ]
    );

    // A new record changes nothing searched; an unknown id is ignored.
    index
        .set_records(&[
            revision("a", "accessed", Marks::default()),
            revision("ghost", "x", Marks::default()),
        ])
        .unwrap();
    assert_eq!(index.fetch(&["a".into()]).unwrap()[0].record, "accessed");
    assert_eq!(index.fetch(&["ghost".into()]).unwrap(), []);
    assert_eq!(index.knn(&[1.0, 0.0], 1, &alice()).unwrap()[0].id, "a");
    assert_eq!(texts(&mut index, "Lisbon"), ["a"]);

    // Getting a vector ends the wait; removing takes the record too.
    index
        .upsert(&[entry("p", "no vector yet", vec![0.5, 0.5], "alice")])
        .unwrap();
    assert_eq!(index.pending(EntryKind::Memory).unwrap(), 0);
    index.remove(&["a".into()]).unwrap();
    assert_eq!(index.fetch(&["a".into()]).unwrap(), []);
}
