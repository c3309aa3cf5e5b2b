//! What a process that searches once reads: vectors found by their coarse codes, and full
//! text ranked before its scopes are looked up.

use super::*;
use crate::knn::STREAMED_PER_FETCHED;

/// An index at `dir` written as a long-lived host would: alice's scope past the size where
/// a first search goes by codes (`STREAMED_PER_FETCHED` times the candidates of a k of 10),
/// bob's beside it, then removals, replacements and moves between them.
fn written(dir: &std::path::Path) {
    let mut writer = SqliteIndex::new(dir.join("i.db"));
    writer
        .clear(&IndexInfo {
            model: "m".into(),
            dimension: 24,
        })
        .unwrap();
    let entries: Vec<Entry> = (0..2_000)
        .map(|n| {
            let user = if n % 5 == 0 { "bob" } else { "alice" };
            // Lengths other than one: a code scales by its own largest component.
            let scale = 0.5 + (n % 7) as f32;
            let v = noise(n, 24).into_iter().map(|x| x * scale).collect();
            entry(&format!("m{n}"), "x", v, user)
        })
        .collect();
    writer.upsert(&entries).unwrap();
    writer
        .remove(&(1..2_000).step_by(13).map(|n| format!("m{n}")).collect::<Vec<_>>())
        .unwrap();
    writer
        .upsert(&[
            entry("m2", "x", noise(50_000, 24), "alice"),
            entry("m3", "x", noise(3, 24), "bob"),
            entry("m4", "x", vec![0.0; 24], "alice"),
        ])
        .unwrap();
    // One id twice in one call: its last scope and vector count.
    writer
        .upsert(&[
            entry("m6", "x", noise(60_000, 24), "alice"),
            entry("m6", "x", noise(60_001, 24), "bob"),
        ])
        .unwrap();
}

/// (scope, rowid) pairs, in order.
type Placed = Vec<(String, i64)>;

/// Every (scope, rowid) with a code, and every one with a vector.
fn coded_and_stored(index: &mut NativeIndex) -> (Placed, Placed) {
    let coded = crate::code_blocks::all(index.conn().unwrap())
        .unwrap()
        .into_iter()
        .map(|(scope, item, _, _)| (scope, item))
        .collect();
    let conn = index.raw();
    let mut stmt = conn
        .prepare("SELECT items.scope, items.rowid FROM items JOIN vecs ON vecs.rowid = items.rowid ORDER BY 1, 2")
        .unwrap();
    let stored = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    (coded, stored)
}

#[test]
fn codes_follow_every_write_and_a_first_search_by_them_finds_what_sqlite_vec_finds() {
    let dir = tempfile::tempdir().unwrap();
    written(dir.path());
    let mut index = SqliteIndex::new(dir.path().join("i.db"));
    let (coded, stored) = coded_and_stored(&mut index);
    assert!(coded.len() > 1_500, "{}", coded.len());
    assert_eq!(coded, stored, "one code for each stored vector, in its scope");

    let alice_codes = coded.iter().filter(|(scope, _)| scope == "u:alice").count();
    assert!(
        alice_codes >= coarse::candidates(10) * STREAMED_PER_FETCHED,
        "{alice_codes}"
    );
    for q in 0..16 {
        let query = noise(20_000 + q, 24);
        // A process that searches once: a new connection, nothing in memory.
        let mut once = SqliteIndex::new(dir.path().join("i.db"));
        let found: Vec<(String, f32)> = once
            .knn(&query, 10, &alice())
            .unwrap()
            .into_iter()
            .map(|h| (h.id, h.score))
            .collect();
        assert!(once.vectors.is_empty());
        // The same hits with the same scores, to the bit: the codes choose which vectors
        // are scored, and those are scored as sqlite-vec scores them.
        assert_eq!(found, sqlite_vec_scores(&mut once, &query, 10, "u:alice"), "query {q}");
    }
    index
        .clear(&IndexInfo {
            model: "m".into(),
            dimension: 24,
        })
        .unwrap();
    assert_eq!(coded_and_stored(&mut index), (vec![], vec![]), "cleared");
}

#[test]
fn a_first_search_reads_the_codes_and_a_third_the_vectors() {
    let dir = tempfile::tempdir().unwrap();
    written(dir.path());
    let query = noise(70_000, 24);
    let mut index = SqliteIndex::new(dir.path().join("i.db"));
    let exact = sqlite_vec_knn(&mut index, &query, 10, "u:alice");
    // Take the best match's code away: only a search that goes by codes misses it.
    let best = &exact[0];
    let rowid: i64 = index
        .raw()
        .query_row("SELECT rowid FROM items WHERE id = ?1", [best], |r| r.get(0))
        .unwrap();
    crate::code_blocks::change(index.conn().unwrap(), &[("u:alice", rowid)], &[]).unwrap();
    let mut once = SqliteIndex::new(dir.path().join("i.db"));
    let first = knn_ids(&mut once, &query, 10);
    assert!(!first.contains(best), "{best} in {first:?}");
    assert_eq!(first[..9], exact[1..], "the rest as they were");
    knn_ids(&mut once, &noise(70_001, 24), 10);
    assert_eq!(knn_ids(&mut once, &query, 10), exact, "loaded: every vector scanned");
}

