//! The embedded transformer, the default (`[embedder] provider = "transformer"`):
//! all-MiniLM-L6-v2 run in the host from the weights embedded in the binary, through the
//! real component, index and CLI; and the static model it replaced as the default.

use base64::Engine as _;

use crate::support::ctx::Ctx;

const STATIC: &str = "[embedder]\nprovider = \"static\"\n";
const MODEL: &str = "all-minilm-l6-v2-int8";

fn facts(ctx: &Ctx) {
    for text in [
        "I work as a nurse at the county hospital",
        "I drive a 2015 Subaru Outback",
        "The hospital parking fees went up again this month",
        "Own the deploy checklist for the release",
    ] {
        ctx.add("u", text);
    }
}

/// The length of a stored vector: base64 of little-endian float32s.
fn dimension(line: &serde_json::Value) -> usize {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(line["embedding"].as_str().expect("an embedding"))
        .unwrap();
    bytes.len() / 4
}

#[test]
fn the_transformer_embeds_adds_and_answers_a_reworded_question_first() {
    // No config: the default.
    let ctx = Ctx::new();
    facts(&ctx);
    let lines = ctx.memory_lines();
    assert!(
        lines
            .iter()
            .all(|l| l["embedding_model"] == MODEL && dimension(l) == 384),
        "{lines:?}"
    );
    let hits = ctx.json(&["--user", "u", "search", "What is my job?"]);
    assert_eq!(
        hits["hits"][0]["content"], "I work as a nurse at the county hospital",
        "{hits}"
    );
    // The closest vector, alone in the vector list: "Own the deploy checklist" matches the
    // word "own" in full text and ties with it in the fusion (rank 1 in one list each).
    let hits = ctx.json(&["--user", "u", "search", "What vehicle do I own?"]);
    let similar: Vec<_> = hits["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["similarity"].is_number())
        .collect();
    assert_eq!(similar.len(), 1, "{hits}");
    assert_eq!(similar[0]["content"], "I drive a 2015 Subaru Outback", "{hits}");
    assert!(similar[0]["similarity"].as_f64().unwrap() > 0.4, "{hits}");
}

/// Both models run in the host, so a change between them costs only time: the next call
/// embeds every memory again, once, and writes the new vectors back. A home written on the
/// static model when it was the default, with no config, is switched the same way.
#[test]
fn switching_from_the_static_model_embeds_every_memory_again_once_by_itself() {
    let ctx = Ctx::new();
    ctx.config(STATIC);
    facts(&ctx);
    assert!(ctx.memory_lines().iter().all(|l| dimension(l) == 256));
    ctx.config("");
    let out = ctx.run(&["--json", "--user", "u", "search", "What is my job?"]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(MODEL) && stderr.contains("4 memories to embed again"),
        "{stderr}"
    );
    let hits: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        hits["hits"][0]["content"], "I work as a nurse at the county hospital",
        "{hits}"
    );
    assert!(hits["hits"][0]["similarity"].as_f64().unwrap() > 0.3, "{hits}");
    let latest: std::collections::HashMap<String, serde_json::Value> = ctx
        .memory_lines()
        .into_iter()
        .map(|l| (l["id"].as_str().unwrap().to_owned(), l))
        .collect();
    assert_eq!(latest.len(), 4);
    assert!(
        latest
            .values()
            .all(|l| l["embedding_model"] == MODEL && dimension(l) == 384)
    );
    // Once: the next call and an explicit rebuild embed nothing.
    let next = ctx.run(&["--user", "u", "search", "What vehicle do I own?"]);
    assert!(!String::from_utf8_lossy(&next.stderr).contains("embed again"));
    let again = ctx.json(&["rebuild-index"]);
    assert_eq!(again["embedded"].as_u64(), Some(0), "{again}");
    // And back: the static model's vectors were replaced, so they are embedded again too.
    ctx.config(STATIC);
    let hits = ctx.json(&["--user", "u", "search", "What is my job?"]);
    assert!(hits["hits"][0]["similarity"].is_number(), "{hits}");
    assert!(ctx.memory_lines().iter().rev().take(4).all(|l| dimension(l) == 256));
}
