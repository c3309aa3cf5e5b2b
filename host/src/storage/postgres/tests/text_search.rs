//! Full text: the word counts every write keeps, and how they bound a search's work.

use super::*;

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

/// A reply whose context, the turn it answered, holds both words, beside that turn saying
/// them: counted as one text, the reply ranked first (as in the SQLite index's case).
#[test]
fn a_word_the_content_says_outranks_the_same_word_in_a_context() {
    let Some(pg) = pg() else { return };
    let (mut storage, _) = storage(pg, "contexts");
    let reply = Entry {
        context: Some("We adopted a kitten from the shelter".into()),
        ..entry("reply", "alice", "So lovely, a kitten!", None)
    };
    let said = entry(
        "said",
        "alice",
        "We brought the tabby kitten home from the shelter",
        None,
    );
    call(&mut storage, |s| s.upsert(&[reply, said]).expect("upsert"));
    let search = |storage: &mut PgStorage, terms: &[&str]| {
        let terms: Vec<String> = terms.iter().map(|t| t.to_string()).collect();
        call(storage, |s| {
            s.text_search(&terms, 10, &scope("alice")).expect("text search")
        })
        .into_iter()
        .map(|h| h.id)
        .collect::<Vec<_>>()
    };
    assert_eq!(search(&mut storage, &["kitten", "shelter"]), ["said", "reply"]);
    assert_eq!(
        search(&mut storage, &["adopted"]),
        ["reply"],
        "a word only the context holds"
    );
}
