//! Crashes and concurrency. Each operation is first run with `ASH_FAULT_TRACE` to count
//! its write steps; then, for every step, a copy of the same home runs it again and is
//! aborted there (`ASH_FAULT=N`: no unwinding, no cleanup, as `kill -9` leaves it; at
//! `:torn` steps half the bytes are written first). For add, delete, gc, merge, forget and
//! import, the call that recovers from each kill is killed in turn at each step of its
//! recovery (double kill points). After each kill the next commands must find every
//! acknowledged memory, no torn line, the operation whole or not at all, and a search that
//! agrees with the files. A call whose one write is one line writes it at its commit
//! without the journal: torn there, the line is quarantined by the next reader instead of
//! cut, and the call did not happen.

use std::collections::BTreeSet;
use std::os::unix::process::ExitStatusExt;

use serde_json::Value;

use crate::support::ctx::{Ctx, contents};

const NOW: &str = "2026-03-01T12:00:00Z";
const LATER: &str = "2026-06-01T12:00:00Z";

/// A home with personal and group memories, people, a superseded pair and an expired one.
fn base() -> (Ctx, Vec<String>) {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let mut ids = Vec::new();
    for fact in [
        "My favorite color is red",
        "I'm allergic to peanuts",
        "I live in Lisbon",
        "I live in Porto",
    ] {
        ids.push(ctx.add("u", fact));
    }
    for (text, subject) in [("Sarah loves hiking", "my wife Sarah"), ("Sally plays chess", "Sally")] {
        let m = ctx.json(&["--user", "u", "add", text, "--subject", subject]);
        ids.push(m["id"].as_str().unwrap().to_owned());
    }
    let m = ctx.json(&["--user", "u", "add", "Dentist on Tuesday", "--type", "event"]);
    ids.push(m["id"].as_str().unwrap().to_owned());
    let m = ctx.json(&["--user", "u", "--chat", "c", "add", "Standup at 9", "--shared"]);
    ids.push(m["id"].as_str().unwrap().to_owned());
    (ctx, ids)
}

/// Every id in the collection and the archive, parsed line by line: no line may be torn.
fn all_ids(ctx: &Ctx) -> (BTreeSet<String>, BTreeSet<String>) {
    let read = |path: &str| -> BTreeSet<String> {
        let text = std::fs::read_to_string(ctx.home().join(path)).unwrap_or_default();
        assert!(text.is_empty() || text.ends_with('\n'), "{path} ends in a torn line");
        let mut ids = BTreeSet::new();
        for l in text.lines() {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("torn line in {path} ({e}): {l}"));
            let id = v["id"].as_str().unwrap().to_owned();
            // A removal line takes its id out (a delete appends one).
            if v.get("removed_at").is_some() && v.get("content").is_none() {
                ids.remove(&id);
            } else {
                ids.insert(id);
            }
        }
        ids
    };
    (read("memory/memories.jsonl"), read("memory/archive.jsonl"))
}

/// The names of the write steps the command makes on a copy of this home, in order.
fn trace_points(base: &Ctx, args: &[&str]) -> Vec<String> {
    let copy = base.copy();
    let out = copy.command().env("ASH_FAULT_TRACE", "1").args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("ash-fault-point "))
        .filter_map(|l| l.split_once(' '))
        .map(|(_, name)| name.to_owned())
        .collect()
}

/// The collection whose line is torn at step `k` (1-based) when the call writes it alone,
/// without the journal (no `journal:begin` before it): a call's one line is held for its
/// commit and written then with nothing to roll it back, so a power cut in the middle
/// leaves a torn last line for the next reader to quarantine.
fn torn_alone(points: &[String], k: usize) -> Option<&str> {
    let name = points[k - 1].strip_prefix("append:")?.strip_suffix(":torn")?;
    (!points[..k].iter().any(|p| p == "journal:begin")).then_some(name)
}

/// What a crash test killed: the operation at each of its write steps, and the call that
/// recovers from each of those kills at each step of its recovery.
#[derive(Debug, Default)]
struct Kills {
    single: usize,
    double: usize,
}

