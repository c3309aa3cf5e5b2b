//! Standing facts told in everyday forms, through `turn` and offline `extract` on the CLI
//! and the real component: a home told with "we", teaching, a temperament denied, a
//! condition as the ground of a question, and how to answer, asked; their look-alikes (a
//! weekend's stay, someone else's, the answer at hand) store nothing. The seventh probe
//! (2026-12-01) found none of the first kind stored.

use super::{NOW, extracted_after};
use crate::support::ctx::Ctx;

#[test]
fn standing_facts_told_in_passing_are_kept_and_their_look_alikes_are_not() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    let exchanges = [
        ("we're in Brighton now, moved down from London in the spring", "Lovely."),
        (
            "I teach maths at a secondary in Glasgow — any starter ideas?",
            "Try a number puzzle.",
        ),
        ("not a morning person at all so 6am gym is out", "Evenings then."),
        (
            "as a type 1 diabetic, what snacks should I keep in my bag?",
            "Glucose tabs and a banana.",
        ),
        ("can u keep answers under 100 words? I read on my phone", "Will do."),
        ("we're in Lisbon this weekend!", "Enjoy."),
        ("my sister teaches maths in Leeds", "Nice."),
        ("redo that as bullet points", "Sure:"),
    ];
    assert_eq!(
        extracted_after(&ctx, &exchanges),
        [
            "I teach maths at a secondary in Glasgow",
            "I'm a type 1 diabetic",
            "I'm not a morning person at all",
            "Keep answers under 100 words",
            "We're in Brighton now",
        ],
    );
}
