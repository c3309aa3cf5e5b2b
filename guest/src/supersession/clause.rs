//! Reading one clause once its subject is known: an attribute stated after a possessive
//! ("my favorite color is blue") or a predicate after the subject ("I live in Porto").

use super::lexicon::{
    COPULA_PHRASES, EVENTS, FIRST_WORDS_OF_PROPERTIES, MANY_OF, PERSON_SLOTS, PLACES, PROPERTIES, VERBS,
};
use super::statement::{Polarity, Shape, Statement, Valued, Who};
use super::tokens::Tok;
use super::values::{Value, read_value};

/// The longest form in `table` that `toks` start with: (attribute, valued, words used).
pub(super) fn phrase_at(toks: &[Tok], table: &[(&[&str], &str, Valued)]) -> Option<(String, Valued, usize)> {
    let mut best: Option<(String, Valued, usize)> = None;
    for (forms, attribute, valued) in table {
        for form in *forms {
            let words: Vec<&str> = form.split(' ').collect();
            let matches = words.len() <= toks.len() && words.iter().zip(toks).all(|(w, t)| t.is(w));
            if matches && best.as_ref().is_none_or(|b| words.len() > b.2) {
                best = Some(((*attribute).to_owned(), *valued, words.len()));
            }
        }
    }
    best
}

/// How many values an attribute written after a possessive holds, or `None` when it is
/// not an attribute but a thing described ("my car is fast").
fn property(words: &[&str], lead: bool) -> Option<Valued> {
    let last = *words.last()?;
    let first = words[0];
    // "my brother's name": which brother?
    if words
        .iter()
        .any(|w| w.strip_suffix("'s").is_some_and(|owner| MANY_OF.contains(&owner)))
    {
        return None;
    }
    if lead {
        // "Our office is in Porto"; but "my car is in the garage" is no attribute.
        return PLACES.contains(&last).then_some(Valued::Single);
    }
    if PERSON_SLOTS.contains(&last) {
        return Some(Valued::Named);
    }
    if words.len() == 2 && first == "best" && last == "friend" {
        return Some(Valued::Named);
    }
    if PROPERTIES.contains(&last) || FIRST_WORDS_OF_PROPERTIES.contains(&first) {
        return Some(Valued::Single);
    }
    None
}

/// Skips "not", "no longer", "never", "do not", "does not", "used to" at `toks[i..]`.
fn polarity_at(toks: &[Tok], i: &mut usize) -> Option<Polarity> {
    let at = |k: usize| toks.get(*i + k).map(|t| t.low.as_str());
    let (polarity, used) = match (at(0), at(1)) {
        (Some("do" | "does"), Some("not")) => (Polarity::Negative, 2),
        (Some("no"), Some("longer")) => (Polarity::Negative, 2),
        (Some("not"), Some("anymore")) => (Polarity::Negative, 2),
        (Some("not" | "never"), _) => (Polarity::Negative, 1),
        (Some("used"), Some("to")) => (Polarity::Former, 2),
        // Past and perfect negations say nothing about now.
        (Some("did" | "have" | "has" | "was" | "were"), Some("not")) => return None,
        _ => (Polarity::Positive, 0),
    };
    *i += used;
    Some(polarity)
}

fn skip_adverbs(toks: &[Tok], i: &mut usize) {
    while toks
        .get(*i)
        .is_some_and(|t| matches!(t.low.as_str(), "now" | "currently" | "still" | "actually" | "really"))
    {
        *i += 1;
    }
}

/// The event an attribute or subject names: "standup" in "standup", "standup time",
/// "the standup".
fn event_of(words: &[&str]) -> Option<String> {
    let words = words.strip_prefix(&["the"]).unwrap_or(words);
    let words = match words {
        [head @ .., "time"] if !head.is_empty() => head,
        _ => words,
    };
    let last = words.last()?;
    (EVENTS.contains(last) && words.len() <= 3).then(|| words.join(" "))
}

/// One sentence, with its subject read.
pub(super) struct Clause<'a> {
    pub(super) toks: &'a [Tok],
    pub(super) subject: String,
    pub(super) pronoun: Option<&'static str>,
}