/// The steps at which the next call recovers from what a killed call left: its numbers,
/// as `ASH_FAULT` counts them, in a traced run on a copy.
fn recovery_points(crashed: &Ctx) -> Vec<String> {
    let copy = crashed.copy();
    let out = copy
        .command()
        .env("ASH_FAULT_TRACE", "1")
        .args(NEXT_CALL)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("ash-fault-point "))
        .filter_map(|l| l.split_once(' '))
        .filter(|(_, name)| name.starts_with("recover:") || *name == "journal:record")
        .map(|(n, _)| n.to_owned())
        .collect()
}

/// The call made after a crash: it recovers first, and reads.
const NEXT_CALL: &[&str] = &["--user", "u", "list"];

/// Kills `args` at every write step, and with `double`, the next call at every step of
/// its recovery from each of those kills; checks the invariants after each. `whole` says,
/// for the home after recovery, whether the operation took effect entirely (Some(true)),
/// not at all (Some(false)), or partly (None, a failure).
fn crash_everywhere(
    args_for: impl Fn(&Ctx) -> Vec<String>,
    whole: impl Fn(&Ctx, &[String]) -> Option<bool>,
    double: bool,
) -> Kills {
    let (base, acknowledged) = base();
    let args = args_for(&base);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let args = args.as_slice();
    let owned: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let whole = |ctx: &Ctx| whole(ctx, &owned);
    assert_eq!(whole(&base), Some(false), "the base home is before the operation");
    let done = base.copy();
    done.ok(args);
    assert_eq!(
        whole(&done),
        Some(true),
        "{args:?} uninterrupted is the whole operation"
    );
    let names = trace_points(&base, args);
    let points = names.len();
    assert!(points >= 3, "{args:?} made only {points} write steps");
    let mut kills = Kills::default();
    for k in 1..=points {
        let torn = torn_alone(&names, k);
        let ctx = base.copy();
        let out = ctx
            .command()
            .env("ASH_FAULT", k.to_string())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            out.status.signal(),
            Some(6),
            "{args:?} at step {k} of {points} was not aborted: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        kills.single += 1;
        if double {
            for n in recovery_points(&ctx) {
                let twice = ctx.copy();
                let out = twice.command().env("ASH_FAULT", &n).args(NEXT_CALL).output().unwrap();
                assert_eq!(out.status.signal(), Some(6), "recovery step {n} was not aborted");
                check(
                    &twice,
                    &acknowledged,
                    &whole,
                    torn,
                    &format!("{args:?} killed at step {k}, its recovery at {n}"),
                );
                kills.double += 1;
            }
        }
        check(
            &ctx,
            &acknowledged,
            &whole,
            torn,
            &format!("{args:?} killed at step {k} ({})", names[k - 1]),
        );
    }
    kills
}

