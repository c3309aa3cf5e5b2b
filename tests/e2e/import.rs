//! `ash-memory import`: a file of facts through the real binary and component, with
//! supersession inside the file and against what is stored, a second run that stores
//! nothing twice, refusals that leave the home as it was, and the language model's path.

use serde_json::Value;

use crate::support::ctx::{Ctx, contents};
use crate::support::http_server::{Server, chat};

/// Files of facts, in a folder of their own (the home's parent is shared by every test).
struct Files(tempfile::TempDir);

impl Files {
    fn new() -> Self {
        Files(tempfile::tempdir().unwrap())
    }

    /// Writes `bytes` to a file called `name` and returns its path.
    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path = self.0.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_string_lossy().into_owned()
    }
}

/// What the first test's user should be left with, however often the file is imported.
const FINAL: [&str; 4] = [
    "I like cats",
    "I like dogs",
    "I moved to Porto",
    "My favorite color is blue",
];

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn a_text_file_is_imported_with_supersession_and_a_second_run_stores_nothing() {
    if crate::support::ctx::files_only("reads memories.jsonl itself") {
        return;
    }
    let ctx = Ctx::new();
    let files = Files::new();
    let lisbon = ctx.add("u", "I live in Lisbon");
    let file = files.write("facts.txt",
        "My favorite color is red\nI like dogs\n\nI like dogs\nMy favorite color is blue\nI moved to Porto\nI like cats\n",
    );
    let report = ctx.json(&["--user", "u", "import", &file]);
    assert_eq!(report["added"], 5, "{report}");
    assert_eq!(report["present"], 1, "the second \"I like dogs\"");
    assert_eq!(
        report["superseded"], 2,
        "red by blue in the file, Lisbon by Porto from the store"
    );
    assert_eq!(sorted(contents(&ctx.json(&["--user", "u", "list"]))), FINAL);
    let porto = ctx
        .json(&["--user", "u", "list"])
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["content"] == "I moved to Porto")
        .map(|m| m["id"].clone())
        .unwrap();
    assert_eq!(ctx.json(&["--user", "u", "show", &lisbon])["superseded_by_id"], porto);
    assert_eq!(
        ctx.search("u", "What is my favorite color?")[0],
        "My favorite color is blue"
    );
    let imported = ctx
        .memory_lines()
        .into_iter()
        .filter(|l| l["content"] == "I like cats")
        .collect::<Vec<Value>>();
    assert_eq!(imported[0]["source"], "import");
    assert!(imported[0]["embedding"].is_string(), "imported facts are embedded");
    assert!(
        ctx.json(&["--user", "someone-else", "list"])
            .as_array()
            .unwrap()
            .is_empty(),
        "nothing reaches another user"
    );

    // Run again, as after an interruption: nothing stored twice, nothing brought back.
    let before = std::fs::read(ctx.memories_path()).unwrap();
    let again = ctx.json(&["--user", "u", "import", &file]);
    assert_eq!(
        (again["added"].as_u64(), again["present"].as_u64()),
        (Some(0), Some(6)),
        "{again}"
    );
    assert_eq!(
        std::fs::read(ctx.memories_path()).unwrap(),
        before,
        "memories.jsonl untouched"
    );
    // And after gc has archived what blue and Porto replaced: still nothing comes back.
    assert_eq!(ctx.json(&["gc"])["counts"]["superseded"], 2);
    let text = ctx.ok(&["--user", "u", "import", &file]);
    assert!(text.starts_with("Imported 0 facts (6 already present"), "{text}");
    assert_eq!(sorted(contents(&ctx.json(&["--user", "u", "list"]))), FINAL);
}

