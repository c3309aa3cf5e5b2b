//! Refusing credentials. Memory is plain text on disk and is injected into prompts, so a
//! secret stored there leaks twice. Detection errs towards refusing: a user can rephrase a
//! fact, but cannot take back a leaked key.
//!
//! The text is first normalised (full-width forms, zero-width and combining characters, other
//! digit scripts) so that a secret cannot slip through in a different spelling. Then each
//! detector looks for one family of secrets: key material, webhook and connection URLs,
//! tokens with a well-known prefix, JWTs, `name = value` assignments, sentences that state a
//! secret ("my password is ..."), and numbers with a checksum (IBAN, SSN, card).
//!
//! Every detector works on character indices (never byte offsets, so it cannot panic on a
//! character boundary) and does a bounded amount of work per position, so time is linear in
//! the length of the text.

#[cfg(test)]
mod catalogue;
mod words;

use words::{Class, Trigger, WordSet};

/// What kind of secret was found; named in the refusal, the secret itself never is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    PrivateKey,
    ApiKey,
    Password,
    CardNumber,
    CloudCredential,
    Webhook,
    ConnectionString,
    BankAccount,
    NationalId,
    RecoveryPhrase,
}

impl SecretKind {
    pub fn describe(self) -> &'static str {
        match self {
            SecretKind::PrivateKey => "a private key",
            SecretKind::ApiKey => "an API key or access token",
            SecretKind::Password => "a password",
            SecretKind::CardNumber => "a payment card number",
            SecretKind::CloudCredential => "a cloud provider credential",
            SecretKind::Webhook => "a webhook URL, which carries its own secret",
            SecretKind::ConnectionString => "a connection URL with a password in it",
            SecretKind::BankAccount => "a bank account number (IBAN)",
            SecretKind::NationalId => "a national identity number (US SSN)",
            SecretKind::RecoveryPhrase => "a wallet recovery phrase",
        }
    }
}

/// Finds the first secret in `text`, if any.
pub fn detect(text: &str) -> Option<SecretKind> {
    let t = Text::new(text);
    let detectors: [fn(&Text) -> Option<SecretKind>; 10] = [
        private_key,
        webhook,
        connection_url,
        prefixed_token,
        jwt,
        assignment,
        statement,
        iban,
        ssn,
        card_number,
    ];
    detectors.iter().find_map(|detector| detector(&t))
}

// ---------------------------------------------------------------------------------------
// Normalised text

/// The text as characters, normalised, with a lower-cased copy for case-insensitive matching.
/// Indices are character indices into both.
struct Text {
    c: Vec<char>,
    low: Vec<char>,
    /// `low` as a string, for a quick look at whether a detector has anything to find.
    hay: String,
}

