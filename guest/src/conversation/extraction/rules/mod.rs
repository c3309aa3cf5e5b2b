//! The offline extractor: clear first-person statements, a few lasting ones about
//! someone the user names by relation (`people`), what the household has (`having`) and
//! how it lives (`living`), and nothing else. No language model, so no understanding;
//! precision comes from refusing: a sentence that asks from its start, quotes someone or
//! is framed as a joke or a game yields nothing; a supposition, a doubt, the past or the
//! moment yields nothing from where it is said; a negation yields nothing unless it is the
//! fact (a dislike, a keeping-from, a lack). What is left must open with one of a few
//! statement forms ("I'm allergic to", "my wife's name is", "I live in", "I prefer",
//! "we have", "remember that"), and the fact is that clause, in the user's own words.
//!
//! `words` holds the word lists; `sentences` cuts a message into sentences, keeps what is
//! told before a closing question ("I have diabetes, any tips?"), cuts a sentence into the
//! clauses the teller opens ("I live in Leeds and I work at the council" is two), and each
//! down to its fact's clause.

mod amounts;
mod having;
mod living;
mod people;
mod pursuits;
mod sentences;
mod standing;
#[cfg(test)]
mod tests;
mod words;

use super::{Fact, RULE_CONFIDENCE};
use crate::memory_type::{MemoryType, classify};
use sentences::{
    capitalise, clause, has_phrase, negated, parts, phrase_at, sentences, starts_with_word, strip_leads,
    told_before_question, without_softener,
};
use words::{
    ASIDES, CONDITIONS, COURSES, COURTESIES, DEICTIC, DIETS, FRAMES, HEDGES, MOMENTS, NOT_A_ROLE, NOT_NAMES, PLANS,
    POINTERS, RELATIONS, SCENES, blockers, living::LANGUAGES,
};

/// The clear first-person facts in a user's message.
pub fn extract(message: &str) -> Vec<Fact> {
    let mut facts = Vec::new();
    let whole = message.to_ascii_lowercase();
    if SCENES.iter().any(|s| has_phrase(&whole, s)) {
        return facts;
    }
    for sentence in sentences(message) {
        let Some(sentence) = told_before_question(sentence) else {
            // "can u keep answers under 100 words?": a wish, asked.
            if let Some(fact) = standing::asked_style(sentence)
                && !facts
                    .iter()
                    .any(|f: &Fact| f.content.eq_ignore_ascii_case(&fact.content))
            {
                facts.push(fact);
            }
            continue;
        };
        // A quotation or a frame anywhere in the sentence: none of its parts is told
        // ("Translate 'my name is Carlos and I love football'").
        let lower = sentence.to_ascii_lowercase();
        if sentence.contains(['"', '\u{201C}', '\u{201D}', '\u{2018}'])
            || lower.trim_start().starts_with('\'')
            || lower.contains(" '")
            || FRAMES.iter().any(|b| has_phrase(&lower, b))
        {
            continue;
        }
        // A hedge before any blocker doubts the whole sentence.
        let first = |list: &mut dyn Iterator<Item = &str>| list.filter_map(|b| phrase_at(&lower, b)).min();
        if let Some(hedge) = first(&mut HEDGES.iter().copied())
            && first(&mut blockers()).is_none_or(|b| hedge < b)
        {
            continue;
        }
        // A supposition, a doubt or a plan holds from where it is said: the parts told
        // before it stand ("I'm a nurse and I'm thinking about retraining").
        let told_before = facts.len();
        for part in parts(sentence) {
            let lower = part.to_ascii_lowercase();
            let blocked = blockers()
                .chain(HEDGES.iter().copied())
                .filter_map(|b| {
                    if b == "going to" {
                        pursuits::going_to_a_plan(part, &lower)
                    } else {
                        phrase_at(&lower, b)
                    }
                })
                .min();
            let told = match blocked {
                None => read_sentence(part),
                Some(at) => told_before_blocker(part, &lower, at),
            };
            if let Some(fact) = told
                && !facts
                    .iter()
                    .any(|f: &Fact| f.content.eq_ignore_ascii_case(&fact.content))
            {
                facts.push(fact);
            }
            if blocked.is_some() {
                break;
            }
        }
        // Someone named in passing, in a sentence that told no fact: "a gift idea for my
        // wife Laura". Told beside a fact ("just got engaged to my girlfriend Chloe!!"),
        // the name is that fact's.
        let told_here = facts.len() > told_before;
        for fact in named_in_passing(sentence).into_iter().filter(|_| !told_here) {
            let name = fact.content.rsplit(' ').next().unwrap_or("").to_ascii_lowercase();
            if !facts.iter().any(|f| f.content.to_ascii_lowercase().contains(&name)) {
                facts.push(fact);
            }
        }
        // "From now on please keep your answers short, I prefer concise replies": one wish
        // told twice, kept in the teller's words of taste.
        if [", i prefer ", ", i like ", ", i'd prefer "]
            .iter()
            .any(|p| lower.contains(p))
        {
            let mut k = told_before;
            while k < facts.len() {
                let f = &facts[k];
                let taste = ["I prefer", "I like", "I'd prefer"]
                    .iter()
                    .any(|t| f.content.starts_with(t));
                if f.memory_type == MemoryType::Preference && !taste && facts.len() - told_before > 1 {
                    facts.remove(k);
                } else {
                    k += 1;
                }
            }
        }
    }
    facts.truncate(super::MAX_FACTS_PER_EXCHANGE);
    facts
}

