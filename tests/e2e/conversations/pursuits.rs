//! What the teller lives by and works toward, told in passing, through `turn` and offline
//! `extract` on the CLI and the real component: the tools they use, a business they run, a
//! diet of two, whom they live with, days off, a goal, a trip with its month, a move, and
//! a taste or a pregnancy of someone of theirs. Their look-alikes (a plan to try a recipe,
//! an errand, someone's mood toward the teller) store nothing. The eighth probe
//! (2026-12-01) found none of the first kind stored.

use super::{NOW, extracted_after};
use crate::support::ctx::Ctx;

#[test]
fn pursuits_told_in_passing_are_kept_and_their_look_alikes_are_not() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let exchanges = [
        ("I use Figma for everything", "Nice."),
        (
            "hi, I'm Marco, I run a small Italian restaurant in Bath",
            "Hello Marco.",
        ),
        ("So my partner and I are vegan, have been for 5 years", "Noted."),
        ("I live alone with my dog Rufus", "Sounds cosy."),
        ("I'm trying to cut down on sugar", "Good plan."),
        ("I'm going to Rome for my 40th birthday in October", "Lovely."),
        ("my husband Pete hates spicy food btw so keep it mild", "Mild it is."),
        ("I'm going to try the dal tonight", "Enjoy."),
        ("I'm going to Tesco", "OK."),
        ("my boss hates me", "Sorry to hear it."),
        ("my son can't eat nuts, any party food ideas?", "Crisps and fruit."),
        (
            "Need a gift idea for my wife Laura, her birthday's on 9 April",
            "Flowers?",
        ),
        ("I've got insomnia, been diagnosed last year", "Sorry to hear."),
        ("I always fly economy plus, any tips for Toronto?", "Book early."),
        ("my laptop's a ThinkPad running Ubuntu", "Nice."),
        ("my car is a mess, help me clean it", "Start with the bins."),
    ];
    assert_eq!(
        extracted_after(&ctx, &exchanges),
        [
            "I always fly economy plus",
            "I live alone with my dog Rufus",
            "I run a small Italian restaurant in Bath",
            "I use Figma for everything",
            "I'm going to Rome for my 40th birthday in October",
            "I'm trying to cut down on sugar",
            "I've got insomnia",
            "My husband Pete hates spicy food",
            "My laptop's a ThinkPad running Ubuntu",
            "My name is Marco",
            "My partner and I are vegan",
            "My son can't eat nuts",
            "My wife's name is Laura",
        ],
    );
}
