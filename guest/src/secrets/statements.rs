//! Statements: "my password is ...", "la contraseña del wifi es ...", "PIN 4821". A trigger word
//! from `words`, in any of many languages, then the words that follow decide.

use std::sync::LazyLock;

use super::SecretKind;
use super::assignments::judge_named;
use super::keys::phrase_at;
use super::numbers::ssn_at;
use super::passwords::{is_description, login_pair, password_like, password_phrase, unmistakable};
use super::text::{Text, bucket_of, buckets};
use super::values::{closing_quote, cvv_like, is_placeholder, pin_like, strip_wrapping, token_like};
use super::words::{self, Class, Trigger, WordSet};

/// The triggers by their first character, sorted once rather than at every check.
static TRIGGERS_BY_FIRST: LazyLock<Vec<Vec<usize>>> = LazyLock::new(|| buckets(words::TRIGGERS.iter().map(|t| t.word)));

pub(super) fn statement(t: &Text) -> Option<SecretKind> {
    let by_first = &*TRIGGERS_BY_FIRST;
    for i in 0..t.len() {
        let c = t.low[i];
        if !c.is_alphabetic() {
            continue;
        }
        let boundary = !t.before(i).is_alphanumeric();
        let joined_script = is_joined_script(c);
        if !boundary && !joined_script {
            continue;
        }
        for &k in &by_first[bucket_of(c)] {
            let trig = &words::TRIGGERS[k];
            if (trig.joined && !joined_script) || (!trig.joined && !boundary) {
                continue;
            }
            let Some(mut end) = t.match_at(i, trig.word) else {
                continue;
            };
            if !trig.joined && t.at(end).is_alphanumeric() {
                // A plural ("passwords", "tokens") reads as the word; a longer word does not.
                if t.lo(end) == 's' && !t.at(end + 1).is_alphanumeric() {
                    end += 1;
                } else {
                    continue;
                }
            }
            if let Some(kind) = after_trigger(t, i, end, trig) {
                return Some(kind);
            }
        }
    }
    None
}

/// Scripts written without spaces between words, where a trigger needs no word boundary.
fn is_joined_script(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0E7F // Thai
        | 0x1100..=0x11FF | 0xAC00..=0xD7AF // Hangul
        | 0x3040..=0x30FF // kana
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF // CJK ideographs
    )
}

fn after_trigger(t: &Text, start: usize, end: usize, trig: &Trigger) -> Option<SecretKind> {
    if trig.joined {
        return joined_value(t, end, trig.class);
    }
    if trig.class == Class::Password && reverse_disclosure(t, start) {
        return Some(SecretKind::Password);
    }
    if matches!(trig.word, "bearer" | "authorization: basic") {
        // The scheme word is the connector: "Bearer abc...", "Bearer: abc...".
        let p = if matches!(t.at(end), ':' | '=') { end + 1 } else { end };
        return value_after(t, trig, start, p, false);
    }
    let mut p = end;
    if matches!(t.at(p), '\'' | '’') && t.lo(p + 1) == 's' && !t.at(p + 2).is_alphanumeric() {
        p += 2; // "the wifi's password", "password's"
    }
    if matches!(t.at(p), ':' | '=') {
        let mut v = p + 1;
        while matches!(t.at(v), ':' | '=' | '>') && v - p < 4 {
            v += 1;
        }
        return value_after(t, trig, start, v, true);
    }
    let c = t.at(p);
    if !(c == '\0' || c.is_whitespace() || matches!(c, ')' | '"' | '\'' | '`' | ']' | '”' | '’' | '*')) {
        return None; // "password-protected", "password.", "token/refresh"
    }
    while matches!(t.at(p), ')' | '"' | '\'' | '`' | ']' | '”' | '’' | '*') && p - end < 4 {
        p += 1;
    }
    let mut first = true;
    let mut pos = p;
    for _ in 0..8 {
        let (s, e) = t.next_word(pos)?;
        if t.c[pos..s].contains(&'\n') {
            return None; // a new line is a new item ("- CI: ..." after "$(pwd) in run-docker")
        }
        pos = e;
        let raw = t.lower_string(s, e);
        let trimmed = raw.trim_end_matches(['.', ',', ';', '!', '?']);
        let ends_sep = trimmed.ends_with(':') || trimmed.ends_with('=');
        let base = if ends_sep && trimmed.chars().count() > 1 {
            trimmed.trim_end_matches([':', '='])
        } else {
            trimmed
        };
        // "pass" and "clave" are verbs and nouns too: "pass to", "pass on" join nothing.
        let ambiguous = words::AMBIGUOUS_CONNECTORS.contains(base);
        let loose = matches!(trig.class, Class::Pass | Class::WeakPassword);
        if words::CONNECTORS.contains(base) && !(ambiguous && loose) {
            if let Some(kind) = value_after(t, trig, start, e, ends_sep || matches!(base, ":" | "=")) {
                return Some(kind);
            }
            if ambiguous && trimmed.len() == raw.len() {
                first = false;
                continue;
            }
            return None;
        }
        if ends_sep {
            // "password for gmail: ..." discloses; "password strength: 4/5" labels an attribute.
            return if first {
                None
            } else {
                value_after(t, trig, start, e, true)
            };
        }
        if first {
            first = false;
            if words::BRIDGES.contains(trimmed) && trimmed.len() == raw.len() {
                continue;
            }
            return if trig.bare {
                bare_value(t, trig, s, e)
            } else {
                // "pw", "pwd" and "mdp" are everyday abbreviations too ("Kindle PW 11th gen").
                let value = strip_wrapping(t.string(s, e).trim_end_matches(['.', ',', ';', '!', '?']));
                (trig.class == Class::Password && unmistakable(&value)).then_some(SecretKind::Password)
            };
        }
        if trimmed.len() != raw.len() {
            return None; // the clause ended without disclosing anything
        }
    }
    None
}