/// After a kill: the next calls find every acknowledged memory, no torn or quarantined
/// line, the operation whole or not at all, and a search that agrees with the files. After
/// a line written alone was torn (`torn`, its collection), that line alone is quarantined,
/// and the operation did not happen.
fn check(ctx: &Ctx, acknowledged: &[String], whole: &dyn Fn(&Ctx) -> Option<bool>, torn: Option<&str>, what: &str) {
    // Recovery happens at the next call; search brings the index up to the files.
    let found = contents(&ctx.json(&["--user", "u", "search", "where do I live", "--limit", "50"])["hits"]);
    let (memories, archive) = all_ids(ctx);
    for id in acknowledged {
        assert!(
            memories.contains(id) || archive.contains(id),
            "{what}: acknowledged memory {id} lost"
        );
    }
    for c in ["memories", "archive", "sessions", "messages"] {
        let quarantine = ctx.home().join(format!("memory/{c}.quarantine.jsonl"));
        if torn != Some(c) {
            assert!(!quarantine.exists(), "{what}: a line of {c} was quarantined");
            continue;
        }
        let text = std::fs::read_to_string(&quarantine)
            .unwrap_or_else(|e| panic!("{what}: the torn line of {c} was not quarantined ({e})"));
        // One line, set aside once, or again by a reader killed before it rewrote the
        // collection without it (a quarantine is never rolled back: a copy too many is
        // harmless, one too few is not).
        let lines: BTreeSet<String> = text
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["line"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(lines.len(), 1, "{what}: {text}");
        let line = lines.first().unwrap();
        assert!(
            serde_json::from_str::<Value>(line).is_err(),
            "{what}: the quarantined line is whole: {line}"
        );
        assert_eq!(whole(ctx), Some(false), "{what}: a torn line took effect");
    }
    assert!(
        torn == Some("people") || !ctx.home().join("people.quarantine.jsonl").exists(),
        "{what}: a line of people was quarantined"
    );
    assert!(whole(ctx).is_some(), "{what}: the operation is half done");
    let live = contents(&ctx.json(&["--user", "u", "list", "--limit", "100"]));
    for c in &found {
        assert!(live.contains(c), "{what}: search found {c:?}, not live in the files");
    }
    let lives_in: Vec<&String> = live.iter().filter(|c| c.starts_with("I live in")).collect();
    assert_eq!(lives_in.len(), 1, "{what}: {live:?}");
    assert!(found.contains(lives_in[0]), "{what}: the index lost {:?}", lives_in[0]);
    let out = ctx.run(&["--json", "doctor"]);
    let doctor: Value = serde_json::from_slice(&out.stdout).unwrap();
    // A quarantined line is the one finding doctor leaves to the user.
    let failed: Vec<&Value> = doctor["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["ok"] != true && (torn.is_none() || f["check"] != "quarantine"))
        .collect();
    assert!(failed.is_empty(), "{what}: {doctor}");
    assert_eq!(out.status.success(), torn.is_none(), "{what}: {doctor}");
}

fn fixed(args: &[&str]) -> impl Fn(&Ctx) -> Vec<String> + use<> {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    move |_| args.clone()
}

fn has_memory(ctx: &Ctx, content: &str) -> bool {
    contents(&ctx.json(&["--user", "u", "list", "--include-superseded", "--limit", "100"]))
        .contains(&content.to_owned())
}

fn has_live_memory(ctx: &Ctx, content: &str) -> bool {
    contents(&ctx.json(&["--user", "u", "list", "--limit", "100"])).contains(&content.to_owned())
}

fn person_named(ctx: &Ctx, name: &str) -> bool {
    ctx.json(&["--user", "u", "people", "list"])
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == name)
}

/// An add of one fact writes its one line at the commit, without the journal, and the
/// index's writes wait for it (one transaction, committed after the line is flushed); an
/// add that writes a person too writes both in the journal, as before.
#[test]
fn a_calls_one_line_skips_the_journal_and_the_index_waits_for_it() {
    if crate::support::ctx::files_only("traces the files backend's write steps") {
        return;
    }
    let (base, _) = base();
    let at = |points: &[String], name: &str| points.iter().position(|p| p == name);
    let alone = trace_points(&base, &["--user", "u", "add", "I have a cat named Tom"]);
    assert_eq!(at(&alone, "journal:begin"), None, "{alone:?}");
    let synced = at(&alone, "append:memories:synced").expect("the line is written");
    let upsert = at(&alone, "index:upsert").expect("the index is written");
    let committed = at(&alone, "index:commit").expect("in one transaction");
    assert!(upsert < synced && synced < committed, "{alone:?}");

    let with_person = trace_points(
        &base,
        &["--user", "u", "add", "Likes tulips", "--subject", "my aunt Rosa"],
    );
    let begun = at(&with_person, "journal:begin").expect("two writes: the journal");
    assert!(
        begun < at(&with_person, "append:people:synced").unwrap(),
        "{with_person:?}"
    );
    assert!(at(&with_person, "journal:commit").is_some(), "{with_person:?}");
}

#[test]
fn crash_during_add() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    let n = crash_everywhere(
        fixed(&["--user", "u", "add", "I have a cat named Tom"]),
        |ctx, _| Some(has_memory(ctx, "I have a cat named Tom")),
        true,
    );
    eprintln!("add: {n:?}");
}

