//! Bare keys: a long run of letters, digits and base64 symbols that nothing names, such as a
//! cloud secret key pasted alone ("wJalr.../K7MDENG/..."). A run is a key when it reads as
//! drawn at random (`randomness`) and is none of the random-looking things people keep on
//! purpose: hashes and UUIDs (hexadecimal), links, encoded prose, public keys, and ids or
//! addresses named by the word before them.

use super::SecretKind;
use super::encoded::{decode, decoded_text};
use super::randomness::machine_made;
use super::text::Text;
use super::words::WordSet;

/// The shortest run judged: AWS secret keys have 40 characters and most API keys 32 or more,
/// while random ids people share (Spotify tracks, Stripe payments, YouTube videos) are
/// shorter.
const MIN_RUN: usize = 32;

/// Words that, among the three before a run, make it an id, a hash or an address:
/// "IPFS cid Qm...", "my bitcoin address is 1A...", "host key fingerprint SHA256:...".
static NAMED_PUBLIC: WordSet = WordSet::new(
    "address addr bitcoin btc eth cid ipfs hash checksum digest fingerprint commit public pubkey id uuid
     guid playlist video txid transaction tx torrent magnet",
);

pub(super) fn bare_key(t: &Text) -> Option<SecretKind> {
    if public_armour(t) {
        return None;
    }
    let mut i = 0;
    while i < t.len() {
        while i < t.len() && t.c[i].is_whitespace() {
            i += 1;
        }
        let word_start = i;
        while i < t.len() && !t.c[i].is_whitespace() {
            i += 1;
        }
        if i - word_start < MIN_RUN || is_link(t, word_start, i) {
            continue;
        }
        let mut j = word_start;
        while j < i {
            if !is_run_char(t.c[j]) {
                j += 1;
                continue;
            }
            let s = j;
            while j < i && is_run_char(t.c[j]) {
                j += 1;
            }
            if let Some(kind) = judge(&t.c[s..j])
                && !hash_label(&t.lower_string(s.saturating_sub(8).max(word_start), s))
                && !named_public(t, word_start)
            {
                return Some(kind);
            }
        }
    }
    None
}

/// Base64 and base64url characters; `=` padding is left out, since it only ends a run.
fn is_run_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '_' | '-')
}

/// A run that is a bare key, and which kind: 40 characters of standard base64 are an AWS
/// secret access key.
fn judge(run: &[char]) -> Option<SecretKind> {
    if run.len() < MIN_RUN
        || run.iter().all(|&c| c.is_ascii_hexdigit() || c == '-') // hashes, UUIDs, 0x addresses
        || !run.iter().any(char::is_ascii_uppercase)
        || !run.iter().any(char::is_ascii_lowercase)
    {
        return None;
    }
    let prefix: String = run.iter().take(8).collect::<String>().to_ascii_lowercase();
    if prefix.split_once('-').is_some_and(|(label, _)| hash_label(label)) {
        return None; // subresource integrity: "sha384-..."
    }
    if decoded_text(run).is_some() || public_key_bytes(&decode(run)) || !machine_made(run) {
        return None;
    }
    let aws = run.len() == 40 && run.iter().all(|&c| c.is_ascii_alphanumeric() || c == '/' || c == '+');
    Some(if aws {
        SecretKind::CloudCredential
    } else {
        SecretKind::ApiKey
    })
}

/// Whether the word from `s` to `e` is a link or a data URI: what follows a scheme or a
/// host is a path, and ids in paths are not credentials (a URL that carries one is read by
/// `urls` and `assignments`).
fn is_link(t: &Text, s: usize, e: usize) -> bool {
    let start = t.lower_string(s, (s + 12).min(e));
    let start = start.trim_start_matches(['(', '<', '"', '\'']);
    start.starts_with("www.") || start.starts_with("data:") || (s..e).any(|k| t.match_at(k, "://").is_some())
}

/// "sha256", "md5", "blake3": the name of a hash, before the hash ("SHA256:...").
fn hash_label(label: &str) -> bool {
    let label = label.trim_end_matches([':', '-', '=']);
    let label = label.rsplit(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
    ["sha", "md5", "blake"].iter().any(|h| label.starts_with(h)) && label.len() <= 8
}

/// SSH public keys (a length-prefixed algorithm name: "\0\0\0\x0bssh-ed25519") and DER,
/// the body of certificates and public keys. Private DER is refused by `keys` before this.
fn public_key_bytes(b: &[u8]) -> bool {
    let ssh = b.len() > 8 && b[..3] == [0, 0, 0] && [&b"ssh-"[..], b"ecds", b"sk-s", b"sk-e"].contains(&&b[4..8]);
    // A SEQUENCE, its length in long form (as in "MII...") or short form, then an INTEGER,
    // an OID or another SEQUENCE.
    let body = match b.get(1) {
        Some(0x81) => 3,
        Some(0x82) => 4,
        Some(&n) if n < 0x80 => 2,
        _ => return ssh,
    };
    let der = b[0] == 0x30 && matches!(b.get(body), Some(0x02 | 0x06 | 0x30));
    ssh || der
}

/// A PEM block of public material ("BEGIN PUBLIC KEY", "BEGIN CERTIFICATE", PGP public key
/// blocks): its lines are base64 of the same kind, and no private key is in the text.
fn public_armour(t: &Text) -> bool {
    t.hay.contains("-----begin ") && !t.hay.contains("private")
}

/// Whether one of the three words before `word_start` names an id, hash or address.
fn named_public(t: &Text, word_start: usize) -> bool {
    let mut pos = word_start;
    for _ in 0..3 {
        let Some((s, e)) = t.prev_word(pos) else { return false };
        pos = s;
        let word = t.lower_string(s, e);
        if NAMED_PUBLIC.contains(word.trim_matches(|c: char| !c.is_alphanumeric())) {
            return true;
        }
    }
    false
}
