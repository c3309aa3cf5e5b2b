//! The index on a real Postgres (the test harness's, from `tests/support`): what the
//! module promises beyond what the e2e suite can see through the component, namely the
//! word counts kept by every write and the bound on a full-text search's work.

use ash_memory_test_support::postgres::{self, PgServer};

use super::PgStorage;
use super::text_search::RECENT;
use crate::index::{Entry, EntryKind, IndexInfo, Marks, Revision, ScopeFilter};
use crate::storage::Storage;

fn pg() -> Option<&'static PgServer> {
    postgres::server()
}

/// A storage on a fresh namespace with an empty index of 3 dimensions.
fn storage(pg: &PgServer, prefix: &str) -> (PgStorage, String) {
    let namespace = pg.namespace(prefix);
    let mut storage = PgStorage::connect(&pg.url(), &namespace).expect("connect");
    storage.begin().expect("begin");
    storage
        .clear(&IndexInfo {
            model: "test".into(),
            dimension: 3,
        })
        .expect("clear");
    storage.commit().expect("commit");
    (storage, namespace)
}

fn entry(id: &str, user: &str, content: &str, embedding: Option<[f32; 3]>) -> Entry {
    Entry {
        kind: EntryKind::Memory,
        id: id.into(),
        content: content.into(),
        embedding: embedding.map(|v| v.to_vec()),
        owner_user_id: Some(user.into()),
        chat_id: None,
        record: Some(format!("{{\"id\":\"{id}\"}}")),
        marks: Marks::default(),
    }
}

fn scope(user: &str) -> ScopeFilter {
    ScopeFilter {
        kind: EntryKind::Memory,
        user_id: Some(user.into()),
        chat_id: None,
    }
}

/// Runs `f` in one call's transaction and commits it.
fn call<T>(storage: &mut PgStorage, f: impl FnOnce(&mut PgStorage) -> T) -> T {
    storage.begin().expect("begin");
    let out = f(storage);
    storage.commit().expect("commit");
    out
}

/// Lines of `lexeme n` where `lexemes` disagrees with a count made from `entries` now.
fn miscounted_words(pg: &PgServer, namespace: &str) -> String {
    pg.psql(&format!(
        "SET search_path TO ash_{namespace};
         SELECT coalesce(k.lexeme, r.lexeme), k.n, r.n
         FROM (SELECT lexeme, n FROM lexemes WHERE n <> 0) k
         FULL JOIN (SELECT lexeme, count(*) AS n FROM entries, unnest(tsvector_to_array(tsv)) lexeme
                    GROUP BY lexeme) r USING (lexeme)
         WHERE k.n IS DISTINCT FROM r.n"
    ))
}

#[test]
fn word_counts_and_vectors_follow_every_write() {
    let Some(pg) = pg() else { return };
    let (mut storage, namespace) = storage(pg, "words");
    call(&mut storage, |s| {
        s.upsert(&[
            entry("a", "alice", "Sarah likes olives", Some([1.0, 0.0, 0.0])),
            entry("b", "alice", "Sarah booked a trip", Some([0.0, 1.0, 0.0])),
            entry("c", "bob", "olives and capers", None),
        ])
        .expect("upsert");
    });
    call(&mut storage, |s| {
        // b replaced (new words, no vector), c given a vector, the same id twice in a batch.
        s.upsert(&[
            entry("b", "alice", "Sarah cancelled the trip", None),
            entry("c", "bob", "olives, capers and anchovies", Some([0.0, 0.0, 1.0])),
            entry("d", "alice", "first words", None),
            entry("d", "alice", "second words", Some([1.0, 1.0, 0.0])),
        ])
        .expect("upsert");
    });
    call(&mut storage, |s| {
        s.remove(&["a".to_owned(), "nope".to_owned()]).expect("remove")
    });

    assert_eq!(miscounted_words(pg, &namespace), "", "lexemes agrees with entries");
    let counts = pg.psql(&format!(
        "SELECT (SELECT string_agg(id, ',' ORDER BY id) FROM ash_{namespace}.vectors),
                (SELECT n FROM ash_{namespace}.lexemes WHERE lexeme = 'oliv'),
                (SELECT coalesce(sum(n), 0) FROM ash_{namespace}.lexemes WHERE lexeme = 'first')"
    ));
    assert_eq!(
        counts.trim(),
        "c,d|1|0",
        "vectors of c and d only; one olive left; no 'first'"
    );
    let hits = call(&mut storage, |s| {
        s.knn(&[0.0, 0.0, 1.0], 5, &scope("bob")).expect("knn")
    });
    assert_eq!(hits.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["c"]);
}

