//! Tokens with a well-known shape: vendor prefixes (`sk-ant-`, `ghp_`, `AKIA`, ...), AWS key
//! ids in any case, Telegram bot tokens and Azure client secrets. JWTs are in `jwt`.

use std::sync::LazyLock;

use super::SecretKind;
use super::keys::is_base64;
use super::text::{Text, bucket_of, buckets};
use super::values::token_like;

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
    /// How random the rest must look, for prefixes that also begin ordinary words
    /// ("sk-ateboarding", "hf_model_name").
    random: Looks,
    kind: SecretKind,
}

#[derive(Clone, Copy, PartialEq)]
enum Looks {
    Any,
    /// Digits and letters, or both cases.
    Random,
    /// Letters and digits that alternate, as in a token and not in a name (`token_like`).
    Token,
}

const fn p(text: &'static str, set: Set, min: usize, kind: SecretKind) -> Prefix {
    random_as(text, set, min, Looks::Any, kind)
}

const fn random(text: &'static str, set: Set, min: usize, kind: SecretKind) -> Prefix {
    random_as(text, set, min, Looks::Random, kind)
}

const fn random_as(text: &'static str, set: Set, min: usize, random: Looks, kind: SecretKind) -> Prefix {
    Prefix {
        text,
        set,
        min,
        exact: false,
        random,
        kind,
    }
}

const fn exact(text: &'static str, set: Set, len: usize, kind: SecretKind) -> Prefix {
    Prefix {
        text,
        set,
        min: len,
        exact: true,
        random: Looks::Any,
        kind,
    }
}

const API: SecretKind = SecretKind::ApiKey;

const CLOUD: SecretKind = SecretKind::CloudCredential;

const PREFIXES: &[Prefix] = &[
    p("sk-ant-", Set::Word, 20, API),                   // Anthropic
    random("sk-", Set::Word, 20, API),                  // OpenAI (sk-proj-, sk-svcacct-), DeepSeek and others
    random_as("sk-", Set::Word, 12, Looks::Token, API), // shorter: older and made-up OpenAI keys
    p("sk_live_", Set::Word, 16, API),                  // Stripe
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

/// The prefixes by their first character, sorted once rather than at every check.
static PREFIXES_BY_FIRST: LazyLock<Vec<Vec<usize>>> = LazyLock::new(|| buckets(PREFIXES.iter().map(|p| p.text)));

pub(super) fn prefixed_token(t: &Text) -> Option<SecretKind> {
    let by_first = &*PREFIXES_BY_FIRST;
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
            let body = &t.c[rest..e];
            let random = match p.random {
                Looks::Any => true,
                Looks::Random => looks_random(body),
                Looks::Token => token_like(&body.iter().collect::<String>(), p.min),
            };
            if fits && random {
                return Some(p.kind);
            }
        }
        if let Some(kind) = telegram_or_azure(t, i) {
            return Some(kind);
        }
        if folded_key_id(t, i) {
            return Some(CLOUD);
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

/// An AWS key id with its case changed ("akia..."): AKIA or ASIA and 16 characters of the
/// base32 alphabet, at least one a digit, so that words ("asiapacificmarketing") stay words.
fn folded_key_id(t: &Text, i: usize) -> bool {
    if t.match_at(i, "akia").is_none() && t.match_at(i, "asia").is_none() {
        return false;
    }
    let body = i + 4..i + 20;
    body.clone().all(|j| matches!(t.lo(j), 'a'..='z' | '2'..='7'))
        && body.clone().any(|j| t.at(j).is_ascii_digit())
        && !Set::Word.has(t.at(i + 20))
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
