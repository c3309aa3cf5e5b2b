//! Standing facts told in everyday forms the plain openers miss: a home told with "we" or
//! a length of time ("we're in Brighton now", "been in Leeds about 6 years", "lived in
//! Toronto my whole life"), teaching ("I teach maths at a secondary in Glasgow"), a
//! condition had ("I have epilepsy"), a state of who one is ("I'm autistic", "not a morning
//! person at all", "engaged since June!!"), a first language ("Hindi is my first language"),
//! a self told as the ground of a question ("as a type 1 diabetic, ..."), and how the
//! teller wants answers ("No markdown please", "I work best with bullet points").

use super::sentences::{capitalise, clause, has_phrase, starts_with_word};
use super::words::CONDITIONS;
use super::{fact_of, object_ok};
use crate::conversation::extraction::Fact;
use crate::memory_type::MemoryType;

/// The standing fact `text` (its lowercase `lower`) opens with, if any.
pub(super) fn standing(text: &str, lower: &str) -> Option<Fact> {
    home(text, lower)
        .or_else(|| pronouns(text, lower))
        .or_else(|| teaching(text, lower))
        .or_else(|| condition(text, lower))
        .or_else(|| state(text, lower))
        .or_else(|| language(text, lower))
        .or_else(|| routine(text, lower))
        .or_else(|| fan(text))
}

fn pronouns(text: &str, lower: &str) -> Option<Fact> {
    ["my pronouns are ", "pronouns are ", "pronouns: "]
        .iter()
        .any(|o| lower.starts_with(o))
        .then(|| fact_of(capitalise(&clause(text)), MemoryType::Identity, Vec::new()))
}

/// A routine kept at a rate: "I play five-a-side every Tuesday", "I do parkrun most
/// saturdays", "been bouldering 3x a week for years now".
fn routine(text: &str, lower: &str) -> Option<Fact> {
    const DOERS: &[&str] = &[
        "i play ",
        "i do ",
        "i go ",
        "i swim ",
        "i run ",
        "i cycle ",
        "i climb ",
        "i train ",
        "i practise ",
        "i practice ",
        "i volunteer ",
        "i sing ",
        "i've been ",
        "ive been ",
    ];
    const RATES: &[&str] = &[
        "every monday",
        "every tuesday",
        "every wednesday",
        "every thursday",
        "every friday",
        "every saturday",
        "every sunday",
        "every weekend",
        "every week",
        "most mondays",
        "most tuesdays",
        "most wednesdays",
        "most thursdays",
        "most fridays",
        "most saturdays",
        "most sundays",
        "most weekends",
        "most mornings",
        "most evenings",
        "most days",
        "once a week",
        "twice a week",
        "times a week",
        "x a week",
        "3x a week",
        "2x a week",
        "4x a week",
        "5x a week",
        "at weekends",
        "on weekends",
        "every morning",
        "every evening",
    ];
    let opener = DOERS.iter().find(|o| lower.starts_with(**o))?;
    // "I go like 3 times a week": a rate of nothing named.
    let next = lower[opener.len()..].split(' ').next().unwrap_or("");
    if matches!(
        next,
        "like" | "about" | "around" | "maybe" | "roughly" | "there" | "out" | "in" | "it" | "that"
    ) {
        return None;
    }
    let told = clause(text);
    let told_low = told.to_ascii_lowercase();
    // "I've been bouldering", not "I've been ill": a doing.
    let doing = !opener.contains("been")
        || told_low
            .get(opener.len()..)
            .and_then(|r| r.split(' ').next())
            .is_some_and(|w| w.ends_with("ing"));
    (doing && RATES.iter().any(|r| has_phrase(&told_low, r)))
        .then(|| fact_of(capitalise(&told), MemoryType::Preference, Vec::new()))
}

/// "Arsenal fan, suffering since birth": a team or a band one supports, told without "I'm".
fn fan(text: &str) -> Option<Fact> {
    let told = clause(text);
    let words: Vec<&str> = told.split_whitespace().collect();
    let n = words.len();
    let named = (2..=4).contains(&n)
        && words[n - 1].eq_ignore_ascii_case("fan")
        && words[..n - 1]
            .iter()
            .all(|w| w.chars().next().is_some_and(char::is_uppercase));
    named.then(|| fact_of(format!("I'm a {told}"), MemoryType::Preference, Vec::new()))
}

/// Openers of a home told with "we", a length of time or an upbringing; a capitalised place
/// must follow ("we're in a rush" is no home).
const HOMES: &[&str] = &[
    "we live in ",
    "we've lived in ",
    "we have lived in ",
    "we're in ",
    "we are in ",
    "we've been in ",
    "i've lived in ",
    "ive lived in ",
    "i have lived in ",
    "i've been living in ",
    "i've been in ",
    "ive been in ",
    "been living in ",
    "lived in ",
    "been in ",
    "grew up in ",
    "i grew up in ",
    "born and raised in ",
    "i was raised in ",
];

