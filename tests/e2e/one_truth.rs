//! One fact, one truth, through the CLI and the real component on the embedded default
//! (no language model): a fact told again is kept once, a change told in everyday words
//! replaces what it changes and keeps its lifetime, passing things pass, and `correct`
//! fixes a memory while its history keeps both.

use serde_json::Value;

use crate::ctx::{Ctx, contents};

const T0: &str = "2026-03-04T10:00:00Z";

fn live(ctx: &Ctx, user: &str, now: &str) -> Vec<String> {
    let list = ctx.json(&["--user", user, "--now", now, "list"]);
    contents(&list)
}

#[test]
fn a_fact_told_again_is_stored_once() {
    let ctx = Ctx::new();
    let first = ctx.json(&["--user", "u", "--now", T0, "add", "I like jazz music"]);
    let id = first["id"].as_str().unwrap().to_owned();
    assert_eq!(first["restated"], false);
    for (i, again) in [
        "I like jazz music.",
        "i like Jazz music",
        "I really like jazz music",
        "I like jazz music!",
    ]
    .into_iter()
    .enumerate()
    {
        let later = format!("2026-03-0{}T10:00:00Z", 5 + i);
        let out = ctx.json(&["--user", "u", "--now", &later, "add", again]);
        assert_eq!(out["id"], id.as_str(), "{again}: answered with the kept memory");
        assert_eq!(out["restated"], true, "{again}");
    }
    assert_eq!(live(&ctx, "u", "2026-03-10T10:00:00Z"), ["I like jazz music"]);
    // Counted as observed again, at the last telling.
    let kept = ctx.json(&["--user", "u", "show", &id]);
    assert_eq!(kept["observed_at"], "2026-03-08T10:00:00+00:00");
    let text = ctx.ok(&["--user", "u", "add", "i like jazz music"]);
    assert!(text.starts_with(&format!("Already known {id}")), "{text}");
    // Another user's identical fact is theirs.
    let other = ctx.json(&["--user", "v", "add", "I like jazz music"]);
    assert_eq!(other["restated"], false);
    assert_ne!(other["id"], id.as_str());
}

#[test]
fn repeats_within_one_import_are_stored_once() {
    let ctx = Ctx::new();
    let file = ctx.home().join("facts.txt");
    std::fs::write(
        &file,
        "I drive a blue Volvo\nI drive a blue Volvo.\nI drive a blue volvo\nI like tea\n",
    )
    .unwrap();
    let report = ctx.json(&["--user", "u", "import", file.to_str().unwrap()]);
    assert_eq!(
        (report["added"].as_u64(), report["present"].as_u64()),
        (Some(2), Some(2)),
        "{report}"
    );
    assert_eq!(live(&ctx, "u", T0).len(), 2);
}

#[test]
fn a_change_in_everyday_words_replaces_the_old_fact() {
    let ctx = Ctx::new();
    for (old, new) in [
        ("I work at Google", "I started a new job at Microsoft"),
        ("I'm vegetarian", "I'm not vegetarian anymore"),
        ("My favorite color is blue", "Actually my favourite colour is green now"),
        ("I use Vim", "I switched from Vim to VS Code"),
    ] {
        let user = old.replace(' ', "-");
        ctx.json(&["--user", &user, "--now", T0, "add", old]);
        let added = ctx.json(&["--user", &user, "--now", T0, "add", new]);
        let replaced: Vec<&str> = added["superseded"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["content"].as_str().unwrap())
            .collect();
        assert_eq!(replaced, [old], "{new}");
        assert_eq!(live(&ctx, &user, T0), [new]);
    }
    let hits = ctx.search("I-work-at-Google", "where do I work");
    assert_eq!(
        hits.first().map(String::as_str),
        Some("I started a new job at Microsoft")
    );
    // Facts that can both be true both stay.
    ctx.json(&["--user", "w", "add", "My sister lives in Berlin"]);
    let brother = ctx.json(&["--user", "w", "add", "My brother lives in Berlin"]);
    assert!(brother["superseded"].as_array().unwrap().is_empty());
}

