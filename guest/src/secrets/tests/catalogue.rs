//! The catalogue: secret forms that must be refused, each with the kind it must be named as,
//! and ordinary facts that look like them and must be stored.
//!
//! Every token here is made up. Tokens with a vendor prefix are split with `concat!` so that
//! secret scanners run over this repository do not mistake the fixtures for leaks.

use crate::secrets::SecretKind::{self, *};
use crate::secrets::detect;

pub(super) const SECRETS: &[(&str, SecretKind)] = &[
    // Passwords stated in prose.
    ("My password is hunter2", Password),
    ("my password is letmein", Password),
    ("The password is Tr0ub4dor&3", Password),
    ("wifi password: correct-horse-battery", Password),
    ("my passphrase is correct horse battery staple", Password),
    ("The password for my bank is Blue42Sky", Password),
    ("the password to the office wifi is sunflower", Password),
    ("Gmail password - blue-elephant-42", Password),
    ("hunter2 is my password", Password),
    ("My password was changed to Pa55word!", Password),
    ("my password is now Fluffy", Password),
    ("pw: hunter2", Password),
    ("pass: letmein", Password),
    ("user admin pass: S3cret!", Password),
    ("login bob / password: qwerty!23", Password),
    ("router login admin:admin123", Password),
    ("credentials: admin / hunter2!", Password),
    ("user=bob pass=bobby123", Password),
    ("the router password is \"open sesame\"", Password),
    ("password hunter2", Password),
    ("ｐａｓｓｗｏｒｄ：ｈｕｎｔｅｒ２", Password),
    // Passwords in other languages.
    ("Mi contraseña es gato1234", Password),
    ("La contraseña del wifi es perrito", Password),
    ("Mon mot de passe est soleil99", Password),
    ("Mein Passwort ist Sonnenblume7", Password),
    ("Das WLAN-Kennwort lautet geheim123", Password),
    ("Minha senha é abacaxi2020", Password),
    ("La mia password è girasole!", Password),
    ("Mijn wachtwoord is tulpen88", Password),
    ("Mitt lösenord är kanelbulle5", Password),
    ("Moje hasło to kotek123", Password),
    ("Heslo je pes12345", Password),
    ("Salasana on kissa123", Password),
    ("Şifrem: kedi1234", Password),
    ("Мой пароль: qwerty123", Password),
    ("Mật khẩu của tôi là abc123", Password),
    ("Kata sandi saya adalah rahasia123", Password),
    ("我的密码是abc12345", Password),
    ("パスワードはhunter2です", Password),
    ("비밀번호는 hunter2", Password),
    // Numeric codes.
    ("My PIN is 7391", Password),
    ("PIN code: 0451", Password),
    ("bank card pin 8812", Password),
    ("CVV: 123", CardNumber),
    // Passwords in configuration, headers and URLs.
    ("{\"username\": \"bob\", \"password\": \"s3cr3t!\"}", Password),
    ("DB_PASSWORD=Sup3rS3cret", Password),
    ("export MYSQL_ROOT_PASSWORD='changeme'", Password),
    ("spring.datasource.password=tiger", Password),
    ("Authorization: Basic YWxpY2U6aHVudGVyMg==", Password),
    ("https://example.com/login?user=bob&password=hunter2", Password),
    ("jdbc:postgresql://db/app?user=app&password=Xyz789", Password),
    // Connection URLs with a password.
    (
        "Connect with postgres://admin:S3cretPass@db.example.com:5432/app",
        ConnectionString,
    ),
    (
        "mongodb+srv://app:p4ssw0rd@cluster0.abcde.mongodb.net/test",
        ConnectionString,
    ),
    ("redis://:foobared123@cache.internal:6379/0", ConnectionString),
    ("amqp://guest:guest@rabbit.local:5672/", ConnectionString),
    ("mysql://root:toor@127.0.0.1/shop", ConnectionString),
    ("clone https://deploy:tok3n@git.example.com/repo.git", ConnectionString),
    ("DATABASE_URL=postgres://u:p@h/d", ConnectionString),
    ("sqlserver://sa:Passw0rd!@localhost:1433", ConnectionString),
    // Cloud credentials.
    (
        concat!("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG", "/bPxRfiCYEXAMPLEKEY"),
        CloudCredential,
    ),
    (
        concat!("secretAccessKey: wJalrXUtnFEMI/K7MDENG", "/bPxRfiCYEXAMPLEKEY"),
        CloudCredential,
    ),
    // Bare: nothing names it, in plain or in base64.
    (concat!("wJalrXUtnFEMI/K7MDENG", "/bPxRfiCYEXAMPLEKEY"), CloudCredential),
    (
        concat!("d0phbHJYVXRuRkVNSS9LN01ERU5H", "L2JQeFJmaUNZRVhBTVBMRUtFWQ=="),
        CloudCredential,
    ),
    (concat!("my access key id is AKIA", "IOSFODNN7EXAMPLE"), CloudCredential),
    (concat!("ak", "iaiosfodnn7example"), CloudCredential),
    // Encoded: base64 of a key id, of a stated password, of "user:password".
    (concat!("QUtJQUlPU0ZP", "RE5ON0VYQU1QTEU="), CloudCredential),
    ("bXkgcGFzc3dvcmQgaXMgaHVudGVyMg==", Password),
    ("Authorization header value YWxpY2U6aHVudGVyMg==", Password),
    (concat!("temporary key AS", "IAQXIRHXO77ZBKA74Z"), CloudCredential),
    (
        concat!(
            "AWS_SESSION_TOKEN=FwoGZXIv",
            "YXdzMs1SWOpQaPRYpzbLGViYXjU2JgJngKtFI3OyV2dZAkg05rK+gqv81RKM"
        ),
        CloudCredential,
    ),
    (
        concat!(
            "session token IQoJb3Jp",
            "Z2lulOEVHzc0X0AWIRh/JUqBlIFXZ53Ncqe28+ajY75FnCttn6kfaqDe"
        ),
        CloudCredential,
    ),
    (
        concat!(
            "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=/1kGD2VD/eR1UYzaLiA/zNyD7CHLn/xC+1hsYg",
            "Bds1ghxY5OokvQyx7eNWVQ4vnakJkS1pAWTN3lg8zV5yPU8d==;EndpointSuffix=core.windows.net"
        ),
        CloudCredential,
    ),
    (
        concat!("azure client secret OAp8", "Q~ZfWe7ihGyiRUIQfHOJMaidDn87XG3.q.xb"),
        CloudCredential,
    ),
    (concat!("AZURE_CLIENT_SECRET=x9PkOZAEy", "XYC8rYWKvsr"), CloudCredential),
    (concat!("GOCS", "PX-7ebZ3CL7csGZaF31DDxp63OHm1FZ"), CloudCredential),
    (
        concat!(
            "ya2",
            "9.a0Kd0d3mS8gBlKv3azKgaS-m-x_SHuKBD_vok-nPTmZYl2dVAMH2vWD6qeSPt5Pv74GDqQ7E"
        ),
        CloudCredential,
    ),
    (
        concat!(
            "do",
            "p_v1_a6ca7cff00d796c25410335b400141212b62c376631129f34369aad80b891baf"
        ),
        CloudCredential,
    ),
    // Tokens with well-known prefixes, bare and inside assignments, brackets and URLs.
    (
        concat!("GITHUB_TOKEN=gh", "p_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"),
        ApiKey,
    ),
    (concat!("see (gh", "p_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d)"), ApiKey),
    (
        concat!("https://x.com/?token=gh", "p_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"),
        ApiKey,
    ),
    (concat!("oauth gh", "o_KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR"), ApiKey),
    (
        concat!(
            "github_",
            "pat_IBXuDL7DxtpYlSXpfKtHF4_vUCsMehGAkWvj7FAc9QeWJKY40uvSwMFLZ"
        ),
        ApiKey,
    ),
    (
        concat!(
            "OPENAI_API_KEY=sk",
            "-proj-b8DwkNhFdnXsiVpzz63FfkCzJr4i0B3JrTAwR4y9ojfljoQo"
        ),
        ApiKey,
    ),
    (
        concat!(
            "claude key: sk-",
            "ant-api03-b-xHKas1VOqg6YYZYn9ZhyiA4uoRgnatmUdjAWtGSU8po"
        ),
        ApiKey,
    ),
    (concat!("stripe sk_", "live_Z7Uw9xfogoEmvnEN5N1aE6Pw"), ApiKey),
    (concat!("rk_", "live_ZPf1Qh6yYTWmE4lBYOvfZ8Uz"), ApiKey),
    (concat!("gitlab glp", "at-DzV8fUkkibjL5DZPjN0M"), ApiKey),
    (
        concat!(
            "SLACK_BOT_TOKEN=xo",
            "xb-1234567890123-1234567890123-EQ7wjJJibaZUPgHV7iB3m03n"
        ),
        ApiKey,
    ),
    (
        concat!(
            "//registry.npmjs.org/:_authToken=np",
            "m_bqnsGpWLuqIA1id6Vw5DQL05HA064GiIjHGb"
        ),
        ApiKey,
    ),
    (
        concat!(
            "password = py",
            "pi-AgEIcHlwaS5vcmcCJ4xatws8phP9nhFyJfm5di4PzJ59FHz5r1pY4OjE2jBMptUs"
        ),
        ApiKey,
    ),
    (concat!("twilio S", "Kd6ba2b0aee0ca923732881584d8c4fa2"), ApiKey),
    (
        concat!("TWILIO_AUTH_TOKEN=e58b081006f7", "e3dfc967a64cb14028d5"),
        ApiKey,
    ),
    (
        concat!(
            "S",
            "G.hkWKFLf6xuI5aHUQPFeNBT.xaQWk8JzFalHlsZfYcMMDktXP_tKsf2rcDkdfrUnW5g"
        ),
        ApiKey,
    ),
    (concat!("maps key AI", "zacF-Ha6ili8GjHEAD6_Wj9KfzjsQGMrb9h-I"), ApiKey),
    (concat!("HF_TOKEN=h", "f_RgSnRFsTHsDDDXhJmtfEbsDeGCrynneLfj"), ApiKey),
    (concat!("shopify sh", "pat_611a3ce9d97dcbee500fe7ee5fc324bd"), ApiKey),
    (
        concat!("VAULT_TOKEN=hv", "s.CAESIUl4ffqkOkgWrdioyq_KvCiSGuPJ6sG9AHEOVezxZuJPW"),
        ApiKey,
    ),
    (
        concat!("doppler dp.", "pt.oNPcbdaKwtgHwIoALtLinxN1Ekia7ZpTjCgeOj3QYrz"),
        ApiKey,
    ),
    (
        concat!("PM", "AK-801bef750110c57513064d6d-59291f0cde2e5738713a818d8962058765"),
        ApiKey,
    ),
    (
        concat!("bot token 123456789:AAY7", "Bvqiy8CsT07Lq8TDIWG2x9aJTFMP9-2"),
        ApiKey,
    ),
    ("The API key is 9f8e7d6c5b4a39281726", ApiKey),
    ("x-api-key: 087e51b429fe8110102c995f1abef543", ApiKey),
    ("client_secret=x9PkOZAEyXYC8rYWKvsr", ApiKey),
    ("Authorization: Bearer kUtMXhkPrSbbAjLGmsDx5StAZvlMz_Bk4opH1Dr8", ApiKey),
    (
        "curl -H 'Authorization: Bearer 1a049d7ccc7e90a88d519448fb2fc679'",
        ApiKey,
    ),
    (
        "https://acme.blob.core.windows.net/c?sv=2022-11-02&sp=r&sig=FJdED5jSFpFkIM3Vak1uDSKFQs1DxBA9R%2B",
        ApiKey,
    ),
    ("Cookie: sessionid=cfQm9seB1qRmUR8AK3R2GgLLT", ApiKey),
    (
        concat!(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
            ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFsaWNlIn0.kUtMXhkPrSbbAjLGmsDx5StAZvlMz"
        ),
        ApiKey,
    ),
    (
        concat!(
            "Authorization: Bearer eyJhbGciOiJSUzI1NiJ9",
            ".eyJpc3MiOiJhY21lIn0.Zm9vYmFyYmF6cXV4"
        ),
        ApiKey,
    ),
    // Webhooks.
    (
        concat!(
            "https://hooks.slack.com/services/",
            "TTJPUU3XF/B6MZKP0EC/EJIukB4geqNfngAFTCloiADN"
        ),
        Webhook,
    ),
    (
        concat!(
            "alerts go to https://discord.com/api/webhooks/",
            "381444945443732332/KyPiYGFDm7ena8D5VfLDpgyyjVw5HanSBeVRsfAGeAbP0VxNjAe"
        ),
        Webhook,
    ),
    (
        concat!(
            "https://acme.webhook.office.com/webhookb2/",
            "bdd0b6cc-60d5@d32cbe54/IncomingWebhook/014c2b54b95523cf6941fa1c257c6f56/1c5cb347"
        ),
        Webhook,
    ),
    // Key material.
    (
        concat!(
            "-----BEGIN RSA PRIV",
            "ATE KEY-----\nMIICXAIBAAKBgQDUt2Uig0tZe062iYhFX6j3+9nyastxw56N6jXQ"
        ),
        PrivateKey,
    ),
    (
        concat!(
            "-----BEGIN OPENSSH PRIV",
            "ATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU="
        ),
        PrivateKey,
    ),
    (concat!("-----BEGIN EC PRIV", "ATE KEY-----"), PrivateKey),
    (
        concat!(
            "{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIV",
            "ATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\\n\"}"
        ),
        PrivateKey,
    ),
    (
        "MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBAL42M+v7TIlTVhxU",
        PrivateKey,
    ),
    (
        "key body: MIICXAIBAAKBgQDUt2Uig0tZe062iYhFX6j3+9nyastxw56N6jXQs72Tk6VVSW0j",
        PrivateKey,
    ),
    (
        "MHcCAQEEIKF/VejPIihJIhrzSg+Prok12Z20Qv+vhdWYrq/ZAuxwoAoGCCqGSM49",
        PrivateKey,
    ),
    (
        "MC4CAQAwBQYDK2VwBCIEILSHVxOfsMbUaInoOwW7hGKD1wDa8KSHouT+UkH3MPi7",
        PrivateKey,
    ),
    (
        "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQghZfyIml42tixoX+B",
        PrivateKey,
    ),
    (
        "\"private_key\": \"MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\"",
        PrivateKey,
    ),
    (
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
        PrivateKey,
    ),
    (
        concat!(
            "AGE-SECRET-",
            "KEY-1KQ143B07LUAY5GCQ8NKM7WG38N46BX7V03NLZ6HWDQRYZDAE00WQGOTZ7O"
        ),
        PrivateKey,
    ),
    (
        "my private key is 1cc1c93016f1c4261e5351d30b49895d1a0d1f13dce20c4fd32f640d0032634f",
        PrivateKey,
    ),
    // Bank accounts, identity numbers, cards.
    ("IBAN GB82 WEST 1234 5698 7654 32", BankAccount),
    ("DE89370400440532013000", BankAccount),
    ("send it to FR14 2004 1010 0505 0001 3M02 606 please", BankAccount),
    ("NL91ABNA0417164300", BankAccount),
    ("My IBAN is ES91 2100 0418 4502 0005 1332", BankAccount),
    ("My SSN is 123-45-6789", NationalId),
    ("ssn: 219 09 9999", NationalId),
    ("social security number 078051120", NationalId),
    ("card 4111 1111 1111 1111 exp 12/29", CardNumber),
    ("4111.1111.1111.1111", CardNumber),
    ("４１１１ １１１１ １１１１ １１１１", CardNumber),
    ("5500-0000-0000-0004", CardNumber),
    ("Amex 3782 822463 10005", CardNumber),
    ("４２４２．４２４２．４２４２．４２４２", CardNumber),
    ("Visa 4012 8888 8888 1881 exp 09/27", CardNumber),
    ("paid with 4242424242424242", CardNumber),
    ("paid 2024 4111 1111 1111 1111", CardNumber),
    // Wallet recovery phrases.
    (
        "Seed phrase: abandon ability able about above absent absorb abstract absurd abuse access accident",
        RecoveryPhrase,
    ),
];

