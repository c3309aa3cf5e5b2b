//! Reading a sentence as a [`Statement`]: its subject first (a pronoun, a possessive, a
//! name), then the clause after it (`clause`).

use super::clause::{Clause, phrase_at};
use super::lexicon::{NO_SUBJECT, PERSON_SLOTS, VERBS};
use super::rule_context::RuleContext;
use super::statement::{Statement, Who};
use super::tokens::{Tok, tokenize};

fn pronoun(word: &str) -> Option<(Who, bool)> {
    Some(match word {
        "i" => (Who::User, false),
        "my" => (Who::User, true),
        "we" => (Who::We, false),
        "our" => (Who::We, true),
        "she" => (Who::Pronoun("she"), false),
        "her" => (Who::Pronoun("she"), true),
        "he" => (Who::Pronoun("he"), false),
        "his" => (Who::Pronoun("he"), true),
        "they" => (Who::Pronoun("they"), false),
        "their" => (Who::Pronoun("they"), true),
        _ => return None,
    })
}

/// The subject's key in this context, and the pronoun it was given as.
fn subject_key(who: &Who, ctx: &RuleContext) -> Option<(String, Option<&'static str>)> {
    let names: Vec<String> = ctx
        .subject_names
        .iter()
        .map(|n| n.trim().to_lowercase())
        .filter(|n| !n.is_empty())
        .collect();
    match who {
        // In a group, "I" is whoever said it.
        Who::User => (!ctx.group).then(|| ("user".to_owned(), None)),
        Who::We => Some(("we".to_owned(), None)),
        Who::Pronoun(p @ ("she" | "he")) => (names.len() == 1).then(|| (names[0].clone(), Some(*p))),
        Who::Pronoun(p) => (!names.is_empty()).then(|| {
            let mut sorted = names.clone();
            sorted.sort();
            (sorted.join(" and "), Some(*p))
        }),
        Who::Other(phrase) => {
            let phrase = phrase.strip_prefix("the ").unwrap_or(phrase);
            if phrase == "user" {
                return subject_key(&Who::User, ctx);
            }
            let first = phrase.split(' ').next().unwrap_or_default();
            if NO_SUBJECT.contains(&first) || phrase.is_empty() {
                return None;
            }
            let name = names
                .iter()
                .find(|n| n.as_str() == phrase || n.split(' ').next() == Some(phrase));
            Some((name.cloned().unwrap_or_else(|| phrase.to_owned()), None))
        }
    }
}

/// Whether a predicate starts at `toks[0]`: a copula, a negation, an adverb, a known verb.
fn starts_predicate(toks: &[Tok]) -> bool {
    toks.first().is_some_and(|t| {
        matches!(
            t.low.as_str(),
            "am" | "is"
                | "are"
                | "was"
                | "were"
                | "do"
                | "does"
                | "did"
                | "no"
                | "never"
                | "used"
                | "now"
                | "currently"
                | "still"
        )
    }) || phrase_at(toks, VERBS).is_some()
}

/// Reads a fact with no context: "My favorite color is blue", "Sarah's birthday is in
/// May", "I live in Porto", "User works at Acme". Anything else is `None`.
pub fn parse_statement(text: &str) -> Option<Statement> {
    parse_in(text, &RuleContext::default())
}

/// Reads a fact in its context; `None` when it is not a plain statement of one
/// attribute or its subject is unclear.
pub(super) fn parse_in(text: &str, ctx: &RuleContext) -> Option<Statement> {
    let toks = tokenize(text)?;
    if toks.len() < 2 {
        return None;
    }
    let (who, i, possessive) = if let Some((who, possessive)) = pronoun(&toks[0].low) {
        (who, 1, possessive)
    } else if toks[0].is("the") && toks.get(1).is_some_and(|t| t.is("user")) {
        (Who::User, 2, false)
    } else if let Some(p) = toks
        .iter()
        .take(3)
        .position(|t| t.low.ends_with("'s") && t.low.len() > 2)
    {
        let phrase: Vec<&str> = toks[..=p].iter().map(|t| t.low.as_str()).collect();
        let phrase = phrase.join(" ");
        (Who::Other(phrase.trim_end_matches("'s").to_owned()), p + 1, true)
    } else if toks[0].is("user") {
        (Who::User, 1, false)
    } else {
        let v = (1..toks.len().min(4)).find(|&v| starts_predicate(&toks[v..]))?;
        let phrase: Vec<&str> = toks[..v].iter().map(|t| t.low.as_str()).collect();
        (Who::Other(phrase.join(" ")), v, false)
    };
    let (subject, pronoun) = subject_key(&who, ctx)?;
    let clause = Clause {
        toks: &toks,
        subject,
        pronoun,
    };
    if !possessive {
        return clause.predicate(i, &who);
    }
    clause.attribute(i, &who).or_else(|| {
        // "My wife lives in Lisbon", "Sarah's husband is 40": the possessive names the
        // one person the fact is about.
        let used = person_slot(&toks[i..])?;
        let slot: Vec<&str> = toks[i..i + used].iter().map(|t| t.low.as_str()).collect();
        let slot = slot.join(" ");
        let clause = Clause {
            toks: &toks,
            subject: format!("{}'s {slot}", clause.subject),
            pronoun: None,
        };
        clause.predicate(i + used, &Who::Other(slot))
    })
}

/// How many words at the start of `toks` name one person by their relation: "wife",
/// "best friend", "team lead".
fn person_slot(toks: &[Tok]) -> Option<usize> {
    (1..=2.min(toks.len())).rev().find(|&n| {
        let words: Vec<&str> = toks[..n].iter().map(|t| t.low.as_str()).collect();
        let last = words[n - 1];
        (n == 1 && PERSON_SLOTS.contains(&last)) || (n == 2 && (words == ["best", "friend"] || last == "lead"))
    })
}
