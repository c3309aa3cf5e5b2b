//! The trigger words of statements such as "my password is ...", and how the value after
//! each is judged. All entries are lower case; a space in a trigger matches any one
//! whitespace character. The words around a trigger are in `grammar`.

use super::SecretKind;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Words written as one string, separated by whitespace, and looked up as a set.
pub(super) struct WordSet {
    words: &'static str,
    set: OnceLock<BTreeSet<&'static str>>,
}

impl WordSet {
    pub const fn new(words: &'static str) -> WordSet {
        WordSet {
            words,
            set: OnceLock::new(),
        }
    }

    pub fn contains(&self, word: &str) -> bool {
        self.set.get_or_init(|| self.iter().collect()).contains(word)
    }

    pub fn iter(&self) -> impl Iterator<Item = &'static str> {
        self.words.split_whitespace()
    }
}

/// How the value after a trigger word is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// Anything that is not a description ("strong", "the same as before") is a password.
    Password,
    /// "pass": also boarding, bus and ski passes, so only a password-like value counts, or
    /// any value after "pass:" when no such compound precedes it.
    Pass,
    /// A word with other common meanings ("clave", "parola"): only a password-like value.
    WeakPassword,
    /// A PIN, and the code that unlocks a phone, tablet, SIM or cash card. Door, gate and
    /// alarm codes are not refused: they are shared on purpose and usually stored with an
    /// expiry ("the door code is 4417 this week").
    Pin,
    /// A card security code.
    Cvv,
    /// The value must look like a token.
    Key(SecretKind),
    /// A US Social Security number.
    Ssn,
    /// A wallet recovery phrase: twelve or more plain words.
    Phrase,
    /// A login given as a pair: "admin:hunter2!", "admin / hunter2!".
    Login,
}

pub(super) struct Trigger {
    pub word: &'static str,
    pub class: Class,
    /// Whether a value may follow with no connector ("password hunter2", "PIN 4821").
    pub bare: bool,
    /// Written without spaces around it (Chinese, Japanese, Korean, Thai): no word
    /// boundaries are required, and particles such as 是 or は act as connectors.
    pub joined: bool,
}

const fn t(word: &'static str, class: Class, bare: bool) -> Trigger {
    Trigger {
        word,
        class,
        bare,
        joined: false,
    }
}

const fn joined(word: &'static str, class: Class) -> Trigger {
    Trigger {
        word,
        class,
        bare: true,
        joined: true,
    }
}

use Class::{Cvv, Key, Pass, Password as Pw, Phrase, Pin, Ssn, WeakPassword as Weak};
const API: Class = Key(SecretKind::ApiKey);
const PRIVATE: Class = Key(SecretKind::PrivateKey);