#[test]
fn the_same_search_again_is_answered_by_the_last_until_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    written(dir.path());
    let query = noise(70_000, 24);
    let mut index = SqliteIndex::new(dir.path().join("i.db"));
    let first = index.knn(&query, 10, &alice()).unwrap();
    // Behind the index's back, on its own connection (which moves no data_version): only
    // a search that reads sees the best gone.
    index
        .raw()
        .execute("DELETE FROM items WHERE id = ?1", [&first[0].id])
        .unwrap();
    index
        .raw()
        .execute_batch("DELETE FROM code_blocks; DELETE FROM codes")
        .unwrap();
    let again = index.knn(&query, 10, &alice()).unwrap();
    assert_eq!(again, first, "answered by the last search");
    assert_eq!(index.searched["u:alice"], 1, "and not counted as a search that read");
    // Another k reads again: the chunks streamed, the best's vector found without its item.
    let other = index.knn(&query, 9, &alice()).unwrap();
    assert_eq!(other[..], first[1..9], "another k: read again");
    let ids = |hits: &[Hit]| hits.iter().map(|h| h.id.clone()).collect::<Vec<_>>();
    let loaded = knn_ids(&mut index, &query, 10);
    assert!(index.vectors.contains_key("u:alice"), "the third: loaded");
    assert_eq!(loaded[..9], ids(&first)[1..]);
    // A write drops the last answer: the new vector, the query itself, comes first.
    index.upsert(&[entry("new", "x", query.clone(), "alice")]).unwrap();
    assert_eq!(knn_ids(&mut index, &query, 10)[0], "new");
    // So does another connection's.
    let mut writer = SqliteIndex::new(dir.path().join("i.db"));
    writer.remove(&["new".into()]).unwrap();
    assert_eq!(knn_ids(&mut index, &query, 10)[0], first[1].id);
}

#[test]
fn a_small_scope_is_streamed_whole_however_its_codes_stand() {
    let (_dir, mut index) = fresh_index(24);
    let entries: Vec<Entry> = (0..300)
        .map(|n| entry(&format!("m{n}"), "x", noise(n, 24), "alice"))
        .collect();
    index.upsert(&entries).unwrap();
    index
        .raw()
        .execute_batch("DELETE FROM code_blocks; DELETE FROM codes")
        .unwrap();
    let query = noise(9, 24);
    assert_eq!(
        knn_ids(&mut index, &query, 10),
        sqlite_vec_knn(&mut index, &query, 10, "u:alice"),
        "fewer vectors than it pays to fetch one by one: the chunks are read"
    );
}

