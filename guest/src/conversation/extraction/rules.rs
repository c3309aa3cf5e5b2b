//! The offline extractor: clear first-person statements and nothing else. No language
//! model, so no understanding; precision comes from refusing: a sentence that asks,
//! supposes, doubts, quotes someone, speaks of the past or of the moment, or negates
//! (other than a dislike) yields nothing. What is left must open with one of a few
//! statement forms ("I'm allergic to", "my wife's name is", "I live in", "I prefer",
//! "remember that"), and the fact is that clause, in the user's own words.

use super::{Fact, RULE_CONFIDENCE};
use crate::memory_type::{MemoryType, classify};

/// Openers that carry nothing: "btw, I live in Porto" is "I live in Porto".
const LEADS: &[&str] = &[
    "just so you know",
    "for the record",
    "by the way",
    "fyi",
    "btw",
    "oh",
    "also",
    "and",
    "so",
    "well",
    "ok",
    "okay",
    "hey",
    "hi",
    "actually",
    "anyway",
    "yes",
    "yeah",
    "fun fact",
    "note",
    "heads up",
];

/// Words and phrases that make a sentence anything but a plain statement of a lasting
/// fact: a supposition, a doubt, a report of what someone else said, the past, the moment.
const BLOCKERS: &[&str] = &[
    "if",
    "would",
    "could",
    "should",
    "might",
    "maybe",
    "perhaps",
    "probably",
    "i think",
    "i guess",
    "not sure",
    "wonder",
    "imagine",
    "suppose",
    "pretend",
    "wish",
    "hope",
    "said",
    "says",
    "told me",
    "tells me",
    "used to",
    "anymore",
    "any more",
    "no longer",
    "today",
    "tonight",
    "right now",
    "this morning",
    "at the moment",
    "kidding",
    "jk",
    "joking",
    "sarcasm",
    "yeah right",
    "as if",
    "hypothetically",
    "let's say",
    "lets say",
    "roleplay",
    "role play",
    "character",
    "translate",
    "someday",
    "one day",
    "thinking about",
    "considering",
    "planning to",
    "want to",
    "going to",
    "gonna",
];

/// Words that negate; a sentence holding one is skipped unless the negation is the fact
/// ("I don't like olives").
const NEGATIONS: &[&str] = &["not", "never", "no", "nobody", "nothing", "neither", "nor"];

/// People whose name is worth a relationship memory.
const RELATIONS: &[&str] = &[
    "wife",
    "husband",
    "partner",
    "girlfriend",
    "boyfriend",
    "fiance",
    "fiancee",
    "son",
    "daughter",
    "mother",
    "mom",
    "mum",
    "father",
    "dad",
    "sister",
    "brother",
    "grandmother",
    "grandma",
    "grandfather",
    "grandpa",
    "aunt",
    "uncle",
    "cousin",
    "niece",
    "nephew",
    "boss",
    "dog",
    "cat",
    "kid",
    "child",
    "baby",
    "stepson",
    "stepdaughter",
    "best friend",
];

/// Objects that point at the conversation, not at a lasting taste ("I love it").
const DEICTIC: &[&str] = &[
    "it",
    "that",
    "this",
    "you",
    "them",
    "those",
    "these",
    "him",
    "her",
    "when",
    "how",
    "what",
    "the idea",
    "your",
    "the first",
    "the second",
    "the third",
    "the last",
    "the other",
    "the former",
    "the latter",
    "the previous",
    "the next",
    "the new",
    "the old",
    "option",
    "one",
    "both",
    "either",
    "neither",
];

/// Words after "I'm a" that describe a moment, not a person ("I'm a bit tired").
const NOT_A_ROLE: &[&str] = &[
    "bit", "little", "lot", "tad", "mess", "huge", "total", "complete", "fan", "big", "wreck",
];

/// Diets and conditions stated as "I'm X".
const DIETS: &[&str] = &["vegetarian", "vegan", "pescatarian", "pescetarian"];
const CONDITIONS: &[&str] = &[
    "diabetic",
    "celiac",
    "coeliac",
    "lactose intolerant",
    "gluten intolerant",
    "epileptic",
    "asthmatic",
    "colorblind",
    "colourblind",
    "left-handed",
    "left handed",
    "deaf",
    "allergic to",
];