impl Clause<'_> {
    fn finish(
        &self,
        attribute: String,
        value: Value,
        valued: Valued,
        polarity: Polarity,
        start: usize,
        subject: Option<String>,
    ) -> Option<Statement> {
        // "Sarah, my wife, lives in Lisbon": an aside before the value is too much to read.
        if self.toks[..start].iter().any(|t| t.comma) {
            return None;
        }
        let (attribute, qualifier, valued) = match (valued, value.qualifier.split_once(' ')) {
            // "I use vim as my editor": one editor at a time.
            (Valued::Multi, Some((kw @ ("as" | "for"), role))) if attribute == "uses" => {
                (format!("uses {kw} {role}"), String::new(), Valued::Single)
            }
            _ => (attribute, value.qualifier.clone(), valued),
        };
        Some(Statement {
            subject: subject.unwrap_or_else(|| self.subject.clone()),
            attribute,
            value: value.text,
            qualifier,
            polarity,
            shape: value.shape,
            valued,
            pronoun: self.pronoun,
        })
    }

    /// "<possessor> <attribute> is|has changed to <value>", from the attribute at `i`.
    pub(super) fn attribute(&self, i: usize, who: &Who) -> Option<Statement> {
        let toks = self.toks;
        let (c, used, plural) = (i + 1..toks.len().min(i + 5)).find_map(|c| {
            let at = |k: usize| toks.get(c + k).map(|t| t.low.as_str());
            match (at(0), at(1), at(2)) {
                (Some("is"), _, _) => Some((c, 1, false)),
                (Some("are"), _, _) => Some((c, 1, true)),
                (Some("has"), Some("changed"), Some("to")) => Some((c, 3, false)),
                (Some("changed"), Some("to"), _) => Some((c, 2, false)),
                // Past: what was true then may still be true of then.
                (Some("was" | "were"), _, _) => Some((c, 0, false)),
                _ => None,
            }
        })?;
        if used == 0 {
            return None;
        }
        let words: Vec<&str> = toks[i..c]
            .iter()
            .map(|t| t.low.as_str())
            .skip_while(|w| matches!(*w, "current" | "new" | "present"))
            .collect();
        if words.is_empty() || words.len() > 4 {
            return None;
        }
        // Plural attributes are usually lists, of which a statement may name a part.
        if plural && words.last().is_none_or(|w| *w != "hours") {
            return None;
        }
        let mut j = c + used;
        skip_adverbs(toks, &mut j);
        let polarity = polarity_at(toks, &mut j)?;
        let mut value = read_value(&toks[j..], true)?;
        // "on March 3" and "March 3", "at 9am" and "9am" are one date, one time.
        if value.when && matches!(value.lead.as_deref(), Some("on" | "at" | "in")) {
            value.lead = None;
        }
        // "Our standup is at 9am", "Our standup time is 9am", "My flight is at 6pm".
        if let Some(event) = event_of(&words)
            && value.when
            && value.lead.is_none()
        {
            // The group's standup is the standup of the group's scope.
            return if *who == Who::We {
                self.finish("when".into(), value, Valued::Single, polarity, c, Some(event))
            } else {
                self.finish(format!("{event} when"), value, Valued::Single, polarity, c, None)
            };
        }
        let valued = property(&words, value.lead.is_some())?;
        // "My wife is Sarah" is about who she is; "My wife is 34" is about her.
        if valued == Valued::Named && value.shape != Shape::Proper {
            return None;
        }
        let mut attribute = words.join(" ");
        if let Some(lead) = &value.lead {
            attribute = format!("{attribute} {lead}");
        }
        self.finish(attribute, value, valued, polarity, c, None)
    }

    /// "<subject> [not] <verb> <value>" or "<subject> is <value>", from the verb at `i`.
    pub(super) fn predicate(&self, mut i: usize, who: &Who) -> Option<Statement> {
        let toks = self.toks;
        skip_adverbs(toks, &mut i);
        let polarity = polarity_at(toks, &mut i)?;
        skip_adverbs(toks, &mut i);
        let verb_at = i;
        if !toks
            .get(i)
            .is_some_and(|t| matches!(t.low.as_str(), "am" | "is" | "are"))
        {
            let (attribute, valued, used) = phrase_at(&toks[i..], VERBS)?;
            let value = read_value(&toks[i + used..], false)?;
            // "I hate dogs" denies "I like dogs"; "I don't hate dogs" says little.
            let (attribute, polarity) = match (attribute.as_str(), polarity) {
                ("dislikes", Polarity::Positive) => ("likes".to_owned(), Polarity::Negative),
                ("dislikes", _) => return None,
                _ => (attribute, polarity),
            };
            return self.finish(attribute, value, valued, polarity, verb_at, None);
        }
        let mut j = i + 1;
        skip_adverbs(toks, &mut j);
        let polarity = match polarity_at(toks, &mut j)? {
            Polarity::Positive => polarity,
            other if polarity == Polarity::Positive => other,
            _ => return None,
        };
        skip_adverbs(toks, &mut j);
        if let Some((attribute, valued, used)) = phrase_at(&toks[j..], COPULA_PHRASES) {
            let value = read_value(&toks[j + used..], false)?;
            return self.finish(attribute, value, valued, polarity, verb_at, None);
        }
        let value = read_value(&toks[j..], true)?;
        // "I am 34", "I'm 35 years old", "The rent is 1200 euros".
        if value.shape == Shape::Number && value.lead.is_none() && value.qualifier.is_empty() {
            let (n, unit) = value.text.split_once(' ').unwrap_or((value.text.as_str(), ""));
            let unit = match unit {
                "years old" | "years" | "year old" | "yo" | "yrs old" => "",
                u => u,
            };
            let value = Value {
                text: n.to_owned(),
                ..value
            };
            let attribute = format!("is {unit}").trim().to_owned();
            return self.finish(attribute, value, Valued::Single, polarity, verb_at, None);
        }
        // "Standup is at 9am", "The meeting is on Monday", "The deadline is Friday".
        if let Who::Other(phrase) = who
            && let Some(event) = event_of(&phrase.split(' ').collect::<Vec<_>>())
            && value.when
            && matches!(value.lead.as_deref(), None | Some("at" | "on"))
        {
            let mut value = value;
            value.lead = None;
            let subject =
                (self.subject == *phrase || self.subject == phrase.trim_start_matches("the ")).then_some(event);
            return self.finish("when".to_owned(), value, Valued::Single, polarity, verb_at, subject);
        }
        None
    }
}