#[test]
fn a_rare_word_finds_old_entries_and_a_common_one_reads_only_recent_ones() {
    let Some(pg) = pg() else { return };
    let (mut storage, namespace) = storage(pg, "rare");
    // Alice: more entries than a common word is looked for in, all naming Sarah; the
    // oldest also says "quinoa". Bob: a few, inside the bound.
    let many = RECENT as usize + 200;
    let mut entries: Vec<Entry> = (0..many)
        .map(|i| entry(&format!("a{i:05}"), "alice", &format!("Sarah mentioned item {i}"), None))
        .collect();
    entries[0].content = "Sarah mentioned quinoa salad".into();
    entries.extend((0..30).map(|i| entry(&format!("b{i:05}"), "bob", &format!("Sarah called about {i}"), None)));
    call(&mut storage, |s| s.upsert(&entries).expect("upsert"));
    assert_eq!(miscounted_words(pg, &namespace), "");

    let search = |storage: &mut PgStorage, terms: &[&str], k: u32, user: &str| {
        let terms: Vec<String> = terms.iter().map(|t| t.to_string()).collect();
        call(storage, |s| {
            s.text_search(&terms, k, &scope(user)).expect("text search")
        })
        .into_iter()
        .map(|h| h.id)
        .collect::<Vec<_>>()
    };

    // "quinoa" is rare: its one match is found however old, and ranks first because it
    // also names Sarah.
    let hits = search(&mut storage, &["sarah", "quinoa"], 10, "alice");
    assert_eq!(hits.len(), 10);
    assert_eq!(hits[0], "a00000", "the oldest entry, found by its rare word: {hits:?}");

    // "sarah" is common (over `RARE` entries in the namespace): only Alice's newest
    // `RECENT` entries are read, and all of them match.
    let hits = search(&mut storage, &["sarah"], 4096, "alice");
    assert_eq!(hits.len(), RECENT as usize);
    let oldest_read = format!("a{:05}", many - RECENT as usize);
    assert!(
        hits.iter().all(|id| *id >= oldest_read),
        "only recent entries: {hits:?}"
    );

    // Bob's scope is within the bound: every match, as an exact search gives them.
    let hits = search(&mut storage, &["sarah"], 4096, "bob");
    assert_eq!(hits.len(), 30);
    let hits = search(&mut storage, &["called", "quinoa"], 4096, "bob");
    assert_eq!(hits.len(), 30, "Alice's quinoa stays in her scope");
}

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

