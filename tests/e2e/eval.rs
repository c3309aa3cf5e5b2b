//! `eval`: a retrieval evaluation through the real component, index and embedded model,
//! on a small fixture (`data/eval-small.jsonl`) whose figures are asserted.

use serde_json::json;

use crate::support::ctx::Ctx;

fn fixture() -> String {
    format!("{}/../tests/e2e/data/eval-small.jsonl", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn eval_scores_hits_recall_and_mrr_per_category_and_keeps_groups_apart() {
    let ctx = Ctx::new();
    let report = ctx.json(&["eval", &fixture()]);
    assert_eq!((&report["memories"], &report["refused"]), (&json!(8), &json!(0)));
    let all = &report["overall"];
    assert_eq!(all["questions"], 7);
    let close = |v: &serde_json::Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9;
    // Six of seven questions find their answer first; the seventh asks group c2 about a
    // memory of group c1, which it must not see.
    for k in ["1", "5", "10"] {
        assert!(close(&all["hit"][k], 6.0 / 7.0), "{all}");
    }
    assert!(close(&all["mrr"], 6.0 / 7.0), "{all}");
    // "Tell me about my dog and my car" has two answers: one in the top 1, both in the top 5.
    assert!(close(&all["recall"]["1"], 5.5 / 7.0), "{all}");
    assert!(close(&report["categories"]["things"]["recall"]["1"], 0.75));
    assert!(close(&report["categories"]["things"]["recall"]["5"], 1.0));
    assert!(close(&report["categories"]["isolation"]["hit"]["10"], 0.0));
    // What each search showed: the other group's memory is not merely ranked low, it is
    // not shown at all; the rest show their answers alone (both for the question with
    // two), 8 results over the 7 questions: what meaning alone found well below the best
    // is noise (it was 13 before the margin).
    assert!(close(&report["categories"]["isolation"]["shown"], 0.0), "{report}");
    assert!(close(&all["shown"], 8.0 / 7.0), "{all}");
    // The home it ran in was a temporary one: nothing was written to this one.
    assert!(!ctx.memories_path().exists());

    // What the figures are made of, a question a line, ids as the file gives them.
    let dir = tempfile::tempdir().unwrap();
    let ranks = dir.path().join("ranks.jsonl");
    let again = ctx.json(&["eval", &fixture(), "--ranks", ranks.to_str().unwrap()]);
    assert_eq!(again["overall"], report["overall"]);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&ranks)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7);
    assert_eq!(
        lines[0],
        json!({"group": "", "question": "Where do I live?", "category": "place",
               "answers": ["home"], "ranked": ["home"]})
    );
    assert_eq!(lines[3]["ranked"], json!(["pet", "car"]), "{}", lines[3]);
    assert_eq!(lines[4]["ranked"], json!(["D1:2"]), "{}", lines[4]);
    assert_eq!(lines[5]["ranked"], json!(["D1:1"]), "{}", lines[5]);
    assert_eq!((&lines[6]["group"], &lines[6]["ranked"]), (&json!("c2"), &json!([])));

    let missing = dir.path().join("no-such-folder").join("ranks.jsonl");
    let refused = ctx.fails(&["eval", &fixture(), "--ranks", missing.to_str().unwrap()]);
    assert!(refused.contains("no-such-folder"), "{refused}");

    let text = ctx.ok(&["eval", &fixture()]);
    assert!(text.contains("8 memories stored (0 refused)"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("all") && l.contains("0.857")),
        "{text}"
    );
}

#[test]
#[cfg(feature = "native-policy")]
fn eval_native_runs_the_same_policy_without_the_sandbox_and_agrees() {
    let ctx = Ctx::new();
    let dir = tempfile::tempdir().unwrap();
    let ranks = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let component = ctx.json(&["eval", &fixture(), "--ranks", &ranks("component")]);
    let native = ctx.json(&["eval", "--native", &fixture(), "--ranks", &ranks("native")]);
    assert_eq!(native, component);
    let read = |name: &str| std::fs::read_to_string(ranks(name)).unwrap();
    assert_eq!(read("native"), read("component"));
    assert_eq!(read("native").lines().count(), 7);
    assert!(!ctx.memories_path().exists());
}

/// The questions the issue found the static model missing ("What is my job?", "What vehicle
/// do I own?", "How much do I jog?") among notes that share their words: the default model
/// finds them.
#[test]
fn the_transformer_finds_reworded_questions_the_static_model_ranks_below_word_matches() {
    let ctx = Ctx::new();
    let file = format!(
        "{}/../tests/e2e/data/eval-paraphrase-small.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let stat = ctx.json(&["eval", "--embedder", "static", &file]);
    let transformer = ctx.json(&["eval", &file]);
    let close = |v: &serde_json::Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9;
    let (s, t) = (&stat["overall"], &transformer["overall"]);
    assert_eq!((&s["questions"], &t["questions"]), (&json!(4), &json!(4)));
    // The static model puts none of the four answers first.
    assert!(close(&s["hit"]["1"], 0.0), "{s}");
    // The transformer puts three first; "How much do I jog?" comes second, under "How much
    // does the new monitor cost?", which shares its words.
    assert!(close(&t["hit"]["1"], 0.75) && close(&t["hit"]["5"], 1.0), "{t}");
    assert!(close(&t["mrr"], 0.875), "{t}");
    let unknown = ctx.fails(&["eval", "--embedder", "nonesuch", &file]);
    assert!(
        unknown.contains("static") && unknown.contains("transformer"),
        "{unknown}"
    );
}

#[test]
fn a_malformed_evaluation_file_is_refused_with_its_line() {
    let ctx = Ctx::new();
    let path = ctx.home().join("bad.jsonl");
    std::fs::create_dir_all(ctx.home()).unwrap();
    std::fs::write(&path, "{\"kind\": \"memory\", \"id\": \"a\", \"text\": \"x\"}\n{\"kind\": \"question\", \"question\": \"q\", \"answers\": []}\n").unwrap();
    let err = ctx.fails(&["eval", path.to_str().unwrap()]);
    assert!(err.contains("line 2: a question needs the ids that answer it"), "{err}");

    // Two memories stored under one id: one would be refused and every question answered
    // by it scored against the other.
    for (lines, why) in [
        (
            r#"{"kind": "memory", "id": "x", "text": "a", "group": "c1"}
{"kind": "memory", "id": "c1/x", "text": "b"}"#,
            r#"line 2: memory "c1/x" is stored as "c1/x", as line 1's is"#,
        ),
        (
            r#"{"kind": "memory", "id": "x", "text": "a"}

{"kind": "memory", "id": "x", "text": "b"}"#,
            r#"line 3: memory "x" is stored as "x", as line 1's is"#,
        ),
    ] {
        std::fs::write(&path, lines).unwrap();
        let err = ctx.fails(&["eval", path.to_str().unwrap()]);
        assert!(err.contains(why), "{err}");
    }
    // The same id in two groups is two memories.
    std::fs::write(
        &path,
        r#"{"kind": "memory", "id": "x", "text": "I play the oboe", "group": "c1"}
{"kind": "memory", "id": "x", "text": "I play the oboe", "group": "c2"}
{"kind": "question", "question": "Which instrument?", "answers": ["x"], "group": "c2"}"#,
    )
    .unwrap();
    assert_eq!(ctx.json(&["eval", path.to_str().unwrap()])["memories"], 2);
}
