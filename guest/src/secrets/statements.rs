//! Statements: "my password is ...", "la contraseña del wifi es ...", "PIN 4821". A trigger word
//! from `words`, in any of many languages, then the words that follow decide.

use std::sync::LazyLock;

use super::SecretKind;
use super::assignments::judge_named;
use super::following::Following;
use super::grammar;
use super::joined::{is_joined_script, joined_value};
use super::keys::phrase_at;
use super::numbers::ssn_at;
use super::passwords::{is_description, labelled_later, login_pair, password_like, password_phrase, unmistakable};
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
    if t.at(p) == ',' {
        return appositive(t, trig, p + 1); // "my password, Fluffy2020, is ..."
    }
    let c = t.at(p);
    if !(c == '\0' || c.is_whitespace() || matches!(c, ')' | '"' | '\'' | '`' | ']' | '”' | '’' | '*')) {
        return None; // "password-protected", "password.", "token/refresh"
    }
    while matches!(t.at(p), ')' | '"' | '\'' | '`' | ']' | '”' | '’' | '*') && p - end < 4 {
        p += 1;
    }
    // A connector that is also a preposition ("to", "on") is tried last: in "the password to
    // the office wifi is the same" the later "is" decides, in "hasło to kotek123" the "to".
    let mut deferred = None;
    let mut first = true;
    let mut pos = p;
    for _ in 0..8 {
        let Some((s, e)) = t.next_word(pos) else { break };
        if t.c[pos..s].contains(&'\n') {
            break; // a new line is a new item ("- CI: ..." after "$(pwd) in run-docker")
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
        let ambiguous = grammar::AMBIGUOUS_CONNECTORS.contains(base);
        let loose = matches!(trig.class, Class::Pass | Class::WeakPassword);
        if grammar::CONNECTORS.contains(base) && !(ambiguous && loose) {
            if ambiguous && trimmed.len() == raw.len() && !(base == "to" && after_change_verb(t, start)) {
                deferred = deferred.or(Some(e));
                first = false;
                continue;
            }
            return value_after(t, trig, start, e, ends_sep || matches!(base, ":" | "="));
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
            if grammar::BRIDGES.contains(trimmed) && trimmed.len() == raw.len() {
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
            break; // the clause ended without another connector
        }
    }
    // After "to" or "on" and nothing later, an English trigger's value counts only if it
    // could not be the object of a preposition: "to otterpop9", not "to gmail". In Polish,
    // Czech or Finnish the word is "is": "hasło to kotek".
    let v = deferred?;
    let english = trig
        .word
        .rsplit(' ')
        .next()
        .is_some_and(|w| grammar::ENGLISH_NOUNS.contains(w));
    if trig.class == Class::Password && english {
        let value = Following::new(t, v).core(0)?;
        return (password_like(&value) && !is_description(&value) && !is_placeholder(&value))
            .then_some(SecretKind::Password);
    }
    value_after(t, trig, start, v, false)
}

/// "I changed my password to ...", "set the router password to ...": after a verb of
/// change, "to" introduces the new value.
fn after_change_verb(t: &Text, start: usize) -> bool {
    let mut pos = start;
    for _ in 0..4 {
        let Some((s, e)) = t.prev_word(pos) else { return false };
        if grammar::CHANGE_VERBS.contains(&t.lower_string(s, e)) {
            return true;
        }
        pos = s;
    }
    false
}

/// "my password, Fluffy2020, is ...": a value set off by commas right after the trigger.
/// Only one that could not be an ordinary word counts ("my password, however, is ...").
fn appositive(t: &Text, trig: &Trigger, from: usize) -> Option<SecretKind> {
    let (s, e) = t.next_word(from)?;
    if t.at(e - 1) != ',' || e - s < 2 || t.c[from..s].contains(&'\n') {
        return None;
    }
    bare_value(t, trig, s, e)
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
        Class::Password => {
            (password_phrase(&mut values) || labelled_later(&mut values)).then_some(SecretKind::Password)
        }
        Class::Pass if colon && !prev_word_in(t, start, &grammar::PASS_COMPOUNDS) => {
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

/// Judges a single value word for the numeric and token classes.
fn judge_word(class: Class, word: &str, value: &str) -> Option<SecretKind> {
    match class {
        // "the phone code for the UK is 0044" is an international dialling prefix.
        Class::Pin if word.ends_with("phone code") && value.starts_with("00") => None,
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
