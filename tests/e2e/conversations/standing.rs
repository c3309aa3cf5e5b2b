//! Standing facts told in everyday forms, through `turn` and offline `extract` on the CLI
//! and the real component: a home told with "we", teaching, a temperament denied, a
//! condition as the ground of a question, and how to answer, asked; their look-alikes (a
//! weekend's stay, someone else's, the answer at hand) store nothing. The seventh probe
//! (2026-12-01) found none of the first kind stored.

use super::{NOW, turn};
use crate::support::ctx::Ctx;

#[test]
fn standing_facts_told_in_passing_are_kept_and_their_look_alikes_are_not() {
    let ctx = Ctx::new().env("ASH_NOW", NOW);
    for (user, answer) in [
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
    ] {
        turn(&ctx, "u", "s1", &[user, answer]);
    }
    let out = ctx.json(&["--user", "u", "extract"]);
    let mut stored: Vec<String> = out["stored"]
        .as_array()
        .unwrap_or_else(|| panic!("{out:#}"))
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect();
    stored.sort();
    assert_eq!(
        stored,
        [
            "I teach maths at a secondary in Glasgow",
            "I'm a type 1 diabetic",
            "I'm not a morning person at all",
            "Keep answers under 100 words",
            "We're in Brighton now",
        ],
        "{out:#}"
    );
}
