//! Moving in and out: `export` and `import` of the export format (a lossless round trip,
//! a re-import that stores nothing twice, another model's vectors embedded again), and
//! mem0's export shape, through the CLI, the real component, files and index.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::support::ctx::Ctx;

const ALICE: [&str; 4] = ["--user", "alice", "--chat", "family"];

pub(crate) fn as_alice<'a>(args: &[&'a str]) -> Vec<&'a str> {
    ALICE.iter().copied().chain(args.iter().copied()).collect()
}

/// A home with people, subjects, a shared memory, a replaced one, a deleted one, and
/// someone else's memories.
pub(crate) fn home() -> Ctx {
    let ctx = Ctx::new();
    ctx.ok(&as_alice(&["add", "My wife's name is Sarah"]));
    ctx.ok(&as_alice(&[
        "add",
        "Sarah is allergic to shellfish",
        "--subject",
        "my wife",
    ]));
    ctx.ok(&as_alice(&["add", "I live in Lisbon"]));
    let porto = ctx.json(&as_alice(&["add", "I live in Porto"]));
    assert_eq!(porto["superseded"].as_array().map(Vec::len), Some(1), "{porto:#}");
    ctx.ok(&as_alice(&[
        "add",
        "The reunion is in August",
        "--shared",
        "--type",
        "event",
    ]));
    let gone = ctx.json(&as_alice(&["add", "I like jazz"]));
    ctx.ok(&as_alice(&["delete", gone["id"].as_str().unwrap()]));
    ctx.ok(&["--user", "bob", "add", "Bob's own secretless fact"]);
    ctx.ok(&[
        "--user",
        "carol",
        "--chat",
        "other",
        "add",
        "Carol's chat note",
        "--shared",
    ]);
    ctx
}

