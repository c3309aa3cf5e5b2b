//! Word lists for reading statements such as "my password is ...". All entries are lower
//! case; a space in a trigger matches any one whitespace character.

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
    /// A PIN. Door, gate and alarm codes are not refused: they are shared on purpose and
    /// usually stored with an expiry ("the door code is 4417 this week").
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
    t("curl -u", Class::Login, true),
    t("curl --user", Class::Login, true),
    // Identity numbers.
    t("ssn", Ssn, true),
    t("social security number", Ssn, true),
    t("social security no", Ssn, true),
    t("social security", Ssn, true),
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

/// Words before "pass" that make it a ticket or a route, not a password.
pub(super) static PASS_COMPOUNDS: WordSet = WordSet::new(
    "boarding bus train rail season day ski gym museum park hall press backstage guest visitor festival
     travel metro transit annual weekly monthly mountain free vip parking fast zone bye first second
     final a the one another forward back ferry",
);

/// Words that join a trigger to its value, in the languages of `TRIGGERS`.
pub(super) static CONNECTORS: WordSet = WordSet::new(
    "is was are were equals = : - -- -> => → ⇒ es era será est était c'est ist lautet war é è e är er var
     on oli to jest brzmi je zní este это е yra ir adalah ialah là είναι هي هو היא הוא",
);

/// Connectors that are also prepositions ("the password to the wifi is ..."): when the
/// value after one is not a secret, reading goes on.
pub(super) static AMBIGUOUS_CONNECTORS: WordSet = WordSet::new("to on e er var ir je");

/// Words that may come between a trigger and its connector: "the password for my bank is",
/// "la contraseña del wifi es", "das Passwort für das WLAN lautet".
pub(super) static BRIDGES: WordSet = WordSet::new(
    "for to of on at in from here now currently still de del des du da do della dello di für fürs zum zur
     vom von para pro per pour van voor för til na dla od від от для к към al au à dell' d' pentru için
     שלי של من الخاص الخاصة saya của",
);

/// Adverbs that may stand between a connector and the value: "my password is now hunter2".
pub(super) static ADVERBS: WordSet = WordSet::new(
    "now still currently actually just simply literally basically again also officially finally
     temporarily apparently probably always ahora maintenant jetzt agora adesso nu",
);

/// Verbs that, followed by "to", introduce a new value: "was changed to hunter2".
pub(super) static CHANGE_VERBS: WordSet =
    WordSet::new("changed set reset updated switched changing setting resetting updating switching");

/// Units after a small number that make it a description: "12 characters long".
pub(super) static UNITS: WordSet = WordSet::new(
    "characters character chars char letters letter digits digit symbols words days weeks months years
     hours minutes times caracteres caractères zeichen tekens stellen",
);

/// Values that describe a password rather than disclose it. A password may of course be
/// any word, but "my password is strong" is far more often a description than a disclosure;
/// a value not listed here ("letmein", "hunter2", "Fluffy") is treated as a password.
/// Listed: function words (what follows them is a description: "the same as before", "in my
/// notes"), adjectives and states, then the common descriptions in Spanish, French, German,
/// Portuguese, Italian, Dutch, Swedish and Polish.
pub(super) static DESCRIPTIONS: WordSet = WordSet::new(
    "the a an my your his her our their its this that these those it not no never too so very quite
     really pretty rather extremely super fairly somewhat always usually probably definitely in on at
     with without for from by of to about under behind inside somewhere something nothing anything what
     which how why who whatever all both either neither none some any every each much many more less most
     least like as and or but if there here one two three four five six seven eight nine ten eleven
     twelve fifteen sixteen twenty thirty over almost nearly exactly mine yours ours theirs hers also
     still now just only even again already yet then soon later today yesterday tomorrow before after due
     up down out off supposed meant kind sort way case based i we you he she they because since though
     although when while until unless where than anymore compared versus considering cos see check ask
     strong stronger strongest weak weaker weakest long longer short shorter easy easier hard harder
     difficult simple complex complicated random memorable secret private secure insecure safe unsafe
     good bad great terrible awful fine ok okay alright obvious predictable guessable unguessable stupid
     silly funny weird strange ridiculous annoying impossible tricky boring similar identical same
     different unique new old older newer shared personal important sensitive confidential cumbersome
     lengthy tiny huge massive decent reasonable solid robust fragile vulnerable crackable uncrackable
     sufficient insufficient adequate inadequate acceptable unacceptable compliant wrong incorrect
     correct right invalid valid default blank empty temporary permanent mandatory optional required
     needed missing lost forgotten known unknown unchanged active inactive available unavailable visible
     hidden ready done gone working broken enough case-sensitive expired expiring changed updated reset
     set saved stored kept written encrypted hashed protected managed generated used reused rotated
     compromised leaked hacked stolen exposed breached outdated ancient stale locked blocked disabled
     enabled synced linked shown given provided sent emailed texted printed taped attached being been
     going getting coming overdue easy-to-remember hard-to-guess hard-coded hardcoded auto-generated
     autogenerated guess remember crack type read change expire use better worse best worst horrible
     excellent perfect nice cool clever smart dumb lame basic generic common uncommon rare typical
     standard special sure certain unclear clear plain plaintext short-lived long-lived twelve-character
     eight-character tbd unset null undefined irrelevant numeric alphanumeric numbers letters digits
     characters lowercase uppercase 1password 2fa mfa sso otp bitwarden lastpass keepass dashlane
     keychain segura seguro fuerte débil debil larga largo corta corto fácil facil difícil dificil nueva
     nuevo vieja viejo igual misma mismo la el lo mi muy demasiado caducada expirada incorrecta correcta
     secreta complicada diferente sûr sûre sur sécurisé sécurisée forte fort faible longue courte court
     facile difficile nouveau nouvelle ancien ancienne le mon ma très trop expiré expirée changé
     incorrecte compliqué compliquée différent même dans sicher stark schwach lang kurz einfach schwer
     schwierig neu alt der die das mein meine sehr zu abgelaufen geändert falsch richtig kompliziert
     geheim gleich anders im nicht fraca longa curta nova velha o minha muito alterada errada correta
     sicura debole lunga nuova vecchia il mia molto troppo scaduta cambiata sbagliata giusta diversa
     uguale stessa sterk zwak kort makkelijk moeilijk nieuw oud veilig het de mijn erg te heel verlopen
     gewijzigd fout juist ingewikkeld hetzelfde starkt säkert svagt långt nytt samma silne słabe długie
     nowe bezpieczne takie samo",
);
