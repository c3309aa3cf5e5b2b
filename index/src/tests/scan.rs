//! How `knn` reads a scope (by codes, streamed, or in memory): always what sqlite-vec's
//! own knn finds, through writes by this connection and by others.

use super::*;

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
    let check = |index: &mut NativeIndex, round: u64| {
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
fn chunk_slots(index: &mut NativeIndex) -> Vec<i64> {
    let conn = index.raw();
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
                .raw()
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
        // The same hits with the same scores, to the bit, as sqlite-vec's own knn: an index
        // of an older layout, searched that way, scores the same.
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
        let conn = index.raw();
        conn.query_row("SELECT count(*) FROM items WHERE scope = 'u:alice'", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap() as u64
    });
}
