//! What the predecessor's users could do: bare relations, names taken from the content,
//! handles, merged people, and the conservative supersession rule's reach.

use serde_json::Value;

use crate::support::ctx::{Ctx, contents};

fn people(ctx: &Ctx, user: &str) -> Vec<Value> {
    ctx.json(&["--user", user, "people", "list"])
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn a_bare_relation_finds_the_person() {
    let ctx = Ctx::new();
    let sarah = ctx.json(&["--user", "u", "people", "add", "Sarah", "--relation", "wife"]);
    for reference in ["wife", "my wife", "the wife", "My Wife"] {
        let shown = ctx.json(&["--user", "u", "people", "show", reference]);
        assert_eq!(shown["id"], sarah["id"], "{reference}");
    }
    let m = ctx.json(&["--user", "u", "add", "Likes tulips", "--subject", "wife"]);
    assert_eq!(m["subject_person_ids"], serde_json::json!([sarah["id"]]));
    assert_eq!(people(&ctx, "u").len(), 1, "no person named 'wife'");
}

#[test]
fn the_name_comes_from_the_content() {
    let ctx = Ctx::new();
    ctx.json(&[
        "--user",
        "u",
        "add",
        "My wife Sarah loves hiking",
        "--subject",
        "my wife",
    ]);
    let all = people(&ctx, "u");
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(
        (all[0]["name"].as_str(), all[0]["relation"].as_str()),
        (Some("Sarah"), Some("wife"))
    );
    let hits = ctx.json(&["--user", "u", "search", "outdoors", "--about", "Sarah"]);
    assert_eq!(contents(&hits["hits"]), ["My wife Sarah loves hiking"]);
}

#[test]
fn a_handle_is_a_reference() {
    let ctx = Ctx::new();
    ctx.json(&["--user", "u", "people", "add", "Bob"]);
    ctx.json(&["--user", "u", "add", "Plays the drums on weekends", "--subject", "Bob"]);
    ctx.add("u", "The drums in the office are loud");
    let hits = ctx.json(&["--user", "u", "search", "drums", "--about", "@bob"]);
    assert_eq!(contents(&hits["hits"]), ["Plays the drums on weekends"], "{hits}");
    let shown = ctx.json(&["--user", "u", "people", "show", "@Bob"]);
    assert_eq!(shown["name"], "Bob");
}

#[test]
fn merged_and_foreign_person_ids_say_what_they_are() {
    let ctx = Ctx::new();
    let sarah = ctx.json(&["--user", "u", "people", "add", "Sarah"]);
    let sally = ctx.json(&["--user", "u", "people", "add", "Sally"]);
    ctx.json(&["--user", "u", "people", "merge", "Sarah", "Sally"]);
    let shown = ctx.json(&["--user", "u", "people", "show", sally["id"].as_str().unwrap()]);
    assert_eq!(
        shown["id"], sarah["id"],
        "one's own merged person leads to the one kept"
    );
    let err = ctx.fails(&["--user", "v", "people", "show", sarah["id"].as_str().unwrap()]);
    let unknown = ctx.fails(&["--user", "v", "people", "show", "00000000-0000-4000-8000-000000000000"]);
    assert!(!err.contains("not allowed"), "{err}");
    assert_eq!(
        err.replace(sarah["id"].as_str().unwrap(), "ID"),
        unknown.replace("00000000-0000-4000-8000-000000000000", "ID"),
        "another user's person reads exactly as one that never existed"
    );
}

/// The rule without a language model: plural statements in a group, third-person
/// statements about the memory's subject, and "when unsure, keep both".
#[test]
fn the_conservative_rule_reaches_we_and_she() {
    let ctx = Ctx::new();
    let group = ["--user", "u", "--chat", "team"];
    let add = |args: &[&str], text: &str, extra: &[&str]| -> Value {
        let mut all: Vec<&str> = args.to_vec();
        all.push("add");
        all.push(text);
        all.extend_from_slice(extra);
        ctx.json(&all)
    };
    add(&group, "Our standup time is 9am", &["--shared"]);
    let later = add(&group, "Our standup time is 10am", &["--shared"]);
    assert_eq!(later["superseded"].as_array().unwrap().len(), 1, "{later}");

    add(&group, "We live in Lisbon", &["--shared"]);
    let moved = add(&group, "We live in Porto", &["--shared"]);
    assert_eq!(moved["superseded"].as_array().unwrap().len(), 1, "{moved}");

    let me = ["--user", "u"];
    add(&me, "Her favorite color is purple", &["--subject", "Sarah"]);
    let changed = add(&me, "Her favorite color is yellow", &["--subject", "Sarah"]);
    assert_eq!(changed["superseded"].as_array().unwrap().len(), 1, "{changed}");

    add(&me, "I like dogs", &[]);
    let both = add(&me, "I like cats", &[]);
    assert!(
        both["superseded"].as_array().unwrap().is_empty(),
        "likes are many: {both}"
    );
    let live = contents(&ctx.json(&["--user", "u", "--chat", "team", "list"]));
    for kept in [
        "Our standup time is 10am",
        "We live in Porto",
        "Her favorite color is yellow",
        "I like dogs",
        "I like cats",
    ] {
        assert!(live.contains(&kept.to_owned()), "{kept}: {live:?}");
    }
    for gone in [
        "Our standup time is 9am",
        "We live in Lisbon",
        "Her favorite color is purple",
    ] {
        assert!(!live.contains(&gone.to_owned()), "{gone}: {live:?}");
    }
}