pub(crate) fn export(ctx: &Ctx, dir: &tempfile::TempDir, name: &str) -> (PathBuf, Vec<Value>) {
    let path = dir.path().join(name);
    ctx.ok(&as_alice(&[
        "export",
        "--include-archive",
        "--out",
        path.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&path).unwrap();
    let lines = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (path, lines)
}

#[test]
fn an_export_imported_into_a_new_home_exports_the_same_records() {
    let a = home();
    let dir = tempfile::tempdir().unwrap();
    let (file, lines) = export(&a, &dir, "alice.jsonl");
    use std::os::unix::fs::PermissionsExt as _;
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    let header = &lines[0];
    assert_eq!(
        (&header["format"], &header["version"]),
        (&json!("ash-memory-export"), &json!(1))
    );
    assert_eq!(header["dimension"], 384);
    let kinds: Vec<&str> = lines[1..].iter().map(|l| l["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "person").count(), 1);
    assert_eq!(kinds.iter().filter(|k| **k == "memory").count(), 5, "{kinds:?}");
    assert_eq!(kinds.iter().filter(|k| **k == "archived").count(), 1);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        !text.contains("Bob's") && !text.contains("Carol's"),
        "only what alice may see"
    );
    assert!(
        lines[1..]
            .iter()
            .all(|l| l["kind"] == "person" || l["embedding"].is_string() || l["kind"] == "archived")
    );

    let b = Ctx::new();
    let report = b.json(&as_alice(&["import", file.to_str().unwrap()]));
    assert_eq!(
        report,
        json!({"memories": 5, "archived": 1, "people": 1, "renamed": 0, "present": 0, "reembedded": 0, "refused": []})
    );
    let (_, again) = export(&b, &dir, "again.jsonl");
    assert_eq!(again.len(), lines.len());
    for (x, y) in again[1..].iter().zip(&lines[1..]) {
        assert_eq!(x, y, "field by field");
    }
    // The new home answers as the old one did: the chain, the subjects, the scope.
    let hits = b.json(&as_alice(&["search", "Where do I live?"]));
    assert_eq!(hits["hits"][0]["content"], "I live in Porto");
    let porto = hits["hits"][0]["id"].as_str().unwrap();
    let chain = b.json(&as_alice(&["history", porto]));
    assert_eq!(chain[0]["content"], "I live in Lisbon");
    let shellfish = b.json(&as_alice(&["search", "shellfish"]));
    assert_eq!(shellfish["hits"][0]["subjects"], json!(["Sarah"]));
    assert!(
        b.search("bob", "reunion").is_empty(),
        "the shared memory stays in the family chat"
    );
    assert_eq!(b.json(&["doctor"])["ok"], true);

    // Importing it again stores nothing twice and changes no file.
    let before = b.snapshot();
    let twice = b.json(&as_alice(&["import", file.to_str().unwrap()]));
    assert_eq!((&twice["present"], &twice["memories"]), (&json!(7), &json!(0)));
    assert_eq!(b.snapshot(), before);
}

#[test]
fn another_models_vectors_are_embedded_again_and_bad_lines_refuse_the_file() {
    let a = home();
    let dir = tempfile::tempdir().unwrap();
    let (_, mut lines) = export(&a, &dir, "alice.jsonl");
    // As if another home with another model had written it.
    lines[0]["embedding_model"] = json!("some-other-model");
    for l in &mut lines[1..] {
        if l["kind"] == "memory" {
            l["embedding"] = json!("AACAPwAAAEA=");
            l.as_object_mut().unwrap().remove("embedding_model");
        }
    }
    let write = |name: &str, lines: &[Value]| {
        let path = dir.path().join(name);
        let text: Vec<String> = lines.iter().map(Value::to_string).collect();
        std::fs::write(&path, text.join("\n") + "\n").unwrap();
        path
    };
    let other = write("other.jsonl", &lines);
    let c = Ctx::new();
    let report = c.json(&as_alice(&["import", other.to_str().unwrap()]));
    assert_eq!(
        (&report["memories"], &report["reembedded"]),
        (&json!(5), &json!(5)),
        "{report:#}"
    );
    let model = c.json(&["stats"])["index"]["model"].clone();
    for line in c.memory_lines() {
        assert_eq!(line["embedding_model"], model, "{line}");
        assert_ne!(line["embedding"], "AACAPwAAAEA=");
    }
    assert_eq!(
        c.json(&as_alice(&["search", "seafood allergy"]))["hits"][0]["content"],
        "Sarah is allergic to shellfish"
    );
    assert_eq!(c.json(&["stats"])["pending"], 0);

    // A secret smuggled into an export refuses the file, and nothing is written.
    let mut bad = lines.clone();
    let mut smuggled = bad[2].clone();
    smuggled["id"] = json!("00000000-0000-4000-8000-00000000abcd");
    smuggled["content"] = json!("my password is hunter2hunter2");
    bad.push(smuggled);
    bad.push(json!({"kind": "planet"}));
    let bad = write("bad.jsonl", &bad);
    let d = Ctx::new();
    let before = d.snapshot();
    let err = d.fails(&as_alice(&["import", bad.to_str().unwrap()]));
    let n = lines.len();
    assert!(
        err.contains(&format!("line {}: ", n + 1)) && err.contains("secret"),
        "{err}"
    );
    assert!(err.contains(&format!("line {}: unknown kind", n + 2)), "{err}");
    assert_eq!(d.snapshot(), before);
    let skipped = d.json(&as_alice(&["import", bad.to_str().unwrap(), "--skip-refused"]));
    assert_eq!(
        (&skipped["memories"], skipped["refused"].as_array().map(Vec::len)),
        (&json!(5), Some(2))
    );
    assert!(d.memory_lines().iter().all(|l| !l.to_string().contains("hunter2")));
}

/// Two files joined, or one edited by hand, can hold one id twice: the later line would
/// have replaced the earlier without a word while the report counted both.
#[test]
fn a_second_line_of_one_id_refuses_the_file() {
    let a = home();
    let dir = tempfile::tempdir().unwrap();
    let (_, lines) = export(&a, &dir, "alice.jsonl");
    let at = |kind: &str| lines.iter().position(|l| l["kind"] == kind).unwrap();
    let (memory, person) = (at("memory"), at("person"));
    let mut twice = lines.clone();
    let mut changed = lines[memory].clone();
    changed["content"] = json!("I live in Faro");
    twice.push(changed);
    twice.push(lines[person].clone());
    let path = dir.path().join("twice.jsonl");
    let text: Vec<String> = twice.iter().map(Value::to_string).collect();
    std::fs::write(&path, text.join("\n") + "\n").unwrap();

    let c = Ctx::new();
    let before = c.snapshot();
    let err = c.fails(&as_alice(&["import", path.to_str().unwrap()]));
    let n = lines.len();
    let (id, person_id) = (
        lines[memory]["id"].as_str().unwrap(),
        lines[person]["id"].as_str().unwrap(),
    );
    for (line, kind, id, first) in [
        (n + 1, "memory", id, memory + 1),
        (n + 2, "person", person_id, person + 1),
    ] {
        let wanted = format!("line {line}: {kind} {id} is on line {first} already");
        assert!(err.contains(&wanted), "{wanted}: {err}");
    }
    assert_eq!(c.snapshot(), before, "nothing is written");

    let skipped = c.json(&as_alice(&["import", path.to_str().unwrap(), "--skip-refused"]));
    let memories = lines.iter().filter(|l| l["kind"] == "memory").count();
    assert_eq!(
        (&skipped["memories"], skipped["refused"].as_array().map(Vec::len)),
        (&json!(memories), Some(2)),
        "{skipped:#}"
    );
    let stored: Vec<Value> = c.memory_lines().into_iter().filter(|l| l["id"] == id).collect();
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert_eq!(stored[0]["content"], lines[memory]["content"], "the first line is kept");
}

#[test]
fn an_id_no_command_could_name_refuses_the_file() {
    let a = home();
    let dir = tempfile::tempdir().unwrap();
    let (_, lines) = export(&a, &dir, "alice.jsonl");
    let memory = lines.iter().position(|l| l["kind"] == "memory").unwrap();
    let id = lines[memory]["id"].as_str().unwrap().to_owned();
    let c = Ctx::new();
    let before = c.snapshot();
    for bad in [
        format!(" {id}"),
        format!("{id}\n"),
        format!("{id}\u{200b}"),
        "x".repeat(200),
    ] {
        let mut edited = lines.clone();
        edited[memory]["id"] = json!(bad);
        let path = dir.path().join("edited.jsonl");
        let text: Vec<String> = edited.iter().map(Value::to_string).collect();
        std::fs::write(&path, text.join("\n") + "\n").unwrap();
        let err = c.fails(&as_alice(&["import", path.to_str().unwrap()]));
        assert!(err.contains("is not one a command can name"), "{bad:?}: {err}");
    }
    assert_eq!(c.snapshot(), before, "nothing is written");
}

#[test]
fn mem0s_export_imports_the_callers_memories_only() {
    let ctx = Ctx::new();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mem0.json");
    let mem0 = json!([
        {"id": "m1", "memory": "Prefers window seats", "user_id": "alice", "hash": "x",
         "metadata": {"category": "travel"}, "created_at": "2024-07-26T10:29:36.630547-07:00", "updated_at": null},
        {"id": "m2", "memory": "Is vegetarian", "user_id": "alice", "metadata": null, "created_at": "2024-08-01T09:00:00Z"},
        {"id": "m3", "memory": "Plays the cello", "user_id": "bob", "metadata": {}, "created_at": "2024-08-02T09:00:00Z"}
    ]);
    std::fs::write(&path, mem0.to_string()).unwrap();
    let before = ctx.snapshot();
    let err = ctx.fails(&["--user", "alice", "import", path.to_str().unwrap()]);
    assert!(
        err.contains("line 3: the fact is bob's; import it with --user bob"),
        "{err}"
    );
    assert_eq!(ctx.snapshot(), before);
    let report = ctx.json(&["--user", "alice", "import", path.to_str().unwrap(), "--skip-refused"]);
    assert_eq!(report["added"], 2, "{report:#}");
    let listed = ctx.json(&["--user", "alice", "list"]);
    let mut seen: Vec<(String, String)> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["content"].as_str().unwrap().to_owned(),
                m["observed_at"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(seen[0].0, "Is vegetarian");
    assert!(seen[0].1.starts_with("2024-08-01T09:00:00"), "{seen:?}");
    assert!(
        seen[1].1.starts_with("2024-07-26T17:29:36"),
        "created_at read as observed_at: {seen:?}"
    );
    assert!(
        ctx.search("bob", "cello").is_empty(),
        "bob's fact is not stored for anyone"
    );
}
