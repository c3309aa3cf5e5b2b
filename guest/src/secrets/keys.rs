//! Key material: PEM, PuTTY and OpenSSH private keys, bare base64 key bodies, and wallet
//! recovery phrases.

use super::SecretKind;
use super::encoded::decode;
use super::text::Text;

/// PEM armour, PuTTY and age keys, and bare base64 key bodies (a private key pasted without
/// its header still starts with the DER structure of one).
pub(super) fn private_key(t: &Text) -> Option<SecretKind> {
    for i in 0..t.len() {
        let c = t.c[i];
        if c == 'B' && t.exact_at(i, "BEGIN ") {
            // "-----BEGIN RSA PRIVATE KEY-----", "BEGIN PGP PRIVATE KEY BLOCK"
            let label = t.string(i, (i + 48).min(t.len()));
            let label = label.split('\n').next().unwrap_or("");
            if label.contains("PRIVATE KEY") {
                return Some(SecretKind::PrivateKey);
            }
        }
        if c == 'P' && t.exact_at(i, "PuTTY-User-Key-File-") {
            return Some(SecretKind::PrivateKey);
        }
        if (c == 'M' || c == 'b') && !is_base64(t.before(i)) {
            let mut e = i;
            while e < t.len() && is_base64(t.c[e]) && e - i < 64 {
                e += 1;
            }
            if e - i >= 60 && key_body(&t.c[i..e]) {
                return Some(SecretKind::PrivateKey);
            }
        }
    }
    None
}

pub(super) fn is_base64(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=')
}

/// Whether a base64 run is the start of a private key: an OpenSSH key, or DER whose first
/// element marks a private key (a version number), rather than a certificate or public key.
fn key_body(run: &[char]) -> bool {
    if run.starts_with(&"b3BlbnNzaC1rZXktdjE".chars().collect::<Vec<_>>()) {
        return true; // "openssh-key-v1"
    }
    let b = decode(&run[..run.len().min(40)]);
    let byte = |i: usize| b.get(i).copied().unwrap_or(0);
    if byte(0) != 0x30 {
        return false;
    }
    let header = match byte(1) {
        0..=0x7f => 2,
        0x81 => 3,
        0x82 => 4,
        _ => return false,
    };
    // "MII..." (a SEQUENCE of 256 bytes or more) is how RSA keys begin; when the structure
    // is not recognisably public, such a block is refused.
    let long = byte(1) == 0x82;
    match byte(header) {
        // INTEGER: a version 0 or 1 begins PKCS#1, PKCS#8 and SEC1 private keys; a long
        // INTEGER is the modulus of a PKCS#1 public key.
        0x02 if byte(header + 1) == 0x01 && byte(header + 2) <= 1 => true,
        0x02 if matches!(byte(header + 1), 0x81 | 0x82) => false,
        0x30 => {
            let inner = byte(header + 1);
            let inner_header = match inner {
                0..=0x7f => 2,
                0x81 => 3,
                0x82 => 4,
                _ => return long,
            };
            if byte(header + inner_header) == 0xA0 {
                return false; // a certificate: its body opens with the version tag [0]
            }
            if inner < 0x80 {
                match byte(header + 2 + inner as usize) {
                    0x03 => return false, // algorithm, then a BIT STRING: a public key
                    0x04 => return true,  // algorithm, then an OCTET STRING: an encrypted key
                    _ => {}
                }
            }
            long
        }
        _ => long,
    }
}

/// Twelve or more plain lower-case words in a row, as BIP-39 phrases are written.
pub(super) fn phrase_at(t: &Text, from: usize) -> bool {
    let words = t.words_from(from, 24);
    let values: Vec<String> = words.iter().map(|&(s, e)| t.string(s, e)).collect();
    phrase_words(&values.join(" "))
}

pub(super) fn phrase_words(value: &str) -> bool {
    let mut run = 0;
    for w in value.split_whitespace() {
        let w = w.trim_end_matches([',', '.']);
        if (3..=8).contains(&w.chars().count()) && w.chars().all(|c| c.is_ascii_lowercase()) {
            run += 1;
            if run >= 12 {
                return true;
            }
        } else if w.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ')') {
            // numbered lists: "1. abandon 2. ability"
        } else {
            run = 0;
        }
    }
    false
}