#[test]
fn crash_during_a_superseding_add() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    let n = crash_everywhere(
        fixed(&["--user", "u", "add", "My favorite color is blue"]),
        |ctx, _| {
            let blue = has_memory(ctx, "My favorite color is blue");
            let live = contents(&ctx.json(&["--user", "u", "list"]));
            let red_live = live.contains(&"My favorite color is red".to_owned());
            match (blue, red_live) {
                (true, false) => Some(true),
                (false, true) => Some(false),
                _ => None,
            }
        },
        false,
    );
    eprintln!("superseding add: {n:?}");
}

#[test]
fn crash_during_an_add_with_a_new_person() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    let n = crash_everywhere(
        fixed(&["--user", "u", "add", "Likes tulips", "--subject", "my aunt Rosa"]),
        |ctx, _| match (has_memory(ctx, "Likes tulips"), person_named(ctx, "Rosa")) {
            (true, true) => Some(true),
            (false, false) => Some(false),
            _ => None,
        },
        false,
    );
    eprintln!("add with a new person: {n:?}");
}

#[test]
fn crash_during_a_turn() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    let n = crash_everywhere(
        fixed(&["--user", "u", "turn", "--session", "s", "I love jazz", "Noted."]),
        |ctx, _| {
            let lines = |file: &str| -> Vec<Value> {
                std::fs::read_to_string(ctx.home().join("memory").join(file))
                    .unwrap_or_default()
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect()
            };
            let (messages, sessions) = (lines("messages.jsonl"), lines("sessions.jsonl"));
            match (messages.len(), sessions.last().map(|s| s["turns"].clone())) {
                (2, Some(turns)) if turns == 1 => Some(true),
                (0, None) => Some(false),
                _ => None,
            }
        },
        false,
    );
    eprintln!("turn: {n:?}");
}

#[test]
fn crash_during_delete() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    let peanuts = |ctx: &Ctx| -> String {
        ctx.json(&["--user", "u", "list"])
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["content"] == "I'm allergic to peanuts")
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let n = crash_everywhere(
        move |ctx| vec!["--user".into(), "u".into(), "delete".into(), peanuts(ctx)],
        |ctx, args| {
            let id = &args[3];
            let (memories, archive) = all_ids(ctx);
            match (memories.contains(id), archive.contains(id)) {
                (false, true) => Some(true),
                (true, false) => Some(false),
                _ => None,
            }
        },
        true,
    );
    eprintln!("delete: {n:?}");
}

#[test]
fn crash_during_gc() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    // At LATER the event has decayed and Lisbon (superseded by Porto) is archived.
    let n = crash_everywhere(
        fixed(&["--now", LATER, "gc"]),
        |ctx, _| {
            let (memories, archive) = all_ids(ctx);
            match (memories.len(), archive.len()) {
                (_, 0) => Some(false),
                (m, a) if a >= 2 && m + a == 8 => Some(true),
                _ => None,
            }
        },
        true,
    );
    eprintln!("gc: {n:?}");
}

#[test]
fn crash_during_merge() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    let n = crash_everywhere(
        fixed(&["--user", "u", "people", "merge", "Sarah", "Sally"]),
        |ctx, _| {
            let merged = !person_named(ctx, "Sally");
            let lines = ctx.memory_lines();
            let chess = lines
                .iter()
                .rev()
                .find(|l| l["content"] == "Sally plays chess")
                .unwrap();
            let hiking = lines
                .iter()
                .rev()
                .find(|l| l["content"] == "Sarah loves hiking")
                .unwrap();
            let relinked = chess["subject_person_ids"] == hiking["subject_person_ids"];
            match (merged, relinked) {
                (true, true) => Some(true),
                (false, false) => Some(false),
                _ => None,
            }
        },
        true,
    );
    eprintln!("merge: {n:?}");
}

