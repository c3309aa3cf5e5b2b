//! A read transaction (`begin_read` .. `end_read`): what another connection commits after
//! it began is not seen until the next one, by text, by vector or held in memory. A write
//! transaction (`begin_write` .. `commit_write`): its writes stand or go together.

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

/// A write transaction (`begin_write` .. `commit_write` / `roll_back_write`): its writes
/// are seen by its own searches at once and by other connections only once committed, a
/// rollback takes them all back (and what this connection had cached of them), and a
/// write refused inside it leaves the rest standing.
#[test]
fn a_write_transaction_stands_or_goes_whole() {
    let (dir, mut writer) = fresh_index(2);
    writer
        .upsert(&[entry("a", "jazz in the park", vec![1.0, 0.0], "alice")])
        .unwrap();
    let mut other = SqliteIndex::new(dir.path().join("i.db"));
    // Three searches: the writer then holds the scope's vectors in memory.
    for _ in 0..3 {
        assert_eq!(knn_ids(&mut writer, &[1.0, 0.0], 5), ["a"]);
    }

    let temp_store = |index: &mut NativeIndex| -> i64 {
        index
            .db
            .connection()
            .query_row("PRAGMA temp_store", [], |r| r.get(0))
            .unwrap()
    };
    writer.begin_write(WriteSize::Small).unwrap();
    assert!(writer.is_writing());
    assert_eq!(temp_store(&mut writer), 2, "statement journals in memory");
    writer
        .upsert(&[entry("b", "jazz at the club", vec![0.9, 0.1], "alice")])
        .unwrap();
    writer.remove(&["a".into()]).unwrap();
    assert_eq!(knn_ids(&mut writer, &[1.0, 0.0], 5), ["b"], "its own writes");
    assert_eq!(texts(&mut other, "jazz"), ["a"], "not yet another connection's");
    writer.roll_back_write();
    assert!(!writer.is_writing());
    assert_eq!(
        knn_ids(&mut writer, &[1.0, 0.0], 5),
        ["a"],
        "rolled back, cache included"
    );
    assert_eq!(texts(&mut writer, "jazz"), ["a"]);

    writer.begin_write(WriteSize::Small).unwrap();
    writer
        .upsert(&[entry("b", "jazz at the club", vec![0.9, 0.1], "alice")])
        .unwrap();
    // A write refused inside the transaction leaves the rest of it standing.
    let wrong = entry("c", "jazz on the radio", vec![1.0, 0.0, 0.0], "alice");
    assert!(writer.upsert(&[wrong]).is_err());
    writer
        .set_reflects(EntryKind::Memory, FileState { generation: 7, end: 70 })
        .unwrap();
    writer.commit_write().unwrap();
    assert_eq!(temp_store(&mut writer), 0, "a rebuild's sorts in files again");
    assert_eq!(texts(&mut other, "jazz"), ["a", "b"]);
    assert_eq!(
        other.reflects(EntryKind::Memory).unwrap(),
        Some(FileState { generation: 7, end: 70 })
    );
    // Outside a write transaction, each write commits by itself as before.
    writer.remove(&["b".into()]).unwrap();
    assert_eq!(texts(&mut other, "jazz"), ["a"]);
}

/// A write transaction that SQLite ended by itself (a full disk, an I/O error) refuses
/// every write after, which would otherwise commit on its own, until the call's end.
#[test]
fn a_write_transaction_lost_refuses_the_writes_after_it() {
    let (dir, mut writer) = fresh_index(2);
    writer
        .upsert(&[entry("a", "jazz in the park", vec![1.0, 0.0], "alice")])
        .unwrap();
    writer.begin_write(WriteSize::Small).unwrap();
    writer
        .upsert(&[entry("b", "jazz at the club", vec![0.9, 0.1], "alice")])
        .unwrap();
    writer.db.connection().execute_batch("ROLLBACK").unwrap();
    let late = entry("c", "jazz on the radio", vec![0.8, 0.2], "alice");
    assert!(writer.upsert(std::slice::from_ref(&late)).is_err());
    // Refused, not taken for a broken file: a clear does not remove the index.
    let info = IndexInfo {
        model: "m".into(),
        dimension: 2,
    };
    assert!(writer.clear(&info).is_err());
    assert!(dir.path().join("i.db").exists());
    assert!(writer.begin_write(WriteSize::Small).is_ok(), "begun already");
    assert!(writer.commit_write().is_err(), "nothing to commit");
    assert!(!writer.is_writing());
    let mut other = SqliteIndex::new(dir.path().join("i.db"));
    assert_eq!(texts(&mut other, "jazz"), ["a"]);
    writer.upsert(&[late]).unwrap();
    assert_eq!(texts(&mut other, "jazz"), ["a", "c"]);
}

/// A stamp is written inside a write transaction only, seen by others once it commits and
/// gone with a rollback; a reader's snapshot keeps the stamp it began with. A large write
/// leaves SQLite's temporary files where they are.
#[test]
fn a_stamp_is_the_write_transaction_a_snapshot_holds() {
    let (dir, mut writer) = fresh_index(2);
    assert_eq!(writer.stamp().unwrap(), None);
    assert!(writer.set_stamp(1).is_err(), "outside a write transaction");
    writer.begin_write(WriteSize::Any).unwrap();
    let temp_store: i64 = writer
        .db
        .connection()
        .query_row("PRAGMA temp_store", [], |r| r.get(0))
        .unwrap();
    assert_eq!(temp_store, 0, "a large write's sorts stay in files");
    writer.set_stamp(0xfeed).unwrap();
    let mut reader = SqliteIndex::new(dir.path().join("i.db"));
    assert_eq!(reader.stamp().unwrap(), None, "not committed yet");
    writer.commit_write().unwrap();
    reader.begin_read().unwrap();
    assert_eq!(reader.stamp().unwrap(), Some(0xfeed));

    writer.begin_write(WriteSize::Small).unwrap();
    writer.set_stamp(u64::MAX).unwrap();
    writer.commit_write().unwrap();
    assert_eq!(reader.stamp().unwrap(), Some(0xfeed), "the snapshot's");
    reader.end_read();
    assert_eq!(reader.stamp().unwrap(), Some(u64::MAX));

    writer.begin_write(WriteSize::Small).unwrap();
    writer.set_stamp(3).unwrap();
    writer.roll_back_write();
    assert_eq!(reader.stamp().unwrap(), Some(u64::MAX), "rolled back");
}

/// A reader that holds no lock opens only an index file that exists: one a writer has
/// just deleted to make anew is not made by the reader.
#[test]
fn a_read_of_an_existing_index_makes_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut reader = SqliteIndex::new(&path);
    assert!(reader.begin_read_existing().is_err());
    assert!(!path.exists(), "no file made");
    let (dir, mut writer) = fresh_index(2);
    writer
        .upsert(&[entry("a", "jazz in the park", vec![1.0, 0.0], "alice")])
        .unwrap();
    let mut reader = SqliteIndex::new(dir.path().join("i.db"));
    reader.begin_read_existing().unwrap();
    assert_eq!(texts(&mut reader, "jazz"), ["a"]);
    reader.end_read();
}
