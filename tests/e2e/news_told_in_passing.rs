//! News told the way people tell it, through `add` on the CLI and the real component: an
//! ending told as an event ("let the nanny go", "binned all my contacts"), a value
//! corrected by name ("i live in Adelaide not brisbane"), a reason that is no plan. Each
//! replaces the one fact it ends; its look-alike, told first, replaces nothing. The pairs
//! are two blind probes' (2026-12-02), which had left both versions live.

use crate::everyday_changes::told_in_turn;
use crate::support::ctx::{Ctx, contents};

const T0: &str = "2026-06-01T10:00:00Z";

/// [`told_in_turn`], then: exactly the look-alike and the news are live.
fn news_replaces_beside_its_look_alike(old: &str, look_alike: &str, news: &str) {
    let mut live = told_in_turn(old, look_alike, news);
    live.sort();
    let mut want = vec![look_alike.to_owned(), news.to_owned()];
    want.sort();
    assert_eq!(live, want, "{old} then {news}");
}

#[test]
fn an_ending_told_as_an_event_replaces_what_it_ends() {
    for (old, look_alike, news) in [
        (
            "we have a nanny who does the school pickups",
            "let the dog go off the lead in the park",
            "let the nanny go, my mum's doing pickups now",
        ),
        (
            "I wear contact lenses",
            "binned my old trainers",
            "had laser eye surgery last month, binned all my contacts",
        ),
        (
            "Netflix is the only streaming thing I pay for",
            "my sister cancelled her gym membership",
            "cancelled netflix, just have disney+ now for the kids",
        ),
        (
            "I've got a golden retriever called Biscuit",
            "we had to have the boiler put in last week",
            "we had to have biscuit put to sleep on tuesday. the house is so quiet",
        ),
        (
            "I've got a Liverpool season ticket",
            "didn't renew my passport in time, nightmare",
            "didn't renew the season ticket this year, far too dear",
        ),
        (
            "I'm a member of the National Trust",
            "my mum let her gym membership lapse",
            "let my national trust membership lapse, we weren't going enough",
        ),
        (
            "I use VS Code for all my coding",
            "my brother uninstalled steam to get some work done",
            "fully moved to neovim, uninstalled vs code yesterday",
        ),
        (
            "I use Windows",
            "done with work for the week",
            "I switched to a MacBook, done with Windows for good",
        ),
        (
            "I drink about four coffees a day",
            "my dad cut out sugar completely",
            "cut out coffee completely, two weeks caffeine free and surviving",
        ),
        (
            "I teach maths at a high school in Durban",
            "my sister resigned from the council last year",
            "resigned from the school at the end of term, I'm tutoring online full-time now",
        ),
        (
            "I'm learning Spanish on Duolingo",
            "my flatmate is learning Japanese since she's going to Tokyo",
            "dropped the spanish, doing japanese instead since we're going to tokyo next year",
        ),
        (
            "I've got a Liverpool season ticket",
            "my uncle gave up his allotment, couldn't keep up with it",
            "gave up the season ticket this year, couldn't justify the price anymore",
        ),
        (
            "I play drums in a band called Wolfsbane",
            "Oasis broke up last month",
            "Wolfsbane broke up last month",
        ),
        (
            "I volunteer at the food bank on Saturdays",
            "stepped back from the edge of the platform",
            "stepped back from the food bank, i was burnt out",
        ),
    ] {
        news_replaces_beside_its_look_alike(old, look_alike, news);
    }
}

#[test]
fn a_value_corrected_or_a_new_job_home_or_pay_replaces_the_old_one() {
    for (old, look_alike, news) in [
        (
            "I live in Brisbane",
            "my sister lives in Adelaide, not Perth",
            "oops, typo before, i live in Adelaide not brisbane lol",
        ),
        (
            "my birthday is 14 March",
            "we went to Paris in May, not March",
            "sorry, typo earlier - my birthday is the 14th of May, not March",
        ),
        (
            "I work as a barista at a cafe on Byres Road",
            "my sister got a job at the bank",
            "got the job at the bank!! starting as a teller on monday",
        ),
        (
            "we rent an apartment in Brooklyn",
            "my sister lives in Jersey City now",
            "we bought a place!! closed yesterday, we live in Jersey City now",
        ),
        (
            "my birthday is march 14",
            "the party's on the 20th, not the 14th",
            "actually my birthday's march 15th, not the 14th",
        ),
        (
            "I'm on 45k a year",
            "my partner earns about 50k",
            "omg guess what, got a payrise, 52k now",
        ),
        (
            "I can't stand olives",
            "i should try olives again??",
            "ok weirdly i love olives now?? had some proper ones in greece",
        ),
    ] {
        news_replaces_beside_its_look_alike(old, look_alike, news);
    }
}

#[test]
fn a_player_a_deaf_ear_or_an_office_told_again_is_kept_once() {
    for (first, again) in [
        ("I play the drums", "I'm a drummer"),
        ("I'm deaf in my left ear", "I can't hear out of my left ear"),
        ("I work in Canary Wharf", "my office is in canary wharf"),
    ] {
        let ctx = Ctx::new();
        let add = |text: &str| ctx.json(&["--user", "u", "--now", T0, "add", text]);
        add(first);
        let out = add(again);
        assert_eq!(out["restated"], true, "{first} / {again}: {out}");
        assert_eq!(contents(&ctx.json(&["--user", "u", "list"])), vec![first.to_owned()]);
    }
}

/// On the way somewhere or caught in the rain is gone within a month; a condition told
/// beside the day's tiredness, with the year it began, is kept a year on.
#[test]
fn on_the_way_passes_and_a_condition_had_for_years_lasts() {
    for (text, later, kept) in [
        ("I'm in a taxi on the way to the station", "2026-07-01T10:00:00Z", false),
        (
            "it's absolutely lashing here, I'm soaked through",
            "2026-07-01T10:00:00Z",
            false,
        ),
        (
            "just tired today like always, I've got chronic fatigue syndrome, have had it since 2019",
            "2027-06-01T10:00:00Z",
            true,
        ),
    ] {
        let ctx = Ctx::new();
        ctx.json(&["--user", "u", "--now", T0, "add", text]);
        let live = contents(&ctx.json(&["--user", "u", "--now", later, "list"]));
        assert_eq!(live == vec![text.to_owned()], kept, "{text} at {later}: {live:?}");
    }
}
