//! Refusing credentials. Memory is plain text on disk and is injected into prompts, so a
//! secret stored there leaks twice. Detection errs towards refusing: a user can rephrase a
//! fact, but cannot take back a leaked key.

/// What kind of secret was found; named in the refusal, the secret itself never is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    PrivateKey,
    ApiKey,
    Password,
    CardNumber,
}

impl SecretKind {
    pub fn describe(self) -> &'static str {
        match self {
            SecretKind::PrivateKey => "a private key",
            SecretKind::ApiKey => "an API key or access token",
            SecretKind::Password => "a password",
            SecretKind::CardNumber => "a payment card number",
        }
    }
}

/// Prefixes of well-known token formats, with the least number of characters that follow.
const TOKEN_PREFIXES: &[(&str, usize)] = &[
    ("sk-", 16),         // OpenAI, Anthropic (sk-ant-...)
    ("sk_live_", 16),    // Stripe
    ("rk_live_", 16),    // Stripe restricted
    ("ghp_", 20),        // GitHub personal access token
    ("gho_", 20),        // GitHub OAuth
    ("ghs_", 20),        // GitHub app
    ("github_pat_", 20), // GitHub fine-grained
    ("glpat-", 16),      // GitLab
    ("xoxb-", 10),       // Slack bot
    ("xoxp-", 10),       // Slack user
    ("AKIA", 16),        // AWS access key id
    ("AIza", 30),        // Google API key
    ("hf_", 20),         // Hugging Face
];

/// Words that, followed by "is", ":" or "=" and a value, disclose a password.
const PASSWORD_WORDS: &[&str] = &["password", "passwd", "passphrase", "passcode", "pin", "pwd"];

/// Words that, followed by a long token-like value, disclose a key.
const KEY_WORDS: &[&str] = &["key", "token", "secret", "apikey", "api_key", "bearer"];

/// Finds the first secret in `text`, if any.
pub fn detect(text: &str) -> Option<SecretKind> {
    if text.contains("-----BEGIN") && text.contains("PRIVATE KEY") {
        return Some(SecretKind::PrivateKey);
    }
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ',' | ';' | '(' | ')'))
        .filter(|t| !t.is_empty())
        .collect();
    for token in &tokens {
        let token = token.trim_end_matches(['.', '!', '?']);
        for (prefix, min_rest) in TOKEN_PREFIXES {
            if let Some(rest) = token.strip_prefix(prefix)
                && rest.len() >= *min_rest
                && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Some(SecretKind::ApiKey);
            }
        }
    }
    if disclosed_after(&tokens, PASSWORD_WORDS, |_| true) {
        return Some(SecretKind::Password);
    }
    if disclosed_after(&tokens, KEY_WORDS, looks_like_token) {
        return Some(SecretKind::ApiKey);
    }
    if has_card_number(text) {
        return Some(SecretKind::CardNumber);
    }
    None
}

/// Whether one of `words` is followed, within two tokens, by "is", ":" or "=" and then a
/// value that satisfies `value_ok`. Also catches "password:hunter2" written as one token.
fn disclosed_after(tokens: &[&str], words: &[&str], value_ok: impl Fn(&str) -> bool) -> bool {
    for (i, raw) in tokens.iter().enumerate() {
        let lower = raw.to_lowercase();
        for word in words {
            // "password:hunter2", "token=abc..."
            for sep in [':', '='] {
                if let Some(value) = lower.strip_prefix(word).and_then(|r| r.strip_prefix(sep))
                    && !value.is_empty()
                    && value_ok(&raw[raw.len() - value.len()..])
                {
                    return true;
                }
            }
            let bare = lower.trim_end_matches([':', '=']);
            if bare != *word && bare.trim_end_matches("'s") != *word {
                continue;
            }
            let had_sep = lower.ends_with(':') || lower.ends_with('=');
            let mut j = i + 1;
            let mut seen_sep = had_sep;
            while j < tokens.len() && j <= i + 3 {
                let t = tokens[j].to_lowercase();
                if matches!(t.as_str(), "is" | ":" | "=" | "was" | "are") {
                    seen_sep = true;
                } else if seen_sep {
                    return value_ok(tokens[j].trim_end_matches(['.', '!', '?']));
                } else if !matches!(
                    t.as_str(),
                    "my" | "the" | "wifi" | "email" | "account" | "api" | "access"
                ) {
                    break;
                }
                j += 1;
            }
        }
    }
    false
}

/// A long run of letters and digits with both present, as keys and tokens are.
fn looks_like_token(value: &str) -> bool {
    value.len() >= 16
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | '+'))
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| c.is_ascii_alphabetic())
}

/// Whether the text holds 13 to 19 digits (spaces and dashes between them allowed) that
/// pass the Luhn check, as payment card numbers do.
fn has_card_number(text: &str) -> bool {
    let mut digits: Vec<u32> = Vec::new();
    let flush = |digits: &mut Vec<u32>| -> bool {
        let found = (13..=19).contains(&digits.len()) && luhn(digits);
        digits.clear();
        found
    };
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if let Some(d) = c.to_digit(10) {
            digits.push(d);
        } else if (*c == ' ' || *c == '-') && !digits.is_empty() && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit())
        {
            // A separator inside a number.
        } else if flush(&mut digits) {
            return true;
        }
    }
    flush(&mut digits)
}

fn luhn(digits: &[u32]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 1 {
                if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
            } else {
                *d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_credentials() {
        let cases = [
            ("my openai key is sk-proj-abcdefghijklmnop1234", SecretKind::ApiKey),
            ("AWS key AKIAIOSFODNN7EXAMPLE", SecretKind::ApiKey),
            ("github token ghp_0123456789abcdefghijABCDEFGHIJ", SecretKind::ApiKey),
            ("My password is hunter2", SecretKind::Password),
            ("wifi password: correct-horse", SecretKind::Password),
            ("password=letmein", SecretKind::Password),
            ("the api token is 9f8e7d6c5b4a39281726", SecretKind::ApiKey),
            ("card 4111 1111 1111 1111 exp 12/29", SecretKind::CardNumber),
            ("4242-4242-4242-4242", SecretKind::CardNumber),
            ("-----BEGIN OPENSSH PRIVATE KEY-----\nabc", SecretKind::PrivateKey),
        ];
        for (text, want) in cases {
            assert_eq!(detect(text), Some(want), "{text}");
        }
    }

    #[test]
    fn keeps_ordinary_facts() {
        for text in [
            "I'm allergic to peanuts",
            "I forgot my password yesterday",
            "The key to success is patience",
            "My phone number ends in 1234",
            "Order 1234567890123 arrived", // 13 digits, fails Luhn
            "Meeting id 550e8400-e29b-41d4-a716-446655440000",
            "I like sk-ateboarding",
        ] {
            assert_eq!(detect(text), None, "{text}");
        }
    }
}
