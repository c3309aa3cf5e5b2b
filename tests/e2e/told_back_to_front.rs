//! A fact told back to front, through the CLI and the real component on the embedded
//! default: "Sofia is my girlfriend" after "My girlfriend is Sofia" is the fact told again,
//! "Kate is my manager now" replaces "My manager is Dan", and facts of the same words whose
//! people trade places ("I'm Lucy's boss" after "Lucy is my boss") both stay.

use crate::support::ctx::{Ctx, contents};

const T0: &str = "2026-03-04T10:00:00Z";
const T1: &str = "2026-03-05T10:00:00Z";

fn live(ctx: &Ctx, user: &str) -> Vec<String> {
    contents(&ctx.json(&["--user", user, "--now", T1, "list"]))
}

#[test]
fn a_fact_told_back_to_front_is_kept_once() {
    let ctx = Ctx::new();
    for (user, first, again) in [
        ("a", "My girlfriend is Sofia", "Sofia is my girlfriend"),
        ("b", "I grew up in Glasgow", "Glasgow is where I grew up"),
        ("c", "I moved to Berlin in 2019", "2019 was the year I moved to Berlin"),
        ("d", "I drink oat milk", "oat milk is what I drink"),
        ("e", "My cat is called Biscuit", "Biscuit is my cat's name"),
        ("f", "my aunt maria raised me", "i was raised by my aunt Maria"),
    ] {
        let kept = ctx.json(&["--user", user, "--now", T0, "add", first]);
        let out = ctx.json(&["--user", user, "--now", T1, "add", again]);
        assert_eq!(out["restated"], true, "{again}");
        assert_eq!(out["id"], kept["id"], "{again}: answered with the kept memory");
        assert_eq!(live(&ctx, user), [first], "{again}");
    }
}

#[test]
fn a_change_told_back_to_front_replaces_the_old_value() {
    let ctx = Ctx::new();
    let old = ctx.json(&["--user", "u", "--now", T0, "add", "My manager is Dan"]);
    let new = ctx.json(&["--user", "u", "--now", T1, "add", "Kate is my manager now, Dan left"]);
    assert_eq!(live(&ctx, "u"), ["Kate is my manager now, Dan left"]);
    let history = ctx.json(&["--user", "u", "history", new["id"].as_str().unwrap()]);
    assert_eq!(
        contents(&history),
        ["My manager is Dan", "Kate is my manager now, Dan left"],
        "{old}"
    );
}

#[test]
fn facts_whose_people_trade_places_both_stay() {
    let ctx = Ctx::new();
    for (user, first, other) in [
        ("a", "Lucy is my boss", "I'm Lucy's boss"),
        ("b", "my husband drives me to work", "i drive my husband to work"),
        (
            "c",
            "coldplay is my wife's favourite band",
            "my favourite band is coldplay",
        ),
        ("d", "our anniversary is 10 july", "10 july is when we got engaged"),
        ("e", "I'm from Leeds", "I met my wife in Leeds"),
    ] {
        ctx.json(&["--user", user, "--now", T0, "add", first]);
        let out = ctx.json(&["--user", user, "--now", T1, "add", other]);
        assert_eq!(out["restated"], false, "{other}");
        let mut kept = live(&ctx, user);
        kept.sort();
        let mut both = vec![first.to_owned(), other.to_owned()];
        both.sort();
        assert_eq!(kept, both, "{first} / {other}");
    }
}

/// A fact as large as a memory may be, a correction's preamble told a thousand times: the
/// component reads it through (a loop, not a call a preamble) and stores it beside what it
/// holds, replacing nothing; the home answers as before afterwards.
#[test]
fn a_preamble_told_a_thousand_times_is_stored_without_harm() {
    let ctx = Ctx::new();
    ctx.json(&["--user", "u", "--now", T0, "add", "My girlfriend is Sofia"]);
    let hostile = format!("{}Sofia is my girlfriend", "scratch that, ".repeat(1_100));
    let out = ctx.json(&["--user", "u", "--now", T1, "add", &hostile]);
    assert!(contents(&out["superseded"]).is_empty(), "{}", out["superseded"]);
    assert_eq!(live(&ctx, "u").len(), 2);
    let again = ctx.json(&["--user", "u", "--now", T1, "add", "Sofia is my girlfriend"]);
    assert_eq!(again["restated"], true, "{again}");
}
