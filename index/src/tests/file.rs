//! The file itself: the state it records, and a junk or older file made usable again.

use super::*;
use crate::FileState;

#[test]
fn reflects_is_recorded_and_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let mut index = SqliteIndex::new(dir.path().join("i.db"));
    let info = IndexInfo {
        model: "m".into(),
        dimension: 2,
    };
    index.clear(&info).unwrap();
    assert_eq!(index.reflects(EntryKind::Memory).unwrap(), None);
    let state = FileState {
        generation: u64::MAX,
        end: 1234,
    };
    let messages = FileState { generation: 7, end: 99 };
    index.set_reflects(EntryKind::Memory, state).unwrap();
    index.set_reflects(EntryKind::Message, messages).unwrap();
    assert_eq!(index.reflects(EntryKind::Memory).unwrap(), Some(state));
    assert_eq!(index.reflects(EntryKind::Message).unwrap(), Some(messages));
    index.clear(&info).unwrap();
    assert_eq!(index.reflects(EntryKind::Memory).unwrap(), None);
    assert_eq!(index.reflects(EntryKind::Message).unwrap(), None);
}

#[test]
fn junk_file_is_unavailable_until_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    std::fs::write(&path, vec![0x42u8; 8192]).unwrap();
    let mut index = SqliteIndex::new(&path);
    assert!(matches!(index.info(), Err(IndexError::Unavailable(_))));
    index
        .clear(&IndexInfo {
            model: "m".into(),
            dimension: 3,
        })
        .unwrap();
    assert_eq!(
        index.info().unwrap(),
        Some(IndexInfo {
            model: "m".into(),
            dimension: 3
        })
    );
}