#[test]
fn a_fact_that_would_be_refused_refuses_the_file_unless_skipped() {
    let ctx = Ctx::new();
    let files = Files::new();
    ctx.add("u", "I like tea");
    let file = files.write("facts.jsonl",
        "\"I like dogs\"\n{\"content\": \"Sarah likes jazz\", \"subjects\": [\"Sarah\"]}\n{\"memory\": \"my password is hunter2-Zebra!\"}\n",
    );
    let before = ctx.snapshot();
    let stderr = ctx.fails(&["--user", "u", "import", &file]);
    assert!(
        stderr.contains("line 3: refused: this looks like a password"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 of 3 facts would be refused, so nothing was imported"),
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "the secret is never echoed: {stderr}");
    assert_eq!(ctx.snapshot(), before, "the home is as it was");

    let report = ctx.json(&["--user", "u", "import", "--skip-refused", &file]);
    assert_eq!(report["added"], 2);
    assert_eq!(report["refused"][0]["line"], 3);
    let sarah = ctx.json(&["--user", "u", "search", "jazz", "--about", "Sarah"]);
    assert_eq!(contents(&sarah["hits"]), ["Sarah likes jazz"], "subjects link people");
}

#[test]
fn malformed_or_missing_files_are_clear_errors_that_change_nothing() {
    let ctx = Ctx::new();
    let files = Files::new();
    ctx.add("u", "I like tea");
    let before = ctx.snapshot();
    for (name, text, want) in [
        ("bad.jsonl", "{\"content\": \"a\"}\n{\"content\": \"b\"\n", "line 2: "),
        (
            "field.jsonl",
            "{\"content\": \"a\", \"colour\": \"red\"}\n",
            "line 1: unknown field `colour`",
        ),
        (
            "type.json",
            "[{\"content\": \"a\", \"type\": \"mood\"}]",
            "fact 1: unknown type \"mood\"",
        ),
        ("binary.txt", "\u{0}\u{1}", "content is empty"),
    ] {
        let file = files.write(name, text);
        let stderr = ctx.fails(&["--user", "u", "import", &file]);
        assert!(stderr.contains(want), "{name}: {stderr}");
    }
    // A fact whose line would be longer than a reader takes: it would be acknowledged,
    // then quarantined unread at the next call.
    let huge = files.write(
        "huge.json",
        format!(
            "[{{\"content\": \"I like tea a lot\", \"source\": \"{}\"}}]",
            "s".repeat(1_200_000)
        ),
    );
    let stderr = ctx.fails(&["--user", "u", "import", &huge]);
    assert!(stderr.contains("over the 1 MiB a line may hold"), "{stderr}");
    let latin1 = files.write("latin1.txt", b"caf\xe9\n");
    assert!(
        ctx.fails(&["--user", "u", "import", &latin1])
            .contains("is not UTF-8 text")
    );
    assert!(
        ctx.fails(&["--user", "u", "import", "/nonexistent/facts.txt"])
            .contains("/nonexistent/facts.txt")
    );
    assert_eq!(ctx.snapshot(), before);
}

#[test]
fn with_a_language_model_the_model_judges_what_the_rule_would_keep() {
    let server = Server::start(|_| chat("Change."));
    let ctx = Ctx::new();
    let files = Files::new();
    ctx.config(&format!(
        "[llm]\nbase_url = \"{}\"\nmodel = \"judge-1\"\ntimeout_secs = 1\n",
        server.base_url()
    ));
    let file = files.write("facts.txt", "I like dogs\nI like cats\n");
    let report = ctx.json(&["--user", "u", "import", &file]);
    assert_eq!(
        report["superseded"], 1,
        "the model's answer, where the rules cannot tell: {report}"
    );
    let prompts: Vec<String> = server
        .requests
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.body["messages"][1]["content"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(
        prompts
            .iter()
            .any(|p| p.contains("OLD: I like dogs") && p.contains("NEW: I like cats")),
        "{prompts:?}"
    );
}

/// A new home's first import is indexed once: creating memories.jsonl gave it a new
/// generation, which the guest took for another writer's, so the index kept claiming the
/// empty file and the next call indexed every imported fact again.
#[test]
fn a_new_homes_first_import_leaves_nothing_for_the_next_call_to_replay() {
    let ctx = Ctx::new();
    let files = Files::new();
    let facts: String = (0..40)
        .map(|i| format!("My colleague number {i} collects stamps from country {i}\n"))
        .collect();
    let file = files.write("facts.txt", facts);
    assert_eq!(ctx.json(&["--user", "u", "import", &file])["added"], 40);
    let (found, log) = crate::from_index::run_logged(&ctx, &["--user", "u", "search", "stamps from country 7"]);
    assert!(
        !log.contains("replayed"),
        "the import's lines were indexed again: {log}"
    );
    assert!(log.contains(crate::from_index::FROM_INDEX), "{log}");
    assert_eq!(
        contents(&found["hits"])[0],
        "My colleague number 7 collects stamps from country 7"
    );
}

#[test]
fn a_file_of_long_facts_is_imported_in_calls_the_sandbox_budget_allows() {
    let ctx = Ctx::new();
    let files = Files::new();
    // 45 notes of 15 KB: read in one call, their words used up the default fuel budget
    // (forty did); the host cuts an import by bytes as well as by count.
    let lines: Vec<String> = (0..45)
        .map(|i| {
            let body = format!("meeting {i} went over the budget and the roadmap again. ").repeat(300);
            serde_json::json!({ "content": format!("Notes {i}: {}", &body[..15_000]) }).to_string()
        })
        .collect();
    let file = files.write("long.jsonl", lines.join("\n"));
    let report = ctx.json(&["--user", "u", "import", &file]);
    assert_eq!(report["added"], 45, "{report}");
    let stored = ctx.json(&["--user", "u", "list", "--limit", "100"]);
    assert_eq!(stored.as_array().map(Vec::len), Some(45));
}