/// The ids `text_search` finds for alice, best first.
fn alice_texts(index: &mut NativeIndex, term: &str, k: u32) -> Vec<String> {
    index
        .text_search(&[term.into()], k, &alice())
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn full_text_ranks_every_scope_first_and_joins_when_others_crowd_this_one_out() {
    let (_dir, mut index) = fresh_index(2);
    // Bob's short memories rank above alice's longer ones for "peanuts"; equal ones tie.
    let mut entries: Vec<Entry> = (0..100)
        .map(|n| entry(&format!("b{n}"), "peanuts", vec![1.0, 0.0], "bob"))
        .collect();
    for (id, content) in [
        ("a1", "peanuts are on the list of things I avoid"),
        ("a2", "no peanuts"),
        ("a3", "peanuts again, and more words after them to make it long"),
        ("t0", "cashews"),
        ("t1", "cashews"),
        ("t2", "cashews"),
    ] {
        entries.push(entry(id, content, vec![0.0, 1.0], "alice"));
    }
    index.upsert(&entries).unwrap();
    // A hundred of bob's matches rank first: alice's come from the join.
    assert_eq!(alice_texts(&mut index, "peanuts", 10), ["a2", "a1", "a3"]);
    assert_eq!(alice_texts(&mut index, "peanuts", 2), ["a2", "a1"]);
    // Only alice's match: found on the first page. Equal scores in rowid order.
    assert_eq!(alice_texts(&mut index, "cashews", 10), ["t0", "t1", "t2"]);
    assert_eq!(alice_texts(&mut index, "cashews", 2), ["t0", "t1"]);
    let bob = ScopeFilter {
        user_id: Some("bob".into()),
        ..alice()
    };
    let bobs = index.text_search(&["peanuts".into()], 70, &bob).unwrap();
    let expected: Vec<String> = (0..70).map(|n| format!("b{n}")).collect();
    assert_eq!(bobs.iter().map(|h| h.id.clone()).collect::<Vec<_>>(), expected);
    assert!(index.text_search(&["peanuts".into()], 0, &bob).unwrap().is_empty());
}

#[test]
fn codes_wait_in_rows_and_are_packed_into_blocks() {
    use crate::code_blocks::{BLOCK_BITS, PACK_AT, all, change, read};
    let (block, full) = (1i64 << BLOCK_BITS, PACK_AT);
    assert_eq!(full, 2 * block);
    let (_dir, mut index) = fresh_index(24);
    let db = index.conn().unwrap();
    let count = |db: &mut dyn crate::database::Database, sql: &str| crate::database::count(db, sql, &[]).unwrap();
    let tables = |db: &mut dyn crate::database::Database| {
        (
            count(db, "SELECT count(*) FROM codes"),
            count(db, "SELECT count(*) FROM code_blocks"),
        )
    };
    let levels: Vec<[u8; 3]> = (0..8 * block).map(|n| [n as u8; 3]).collect();
    let code = |item: i64| ("u:a", item, item as f64, &levels[item as usize][..]);
    // One short of `full` codes of one scope, in two calls: they wait as rows.
    change(db, &[], &(1..40).map(code).collect::<Vec<_>>()).unwrap();
    change(db, &[], &(40..full).map(code).collect::<Vec<_>>()).unwrap();
    assert_eq!(tables(db), (full - 1, 0));
    // The next packs every block but the newest (from item `full`, still filling): blocks
    // 0 (1 to block - 1) and 1, in item order; item `full` stays a row.
    change(db, &[], &[code(full)]).unwrap();
    assert_eq!(tables(db), (1, 2));
    let everything = all(db).unwrap();
    assert_eq!(
        everything.iter().map(|c| c.1).collect::<Vec<_>>(),
        (1..=full).collect::<Vec<_>>()
    );
    assert_eq!(everything[9], ("u:a".into(), 10, 10.0, levels[10].to_vec()));
    // Another scope's codes are its own; a search reads blocks and rows, of its dimension.
    change(
        db,
        &[],
        &[
            ("u:b", full + 1, 0.5, &[9, 9, 9]),
            ("u:a", full + 2, 0.5, &[1, 2, 3, 4]),
        ],
    )
    .unwrap();
    let mut read_a = Vec::new();
    read(db, "u:a", 3, &mut |item, _, _| read_a.push(item)).unwrap();
    read_a.sort_unstable();
    assert_eq!(read_a, (1..=full).collect::<Vec<_>>());
    // Erased from a block and from the rows, and a packed one written again (as `upsert`
    // does it: its old code erased in the same change).
    change(
        db,
        &[("u:a", 10), ("u:a", full), ("u:a", 20)],
        &[("u:a", 20, 2.0, &[7, 7, 7])],
    )
    .unwrap();
    let now = all(db).unwrap();
    let a: Vec<i64> = now
        .iter()
        .filter(|c| c.0 == "u:a" && c.3.len() == 3)
        .map(|c| c.1)
        .collect();
    assert!(
        !a.contains(&10) && !a.contains(&full) && a.len() as i64 == full - 2,
        "{a:?}"
    );
    // Item 20, a row now, goes back into its block when the rows fill again: one copy, the
    // new one, in item order; the code of another dimension stays a row.
    let more: Vec<_> = (3 * block..3 * block + full).map(code).collect();
    change(db, &[], &more).unwrap();
    let packed = all(db).unwrap();
    let twenties: Vec<_> = packed.iter().filter(|c| c.0 == "u:a" && c.1 == 20).collect();
    assert_eq!(twenties, [&("u:a".to_owned(), 20, 2.0, vec![7, 7, 7])]);
    assert_eq!(count(db, "SELECT count(*) FROM codes WHERE item = 20"), 0, "packed");
    assert_eq!(
        count(db, &format!("SELECT count(*) FROM codes WHERE item = {}", full + 2)),
        1
    );
    let mut in_block_0 = Vec::new();
    db.query(
        "SELECT data FROM code_blocks WHERE scope = 'u:a' AND block = 0",
        &[],
        &mut |r| {
            let items = r.blob(0)?.chunks_exact(19);
            in_block_0.extend(items.map(|e| i64::from_le_bytes(e[..8].try_into().unwrap())));
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(in_block_0, (1..block).filter(|n| *n != 10).collect::<Vec<_>>());
    let now = all(db).unwrap();
    // Erasing everything leaves no block behind.
    let gone: Vec<(&str, i64)> = now.iter().map(|c| (c.0.as_str(), c.1)).collect();
    change(db, &gone, &[]).unwrap();
    assert_eq!(
        (
            count(db, "SELECT count(*) FROM codes"),
            count(db, "SELECT count(*) FROM code_blocks")
        ),
        (0, 0)
    );
}
