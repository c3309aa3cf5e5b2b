//! A read transaction (`begin_read` .. `end_read`): what another connection commits after
//! it began is not seen until the next one, by text, by vector or held in memory.

use super::*;

fn ids(hits: Vec<Hit>) -> Vec<String> {
    let mut ids: Vec<String> = hits.into_iter().map(|h| h.id).collect();
    ids.sort();
    ids
}

#[test]
fn a_read_transaction_sees_the_index_as_it_stood() {
    let (dir, mut writer) = fresh_index(2);
    writer
        .upsert(&[entry("a", "jazz in the park", vec![1.0, 0.0], "alice")])
        .unwrap();
    let mut reader = SqliteIndex::new(dir.path().join("i.db"));
    // A long-lived reader: its third search holds the scope's vectors in memory.
    for _ in 0..3 {
        assert_eq!(knn_ids(&mut reader, &[1.0, 0.0], 5), ["a"]);
    }
    reader.begin_read().unwrap();
    writer
        .upsert(&[entry("b", "jazz at the club", vec![0.9, 0.1], "alice")])
        .unwrap();
    writer.remove(&["a".into()]).unwrap();
    assert_eq!(knn_ids(&mut reader, &[1.0, 0.0], 5), ["a"]);
    assert_eq!(texts(&mut reader, "jazz"), ["a"]);
    assert_eq!(reader.count(EntryKind::Memory).unwrap(), 1);
    reader.end_read();
    assert_eq!(knn_ids(&mut reader, &[1.0, 0.0], 5), ["b"]);
    assert_eq!(ids(reader.text_search(&["jazz".into()], 5, &alice()).unwrap()), ["b"]);
    // The next read transaction begins where the index stands then.
    reader.begin_read().unwrap();
    assert_eq!(texts(&mut reader, "club"), ["b"]);
    reader.end_read();
    reader.end_read();
}
