//! The words around a trigger: those that join it to its value ("is", "lautet"), may stand
//! between them ("for my bank", "now"), or make the value a description ("strong", "12
//! characters long") or the trigger a ticket ("boarding pass"). All entries are lower case.

use super::words::WordSet;

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

/// Connectors that are also prepositions ("the password to the wifi is ..."): a later
/// connector decides; with none, the value after one does.
pub(super) static AMBIGUOUS_CONNECTORS: WordSet = WordSet::new("to on e er var ir je");

/// The last words of English triggers, after which "to" and "on" are prepositions ("the
/// password to gmail"), where in other languages they mean "is" ("hasło to kotek").
pub(super) static ENGLISH_NOUNS: WordSet = WordSet::new("password passwd passphrase passcode pword pwd pw key code");

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

/// Verbs that, followed by "to", introduce a new value: "was changed to hunter2", "I set the
/// router password to ...".
pub(super) static CHANGE_VERBS: WordSet = WordSet::new(
    "change changed set reset update updated switch switched changing setting resetting updating switching",
);

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
     wpa wpa2 wpa3 wep psk flag option switch argument parameter
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