/// Marks are counted and fetched within the scope, live at the moment asked, and follow
/// every write, as on SQLite (`index::tests`, the same case).
#[test]
fn marks_count_and_fetch_the_live_holders_of_a_scope_and_follow_every_write() {
    let Some(pg) = pg() else { return };
    let (mut storage, namespace) = storage(pg, "marks");
    let marked = |e: Entry, keys: &[&str], lapses: Option<i64>| Entry {
        marks: Marks {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            lapses,
            observed: 0,
            made: 0,
        },
        ..e
    };
    let group = |e: Entry| Entry {
        chat_id: Some("c1".into()),
        ..e
    };
    let alone = scope("alice");
    let in_chat = ScopeFilter {
        chat_id: Some("c1".into()),
        ..scope("alice")
    };
    let strings = |keys: &[&str]| keys.iter().map(|k| k.to_string()).collect::<Vec<_>>();
    let tallied = |s: &mut PgStorage, keys: &[&str], scope: &ScopeFilter, now: i64| {
        let c = s.tally(&strings(keys), scope, now).unwrap();
        (c.live, c.holding)
    };
    let held = |s: &mut PgStorage, keys: &[&str], scope: &ScopeFilter, now: i64| {
        let mut ids: Vec<String> = s
            .holding(&strings(keys), scope, now)
            .unwrap()
            .into_iter()
            .map(|h| h.id)
            .collect();
        ids.sort();
        ids
    };
    let keys = ["entity:lisbon", "subject:ana", "entity:nowhere"];
    call(&mut storage, |s| {
        s.upsert(&[
            marked(
                entry("a", "alice", "one", Some([1.0, 0.0, 0.0])),
                &["subject:ana", "entity:lisbon"],
                None,
            ),
            marked(
                entry("b", "alice", "two", Some([0.0, 1.0, 0.0])),
                &["entity:lisbon"],
                Some(100),
            ),
            marked(
                entry("c", "bob", "three", Some([0.0, 0.0, 1.0])),
                &["subject:ana", "entity:lisbon"],
                None,
            ),
            group(marked(entry("d", "alice", "four", None), &["entity:lisbon"], None)),
            entry("e", "alice", "five", None),
        ])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(tallied(s, &keys, &alone, 50), (3, vec![2, 1, 0]));
        assert_eq!(tallied(s, &keys, &alone, 100), (2, vec![1, 1, 0]), "b lapses at 100");
        assert_eq!(tallied(s, &keys, &in_chat, 50), (4, vec![3, 1, 0]));
        assert_eq!(held(s, &["entity:lisbon"], &alone, 50), ["a", "b"]);
        assert_eq!(held(s, &["entity:lisbon"], &alone, 100), ["a"]);
        assert_eq!(
            held(s, &["subject:ana", "entity:lisbon"], &alone, 50),
            ["a", "b"],
            "each once"
        );
        assert_eq!(held(s, &["subject:ana"], &in_chat, 50), ["a"], "never Bob's");
        let a = s.holding(&strings(&["subject:ana"]), &alone, 50).unwrap();
        assert_eq!(a[0].embedding, Some(vec![1.0, 0.0, 0.0]), "with its vector");
        let messages = ScopeFilter {
            kind: EntryKind::Message,
            ..scope("alice")
        };
        assert_eq!(
            tallied(s, &keys, &messages, 50),
            (0, vec![0, 0, 0]),
            "messages have no marks"
        );
    });
    // Written again with the same marks (an access, a replay): they stay, not rewritten.
    let versions = || {
        pg.psql(&format!(
            "SET search_path TO ash_{namespace}; SELECT key, id, xmin FROM marks ORDER BY key, id"
        ))
    };
    let before = versions();
    call(&mut storage, |s| {
        s.set_records(&[Revision {
            id: "a".into(),
            record: r#"{"id":"a"}"#.into(),
            marks: Marks {
                keys: strings(&["subject:ana", "entity:lisbon"]),
                lapses: None,
                observed: 0,
                made: 0,
            },
        }])
        .unwrap();
        s.upsert(&[marked(
            entry("b", "alice", "two", Some([0.0, 1.0, 0.0])),
            &["entity:lisbon"],
            Some(100),
        )])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(tallied(s, &keys, &alone, 50), (3, vec![2, 1, 0]));
        assert_eq!(held(s, &["entity:lisbon"], &alone, 50), ["a", "b"]);
    });
    assert!(before.contains("entity:lisbon"), "{before}");
    assert_eq!(versions(), before, "the same rows, not new versions of them");
    // The same key with a later expiry: the kept row takes it.
    call(&mut storage, |s| {
        s.upsert(&[marked(
            entry("b", "alice", "two", Some([0.0, 1.0, 0.0])),
            &["entity:lisbon"],
            Some(120),
        )])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(
            held(s, &["entity:lisbon"], &alone, 110),
            ["a", "b"],
            "b lapses at 120 now"
        );
    });
    call(&mut storage, |s| {
        s.set_records(&[Revision {
            id: "a".into(),
            record: r#"{"id":"a"}"#.into(),
            marks: Marks {
                keys: strings(&["entity:porto"]),
                lapses: Some(60),
                observed: 0,
                made: 0,
            },
        }])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(
            tallied(s, &["entity:lisbon", "entity:porto", "subject:ana"], &alone, 50),
            (3, vec![1, 1, 0])
        );
        assert_eq!(
            tallied(s, &["entity:porto"], &alone, 70),
            (2, vec![0]),
            "a lapses at 60 now"
        );
        s.upsert(&[
            marked(
                entry("a", "alice", "one", Some([1.0, 0.0, 0.0])),
                &["entity:madrid"],
                None,
            ),
            group(marked(
                entry("a", "alice", "one", Some([1.0, 0.0, 0.0])),
                &["entity:lisbon"],
                None,
            )),
        ])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(
            tallied(s, &["entity:lisbon", "entity:porto", "entity:madrid"], &alone, 50),
            (2, vec![1, 0, 0])
        );
        assert_eq!(held(s, &["entity:lisbon"], &in_chat, 50), ["a", "b", "d"]);
        s.remove(&strings(&["a", "b", "c", "d"])).unwrap();
    });
    let left = pg.psql(&format!("SELECT count(*) FROM ash_{namespace}.marks"));
    assert_eq!(left.trim(), "0", "removed entries take their marks");
}

