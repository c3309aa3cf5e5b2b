//! A conversation stored turn by turn, without contexts: a search that finds a question
//! finds the reply stored next after it (`guest/src/replies.rs`), in its own scope only,
//! within ten minutes, the same through a CLI call and a server holding every memory.

use chrono::{TimeDelta, Utc};
use serde_json::json;

use crate::support::ctx::{Ctx, contents, contents_and_reasons};
use crate::support::server::Server;

const REPLY: &str = "Assateague, two summers ago. Wild ponies walked right past us!";
const LATE: &str = "Melanie: The museum downtown had a dinosaur exhibit.";
const OTHERS: &str = "Joe: Yellowstone, with my brother, years ago.";

#[test]
fn a_search_that_finds_a_question_finds_the_reply_stored_after_it() {
    let ctx = Ctx::new();
    // An hour ago, a turn every twenty seconds; another user's memory between the question
    // and its reply; a last turn half an hour after the question before it.
    let start = Utc::now() - TimeDelta::hours(2);
    let at = |seconds: i64| (start + TimeDelta::seconds(seconds)).to_rfc3339();
    for (user, seconds, turn) in [
        (
            "mel",
            0,
            "Melanie: My sister dragged me to a pottery class on Saturday.",
        ),
        (
            "mel",
            20,
            "Caroline: What was the best camping trip you ever took with your kids?",
        ),
        ("joe", 30, OTHERS),
        ("mel", 40, REPLY),
        (
            "mel",
            50,
            "Caroline: Camping sounds fun, but I always end up in a hotel.",
        ),
        (
            "mel",
            60,
            "Melanie: The kids keep asking for a campfire in the backyard.",
        ),
        ("mel", 3_600, "Caroline: Have you ever been to Lisbon?"),
        ("mel", 5_400, LATE),
    ] {
        ctx.ok(&["--user", user, "--now", &at(seconds), "add", turn]);
    }
    let camping = "Where did Melanie go camping with her kids?";
    let lisbon = "Has Melanie been to Lisbon?";

    // The reply shares no word with the query and is too far from it in meaning to be
    // shown for itself (a build without the rule shows it not at all); it is shown for the
    // question it answers.
    let found = contents_and_reasons(&ctx.json(&["--user", "mel", "search", camping]));
    let reply = found.iter().find(|(c, _)| c == REPLY);
    assert!(
        reply.is_some_and(|(_, reasons)| reasons.iter().any(|r| r == "reply")),
        "{found:?}"
    );
    assert!(
        !found.iter().any(|(c, _)| c == OTHERS),
        "another user's memory: {found:?}"
    );
    // Only the reply to a question gains: no other hit was found as one.
    assert_eq!(
        found.iter().filter(|(_, r)| r.iter().any(|r| r == "reply")).count(),
        1,
        "{found:?}"
    );
    // Half an hour after the question is not its reply.
    let found = contents_and_reasons(&ctx.json(&["--user", "mel", "search", lisbon]));
    assert!(
        !found
            .iter()
            .any(|(c, reasons)| c == LATE && reasons.iter().any(|r| r == "reply")),
        "{found:?}"
    );
    // Joe's search never reaches Melanie's conversation, whatever was stored around his.
    let joes = contents(&ctx.json(&["--user", "joe", "search", camping])["hits"]);
    assert!(joes.iter().all(|c| c == OTHERS), "{joes:?}");

    // A server holding every memory (after a write) answers as the CLI does.
    let server = Server::start(&ctx, &["--readers", "0"]);
    let mut client = server.client();
    client.ok(
        "memory.add",
        json!({"user_id": "mel", "content": "Bought a new kettle"}),
    );
    for query in [camping, lisbon] {
        let served = contents_and_reasons(&client.ok("memory.search", json!({"user_id": "mel", "query": query})));
        let told = contents_and_reasons(&ctx.json(&["--user", "mel", "search", query]));
        assert_eq!(served, told, "{query}");
    }
}

/// A reply found only through its question, and saying when, is weighed up for a question
/// that asks when as a line found by its own words is (`asked_time`, after `replies`).
#[test]
fn a_reply_that_says_when_ranks_above_its_question_for_a_question_that_asks_when() {
    let ctx = Ctx::new();
    let start = Utc::now() - TimeDelta::hours(2);
    let at = |seconds: i64| (start + TimeDelta::seconds(seconds)).to_rfc3339();
    let question = "When is the hip operation going to be, do you know yet?";
    let reply = "Thursday after next";
    for (seconds, turn) in [
        (0, "The hospital finally wrote to me about the hip operation"),
        (20, question),
        (40, reply),
        (60, "The surgeon says the new hip should last twenty years"),
    ] {
        ctx.ok(&["--user", "gwen", "--now", &at(seconds), "add", turn]);
    }
    let found = contents_and_reasons(&ctx.json(&["--user", "gwen", "search", "When is the hip operation?"]));
    let place = |text: &str| found.iter().position(|(c, _)| c == text);
    assert!(place(reply).is_some() && place(reply) < place(question), "{found:#?}");
}