pub(super) const ORDINARY: &[&str] = &[
    // Passwords talked about, not disclosed.
    "My password is strong and long",
    "I forgot my password yesterday",
    "I reset my bank password today",
    "password managers are useful",
    "My password is weak",
    "My password is easy to remember",
    "The password is hard to guess",
    "My password is the same as before",
    "My password is expired",
    "Her password expired last month",
    "The wifi password changed",
    "The password is saved in 1Password",
    "My password is 16 characters long",
    "Password reset links expire after 24 hours",
    "I need to change my password soon",
    "I changed the password to something stronger",
    "Password must be at least 12 characters",
    "What is the wifi password?",
    "Is your password strong enough?",
    "I keep passwords in KeePass",
    "My password is too short, says the bank",
    "The password is case-sensitive",
    "password: ********",
    "DB_PASSWORD=<your password>",
    "Mi contraseña es muy segura",
    "Mein Passwort ist sehr sicher",
    "Mon mot de passe est trop long",
    "Ich habe mein Passwort vergessen",
    "Boarding pass: seat 14C",
    "pass the salt please",
    "I passed my driving test",
    // Codes and numbers.
    "My PIN code changed last week",
    "The PIN is the same as my birthday",
    "The garage code changes on Friday",
    // Door codes are shared on purpose and kept with an expiry; the e2e tests store this one.
    "The door code is 4417 this week",
    "The alarm code is 4821",
    "The zip code is 90210",
    "My bike lock combination is something I forget",
    "My SSN card is in the drawer",
    "SSN stands for Social Security Number",
    "Call me at +1 (555) 123-4567",
    "My phone number is 555-867-5309",
    "Born on 1990-04-12",
    "The meeting is on 12/03/2025 at 10:30",
    "It cost $1,299.99",
    "Order 1234567890123 arrived",
    // Luhn-valid, but said to be an order or a phone number.
    "Order 4539 1488 0343 6467 shipped",
    "order 2024 4111 1111 1111 1111",
    "Tracking number 4539148803436467",
    "WhatsApp +5511912345601",
    "Order number 4111-1111-1111-1112 was shipped",
    "ISBN 978-3-16-148410-0",
    "ISBN 9780306406157",
    "IP address 192.168.1.254",
    "Version 2.14.3 was released",
    "Coordinates 40.7128, -74.0060",
    "Lucky numbers: 4 8 15 16 23 42",
    "Tracking number 1Z999AA10123456784",
    "Invoice INV-2024-000123",
    "DE12 is not an IBAN",
    "GB82 WEST 1234 5698 7654 33 fails its checksum",
    // Never-issued SSN ranges: area 000, 666 and 900-999, group 00, serial 0000.
    "Employee ID 000-12-3456",
    "Test record 666-12-3456",
    "Ref 900-12-3456",
    "Record 123-00-4567",
    "Case 123-45-0000",
    "Discord user id 381444945443732332",
    "Amazon order 112-7654321-9876543",
    "GB is short for Great Britain",
    "Flight UA 1234 departs at 7:45",
    "The temperature was -12.5 degrees",
    "Pi is 3.14159265358979",
    // Keys and tokens talked about.
    "The key to success is patience",
    "The secret to good bread is time",
    "Token Ring networks were popular",
    "Bearer bonds are rare now",
    "I like sk-ateboarding",
    "The API key is stored in the vault",
    "Keep the AWS keys out of git",
    "ghp_ is the prefix of GitHub tokens",
    "Set OPENAI_API_KEY=${OPENAI_API_KEY} in the shell",
    "api_key: your_api_key_here",
    "max_tokens=4096",
    "The token count was 1500",
    "Keyboard shortcut: Ctrl+Shift+P",
    "Primary key: user_id",
    "Use the header Authorization: Bearer <token>",
    "Use https://hooks.slack.com/services/ for alerts",
    "eyJ is how base64-encoded JSON starts",
    // Identifiers and URLs.
    "Meeting id 550e8400-e29b-41d4-a716-446655440000",
    "Bug fixed in commit 3f2a9c1",
    "fixed in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    "The function getUserAccountSettingsFromDatabaseCache is slow",
    "asiapacificmarketing is the team's handle",
    "base64 of my note: bWVldCBtZSBhdCB0aGUgb2xkIG9hayB0cmVl",
    "The SHA-256 is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "https://example.com/docs?page=2",
    "postgres://localhost:5432/mydb",
    "Use postgres://user@localhost/db to connect",
    "Clone ssh://git@github.com/org/repo.git",
    "https://example.com/reset-password?step=2",
    "Contact me at alice@example.com",
    // Public key material.
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop",
    "-----BEGIN PUBLIC KEY-----",
    "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC8woWlv4FCi43pz3jedYEhFT5R",
    "MIIB9DCCAV2gAwIBAgIUfyPGcK/tSE8INFFvlvT02GwN2PcwDQYJKoZIhvcNAQEL",
    "Ed25519 public key MCowBQYDK2VwAyEAiXQeYyGKtMaLMsis6SviJ3xs5U8dxNbFlOeJdMR/hJ8=",
    // Everyday facts.
    "I'm allergic to peanuts",
    "She has a black belt in karate",
    "The seed phrase is written on paper in my safe",
    "My bank account is with Barclays",
    "Apartment 12B, 3rd floor",
    "The passcode screen appears on boot",
    "My favourite number is 4111",
    "Lives at 221B Baker Street",
    "Prefers tea over coffee",
    "I need to pass the exam next week",
    "Secret Santa budget is 20 euros",
    "The wifi password is on the fridge",
    "Pin the tweet to the top",
];

