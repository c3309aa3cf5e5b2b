//! Unit tests of the detectors; the catalogue of examples is in `catalogue`.

mod cases;
mod catalogue;

use self::catalogue::SECRETS;
use super::numbers::IBAN_LENGTHS;
use super::{SecretKind, detect, grammar, words};

/// Each kind is described by what it is, and no description holds the secret it was found
/// for: every catalogued secret is detected, described, and the words that carry it are
/// looked for in the description.
#[test]
fn describe_never_names_the_secret_and_names_each_kind() {
    let named = [
        (SecretKind::PrivateKey, "private key"),
        (SecretKind::ApiKey, "api key"),
        (SecretKind::Password, "password"),
        (SecretKind::CardNumber, "card number"),
        (SecretKind::CloudCredential, "cloud"),
        (SecretKind::Webhook, "webhook"),
        (SecretKind::ConnectionString, "connection url"),
        (SecretKind::BankAccount, "iban"),
        (SecretKind::NationalId, "ssn"),
        (SecretKind::RecoveryPhrase, "recovery phrase"),
    ];
    for (kind, name) in named {
        assert!(
            kind.describe().to_lowercase().contains(name),
            "{kind:?}: {}",
            kind.describe()
        );
    }

    let mut secrets: Vec<String> = SECRETS.iter().map(|(text, _)| (*text).to_owned()).collect();
    for tsv in [cases::DEV, cases::HELD_OUT] {
        secrets.extend(
            cases::cases(tsv)
                .into_iter()
                .filter(|(secret, _)| *secret)
                .map(|(_, t)| t),
        );
    }
    let mut described = Vec::new();
    for text in &secrets {
        let kind = detect(text).unwrap_or_else(|| panic!("not refused: {text:?}"));
        let description = kind.describe().to_lowercase();
        let carriers = carriers(text);
        assert!(!carriers.is_empty(), "no word of {text:?} carries its secret");
        for word in &carriers {
            assert!(
                !description.contains(&word.to_lowercase()),
                "the description of {text:?} names {word:?}: {description}"
            );
        }
        if !described.contains(&kind) {
            described.push(kind);
        }
    }
    for (kind, _) in named {
        assert!(
            described.contains(&kind),
            "no catalogued secret is described as {kind:?}"
        );
    }
}

/// The words of a refused text that carry its secret: refused alone, needed for the text
/// to be refused, or the last word of its shortest refused beginning (in "correct horse
/// battery staple" no one word is needed). When a text states its secret twice, neither
/// copy is needed: then its words with a digit or a symbol. Words that name a kind of
/// secret ("password", "PIN") are not the secret, and the description may share them.
fn carriers(text: &str) -> Vec<String> {
    let names: Vec<&str> = words::TRIGGERS.iter().flat_map(|t| t.word.split_whitespace()).collect();
    let all: Vec<&str> = text.split_whitespace().collect();
    let shortest = (1..=all.len()).find(|&n| detect(&all[..n].join(" ")).is_some());
    let core = |word: &str| word.trim_matches(|c: char| !c.is_alphanumeric()).to_owned();
    let secret_word = |word: &String| word.chars().count() >= 3 && !names.contains(&word.to_lowercase().as_str());
    let needed: Vec<String> = (0..all.len())
        .filter(|&k| {
            let rest: Vec<&str> = all
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, w)| *w)
                .collect();
            detect(all[k]).is_some() || detect(&rest.join(" ")).is_none() || shortest == Some(k + 1)
        })
        .map(|k| core(all[k]))
        .filter(secret_word)
        .collect();
    if !needed.is_empty() {
        return needed;
    }
    let unusual = |w: &String| w.chars().any(|c| !c.is_alphabetic());
    all.iter()
        .map(|w| core(w))
        .filter(|w| secret_word(w) && unusual(w))
        .collect()
}

