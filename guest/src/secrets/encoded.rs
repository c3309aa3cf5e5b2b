//! Base64: a credential encoded is still a credential ("Authorization: Basic" values,
//! Kubernetes secrets, a key passed through a tool that encodes). A base64 run that decodes
//! to text is read again as text; what it decodes to also tells the bare-key reading
//! (`shapes`) that a run is encoded prose or a public key rather than a key.

use super::SecretKind;
use super::text::Text;
use super::values::is_placeholder;

/// The shortest run worth decoding: 12 characters hold 9 bytes, enough for "user:pass1".
const MIN_RUN: usize = 12;

/// The characters of standard and URL-safe base64, padding apart.
pub(super) fn is_base64_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '-' | '_')
}

/// Decodes standard or URL-safe base64, stopping at padding or any other character.
pub(super) fn decode(chars: &[char]) -> Vec<u8> {
    let mut out = Vec::with_capacity(chars.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in chars {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' | '-' => 62,
            '/' | '_' => 63,
            _ => break,
        };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// The text a base64 run encodes: valid UTF-8 with no control characters but line breaks
/// and tabs. Random bytes almost never are, so a key's own characters give `None`.
pub(super) fn decoded_text(run: &[char]) -> Option<String> {
    if run.len() < MIN_RUN || run.len() % 4 == 1 {
        return None; // one character past a group of four encodes no whole byte
    }
    let text = String::from_utf8(decode(run)).ok()?;
    let printable = text.chars().all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'));
    (printable && !text.trim().is_empty()).then_some(text)
}

/// A base64 run whose text `read` finds a secret in, or whose text is "user:password" (the
/// value of a Basic authorization header).
pub(super) fn base64_forms(t: &Text, read: impl Fn(&str) -> Option<SecretKind>) -> Option<SecretKind> {
    let mut i = 0;
    while i < t.len() {
        if !is_base64_char(t.c[i]) {
            i += 1;
            continue;
        }
        let s = i;
        while i < t.len() && is_base64_char(t.c[i]) {
            i += 1;
        }
        let Some(text) = decoded_text(&t.c[s..i]) else { continue };
        if let Some(kind) = read(&text) {
            return Some(kind);
        }
        if basic_credentials(&text) {
            return Some(SecretKind::Password);
        }
    }
    None
}

/// Decoded text that is `user:password` and nothing else, as in a Basic authorization value
/// or a registry's `auth` entry. Only base64 puts the two together this way, so any password
/// counts, letters alone too ("admin:letmeinnow"). Ids encoded the same way are kept: a type
/// with a capital and a number ("User:123456", GraphQL's global ids), or a UUID or hash.
fn basic_credentials(text: &str) -> bool {
    let Some((user, pass)) = text.split_once(':') else {
        return false;
    };
    let name_char = |c: char| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+');
    let user_ok = (1..=64).contains(&user.chars().count())
        && user.starts_with(char::is_alphabetic)
        && user.chars().all(name_char);
    let n = pass.chars().count();
    let typed_id = user.starts_with(char::is_uppercase) && pass.chars().all(|c| c.is_ascii_digit());
    let hash = n >= 16 && pass.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    user_ok
        && (4..=128).contains(&n)
        && pass.chars().all(|c| !c.is_whitespace() && !c.is_control())
        && pass.chars().any(char::is_alphanumeric)
        && !pass.starts_with('/')
        && !is_placeholder(pass)
        && !typed_id
        && !hash
}
