//! The embedded models' tokenizer: BERT's uncased pipeline (added tokens, normalizer,
//! pre-tokenizer, WordPiece) over a vocabulary the build script (`host/wordpiece_vocab.rs`)
//! compiled in as sorted arrays, so there is nothing to load.
//!
//! It must give the ids the `tokenizers` crate gives for each model's `tokenizer.json`, since
//! the vectors already stored in every home came from those: the tests compare the two over
//! hand-picked and generated text, Unicode included.

use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

/// A WordPiece vocabulary, as the build script writes it.
pub(crate) struct Vocab {
    /// Every token, sorted by bytes and concatenated.
    pub text: &'static str,
    /// Where each token of `text` ends.
    pub ends: &'static [u32],
    /// Each token's id.
    pub ids: &'static [u32],
    /// Tokens matched in the raw text before normalization, longest first.
    pub added: &'static [(&'static str, u32)],
    /// The unknown-word token.
    pub unk: u32,
    /// The longest token, in bytes: no longer match is worth trying.
    pub longest: usize,
    /// A word of more characters is one unknown token.
    pub max_input_chars_per_word: usize,
}

impl Vocab {
    /// Appends the token ids of `text` to `out`, unknown words as `unk`.
    pub(crate) fn token_ids(&self, text: &str, out: &mut Vec<u32>) {
        let mut scratch = Scratch::default();
        // Added tokens ("[PAD]", "[UNK]", ...) are cut out of the raw text first, leftmost
        // and then longest, and everything between them goes through the pipeline.
        let mut span_start = 0;
        let mut at = 0;
        while at < text.len() {
            let rest = &text[at..];
            match self.added.iter().find(|(token, _)| rest.starts_with(token)) {
                Some((token, id)) => {
                    self.tokenize_span(&text[span_start..at], out, &mut scratch);
                    out.push(*id);
                    at += token.len();
                    span_start = at;
                }
                None => at += rest.chars().next().map_or(1, char::len_utf8),
            }
        }
        self.tokenize_span(&text[span_start..], out, &mut scratch);
    }

    fn tokenize_span(&self, span: &str, out: &mut Vec<u32>, scratch: &mut Scratch) {
        if span.is_empty() {
            return;
        }
        normalize(span, scratch);
        let Scratch {
            normalized, candidate, ..
        } = scratch;
        for word in normalized.split(char::is_whitespace) {
            // Each punctuation character is a word of its own.
            let mut from = 0;
            for (at, c) in word.char_indices() {
                if is_punctuation(c) {
                    self.word_ids(&word[from..at], out, candidate);
                    self.word_ids(&word[at..at + c.len_utf8()], out, candidate);
                    from = at + c.len_utf8();
                }
            }
            self.word_ids(&word[from..], out, candidate);
        }
    }

    /// Greedy longest-match-first WordPiece. A word that cannot be matched whole, or is
    /// longer than `max_input_chars_per_word`, is one `unk`.
    fn word_ids(&self, word: &str, out: &mut Vec<u32>, candidate: &mut String) {
        if word.is_empty() {
            return;
        }
        let limit = self.max_input_chars_per_word;
        if word.len() > limit && word.chars().count() > limit {
            out.push(self.unk);
            return;
        }
        let mark = out.len();
        let mut start = 0;
        while start < word.len() {
            let prefix = if start == 0 { "" } else { "##" };
            let mut end = word.len().min(start + self.longest.saturating_sub(prefix.len()));
            let found = loop {
                if end <= start {
                    break None;
                }
                if word.is_char_boundary(end) {
                    candidate.clear();
                    candidate.push_str(prefix);
                    candidate.push_str(&word[start..end]);
                    if let Some(id) = self.lookup(candidate) {
                        break Some(id);
                    }
                }
                end -= 1;
            };
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.truncate(mark);
                    out.push(self.unk);
                    return;
                }
            }
        }
    }

    /// The id of `token`, by binary search over the sorted vocabulary.
    fn lookup(&self, token: &str) -> Option<u32> {
        let text = self.text.as_bytes();
        let nth = |i: usize| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
            &text[start..self.ends[i] as usize]
        };
        let (mut low, mut high) = (0, self.ends.len());
        while low < high {
            let mid = low + (high - low) / 2;
            match nth(mid).cmp(token.as_bytes()) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(self.ids[mid]),
            }
        }
        None
    }
}

/// Buffers reused across the words of one text.
#[derive(Default)]
struct Scratch {
    cleaned: String,
    normalized: String,
    candidate: String,
}

/// BERT's normalizer, in its order: drop control characters and turn whitespace into
/// spaces, put spaces around CJK ideographs, strip accents (NFD, then drop nonspacing
/// marks), lowercase.
fn normalize(span: &str, scratch: &mut Scratch) {
    let normalized = &mut scratch.normalized;
    normalized.clear();
    if span.is_ascii() {
        // NFD is the identity below 0x80, and ASCII holds no ideograph.
        normalized.extend(span.bytes().filter_map(|b| match b {
            b'\t' | b'\n' | b'\r' => Some(' '),
            0..=0x1f | 0x7f => None,
            _ => Some(b.to_ascii_lowercase() as char),
        }));
        return;
    }
    let cleaned = &mut scratch.cleaned;
    cleaned.clear();
    for c in span.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if c.is_whitespace() {
            cleaned.push(' ');
        } else if is_cjk_ideograph(c) {
            cleaned.extend([' ', c, ' ']);
        } else {
            cleaned.push(c);
        }
    }
    for c in cleaned.nfd().filter(|c| !c.is_mark_nonspacing()) {
        normalized.extend(c.to_lowercase());
    }
}

/// Unicode's "other" categories (control, format, unassigned, private use), except tab,
/// newline and carriage return, which count as whitespace.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

/// ASCII symbols count as punctuation, as BERT's pre-tokenizer has it.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// The CJK Unified Ideographs blocks and their extensions and compatibility blocks, as
/// BERT's normalizer lists them. Hangul, kana and other scripts are not among them.
fn is_cjk_ideograph(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}

#[cfg(test)]
pub(crate) mod tests;
