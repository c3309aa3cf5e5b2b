//! The index against a real SQLite file with sqlite-vec.

use rusqlite::params;

use super::*;
use crate::files::FileState;

mod newest;
mod one_shot;
mod recent;

fn entry(id: &str, content: &str, v: Vec<f32>, user: &str) -> Entry {
    Entry {
        kind: EntryKind::Memory,
        id: id.into(),
        content: content.into(),
        embedding: Some(v),
        owner_user_id: Some(user.into()),
        chat_id: None,
        record: Some(format!("{{\"id\":\"{id}\"}}")),
        marks: Marks::default(),
    }
}

/// An entry with these marks.
fn marked(e: Entry, keys: &[&str], lapses: Option<i64>) -> Entry {
    Entry {
        marks: marks_of(keys, lapses),
        ..e
    }
}

fn marks_of(keys: &[&str], lapses: Option<i64>) -> Marks {
    Marks {
        keys: keys.iter().map(|k| k.to_string()).collect(),
        lapses,
        observed: 0,
        made: 0,
    }
}

fn revision(id: &str, record: &str, marks: Marks) -> Revision {
    Revision {
        id: id.into(),
        record: record.into(),
        marks,
    }
}

/// An empty index for model "m" at this dimension, in a folder kept while it lives.
fn fresh_index(dimension: u32) -> (tempfile::TempDir, SqliteIndex) {
    let dir = tempfile::tempdir().unwrap();
    let mut index = SqliteIndex::new(dir.path().join("i.db"));
    index
        .clear(&IndexInfo {
            model: "m".into(),
            dimension,
        })
        .unwrap();
    (dir, index)
}

fn alice() -> ScopeFilter {
    ScopeFilter {
        kind: EntryKind::Memory,
        user_id: Some("alice".into()),
        chat_id: None,
    }
}

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

/// The ids whose text matches `term` for alice, sorted.
fn texts(index: &mut SqliteIndex, term: &str) -> Vec<String> {
    let mut ids: Vec<String> = index
        .text_search(&[term.into()], 50, &alice())
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect();
    ids.sort();
    ids
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
    let conn = index.conn().unwrap();
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
    let conn = index.conn().unwrap();
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

/// A deterministic pseudo-random vector (xorshift), so that the test needs no crate.
fn noise(seed: u64, dimension: usize) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..dimension)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

/// The ids `knn` finds for alice, best first.
fn knn_ids(index: &mut SqliteIndex, query: &[f32], k: u32) -> Vec<String> {
    index
        .knn(query, k, &alice())
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect()
}

