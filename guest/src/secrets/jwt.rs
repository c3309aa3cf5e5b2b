//! JSON Web Tokens: three base64url parts, the first two JSON, whoever issued them.

use super::SecretKind;
use super::text::Text;

/// `eyJ<header>.<payload>.<signature>`: a signed token, whatever issued it.
pub(super) fn jwt(t: &Text) -> Option<SecretKind> {
    if !t.hay.contains("eyj") {
        return None;
    }
    let url_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    for i in 0..t.len() {
        if t.c[i] != 'e' || !t.exact_at(i, "eyJ") {
            continue;
        }
        let prev = t.before(i);
        if url_char(prev) || prev == '.' {
            continue; // not the start of a run, so each run is read once
        }
        let mut lens = [0usize; 3];
        let mut part = 0;
        let mut start = i;
        let mut j = i;
        let mut payload = i;
        loop {
            let c = t.at(j);
            if url_char(c) {
                j += 1;
            } else if c == '.' && part < 2 {
                lens[part] = j - start;
                part += 1;
                j += 1;
                start = j;
                if part == 1 {
                    payload = j;
                }
            } else {
                break;
            }
        }
        lens[part] = j - start;
        // An unsigned token ("alg": "none") has an empty signature but still a JSON payload.
        if part == 2 && lens[0] >= 10 && lens[1] >= 10 && (lens[2] >= 10 || t.exact_at(payload, "eyJ")) {
            return Some(SecretKind::ApiKey);
        }
    }
    None
}
