//! A CLI search at a size where the index's first search finds its candidates by coarse
//! codes answers what reading every vector answers, and a term common in another user's
//! memories does not crowd one's own out: through the CLI, the component, the SQLite index
//! and the embedded model.

use serde_json::Value;

use crate::support::ctx::{Ctx, contents, files_only};

/// Alice's memories about kayaks, among 1,500 others; bob has 200 short ones.
const KAYAKS: [&str; 3] = [
    "We took the kayak out on the lake last Saturday morning",
    "My kayak paddle needs a new grip before the summer",
    "The kayak club meets by the north dock on Thursdays",
];

/// A search with `--json` and debug logs: (the answer, stderr).
fn search(ctx: &Ctx, query: &str) -> (Value, String) {
    let out = ctx
        .command()
        .env("ASH_LOG", "debug")
        .args(["--json", "--user", "alice", "search", query])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{query}: {stderr}");
    (serde_json::from_slice(&out.stdout).expect("one JSON document"), stderr)
}

/// Imports `lines` as `user`'s facts.
fn import(ctx: &Ctx, user: &str, name: &str, lines: impl Iterator<Item = String>) {
    let file = ctx.home().join(name);
    std::fs::write(&file, lines.map(|l| l + "\n").collect::<String>()).unwrap();
    ctx.ok(&["--user", user, "import", file.to_str().unwrap()]);
}

#[test]
fn a_first_search_by_codes_answers_as_reading_every_vector_does() {
    if files_only("the coarse codes are the SQLite index's") {
        return;
    }
    // A fixed clock: a search weighs knowledge by how long since it was last recalled, in
    // seconds, so two searches seconds apart differ in the seventh digit (seen under CI's
    // load), and this test compares answers whole.
    let ctx = Ctx::new().env("ASH_NOW", "2026-06-01T12:00:00Z");
    // None of the generated facts replaces another.
    ctx.config("[memory]\nsupersession_threshold = 0.999\n");
    const TOPICS: [&str; 6] = ["garden", "invoice", "piano", "bicycle", "recipe", "flight"];
    const WHEN: [&str; 5] = ["on Monday", "in spring", "after work", "at noon", "last year"];
    import(
        &ctx,
        "alice",
        "alice.txt",
        (0..1_500).map(|i| format!("Note {i} about the {} {}", TOPICS[i % 6], WHEN[i / 6 % 5])),
    );
    import(&ctx, "bob", "bob.txt", (0..200).map(|i| format!("kayak {i}")));
    for kayak in KAYAKS {
        ctx.add("alice", kayak);
    }

    let queries = ["weekend kayak trip", "kayak", "when does the piano note come up?"];
    let mut answers = Vec::new();
    for query in queries {
        // The first search records its accesses, which the index's records then hold.
        search(&ctx, query);
        let (answer, log) = search(&ctx, query);
        assert!(log.contains("by their codes"), "{query}: {log}");
        let found = contents(&answer["hits"]);
        assert!(!found.is_empty(), "{query}");
        assert!(
            found.iter().all(|c| !c.starts_with("kayak ")),
            "{query}: none of bob's: {found:?}"
        );
        if query == "kayak" {
            // Bob's 200 short memories rank first for the word alone.
            assert!(log.contains("other scopes' matches fill"), "{log}");
        }
        if query.contains("kayak") {
            for kayak in KAYAKS {
                assert!(found.contains(&kayak.to_owned()), "{query}: {kayak} in {found:?}");
            }
        }
        answers.push(answer);
    }

    // An add that weighs a candidate searches for candidates again after judging, with
    // nothing written between: the second search is answered by the first.
    let out = ctx
        .command()
        .env("ASH_LOG", "debug")
        .args(["--user", "alice", "add", "Note 7 about the invoice in spring"])
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("judgment: weighed") && log.contains("1 restated or replaced"),
        "a candidate was weighed and found told again: {log}"
    );
    assert_eq!(log.matches("by their codes").count(), 1, "{log}");

    // Without codes, a first search reads every vector of the scope: the same answers.
    let index = rusqlite::Connection::open(ctx.index_path()).unwrap();
    // The codes are kept 64 to a row (`code_blocks`), the newest one a row (`codes`).
    assert!(index.execute("DELETE FROM code_blocks", []).unwrap() >= 20);
    index.execute("DELETE FROM codes", []).unwrap();
    drop(index);
    for (query, answer) in queries.into_iter().zip(answers) {
        let (whole, log) = search(&ctx, query);
        assert!(log.contains("index: streamed"), "{query}: {log}");
        assert_eq!(whole, answer, "{query}");
    }
}

/// An index written before the codes were kept in blocks (all one a row in `codes`, its
/// state under the key of then) is built again at the next call.
#[test]
fn an_index_written_before_the_code_blocks_is_built_again() {
    if files_only("the files backend's index") {
        return;
    }
    let ctx = Ctx::new();
    ctx.add("alice", "I'm allergic to peanuts");
    ctx.add("alice", "My favorite color is blue");
    let index = rusqlite::Connection::open(ctx.index_path()).unwrap();
    index
        .execute_batch(
            "UPDATE meta SET key = 'reflects_made' WHERE key = 'reflects_blocks';
             UPDATE meta SET key = 'reflects_message_codes' WHERE key = 'reflects_message_blocks';
             INSERT INTO code_blocks (scope, block, dimension, data) VALUES ('u:alice', 999, 384, x'00');
             INSERT INTO codes (scope, item, scale, code) VALUES ('u:alice', 99999, 1.0, x'00');",
        )
        .unwrap();
    drop(index);
    assert_eq!(
        ctx.search("alice", "What should I avoid eating?")[0],
        "I'm allergic to peanuts"
    );
    ctx.add("alice", "I live in Lisbon");
    let index = rusqlite::Connection::open(ctx.index_path()).unwrap();
    let count = |sql: &str| -> i64 { index.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT count(*) FROM meta WHERE key = 'reflects_made'"), 0);
    assert_eq!(count("SELECT count(*) FROM meta WHERE key = 'reflects_blocks'"), 1);
    // What the index held is gone (built again): three codes of 384 levels (the
    // transformer), one a row while they are this few.
    assert_eq!(count("SELECT count(*) FROM code_blocks"), 0);
    assert_eq!(count("SELECT count(*) FROM codes WHERE item = 99999"), 0);
    assert_eq!(count("SELECT sum(length(code)) FROM codes"), 3 * 384);
}