#[test]
fn crash_during_rebuild() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    // Before: a home whose index is gone. Whole: an index that holds every live memory
    // (rebuilding never changes the files: `check` finds every memory where it was).
    let without_index = |ctx: &Ctx| {
        for name in ["memory.db", "memory.db-wal", "memory.db-shm"] {
            let _ = std::fs::remove_file(ctx.home().join("data").join(name));
        }
        vec!["rebuild-index".to_owned()]
    };
    let n = crash_everywhere(
        without_index,
        |ctx, _| {
            let stats = ctx.json(&["stats"]);
            let index = &stats["index"];
            let live = stats["memories"].as_u64().unwrap() - stats["superseded"].as_u64().unwrap();
            match (index["in_step"].as_bool(), index["entries"].as_u64()) {
                (Some(true), Some(n)) if n == live => Some(true),
                (Some(false), _) | (None, _) => Some(false),
                _ => None,
            }
        },
        false,
    );
    eprintln!("rebuild: {n:?}");
}

#[test]
fn crash_during_forget() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    let n = crash_everywhere(
        fixed(&["--user", "u", "people", "forget", "Sally"]),
        |ctx, _| {
            let chess = has_live_memory(ctx, "Sally plays chess");
            match (person_named(ctx, "Sally"), chess) {
                (false, false) => Some(true),
                (true, true) => Some(false),
                _ => None,
            }
        },
        true,
    );
    eprintln!("forget: {n:?}");
}

#[test]
fn crash_during_import() {
    if crate::support::ctx::files_only("kills the process between two writes to the home's files") {
        return;
    }
    let facts = [
        "I have a dog named Rex",
        "I play the violin",
        "My brother Tom lives in Oslo",
    ];
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), facts.join("\n")).unwrap();
    let path = file.path().to_string_lossy().into_owned();
    let n = crash_everywhere(
        fixed(&["--user", "u", "import", &path]),
        |ctx, _| {
            let there: Vec<bool> = facts.iter().map(|f| has_memory(ctx, f)).collect();
            match (there.iter().all(|t| *t), there.iter().any(|t| *t)) {
                (true, _) => Some(true),
                (false, false) => Some(false),
                _ => None,
            }
        },
        true,
    );
    eprintln!("import: {n:?}");
}

/// Four writers and two searchers at once: every add acknowledged is there, nothing fails.
#[test]
fn four_writers_and_two_searchers() {
    let ctx = Ctx::new();
    ctx.add("seed", "A seed fact so that searchers have an index");
    const PER_WRITER: usize = 25;
    let mut children = Vec::new();
    for w in 0..4 {
        let script: Vec<String> = (0..PER_WRITER)
            .map(|i| {
                format!(
                    "\"$BIN\" --user w{w} add 'Writer {w} keeps item {i} in box {}'",
                    i * 7 + w
                )
            })
            .collect();
        let mut cmd = ctx.shell(&script.join("\n"));
        children.push(cmd.env("ASH_LOCK_TIMEOUT_SECS", "60").spawn().unwrap());
    }
    for s in 0..2 {
        let script: Vec<String> = (0..15)
            .map(|i| format!("\"$BIN\" --user w{} search 'box {i}' >/dev/null", (s + i) % 4))
            .collect();
        let mut cmd = ctx.shell(&script.join("\n"));
        children.push(cmd.env("ASH_LOCK_TIMEOUT_SECS", "60").spawn().unwrap());
    }
    for child in children {
        let status = child.wait_with_output().unwrap().status;
        assert!(status.success(), "a writer or searcher failed");
    }
    for w in 0..4 {
        let listed = contents(&ctx.json(&["--user", &format!("w{w}"), "list"]));
        assert_eq!(listed.len(), PER_WRITER, "writer {w}: {listed:?}");
        let last = format!(
            "Writer {w} keeps item {} in box {}",
            PER_WRITER - 1,
            (PER_WRITER - 1) * 7 + w
        );
        assert!(ctx.search(&format!("w{w}"), &last).contains(&last));
    }
    assert_eq!(ctx.json(&["doctor"])["ok"], true);
}
