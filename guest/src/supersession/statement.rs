//! A fact read as "subject's attribute is value", how an older one is replaced by a newer
//! one, and reading a sentence's subject before its clause.

use super::RuleContext;
use super::clause::{Clause, phrase_at};
use super::lexicon::{NO_SUBJECT, PERSON_SLOTS, VERBS};
use super::regions::is_region;
use super::tokens::{Tok, tokenize};
use super::values::{refines, singular};

/// Whether the fact holds, no longer holds, or held once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Polarity {
    Positive,
    /// "I don't live in Lisbon", "My favorite color is no longer red".
    Negative,
    /// "I used to live in Lisbon": true once, not now.
    Former,
}

/// The kind of value, so that a time never replaces a place and a name never replaces a
/// description ("My boss is Mike" and "My boss is strict" are both true).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    Time,
    Number,
    /// Starts with a capital: "Lisbon", "Acme".
    Proper,
    /// "a Honda", "an apartment".
    Indefinite,
    /// "the suburbs".
    Definite,
    /// "my parents' house".
    Possessive,
    Plain,
}

/// How many values an attribute holds at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Valued {
    /// One at a time: where one lives, a favorite color.
    Single,
    /// One person at a time, named: "My boss is Mike". Descriptions are many.
    Named,
    /// Many at a time: likes, languages, places visited. Only a flip of the same value
    /// ("I like dogs", then "I don't like dogs") replaces.
    Multi,
    /// Preferences replace only within one kind of thing: "window seats" and "aisle seats".
    Prefer,
    /// Possessions: many, but a new count of the same thing replaces ("2 kids", "3 kids").
    Count,
    /// One field of work ("finance", "marketing"); a capitalized value may as well be a
    /// place, and one works in a field and in a city at once.
    Field,
}

/// A fact read as "subject's attribute is value".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// "user", "we", a subject's name, or the thing talked about.
    pub subject: String,
    /// "favorite color", "lives in", "likes", "standup at".
    pub attribute: String,
    /// The value, lowercased, without articles: "blue", "porto", "9am".
    pub value: String,
    /// What limits the fact: "in the summer", "at the hospital". Facts with different
    /// qualifiers can both be true.
    pub(super) qualifier: String,
    pub(super) polarity: Polarity,
    pub(super) shape: Shape,
    pub(super) valued: Valued,
    /// The pronoun the subject was given as, if any: "she" and "he" are never one person.
    pub(super) pronoun: Option<&'static str>,
}

impl Statement {
    /// Whether `self` (older) is replaced by `new`.
    pub(super) fn replaced_by(&self, new: &Statement) -> bool {
        if self.subject != new.subject
            || self.attribute != new.attribute
            || self.qualifier != new.qualifier
            || self.valued != new.valued
        {
            return false;
        }
        if let (Some(a), Some(b)) = (self.pronoun, new.pronoun)
            && a != b
        {
            return false;
        }
        if self.value == new.value {
            // The same value, now denied: the old fact is no longer true.
            return matches!(
                (self.polarity, new.polarity),
                (Polarity::Positive, Polarity::Negative)
                    | (Polarity::Negative, Polarity::Positive)
                    | (Polarity::Positive, Polarity::Former)
            );
        }
        // "I no longer live in Lisbon" and "I live in Porto" are both true.
        if self.polarity != Polarity::Positive || new.polarity != Polarity::Positive || self.shape != new.shape {
            return false;
        }
        // "Lisbon" after "Portugal", or "Portugal" after "Lisbon": both can be true.
        if refines(&self.value, &new.value) || is_region(&self.value) != is_region(&new.value) {
            return false;
        }
        match self.valued {
            Valued::Single => true,
            Valued::Named => self.shape == Shape::Proper,
            Valued::Field => self.shape == Shape::Plain,
            Valued::Multi => false,
            Valued::Prefer => {
                let (a, b): (Vec<&str>, Vec<&str>) = (self.value.split(' ').collect(), new.value.split(' ').collect());
                a.len() >= 2 && b.len() >= 2 && a.last() == b.last()
            }
            Valued::Count => {
                self.shape == Shape::Number && {
                    let noun = |v: &str| v.split_once(' ').map(|(_, n)| singular(n));
                    noun(&self.value).is_some() && noun(&self.value) == noun(&new.value)
                }
            }
        }
    }
}

impl Statement {
    /// The statement's block: two statements whose blocks differ never replace one
    /// another, so a bulk import compares a new fact only with the facts in its block.
    /// It is [`Statement::replaced_by`]'s equalities, plus the part of the value each kind
    /// of attribute compares: the whole value where only a flip of the same value
    /// replaces, the last word for preferences, the counted noun for possessions.
    pub fn block(&self) -> String {
        let value = match self.valued {
            Valued::Single | Valued::Named | Valued::Field => String::new(),
            Valued::Multi => self.value.clone(),
            Valued::Prefer => self.value.rsplit(' ').next().unwrap_or_default().to_owned(),
            Valued::Count => match self.value.split_once(' ') {
                Some((_, noun)) => singular(noun),
                None => self.value.clone(),
            },
        };
        // The unit separator cannot occur in a tokenized word.
        format!(
            "{}\u{1f}{}\u{1f}{}\u{1f}{:?}\u{1f}{value}",
            self.subject, self.attribute, self.qualifier, self.valued
        )
    }
}

/// Who a fact is about, before the context says who that is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Who {
    User,
    We,
    Pronoun(&'static str),
    Other(String),
}

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
