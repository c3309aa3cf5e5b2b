//! Refusing credentials. Memory is plain text on disk and is injected into prompts, so a
//! secret stored there leaks twice. Detection errs towards refusing: a user can rephrase a
//! fact, but cannot take back a leaked key.
//!
//! The text is first normalised (full-width forms, zero-width and combining characters, other
//! digit scripts) so that a secret cannot slip through in a different spelling. Then each
//! detector looks for one family of secrets: key material, webhook and connection URLs,
//! tokens with a well-known prefix, JWTs, `name = value` assignments, sentences that state a
//! secret ("my password is ..."), command lines with a password flag, numbers with a checksum
//! (IBAN, SSN, card), bare keys that nothing names, and all of these again inside base64.
//!
//! Every detector works on character indices (never byte offsets, so it cannot panic on a
//! character boundary) and does a bounded amount of work per position, so time is linear in
//! the length of the text.
//!
//! One file per family: `keys`, `urls`, `tokens`, `jwt`, `assignments`, `statements`,
//! `commands`, `numbers`, `cards`, `shapes` and `encoded` hold the detectors; `text` the
//! normalised text they read, `following` and `joined` how a statement's words are read;
//! `values`, `passwords` and `randomness` the judgements of a value that several of them
//! share; `words` the trigger words and `grammar` the words around them.

mod assignments;
mod cards;
mod commands;
mod encoded;
mod following;
mod grammar;
mod joined;
mod jwt;
mod keys;
mod numbers;
mod passwords;
mod randomness;
mod shapes;
mod statements;
#[cfg(test)]
mod tests;
mod text;
mod tokens;
mod urls;
mod values;
mod words;

use text::Text;

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
    detect_within(text, 0)
}

/// How many layers of base64 are decoded and read again: a key, and a key encoded twice.
const MAX_LAYERS: u8 = 2;

fn detect_within(text: &str, layer: u8) -> Option<SecretKind> {
    let t = Text::new(text);
    let detectors: [fn(&Text) -> Option<SecretKind>; 12] = [
        keys::private_key,
        urls::webhook,
        urls::connection_url,
        tokens::prefixed_token,
        jwt::jwt,
        assignments::assignment,
        statements::statement,
        commands::command_password,
        numbers::iban,
        numbers::ssn,
        cards::card_number,
        shapes::bare_key,
    ];
    detectors.iter().find_map(|detector| detector(&t)).or_else(|| {
        (layer < MAX_LAYERS)
            .then(|| encoded::base64_forms(&t, |inner| detect_within(inner, layer + 1)))
            .flatten()
    })
}