/// The clear first-person facts in a user's message.
pub fn extract(message: &str) -> Vec<Fact> {
    let mut facts = Vec::new();
    for sentence in sentences(message) {
        if let Some(fact) = read_sentence(sentence)
            && !facts
                .iter()
                .any(|f: &Fact| f.content.eq_ignore_ascii_case(&fact.content))
        {
            facts.push(fact);
        }
    }
    facts.truncate(super::MAX_FACTS_PER_EXCHANGE);
    facts
}

fn read_sentence(sentence: &str) -> Option<Fact> {
    // A typographic apostrophe reads as a plain one.
    let owned = sentence.replace('\u{2019}', "'");
    let sentence = owned.trim();
    if sentence.ends_with('?') || sentence.contains(['"', '\u{201C}', '\u{201D}']) {
        return None;
    }
    // ASCII lowercasing keeps every byte offset, so that offsets found in `lower` slice
    // `sentence` on character boundaries (full lowercasing can shrink one character and
    // grow another: the Kelvin sign and dotted I). Every pattern is ASCII.
    let lower = sentence.to_ascii_lowercase();
    if BLOCKERS.iter().any(|b| has_phrase(&lower, b)) {
        return None;
    }
    let start = strip_leads(&lower);
    let (text, lower) = (&sentence[start..], &lower[start..]);
    // Only the fact's own clause: "I'm allergic to peanuts, so no satay" is not negated.
    let negated = negated(&clause(lower));

    // "remember that X": X, whatever it is about.
    for opener in [
        "please remember that ",
        "remember that ",
        "please remember: ",
        "remember: ",
        "please remember my ",
        "remember my ",
    ] {
        if let Some(rest) = lower.strip_prefix(opener) {
            if negated || rest.split_whitespace().count() < 3 {
                return None;
            }
            // "remember my mother's name is Grace": the fact keeps its "my".
            let from = if opener.ends_with("my ") {
                opener.len() - 3
            } else {
                opener.len()
            };
            let fact = clause(&text[from..]);
            let t = match classify(&fact) {
                MemoryType::Context | MemoryType::Observation => MemoryType::Knowledge,
                t => t,
            };
            return Some(fact_of(capitalise(&fact), t, Vec::new()));
        }
    }

    // A dislike is the one negation that is a fact.
    for opener in [
        "i don't like ",
        "i do not like ",
        "i don't enjoy ",
        "i can't stand ",
        "i cannot stand ",
    ] {
        if let Some(rest) = lower.strip_prefix(opener) {
            return object_ok(rest).then(|| fact_of(capitalise(&clause(text)), MemoryType::Preference, Vec::new()));
        }
    }
    if negated {
        return None;
    }

    // Names.
    for (opener, phrase) in [
        ("my name is ", "My name is"),
        ("call me ", "I go by"),
        ("i go by ", "I go by"),
    ] {
        if lower.starts_with(opener) {
            let name = name_at(&text[opener.len()..])?;
            return Some(fact_of(format!("{phrase} {name}"), MemoryType::Identity, Vec::new()));
        }
    }
    if let Some(fact) = relation(text, lower) {
        return Some(fact);
    }

    let identity: &[&str] = &[
        "i live in ",
        "i moved to ",
        "i'm based in ",
        "i am based in ",
        "i'm from ",
        "i am from ",
        "i work as ",
        "i work at ",
        "i work for ",
        "my birthday is ",
        "i was born on ",
        "i was born in ",
        "i'm originally from ",
        "i am originally from ",
        "i speak ",
        "i study ",
    ];
    let preference: &[&str] = &[
        "i prefer ",
        "i like ",
        "i love ",
        "i really like ",
        "i really love ",
        "i hate ",
        "i dislike ",
        "i enjoy ",
        "i really enjoy ",
        "my favorite ",
        "my favourite ",
        "i'm a big fan of ",
        "i am a big fan of ",
        "i'm a fan of ",
        "i am a fan of ",
    ];
    for (openers, t) in [(identity, MemoryType::Identity), (preference, MemoryType::Preference)] {
        if let Some(opener) = openers.iter().find(|o| lower.starts_with(**o)) {
            let rest = &lower[opener.len()..];
            return (object_ok(rest) && (t != MemoryType::Identity || rest.len() >= 2))
                .then(|| fact_of(capitalise(&clause(text)), t, Vec::new()));
        }
    }

    // "I'm vegetarian", "I am allergic to peanuts", "I'm lactose intolerant".
    for be in ["i'm ", "i am ", "im "] {
        let Some(rest) = lower.strip_prefix(be) else { continue };
        let rest = rest
            .strip_prefix("a ")
            .or_else(|| rest.strip_prefix("an "))
            .unwrap_or(rest);
        if DIETS.iter().any(|d| starts_with_word(rest, d)) {
            return Some(fact_of(capitalise(&clause(text)), MemoryType::Preference, Vec::new()));
        }
        if let Some(c) = CONDITIONS.iter().find(|c| starts_with_word(rest, c)) {
            let needs_object = c.ends_with(" to");
            if needs_object && !object_ok(&rest[c.len()..]) {
                return None;
            }
            return Some(fact_of(capitalise(&clause(text)), MemoryType::Identity, Vec::new()));
        }
        // "I'm a nurse", "I'm an engineer at Shopify": a role, in a short clause.
        let after_be = &lower[be.len()..];
        if let Some(role) = after_be.strip_prefix("a ").or_else(|| after_be.strip_prefix("an ")) {
            let fact = clause(text);
            let first = role.split_whitespace().next().unwrap_or("");
            if !NOT_A_ROLE.contains(&first) && object_ok(role) && fact.split_whitespace().count() <= 10 {
                return Some(fact_of(capitalise(&fact), MemoryType::Identity, Vec::new()));
            }
            return None;
        }
        // "I'm Kenji": a name, alone in its clause.
        if let Some(name) = name_at(&text[be.len()..])
            && !name.contains(' ')
            && clause(&text[be.len()..]) == name
        {
            return Some(fact_of(format!("My name is {name}"), MemoryType::Identity, Vec::new()));
        }
    }
    None
}