#[test]
fn catalogue_is_refused_and_look_alikes_are_kept() {
    let mut missed = Vec::new();
    let mut wrong_kind = Vec::new();
    for &(text, want) in SECRETS {
        match detect(text) {
            None => missed.push(text),
            Some(got) if got != want => wrong_kind.push((text, want, got)),
            Some(_) => {}
        }
    }
    let refused: Vec<(&str, SecretKind)> = ORDINARY
        .iter()
        .filter_map(|&text| detect(text).map(|kind| (text, kind)))
        .collect();

    let detected = SECRETS.len() - missed.len();
    let detection = 100.0 * detected as f64 / SECRETS.len() as f64;
    let false_positives = 100.0 * refused.len() as f64 / ORDINARY.len() as f64;
    println!(
        "secrets catalogue: {} secret forms, {} ordinary look-alikes",
        SECRETS.len(),
        ORDINARY.len()
    );
    println!("secrets detection rate: {detected}/{} = {detection:.1}%", SECRETS.len());
    println!(
        "secrets false-positive rate: {}/{} = {false_positives:.1}%",
        refused.len(),
        ORDINARY.len()
    );

    assert!(SECRETS.len() >= 70 && ORDINARY.len() >= 70);
    assert!(missed.is_empty(), "not refused: {missed:#?}");
    assert!(
        wrong_kind.is_empty(),
        "refused as the wrong kind (text, wanted, got): {wrong_kind:#?}"
    );
    assert!(refused.is_empty(), "ordinary facts refused: {refused:#?}");
}