/// Words after which a value discloses a secret. Longer forms come before their prefixes
/// only for readability; every trigger is tried.
pub(super) const TRIGGERS: &[Trigger] = &[
    // English and the abbreviations used everywhere.
    t("password", Pw, true),
    t("passwd", Pw, true),
    t("passphrase", Pw, true),
    t("passcode", Pw, true),
    t("pword", Pw, true),
    t("pwd", Pw, false),
    t("pw", Pw, false),
    t("pass", Pass, false),
    t("login password", Pw, true),
    // A network's key or code is its password.
    t("wifi key", Pw, true),
    t("wi-fi key", Pw, true),
    t("wlan key", Pw, true),
    t("wireless key", Pw, true),
    t("network key", Pw, true),
    t("wpa key", Pw, true),
    t("wpa2 key", Pw, true),
    t("hotspot key", Pw, true),
    t("wifi code", Pw, true),
    t("wi-fi code", Pw, true),
    t("hotspot code", Pw, true),
    // Other languages.
    t("contraseña", Pw, true),
    t("contrasena", Pw, true),
    t("contraseñas", Pw, true),
    t("contrasenya", Pw, true),
    t("clave", Weak, false),
    t("mot de passe", Pw, true),
    t("mots de passe", Pw, true),
    t("mdp", Pw, false),
    t("passwort", Pw, true),
    t("kennwort", Pw, true),
    t("senha", Pw, true),
    t("palavra-passe", Pw, true),
    t("palavra passe", Pw, true),
    t("wachtwoord", Pw, true),
    t("lösenord", Pw, true),
    t("lösenordet", Pw, true),
    t("losenord", Pw, true),
    t("passord", Pw, true),
    t("passordet", Pw, true),
    t("adgangskode", Pw, true),
    t("adgangskoden", Pw, true),
    t("kodeord", Pw, true),
    t("salasana", Pw, true),
    t("salasanani", Pw, true),
    t("hasło", Pw, true),
    t("haslo", Pw, true),
    t("heslo", Pw, true),
    t("jelszó", Pw, true),
    t("jelszo", Pw, true),
    t("jelszavam", Pw, true),
    t("şifre", Pw, true),
    t("şifrem", Pw, true),
    t("sifre", Pw, true),
    t("sifrem", Pw, true),
    t("parola", Weak, false),
    t("parolă", Pw, true),
    t("parolam", Pw, true),
    t("parool", Pw, true),
    t("parole", Weak, false),
    t("slaptažodis", Pw, true),
    t("lozinka", Pw, true),
    t("geslo", Pw, true),
    t("kata sandi", Pw, true),
    t("kata laluan", Pw, true),
    t("mật khẩu", Pw, true),
    t("mat khau", Pw, true),
    t("пароль", Pw, true),
    t("пароля", Pw, true),
    t("парола", Pw, true),
    t("паролата", Pw, true),
    t("κωδικός πρόσβασης", Pw, true),
    t("סיסמה", Pw, true),
    t("סיסמא", Pw, true),
    t("הסיסמה", Pw, true),
    t("הסיסמא", Pw, true),
    t("كلمة المرور", Pw, true),
    t("كلمة السر", Pw, true),
    t("رمز عبور", Pw, true),
    t("पासवर्ड", Pw, true),
    joined("密码", Pw),
    joined("密碼", Pw),
    joined("口令", Pw),
    joined("パスワード", Pw),
    joined("暗証番号", Pin),
    joined("비밀번호", Pw),
    joined("패스워드", Pw),
    joined("암호", Pw),
    joined("รหัสผ่าน", Pw),
    // Numeric codes.
    t("pin", Pin, true),
    t("pin code", Pin, true),
    t("pin number", Pin, true),
    t("pincode", Pin, true),
    t("puk", Pin, true),
    t("puk code", Pin, true),
    // A device's or cash card's code is its PIN; with a connector only ("phone code 0044").
    t("phone code", Pin, false),
    t("iphone code", Pin, false),
    t("ipad code", Pin, false),
    t("tablet code", Pin, false),
    t("laptop code", Pin, false),
    t("unlock code", Pin, false),
    t("lock screen code", Pin, false),
    t("screen lock code", Pin, false),
    t("sim code", Pin, false),
    t("atm code", Pin, false),
    t("voicemail code", Pin, false),
    t("cvv", Cvv, true),
    t("cvv2", Cvv, true),
    t("cvc", Cvv, true),
    t("cvc2", Cvv, true),
    t("card security code", Cvv, true),
    // Keys and tokens: the value must look like one, so ordinary uses ("the key to success",
    // "Token Ring") pass.
    t("api key", API, true),
    t("api-key", API, true),
    t("api_key", API, true),
    t("apikey", API, true),
    t("api token", API, true),
    t("access key", API, true),
    t("secret key", API, true),
    t("secret access key", Key(SecretKind::CloudCredential), true),
    t("session token", API, true),
    t("access token", API, true),
    t("auth token", API, true),
    t("refresh token", API, true),
    t("bearer", API, true),
    t("token", API, true),
    t("secret", API, true),
    t("client secret", API, true),
    t("key", API, false),
    t("license key", API, true),
    t("product key", API, true),
    t("encryption key", PRIVATE, true),
    t("private key", PRIVATE, true),
    t("signing key", PRIVATE, true),
    t("master key", PRIVATE, true),
    t("authorization: basic", Pw, true),
    // Logins given as a pair.
    t("login", Class::Login, true),
    t("credentials", Class::Login, true),
    t("creds", Class::Login, true),
    // Identity numbers.
    t("ssn", Ssn, true),
    t("social security number", Ssn, true),
    t("social security no", Ssn, true),
    t("social security", Ssn, true),
    t("social", Ssn, true), // "my social is ...": only nine digits that could be an SSN follow
    // Wallet recovery phrases.
    t("seed", Phrase, true),
    t("seed phrase", Phrase, true),
    t("recovery phrase", Phrase, true),
    t("mnemonic phrase", Phrase, true),
    t("mnemonic", Phrase, true),
    t("seed words", Phrase, true),
    t("backup phrase", Phrase, true),
    t("recovery words", Phrase, true),
];
