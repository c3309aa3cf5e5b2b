//! Secrets that nothing names, through the CLI and the real component: a bare AWS secret
//! access key, its base64 form and a lower-case key id are refused by `add` and `add
//! --context`, and redacted from conversation turns; an order number that passes the card
//! check and a commit hash in a sentence are stored.

use crate::support::ctx::Ctx;

/// AWS's documented example key, split so that secret scanners do not take it for a leak.
const BARE_KEY: &str = concat!("wJalrXUtnFEMI/K7MDENG", "/bPxRfiCYEXAMPLEKEY");
/// `BARE_KEY` in base64.
const ENCODED_KEY: &str = concat!("d0phbHJYVXRuRkVNSS9LN01ERU5H", "L2JQeFJmaUNZRVhBTVBMRUtFWQ==");
/// An AWS access key id, lower-cased.
const FOLDED_KEY_ID: &str = concat!("ak", "iaiosfodnn7example");

const SECRETS: [&str; 3] = [BARE_KEY, ENCODED_KEY, FOLDED_KEY_ID];

/// Luhn-valid, so it was refused as a card; the words around it make it an order.
const ORDER: &str = "Order 4539 1488 0343 6467 shipped";
const COMMIT: &str = "Fixed the login bug in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39";

/// Every byte under the home, index included, as text.
fn everything(ctx: &Ctx) -> String {
    ctx.every_file()
        .iter()
        .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
        .collect()
}

#[test]
fn bare_encoded_and_folded_keys_are_refused_by_add_and_change_nothing() {
    let ctx = Ctx::new();
    ctx.add("u", "I'm allergic to peanuts");
    let before = ctx.snapshot();
    for secret in SECRETS {
        for text in [secret.to_owned(), format!("here's the new one: {secret}")] {
            let err = ctx.fails(&["--user", "u", "add", "--", &text]);
            assert!(err.contains("refused") && err.contains("never stored"), "{text}: {err}");
            assert!(
                err.contains("cloud provider credential"),
                "{text}: the refusal names the kind: {err}"
            );
            assert!(!err.contains(secret), "the refusal repeats the secret: {err}");
        }
    }
    assert_eq!(ctx.snapshot(), before, "a refused add wrote something");
}

#[test]
fn bare_encoded_and_folded_keys_are_refused_as_a_context() {
    let ctx = Ctx::new();
    ctx.add("u", "I'm allergic to peanuts");
    let before = ctx.snapshot();
    for secret in SECRETS {
        let context = format!("Ben: the backup key is in the note, {secret}");
        let err = ctx.fails(&["--user", "u", "add", "Thanks, noted", "--context", &context]);
        assert!(err.contains("context") && err.contains("secret"), "{err}");
        assert!(!err.contains(secret), "the refusal repeats the secret: {err}");
        // Alone, with nothing around it.
        let err = ctx.fails(&["--user", "u", "add", "Thanks, noted", "--context", secret]);
        assert!(err.contains("context") && err.contains("secret"), "{err}");
    }
    assert_eq!(ctx.snapshot(), before, "a refused add wrote something");
}

#[test]
fn bare_encoded_and_folded_keys_are_redacted_from_turns() {
    if crate::support::ctx::files_only("reads every byte under the home") {
        return;
    }
    let ctx = Ctx::new();
    for (k, secret) in SECRETS.iter().enumerate() {
        let session = format!("s{k}");
        let said = format!("for the backup script use {secret} please");
        let turn = ctx.json(&["--user", "u", "turn", "--session", &session, &said, secret]);
        assert_eq!(turn["redacted"], 2, "{secret}: {turn}");
    }
    let all = everything(&ctx);
    for secret in SECRETS {
        assert!(!all.contains(secret), "{secret} is in the home, index included");
    }
    // The rest of the message is kept.
    assert!(all.contains("for the backup script use [redacted] please"));
}

#[test]
fn an_order_number_and_a_commit_hash_are_stored() {
    let ctx = Ctx::new();
    ctx.add("u", ORDER);
    ctx.add("u", COMMIT);
    ctx.ok(&["--user", "u", "add", "Noted, I'll watch the porch", "--context", ORDER]);
    let lines = ctx.memory_lines();
    let contents: Vec<&str> = lines.iter().filter_map(|l| l["content"].as_str()).collect();
    assert!(contents.contains(&ORDER) && contents.contains(&COMMIT), "{contents:?}");
    assert!(lines.iter().any(|l| l["context"] == ORDER), "{lines:?}");

    let turn = ctx.json(&["--user", "u", "turn", "--session", "s", ORDER, COMMIT]);
    assert_eq!(turn["redacted"], 0, "{turn}");
}

/// What a blind probe found stored (2026-11-30): a password set off by commas or behind a
/// label, a Wi-Fi key, logins on a command line, "my social", a phone's unlock code, a
/// short OpenAI key and a base64 login of letters; beside everyday sentences in the same
/// words, which are stored.
#[test]
fn secrets_told_in_passing_or_on_a_command_line_are_refused_and_look_alikes_kept() {
    let ctx = Ctx::new();
    ctx.add("u", "I'm allergic to peanuts");
    let before = ctx.snapshot();
    let login = concat!("YWRtaW46bGV0", "bWVpbm5vdw==");
    for secret in [
        "my password, Fluffy2020, is also my bank one",
        "my password is in 1password: hunter2",
        "the wifi key is Blue-Sky-42",
        "curl -u admin:letmein https://api.example.com",
        "mysql -u root -pS3cret",
        "my social is 123456789",
        "my phone code is 482913",
        concat!("my openai key is sk-abc123", "def456ghi789"),
        &format!("the header is Basic {login}"),
    ] {
        let err = ctx.fails(&["--user", "u", "add", "--", secret]);
        assert!(err.contains("never stored"), "{secret}: {err}");
    }
    assert_eq!(ctx.snapshot(), before, "a refused add wrote something");
    for kept in [
        "the password to the office wifi is the same as mine",
        "The password is saved in 1Password",
        "my password manager is Bitwarden",
        "remind me to reset my wifi password",
        "my social worker is called Dan",
        "curl -u $USER:$TOKEN https://api.example.com",
        "The door code is 4417 until Sunday",
    ] {
        ctx.json(&["--user", "u", "add", "--", kept]);
    }
    let listed = crate::support::ctx::contents(&ctx.json(&["--user", "u", "list", "--limit", "50"]));
    assert_eq!(listed.len(), 8, "{listed:?}");
    assert!(!everything(&ctx).contains("Fluffy2020") && !everything(&ctx).contains("S3cret"));
}
