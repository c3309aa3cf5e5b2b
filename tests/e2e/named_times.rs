//! A question that names a stretch of days, a holiday, or a time counted from the day it
//! is asked finds what was said then, among memories told alike; and what was said of a
//! day it names, though it shares no word with the question.

use crate::support::ctx::{Ctx, contents, contents_and_reasons};

/// Four dinners for the neighbours, told alike, each told on the day it was cooked.
fn dinners() -> Ctx {
    let ctx = Ctx::new();
    for (text, at) in [
        ("Cooked a mushroom risotto for the neighbours", "2022-12-25T19:00:00Z"),
        ("Cooked a lamb stew for the neighbours", "2023-02-11T19:00:00Z"),
        // A Saturday.
        ("Cooked a lentil curry for the neighbours", "2023-03-04T19:00:00Z"),
        ("Cooked a pumpkin soup for the neighbours", "2023-10-31T19:00:00Z"),
    ] {
        ctx.ok(&["--user", "sam", "--now", at, "add", text, "--observed-at", at]);
    }
    ctx
}

fn top(ctx: &Ctx, now: &str, query: &str) -> String {
    let found = ctx.json(&["--user", "sam", "--now", now, "search", query]);
    contents(&found["hits"]).first().cloned().unwrap_or_default()
}

#[test]
fn a_question_that_names_a_stretch_of_days_or_a_holiday_finds_what_was_said_in_it() {
    let ctx = dinners();
    let later = "2023-11-20T12:00:00Z";
    let wrong = [
        ("What did I cook for the neighbours over Christmas?", "risotto"),
        (
            "What did I cook for the neighbours the week before 13 February 2023?",
            "stew",
        ),
        (
            "What did I cook for the neighbours between 1 and 5 March 2023?",
            "curry",
        ),
        (
            "What did I cook for the neighbours in the first week of March?",
            "curry",
        ),
        ("What did I cook for the neighbours on Halloween?", "pumpkin"),
        ("What did I cook for the neighbours the weekend of 12 February?", "stew"),
    ]
    .into_iter()
    .filter_map(|(query, wanted)| {
        let found = top(&ctx, later, query);
        (!found.contains(wanted)).then(|| format!("{query}: {found}"))
    })
    .collect::<Vec<_>>();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_question_in_words_of_relative_time_counts_from_the_day_it_is_asked() {
    let ctx = dinners();
    let wrong = [
        // A Wednesday: last weekend was the 4th and 5th of March.
        (
            "2023-03-08T12:00:00Z",
            "What did I cook for the neighbours last weekend?",
            "curry",
        ),
        (
            "2023-02-15T12:00:00Z",
            "What did I cook for the neighbours last weekend?",
            "stew",
        ),
        (
            "2023-02-20T12:00:00Z",
            "What did I cook for the neighbours two months ago?",
            "risotto",
        ),
        (
            "2023-11-01T12:00:00Z",
            "What did I cook for the neighbours yesterday?",
            "pumpkin",
        ),
        // A Monday: the Saturday before last was the 4th.
        (
            "2023-03-13T12:00:00Z",
            "What did I cook for the neighbours the Saturday before last?",
            "curry",
        ),
    ]
    .into_iter()
    .filter_map(|(now, query, wanted)| {
        let found = top(&ctx, now, query);
        (!found.contains(wanted)).then(|| format!("asked on {now}, {query}: {found}"))
    })
    .collect::<Vec<_>>();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn what_was_said_of_the_day_a_question_names_is_found_though_it_shares_no_word_with_it() {
    let ctx = Ctx::new();
    // A week of evenings, most told with the question's own "doing"; Sunday's tells of
    // Saturday the 7th in words the question does not use.
    for (text, day) in [
        ("Doing laundry and paying bills all evening", "2026-02-02"),
        ("Doing nothing much, the rain kept everyone indoors", "2026-02-05"),
        ("Spent the whole day doing my tax return", "2026-02-06"),
        (
            "Went to the pottery open studio yesterday and threw a lopsided bowl",
            "2026-02-08",
        ),
        ("Doing a quiet night in with soup", "2026-02-09"),
        ("Doing the school run every morning this week", "2026-02-10"),
        ("I was doing overtime at the warehouse again", "2026-02-11"),
    ] {
        let at = format!("{day}T20:00:00Z");
        ctx.ok(&["--user", "sam", "--now", &at, "add", text, "--observed-at", &at]);
    }
    // Another user's Saturday, told the same way: of the day, but not Sam's.
    let sunday = "2026-02-08T21:00:00Z";
    let theirs = "Went skydiving yesterday with the club, my first solo jump";
    ctx.ok(&["--user", "kim", "--now", sunday, "add", theirs, "--observed-at", sunday]);
    let later = "2026-03-01T12:00:00Z";
    for query in [
        "What was I doing on 7 February 2026?",
        "What did I get up to between 7 and 8 February 2026?",
    ] {
        let found = ctx.json(&["--user", "sam", "--now", later, "search", query]);
        let hits = contents_and_reasons(&found);
        let (first, reasons) = hits.first().unwrap_or_else(|| panic!("{query}: nothing found"));
        assert!(first.contains("pottery"), "{query}: {hits:#?}");
        assert!(reasons.iter().any(|r| r == "time"), "{query}: {reasons:?}");
        assert!(!hits.iter().any(|(c, _)| c.contains("skydiving")), "{query}: {hits:#?}");
    }
}