/// `newest` as on SQLite (`index::tests::newest`, the same case): by observed moment then
/// id in byte order, within the scope, live only, following set-records, upserts, moves
/// and removals.
#[test]
fn the_newest_holders_of_a_key_come_by_moment_then_id_within_the_scope_and_follow_every_write() {
    let Some(pg) = pg() else { return };
    let (mut storage, _namespace) = storage(pg, "newest");
    const KEY: &str = "profile:preference";
    let at = |e: Entry, keys: &[&str], observed: i64, lapses: Option<i64>| Entry {
        marks: Marks {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            lapses,
            observed,
            made: 0,
        },
        ..e
    };
    let group = |e: Entry| Entry {
        chat_id: Some("c1".into()),
        ..e
    };
    let alone = scope("alice");
    let in_chat = ScopeFilter {
        chat_id: Some("c1".into()),
        ..scope("alice")
    };
    let newest = |s: &mut PgStorage, keys: &[&str], scope: &ScopeFilter, now: i64, limit: u32| {
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        s.newest(&keys, scope, now, limit)
            .unwrap()
            .into_iter()
            .map(|list| {
                list.into_iter()
                    .map(|h| {
                        assert_eq!(h.record, format!("{{\"id\":\"{}\"}}", h.id));
                        h.id
                    })
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    let ids = |lists: &[&[&str]]| -> Vec<Vec<String>> {
        lists
            .iter()
            .map(|l| l.iter().map(|s| s.to_string()).collect())
            .collect()
    };
    call(&mut storage, |s| {
        s.upsert(&[
            at(entry("c", "alice", "three", Some([1.0, 0.0, 0.0])), &[KEY], 200, None),
            at(
                entry("a", "alice", "one", Some([1.0, 0.0, 0.0])),
                &[KEY, "entity:x"],
                300,
                None,
            ),
            at(entry("b", "alice", "two", Some([0.0, 1.0, 0.0])), &[KEY], 200, None),
            // Before "b" by byte, after it by most collations.
            at(entry("B", "alice", "two too", Some([1.0, 0.0, 0.0])), &[KEY], 200, None),
            group(at(
                entry("C", "alice", "three too", Some([1.0, 0.0, 0.0])),
                &[KEY],
                200,
                None,
            )),
            group(at(
                entry("d", "alice", "four", Some([1.0, 1.0, 0.0])),
                &[KEY],
                250,
                None,
            )),
            at(entry("e", "bob", "five", Some([1.0, 0.0, 0.0])), &[KEY], 400, None),
            at(
                entry("f", "alice", "six", Some([1.0, 0.0, 0.0])),
                &[KEY],
                500,
                Some(100),
            ),
            at(
                entry("g", "alice", "seven", Some([1.0, 0.0, 0.0])),
                &["reflection"],
                350,
                None,
            ),
            at(entry("h", "alice", "eight", None), &[KEY], 100, None),
        ])
        .unwrap();
    });
    let keys = [KEY, "reflection", "entity:nowhere"];
    call(&mut storage, |s| {
        assert_eq!(
            newest(s, &keys, &alone, 150, 10),
            ids(&[&["a", "B", "b", "c", "h"], &["g"], &[]])
        );
        assert_eq!(
            newest(s, &keys, &in_chat, 150, 10),
            ids(&[&["a", "d", "B", "C", "b", "c", "h"], &["g"], &[]])
        );
        assert_eq!(newest(s, &keys, &in_chat, 150, 2), ids(&[&["a", "d"], &["g"], &[]]));
        assert_eq!(newest(s, &keys, &alone, 50, 2), ids(&[&["f", "a"], &["g"], &[]]));
        assert_eq!(newest(s, &keys, &alone, 150, 0), ids(&[&[], &[], &[]]));
        let held = s.newest(&[KEY.into()], &alone, 150, 10).unwrap();
        assert_eq!(held[0][0].embedding, Some(vec![1.0, 0.0, 0.0]));
        assert_eq!(held[0][4].embedding, None, "h waits for its vector");
    });
    call(&mut storage, |s| {
        s.set_records(&[Revision {
            id: "c".into(),
            record: r#"{"id":"c"}"#.into(),
            marks: Marks {
                keys: vec![KEY.into()],
                lapses: None,
                observed: 600,
                made: 0,
            },
        }])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(newest(s, &[KEY], &alone, 150, 2), ids(&[&["c", "a"]]));
        s.upsert(&[at(entry("b", "alice", "two", Some([0.0, 1.0, 0.0])), &[KEY], 700, None)])
            .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(newest(s, &[KEY], &alone, 150, 2), ids(&[&["b", "c"]]));
        s.upsert(&[at(entry("b", "bob", "two", Some([0.0, 1.0, 0.0])), &[KEY], 700, None)])
            .unwrap();
        s.remove(&["a".into()]).unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(newest(s, &[KEY], &alone, 150, 10), ids(&[&["c", "B", "h"]]));
        assert_eq!(newest(s, &[KEY], &scope("bob"), 150, 10), ids(&[&["b", "e"]]));
    });
}

/// `recent` on Postgres: the case of the SQLite index's `recent` test.
#[test]
fn recent_lists_the_most_recently_made_equal_moments_latest_indexed_first() {
    let Some(pg) = pg() else { return };
    let (mut storage, _namespace) = storage(pg, "recent");
    // Observed in the reverse order, so that ordering by the wrong moment fails.
    let made = |e: Entry, made: i64, lapses: Option<i64>| Entry {
        marks: Marks {
            keys: Vec::new(),
            lapses,
            observed: 1000 - made,
            made,
        },
        ..e
    };
    let group = |e: Entry| Entry {
        chat_id: Some("c1".into()),
        ..e
    };
    let alone = scope("alice");
    let in_chat = ScopeFilter {
        chat_id: Some("c1".into()),
        ..scope("alice")
    };
    let recent = |s: &mut PgStorage, scope: &ScopeFilter, now: Option<i64>, limit: u32| -> Vec<String> {
        s.recent(scope, now, limit)
            .unwrap()
            .into_iter()
            .map(|h| {
                assert_eq!(h.record, format!("{{\"id\":\"{}\"}}", h.id));
                h.id
            })
            .collect()
    };
    let mut unkept = entry("h", "alice", "eight", Some([0.0, 1.0, 0.0]));
    unkept.record = None;
    let b = made(entry("b", "alice", "two", Some([0.0, 1.0, 0.0])), 200, None);
    let c = made(entry("c", "alice", "three", Some([1.0, 0.0, 0.0])), 200, None);
    call(&mut storage, |s| {
        s.upsert(&[
            b.clone(),
            made(entry("a", "alice", "one", Some([1.0, 0.0, 0.0])), 100, None),
            c.clone(),
            made(entry("e", "alice", "five", Some([1.0, 1.0, 0.0])), 200, None),
            made(entry("d", "alice", "four", Some([1.0, 0.5, 0.0])), 300, Some(150)),
            group(made(entry("f", "alice", "six", Some([1.0, 0.0, 0.0])), 250, None)),
            group(made(entry("g", "alice", "seven", Some([1.0, 0.0, 0.0])), 200, None)),
            made(unkept, 400, None),
            made(entry("i", "bob", "nine", Some([1.0, 0.0, 0.0])), 500, None),
        ])
        .unwrap();
        // Written again, b keeps its place; removed and written again, c is indexed last.
        s.upsert(&[b]).unwrap();
        s.remove(&["c".into()]).unwrap();
        s.upsert(&[c]).unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(recent(s, &alone, None, 10), ["d", "c", "e", "b", "a"]);
        assert_eq!(
            recent(s, &alone, Some(200), 10),
            ["c", "e", "b", "a"],
            "d lapsed at 150"
        );
        assert_eq!(recent(s, &in_chat, None, 10), ["d", "f", "c", "g", "e", "b", "a"]);
        assert_eq!(recent(s, &in_chat, None, 2), ["d", "f"]);
        assert!(recent(s, &in_chat, None, 0).is_empty());
        assert_eq!(recent(s, &scope("bob"), None, 10), ["i"]);
        let held = s.recent(&alone, None, 1).unwrap();
        assert_eq!(held[0].embedding, Some(vec![1.0, 0.5, 0.0]));
        s.set_records(&[Revision {
            id: "a".into(),
            record: r#"{"id":"a"}"#.into(),
            marks: Marks {
                keys: Vec::new(),
                lapses: None,
                observed: 0,
                made: 600,
            },
        }])
        .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(recent(s, &alone, None, 2), ["a", "d"]);
        s.upsert(&[made(entry("e", "bob", "five", Some([1.0, 1.0, 0.0])), 200, None)])
            .unwrap();
    });
    call(&mut storage, |s| {
        assert_eq!(recent(s, &alone, None, 10), ["a", "d", "c", "b"]);
        assert_eq!(recent(s, &scope("bob"), None, 10), ["i", "e"]);
    });
}