/// "my wife's name is Sarah", "my son is called Leo", "my sister is Ana".
fn relation(text: &str, lower: &str) -> Option<Fact> {
    let rest = lower.strip_prefix("my ")?;
    let rel = RELATIONS.iter().find(|r| starts_with_word(rest, r))?;
    let after = &rest[rel.len()..];
    let linkers = [
        "'s name is ",
        " is called ",
        " is named ",
        " is ",
        " named ",
        " called ",
        " ",
    ];
    let linker = linkers.iter().find(|l| after.starts_with(**l))?;
    let at = "my ".len() + rel.len() + linker.len();
    let name = name_at(&text[at..])?;
    // "my wife is Sarah", "my son Leo": then only a name may follow, not a description
    // ("my wife is tired", "my boss Tom is annoying").
    let rest_after_name = lower[at..].get(name.len()..).unwrap_or("");
    let plain = *linker == " is " || *linker == " ";
    if plain && !rest_after_name.trim().is_empty() && !rest_after_name.trim_start().starts_with(',') {
        return None;
    }
    Some(fact_of(
        format!("My {rel}'s name is {name}"),
        MemoryType::Relationship,
        vec![format!("my {rel} {name}")],
    ))
}

/// One to three capitalised words at the start of `text`: a name.
fn name_at(text: &str) -> Option<String> {
    let words: Vec<&str> = text
        .split_whitespace()
        .take(3)
        .map(|w| w.trim_end_matches([',', '.', '!', ';', ':']))
        .take_while(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        })
        .collect();
    if words.is_empty() || words.iter().any(|w| ["I", "I'm"].contains(w)) {
        return None;
    }
    Some(words.join(" "))
}

fn fact_of(content: String, memory_type: MemoryType, subjects: Vec<String>) -> Fact {
    Fact {
        content,
        memory_type,
        subjects,
        confidence: RULE_CONFIDENCE,
        expires_in_days: None,
    }
}

/// Whether the object of a taste or a place is a thing, not a pointer into the talk.
fn object_ok(rest: &str) -> bool {
    let rest = rest.trim_start();
    rest.chars().next().is_some_and(char::is_alphanumeric) && !DEICTIC.iter().any(|d| starts_with_word(rest, d))
}