fn home(text: &str, lower: &str) -> Option<Fact> {
    let opener = HOMES.iter().find(|o| lower.starts_with(**o))?;
    let place = text[opener.len()..].chars().next()?;
    // "been in Leeds about 6 years", "we're in Brighton now": a place, and no day's stay.
    if !place.is_uppercase()
        || ["this weekend", "for the week", "on holiday", "for work", "visiting"]
            .iter()
            .any(|m| has_phrase(lower, m))
    {
        return None;
    }
    let told = clause(text);
    let told = if opener.starts_with("we") || opener.starts_with('i') {
        told
    } else {
        format!("I've {told}")
    };
    Some(fact_of(capitalise(&told), MemoryType::Identity, Vec::new()))
}

fn teaching(text: &str, lower: &str) -> Option<Fact> {
    let opener = [
        "i teach ",
        "i've been teaching ",
        "been teaching ",
        "i'm teaching ",
        "teaching ",
    ]
    .iter()
    .find(|o| lower.starts_with(**o))?;
    let rest = &lower[opener.len()..];
    // "teaching myself Spanish" is learning; "teaching the kids to swim" a doing.
    if !object_ok(rest)
        || ["myself", "the kids", "my ", "him", "her", "them"]
            .iter()
            .any(|w| rest.starts_with(w))
    {
        return None;
    }
    let told = clause(text);
    let told = if opener.starts_with('i') {
        told
    } else {
        format!("I've {told}")
    };
    Some(fact_of(capitalise(&told), MemoryType::Identity, Vec::new()))
}

/// Conditions one has, told as a noun.
const HAD: &[&str] = &[
    "epilepsy",
    "adhd",
    "add",
    "asthma",
    "diabetes",
    "type 1 diabetes",
    "type 2 diabetes",
    "coeliac disease",
    "celiac disease",
    "crohn's",
    "colitis",
    "ms",
    "arthritis",
    "migraines",
    "dyslexia",
    "dyspraxia",
    "autism",
    "ibs",
    "pcos",
    "endometriosis",
    "psoriasis",
    "eczema",
    "tinnitus",
    "hypothyroidism",
    "lupus",
    "fibromyalgia",
    "sleep apnoea",
    "sleep apnea",
    "a pacemaker",
    "a nut allergy",
    "a peanut allergy",
    "insomnia",
    "anxiety",
    "depression",
    "ptsd",
    "ocd",
    "hay fever",
    "hayfever",
    "high blood pressure",
    "low blood pressure",
    "a heart condition",
    "parkinson's",
    "dementia",
    "long covid",
    "gout",
    "glaucoma",
    "a bad back",
    "a bad lower back",
    "a bad knee",
    "bad knees",
    "a dodgy knee",
    "a dodgy back",
    "chronic fatigue",
    "chronic pain",
    // With "I get": "I get carsick in the back", "I get migraines".
    "carsick",
    "car sick",
    "seasick",
    "travel sick",
    "motion sickness",
    "panic attacks",
    "cold sores",
];

fn condition(text: &str, lower: &str) -> Option<Fact> {
    let opener = [
        "i have ",
        "i've got ",
        "ive got ",
        "i've had ",
        "i live with ",
        "i get ",
        "i suffer from ",
    ]
    .iter()
    .find(|o| lower.starts_with(**o))?;
    let rest = &lower[opener.len()..];
    HAD.iter()
        .any(|c| starts_with_word(rest, c))
        .then(|| fact_of(capitalise(&clause(text)), MemoryType::Identity, Vec::new()))
}

/// States of who one is that last: "I'm autistic", "I'm a night owl".
const STATES: &[&str] = &[
    "autistic",
    "dyslexic",
    "neurodivergent",
    "bisexual",
    "bi",
    "gay",
    "lesbian",
    "queer",
    "trans",
    "non-binary",
    "nonbinary",
    "asexual",
    "muslim",
    "christian",
    "jewish",
    "hindu",
    "sikh",
    "buddhist",
    "atheist",
    "catholic",
    "partially sighted",
    "visually impaired",
    "hard of hearing",
    "a wheelchair user",
    "disabled",
    "retired",
    "engaged",
    "married",
    "divorced",
    "widowed",
    "separated",
    "a night owl",
    "a total night owl",
    "a real night owl",
    "an early bird",
    "a morning person",
    "an introvert",
    "an extrovert",
    "introverted",
    "extroverted",
    "teetotal",
    "in the middle of a divorce",
    "going through a divorce",
    "a carer",
    "a twin",
    "a single mum",
    "a single dad",
    "a single parent",
    "a stay at home mum",
    "a stay at home dad",
    "a stay-at-home mum",
    "a stay-at-home dad",
    "a full-time carer",
    "on maternity leave",
    "on paternity leave",
    "on parental leave",
    "on long-term sick leave",
];

