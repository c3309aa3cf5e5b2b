//! The tokenizer against the `tokenizers` crate reading each model's `tokenizer.json`.

use tokenizers::Tokenizer;

use super::Vocab;

/// Pieces a text is assembled from: plain words and every case the pipeline treats apart
/// (accents, ligatures, case mappings that change length, ideographs, scripts without
/// spaces, emoji, controls, format characters, odd whitespace, unassigned and private
/// code points, added tokens, the continuation prefix, overlong words).
const PIECES: &[&str] = &[
    "hello",
    "Sarah's",
    "I",
    "live",
    "in",
    "Porto",
    "unbelievably",
    "antidisestablishmentarianism",
    "café",
    "naïve",
    "Über",
    "İstanbul",
    "straße",
    "ﬁnance",
    "ΣΊΣΥΦΟΣ",
    "Привет",
    "Ǆemal",
    "中文",
    "日本語のテキスト",
    "한국어",
    "ไทย",
    "😀",
    "👍🏽",
    "e\u{301}",
    "a\u{308}\u{301}",
    "\u{200b}",
    "\u{feff}",
    "\u{a0}",
    "\u{3000}",
    "\u{2028}",
    "\u{85}",
    "\0",
    "\u{7}",
    "\u{b}",
    "\u{fffd}",
    "\u{e000}",
    "\u{378}",
    "\u{1d165}",
    "[PAD]",
    "[UNK]",
    "[CLS]",
    "[pad]",
    "[PA",
    "##ing",
    "##",
    "!!",
    "...",
    "—",
    "“quoted”",
    "¿",
    "¡",
    "$5.00",
    "9:30",
    "e-mail@x.org",
    "\t",
    "\n",
    "\r\n",
    " ",
    "  ",
    "-",
    "_",
    "~",
    "`",
    "'",
    "\"",
    "\\",
    "§",
    "°C",
    "½",
];

/// A deterministic generator, so a failure names a text that can be replayed.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Hand-picked and generated texts, the same on every run.
pub(crate) fn corpus() -> Vec<String> {
    let mut texts: Vec<String> = [
        "What does Sarah like to eat?",
        "I'm allergic to peanuts",
        "The standup is at 9:30 every weekday",
        "",
        "   ",
        "[PAD][UNK][PAD]",
        "x[UNK]y",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    texts.push("x".repeat(101));
    // The word limit counts characters, not bytes.
    texts.push("ж".repeat(60));
    texts.push("ж".repeat(101));
    // The longest tokens.
    texts.push("telecommunications interdisciplinary".into());
    texts.push("é".repeat(100));
    texts.push("é".repeat(101));
    // Longer than model2vec's cut (512 times the median token length, in characters):
    // only the cut leaves the first text without a token.
    texts.push(" ".repeat(3100) + "milk");
    texts.push("remember the milk and the eggs ".repeat(200));
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..1 + rng.below(12) {
            text.push_str(PIECES[rng.below(PIECES.len())]);
            if rng.below(3) > 0 {
                text.push(' ');
            }
        }
        texts.push(text);
    }
    // Arbitrary scalar values, ASCII-heavy.
    for _ in 0..3000 {
        let text: String = (0..1 + rng.below(24))
            .filter_map(|_| match rng.below(4) {
                0 => char::from_u32(rng.below(0x3_1350) as u32),
                1 => char::from_u32(0x80 + rng.below(0x2000) as u32),
                _ => char::from_u32(rng.below(0x80) as u32),
            })
            .collect();
        texts.push(text);
    }
    texts
}

/// The ids the `tokenizers` crate gives, without truncation or the model's framing tokens.
fn assert_same_ids(vocab: &Vocab, tokenizer_json: &[u8]) {
    let mut reference = Tokenizer::from_bytes(tokenizer_json).unwrap();
    reference.with_truncation(None).unwrap();
    reference.with_padding(None);
    let mut ids = Vec::new();
    for text in corpus() {
        ids.clear();
        vocab.token_ids(&text, &mut ids);
        let expected = reference.encode(text.as_str(), false).unwrap();
        assert_eq!(ids, expected.get_ids(), "{text:?}");
    }
}

#[test]
fn the_static_models_ids_are_the_tokenizers_crates() {
    assert_same_ids(
        &crate::embedder::static_model::VOCAB,
        include_bytes!("../../../model/tokenizer.json"),
    );
}

#[test]
fn the_transformers_ids_are_the_tokenizers_crates() {
    assert_same_ids(
        &crate::embedder::transformer::VOCAB,
        include_bytes!("../../../model/transformer/tokenizer.json"),
    );
}