#[test]
fn a_replacement_lives_as_long_as_what_it_replaced() {
    let ctx = Ctx::new();
    ctx.json(&["--user", "u", "--now", T0, "add", "I live in Lisbon"]);
    let moved = ctx.json(&["--user", "u", "--now", T0, "add", "I moved to Porto last month"]);
    assert_eq!(moved["superseded"][0]["content"], "I live in Lisbon");
    assert_eq!(moved["expires_at"], Value::Null);
    let later = "2026-04-22T10:00:00Z"; // 49 days on
    assert_eq!(live(&ctx, "u", later), ["I moved to Porto last month"]);
    let hits = contents(&ctx.json(&["--user", "u", "--now", later, "search", "where do I live"])["hits"]);
    assert_eq!(hits.first().map(String::as_str), Some("I moved to Porto last month"));
}

#[test]
fn passing_things_pass_and_lasting_ones_last() {
    let ctx = Ctx::new();
    let add = |text: &str| ctx.json(&["--user", "u", "--now", T0, "add", text]);
    let traffic = add("I'm stuck in traffic");
    let dentist = add("I have a dentist appointment tomorrow at 3pm");
    let tokyo = add("I'm flying to Tokyo next Friday");
    let vegan = add("I became vegan two years ago");
    assert_ne!(traffic["memory_type"], "identity");
    let expiry = |m: &Value| m["expires_at"].as_str().map(str::to_owned);
    assert!(
        expiry(&dentist).is_some_and(|e| e.starts_with("2026-03-06")),
        "the day after the appointment: {dentist}"
    );
    assert!(expiry(&tokyo).is_some_and(|e| e.as_str() > "2026-03-13"), "{tokyo}");
    assert_eq!(vegan["expires_at"], Value::Null);
    assert!(["identity", "knowledge", "preference"].contains(&vegan["memory_type"].as_str().unwrap()));
    assert_eq!(
        live(&ctx, "u", "2026-03-05T08:00:00Z").len(),
        4,
        "all hold the next morning"
    );
    assert_eq!(
        live(&ctx, "u", "2026-04-30T10:00:00Z"),
        ["I became vegan two years ago"]
    );
}

#[test]
fn correct_replaces_a_memory_and_history_keeps_both() {
    let ctx = Ctx::new();
    let id = ctx.json(&[
        "--user",
        "u",
        "--now",
        T0,
        "add",
        "My sister lives in Berlin",
        "--subject",
        "my sister Anna",
    ])["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Another user, a secret and an empty text are refused, and change nothing.
    let before = ctx.snapshot();
    assert!(
        ctx.fails(&["--user", "v", "correct", &id, "My sister lives in Rome"])
            .contains("no memory")
    );
    ctx.fails(&["--user", "u", "correct", &id, "my password is hunter2hunter2"]);
    ctx.fails(&["--user", "u", "correct", &id, "   "]);
    assert!(ctx.snapshot() == before, "a refused correction changed the home");

    let out = ctx.json(&["--user", "u", "correct", &id[..8], "My sister lives in Munich"]);
    let new_id = out["memories"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(out["superseded"][0]["memory"]["id"], id.as_str());
    assert_eq!(out["memories"][0]["source"], "correction");
    // The subjects stay the memory's.
    let about = ctx.json(&["--user", "u", "search", "Munich", "--about", "Anna"]);
    assert_eq!(contents(&about["hits"]), ["My sister lives in Munich"]);
    let history = ctx.json(&["--user", "u", "history", &new_id]);
    assert_eq!(
        contents(&history),
        ["My sister lives in Berlin", "My sister lives in Munich"]
    );
    // The replaced one is not corrected again; its replacement is.
    assert!(
        ctx.fails(&["--user", "u", "correct", &id, "My sister lives in Paris"])
            .contains(&new_id)
    );
    let same = ctx.ok(&["--user", "u", "correct", &new_id, "my sister lives in munich"]);
    assert!(same.starts_with("Nothing to correct"), "{same}");
    assert_eq!(live(&ctx, "u", "2026-03-05T10:00:00Z"), ["My sister lives in Munich"]);
}