impl Text {
    fn new(text: &str) -> Text {
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

    fn len(&self) -> usize {
        self.c.len()
    }

    /// The character at `i`, or NUL past either end, so that lookarounds need no bounds checks.
    fn at(&self, i: usize) -> char {
        self.c.get(i).copied().unwrap_or('\0')
    }

    fn lo(&self, i: usize) -> char {
        self.low.get(i).copied().unwrap_or('\0')
    }

    fn before(&self, i: usize) -> char {
        if i == 0 { '\0' } else { self.at(i - 1) }
    }

    /// The end of `needle` if it occurs at `i`, compared lower-case; a space in the needle
    /// matches any one whitespace character.
    fn match_at(&self, i: usize, needle: &str) -> Option<usize> {
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
    fn exact_at(&self, i: usize, needle: &str) -> bool {
        (i..).zip(needle.chars()).all(|(j, n)| self.at(j) == n)
    }

    fn string(&self, s: usize, e: usize) -> String {
        self.c[s.min(self.len())..e.min(self.len())].iter().collect()
    }

    fn lower_string(&self, s: usize, e: usize) -> String {
        self.low[s.min(self.len())..e.min(self.len())].iter().collect()
    }

    /// The next run of non-whitespace characters at or after `from`, if one starts within a
    /// short distance.
    fn next_word(&self, from: usize) -> Option<(usize, usize)> {
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
    fn prev_word(&self, to: usize) -> Option<(usize, usize)> {
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
    fn words_from(&self, from: usize, n: usize) -> Vec<(usize, usize)> {
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
fn buckets<'a>(words: impl Iterator<Item = &'a str>) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); 129];
    for (i, w) in words.enumerate() {
        let first = w.chars().next().unwrap_or('\0');
        out[bucket_of(first)].push(i);
    }
    out
}

fn bucket_of(c: char) -> usize {
    if c.is_ascii() { c as usize } else { 128 }
}

// ---------------------------------------------------------------------------------------
// Key material

/// PEM armour, PuTTY and age keys, and bare base64 key bodies (a private key pasted without
/// its header still starts with the DER structure of one).
fn private_key(t: &Text) -> Option<SecretKind> {
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

fn is_base64(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=')
}

/// Whether a base64 run is the start of a private key: an OpenSSH key, or DER whose first
/// element marks a private key (a version number), rather than a certificate or public key.
fn key_body(run: &[char]) -> bool {
    if run.starts_with(&"b3BlbnNzaC1rZXktdjE".chars().collect::<Vec<_>>()) {
        return true; // "openssh-key-v1"
    }
    let b = base64_decode(&run[..run.len().min(40)]);
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

fn base64_decode(chars: &[char]) -> Vec<u8> {
    let mut out = Vec::new();
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

// ---------------------------------------------------------------------------------------
// URLs

/// Chat and automation webhooks: whoever has the URL can post, so the URL is the secret.
fn webhook(t: &Text) -> Option<SecretKind> {
    const HOSTS: &[&str] = &[
        "slack.com",
        "office.com",
        "zapier.com",
        "ifttt.com",
        "discord",
        "googleapis.com",
    ];
    if !HOSTS.iter().any(|h| t.hay.contains(h)) {
        return None;
    }
    // (host and path, least number of path characters after it)
    const HOOKS: &[(&str, usize)] = &[
        ("hooks.slack.com/services/", 20),
        ("hooks.slack.com/workflows/", 20),
        ("hooks.slack.com/triggers/", 20),
        ("webhook.office.com/webhookb2/", 20),
        ("outlook.office.com/webhook/", 20),
        ("hooks.zapier.com/hooks/catch/", 6),
        ("maker.ifttt.com/use/", 10),
        ("maker.ifttt.com/trigger/", 20),
    ];
    for i in 0..t.len() {
        let c = t.low[i];
        if !matches!(c, 'h' | 'w' | 'o' | 'm' | 'd' | 'c') {
            continue;
        }
        for (needle, min) in HOOKS {
            if let Some(e) = t.match_at(i, needle)
                && url_chars(t, e, *min) >= *min
            {
                return Some(SecretKind::Webhook);
            }
        }
        if c == 'd' && discord_webhook(t, i) {
            return Some(SecretKind::Webhook);
        }
        if c == 'c'
            && let Some(e) = t.match_at(i, "chat.googleapis.com/v1/spaces/")
        {
            // Google Chat: the key and token ride in the query string.
            let end = (e..(e + 300).min(t.len()))
                .find(|&j| t.c[j].is_whitespace())
                .unwrap_or(t.len().min(e + 300));
            if (e..end).any(|j| t.match_at(j, "token=").is_some()) {
                return Some(SecretKind::Webhook);
            }
        }
    }
    None
}

/// discord.com/api/[v10/]webhooks/<id>/<token>
fn discord_webhook(t: &Text, i: usize) -> bool {
    let Some(mut e) = t
        .match_at(i, "discord.com/api/")
        .or_else(|| t.match_at(i, "discordapp.com/api/"))
    else {
        return false;
    };
    if t.lo(e) == 'v' {
        let mut j = e + 1;
        while t.at(j).is_ascii_digit() && j - e < 4 {
            j += 1;
        }
        if t.at(j) == '/' {
            e = j + 1;
        }
    }
    let Some(mut j) = t.match_at(e, "webhooks/") else {
        return false;
    };
    let id = j;
    while t.at(j).is_ascii_digit() && j - id < 24 {
        j += 1;
    }
    j - id >= 5 && t.at(j) == '/' && url_chars(t, j + 1, 20) >= 20
}

/// How many URL path characters follow `from`, counting up to `cap`.
fn url_chars(t: &Text, from: usize, cap: usize) -> usize {
    let mut j = from;
    while j - from < cap
        && (t.at(j).is_ascii_alphanumeric() || matches!(t.at(j), '/' | '_' | '-' | '.' | '~' | '%' | '@'))
    {
        j += 1;
    }
    j - from
}

/// `scheme://user:password@host`: a database, broker or HTTP URL with the password in it.
fn connection_url(t: &Text) -> Option<SecretKind> {
    if !t.hay.contains("://") {
        return None;
    }
    for i in 0..t.len() {
        if t.c[i] != ':' || t.at(i + 1) != '/' || t.at(i + 2) != '/' {
            continue;
        }
        let mut s = i;
        while s > 0 && i - s < 32 && (t.c[s - 1].is_ascii_alphanumeric() || matches!(t.c[s - 1], '+' | '-' | '.')) {
            s -= 1;
        }
        if s == i {
            continue;
        }
        let a = i + 3;
        let mut e = a;
        while e - a < 512 {
            let c = t.at(e);
            if c == '\0' || c.is_whitespace() || matches!(c, '/' | '?' | '#' | '"' | '\'' | '`' | '<' | '>') {
                break;
            }
            e += 1;
        }
        let Some(at) = (a..e).rev().find(|&j| t.c[j] == '@') else {
            continue;
        };
        let Some(colon) = (a..at).find(|&j| t.c[j] == ':') else {
            continue;
        };
        let password = t.string(colon + 1, at);
        if !password.is_empty() && !is_placeholder(&password) {
            return Some(SecretKind::ConnectionString);
        }
    }
    None
}

// ---------------------------------------------------------------------------------------
// Tokens with a well-known shape

#[derive(Clone, Copy)]
enum Set {
    /// Letters, digits, `_` and `-`.
    Word,
    /// `Word` and `.`.
    Dotted,
    /// Upper-case letters and digits.
    Upper,
    /// Lower-case hexadecimal.
    Hex,
    /// Standard base64.
    Base64,
}

impl Set {
    fn has(self, c: char) -> bool {
        match self {
            Set::Word => c.is_ascii_alphanumeric() || c == '_' || c == '-',
            Set::Dotted => c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'),
            Set::Upper => c.is_ascii_uppercase() || c.is_ascii_digit(),
            Set::Hex => c.is_ascii_digit() || ('a'..='f').contains(&c),
            Set::Base64 => is_base64(c),
        }
    }
}

/// A token prefix and what must follow it.
struct Prefix {
    text: &'static str,
    set: Set,
    /// The least number of characters after the prefix; with `exact`, the only number.
    min: usize,
    exact: bool,
    /// The rest must look random (digits and letters, or both cases): set for prefixes that
    /// also begin ordinary words ("sk-ateboarding", "hf_model_name").
    random: bool,
    kind: SecretKind,
}

const fn p(text: &'static str, set: Set, min: usize, kind: SecretKind) -> Prefix {
    Prefix {
        text,
        set,
        min,
        exact: false,
        random: false,
        kind,
    }
}

const fn random(text: &'static str, set: Set, min: usize, kind: SecretKind) -> Prefix {
    Prefix {
        text,
        set,
        min,
        exact: false,
        random: true,
        kind,
    }
}

const fn exact(text: &'static str, set: Set, len: usize, kind: SecretKind) -> Prefix {
    Prefix {
        text,
        set,
        min: len,
        exact: true,
        random: false,
        kind,
    }
}

const API: SecretKind = SecretKind::ApiKey;
const CLOUD: SecretKind = SecretKind::CloudCredential;

const PREFIXES: &[Prefix] = &[
    p("sk-ant-", Set::Word, 20, API),  // Anthropic
    random("sk-", Set::Word, 20, API), // OpenAI (sk-proj-, sk-svcacct-), DeepSeek and others
    p("sk_live_", Set::Word, 16, API), // Stripe
    p("sk_test_", Set::Word, 16, API),
    p("rk_live_", Set::Word, 16, API),
    p("rk_test_", Set::Word, 16, API),
    p("whsec_", Set::Word, 20, API), // Stripe webhook signing secret
    p("ghp_", Set::Word, 20, API),   // GitHub
    p("gho_", Set::Word, 20, API),
    p("ghu_", Set::Word, 20, API),
    p("ghs_", Set::Word, 20, API),
    p("ghr_", Set::Word, 20, API),
    p("github_pat_", Set::Word, 20, API),
    p("glpat-", Set::Word, 16, API), // GitLab
    p("gldt-", Set::Word, 16, API),
    p("glrt-", Set::Word, 16, API),
    p("glptt-", Set::Word, 16, API),
    p("glsoat-", Set::Word, 16, API),
    p("glcbt-", Set::Word, 16, API),
    p("xoxb-", Set::Word, 10, API), // Slack
    p("xoxp-", Set::Word, 10, API),
    p("xoxa-", Set::Word, 10, API),
    p("xoxr-", Set::Word, 10, API),
    p("xoxs-", Set::Word, 10, API),
    p("xoxe-", Set::Word, 10, API),
    p("xoxe.xoxp-", Set::Word, 10, API),
    p("xapp-", Set::Word, 10, API),
    exact("AKIA", Set::Upper, 16, CLOUD),      // AWS access key id, long-term
    exact("ASIA", Set::Upper, 16, CLOUD),      // AWS access key id, session
    p("FwoGZXIvYXdz", Set::Base64, 40, CLOUD), // AWS session token bodies
    p("IQoJb3JpZ2lu", Set::Base64, 40, CLOUD),
    p("AIza", Set::Word, 30, API),      // Google API key
    p("GOCSPX-", Set::Word, 20, CLOUD), // Google OAuth client secret
    p("ya29.", Set::Dotted, 30, CLOUD), // Google OAuth access token
    random("hf_", Set::Word, 30, API),  // Hugging Face
    random("api_org_", Set::Word, 30, API),
    random("npm_", Set::Word, 30, API),  // npm
    random("pypi-", Set::Word, 30, API), // PyPI
    p("SG.", Set::Dotted, 40, API),      // SendGrid
    exact("SK", Set::Hex, 32, API),      // Twilio API key
    exact("AC", Set::Hex, 32, API),      // Twilio account (sent with its token)
    exact("shpat_", Set::Hex, 32, API),  // Shopify
    exact("shpss_", Set::Hex, 32, API),
    exact("shpca_", Set::Hex, 32, API),
    exact("shppa_", Set::Hex, 32, API),
    exact("dop_v1_", Set::Hex, 64, CLOUD), // DigitalOcean
    exact("doo_v1_", Set::Hex, 64, CLOUD),
    exact("dor_v1_", Set::Hex, 64, CLOUD),
    exact("dapi", Set::Hex, 32, API),       // Databricks
    exact("key-", Set::Hex, 32, API),       // Mailgun
    random("ATATT", Set::Dotted, 30, API),  // Atlassian
    random("lin_api_", Set::Word, 30, API), // Linear
    random("ntn_", Set::Word, 30, API),     // Notion
    random("secret_", Set::Word, 40, API),  // Notion (older)
    random("hvs.", Set::Dotted, 20, API),   // HashiCorp Vault
    random("hvb.", Set::Dotted, 20, API),
    random("dp.pt.", Set::Word, 30, API), // Doppler
    random("dp.st.", Set::Word, 30, API),
    random("PMAK-", Set::Word, 30, API), // Postman
    random("glc_", Set::Word, 30, API),  // Grafana
    random("glsa_", Set::Word, 30, API),
    random("sq0atp-", Set::Word, 20, API), // Square
    random("sq0csp-", Set::Word, 20, API),
    random("dckr_pat_", Set::Word, 20, API), // Docker Hub
    random("sntrys_", Set::Word, 40, API),   // Sentry
    random("sntryu_", Set::Word, 40, API),
    random("figd_", Set::Word, 30, API), // Figma
    random("nfp_", Set::Word, 30, API),  // Netlify
    random("sbp_", Set::Word, 30, API),  // Supabase
    random("xai-", Set::Word, 40, API),  // xAI
    random("gsk_", Set::Word, 40, API),  // Groq
    random("pplx-", Set::Word, 40, API), // Perplexity
    random("r8_", Set::Word, 30, API),   // Replicate
    random("rubygems_", Set::Word, 40, API),
    p("AGE-SECRET-KEY-1", Set::Upper, 50, SecretKind::PrivateKey), // age
];

fn prefixed_token(t: &Text) -> Option<SecretKind> {
    let by_first = buckets(PREFIXES.iter().map(|p| p.text));
    for i in 0..t.len() {
        let prev = t.before(i);
        let c = t.c[i];
        // Only at the start of a run, so that each run is read once ("sk-sk-sk-..." is one).
        if !c.is_ascii_alphanumeric() || prev.is_ascii_alphanumeric() || matches!(prev, '_' | '-' | '.') {
            continue;
        }
        for &k in &by_first[bucket_of(c)] {
            let p = &PREFIXES[k];
            if !t.exact_at(i, p.text) {
                continue;
            }
            let rest = i + p.text.len();
            // Reading is capped so that runs of prefixes ("sk-sk-sk-...") stay linear.
            let mut e = rest;
            while e - rest <= p.min + 64 && p.set.has(t.at(e)) {
                e += 1;
            }
            let len = e - rest;
            let fits = if p.exact {
                len == p.min && !t.at(e).is_ascii_alphanumeric()
            } else {
                len >= p.min
            };
            if fits && (!p.random || looks_random(&t.c[rest..e])) {
                return Some(p.kind);
            }
        }
        if let Some(kind) = telegram_or_azure(t, i) {
            return Some(kind);
        }
    }
    None
}

/// Two shapes without a fixed prefix: a Telegram bot token (`123456789:AA...`) and an Azure
/// AD client secret (40 characters with `Q~` after the fourth).
fn telegram_or_azure(t: &Text, i: usize) -> Option<SecretKind> {
    let mut j = i;
    while t.at(j).is_ascii_digit() && j - i < 12 {
        j += 1;
    }
    if (8..=10).contains(&(j - i)) && t.at(j) == ':' && t.exact_at(j + 1, "AA") {
        let mut e = j + 3;
        while Set::Word.has(t.at(e)) && e - j < 64 {
            e += 1;
        }
        if e - j >= 32 {
            return Some(SecretKind::ApiKey);
        }
    }
    if t.at(i + 3).is_ascii_digit() && t.at(i + 4) == 'Q' && t.at(i + 5) == '~' {
        let mut e = i;
        while (Set::Dotted.has(t.at(e)) || t.at(e) == '~') && e - i < 48 {
            e += 1;
        }
        if (34..=40).contains(&(e - i)) {
            return Some(CLOUD);
        }
    }
    None
}

/// Whether a run looks machine-made: digits and letters, or both cases, as random keys do
/// and words do not.
fn looks_random(chars: &[char]) -> bool {
    let digit = chars.iter().any(|c| c.is_ascii_digit());
    let letter = chars.iter().any(|c| c.is_ascii_alphabetic());
    let upper = chars.iter().any(|c| c.is_ascii_uppercase());
    let lower = chars.iter().any(|c| c.is_ascii_lowercase());
    (digit && letter) || (upper && lower)
}

/// `eyJ<header>.<payload>.<signature>`: a signed token, whatever issued it.
fn jwt(t: &Text) -> Option<SecretKind> {
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

// ---------------------------------------------------------------------------------------
// Assignments: NAME = value, NAME: value, "name": "value"

/// Secrets given a name: `.env` lines, config files, JSON, HTTP headers and query strings.
/// Single plain words before a colon ("Password: ...") are left to `statement`, which reads
/// them as prose.
fn assignment(t: &Text) -> Option<SecretKind> {
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
        if s == e || (s > 0 && e - s == 64 && t.c[s - 1].is_alphanumeric()) {
            continue;
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

fn closing_quote(c: char) -> Option<char> {
    Some(match c {
        '"' => '"',
        '\'' => '\'',
        '`' => '`',
        '“' => '”',
        '‘' => '’',
        '«' => '»',
        '「' => '」',
        '『' => '』',
        '„' => '“',
        _ => return None,
    })
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

/// Whether a value is long enough to be a password at all: "0", "277" and "∞" are enum
/// values and symbols in code, not passwords.
fn worth_keeping(value: &str) -> bool {
    let n = value.chars().count();
    let digits = value.chars().filter(char::is_ascii_digit).count();
    n >= 3 && value.chars().any(char::is_alphanumeric) && (digits < n || n >= 4)
}

/// Judges the value of a named field. The name already says what it is, so any real value
/// of a password field is a password (no allowance for descriptions, unlike prose).
fn judge_named(class: Class, value: &str) -> Option<SecretKind> {
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

// ---------------------------------------------------------------------------------------
// Statements: "my password is ...", "la contraseña del wifi es ...", "PIN 4821"

fn statement(t: &Text) -> Option<SecretKind> {
    let by_first = buckets(words::TRIGGERS.iter().map(|t| t.word));
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
            return if trig.bare { bare_value(t, trig, s, e) } else { None };
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
struct Following<'a> {
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
    fn core(&mut self, k: usize) -> Option<String> {
        self.raw(k)
            .map(|w| strip_wrapping(w.trim_end_matches(['.', ',', ';', '!', '?'])))
    }

    /// Whether the clause goes on after word `k`.
    fn continues(&mut self, k: usize) -> bool {
        self.raw(k).is_some_and(|w| !w.ends_with(['.', ',', ';', '!', '?']))
    }

    fn lower(&mut self, k: usize) -> Option<String> {
        self.core(k).map(|w| w.to_lowercase())
    }
}

/// "admin:hunter2!", "admin / hunter2!": a user name and a password-like word.
fn login_pair([first, second, third]: [Option<String>; 3]) -> bool {
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

/// Whether the words after "password is" disclose one. The first word decides: a known
/// description ("strong", "the same as before", "saved in 1Password", "expired") does not;
/// anything else, mixed with digits or symbols or a single unusual word ("hunter2",
/// "letmein", "Tr0ub4dor&3", "correct-horse-battery"), does. A description would be read as
/// the password itself only by a user who chose a plain adjective as one; the reverse error
/// would refuse every sentence about passwords.
fn password_phrase(values: &mut Following) -> bool {
    let mut k = 0;
    while k < 2 && values.lower(k).is_some_and(|w| words::ADVERBS.contains(&w)) {
        k += 1; // "is now hunter2"
    }
    if values.lower(k).is_some_and(|w| words::CHANGE_VERBS.contains(&w))
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
    !(number && next.is_some_and(|w| words::UNITS.contains(&w)))
}

/// Whether a value describes a password instead of being one.
fn is_description(value: &str) -> bool {
    let lower = value.to_lowercase();
    if words::DESCRIPTIONS.contains(&lower) {
        return true;
    }
    if lower.contains('-') && lower.split('-').all(|p| words::DESCRIPTIONS.contains(p)) {
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

/// Removes quotes and brackets around a word: "(hunter2)" reads as "hunter2".
fn strip_wrapping(value: &str) -> String {
    value
        .trim_start_matches(['"', '\'', '`', '(', '“', '‘', '«', '「', '『', '„'])
        .trim_end_matches(['"', '\'', '`', ')', '”', '’', '»', '」', '』'])
        .to_owned()
}

/// Whether a word has the makings of a password: letters with digits or symbols, or six or
/// more digits. Used where the context alone does not settle it.
fn password_like(value: &str) -> bool {
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

/// Placeholders and references stand for a secret without being one: `****`, `<password>`,
/// `${DB_PASSWORD}`, `your_api_key_here`, `os.environ["TOKEN"]`.
fn is_placeholder(value: &str) -> bool {
    let value = value.trim();
    let lower = value.to_lowercase();
    let inner = lower.trim_matches(['"', '\'', '`']);
    if inner.is_empty()
        || inner
            .chars()
            .all(|c| matches!(c, '*' | '•' | '●' | 'x' | '.' | '#' | '?' | '_' | '-' | '…'))
    {
        return true;
    }
    let wrapped = |open: char, close: char| inner.starts_with(open) && inner.ends_with(close);
    if wrapped('[', ']') || inner.starts_with(['<', '{']) || inner.starts_with("${") || inner.starts_with("%(") {
        return true; // <password>, {{token}}, ${TOKEN}, [redacted]
    }
    if let Some(var) = value.strip_prefix('$')
        && !var.is_empty()
        && var
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        return true; // $DB_PASSWORD
    }
    if matches!(
        inner,
        "redacted"
            | "hidden"
            | "removed"
            | "omitted"
            | "none"
            | "null"
            | "nil"
            | "undefined"
            | "n/a"
            | "tbd"
            | "todo"
            | "true"
            | "false"
            | "placeholder"
    ) {
        return true;
    }
    // Code: type annotations (`password: &str`, `pw: u32`, `Option<String>`), paths
    // (`sys::PASS`) and field accesses (`node.token`).
    let primitive = inner.trim_start_matches('_');
    if inner.starts_with('&')
        || inner.contains("::")
        || matches!(
            primitive,
            "str"
                | "string"
                | "text"
                | "varchar"
                | "bytes"
                | "int"
                | "integer"
                | "bool"
                | "boolean"
                | "secretstring"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "u128"
                | "usize"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "i128"
                | "isize"
        )
        || generic_type(value)
        || field_path(value)
    {
        return true;
    }
    if inner.starts_with("your") || inner.ends_with("_here") || inner.ends_with("-here") {
        return true; // your_api_key_here, YOUR-TOKEN
    }
    inner.contains('(')
        || [
            "os.",
            "process.env",
            "env.",
            "env[",
            "secrets.",
            "settings.",
            "config.",
            "self.",
            "this.",
            "vault:",
        ]
        .iter()
        .any(|r| inner.starts_with(r))
}

/// `Option<...`, `Vec<u8>`: an identifier directly followed by `<`.
fn generic_type(value: &str) -> bool {
    value
        .split_once('<')
        .is_some_and(|(head, _)| !head.is_empty() && head.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// `node.colon2_token`, `config.db.password`: identifiers joined by dots, the first a plain
/// lower-case word, as random tokens never begin.
fn field_path(value: &str) -> bool {
    let mut segments = value.split('.');
    let first = segments.next().unwrap_or("");
    let ident = |s: &str| {
        s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    value.contains('.')
        && first.len() >= 2
        && first.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        && segments.all(ident)
}

/// Whether a value is shaped like a key or token: long, from the token alphabet, and
/// machine-made (digits and letters, or both cases).
fn token_like(value: &str, min: usize) -> bool {
    let chars: Vec<char> = value.chars().collect();
    if chars.len() < min {
        return false;
    }
    let upper = chars.iter().any(|c| c.is_ascii_uppercase());
    let lower = chars.iter().any(|c| c.is_ascii_lowercase());
    let digit = chars.iter().any(|c| c.is_ascii_digit());
    // Identifiers ("_bindgen_ty_5", "v1.2.3-beta") switch between letters and digits once or
    // twice; random strings do so often.
    let alnum: Vec<char> = chars.iter().copied().filter(char::is_ascii_alphanumeric).collect();
    let switches = alnum
        .windows(2)
        .filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit())
        .count();
    chars.len() >= min
        && chars
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '+' | '=' | '~' | '%'))
        && (upper || lower)
        && ((digit && (switches >= 3 || (upper && lower))) || (upper && lower && chars.len() >= 20))
        && !is_placeholder(value)
}

/// A numeric code: digits, with the separators people type.
fn pin_like(value: &str, min_digits: usize) -> bool {
    let value = value.trim_matches(['#', '*']);
    let digits = value.chars().filter(|c| c.is_ascii_digit()).count();
    (min_digits..=12).contains(&digits)
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | ' ' | '.'))
}

fn cvv_like(value: &str) -> bool {
    (3..=4).contains(&value.chars().count()) && value.chars().all(|c| c.is_ascii_digit())
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

// ---------------------------------------------------------------------------------------
// Numbers with a structure: SSN, IBAN, card

/// ddd-dd-dddd, outside the ranges never issued (area 000, 666, 900-999; group 00; serial
/// 0000), and not part of a longer number.
fn ssn(t: &Text) -> Option<SecretKind> {
    for i in 0..t.len() {
        if !t.c[i].is_ascii_digit() {
            continue;
        }
        let prev = t.before(i);
        if prev.is_alphanumeric() || matches!(prev, '-' | '.' | '/' | '+') {
            continue;
        }
        let shape = "ddd-dd-dddd";
        if !shape.chars().enumerate().all(|(k, s)| {
            if s == 'd' {
                t.at(i + k).is_ascii_digit()
            } else {
                t.at(i + k) == '-'
            }
        }) {
            continue;
        }
        let next = t.at(i + 11);
        if next.is_alphanumeric() || (matches!(next, '-' | '.' | '/') && t.at(i + 12).is_ascii_digit()) {
            continue;
        }
        if ssn_digits(&t.string(i, i + 11)) {
            return Some(SecretKind::NationalId);
        }
    }
    None
}

/// An SSN after its name: nine digits, separators allowed ("SSN: 123 45 6789").
fn ssn_at(t: &Text, from: usize) -> bool {
    let mut v = from;
    while matches!(t.at(v), ':' | '#' | ' ' | '=') && v - from < 4 {
        v += 1;
    }
    let mut e = v;
    while (t.at(e).is_ascii_digit() || matches!(t.at(e), '-' | ' ' | '.')) && e - v < 13 {
        e += 1;
    }
    !t.at(e).is_ascii_digit() && ssn_digits(&t.string(v, e))
}

fn ssn_digits(value: &str) -> bool {
    let d: Vec<u32> = value.chars().filter_map(|c| c.to_digit(10)).collect();
    if d.len() != 9
        || !value
            .trim()
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | ' ' | '.'))
    {
        return false;
    }
    let area = d[0] * 100 + d[1] * 10 + d[2];
    let group = d[3] * 10 + d[4];
    let serial = d[5] * 1000 + d[6] * 100 + d[7] * 10 + d[8];
    area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
}

/// Registered IBAN lengths by country, in order; an IBAN must have its country's length and
/// pass the mod-97 check.
const IBAN_LENGTHS: &[(&str, usize)] = &[
    ("AD", 24),
    ("AE", 23),
    ("AL", 28),
    ("AT", 20),
    ("AZ", 28),
    ("BA", 20),
    ("BE", 16),
    ("BG", 22),
    ("BH", 22),
    ("BI", 27),
    ("BR", 29),
    ("BY", 28),
    ("CH", 21),
    ("CR", 22),
    ("CY", 28),
    ("CZ", 24),
    ("DE", 22),
    ("DJ", 27),
    ("DK", 18),
    ("DO", 28),
    ("EE", 20),
    ("EG", 29),
    ("ES", 24),
    ("FI", 18),
    ("FK", 18),
    ("FO", 18),
    ("FR", 27),
    ("GB", 22),
    ("GE", 22),
    ("GI", 23),
    ("GL", 18),
    ("GR", 27),
    ("GT", 28),
    ("HN", 28),
    ("HR", 21),
    ("HU", 28),
    ("IE", 22),
    ("IL", 23),
    ("IQ", 23),
    ("IS", 26),
    ("IT", 27),
    ("JO", 30),
    ("KW", 30),
    ("KZ", 20),
    ("LB", 28),
    ("LC", 32),
    ("LI", 21),
    ("LT", 20),
    ("LU", 20),
    ("LV", 21),
    ("LY", 25),
    ("MC", 27),
    ("MD", 24),
    ("ME", 22),
    ("MK", 19),
    ("MN", 20),
    ("MR", 27),
    ("MT", 31),
    ("MU", 30),
    ("NI", 28),
    ("NL", 18),
    ("NO", 15),
    ("OM", 23),
    ("PK", 24),
    ("PL", 28),
    ("PS", 29),
    ("PT", 25),
    ("QA", 29),
    ("RO", 24),
    ("RS", 22),
    ("RU", 33),
    ("SA", 24),
    ("SC", 31),
    ("SD", 18),
    ("SE", 24),
    ("SI", 19),
    ("SK", 24),
    ("SM", 27),
    ("SO", 23),
    ("ST", 25),
    ("SV", 28),
    ("TL", 23),
    ("TN", 24),
    ("TR", 26),
    ("UA", 29),
    ("VA", 22),
    ("VG", 24),
    ("XK", 20),
    ("YE", 30),
];

/// An IBAN, written whole or in groups ("GB82 WEST 1234 5698 7654 32"): its country's
/// length, ending at a group boundary, and the mod-97 check.
fn iban(t: &Text) -> Option<SecretKind> {
    let upper_or_digit = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit();
    for i in 0..t.len() {
        if !t.c[i].is_ascii_uppercase()
            || t.before(i).is_alphanumeric()
            || !t.at(i + 1).is_ascii_uppercase()
            || !t.at(i + 2).is_ascii_digit()
            || !t.at(i + 3).is_ascii_digit()
        {
            continue;
        }
        let country = [t.c[i] as u8, t.c[i + 1] as u8];
        let Ok(k) = IBAN_LENGTHS.binary_search_by(|(c, _)| c.as_bytes().cmp(&country[..])) else {
            continue;
        };
        let len = IBAN_LENGTHS[k].1;
        let mut chars: Vec<char> = t.c[i..i + 4].to_vec();
        let mut j = i + 4;
        while chars.len() < len {
            let c = t.at(j);
            if upper_or_digit(c) {
                chars.push(c);
            } else if !(c == ' ' && upper_or_digit(t.at(j + 1))) {
                break;
            }
            j += 1;
        }
        if chars.len() == len && !t.at(j).is_alphanumeric() && mod97(&chars) == 1 {
            return Some(SecretKind::BankAccount);
        }
    }
    None
}

/// The IBAN check: the first four characters moved to the end, letters as 10 to 35.
fn mod97(chars: &[char]) -> u32 {
    let mut rem = 0;
    for &c in chars[4..].iter().chain(&chars[..4]) {
        rem = match c.to_digit(36) {
            Some(d) if d < 10 => (rem * 10 + d) % 97,
            Some(d) => (rem * 100 + d) % 97,
            None => return 0,
        };
    }
    rem
}

/// 13 to 19 digits that pass the Luhn check and start as card numbers do (2 to 6), written
/// whole or in groups of 3 to 7 separated by a space, dash or dot. A run of groups is tried
/// at every group boundary, so "order 2024 4111 1111 1111 1111" is still found.
fn card_number(t: &Text) -> Option<SecretKind> {
    let mut digits: Vec<u32> = Vec::new();
    let mut groups: Vec<(usize, usize)> = Vec::new(); // (start in `digits`, length)
    let mut cur = 0;
    let mut run_start = 0;
    for i in 0..=t.len() {
        let c = t.at(i);
        if c.is_ascii_digit() {
            if digits.is_empty() {
                run_start = i;
            }
            digits.push(c as u32 - '0' as u32);
            cur += 1;
            continue;
        }
        if digits.is_empty() {
            continue;
        }
        if cur > 0 {
            groups.push((digits.len() - cur, cur));
            cur = 0;
        }
        let separator = matches!(c, ' ' | '-' | '.' | '\u{a0}' | '\u{2009}' | '\u{202f}');
        if separator && t.before(i).is_ascii_digit() && t.at(i + 1).is_ascii_digit() {
            continue;
        }
        // Digits inside a word ("a1b2...", hex hashes) are not a card number.
        let in_word = t.before(run_start).is_alphabetic() || c.is_alphabetic();
        if !in_word && card_in_run(&digits, &groups) {
            return Some(SecretKind::CardNumber);
        }
        digits.clear();
        groups.clear();
    }
    None
}

fn card_in_run(digits: &[u32], groups: &[(usize, usize)]) -> bool {
    let grouped = |len: usize| (3..=7).contains(&len);
    for g0 in 0..groups.len() {
        let mut total = 0;
        for g1 in g0..groups.len() {
            if g1 > g0 && !(grouped(groups[g0].1) && grouped(groups[g1].1)) {
                break;
            }
            total += groups[g1].1;
            if total > 19 {
                break;
            }
            // Whole numbers stop at 16 digits: longer ones are ids ("381444945443732332")
            // far more often than 19-digit cards, which are written in groups.
            if total >= 13 && (g1 > g0 || total <= 16) {
                let number = &digits[groups[g0].0..groups[g0].0 + total];
                if (2..=6).contains(&number[0]) && luhn(number) {
                    return true;
                }
            }
        }
    }
    false
}

fn luhn(digits: &[u32]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

// ---------------------------------------------------------------------------------------
// Wallet recovery phrases

/// Twelve or more plain lower-case words in a row, as BIP-39 phrases are written.
fn phrase_at(t: &Text, from: usize) -> bool {
    let words = t.words_from(from, 24);
    let values: Vec<String> = words.iter().map(|&(s, e)| t.string(s, e)).collect();
    phrase_words(&values.join(" "))
}

fn phrase_words(value: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn describe_never_names_the_secret_and_names_each_kind() {
        for kind in [
            SecretKind::PrivateKey,
            SecretKind::ApiKey,
            SecretKind::Password,
            SecretKind::CardNumber,
            SecretKind::CloudCredential,
            SecretKind::Webhook,
            SecretKind::ConnectionString,
            SecretKind::BankAccount,
            SecretKind::NationalId,
            SecretKind::RecoveryPhrase,
        ] {
            assert!(!kind.describe().is_empty());
        }
        assert!(SecretKind::Password.describe().contains("password"));
    }

    #[test]
    fn odd_unicode_never_panics() {
        let samples = [
            "",
            "\u{0}",
            "e\u{301}\u{301}\u{301}password\u{301}: hu\u{308}nter2",
            "👨‍👩‍👧‍👦 password is 🔑🔑🔑🔑",
            "\u{202e}drowssap\u{202c} is hunter2",
            "كلمة المرور: abc123xyz",
            "ｐａｓｓｗｏｒｄ：ｈｕｎｔｅｒ２",
            "İİİİ password İİİ: İ",
            "ß password ẞ is ǅ",
            "密码是",
            "パスワードは",
            "password",
            "password:",
            "password is",
            "'",
            "MII",
            "eyJ.",
            "eyJ..",
            "://@:",
            ":/",
            "a://:@",
            "GB82",
            "123-45-678",
            "4111 1111 1111 111",
            "ghp_",
            "sk-",
            "\u{FEFF}\u{200B}",
            "𝟒𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏",
            "\u{10FFFF}\u{E000}\u{FFFD}",
        ];
        for s in samples {
            let _ = detect(s);
            // Every prefix and suffix, cut on character boundaries.
            for (k, _) in s.char_indices() {
                let _ = detect(&s[..k]);
                let _ = detect(&s[k..]);
            }
        }
        assert_eq!(detect("ｐａｓｓｗｏｒｄ：ｈｕｎｔｅｒ２"), Some(SecretKind::Password));
        assert_eq!(detect("𝟒𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏"), Some(SecretKind::CardNumber));
        assert_eq!(detect("👨‍👩‍👧‍👦 I like emoji ✨"), None);
    }

    /// Lists are matched against lower-cased text, so an entry with a capital would never
    /// match; and a list with duplicates has been edited carelessly.
    #[test]
    fn word_lists_are_lower_case_and_distinct() {
        let lists: [(&str, Vec<&str>); 9] = [
            ("TRIGGERS", words::TRIGGERS.iter().map(|t| t.word).collect()),
            ("CONNECTORS", words::CONNECTORS.iter().collect()),
            ("AMBIGUOUS_CONNECTORS", words::AMBIGUOUS_CONNECTORS.iter().collect()),
            ("BRIDGES", words::BRIDGES.iter().collect()),
            ("ADVERBS", words::ADVERBS.iter().collect()),
            ("CHANGE_VERBS", words::CHANGE_VERBS.iter().collect()),
            ("UNITS", words::UNITS.iter().collect()),
            ("PASS_COMPOUNDS", words::PASS_COMPOUNDS.iter().collect()),
            ("DESCRIPTIONS", words::DESCRIPTIONS.iter().collect()),
        ];
        for (name, list) in lists {
            let mut seen = std::collections::BTreeSet::new();
            for w in list {
                assert_eq!(w, w.to_lowercase(), "{name}: {w}");
                assert!(seen.insert(w), "{name} lists {w} twice");
            }
        }
        for c in words::AMBIGUOUS_CONNECTORS.iter() {
            assert!(words::CONNECTORS.contains(c), "{c}");
        }
        assert!(
            IBAN_LENGTHS.windows(2).all(|w| w[0].0 < w[1].0),
            "IBAN_LENGTHS is searched by halves"
        );
    }

    #[test]
    fn checksums_decide_numbers() {
        assert_eq!(detect("4111 1111 1111 1111"), Some(SecretKind::CardNumber));
        assert_eq!(detect("4111 1111 1111 1112"), None); // Luhn fails
        assert_eq!(detect("GB82 WEST 1234 5698 7654 32"), Some(SecretKind::BankAccount));
        assert_eq!(detect("GB82 WEST 1234 5698 7654 23"), None); // mod 97 fails
        assert_eq!(detect("SSN 123-45-6789"), Some(SecretKind::NationalId));
        for never_issued in [
            "000-12-3456",
            "666-12-3456",
            "912-12-3456",
            "123-00-4567",
            "123-45-0000",
        ] {
            assert_eq!(detect(never_issued), None, "{never_issued}");
        }
    }

    #[test]
    fn megabyte_inputs_return_quickly() {
        const MB: usize = 1 << 20;
        let fill = |unit: &str| unit.repeat(MB / unit.len() + 1);
        // Plain text, and the shapes that make each detector do the most work per character.
        let inputs = [
            ("prose", fill("the quick brown fox jumps over the lazy dog ")),
            ("one long word", "a".repeat(MB)),
            ("password statements", fill("my password is ")),
            ("bridged statements", fill("the password for my ")),
            ("assignments", fill("api_key=")),
            ("url schemes", fill("a://b:c")),
            ("jwt runs", fill("eyJabc-")),
            ("token prefixes", fill("sk-")),
            ("base64", fill("MIIBase64/+")),
            ("digit groups", fill("4111 ")),
            ("iban groups", fill("GB82 ")),
            ("full-width digits", fill("４１１１")),
            ("emoji and combining marks", fill("🔑e\u{301}")),
            ("ideographs", fill("密码是")),
        ];
        for (name, input) in &inputs {
            let started = Instant::now();
            let _ = detect(input);
            let took = started.elapsed();
            println!("secrets: 1 MB of {name}: {took:?}");
            // Generous for unoptimised test builds on a busy machine (an optimised build takes
            // well under a tenth of a second); a quadratic scan would take minutes.
            assert!(took < Duration::from_secs(10), "{name} took {took:?}");
        }
    }
}
