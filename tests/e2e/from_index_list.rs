//! `list` in a new process: the caller's most recent memories come from the index's most
//! recently made entries (`recent`) instead of memories.jsonl, in the order reading the
//! file gives. Through the CLI, the component and the index (SQLite, or Postgres in a
//! Postgres run).

use serde_json::{Value, json};

use crate::from_index::{memories_reads, run_logged};
use crate::support::ctx::{Ctx, contents, files_only};

const LIST_FROM_INDEX: &str = "list: read from the index";

/// Alice: an import of five facts made at one moment, later facts and preferences, one
/// that lapses, one replaced and one deleted; a memory shared in her chat; Bob's, made
/// last.
fn home() -> Ctx {
    let ctx = Ctx::new();
    let facts: Vec<Value> = [
        "I keep bees in the garden",
        "I play the cello on Sundays",
        "I collect old maps of Lisbon",
        "I swim in the sea in winter",
        "I grow tomatoes on the balcony",
    ]
    .iter()
    .map(|f| json!(f))
    .collect();
    let file = ctx.home().join("alice.json");
    std::fs::write(&file, serde_json::to_string(&facts).unwrap()).unwrap();
    ctx.ok(&[
        "--user",
        "alice",
        "--now",
        "2026-05-01T12:00:00Z",
        "import",
        file.to_str().unwrap(),
    ]);
    let at = |now: &str, args: &[&str]| {
        ctx.ok(&[&["--now", now][..], args].concat());
    };
    at(
        "2026-05-02T12:00:00Z",
        &["--user", "alice", "add", "My favorite color is red"],
    );
    at(
        "2026-05-02T13:00:00Z",
        &[
            "--user",
            "alice",
            "add",
            "--type",
            "preference",
            "I prefer aisle seats on trains",
        ],
    );
    at(
        "2026-05-02T14:00:00Z",
        &[
            "--user",
            "alice",
            "add",
            "--expires-days",
            "1",
            "The plumber comes on Tuesday",
        ],
    );
    let doomed = ctx.json(&[
        "--user",
        "alice",
        "--now",
        "2026-05-02T15:00:00Z",
        "add",
        "My locker code is on the blue card",
    ]);
    let doomed = doomed["id"].as_str().expect("an id").to_owned();
    at(
        "2026-05-03T12:00:00Z",
        &[
            "--user",
            "alice",
            "add",
            "--type",
            "preference",
            "I prefer tea to coffee",
        ],
    );
    at("2026-05-03T12:00:00Z", &["--user", "alice", "delete", &doomed]);
    at(
        "2026-05-03T13:00:00Z",
        &[
            "--user",
            "alice",
            "--chat",
            "team",
            "add",
            "--shared",
            "We meet at the harbour cafe",
        ],
    );
    at(
        "2026-05-04T12:00:00Z",
        &["--user", "alice", "add", "My favorite color is blue"],
    );
    for i in 0..3 {
        at(
            "2026-05-05T12:00:00Z",
            &["--user", "bob", "add", &format!("Bob's note number {i}")],
        );
    }
    ctx
}

#[test]
fn a_list_in_a_new_process_reads_the_index_and_answers_as_the_file_does() {
    let ctx = home();
    let now = "2026-05-06T12:00:00Z";
    let asks: [&[&str]; 6] = [
        &["--user", "alice", "list", "--limit", "6"],
        &["--user", "alice", "--chat", "team", "list", "--limit", "3"],
        &["--user", "alice", "list", "--limit", "2", "--type", "preference"],
        &["--user", "alice", "list", "--limit", "50", "--include-expired"],
        &["--user", "alice", "list", "--limit", "50"],
        &["--user", "bob", "list", "--limit", "10"],
    ];
    let at = |args: &[&'static str]| -> Vec<&'static str> { [&["--now", now][..], args].concat() };
    let files = !files_only("the host's file reads are logged, and the index removed, on the files backend");
    let mut from_index = Vec::new();
    for args in asks {
        let (answer, log) = run_logged(&ctx, &at(args));
        assert!(log.contains(LIST_FROM_INDEX), "{args:?}: {log}");
        if files {
            assert_eq!(memories_reads(&log), [0], "{args:?}: only the empty tail: {log}");
        }
        from_index.push(contents(&answer));
    }

    // What they say (not only the same on both paths).
    assert_eq!(
        from_index[0],
        [
            "My favorite color is blue",
            "I prefer tea to coffee",
            "I prefer aisle seats on trains",
            "I grow tomatoes on the balcony",
            "I swim in the sea in winter",
            "I collect old maps of Lisbon",
        ],
        "the replaced, the deleted and the lapsed are left out; an import's moment, last imported first"
    );
    assert_eq!(
        from_index[1],
        [
            "My favorite color is blue",
            "We meet at the harbour cafe",
            "I prefer tea to coffee"
        ]
    );
    assert_eq!(from_index[2], ["My favorite color is blue", "I prefer tea to coffee"]);
    assert!(from_index[3].contains(&"The plumber comes on Tuesday".to_owned()));
    assert_eq!(from_index[3].len(), from_index[4].len() + 1, "only the lapsed one more");
    assert_eq!(
        from_index[4][from_index[4].len() - 1],
        "I keep bees in the garden",
        "the first imported, last"
    );
    assert_eq!(
        from_index[5],
        ["Bob's note number 2", "Bob's note number 1", "Bob's note number 0"]
    );

    // A list with superseded memories, or without a limit, reads the file.
    for args in [
        &["--user", "alice", "list", "--limit", "50", "--include-superseded"][..],
        &["--user", "alice", "list"][..],
    ] {
        let (answer, log) = run_logged(&ctx, &at(args));
        assert!(!log.contains(LIST_FROM_INDEX), "{args:?}: {log}");
        let listed = contents(&answer);
        assert_eq!(
            listed.contains(&"My favorite color is red".to_owned()),
            args.contains(&"--include-superseded"),
            "{args:?}: {listed:?}"
        );
    }

    // Without the index, each reads the whole file, and answers the same.
    if !files {
        return;
    }
    for (args, expected) in asks.iter().zip(&from_index) {
        std::fs::remove_file(ctx.index_path()).ok();
        let (whole, log) = run_logged(&ctx, &at(args));
        assert!(!log.contains(LIST_FROM_INDEX), "{args:?}: {log}");
        assert_eq!(&contents(&whole), expected, "{args:?}");
    }
}
