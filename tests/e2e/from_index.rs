//! A search in a new process answers from the index's records, without reading
//! memories.jsonl, and answers what reading it would: through the CLI, the component, the
//! index (SQLite, or Postgres in a Postgres run) and the embedded model.

use std::io::Write;

use serde_json::Value;

use crate::support::ctx::{Ctx, contents, files_only};

const NOTES: [&str; 4] = [
    "I live in Porto near the river",
    "I prefer dark mode in every editor",
    "The standup is at 9:30 every weekday",
    "I run about 20 kilometres every week",
];

pub(crate) const FROM_INDEX: &str = "search: answered from the index";

/// A search with debug logs: (the JSON answer, stderr).
fn search_logged(ctx: &Ctx, user: &str, query: &str) -> (Value, String) {
    run_logged(ctx, &["--user", user, "search", query])
}

/// A command with `--json` and debug logs: (the JSON answer, stderr).
pub(crate) fn run_logged(ctx: &Ctx, args: &[&str]) -> (Value, String) {
    let out = ctx
        .command()
        .env("ASH_LOG", "debug")
        .arg("--json")
        .args(args)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    let answer = serde_json::from_slice(&out.stdout).expect("one JSON document");
    (answer, stderr)
}

/// The sizes of the reads of memories.jsonl the host logged.
pub(crate) fn memories_reads(stderr: &str) -> Vec<u64> {
    stderr
        .lines()
        .filter(|l| l.contains("bytes of memories.jsonl"))
        .filter_map(|l| l.split("files: read ").nth(1)?.split(' ').next()?.parse().ok())
        .collect()
}

fn home() -> Ctx {
    // A fixed clock: the tests compare answers whole, scores included, and a search weighs
    // knowledge by the seconds since it was last recalled (`one_shot` failed so under load).
    let ctx = Ctx::new().env("ASH_NOW", "2026-06-01T12:00:00Z");
    for note in NOTES {
        ctx.add("alice", note);
    }
    ctx.add("bob", "Bob lives in Porto as well");
    ctx
}

#[test]
fn a_search_in_a_new_process_reads_the_index_not_the_file_and_answers_the_same() {
    let ctx = home();
    // The first search records its accesses, which the index's records then hold.
    let (first, log) = search_logged(&ctx, "alice", "Where do I live?");
    assert!(log.contains(FROM_INDEX), "{log}");
    assert_eq!(contents(&first["hits"])[0], NOTES[0]);
    let (again, log) = search_logged(&ctx, "alice", "Where do I live?");
    assert!(log.contains(FROM_INDEX), "{log}");
    assert!(
        contents(&again["hits"]).iter().all(|c| !c.starts_with("Bob")),
        "Bob's memory never reaches Alice: {again}"
    );
    if files_only("the host's file reads are logged by the files backend") {
        return;
    }
    assert_eq!(memories_reads(&log), [0], "only the empty tail: {log}");

    // Without the index, the search reads the whole file to rebuild it, and answers the
    // same: hits, scores, similarities, accesses and all.
    std::fs::remove_file(ctx.index_path()).unwrap();
    let (whole, log) = search_logged(&ctx, "alice", "Where do I live?");
    assert!(!log.contains(FROM_INDEX), "{log}");
    assert!(memories_reads(&log).iter().any(|&n| n > 0), "{log}");
    assert_eq!(whole, again);
}

