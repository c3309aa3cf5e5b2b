//! The words after a connector, read one at a time as a judgement needs them.

use super::text::Text;
use super::values::strip_wrapping;

/// The words after a connector, read as they are needed, up to the end of the sentence.
pub(super) struct Following<'a> {
    t: &'a Text,
    pos: usize,
    words: Vec<String>,
    ended: bool,
}

impl<'a> Following<'a> {
    pub(super) fn new(t: &'a Text, pos: usize) -> Self {
        Following {
            t,
            pos,
            words: Vec::new(),
            ended: false,
        }
    }

    pub(super) fn first_three(mut self) -> [Option<String>; 3] {
        [self.core(0), self.core(1), self.core(2)]
    }

    pub(super) fn raw(&mut self, k: usize) -> Option<&str> {
        while self.words.len() <= k && !self.ended {
            match self.t.next_word(self.pos) {
                Some((s, e)) => {
                    self.words.push(self.t.string(s, e));
                    self.pos = e;
                    self.ended = matches!(self.t.at(e - 1), '.' | '!' | '?' | ';');
                }
                None => self.ended = true,
            }
        }
        self.words.get(k).map(String::as_str)
    }

    /// Word `k` without sentence punctuation or wrapping quotes.
    pub(super) fn core(&mut self, k: usize) -> Option<String> {
        self.raw(k)
            .map(|w| strip_wrapping(w.trim_end_matches(['.', ',', ';', '!', '?'])))
    }

    /// Whether the clause goes on after word `k`.
    pub(super) fn continues(&mut self, k: usize) -> bool {
        self.raw(k).is_some_and(|w| !w.ends_with(['.', ',', ';', '!', '?']))
    }

    pub(super) fn lower(&mut self, k: usize) -> Option<String> {
        self.core(k).map(|w| w.to_lowercase())
    }
}