/// sqlite-vec's own exact knn over the stored vectors, the reference the scan must match.
fn sqlite_vec_knn(index: &mut SqliteIndex, query: &[f32], k: u32, key: &str) -> Vec<String> {
    let conn = index.conn().unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT items.id FROM
               (SELECT rowid, distance FROM vecs WHERE embedding MATCH ?1 AND k = ?2 AND scope = ?3) v
             JOIN items ON items.rowid = v.rowid ORDER BY v.distance",
        )
        .unwrap();
    stmt.query_map(params![f32_bytes(query), k, key], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// sqlite-vec's knn as (id, score), scored as `SqliteIndex::sqlite_vec_knn` scores it.
fn sqlite_vec_scores(index: &mut SqliteIndex, query: &[f32], k: u32, key: &str) -> Vec<(String, f32)> {
    let conn = index.conn().unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT items.id, v.distance FROM
               (SELECT rowid, distance FROM vecs WHERE embedding MATCH ?1 AND k = ?2 AND scope = ?3) v
             JOIN items ON items.rowid = v.rowid ORDER BY v.distance",
        )
        .unwrap();
    stmt.query_map(params![f32_bytes(query), k, key], |r| {
        Ok((r.get(0)?, 1.0 - r.get::<_, f64>(1)? as f32))
    })
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

#[test]
fn the_scan_finds_what_sqlite_vec_finds_through_upserts_and_removes() {
    let (_dir, mut index) = fresh_index(24);
    let batch = |from: u64, to: u64| -> Vec<Entry> {
        (from..to)
            .map(|i| {
                entry(
                    &format!("m{i}"),
                    "x",
                    noise(i, 24),
                    if i % 3 == 0 { "bob" } else { "alice" },
                )
            })
            .collect()
    };
    index.upsert(&batch(0, 300)).unwrap();
    let check = |index: &mut SqliteIndex, round: u64| {
        for q in 0..20 {
            let query = noise(10_000 + round * 100 + q, 24);
            assert_eq!(
                knn_ids(index, &query, 10),
                sqlite_vec_knn(index, &query, 10, "u:alice"),
                "round {round}, query {q}"
            );
        }
    };
    check(&mut index, 0);
    // Now cached: new, replaced, moved to another scope and removed vectors must follow.
    index.upsert(&batch(300, 350)).unwrap();
    index
        .upsert(&[
            entry("m1", "x", noise(77_777, 24), "alice"),
            entry("m2", "x", noise(2, 24), "bob"),
        ])
        .unwrap();
    index
        .remove(&(0..300).step_by(7).map(|i| format!("m{i}")).collect::<Vec<_>>())
        .unwrap();
    check(&mut index, 1);
    let all = index.knn(&noise(5, 24), MAX_K, &alice()).unwrap();
    assert!(
        all.iter().all(|h| h.id != "m2" && h.id != "m7"),
        "moved and removed ids are gone"
    );
}

#[test]
fn another_connections_writes_are_seen_by_the_next_search() {
    let (dir, mut index) = fresh_index(2);
    index.upsert(&[entry("a", "x", vec![1.0, 0.0], "alice")]).unwrap();
    assert_eq!(index.knn(&[0.0, 1.0], 5, &alice()).unwrap()[0].id, "a");
    // A second process's index on the same file (the CLI beside a server).
    let mut other = SqliteIndex::new(dir.path().join("i.db"));
    other.upsert(&[entry("b", "x", vec![0.0, 1.0], "alice")]).unwrap();
    assert_eq!(index.knn(&[0.0, 1.0], 5, &alice()).unwrap()[0].id, "b");
    other.remove(&["b".into()]).unwrap();
    let ids: Vec<String> = index
        .knn(&[0.0, 1.0], 5, &alice())
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect();
    assert_eq!(ids, ["a"]);
    // And a clear by the other one empties what this one finds.
    other
        .clear(&IndexInfo {
            model: "m".into(),
            dimension: 2,
        })
        .unwrap();
    assert!(index.knn(&[0.0, 1.0], 5, &alice()).unwrap().is_empty());
}

#[test]
fn a_scope_is_loaded_into_memory_at_its_third_search_only() {
    let (_dir, mut index) = fresh_index(2);
    index
        .upsert(&[
            entry("a", "x", vec![1.0, 0.0], "alice"),
            entry("b", "x", vec![0.6, 0.8], "alice"),
        ])
        .unwrap();
    let first = index.knn(&[1.0, 0.0], 5, &alice()).unwrap();
    // Another query: the same one again is answered by the last search (see `one_shot`).
    index.knn(&[0.9, 0.1], 5, &alice()).unwrap();
    assert!(
        index.vectors.is_empty(),
        "two searches stream the chunks, nothing loaded"
    );
    let second = index.knn(&[1.0, 0.0], 5, &alice()).unwrap();
    assert!(index.vectors.contains_key("u:alice"));
    assert_eq!(first.iter().map(|h| &h.id).collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(second.iter().map(|h| &h.id).collect::<Vec<_>>(), ["a", "b"]);
    for (x, y) in first.iter().zip(&second) {
        assert!((x.score - y.score).abs() < 1e-6, "{first:?} / {second:?}");
    }
}

/// The slots of each of the index's vector chunks, as sqlite-vec recorded them.
fn chunk_slots(index: &mut SqliteIndex) -> Vec<i64> {
    let conn = index.conn().unwrap();
    let mut stmt = conn.prepare("SELECT DISTINCT size FROM vecs_chunks").unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

#[test]
fn reading_whole_chunks_gives_what_reading_row_by_row_gives() {
    // The index's own chunks, and sqlite-vec's default ones, which an index created
    // before `VECTOR_CHUNK_SLOTS` still has.
    for slots in [None, Some(1024)] {
        let (_dir, mut index) = fresh_index(8);
        if let Some(slots) = slots {
            index
                .conn()
                .unwrap()
                .execute_batch(&format!(
                    "DROP TABLE vecs; CREATE VIRTUAL TABLE vecs USING vec0 (
                         scope TEXT PARTITION KEY, embedding FLOAT[8] distance_metric=cosine, chunk_size = {slots})"
                ))
                .unwrap();
        }
        // Over two chunks of either size for alice, interleaved with bob's (his own
        // partition), then holes: removed entries and entries moved to another scope.
        let entries: Vec<Entry> = (0..2600)
            .map(|n| {
                let user = if n % 5 == 0 { "bob" } else { "alice" };
                entry(&format!("m{n}"), "x", noise(n, 8), user)
            })
            .collect();
        index.upsert(&entries).unwrap();
        let gone: Vec<String> = (0..2600).step_by(7).map(|n| format!("m{n}")).collect();
        index.remove(&gone).unwrap();
        let moved: Vec<Entry> = (1..2600)
            .step_by(11)
            .map(|n| entry(&format!("m{n}"), "x", noise(n + 9000, 8), "bob"))
            .collect();
        index.upsert(&moved).unwrap();
        assert_eq!(
            chunk_slots(&mut index),
            [i64::from(slots.unwrap_or(VECTOR_CHUNK_SLOTS))]
        );

        for key in ["u:alice", "u:bob"] {
            let by_row = index.load_scope_by_row(key, 8).unwrap();
            let from_chunks = index
                .load_scope_from_chunks(key, 8)
                .unwrap()
                .expect("sqlite-vec's chunks in the layout `chunks` reads");
            assert!(by_row.len() > 400, "{key}: {}", by_row.len());
            assert_eq!(from_chunks, by_row, "{key} with {slots:?} slots");
        }
    }
}

#[test]
fn a_first_search_streams_the_chunks_and_finds_what_sqlite_vec_finds() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut writer = SqliteIndex::new(dir.path().join("i.db"));
        writer
            .clear(&IndexInfo {
                model: "m".into(),
                dimension: 24,
            })
            .unwrap();
        // Three chunks for alice with holes, beside bob's partition; stored vectors of
        // other lengths than one, a replaced one and one moved to bob.
        let entries: Vec<Entry> = (0..420)
            .map(|n| {
                let user = if n % 4 == 0 { "bob" } else { "alice" };
                let scale = 1.0 + (n % 5) as f32;
                let v = noise(n, 24).into_iter().map(|x| x * scale).collect();
                entry(&format!("m{n}"), "x", v, user)
            })
            .collect();
        writer.upsert(&entries).unwrap();
        writer
            .remove(&(1..420).step_by(9).map(|n| format!("m{n}")).collect::<Vec<_>>())
            .unwrap();
        writer
            .upsert(&[
                entry("m2", "x", noise(5_000, 24), "alice"),
                entry("m3", "x", noise(3, 24), "bob"),
            ])
            .unwrap();
    }
    // A process that searches once: a new connection, nothing in memory.
    let mut index = SqliteIndex::new(dir.path().join("i.db"));
    for q in 0..12 {
        let query = noise(20_000 + q, 24);
        let streamed = index
            .streamed_knn(&query, 10, "u:alice", 24)
            .unwrap()
            .expect("the chunks are in the layout `chunks` reads");
        // The same hits with the same scores, to the bit: a home reads the same in the
        // JavaScript and Python hosts, whose searches are sqlite-vec's.
        let got: Vec<(String, f32)> = streamed.iter().map(|h| (h.id.clone(), h.score)).collect();
        assert_eq!(got, sqlite_vec_scores(&mut index, &query, 10, "u:alice"), "query {q}");
        let ids: Vec<String> = streamed.iter().map(|h| h.id.clone()).collect();
        assert!(
            !ids.iter().any(|id| id == "m3" || id == "m10"),
            "moved and removed: {ids:?}"
        );
        // And `knn`, whose first two searches of a scope are this scan.
        if q < 2 {
            assert_eq!(knn_ids(&mut index, &query, 10), ids);
            assert!(index.vectors.is_empty());
        }
    }
    // A k above what the scope holds gives all of it, each once.
    let all = index
        .streamed_knn(&noise(1, 24), MAX_K, "u:alice", 24)
        .unwrap()
        .unwrap();
    let mut ids: Vec<&str> = all.iter().map(|h| h.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len());
    assert_eq!(all.len() as u64, {
        let conn = index.conn().unwrap();
        conn.query_row("SELECT count(*) FROM items WHERE scope = 'u:alice'", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap() as u64
    });
}

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
        let conn = Connection::open(&path).unwrap();
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
        .conn()
        .unwrap()
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
        .conn()
        .unwrap()
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
        .conn()
        .unwrap()
        .execute_batch("DROP INDEX items_made; ALTER TABLE items DROP COLUMN made;")
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

/// Alice alone, or Alice in chat `c1`.
fn alice_in(chat: Option<&str>) -> ScopeFilter {
    ScopeFilter {
        chat_id: chat.map(String::from),
        ..alice()
    }
}

fn held_ids(index: &mut SqliteIndex, keys: &[&str], scope: &ScopeFilter, now: i64) -> Vec<String> {
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
    ids.sort();
    ids
}

fn tallied(index: &mut SqliteIndex, keys: &[&str], scope: &ScopeFilter, now: i64) -> (u64, Vec<u64>) {
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
    let before = index.conn().unwrap().total_changes();
    index
        .set_records(&[revision(
            "a",
            r#"{"id":"a"}"#,
            marks_of(&["subject:ana", "entity:lisbon"], None),
        )])
        .unwrap();
    assert_eq!(
        index.conn().unwrap().total_changes() - before,
        1,
        "the marks rows untouched"
    );
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
        .conn()
        .unwrap()
        .query_row("SELECT count(*) FROM marks", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 0);
    assert_eq!(tallied(&mut index, &keys, &alone, 50), (1, vec![0, 0, 0]));
}
