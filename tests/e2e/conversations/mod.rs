//! Conversations end to end, through the real component, the CLI and a real SQLite
//! index: turns stored redacted and apart from memories, past messages in the context,
//! facts extracted by rules and by a scripted language model on loopback (with malformed,
//! hostile and slow answers), the profile, and the rule extractor's precision on a
//! hand-labelled set.

use serde_json::Value;

use crate::support::ctx::Ctx;

mod amounts;
mod labelled;
mod model;
mod pursuits;
mod rules;
mod standing;
mod turns;

/// A Sunday.
const NOW: &str = "2026-11-22T18:00:00Z";

fn turn(ctx: &Ctx, user: &str, session: &str, said: &[&str]) -> Value {
    let mut args = vec!["--user", user, "turn", "--session", session];
    args.extend_from_slice(said);
    ctx.json(&args)
}

/// Each exchange stored by `turn` in one session, then offline `extract`: what it
/// stored, sorted.
fn extracted_after(ctx: &Ctx, exchanges: &[(&str, &str)]) -> Vec<String> {
    for (user, answer) in exchanges {
        turn(ctx, "u", "s1", &[user, answer]);
    }
    let out = ctx.json(&["--user", "u", "extract"]);
    let mut stored = crate::support::ctx::contents(&out["stored"]);
    stored.sort();
    stored
}

/// Every byte under the home, index included, as text.
fn everything(ctx: &Ctx) -> String {
    ctx.every_file()
        .iter()
        .map(|(_, bytes)| String::from_utf8_lossy(bytes))
        .collect()
}