/// States told without "I'm": "engaged since June!!", "not a morning person at all".
const BARE_STATES: &[&str] = &[
    "retired",
    "engaged",
    "divorced",
    "widowed",
    "teetotal",
    "single mum",
    "single dad",
    "single parent",
    "total night owl",
    "night owl",
    "not a morning person",
];

fn state(text: &str, lower: &str) -> Option<Fact> {
    for be in ["i'm ", "i am ", "im ", "as a ", "as an "] {
        let Some(rest) = lower.strip_prefix(be) else { continue };
        // "I'm not a morning person": the one denial that is who one is.
        let (rest, not) = match rest.strip_prefix("not ") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        // "as a type 1 diabetic, what snacks ...": a condition too.
        let condition = || {
            let r = ["type 1 ", "type 2 "]
                .iter()
                .find_map(|t| rest.strip_prefix(t))
                .unwrap_or(rest);
            let r = r.strip_prefix("a ").or_else(|| r.strip_prefix("an ")).unwrap_or(r);
            (be.starts_with("as") && CONDITIONS.iter().any(|c| !c.ends_with(" to") && starts_with_word(r, c)))
                .then_some(&"")
        };
        let state = STATES.iter().find(|s| starts_with_word(rest, s)).or_else(condition)?;
        if not && !matches!(*state, "a morning person" | "a night owl" | "an early bird") {
            return None;
        }
        // "as a coeliac, ...": the ground of a question is the teller's.
        let told = if be.starts_with("as") {
            format!("I'm {}", told_state(&text[be.len() - 2..]))
        } else {
            told_state(text)
        };
        return Some(fact_of(capitalise(&told), MemoryType::Identity, Vec::new()));
    }
    let bare = BARE_STATES
        .iter()
        .chain(CONDITIONS.iter().filter(|c| !c.ends_with(" to")))
        .find(|s| starts_with_word(lower, s))?;
    // "retired now after 30 years as a postie", but not "retired the old laptop".
    let after = lower[bare.len()..].trim_start();
    let ok = after.is_empty()
        || [
            "now", "since", "after", "for", "at all", "and", "so", "here", "btw", "lol", "to", "of",
        ]
        .iter()
        .any(|w| starts_with_word(after, w));
    ok.then(|| fact_of(format!("I'm {}", told_state(text)), MemoryType::Identity, Vec::new()))
}

/// A state's own words: its clause up to the next "and", to an intro's "here", or to an
/// emoji ("Single dad of two girls here 🙋 need cheap half-term activities").
fn told_state(text: &str) -> String {
    let told = clause(text);
    let lower = told.to_ascii_lowercase();
    let mut end = told.len();
    for cut in [" and ", " here "] {
        if let Some(at) = lower.find(cut) {
            end = end.min(if cut == " here " { at + " here".len() } else { at });
        }
    }
    if let Some((at, _)) = told
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || " '-/,".contains(*c)))
    {
        end = end.min(at);
    }
    told[..end].trim_end().to_owned()
}

fn language(text: &str, lower: &str) -> Option<Fact> {
    let first = ["is my first language", "is my native language", "is my mother tongue"]
        .iter()
        .any(|p| has_phrase(lower, p));
    let told = first
        || [
            "native ",
            "i'm fluent in ",
            "im fluent in ",
            "i am fluent in ",
            "fluent in ",
        ]
        .iter()
        .any(|o| lower.starts_with(o) && (!o.starts_with("native") || has_phrase(lower, "speaker")));
    told.then(|| fact_of(capitalise(&clause(text)), MemoryType::Identity, Vec::new()))
}

