//! Reading the value of a fact: its words, what limits it, and its shape (a clock time,
//! a number, a date, a name), so that only values of one kind are compared.

use super::lexicon::{CLAUSE_VERBS, LEADS, QUALIFIERS, TIME_UNITS};
use super::statement::Shape;
use super::tokens::Tok;
use crate::entities::{MONTHS, WEEKDAYS};

/// A value as read: its words, what limits it, its shape, the preposition it started with.
pub(super) struct Value {
    pub(super) text: String,
    pub(super) qualifier: String,
    pub(super) shape: Shape,
    pub(super) lead: Option<String>,
    /// Reads as a time or a date.
    pub(super) when: bool,
}

/// Reads the words after the verb. `leads` allows a leading preposition (after a copula).
pub(super) fn read_value(toks: &[Tok], leads: bool) -> Option<Value> {
    let mut words: Vec<&Tok> = toks.iter().collect();
    while words
        .first()
        .is_some_and(|t| matches!(t.low.as_str(), "now" | "currently" | "still" | "actually"))
    {
        words.remove(0);
    }
    loop {
        let n = words.len();
        let last = words.last().map(|t| t.low.as_str());
        if n >= 2
            && matches!(
                (words[n - 2].low.as_str(), words[n - 1].low.as_str()),
                ("any", "more") | ("these", "days") | ("at", "present") | ("for", "now") | ("right", "now")
            )
        {
            words.truncate(n - 2);
        } else if matches!(
            last,
            Some("now" | "anymore" | "nowadays" | "currently" | "again" | "today" | "instead")
        ) {
            words.pop();
        } else {
            break;
        }
    }
    // "since 2020", "for five years": how long, not what.
    if let Some(k) = words.iter().skip(1).position(|t| t.is("since")) {
        words.truncate(k + 1);
    }
    if let Some(k) = words.iter().enumerate().skip(1).position(|(k, t)| {
        t.is("for") && words.len() - k <= 4 && words.last().is_some_and(|l| TIME_UNITS.contains(&l.low.as_str()))
    }) {
        words.truncate(k + 1);
    }
    if words.is_empty() || words.iter().any(|t| CLAUSE_VERBS.contains(&t.low.as_str())) {
        return None;
    }
    let mut lead = None;
    if leads && LEADS.contains(&words[0].low.as_str()) {
        lead = Some(words[0].low.clone());
        words.remove(0);
    }
    if words.is_empty() {
        return None;
    }
    let split = words
        .iter()
        .skip(1)
        .position(|t| QUALIFIERS.contains(&t.low.as_str()))
        .map_or(words.len(), |k| k + 1);
    let (head, rest) = words.split_at(split);
    if head.len() > 6 {
        return None;
    }
    let lows: Vec<&str> = head.iter().map(|t| t.low.as_str()).collect();
    let qualifier = rest.iter().map(|t| t.low.as_str()).collect::<Vec<_>>().join(" ");
    let first = lows[0];
    let (shape, text) = if let Some(time) = clock(&lows) {
        (Shape::Time, time)
    } else if let Some(n) = number(first) {
        let unit: Vec<&str> = lows[1..].to_vec();
        (
            Shape::Number,
            std::iter::once(n.as_str()).chain(unit).collect::<Vec<_>>().join(" "),
        )
    } else {
        let shape = match first {
            "a" | "an" => Shape::Indefinite,
            "the" => Shape::Definite,
            "my" | "our" | "your" | "his" | "her" | "their" => Shape::Possessive,
            _ if head[0].cap => Shape::Proper,
            _ => Shape::Plain,
        };
        let words: Vec<&str> = lows
            .iter()
            .copied()
            .skip(usize::from(matches!(first, "a" | "an" | "the")))
            .collect();
        if words.is_empty() {
            return None;
        }
        (shape, words.join(" "))
    };
    let when = shape == Shape::Time
        || lows
            .iter()
            .any(|w| WEEKDAYS.contains(w) || MONTHS.contains(w) || is_ordinal(w));
    Some(Value {
        text,
        qualifier,
        shape,
        lead,
        when,
    })
}

/// Whether one value only adds words to the other ("Lisbon", "Lisbon Portugal"): the
/// longer one refines, it does not contradict.
pub(super) fn refines(a: &str, b: &str) -> bool {
    let wa: Vec<&str> = a.split(' ').collect();
    let wb: Vec<&str> = b.split(' ').collect();
    wa.iter().all(|w| wb.contains(w)) || wb.iter().all(|w| wa.contains(w))
}

pub(super) fn singular(noun: &str) -> String {
    let n = noun.trim();
    match n.strip_suffix('s') {
        Some(stem) if stem.len() >= 2 && !stem.ends_with('s') => stem.to_owned(),
        _ => n.to_owned(),
    }
}

/// "3rd", "15th": a day of a month.
fn is_ordinal(word: &str) -> bool {
    ["st", "nd", "rd", "th"].iter().any(|suffix| {
        word.strip_suffix(suffix)
            .is_some_and(|d| !d.is_empty() && d.len() <= 2 && d.chars().all(|c| c.is_ascii_digit()))
    })
}

/// A number written as digits (with a currency sign, separators, "k" or "%") or a word
/// up to twelve, canonically.
fn number(word: &str) -> Option<String> {
    if let Some(n) = crate::entities::number_word(word) {
        return Some(n.to_string());
    }
    let body = word.trim_start_matches(['$', '€', '£']);
    let body = body
        .strip_suffix('k')
        .or_else(|| body.strip_suffix('%'))
        .unwrap_or(body);
    let digits = body.chars().filter(char::is_ascii_digit).count();
    (digits > 0 && body.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '.')).then(|| word.replace(',', ""))
}

/// A clock time, canonically ("9am", "9:30pm", "14:00"), from one or two words.
fn clock(words: &[&str]) -> Option<String> {
    let joined = match words {
        [w] => (*w).to_owned(),
        [w, suffix] if matches!(*suffix, "am" | "pm") => format!("{w}{suffix}"),
        [w, "o'clock"] => format!("{w}o'clock"),
        _ => return None,
    };
    if matches!(joined.as_str(), "noon" | "midnight" | "midday") {
        return Some(joined);
    }
    let (body, suffix) = if let Some(b) = joined.strip_suffix("am") {
        (b, "am")
    } else if let Some(b) = joined.strip_suffix("pm") {
        (b, "pm")
    } else if let Some(b) = joined.strip_suffix("o'clock") {
        (b, "o'clock")
    } else {
        (joined.as_str(), "")
    };
    let (hours, minutes) = match body.split_once(':') {
        Some((h, m)) => (h, Some(m)),
        None => (body, None),
    };
    let hours_ok = !hours.is_empty() && hours.len() <= 2 && hours.chars().all(|c| c.is_ascii_digit());
    let minutes_ok = minutes.is_none_or(|m| m.len() == 2 && m.chars().all(|c| c.is_ascii_digit()));
    // A bare "9" is a number, not a time.
    if !hours_ok || !minutes_ok || (suffix.is_empty() && minutes.is_none()) {
        return None;
    }
    let hours = hours.trim_start_matches('0');
    let hours = if hours.is_empty() { "0" } else { hours };
    let minutes = minutes.filter(|m| *m != "00" || suffix.is_empty());
    Some(match minutes {
        Some(m) => format!("{hours}:{m}{suffix}"),
        None => format!("{hours}{suffix}"),
    })
}
