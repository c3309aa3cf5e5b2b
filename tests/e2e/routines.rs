//! Routines and the days they are broken, through `add` on the CLI and the real component:
//! a one-off ("skipped my 3pm coffee today") leaves the routine and passes, a change for
//! good replaces it, and the routine told again as the usual is kept once. A probe of the
//! CLI with the blind set `eval/judgment/exceptions-*.tsv` (2026-12-03) found a one-off
//! replacing the routine and then expiring, which left nothing.

use crate::support::ctx::{Ctx, contents};

/// A Wednesday, the hour after it, a month on and two months on.
const T0: &str = "2026-03-04T10:00:00Z";
const HOUR_ON: &str = "2026-03-04T11:00:00Z";
const MONTH_ON: &str = "2026-04-04T10:00:00Z";
const TWO_MONTHS_ON: &str = "2026-05-04T10:00:00Z";

fn live(ctx: &Ctx, now: &str) -> Vec<String> {
    contents(&ctx.json(&["--user", "u", "--now", now, "list"]))
}

#[test]
fn a_routine_broken_once_stays_and_one_changed_for_good_is_replaced() {
    for (routine, once, for_good) in [
        (
            "I have a coffee at 3pm",
            "skipped my 3pm coffee today, wanted to actually sleep tonight",
            "No more afternoon coffee for me, it wrecks my sleep",
        ),
        (
            "I take the bus to work",
            "Got a lift in with my neighbour today, so no bus",
            "Tom and I carpool every day now, so no more bus for me",
        ),
        (
            "I drink wine with dinner",
            "No wine tonight, I'm driving later",
            "I've given up alcohol for good, doctor's orders",
        ),
        (
            "I work in the London office",
            "In the Bristol office today for a workshop",
            "Transferred to the Bristol office permanently as of this month",
        ),
    ] {
        let ctx = Ctx::new();
        let add = |now: &str, text: &str| ctx.json(&["--user", "u", "--now", now, "add", text]);
        add(T0, routine);
        let broken = add(HOUR_ON, once);
        assert_eq!(
            broken["superseded"].as_array().map(Vec::len),
            Some(0),
            "{once}: {broken}"
        );
        assert_eq!(live(&ctx, MONTH_ON), [routine], "{once} has passed");
        let changed = add(MONTH_ON, for_good);
        let gone: Vec<&str> = changed["superseded"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["content"].as_str())
            .collect();
        assert_eq!(gone, [routine], "{for_good}");
        assert_eq!(live(&ctx, TWO_MONTHS_ON), [for_good]);
    }
}

#[test]
fn a_routine_told_again_as_the_usual_is_kept_once() {
    for (routine, again) in [
        ("I eat fish on Fridays", "Fish Friday as always."),
        (
            "I have porridge for breakfast",
            "porridge again this morning, as always",
        ),
    ] {
        let ctx = Ctx::new();
        let first = ctx.json(&["--user", "u", "--now", T0, "add", routine]);
        let told = ctx.json(&["--user", "u", "--now", HOUR_ON, "add", again]);
        assert_eq!(told["restated"], true, "{again}: {told}");
        assert_eq!(told["id"], first["id"], "{told}");
        assert_eq!(live(&ctx, MONTH_ON), [routine]);
    }
}