/// "hunter2 is my password": a password-like word, "is", and an optional possessive.
fn reverse_disclosure(t: &Text, start: usize) -> bool {
    let mut pos = start;
    for _ in 0..3 {
        let Some((s, e)) = t.prev_word(pos) else { return false };
        pos = s;
        let w = t.lower_string(s, e);
        if matches!(
            w.as_str(),
            "my" | "the" | "our" | "your" | "his" | "her" | "their" | "its" | "new" | "old"
        ) {
            continue;
        }
        if !matches!(w.as_str(), "is" | "was") {
            return false;
        }
        let Some((vs, ve)) = t.prev_word(s) else { return false };
        let value = strip_wrapping(&t.string(vs, ve));
        return !is_description(&value) && password_like(&value);
    }
    false
}

fn prev_word_in(t: &Text, start: usize, list: &WordSet) -> bool {
    t.prev_word(start).is_some_and(|(s, e)| {
        let w = t.lower_string(s, e);
        list.contains(w.trim_start_matches(['(', '"', '\'']))
    })
}

/// A value with no connector ("password hunter2", "PIN 4821", "Bearer abc..."): only one
/// that could not be an ordinary word counts.
fn bare_value(t: &Text, trig: &Trigger, s: usize, e: usize) -> Option<SecretKind> {
    let raw = t.string(s, e);
    let value = strip_wrapping(raw.trim_end_matches(['.', ',', ';', '!', '?']));
    match trig.class {
        Class::Password | Class::Pass | Class::WeakPassword => {
            // Markup ("type=\"password\" name=...") is code, not a disclosure.
            let code = value.contains(['=', '<', '>', '"']);
            (!code && !is_placeholder(&value) && !is_description(&value) && password_like(&value))
                .then_some(SecretKind::Password)
        }
        Class::Ssn => ssn_at(t, s).then_some(SecretKind::NationalId),
        Class::Phrase => phrase_at(t, s).then_some(SecretKind::RecoveryPhrase),
        Class::Login => login_pair(Following::new(t, s).first_three()).then_some(SecretKind::Password),
        class => judge_word(class, trig.word, &value),
    }
}

