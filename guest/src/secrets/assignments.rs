//! Assignments: `NAME = value`, `NAME: value`, `"name": "value"`. The name says what the value
//! is, so the value needs less evidence than in prose.

use super::SecretKind;
use super::keys::phrase_words;
use super::numbers::ssn_digits;
use super::passwords::{login_pair, worth_keeping};
use super::text::Text;
use super::values::{closing_quote, cvv_like, is_placeholder, pin_like, strip_wrapping, token_like};
use super::words::{Class, WordSet};

/// Secrets given a name: `.env` lines, config files, JSON, HTTP headers and query strings.
/// Single plain words before a colon ("Password: ...") are left to `statement`, which reads
/// them as prose.
pub(super) fn assignment(t: &Text) -> Option<SecretKind> {
    for i in 0..t.len() {
        let sep = t.c[i];
        if sep != '=' && sep != ':' {
            continue;
        }
        if matches!(t.before(i), '=' | ':' | '!' | '<' | '>') || (sep == '=' && t.at(i + 1) == '=') {
            continue; // "==", ":=", "!=", ">=", "::"
        }
        // The name, walking back over spaces, a closing quote or bracket.
        let mut e = i;
        while e > 0 && i - e < 3 && matches!(t.c[e - 1], ' ' | '\t') {
            e -= 1;
        }
        let mut quoted = false;
        while e > 0 && i - e < 6 && matches!(t.c[e - 1], '"' | '\'' | '`' | ']') {
            quoted = true;
            e -= 1;
        }
        let mut s = e;
        while s > 0 && e - s < 64 && (t.c[s - 1].is_alphanumeric() || matches!(t.c[s - 1], '_' | '-' | '.')) {
            s -= 1;
        }
        if s == e || (s > 0 && e - s == 64 && t.c[s - 1].is_alphanumeric()) || t.c[s].is_ascii_digit() {
            continue; // no name, or a name no identifier has ("1Password: see the vault")
        }
        let parts = name_parts(&t.c[s..e]);
        if sep == ':' && !quoted && parts.len() < 2 {
            continue;
        }
        let Some(class) = classify_name(&parts) else { continue };
        // The value, after ":=", "=>", spaces and an opening quote.
        let mut v = i + 1;
        while matches!(t.at(v), '=' | '>' | ':') && v - i < 3 {
            v += 1;
        }
        while matches!(t.at(v), ' ' | '\t') && v - i < 8 {
            v += 1;
        }
        let value = read_value(t, v);
        if let Some(kind) = judge_named(class, &value) {
            return Some(kind);
        }
    }
    None
}

/// The value at `v`: up to the matching quote if quoted, else up to a delimiter or the next
/// assignment (`a=b=c` holds two; base64 padding `==` stays in the value). At most 128
/// characters are read, which is enough to judge it.
fn read_value(t: &Text, v: usize) -> String {
    let open = t.at(v);
    if let Some(close) = closing_quote(open) {
        let mut e = v + 1;
        while e - v < 128 && t.at(e) != close && t.at(e) != '\0' && t.at(e) != '\n' {
            e += 1;
        }
        return t.string(v + 1, e);
    }
    let mut e = v;
    while e - v < 128 {
        let c = t.at(e);
        if c == '\0'
            || c.is_whitespace()
            || matches!(c, '"' | '\'' | '`' | ',' | ';' | '&' | ')' | ']' | '}' | '<' | '>')
        {
            break;
        }
        if c == '=' && e > v && t.at(e + 1).is_alphanumeric() {
            break;
        }
        e += 1;
    }
    t.string(v, e).trim_end_matches(['.', '!', '?']).to_owned()
}

