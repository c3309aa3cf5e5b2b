//! Changes told in everyday words, through `add` on the CLI and the real component: each
//! replaces the one fact it changes and leaves a look-alike's. The pairs are the seventh
//! blind probe's (2026-12-01), which left both versions live.

use crate::support::ctx::{Ctx, contents};

const T0: &str = "2026-03-04T10:00:00Z";
const LATER: &str = "2026-03-20T10:00:00Z";

#[test]
fn a_step_in_a_partnership_a_pet_rehomed_or_a_retraction_replaces_it() {
    for (old, look_alike, news) in [
        (
            "My girlfriend is Sophie",
            "My sister got engaged!",
            "Sophie and I got engaged!",
        ),
        (
            "I'm going to propose to Kate at Christmas",
            "Tom and Ana got engaged last night",
            "She said yes!! Kate and I are engaged",
        ),
        (
            "I'm single",
            "my brother is seeing someone new",
            "I've started seeing someone, her name's Ana",
        ),
        (
            "I have a dog named Charlie",
            "We rehomed a cat from the shelter",
            "We rehomed Charlie with my aunt, couldn't give him enough attention",
        ),
        (
            "I'm allergic to penicillin",
            "Turns out I'm not allergic to amoxicillin after all",
            "Turns out I'm not allergic to penicillin after all, the allergy test was negative",
        ),
    ] {
        let ctx = Ctx::new();
        let add = |now: &str, text: &str| ctx.json(&["--user", "u", "--now", now, "add", text]);
        add(T0, old);
        let kept = add(LATER, look_alike);
        assert_eq!(kept["superseded"].as_array().map(Vec::len), Some(0), "{kept}");
        let replaced = add(LATER, news);
        assert_eq!(replaced["superseded"].as_array().map(Vec::len), Some(1), "{replaced}");
        let mut live = contents(&ctx.json(&["--user", "u", "--now", LATER, "list"]));
        live.sort();
        let mut want = vec![look_alike.to_owned(), news.to_owned()];
        want.sort();
        assert_eq!(live, want, "{old} then {news}");
    }
}
