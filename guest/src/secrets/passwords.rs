//! Whether words are a password or only talk about one: "hunter2" is, "strong", "expired" and
//! "12 characters long" are not.

use super::following::Following;
use super::grammar;
use super::values::is_placeholder;

/// "admin:hunter2!", "admin / hunter2!": a user name and a password-like word.
pub(super) fn login_pair([first, second, third]: [Option<String>; 3]) -> bool {
    let secret = |p: &str| password_like(p) && !is_placeholder(p) && !p.starts_with('/');
    let Some(first) = first else { return false };
    if !first.contains("://")
        && let Some((user, pass)) = first.split_once(':')
        && !user.is_empty()
        && secret(pass)
    {
        return true;
    }
    second.is_some_and(|w| w == "/" || w == ":") && third.is_some_and(|p| secret(&p))
}

/// Whether a value is long enough to be a password at all: "0", "277" and "∞" are enum
/// values and symbols in code, not passwords.
pub(super) fn worth_keeping(value: &str) -> bool {
    let n = value.chars().count();
    let digits = value.chars().filter(char::is_ascii_digit).count();
    n >= 3 && value.chars().any(char::is_alphanumeric) && (digits < n || n >= 4)
}

/// Whether the words after "password is" disclose one. The first word decides: a known
/// description ("strong", "the same as before", "saved in 1Password", "expired") does not;
/// anything else, mixed with digits or symbols or a single unusual word ("hunter2",
/// "letmein", "Tr0ub4dor&3", "correct-horse-battery"), does. A description would be read as
/// the password itself only by a user who chose a plain adjective as one; the reverse error
/// would refuse every sentence about passwords.
pub(super) fn password_phrase(values: &mut Following) -> bool {
    let mut k = 0;
    while k < 2 && values.lower(k).is_some_and(|w| grammar::ADVERBS.contains(&w)) {
        k += 1; // "is now hunter2"
    }
    if values.lower(k).is_some_and(|w| grammar::CHANGE_VERBS.contains(&w))
        && values
            .lower(k + 1)
            .is_some_and(|w| matches!(w.as_str(), "to" | "into" | "as"))
    {
        k += 2; // "was changed to hunter2"
    }
    let Some(value) = values.core(k) else { return false };
    if !worth_keeping(&value) || is_placeholder(&value) {
        return false;
    }
    if is_description(&value) {
        // ...unless two more plain words that describe nothing follow: "my passphrase is
        // correct horse battery staple" is a passphrase, "is strong and long" a description.
        let unusual = |w: Option<String>| w.is_some_and(|w| plain_word(&w) && !is_description(&w));
        return values.continues(k)
            && values.continues(k + 1)
            && unusual(values.core(k + 1))
            && unusual(values.core(k + 2));
    }
    let clause_goes_on = values.continues(k);
    let next = if clause_goes_on { values.lower(k + 1) } else { None };
    if next.is_some() && plain_word(&value) && value.ends_with("ly") {
        return false; // "extremely long"
    }
    // "12 characters long", "12+ characters"
    let number = value.chars().filter(char::is_ascii_digit).count() <= 3
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '~' | '<' | '>'));
    !(number && next.is_some_and(|w| grammar::UNITS.contains(&w)))
}

/// "is in 1password: hunter2", "is on the sticky note: Gr33nTea!": where the password is
/// kept, then a label and the password itself. After the label only a value with the
/// makings of a password counts, and no path: "is in 1Password: see the Home vault" and
/// "is stored at: secret/prod/db" name a place.
pub(super) fn labelled_later(values: &mut Following) -> bool {
    let path = |v: &str| {
        v.contains('/')
            && v.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '/' | '_' | '-' | '.' | ':'))
    };
    for k in 0..6 {
        let Some(raw) = values.raw(k) else { return false };
        if raw.len() > 1 && raw.ends_with(':') && !raw.contains("://") {
            return values
                .core(k + 1)
                .is_some_and(|v| password_like(&v) && !is_description(&v) && !is_placeholder(&v) && !path(&v));
        }
        if !values.continues(k) {
            return false;
        }
    }
    false
}

/// Whether a value describes a password instead of being one.
pub(super) fn is_description(value: &str) -> bool {
    let lower = value.to_lowercase();
    if grammar::DESCRIPTIONS.contains(&lower) {
        return true;
    }
    if lower.contains('-') && lower.split('-').all(|p| grammar::DESCRIPTIONS.contains(p)) {
        return true; // "hard-to-guess"
    }
    // Participles ("expired", "compromised", "expiring") describe a state; a capital or a
    // digit would make the word unusual enough to be a password.
    plain_word(value) && value.chars().count() >= 5 && (lower.ends_with("ed") || lower.ends_with("ing"))
}

/// Lower-case letters only.
fn plain_word(value: &str) -> bool {
    !value.is_empty() && value.chars().all(|c| c.is_alphabetic() && !c.is_uppercase())
}

/// Whether a word has the makings of a password: letters with digits or symbols, or six or
/// more digits. Used where the context alone does not settle it.
pub(super) fn password_like(value: &str) -> bool {
    let (mut letters, mut digits, mut symbols, mut n) = (0, 0, 0, 0);
    for c in value.chars() {
        n += 1;
        if c.is_alphabetic() {
            letters += 1;
        } else if c.is_numeric() {
            digits += 1;
        } else if !matches!(c, '-' | '_' | '\'' | '’' | '.' | ',') {
            symbols += 1; // not the joiners of words and identifiers
        }
    }
    (letters > 0 && digits > 0 && n >= 4) || (letters > 0 && symbols > 0 && n >= 6) || (digits >= 6 && digits == n)
}

/// Whether a word could be nothing but a password: letters, digits and a symbol together
/// ("Hx8!kq2Lm"), which no word, model name or path is.
pub(super) fn unmistakable(value: &str) -> bool {
    let symbol = value
        .chars()
        .any(|c| !c.is_alphanumeric() && !matches!(c, '-' | '_' | '.' | '/' | '\'' | '=' | '<' | '>' | '"'));
    symbol && password_like(value) && value.chars().any(|c| c.is_ascii_digit()) && !is_placeholder(value)
}
