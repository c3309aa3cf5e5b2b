//! Property tests of everything that reads text from outside: the two record parsers, the
//! JSONL collection's fold-or-quarantine, and the tool-call argument handler. On any input
//! they return `Ok` or `Err`, never panic, and the collection never loses a line: each
//! non-blank line ends up either folded into the records or in the quarantine.
//!
//! `hostile` and `lines` make the inputs; `parsers`, `collection` and `tool_calls` hold one
//! property each. Case counts are chosen so that each stays within a few seconds in a debug
//! build; `PROPTEST_CASES` asks for a longer run and `PROPTEST_RNG_SEED` replays a failure.

use proptest::prelude::*;

mod collection;
mod hostile;
mod lines;
mod parsers;
mod tool_calls;

pub(super) fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        // `PROPTEST_CASES` asks for a longer run; the default keeps the module fast.
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases),
        // A failure is reported with its minimal input; nothing is written into the tree.
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..ProptestConfig::default()
    }
}
