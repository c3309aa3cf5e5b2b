//! Records: fetched with their vectors, following `set-records`.

use super::*;

#[test]
fn records_are_fetched_with_their_vectors_and_follow_set_records() {
    let Some(pg) = pg() else { return };
    let (mut storage, namespace) = storage(pg, "records");
    call(&mut storage, |s| {
        let bare = Entry {
            record: None,
            ..entry("bare", "alice", "written without a record", Some([0.0, 1.0, 0.0]))
        };
        s.upsert(&[
            entry("a", "alice", "lives in Lisbon", Some([1.0, 0.0, 0.0])),
            entry("p", "alice", "no vector yet", None),
            bare,
        ])
        .expect("upsert")
    });
    let (pending, held) = call(&mut storage, |s| {
        let ids = ["p", "nobody", "bare", "a"].map(String::from);
        (s.pending(EntryKind::Memory).unwrap(), s.fetch(&ids).unwrap())
    });
    assert_eq!(pending, 1);
    let got: Vec<(&str, &str, Option<Vec<f32>>)> = held
        .iter()
        .map(|h| (h.id.as_str(), h.record.as_str(), h.embedding.clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("p", r#"{"id":"p"}"#, None),
            ("a", r#"{"id":"a"}"#, Some(vec![1.0, 0.0, 0.0]))
        ],
        "in the order asked; unknown ids and entries without a record left out"
    );

    call(&mut storage, |s| {
        let revision = |id: &str, record: &str| Revision {
            id: id.into(),
            record: record.into(),
            marks: Marks::default(),
        };
        s.set_records(&[revision("a", "accessed"), revision("ghost", "x")])
            .unwrap();
        s.upsert(&[entry("p", "alice", "no vector yet", Some([0.0, 0.0, 1.0]))])
            .unwrap();
        s.remove(&["bare".to_owned()]).unwrap();
    });
    let (pending, held, hits) = call(&mut storage, |s| {
        (
            s.pending(EntryKind::Memory).unwrap(),
            s.fetch(&["a".into(), "ghost".into(), "bare".into()]).unwrap(),
            s.knn(&[1.0, 0.0, 0.0], 1, &scope("alice")).unwrap(),
        )
    });
    assert_eq!(pending, 0, "p has its vector now");
    assert_eq!(held.len(), 1);
    assert_eq!(held[0].record, "accessed");
    assert_eq!(hits[0].id, "a", "a new record changes nothing searched");
    let left = pg.psql(&format!(
        "SELECT string_agg(id, ',' ORDER BY id) FROM ash_{namespace}.records"
    ));
    assert_eq!(left.trim(), "a,p", "removing an entry takes its record");
}
