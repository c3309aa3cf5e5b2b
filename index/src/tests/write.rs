//! Writes of many entries at once: the tables as the same entries written one at a time
//! would leave them.

use super::*;
use crate::database::Value;

/// Every table's rows, in a fixed order, as text: what two indexes are compared by.
fn tables(index: &mut NativeIndex) -> Vec<String> {
    let conn = index.raw();
    let mut out = Vec::new();
    for sql in [
        "SELECT rowid, id, scope, pending, record, lapses, keys, observed, made FROM items ORDER BY rowid",
        "SELECT key, scope, item, lapses, observed, id FROM marks ORDER BY key, scope, item",
        "SELECT rowid, scope, hex(embedding) FROM vecs ORDER BY rowid",
        "SELECT rowid, content, context FROM fts ORDER BY rowid",
    ] {
        let mut stmt = conn.prepare(sql).unwrap();
        let columns = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                (0..columns)
                    .map(|i| r.get::<_, rusqlite::types::Value>(i).map(|v| format!("{v:?}")))
                    .collect::<Result<Vec<_>, _>>()
            })
            .unwrap();
        for row in rows {
            out.push(format!("{sql}: {}", row.unwrap().join(" | ")));
        }
    }
    // The codes wherever they wait (rows or blocks, which depends on how the writes came).
    for code in crate::code_blocks::all(index.conn().unwrap()).unwrap() {
        out.push(format!("code: {code:?}"));
    }
    out
}

/// Every other entry (by `observed`) with a context, so that a row's two texts are compared.
fn keyed(id: &str, content: &str, v: Option<Vec<f32>>, user: &str, keys: &[&str], observed: i64) -> Entry {
    Entry {
        context: (observed % 2 == 1).then(|| format!("said before {id}")),
        embedding: v,
        marks: Marks {
            observed,
            made: observed,
            ..marks_of(keys, Some(observed + 100))
        },
        ..entry(id, content, vec![], user)
    }
}

#[test]
fn a_batch_leaves_the_tables_as_its_entries_written_one_at_a_time() {
    let (_a, mut batched) = fresh_index(3);
    let (_b, mut single) = fresh_index(3);
    let first: Vec<Entry> = (0..12)
        .map(|i| {
            let user = if i % 3 == 0 { "bob" } else { "alice" };
            keyed(
                &format!("m{i:02}"),
                &format!("walnut {i}"),
                Some(noise(i, 3)),
                user,
                &["p:ann", "e:tea"],
                i as i64,
            )
        })
        .collect();
    batched.upsert(&first).unwrap();
    single.upsert(&first).unwrap();

    let second = vec![
        // New, between updates; one without a vector, one whose vector has no direction.
        keyed("n1", "cashew", Some(noise(40, 3)), "alice", &["p:ann"], 50),
        keyed(
            "m04",
            "walnut again",
            Some(noise(4, 3)),
            "alice",
            &["p:ann", "e:tea"],
            4,
        ),
        keyed("m05", "moved to bob", Some(noise(41, 3)), "bob", &["p:ann"], 60),
        keyed("m06", "now pending", None, "alice", &["e:tea"], 6),
        keyed("n2", "no direction", Some(vec![0.0, 0.0, 0.0]), "alice", &[], 70),
        keyed("m00", "fresh keys", Some(noise(42, 3)), "bob", &["p:cy", "e:rum"], 0),
        // An id twice: the first version is never seen.
        keyed("n3", "almond", Some(noise(43, 3)), "alice", &["p:dee"], 80),
        keyed("m07", "pecan", Some(noise(44, 3)), "alice", &["e:tea"], 7),
        keyed("n3", "hazelnut", Some(noise(45, 3)), "bob", &["p:eve"], 90),
    ];
    batched.upsert(&second).unwrap();
    for e in &second {
        single.upsert(std::slice::from_ref(e)).unwrap();
    }
    assert_eq!(tables(&mut batched), tables(&mut single));

    let revisions = [
        revision(
            "m01",
            r#"{"id":"m01","seen":1}"#,
            marks_of(&["p:ann", "e:tea"], Some(101)),
        ),
        revision("ghost", "{}", marks_of(&["p:ann"], None)),
        revision("m02", r#"{"id":"m02","seen":1}"#, marks_of(&["p:zed"], None)),
        revision("m01", r#"{"id":"m01","seen":2}"#, marks_of(&["e:tea"], Some(5))),
    ];
    batched.set_records(&revisions).unwrap();
    for r in &revisions {
        single.set_records(std::slice::from_ref(r)).unwrap();
    }
    assert_eq!(tables(&mut batched), tables(&mut single));

    let gone: Vec<String> = ["m09", "n3", "ghost", "m02", "n3", "m06"].map(String::from).to_vec();
    batched.remove(&gone).unwrap();
    for id in &gone {
        single.remove(std::slice::from_ref(id)).unwrap();
    }
    let after = tables(&mut batched);
    assert_eq!(after, tables(&mut single));
    assert!(
        !after.iter().any(|row| row.contains("n3") || row.contains("hazelnut")),
        "{after:#?}"
    );
    // The searches read what was written: bob's m05 and m00, not alice's.
    let bob = ScopeFilter {
        user_id: Some("bob".into()),
        ..alice()
    };
    let mut found: Vec<String> = batched
        .knn(&noise(41, 3), 10, &bob)
        .unwrap()
        .into_iter()
        .map(|h| h.id)
        .collect();
    found.sort();
    assert_eq!(found, ["m00", "m03", "m05"]);
}

#[test]
fn parameters_that_do_not_make_whole_rows_are_refused() {
    let (_dir, mut index) = fresh_index(2);
    let db = index.conn().unwrap();
    let three = [Value::Integer(1), Value::Integer(2), Value::Integer(3)];
    let err = db.execute_each("DELETE FROM items WHERE rowid = ?1 AND id = ?2", 2, &three);
    assert!(matches!(err, Err(IndexError::Sql(m)) if m.contains("rows of 2")));
    assert!(db.execute_each("DELETE FROM items WHERE rowid = ?1", 0, &[]).is_err());
    assert_eq!(db.execute_each("DELETE FROM items WHERE rowid = ?1", 1, &[]), Ok(0));
}