#[test]
fn an_index_of_an_older_version_is_unavailable_until_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let info = IndexInfo {
        model: "m".into(),
        dimension: 2,
    };
    SqliteIndex::new(&path).clear(&info).unwrap();
    {
        // The items table as versions before records made it.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP TABLE items;
             CREATE TABLE items (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL);
             INSERT INTO items (id, scope) VALUES ('old', 'u:alice');",
        )
        .unwrap();
    }
    let mut index = SqliteIndex::new(&path);
    match index.info() {
        Err(IndexError::Unavailable(m)) => assert!(m.contains("older version"), "{m}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
    index.clear(&info).unwrap();

    // The items table as versions with records but before marks made it: rebuilt too, or a
    // search by marks would find nothing its writes left unmarked.
    index
        .raw()
        .execute_batch("DROP INDEX items_scope; ALTER TABLE items DROP COLUMN keys;")
        .unwrap();
    match index.info() {
        Err(IndexError::Unavailable(m)) => assert!(m.contains("older version"), "{m}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
    index.clear(&info).unwrap();

    // The marks table as versions before observed moments made it: rebuilt too, or the
    // newest holders of a key would come out in no order.
    index
        .raw()
        .execute_batch(
            "DROP INDEX marks_newest; ALTER TABLE marks DROP COLUMN observed; ALTER TABLE marks DROP COLUMN id;",
        )
        .unwrap();
    match index.info() {
        Err(IndexError::Unavailable(m)) => assert!(m.contains("older version"), "{m}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
    index.clear(&info).unwrap();

    // The items table as versions before made moments: rebuilt too, or a list would come
    // out in no order.
    index
        .raw()
        .execute_batch("DROP INDEX items_made; ALTER TABLE items DROP COLUMN made;")
        .unwrap();
    match index.info() {
        Err(IndexError::Unavailable(m)) => assert!(m.contains("older version"), "{m}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
    index.clear(&info).unwrap();

    // The full text as versions before contexts were kept apart: one column, in which a
    // reply's context counted as much as its own words.
    index
        .raw()
        .execute_batch("DROP TABLE fts; CREATE VIRTUAL TABLE fts USING fts5 (content, tokenize = 'porter unicode61');")
        .unwrap();
    match index.info() {
        Err(IndexError::Unavailable(m)) => assert!(m.contains("older version"), "{m}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
    index.clear(&info).unwrap();
    assert_eq!(index.info().unwrap(), Some(info));
    index.upsert(&[entry("new", "text", vec![1.0, 0.0], "alice")]).unwrap();
    assert_eq!(index.fetch(&["new".into()]).unwrap().len(), 1);
    assert_eq!(
        index.count(EntryKind::Memory).unwrap(),
        1,
        "the old table's rows went with it"
    );
}

#[test]
fn what_another_connection_makes_of_the_file_is_seen_at_the_next_call() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut mine = SqliteIndex::new(&path);
    let first = IndexInfo {
        model: "m".into(),
        dimension: 2,
    };
    mine.clear(&first).unwrap();
    mine.upsert(&[entry("a", "tea", vec![1.0, 0.0], "alice")]).unwrap();
    assert_eq!(mine.info().unwrap(), Some(first));

    // Another process rebuilds it for another model: the layout this one read is stale.
    let mut theirs = SqliteIndex::new(&path);
    let second = IndexInfo {
        model: "other".into(),
        dimension: 3,
    };
    theirs.clear(&second).unwrap();
    theirs
        .upsert(&[entry("b", "coffee", vec![0.0, 1.0, 0.0], "alice")])
        .unwrap();
    assert_eq!(mine.info().unwrap(), Some(second));
    assert!(matches!(
        mine.upsert(&[entry("c", "juice", vec![1.0, 0.0], "alice")]),
        Err(IndexError::DimensionMismatch((3, 2)))
    ));
    let hits = mine.knn(&[0.0, 1.0, 0.0], 5, &alice()).unwrap();
    assert_eq!(hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["b"]);

    // And a table dropped by another process is found missing.
    theirs.raw().execute_batch("DROP TABLE vecs").unwrap();
    match mine.info() {
        Err(IndexError::Unavailable(m)) => assert!(m.contains("vector table"), "{m}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
}

/// The native database, made to fail once at the first statement that starts with `fail`.
struct FailingOnce {
    inner: NativeSqlite,
    fail: &'static str,
    failed: bool,
}

impl FailingOnce {
    fn check(&mut self, sql: &str) -> Result<(), IndexError> {
        if !self.failed && sql.trim_start().starts_with(self.fail) {
            self.failed = true;
            return Err(IndexError::Sql("database is locked".into()));
        }
        Ok(())
    }
}

impl Database for FailingOnce {
    fn open(&mut self) -> Result<bool, IndexError> {
        self.inner.open()
    }
    fn close(&mut self) {
        self.inner.close()
    }
    fn reset(&mut self) -> Result<(), IndexError> {
        self.inner.reset()
    }
    fn query(
        &mut self,
        sql: &str,
        params: &[database::Value<'_>],
        each: &mut dyn FnMut(&dyn database::Row) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        self.check(sql)?;
        self.inner.query(sql, params, each)
    }
    fn execute(&mut self, sql: &str, params: &[database::Value<'_>]) -> Result<database::Written, IndexError> {
        self.check(sql)?;
        self.inner.execute(sql, params)
    }
    fn batch(&mut self, sql: &str) -> Result<(), IndexError> {
        self.inner.batch(sql)
    }
}

#[test]
fn a_connection_that_failed_a_pragma_is_not_kept_and_a_passing_failure_is_not_remembered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let info = IndexInfo {
        model: "m".into(),
        dimension: 2,
    };
    SqliteIndex::new(&path).clear(&info).unwrap();

    // secure_delete fails once: the connection is closed, and the next call opens a new one
    // that takes every pragma.
    let mut index = SqliteIndex::over(FailingOnce {
        inner: NativeSqlite::new(&path),
        fail: "PRAGMA secure_delete",
        failed: false,
    });
    assert!(index.info().is_err());
    assert_eq!(index.info().unwrap(), Some(info.clone()));
    let secure: i64 = index
        .db
        .inner
        .connection()
        .query_row("PRAGMA secure_delete", [], |r| r.get(0))
        .unwrap();
    assert_eq!(secure, 1);

    // Reading the columns fails once (the file is busy): that is not taken for the file's
    // layout, and the next call reads it again.
    let mut index = SqliteIndex::over(FailingOnce {
        inner: NativeSqlite::new(&path),
        fail: "SELECT (SELECT count(*) FROM pragma_table_info",
        failed: false,
    });
    assert!(matches!(index.info(), Err(IndexError::Sql(_))));
    assert_eq!(index.info().unwrap(), Some(info));
}

#[test]
fn a_new_file_has_pages_of_page_size_and_an_older_one_keeps_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let info = IndexInfo {
        model: "m".into(),
        dimension: 2,
    };
    let page_size = |path: &std::path::Path| -> u32 {
        rusqlite::Connection::open(path)
            .unwrap()
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap()
    };
    let new = dir.path().join("new.db");
    SqliteIndex::new(&new).clear(&info).unwrap();
    assert_eq!(page_size(&new), crate::file::PAGE_SIZE);

    // A file an older version made, with SQLite's 4 KiB pages and a table in it.
    let old = dir.path().join("old.db");
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute_batch("PRAGMA page_size = 4096; CREATE TABLE older (x)")
        .unwrap();
    let mut index = SqliteIndex::new(&old);
    index.clear(&info).unwrap();
    index
        .upsert(&[Entry {
            kind: EntryKind::Memory,
            id: "a".into(),
            content: "kept in a file of small pages".into(),
            context: None,
            embedding: Some(vec![1.0, 0.0]),
            owner_user_id: Some("alice".into()),
            chat_id: None,
            record: None,
            marks: Marks::default(),
        }])
        .unwrap();
    assert_eq!(index.count(EntryKind::Memory).unwrap(), 1);
    drop(index);
    assert_eq!(page_size(&old), 4096);
}