/// The fact's clause: up to the first comma, semicolon, dash or joining word.
fn clause(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut end = text.len();
    for cut in [
        ",",
        ";",
        " - ",
        " \u{2014} ",
        " and i ",
        " and i'm ",
        " but ",
        " so ",
        " because ",
        " which ",
        " lol",
    ] {
        if let Some(i) = lower.find(cut) {
            end = end.min(i);
        }
    }
    text[..end].trim().trim_end_matches(['.', '!']).trim().to_owned()
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Where the sentence starts once the openers that carry nothing are gone.
fn strip_leads(lower: &str) -> usize {
    let mut at = 0;
    loop {
        let rest = &lower[at..];
        let skipped = rest.len() - rest.trim_start_matches([' ', ',', '-', ':']).len();
        let rest = &rest[skipped..];
        match LEADS.iter().find(|l| starts_with_word(rest, l)) {
            Some(l) => at += skipped + l.len(),
            None => return at + skipped,
        }
    }
}

fn negated(lower: &str) -> bool {
    lower.contains("n't") || NEGATIONS.iter().any(|n| has_phrase(lower, n))
}

/// Whether `phrase` occurs in `text` as whole words.
fn has_phrase(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn starts_with_word(text: &str, word: &str) -> bool {
    text.starts_with(word) && !text[word.len()..].chars().next().is_some_and(char::is_alphanumeric)
}

/// The message cut into sentences at `.`, `!`, `?` and line breaks followed by a space.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let next = bytes.get(k + 1).map(|&(_, n)| n);
        if c == '\n' || (matches!(c, '.' | '!' | '?') && next.is_none_or(char::is_whitespace)) {
            out.push(&text[start..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(message: &str) -> Vec<String> {
        extract(message).into_iter().map(|f| f.content).collect()
    }

    #[test]
    fn reads_clear_statements() {
        assert_eq!(
            contents("btw I'm allergic to peanuts, so no satay please."),
            ["I'm allergic to peanuts"]
        );
        assert_eq!(contents("My wife's name is Sarah."), ["My wife's name is Sarah"]);
        let f = extract("my son is called Leo, he's 6");
        assert_eq!(
            (f[0].memory_type, f[0].subjects.clone()),
            (MemoryType::Relationship, vec!["my son Leo".to_owned()])
        );
        assert_eq!(contents("I live in Lisbon now."), ["I live in Lisbon now"]);
        assert_eq!(
            contents("I prefer tea over coffee, always have."),
            ["I prefer tea over coffee"]
        );
        assert_eq!(contents("I don't like olives."), ["I don't like olives"]);
        assert_eq!(
            contents("Please remember that the spare key is under the blue pot"),
            ["The spare key is under the blue pot"]
        );
        assert_eq!(contents("Call me Jay, nobody uses Jayden."), ["I go by Jay"]);
        assert_eq!(
            contents("I'm vegetarian. I live in Porto!"),
            ["I'm vegetarian", "I live in Porto"]
        );
        assert_eq!(contents("Hi! I'm Kenji, nice to meet you"), ["My name is Kenji"]);
        assert_eq!(
            contents("I'm a nurse at the county hospital."),
            ["I'm a nurse at the county hospital"]
        );
        assert_eq!(
            contents("Please remember my mother's name is Grace"),
            ["My mother's name is Grace"]
        );
    }

    #[test]
    fn refuses_everything_else() {
        for message in [
            "Do I live in Paris?",
            "what should I cook if I'm allergic to nuts?",
            "If I lived in Berlin, would I need a car?",
            "my friend is allergic to cats",
            "She said \"I love Rome\" and left.",
            "I'm not sure I prefer tea",
            "I'm not allergic to anything",
            "I used to live in Oslo",
            "I'm tired today",
            "I love it!",
            "I like that idea",
            "I'd like you to draft an email",
            "I think I live too far away",
            "thanks!",
            "my wife is tired",
            "my boss Tom is annoying",
            "I'm planning to move to Rome",
            "I love you",
            "I prefer the second draft",
            "I'm a bit tired",
            "I'm a big fan of it",
            "I'm Happy to help, said no one",
        ] {
            assert!(extract(message).is_empty(), "{message}: {:?}", contents(message));
        }
        // Characters whose lowercase has another length cannot misalign a slice.
        for message in [
            "O\u{212A} \u{130}\u{130}",
            "I live in \u{2126}\u{2126}, \u{130}\u{130}",
            "\u{212A}id",
        ] {
            let _ = extract(message);
        }
    }
}
