//! The readers of everyday words take any text without panicking: the lifetime a fact is
//! given, the judgment of two facts, and the offline extractor. Their words are sliced by
//! byte offsets found in lowercased copies, and drawn-out letters, dashes and emoji of four
//! bytes have split characters before (stop 80's review).

use proptest::prelude::*;

use crate::conversation::extraction::rules::extract;
use crate::judgment::judge;
use crate::lifetime::infer;
use crate::supersession::RuleContext;

/// Text of words people write, with the characters that have broken readers mixed in.
fn everyday() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "I",
        "I'm",
        "we're",
        "my",
        "now",
        "switched",
        "to",
        "the",
        "office",
        "from",
        "home",
        "pregnant",
        "weeks",
        "months",
        "999999999999999999999",
        "-20000000",
        "as",
        "a",
        "type",
        "1",
        "been",
        "in",
        "Leeds",
        "lol",
        "sooo",
        "wayyy",
        "?",
        ",",
        " — ",
        " – ",
        "'s",
        "\u{1D75D}\u{1D75D}\u{1D75D}",
        "\u{20820}",
        "ß",
        "İ",
        "\u{212A}",
        "🙋\u{200D}♂️",
        "new",
        "boss",
        "GP",
        "every",
        "week",
        "times",
        "x",
        "at",
        "7am",
        "midnight",
        "not",
        "no",
        "more",
        "instead",
        "of",
        "cigs",
        "a",
        "week",
        "vape",
        "rent",
        "bought",
        "keys",
        "Dr",
        "Patel",
        "left",
        "bullet",
        "points",
        "please",
        "\n",
        ".",
        "!",
        "'",
        "\"",
        "i've",
        "got",
        "epilepsy",
        "teach",
        "fan",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(super::reader_props::config(256))]

    #[test]
    fn everyday_readers_never_panic(old in everyday(), new in everyday()) {
        let now = crate::record::parse_time("2026-03-04T10:00:00+00:00").unwrap();
        let _ = infer(&new, now);
        let _ = judge(&old, &new, &RuleContext::default());
        let _ = extract(&new);
    }
}

#[test]
fn long_and_odd_texts_are_read_without_panic() {
    let now = crate::record::parse_time("2026-03-04T10:00:00+00:00").unwrap();
    let long = "I'm 6 months pregnant and we're in Leeds now, ".repeat(400);
    for text in [
        "",
        " ",
        "?",
        "'s",
        "\u{1D75D}\u{1D75D}\u{1D75D}",
        "sooo\u{11451}\u{11451}\u{11451}",
        "I'm 2000000000000000000 weeks pregnant",
        "as a",
        "i've been",
        long.as_str(),
    ] {
        let _ = infer(text, now);
        let _ = judge(text, text, &RuleContext::default());
        let _ = judge("I work from home", text, &RuleContext::default());
        let _ = extract(text);
    }
}