#[test]
fn a_deleted_memory_never_comes_back_from_the_index() {
    let ctx = home();
    let porto = ctx.json(&["--user", "alice", "search", "Where do I live?"])["hits"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ctx.ok(&["--user", "alice", "delete", &porto]);
    let (after, log) = search_logged(&ctx, "alice", "Where do I live?");
    assert!(log.contains(FROM_INDEX), "{log}");
    assert!(!contents(&after["hits"]).contains(&NOTES[0].to_owned()), "{after}");
}

#[test]
fn a_line_the_index_has_not_seen_is_read_and_found() {
    if files_only("writes memories.jsonl by hand") {
        return;
    }
    let ctx = home();
    // A process that wrote its line and died before the index heard of it.
    let lines = ctx.memory_lines();
    let mut line = lines[0].clone();
    line["id"] = "0f0e0d0c-0b0a-4908-8706-050403020100".into();
    line["content"] = "I live by the sea in a blue house".into();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(ctx.memories_path())
        .unwrap();
    writeln!(file, "{line}").unwrap();
    drop(file);

    let (found, log) = search_logged(&ctx, "alice", "Do I live by the sea?");
    assert!(!log.contains(FROM_INDEX), "{log}");
    assert!(
        contents(&found["hits"]).contains(&"I live by the sea in a blue house".to_owned()),
        "{found}"
    );
    // Replayed into the index: the next search reads it from there.
    let (again, log) = search_logged(&ctx, "alice", "Do I live by the sea?");
    assert!(log.contains(FROM_INDEX), "{log}");
    assert_eq!(contents(&again["hits"]), contents(&found["hits"]));
}

/// A search about a person (named, by relation, or `--about`) or naming an entity, in a
/// new process, fetches the memories it needs by the index's marks and answers what reading
/// the whole file answers; a merge moves the marks with the memories.
#[test]
fn a_search_about_a_person_or_an_entity_fetches_by_marks_and_answers_as_the_file_does() {
    let ctx = home();
    // Fifty memories nearer the query below than any of Ana's, so that a search finds hers
    // only by their marks; none replaces another.
    ctx.config("[memory]\nsupersession_threshold = 0.999\n");
    let fillers: String = (0..50)
        .map(|i| format!("Colleague number {i} works near the office in district {i}\n"))
        .collect();
    let file = ctx.home().join("colleagues.txt");
    std::fs::write(&file, fillers).unwrap();
    ctx.ok(&["--user", "alice", "import", file.to_str().unwrap()]);
    let about = |content: &str, subject: &str| {
        ctx.ok(&["--user", "alice", "add", content, "--subject", subject]);
    };
    about("My sister Ana lives in Braga", "Ana");
    about("Ana plays the cello on Sundays", "Ana");
    about("Cello lessons twice a week", "Ana");
    about("Annie sails every summer", "Annie");
    ctx.ok(&["--user", "alice", "people", "add", "Ana", "--relation", "sister"]);
    ctx.add("alice", "The menu is at https://example.com/menu for the party");
    ctx.ok(&[
        "--user",
        "bob",
        "add",
        "My cousin Ana lives in Faro",
        "--subject",
        "Ana",
    ]);
    // Annie turns out to be Ana: her memory is Ana's now, by its marks too.
    ctx.ok(&["--user", "alice", "people", "merge", "Ana", "Annie"]);
    let on_postgres = files_only("the file reads and the index file are the files backend's");

    for args in [
        vec!["search", "Where does Ana live?"],
        vec!["search", "What does my sister do?"],
        vec!["search", "office district", "--about", "Ana"],
        vec!["search", "Where is https://example.com/menu?"],
    ] {
        let args: Vec<&str> = ["--user", "alice"].into_iter().chain(args).collect();
        // The first search records its accesses, which the index's records then hold.
        run_logged(&ctx, &args);
        let (answer, log) = run_logged(&ctx, &args);
        assert!(log.contains(FROM_INDEX), "{args:?}: {log}");
        let fetched: usize = log
            .lines()
            .find_map(|l| l.split("search: fetched ").nth(1)?.split(' ').next()?.parse().ok())
            .unwrap_or(0);
        assert!(fetched > 0, "{args:?} fetched by marks: {log}");
        let found = contents(&answer["hits"]);
        assert!(
            !found.iter().any(|c| c.contains("Faro") || c.starts_with("Bob")),
            "{args:?}: {found:?}"
        );
        if on_postgres {
            continue;
        }
        assert_eq!(memories_reads(&log), [0], "{args:?}: only the empty tail: {log}");

        // Without the index, the same search reads the whole file, and answers the same.
        std::fs::remove_file(ctx.index_path()).unwrap();
        let (whole, log) = run_logged(&ctx, &args);
        assert!(!log.contains(FROM_INDEX), "{log}");
        assert_eq!(whole, answer, "{args:?}");
    }
    let (ana, _) = search_logged(&ctx, "alice", "Where does Ana live?");
    assert_eq!(contents(&ana["hits"])[0], "My sister Ana lives in Braga", "{ana}");
    // Hers only, the nearer colleagues left out, Annie's memory among them since the merge.
    let (hers, log) = run_logged(
        &ctx,
        &["--user", "alice", "search", "office district", "--about", "Ana"],
    );
    assert!(log.contains(FROM_INDEX), "{log}");
    let hers = contents(&hers["hits"]);
    for expected in [
        "Cello lessons twice a week",
        "Annie sails every summer",
        "My sister Ana lives in Braga",
    ] {
        assert!(hers.contains(&expected.to_owned()), "{expected}: {hers:?}");
    }
    assert!(
        hers.iter().all(|c| !c.contains("Colleague")),
        "about Ana only: {hers:?}"
    );
    let (menu, _) = search_logged(&ctx, "alice", "Where is https://example.com/menu?");
    assert!(contents(&menu["hits"])[0].contains("example.com/menu"), "{menu}");
}

#[test]
fn an_add_in_a_new_process_reads_only_its_candidates_and_supersedes() {
    let ctx = home();
    let red = ctx.add("alice", "My favorite color is red");
    let (added, log) = run_logged(&ctx, &["--user", "alice", "add", "My favorite color is blue"]);
    assert!(log.contains("add: read from the index"), "{log}");
    assert_eq!(added["superseded"][0]["id"], red.as_str(), "{added}");
    if !files_only("the host's file reads are logged by the files backend") {
        // The tail, read again after the verdict: still empty.
        assert_eq!(memories_reads(&log), [0, 0], "only the empty tail: {log}");
    }
    let (found, log) = search_logged(&ctx, "alice", "What is my favorite color?");
    assert!(log.contains(FROM_INDEX), "{log}");
    let found = contents(&found["hits"]);
    assert_eq!(found[0], "My favorite color is blue");
    assert!(!found.contains(&"My favorite color is red".to_owned()), "{found:?}");
    // Every command that reads the whole file agrees.
    let old = ctx.json(&["--user", "alice", "show", &red]);
    assert_eq!(old["superseded_by_id"], added["id"]);
}

/// An add whose index write fails, then whose eviction's index write succeeds, must not let
/// the index claim the line it never got: the next search replays it and finds it.
#[test]
fn a_failed_index_write_is_replayed_not_skipped_by_the_next_search() {
    if files_only("the fault point is in the files backend's SQLite index") {
        return;
    }
    let ctx = Ctx::new();
    ctx.config("[memory]\nmax_entries = 3\n");
    for note in &NOTES[..3] {
        ctx.add("alice", note);
    }
    let failed = ctx
        .command()
        .env("ASH_FAULT", "index:upsert")
        .env("ASH_FAULT_MODE", "error")
        .args(["--user", "alice", "add", "I keep bees on the roof"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&failed.stderr);
    // The line is written and acknowledged; only the index is behind.
    assert!(failed.status.success(), "{stderr}");
    assert!(
        ctx.memory_lines()
            .iter()
            .any(|l| l["content"] == "I keep bees on the roof"),
        "the add's line is in memories.jsonl"
    );

    let (found, log) = search_logged(&ctx, "alice", "bees on the roof");
    assert!(
        !log.contains(FROM_INDEX),
        "the index claimed a line it never got: {log}"
    );
    assert!(log.contains("replayed"), "{log}");
    assert_eq!(contents(&found["hits"])[0], "I keep bees on the roof", "{found}");
    // Caught up: the next search answers from the index, and the same.
    let (again, log) = search_logged(&ctx, "alice", "bees on the roof");
    assert!(log.contains(FROM_INDEX), "{log}");
    assert_eq!(contents(&again["hits"])[0], "I keep bees on the roof");
    let live = contents(&ctx.json(&["--user", "alice", "list"]));
    assert_eq!(live.len(), 3, "max_entries evicted one: {live:?}");
}

/// `show`, `confirm` and `delete` of a memory named by its whole id, in a new process,
/// fetch that one record from the index and answer, and write, what reading the whole
/// file would; a prefix, another user's id or a memory the index no longer holds reads the
/// file and answers as before.
#[test]
fn show_confirm_and_delete_by_whole_id_fetch_one_record_and_answer_as_the_file_does() {
    let ctx = Ctx::new();
    let ids: Vec<String> = NOTES.iter().map(|note| ctx.add("alice", note)).collect();
    let bobs = ctx.add("bob", "Bob lives in Porto as well");
    let (porto, dark) = (&ids[0], &ids[1]);
    let whole_file_only = files_only("the host's file reads are logged by the files backend");
    let reads_nothing = |log: &str| {
        if !whole_file_only {
            let reads = memories_reads(log);
            assert!(
                !reads.is_empty() && reads.iter().all(|&n| n == 0),
                "only the empty tail: {log}"
            );
        }
    };

    let (shown, log) = run_logged(&ctx, &["--user", "alice", "show", dark]);
    assert!(log.contains("show: read from the index"), "{log}");
    reads_nothing(&log);
    assert_eq!(shown["content"], NOTES[1]);
    // A prefix is resolved among every memory, so it reads the file: the same memory.
    let (by_prefix, log) = run_logged(&ctx, &["--user", "alice", "show", &dark[..8]]);
    assert!(!log.contains("read from the index"), "{log}");
    assert_eq!(by_prefix, shown);
    // Bob's memory, by its whole id, is not Alice's to see on either path.
    let refused = ctx.fails(&["--user", "alice", "show", &bobs]);
    assert!(
        refused.contains("is visible to you") && !refused.contains("Bob lives"),
        "{refused}"
    );
    let refused = ctx.fails(&["--user", "alice", "delete", &bobs]);
    assert!(refused.contains("is visible to you"), "{refused}");

    // Confirming appends the record's new version: its vector, as the index gave it back,
    // is the one the file had, byte for byte.
    let before = ctx.memory_lines();
    let original = before.iter().rev().find(|l| l["id"] == dark.as_str()).unwrap().clone();
    let (confirmed, log) = run_logged(&ctx, &["--user", "alice", "confirm", dark]);
    assert!(log.contains("confirm: read from the index"), "{log}");
    reads_nothing(&log);
    assert_eq!(confirmed["id"], dark.as_str());
    let after = ctx.memory_lines();
    assert_eq!(after.len(), before.len() + 1);
    let mut written = after.last().unwrap().clone();
    assert!(written["confirmed_at"].is_string(), "{written}");
    for stamp in ["confirmed_at", "last_accessed_at"] {
        written.as_object_mut().unwrap().remove(stamp);
    }
    let mut expected = original.clone();
    expected.as_object_mut().unwrap().remove("last_accessed_at");
    assert_eq!(written, expected, "the new version differs only by its stamps");

    let (deleted, log) = run_logged(&ctx, &["--user", "alice", "delete", porto]);
    assert!(log.contains("delete: read from the index"), "{log}");
    reads_nothing(&log);
    assert_eq!(deleted["deleted"], porto.as_str(), "{deleted}");
    let archived = ctx.archive_lines();
    assert_eq!(archived.last().unwrap()["id"], porto.as_str());
    assert_eq!(archived.last().unwrap()["archive_reason"], "deleted");
    // Gone from the index: asked again, it is looked for in the file, and is not there.
    let gone = ctx.fails(&["--user", "alice", "show", porto]);
    assert!(gone.contains("is visible to you"), "{gone}");
    assert!(!ctx.search("alice", "Where do I live?").contains(&NOTES[0].to_owned()));

    // The whole file, read without the index, agrees with every answer above.
    std::fs::remove_file(ctx.index_path()).ok();
    let listed = ctx.json(&["--user", "alice", "list"]);
    let mut listed = contents(&listed);
    listed.sort();
    let mut left: Vec<String> = NOTES[1..].iter().map(|n| (*n).to_owned()).collect();
    left.sort();
    assert_eq!(listed, left);
    assert_eq!(ctx.json(&["--user", "alice", "show", dark])["content"], NOTES[1]);
}
