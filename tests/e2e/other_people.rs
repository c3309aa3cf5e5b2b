//! Other people in what the user tells, through `add` on the CLI and the real component:
//! someone else's change keeps the user's own fact ("Jess stopped going to the gym" after
//! "I go to the gym on Mondays"), the user's own change told with someone in it replaces
//! it, and the user's fact told again after someone else's news keeps both in one memory.
//! A probe of the CLI (2026-12-03) found hearsay and a named friend's change replacing the
//! user's routine; the blind sets are `eval/judgment/others-*.tsv`.

use crate::support::ctx::{Ctx, contents};

const T0: &str = "2026-03-04T10:00:00Z";
const HOUR_ON: &str = "2026-03-04T11:00:00Z";
const MONTH_ON: &str = "2026-04-04T10:00:00Z";

/// Adds `old` and then `new` in a home of their own; what `new` replaced, and what is live
/// a month on, sorted.
fn told(old: &str, new: &str) -> (Vec<String>, Vec<String>) {
    let ctx = Ctx::new();
    ctx.json(&["--user", "u", "--now", T0, "add", old]);
    let added = ctx.json(&["--user", "u", "--now", HOUR_ON, "add", new]);
    let replaced = added["superseded"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["content"].as_str().map(str::to_owned))
        .collect();
    let mut live = contents(&ctx.json(&["--user", "u", "--now", MONTH_ON, "list"]));
    live.sort();
    (replaced, live)
}

#[test]
fn someone_elses_change_keeps_the_users_own_fact() {
    for (mine, theirs) in [
        ("I go to the gym on Mondays", "Jess stopped going to the gym"),
        ("I take the bus to work", "I heard Tom doesn't take the bus anymore"),
        ("I sing in a choir on Tuesdays", "apparently Mike left the choir"),
        (
            "I work the early shift at the warehouse",
            "mike told me he's not doing the early shift anymore",
        ),
        (
            "I drink a lot of energy drinks",
            "my gf keeps telling me to quit energy drinks",
        ),
        (
            "I'm doing a part-time MA in history",
            "my classmate Ben dropped out of the MA",
        ),
    ] {
        let (replaced, live) = told(mine, theirs);
        assert!(replaced.is_empty(), "{theirs:?} replaced {replaced:?}");
        let mut both = vec![mine.to_owned(), theirs.to_owned()];
        both.sort();
        assert_eq!(live, both, "{theirs:?}");
    }
    // A name in lower case: her news passes in time, as news of someone else does; the
    // user's fact stays.
    let mine = "I'm learning Spanish on Duolingo";
    let (replaced, live) = told(mine, "kate gave up on duolingo, she lost her streak and rage quit");
    assert!(replaced.is_empty(), "{replaced:?}");
    assert!(live.iter().any(|m| m == mine), "{live:?}");
}

#[test]
fn the_users_own_change_told_with_someone_in_it_replaces_the_old_fact() {
    for (old, new) in [
        ("I drink coffee every morning", "my flatmate and I both gave up coffee"),
        (
            "I meditate every morning",
            "me and tom both stopped meditating, couldnt stick with it",
        ),
        (
            "I take 1000 IU of vitamin D",
            "GP's got me on 4000iu of vit D a day now",
        ),
        (
            "I play netball on Monday nights",
            "becky's ankle meant the team folded so no netball for me anymore",
        ),
        // Little alike by meaning: found by the thing it ends, "club"; and told with the
        // row it came after, no passing state.
        (
            "I ride with a cycling club on Sunday mornings",
            "Gary and I quit the club after the row with the chair",
        ),
    ] {
        let (replaced, live) = told(old, new);
        assert_eq!(replaced, [old], "{new:?}");
        assert_eq!(live, [new], "{new:?}");
    }
}

#[test]
fn the_users_fact_told_again_after_someone_elses_news_is_kept_with_it() {
    for (old, new) in [
        (
            "I go to the gym before work",
            "Jess stopped but I still hit the gym before work",
        ),
        ("I live in Manchester", "dad moved to Spain but I'm still in Manchester"),
    ] {
        let (replaced, live) = told(old, new);
        // The new memory holds the old fact and the news beside it: nothing is lost.
        assert_eq!(replaced, [old], "{new:?}");
        assert_eq!(live, [new], "{new:?}");
    }
}