/// The shapes nothing names, alone or in a sentence: a bare AWS secret key, its base64 form
/// and a key id in lower case are cloud credentials; the order number and commit hash
/// beside them in a sentence are not secrets.
#[test]
fn unnamed_cloud_keys_are_refused_and_their_look_alikes_kept() {
    for secret in [
        concat!("wJalrXUtnFEMI/K7MDENG", "/bPxRfiCYEXAMPLEKEY"),
        concat!("d0phbHJYVXRuRkVNSS9LN01ERU5H", "L2JQeFJmaUNZRVhBTVBMRUtFWQ=="),
        concat!("ak", "iaiosfodnn7example"),
    ] {
        for text in [secret.to_owned(), format!("here's the new one: {secret}")] {
            assert_eq!(detect(&text), Some(SecretKind::CloudCredential), "{text}");
        }
    }
    for kept in [
        "Order 4539 1488 0343 6467 shipped",
        "Fixed the login bug in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    ] {
        assert_eq!(detect(kept), None, "{kept}");
    }
    assert_eq!(detect("card 4539 1488 0343 6467"), Some(SecretKind::CardNumber));
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
    let lists: [(&str, Vec<&str>); 10] = [
        ("TRIGGERS", words::TRIGGERS.iter().map(|t| t.word).collect()),
        ("CONNECTORS", grammar::CONNECTORS.iter().collect()),
        ("AMBIGUOUS_CONNECTORS", grammar::AMBIGUOUS_CONNECTORS.iter().collect()),
        ("BRIDGES", grammar::BRIDGES.iter().collect()),
        ("ADVERBS", grammar::ADVERBS.iter().collect()),
        ("CHANGE_VERBS", grammar::CHANGE_VERBS.iter().collect()),
        ("UNITS", grammar::UNITS.iter().collect()),
        ("PASS_COMPOUNDS", grammar::PASS_COMPOUNDS.iter().collect()),
        ("DESCRIPTIONS", grammar::DESCRIPTIONS.iter().collect()),
        ("ENGLISH_NOUNS", grammar::ENGLISH_NOUNS.iter().collect()),
    ];
    for (name, list) in lists {
        let mut seen = std::collections::BTreeSet::new();
        for w in list {
            assert_eq!(w, w.to_lowercase(), "{name}: {w}");
            assert!(seen.insert(w), "{name} lists {w} twice");
        }
    }
    for c in grammar::AMBIGUOUS_CONNECTORS.iter() {
        assert!(grammar::CONNECTORS.contains(c), "{c}");
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

/// A megabyte of each shape that makes a detector do the most work per character: the scan
/// finishes (a quadratic one would not within the test run), reads the whole text, and a
/// secret at the very end is still found. Speed itself is for `bench`, not a timed test.
#[test]
fn megabyte_inputs_are_read_to_the_end() {
    const MB: usize = 1 << 20;
    let fill = |unit: &str| unit.repeat(MB / unit.len() + 1);
    let inputs = [
        ("prose", fill("the quick brown fox jumps over the lazy dog "), None),
        ("one long word", "a".repeat(MB), None),
        ("password statements", fill("my password is "), None),
        ("bridged statements", fill("the password for my "), None),
        ("assignments", fill("api_key="), None),
        ("url schemes", fill("a://b:c"), None),
        ("jwt runs", fill("eyJabc-"), Some(SecretKind::ApiKey)),
        ("token prefixes", fill("sk-"), None),
        ("base64", fill("MIIBase64/+"), Some(SecretKind::PrivateKey)),
        ("digit groups", fill("4111 "), None),
        ("iban groups", fill("GB82 "), None),
        ("full-width digits", fill("４１１１"), None),
        ("emoji and combining marks", fill("🔑e\u{301}"), None),
        ("ideographs", fill("密码是"), None),
    ];
    for (name, input, expected) in inputs {
        assert_eq!(detect(&input), expected, "1 MB of {name}");
        if expected.is_none() {
            let tail = format!("{input}\n\nWifi password: hunter2-Blue");
            assert_eq!(
                detect(&tail),
                Some(SecretKind::Password),
                "a password after 1 MB of {name}"
            );
        }
    }
}
