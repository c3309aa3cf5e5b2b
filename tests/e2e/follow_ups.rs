//! A transcript stored line by line without contexts: a search that finds a line finds the
//! two lines stored after it (`guest/src/follow_ups.rs`), in its own scope only; facts told
//! one after another, and lines stored with their contexts, lend nothing.

use chrono::{TimeDelta, Utc};

use crate::support::ctx::{Ctx, contents_and_reasons};

const BEST: &str = "Marcus: The rescue dog is a sweetheart, but she's frightened of one thing in the house.";
const ANSWER: &str = "Marcus: The hoover. She hides under the bed the moment it comes out of the cupboard.";
const OTHERS: &str = "Joe: Our cat is frightened of thunder, poor thing.";

/// Stores `lines` for `user` twenty seconds apart, from two hours ago, with `context`
/// when given; another user's line goes in after the fourth.
fn store(ctx: &Ctx, user: &str, lines: &[&str], context: Option<&str>) {
    let start = Utc::now() - TimeDelta::hours(2);
    for (i, line) in lines.iter().enumerate() {
        let at = (start + TimeDelta::seconds(20 * i as i64)).to_rfc3339();
        let mut args = vec!["--user", user, "--now", &at, "add", line];
        if let Some(c) = context {
            args.extend(["--context", c]);
        }
        ctx.ok(&args);
        if i == 3 {
            let at = (start + TimeDelta::seconds(20 * i as i64 + 5)).to_rfc3339();
            ctx.ok(&["--user", "joe", "--now", &at, "add", OTHERS]);
        }
    }
}

/// A talk about an allotment and a dog: the answer to what the dog is frightened of
/// shares no word with the question and is two lines after the one that does.
const TALK: [&str; 12] = [
    "Gwen: Morning Marcus! How are the onions coming along?",
    "Marcus: Slowly. The onions are in and the beans go in next week.",
    "Gwen: My runner beans were frightened off by the frost last year, so wait a bit.",
    BEST,
    "Gwen: Oh bless her. Go on then.",
    ANSWER,
    "Gwen: Derek's terrier was exactly the same with his lawnmower.",
    "Marcus: Is Derek still coming to dig on Saturday?",
    "Gwen: He says so. He's bringing the big fork and a flask.",
    "Marcus: A rescue from the shelter in town, she's two, they think.",
    "Gwen: Two is a lovely age for a dog, past the chewing.",
    "Marcus: The shelter said she'd been in the house alone a lot before.",
];

#[test]
fn a_search_that_finds_a_line_finds_the_lines_stored_after_it() {
    let ctx = Ctx::new();
    store(&ctx, "gwen", &TALK, None);
    let question = "What is the rescue dog frightened of?";
    let found = contents_and_reasons(&ctx.json(&["--user", "gwen", "search", question]));
    assert!(found.iter().take(3).any(|(c, _)| c == BEST), "{found:#?}");
    // The answer shares no word with the question and is far from it in meaning: a build
    // without the rule drops it as noise. It is shown for the line two before it.
    let answer = found.iter().find(|(c, _)| c == ANSWER);
    assert!(answer.is_some_and(|(_, reasons)| reasons == &["reply"]), "{found:#?}");
    assert!(
        !found.iter().any(|(c, _)| c == OTHERS),
        "another user's line, stored between, is not lent to: {found:#?}"
    );
}

#[test]
fn facts_told_one_after_another_and_lines_with_contexts_lend_nothing() {
    // The same talk without speakers is a run of facts: the best hit lends nothing.
    let facts: Vec<&str> = TALK.iter().map(|l| l.split_once(": ").expect("a speaker").1).collect();
    let ctx = Ctx::new();
    store(&ctx, "gwen", &facts, None);
    let question = "What is the rescue dog frightened of?";
    let unlabelled = ANSWER.split_once(": ").expect("a speaker").1;
    let found = contents_and_reasons(&ctx.json(&["--user", "gwen", "search", question]));
    assert!(!found.iter().any(|(c, _)| c == unlabelled), "{found:#?}");

    // Lines stored with a context hold the line before already, and lend nothing either.
    let ctx = Ctx::new();
    store(&ctx, "gwen", &TALK, Some("3 March 2023"));
    let found = contents_and_reasons(&ctx.json(&["--user", "gwen", "search", question]));
    assert!(
        !found
            .iter()
            .any(|(c, reasons)| c == ANSWER && reasons.iter().any(|r| r == "reply")),
        "{found:#?}"
    );
}