/// How the teller wants answers, told as standing ("No markdown please", "I work best
/// with bullet points", "keep answers under 100 words"), not of the answer at hand
/// ("redo that as bullet points", "skip the emojis in this next bit").
pub(super) fn style(text: &str, lower: &str) -> Option<Fact> {
    const SAID: &[&str] = &[
        "bullet points",
        "markdown",
        "emojis",
        "emoji",
        "tables",
        "spelling",
        "celsius",
        "fahrenheit",
        "metric",
        "imperial",
        "jargon",
        "terminology",
        "blunt",
        "short answers",
        "answers",
        "replies",
        "responses",
    ];
    // Said anywhere, or opening the request: "No markdown please", "keep answers short".
    const STANDING: &[&str] = &[
        "always",
        "from now on",
        "in future",
        "please",
        "pls",
        "plz",
        "prefer",
        "i work best",
        "i hate it when you",
        "i hate when you",
        "i don't like it when you",
        "with me",
        "never",
    ];
    const OPENING: &[&str] = &["no ", "keep ", "use ", "give me ", "skip ", "don't use ", "stop using "];
    const THIS_ONE: &[&str] = &[
        "this one",
        "that one",
        "this next",
        "for this",
        "for that",
        "redo",
        "this email",
        "this bit",
        "that bit",
        "above",
        "this time",
        "this answer",
        "that answer",
        "the answer",
    ];
    // "Convert 350°F to Celsius please": a task of the moment.
    const TASKS: &[&str] = &[
        "convert",
        "translate",
        "calculate",
        "summarise",
        "summarize",
        "rewrite",
        "write",
        "draft",
        "format",
        "turn",
        "redo",
        "make",
    ];
    if TASKS.iter().any(|t| starts_with_word(lower, t)) {
        return None;
    }
    let said = SAID.iter().any(|s| has_phrase(lower, s));
    let standing = STANDING.iter().any(|s| has_phrase(lower, s)) || OPENING.iter().any(|s| lower.starts_with(s));
    let once = THIS_ONE.iter().any(|s| has_phrase(lower, s));
    (said && standing && !once).then(|| fact_of(capitalise(&clause(text)), MemoryType::Preference, Vec::new()))
}

/// A standing wish of how to answer, asked as a question: "can u keep answers under 100
/// words?", "could you stop using emojis?". Kept in the teller's words, without the asking.
pub(super) fn asked_style(sentence: &str) -> Option<Fact> {
    let owned = sentence.replace('\u{2019}', "'");
    let text = owned.trim().trim_end_matches('?').trim_end();
    let lower = text.to_ascii_lowercase();
    let opener = [
        "can you ",
        "could you ",
        "can u ",
        "could u ",
        "would you ",
        "will you ",
        "would u ",
    ]
    .iter()
    .find(|o| lower.starts_with(**o))?;
    let (text, lower) = (&text[opener.len()..], &lower[opener.len()..]);
    let please = lower.strip_prefix("please ").map_or(0, |_| "please ".len());
    style(&text[please..], &lower[please..])
}

#[cfg(test)]
mod tests {
    use super::super::extract;

    fn told(message: &str) -> Vec<String> {
        extract(message).into_iter().map(|f| f.content).collect()
    }

    #[test]
    fn standing_facts_told_in_everyday_forms_are_kept() {
        for (message, fact) in [
            (
                "we're in Bristol now, moved from Cardiff last year",
                "We're in Bristol now",
            ),
            (
                "been in Dublin about ten years and still no tan",
                "I've been in Dublin about ten years",
            ),
            ("I grew up in Cork", "I grew up in Cork"),
            (
                "I teach chemistry at a sixth form college",
                "I teach chemistry at a sixth form college",
            ),
            ("I have coeliac disease so gluten is out", "I have coeliac disease"),
            ("fwiw I'm dyslexic", "I'm dyslexic"),
            ("not a morning person at all lol", "I'm not a morning person at all"),
            ("as a type 2 diabetic, is fruit ok?", "I'm a type 2 diabetic"),
            ("Urdu is my first language", "Urdu is my first language"),
            ("my pronouns are he/him", "My pronouns are he/him"),
            (
                "I play netball every Thursday with work friends",
                "I play netball every Thursday with work friends",
            ),
            ("Celtic fan, obviously", "I'm a Celtic fan"),
            ("No markdown please, it breaks my notes app", "No markdown please"),
            (
                "I work best with bullet points tbh",
                "I work best with bullet points tbh",
            ),
            ("could you stop using emojis?", "Stop using emojis"),
            (
                "can u keep answers under 100 words? I read on my phone",
                "Keep answers under 100 words",
            ),
        ] {
            assert_eq!(told(message), [fact], "{message}");
        }
    }

    #[test]
    fn their_look_alikes_are_not() {
        for message in [
            "we're in a rush, quick recipe?",
            "we're in Lisbon this weekend!",
            "teaching myself Spanish on Duolingo",
            "I have a headache",
            "I'm not autistic but my son is",
            "retired the old laptop finally",
            "redo that as bullet points",
            "skip the emojis in this next bit",
            "I have no idea what markdown is",
            "I'm in recovery after knee surgery",
            "can you redo that in bullet points?",
            "could you give me the answer in Celsius?",
            "can you convert this to metric?",
        ] {
            assert!(told(message).is_empty(), "{message}: {:?}", told(message));
        }
    }
}
