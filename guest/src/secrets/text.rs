//! The normalised text every detector reads: characters with look-alikes folded and invisible
//! ones dropped, a lower-cased copy, and the word-reading helpers, all by character index.

/// The text as characters, normalised, with a lower-cased copy for case-insensitive matching.
/// Indices are character indices into both.
pub(super) struct Text {
    pub(super) c: Vec<char>,
    pub(super) low: Vec<char>,
    /// `low` as a string, for a quick look at whether a detector has anything to find.
    pub(super) hay: String,
}

impl Text {
    pub(super) fn new(text: &str) -> Text {
        let mut c = Vec::with_capacity(text.len());
        let mut low = Vec::with_capacity(text.len());
        let mut hay = String::with_capacity(text.len());
        for ch in text.chars() {
            let Some(ch) = normalise(ch) else { continue };
            // One character for one, so indices stay aligned ('İ' lowers to "i̇"; 'i' is enough).
            let lower = if ch.is_ascii() {
                ch.to_ascii_lowercase()
            } else {
                ch.to_lowercase().next().unwrap_or(ch)
            };
            c.push(ch);
            low.push(lower);
            hay.push(lower);
        }
        Text { c, low, hay }
    }

    pub(super) fn len(&self) -> usize {
        self.c.len()
    }

    /// The character at `i`, or NUL past either end, so that lookarounds need no bounds checks.
    pub(super) fn at(&self, i: usize) -> char {
        self.c.get(i).copied().unwrap_or('\0')
    }

    pub(super) fn lo(&self, i: usize) -> char {
        self.low.get(i).copied().unwrap_or('\0')
    }

    pub(super) fn before(&self, i: usize) -> char {
        if i == 0 { '\0' } else { self.at(i - 1) }
    }

    /// The end of `needle` if it occurs at `i`, compared lower-case; a space in the needle
    /// matches any one whitespace character.
    pub(super) fn match_at(&self, i: usize, needle: &str) -> Option<usize> {
        let mut end = i;
        for (j, n) in (i..).zip(needle.chars()) {
            let h = *self.low.get(j)?;
            if (n == ' ' && !h.is_whitespace()) || (n != ' ' && h != n) {
                return None;
            }
            end = j + 1;
        }
        Some(end)
    }

    /// Whether `needle` occurs at `i`, case-sensitively.
    pub(super) fn exact_at(&self, i: usize, needle: &str) -> bool {
        (i..).zip(needle.chars()).all(|(j, n)| self.at(j) == n)
    }

    pub(super) fn string(&self, s: usize, e: usize) -> String {
        self.c[s.min(self.len())..e.min(self.len())].iter().collect()
    }

    pub(super) fn lower_string(&self, s: usize, e: usize) -> String {
        self.low[s.min(self.len())..e.min(self.len())].iter().collect()
    }

    /// The next run of non-whitespace characters at or after `from`, if one starts within a
    /// short distance.
    pub(super) fn next_word(&self, from: usize) -> Option<(usize, usize)> {
        let mut s = from;
        while self.at(s).is_whitespace() {
            s += 1;
            if s - from > 16 {
                return None;
            }
        }
        if s >= self.len() {
            return None;
        }
        // Words are capped at 64 characters, enough to judge a value, so that repeated triggers
        // stay linear. A word also ends before "=name": "key=key=key" is three assignments,
        // while base64 padding ("abc==") stays whole.
        let mut e = s;
        while e < self.len() && !self.c[e].is_whitespace() && e - s < 64 {
            if self.c[e] == '=' && e > s && self.at(e + 1).is_alphanumeric() {
                break;
            }
            e += 1;
        }
        Some((s, e))
    }

    /// The run of non-whitespace characters ending just before `to`, skipping whitespace.
    pub(super) fn prev_word(&self, to: usize) -> Option<(usize, usize)> {
        let mut e = to;
        while e > 0 && self.c[e - 1].is_whitespace() {
            e -= 1;
            if to - e > 16 {
                return None;
            }
        }
        let mut s = e;
        while s > 0 && !self.c[s - 1].is_whitespace() && e - s < 64 {
            s -= 1;
        }
        (s < e).then_some((s, e))
    }

    /// Up to `n` following words, stopping at the end of a sentence.
    pub(super) fn words_from(&self, from: usize, n: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut pos = from;
        while out.len() < n {
            let Some((s, e)) = self.next_word(pos) else { break };
            out.push((s, e));
            pos = e;
            if matches!(self.at(e - 1), '.' | '!' | '?' | ';') {
                break;
            }
        }
        out
    }
}

/// Maps look-alike characters onto the ones the detectors expect, and drops invisible ones.
fn normalise(ch: char) -> Option<char> {
    let u = ch as u32;
    let digit = |base: u32| char::from_digit((u - base) % 10, 10);
    match u {
        0xFF01..=0xFF5E => char::from_u32(u - 0xFEE0), // full-width ASCII: ４１１１, ｐａｓｓ
        0x3000 => Some(' '),                           // ideographic space
        0x200B..=0x200D | 0x2060 | 0xFEFF | 0x00AD => None, // zero-width and soft hyphen
        0x0300..=0x036F => None,                       // combining marks: "n" + "~" reads as "n"
        0x2010..=0x2015 | 0x2212 | 0xFE63 => Some('-'), // hyphens, dashes, minus
        0x0660..=0x0669 => digit(0x0660),              // Arabic-Indic digits
        0x06F0..=0x06F9 => digit(0x06F0),              // Persian digits
        0x0966..=0x096F => digit(0x0966),              // Devanagari digits
        0x1D7CE..=0x1D7FF => digit(0x1D7CE),           // mathematical bold/double-struck/... digits
        _ => Some(ch),
    }
}

/// Groups entries by their first character (ASCII only; others share the last bucket), so
/// that a scan tries only the entries that can match where it stands.
pub(super) fn buckets<'a>(words: impl Iterator<Item = &'a str>) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); 129];
    for (i, w) in words.enumerate() {
        let first = w.chars().next().unwrap_or('\0');
        out[bucket_of(first)].push(i);
    }
    out
}

pub(super) fn bucket_of(c: char) -> usize {
    if c.is_ascii() { c as usize } else { 128 }
}