/// What a part blocked at `at` still tells. A moment beside a standing amount is no
/// passing state ("I'm 84kg at the moment"), and a plan joined after a fact leaves it told
/// ("I'm 84kg and want to start lifting").
fn told_before_blocker(part: &str, lower: &str, at: usize) -> Option<Fact> {
    let moment = MOMENTS.iter().any(|m| phrase_at(lower, m) == Some(at));
    if moment {
        // The amount's clause, up to a plan or a supposition after the moment.
        let end = blockers()
            .chain(HEDGES.iter().copied())
            .filter(|b| !MOMENTS.contains(b))
            .filter_map(|b| phrase_at(lower, b))
            .min()
            .unwrap_or(lower.len());
        let owned = part[..end].replace('\u{2019}', "'");
        // Without the joiner that led to the plan: "I'm 84kg at the moment and".
        let mut text = owned.trim();
        while let Some(shorter) = [" and", " but", " so", ",", " -"]
            .iter()
            .find_map(|j| text.strip_suffix(j))
        {
            text = shorter.trim_end();
        }
        let low = text.to_ascii_lowercase();
        let start = strip_leads(&low);
        if let Some(fact) = amounts::amount(&text[start..], &low[start..]) {
            return Some(fact);
        }
    }
    // A courtesy is no condition of what was told: "bullet points if possible", "I'm
    // vegan, if that matters".
    let courtesy = ASIDES.iter().any(|a| lower[at..].starts_with(a));
    if !courtesy && !PLANS.iter().any(|p| phrase_at(lower, p) == Some(at)) {
        return None;
    }
    // The last joiner before the plan closes what was told.
    let cut = [" and ", ", ", " - ", " but ", " so "]
        .iter()
        .filter_map(|j| lower[..at].rfind(j))
        .max()?;
    // The plan is the part's first blocker, so no moment comes before it.
    read_sentence(&part[..cut])
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
    // `extract` has judged frames, hedges and blockers: what reaches here is told.
    let lower = sentence.to_ascii_lowercase();
    let start = strip_leads(&lower);
    let (text, lower) = (&sentence[start..], &lower[start..]);
    // "I just moved to Glasgow", "my wife also works at Google": the readers' forms have no
    // place for a word of time or focus after the subject, and the fact is the same without.
    if let Some(plain) = without_softener(text) {
        return read_sentence(&plain);
    }
    // "been vegan about 5 years now": chat drops the "I've".
    if lower.starts_with("been ") {
        return read_sentence(&format!("I've {text}"));
    }
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

    // How the teller wants answers, denials included: "No markdown please".
    if let Some(fact) = standing::style(text, lower) {
        return Some(fact);
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
            return taste_ok(rest).then(|| fact_of(capitalise(&clause(text)), MemoryType::Preference, Vec::new()));
        }
    }
    // "I'm 84kg at the moment", "I earn 65k", "I'm on 50mg of sertraline". A denial in a
    // later conjunct is not the amount's: "I'm 6'2 and can never find trousers".
    let first_conjunct = clause(lower);
    let first_conjunct = first_conjunct.split(" and ").next().unwrap_or("");
    if !sentences::negated(first_conjunct)
        && let Some(fact) = amounts::amount(text, lower)
    {
        return Some(fact);
    }
    // How the teller lives and what the household has, denials included.
    if let Some(fact) = living::living(text, lower, negated).or_else(|| having::having(text, lower, negated)) {
        return Some(fact);
    }
    // A home told with "we" or a length of time, teaching, a condition had, a state of
    // who one is ("not a morning person" the one denial), a first language.
    if let Some(fact) = standing::standing(text, lower).or_else(|| pursuits::pursuit(text, lower)) {
        return Some(fact);
    }
    // A need of someone's is told with a denial: "my son can't eat nuts".
    if negated {
        return people::about_someone(text, lower).filter(|_| people::a_need_denied(lower));
    }

    // Names.
    for (opener, phrase) in [
        ("my name is ", "My name is"),
        ("my name's ", "My name is"),
        ("call me ", "I go by"),
        ("i go by ", "I go by"),
    ] {
        if lower.starts_with(opener) {
            let name = name_at(&text[opener.len()..])?;
            return Some(fact_of(format!("{phrase} {name}"), MemoryType::Identity, Vec::new()));
        }
    }
    if let Some(fact) = relation(text, lower).or_else(|| people::about_someone(text, lower)) {
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
        "i'm working as ",
        "i am working as ",
        "i'm working at ",
        "i am working at ",
        "i'm working for ",
        "i am working for ",
        "i'm studying ",
        "i am studying ",
        "my birthday is ",
        "i was born on ",
        "i was born in ",
        "i'm originally from ",
        "i am originally from ",
        "i speak ",
        "i study ",
        // A job or a diagnosis that began: "I've started working as a paramedic".
        "i've started working as ",
        "i've started working at ",
        "i've started working for ",
        "i started working as ",
        "i started working at ",
        "i started working for ",
        "i was diagnosed with ",
        "i got diagnosed with ",
        "i've been diagnosed with ",
        "i have been diagnosed with ",
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
            // "I hate to ask, but ...": a courtesy, not a taste.
            let courtesy = COURTESIES.iter().any(|c| starts_with_word(rest, c));
            let ok = if t == MemoryType::Preference {
                taste_ok(rest)
            } else {
                object_ok(rest)
            };
            return (ok && !courtesy && (t != MemoryType::Identity || rest.len() >= 2))
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
        // "I'm severely allergic to shellfish", "I'm mostly vegetarian".
        let rest = match rest.split_once(' ') {
            Some((adverb, after)) if adverb.len() > 4 && adverb.ends_with("ly") => after,
            _ => rest,
        };
        // "I'm doing a PhD in marine biology", "I'm doing my masters at Leeds".
        if let Some(course) = ["doing a ", "doing an ", "doing my "]
            .iter()
            .find_map(|d| rest.strip_prefix(d))
            // Not "a course of antibiotics".
            && COURSES
                .iter()
                .any(|c| starts_with_word(course, c) && !course[c.len()..].trim_start().starts_with("of "))
        {
            return Some(fact_of(capitalise(&clause(text)), MemoryType::Identity, Vec::new()));
        }
        // "I'm type 1 diabetic".
        let rest = ["type 1 ", "type 2 ", "type one ", "type two "]
            .iter()
            .find_map(|t| rest.strip_prefix(t))
            .filter(|r| CONDITIONS.iter().any(|c| starts_with_word(r, c)))
            .unwrap_or(rest);
        // "I am pure vegetarian", "I'm strict vegan".
        let rest = ["pure ", "strict ", "full ", "fully ", "mostly "]
            .iter()
            .find_map(|a| rest.strip_prefix(a))
            .filter(|r| DIETS.iter().any(|d| starts_with_word(r, d)))
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
            // "I'm a secondary school maths teacher and marking is killing me": the role's
            // clause ends at "and".
            let fact = clause(text);
            let fact = match fact.to_ascii_lowercase().find(" and ") {
                Some(at) if fact[..at].split_whitespace().count() >= 3 => fact[..at].to_owned(),
                _ => fact,
            };
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
    // "my twins are called Ava and Isla": the names, as told.
    if [" are called ", " are named "].iter().any(|l| after.starts_with(l)) {
        let fact = clause(text);
        let named = fact
            .split_whitespace()
            .nth(4)
            .is_some_and(|w| w.starts_with(char::is_uppercase));
        return named.then(|| fact_of(capitalise(&fact), MemoryType::Relationship, vec![format!("my {rel}")]));
    }
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

/// Someone of the teller's named in passing, after the sentence's start: "a gift idea for
/// my wife Laura", "Rome in June, with my partner Ben". A name must follow the relation at
/// once ("my son Leo's teacher" names Leo).
fn named_in_passing(sentence: &str) -> Vec<Fact> {
    let lower = sentence.to_ascii_lowercase();
    let mut out = Vec::new();
    // At the start, `relation` has read it: "my boss Tom is annoying" names no one in
    // passing, it describes.
    let start = strip_leads(&lower);
    // "just got engaged to my girlfriend Chloe!!": the relation itself changes.
    let changes = [
        "engaged",
        "married",
        "broke up",
        "split up",
        "divorced",
        "separated",
        "passed away",
        "died",
    ];
    if changes.iter().any(|c| has_phrase(&lower, c)) {
        return Vec::new();
    }
    for (at, _) in lower.match_indices("my ") {
        if at <= start || lower[..at].chars().next_back().is_some_and(char::is_alphanumeric) {
            continue;
        }
        let rest = &lower[at + 3..];
        let Some(rel) = RELATIONS.iter().find(|r| starts_with_word(rest, r)) else {
            continue;
        };
        let from = at + 3 + rel.len();
        if !sentence[from..].starts_with(' ') {
            continue;
        }
        let Some(name) = name_at(&sentence[from + 1..]) else {
            continue;
        };
        let name = name.trim_end_matches("'s").to_owned();
        if name.contains(' ') || NOT_NAMES.contains(&name.to_ascii_lowercase().as_str()) {
            continue;
        }
        out.push(fact_of(
            format!("My {rel}'s name is {name}"),
            MemoryType::Relationship,
            vec![format!("my {rel} {name}")],
        ));
    }
    out
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
    // "I'm Irish", "my husband is Greek", "I'm Hungry": a people or a state, not a name.
    let first = words[0].to_lowercase();
    if NOT_NAMES.contains(&first.as_str()) || LANGUAGES.contains(&first.as_str()) {
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

/// Whether the object of a taste is a thing of the teller's life, not of the talk: "the
/// ending of this story" and "your second draft" are the talk's.
fn taste_ok(rest: &str) -> bool {
    let object = clause(rest);
    object_ok(rest) && !POINTERS.iter().any(|p| has_phrase(&object, p))
}

/// Whether the object of a taste or a place is a thing, not a pointer into the talk.
fn object_ok(rest: &str) -> bool {
    let rest = rest.trim_start();
    rest.chars().next().is_some_and(char::is_alphanumeric) && !DEICTIC.iter().any(|d| starts_with_word(rest, d))
}