/// Splits an identifier into lower-case parts: `AWS_SECRET_ACCESS_KEY`, `secretAccessKey`
/// and `x-api-key` all come apart into words.
fn name_parts(name: &[char]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    for (k, &c) in name.iter().enumerate() {
        if matches!(c, '_' | '-' | '.') {
            if !cur.is_empty() {
                parts.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_uppercase() && k > 0 && (name[k - 1].is_lowercase() || name[k - 1].is_ascii_digit()) && !cur.is_empty()
        {
            parts.push(std::mem::take(&mut cur));
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        parts.push(cur);
    }
    parts
}

static PASSWORD_PARTS: WordSet = WordSet::new(
    "password passwd pwd pw pass passphrase passcode pword contraseña contrasena passwort kennwort senha
     wachtwoord mdp motdepasse lösenord passord haslo hasło heslo salasana sifre şifre",
);

/// Name parts that make a value a key or token.
static KEY_PARTS: WordSet = WordSet::new(
    "token secret apikey key credential credentials creds auth authorization sig signature bearer jwt
     session sessionid cookie privatekey accesskey secretkey signingkey accountkey sharedaccesskey
     secretaccesskey clientsecret authtoken accesstoken refreshtoken apitoken hmac pat",
);

/// Last parts that name something about a secret rather than the secret: `token_url`,
/// `password_hint`, `key_id`.
static NOT_SECRET_LAST: WordSet = WordSet::new(
    "name names path file filename dir url uri endpoint type count length len size limit max min ttl
     expiry expires expiration arn ref version header field env var prefix suffix format algorithm alg
     kind hint id ids policy rules rule manager reset hash hashed salt enabled required strength label
     placeholder input prompt changed updated at date time timeout rotation store provider source
     location mode scheme style validation regex pattern usage used method request response schema
     description title text message error form button column table index rate ratio score level days age
     lifetime duration issuer audience scope scopes role user username email login account host port",
);

/// Last parts that may follow a key word and still name the secret itself.
static VALUE_SUFFIXES: WordSet = WordSet::new("base value string str b64 base64 hex raw plain plaintext");

/// Words before "key" that make it a database or map key, not a credential.
static ORDINARY_KEYS: WordSet = WordSet::new(
    "primary foreign sort partition cache row range lookup map dict public pub unique composite surrogate
     natural object s3 hash group order idempotency dedup dedupe shard routing join parent child mapping
     translation i18n locale message config setting registry hot short shortcut keyboard music answer
     host known redis storage_path search index sequence field column dimension metric",
);

static CLOUD_PARTS: WordSet = WordSet::new("aws amz azure gcp gcloud google s3 sas iam");

fn classify_name(parts: &[String]) -> Option<Class> {
    let n = parts.len();
    let last = parts.last()?.as_str();
    if NOT_SECRET_LAST.contains(last)
        || parts
            .iter()
            .any(|p| matches!(p.as_str(), "public" | "publishable" | "pub"))
    {
        return None;
    }
    // The secret word is the last part, or the last but one before "value", "b64" and such.
    let (word, before) = if VALUE_SUFFIXES.contains(last) && n >= 2 {
        (parts[n - 2].as_str(), parts.get(n.wrapping_sub(3)).map(String::as_str))
    } else {
        (last, parts.get(n.wrapping_sub(2)).map(String::as_str))
    };
    let has = |w: &str| parts.iter().any(|p| p == w);
    if PASSWORD_PARTS.contains(word) || word.ends_with("password") || word.ends_with("passwd") {
        return Some(Class::Password);
    }
    match word {
        "pin" | "pincode" => return Some(Class::Pin),
        "cvv" | "cvc" | "cvv2" | "cvc2" => return Some(Class::Cvv),
        "ssn" => return Some(Class::Ssn),
        _ => {}
    }
    if !KEY_PARTS.contains(word) {
        return None;
    }
    if word == "key" && before.is_some_and(|b| ORDINARY_KEYS.contains(b)) {
        return None;
    }
    let kind = if (has("private") && word == "key") || word == "privatekey" {
        SecretKind::PrivateKey
    } else if parts.iter().any(|p| CLOUD_PARTS.contains(p))
        || (has("account") && word == "key")
        || matches!(word, "accountkey" | "sharedaccesskey" | "secretaccesskey")
        || (has("shared") && has("access"))
        || (has("secret") && has("access") && word == "key")
    // AWS: secretAccessKey
    {
        SecretKind::CloudCredential
    } else {
        SecretKind::ApiKey
    };
    Some(Class::Key(kind))
}

/// Judges the value of a named field. The name already says what it is, so any real value
/// of a password field is a password (no allowance for descriptions, unlike prose).
pub(super) fn judge_named(class: Class, value: &str) -> Option<SecretKind> {
    let value = value.trim();
    let found = match class {
        Class::Password | Class::Pass | Class::WeakPassword => worth_keeping(value) && !is_placeholder(value),
        Class::Pin => pin_like(value, 4),
        Class::Cvv => return cvv_like(value).then_some(SecretKind::CardNumber),
        Class::Key(kind) => return (token_like(value, 12) && !is_placeholder(value)).then_some(kind),
        Class::Ssn => return ssn_digits(value).then_some(SecretKind::NationalId),
        Class::Phrase => return phrase_words(value).then_some(SecretKind::RecoveryPhrase),
        Class::Login => {
            let mut words = value.split_whitespace().map(|w| Some(strip_wrapping(w)));
            login_pair([(); 3].map(|_| words.next().flatten()))
        }
    };
    found.then_some(SecretKind::Password)
}
