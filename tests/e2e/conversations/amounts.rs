//! Standing amounts told in conversation, through `turn` and offline `extract` on the CLI
//! and the real component: a weight, a dose and a pay are kept, their news replaces them,
//! and numbers that tell nothing of the user are not stored. A probe (2026-12-01) found
//! offline extraction kept no amount at all.

use serde_json::Value;

use super::{NOW, turn};
use crate::support::ctx::Ctx;

fn extracted(ctx: &Ctx) -> Value {
    ctx.json(&["--user", "u", "extract"])
}

fn contents(v: &Value) -> Vec<String> {
    let mut c: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    c.sort();
    c
}

#[test]
fn amounts_told_in_passing_are_kept_and_their_news_replaces_them() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    turn(
        &ctx,
        "u",
        "s1",
        &[
            "quick q - I'm 84kg at the moment and want to start lifting, how much protein?",
            "About 130g a day.",
        ],
    );
    turn(
        &ctx,
        "u",
        "s1",
        &[
            "I'm on 50mg of sertraline, is it ok to have a glass of wine?",
            "One glass is usually fine.",
        ],
    );
    turn(
        &ctx,
        "u",
        "s1",
        &[
            "I earn 65k before tax in Denver, is that enough for a condo?",
            "It can be.",
        ],
    );
    turn(&ctx, "u", "s1", &["convert 84kg to stone pls", "13 st 3 lb."]);
    turn(
        &ctx,
        "u",
        "s1",
        &["if I earned 100k would I pay more tax?", "Yes, a higher marginal rate."],
    );
    turn(
        &ctx,
        "u",
        "s1",
        &["spent £80 at Tesco today, is that a lot for two?", "About average."],
    );
    let first = extracted(&ctx);
    assert_eq!(
        contents(&first["stored"]),
        [
            "I earn 65k before tax in Denver",
            "I'm 84kg at the moment",
            "I'm on 50mg of sertraline"
        ],
        "{first:#}"
    );
    turn(
        &ctx,
        "u",
        "s2",
        &[
            "they upped my sertraline to 100mg last week and I feel kinda weird",
            "That can happen.",
        ],
    );
    turn(
        &ctx,
        "u",
        "s2",
        &[
            "down to 79kg!!! 5 kilos gone, what should my next milestone be?",
            "Try 77kg.",
        ],
    );
    let news = extracted(&ctx);
    assert_eq!(news["stored"].as_array().map(Vec::len), Some(2), "{news:#}");
    // The old weight and dose are replaced: only their news is live.
    let live = ctx.json(&["--user", "u", "list"]);
    assert_eq!(
        contents(&live),
        [
            "Down to 79kg",
            "I earn 65k before tax in Denver",
            "They upped my sertraline to 100mg last week",
        ],
        "{live:#}"
    );
}