/// Judges the value after a connector.
fn value_after(t: &Text, trig: &Trigger, start: usize, pos: usize, colon: bool) -> Option<SecretKind> {
    let mut v = pos;
    while t.at(v).is_whitespace() && v - pos < 16 {
        v += 1;
    }
    if let Some(close) = closing_quote(t.at(v)) {
        let mut e = v + 1;
        while e - v < 200 && t.at(e) != close && t.at(e) != '\0' && t.at(e) != '\n' {
            e += 1;
        }
        if t.at(e) == close {
            // A quoted value was put there on purpose: any real one counts.
            let inner = t.string(v + 1, e);
            return match trig.class {
                Class::Password | Class::Pass | Class::WeakPassword => {
                    (!inner.trim().is_empty() && !is_placeholder(&inner)).then_some(SecretKind::Password)
                }
                class => judge_named(class, &inner),
            };
        }
    }
    match trig.class {
        Class::Ssn => return ssn_at(t, v).then_some(SecretKind::NationalId),
        Class::Phrase => return phrase_at(t, v).then_some(SecretKind::RecoveryPhrase),
        _ => {}
    }
    let mut values = Following::new(t, v);
    match trig.class {
        Class::Login => login_pair(values.first_three()).then_some(SecretKind::Password),
        Class::Password => password_phrase(&mut values).then_some(SecretKind::Password),
        Class::Pass if colon && !prev_word_in(t, start, &words::PASS_COMPOUNDS) => {
            password_phrase(&mut values).then_some(SecretKind::Password)
        }
        Class::Pass | Class::WeakPassword => {
            let value = values.core(0)?;
            (!is_description(&value) && !is_placeholder(&value) && password_like(&value))
                .then_some(SecretKind::Password)
        }
        class => judge_word(class, trig.word, &values.core(0)?),
    }
}

/// The words after a connector, read as they are needed, up to the end of the sentence.
pub(super) struct Following<'a> {
    t: &'a Text,
    pos: usize,
    words: Vec<String>,
    ended: bool,
}

impl<'a> Following<'a> {
    fn new(t: &'a Text, pos: usize) -> Self {
        Following {
            t,
            pos,
            words: Vec::new(),
            ended: false,
        }
    }

    fn first_three(mut self) -> [Option<String>; 3] {
        [self.core(0), self.core(1), self.core(2)]
    }

    fn raw(&mut self, k: usize) -> Option<&str> {
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

/// Judges a single value word for the numeric and token classes.
fn judge_word(class: Class, word: &str, value: &str) -> Option<SecretKind> {
    match class {
        Class::Pin => pin_like(value, 4).then_some(SecretKind::Password),
        Class::Cvv => cvv_like(value).then_some(SecretKind::CardNumber),
        // After "Bearer" only a token can follow, so a plainer one still counts.
        Class::Key(kind) if word == "bearer" => {
            let token = value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.~+/=".contains(c));
            let digits = value.chars().any(|c| c.is_ascii_digit());
            (token && value.chars().count() >= 10 && digits && !is_placeholder(value) || token_like(value, 12))
                .then_some(kind)
        }
        Class::Key(kind) => token_like(value, 12).then_some(kind),
        _ => None,
    }
}

/// Values in languages written without spaces: after a particle (是, は, 는) or a colon, the
/// run of non-ideographic characters is the value.
fn joined_value(t: &Text, end: usize, class: Class) -> Option<SecretKind> {
    const PARTICLES: &[&str] = &[
        "是",
        "为",
        "為",
        "は",
        "が",
        "も",
        "는",
        "은",
        "이",
        "가",
        "를",
        "을",
        "คือ",
        ":",
        "=",
        "-",
    ];
    let mut v = end;
    let mut particle = false;
    'skip: while v - end < 8 {
        if t.at(v).is_whitespace() || closing_quote(t.at(v)).is_some() {
            v += 1;
            continue;
        }
        for p in PARTICLES {
            if let Some(e) = t.match_at(v, p) {
                particle = true;
                v = e;
                continue 'skip;
            }
        }
        break;
    }
    let s = v;
    while v - s < 128 {
        let c = t.at(v);
        if c == '\0'
            || c.is_whitespace()
            || is_joined_script(c)
            || matches!(c, '。' | '、' | '」' | '』' | '”' | '"' | '\'' | ')')
        {
            break;
        }
        v += 1;
    }
    let value = t.string(s, v).trim_end_matches(['.', ',', '!', '?']).to_owned();
    let found = match class {
        Class::Pin => pin_like(&value, 4),
        _ if particle => !value.is_empty() && !is_placeholder(&value) && !is_description(&value),
        _ => password_like(&value),
    };
    found.then_some(SecretKind::Password)
}
