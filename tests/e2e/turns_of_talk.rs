//! A conversation stored one `add` a turn, as an agent stores a chat, through the CLI and
//! the real component: one speaker's later turns of talk, with their greetings, thanks,
//! questions back and denials in passing, hide none of that speaker's earlier turns; a
//! change told as one (`judgment::talk_of_several_sentences`) still replaces the turn it
//! changes. `eval/judgment/talk-*.tsv` measures the rules on many more.

use crate::support::ctx::{Ctx, contents};

const DAY: &str = "2026-05-02T18:00:00Z";

/// Stores `turns` one `add` each, with the day's date as their context, and returns what
/// each add replaced (contents) beside what is live after them all.
fn told_one_add_a_turn(ctx: &Ctx, turns: &[&str]) -> (Vec<Vec<String>>, Vec<String>) {
    let replaced = turns
        .iter()
        .map(|turn| {
            let added = ctx.json(&[
                "--user",
                "u",
                "--now",
                DAY,
                "add",
                "--context",
                "2 May 2026",
                "--",
                turn,
            ]);
            contents(&added["superseded"])
        })
        .collect();
    let live = contents(&ctx.json(&["--user", "u", "--now", DAY, "list", "--limit", "100"]));
    (replaced, live)
}

#[test]
fn one_speakers_later_turns_of_talk_hide_none_of_their_earlier_ones() {
    let ctx = Ctx::new();
    let turns = [
        "Ines: I have a few films to recommend. Arrival is beautiful and strange. Paddington 2 is just lovely. As for my favourite film, it's hard to pick one!",
        "Ines: Yeah, you're right! What's your favourite film to watch with her?",
        "Ezra: I love painting seascapes. The sea calms me down. Here's one of my latest.",
        "Ezra: Sorry about your rough week. Don't worry about the cake. I'm fine, just finished this painting of a harbour. It helps me unwind. How's everything with you?",
        "Sam: Small things matter, they build you up over time.",
        "Sam: Agreed, Ezra! Family is everything. They're there for us no matter what. I'm grateful for them.",
        "Theo: Congrats again! I'm so happy for you and your new husband!",
        "Theo: That's cool! I like breaking up my revision into smaller parts. 25 minutes on, then 5 minutes off for something fun.",
        "Gwen: Go, Jonas! I'm here for you. Keep going!",
        "Gwen: Way to go, Jonas! Walking into those networking events takes guts. Keep it up!",
    ];
    let (replaced, live) = told_one_add_a_turn(&ctx, &turns);
    for (turn, gone) in turns.iter().zip(&replaced) {
        assert!(gone.is_empty(), "{turn:?} replaced {gone:?}");
    }
    for turn in turns {
        assert!(live.iter().any(|c| c == turn), "{turn:?} is not live: {live:?}");
    }
    // And what was said is found by what it said.
    let found = contents(
        &ctx.json(&[
            "--user",
            "u",
            "--now",
            DAY,
            "search",
            "--limit",
            "3",
            "Which films did Ines recommend?",
        ])["hits"],
    );
    assert_eq!(found.first().map(String::as_str), Some(turns[0]), "{found:?}");
}

#[test]
fn a_change_told_in_a_turn_still_replaces_the_turn_it_changes() {
    let ctx = Ctx::new();
    let (replaced, live) = told_one_add_a_turn(
        &ctx,
        &[
            "Ana: I drive an old Golf, it's falling apart.",
            "Ana: I sold the Golf and got a bike.",
            "Omar: I work at the bike shop on Castle Street. I fix wheels mostly.",
            "Omar: Hey! I don't work at the bike shop anymore. Got a job at the council depot. How's you?",
        ],
    );
    assert_eq!(replaced[1], ["Ana: I drive an old Golf, it's falling apart."]);
    assert_eq!(
        replaced[3],
        ["Omar: I work at the bike shop on Castle Street. I fix wheels mostly."]
    );
    assert_eq!(live.len(), 2, "{live:?}");
}
