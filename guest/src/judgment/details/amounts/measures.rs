//! Figures read with what they measure: "£950" is money, "79 kilos" a weight in
//! kilograms, "4:45" a time of day, "4 coffees" a count of coffee, "year 3" a school year.
//! A figure that names a thing ("iPhone 12", "the 42 bus") is no amount.

use std::collections::BTreeSet;

use crate::entities::MONTHS;
use crate::judgment::words::{FUNCTION, stem};

/// What an amount measures.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Measure {
    Money,
    /// In kilograms.
    Weight,
    Percent,
    /// Minutes after midnight.
    Clock,
    /// In kilometres.
    Length,
    /// A duration, in minutes.
    Span,
    /// A school year or grade.
    Grade,
    Age,
    /// A size of clothes or shoes: "a size 14".
    Size,
    /// A dose, in its unit: "mg", "ml", "units".
    Dose(String),
    /// A unit written onto the figure that is none of the above: "2TB", "45mpg".
    Unit(String),
    /// A figure told with no unit, of what its fact names: "my golf handicap is 18".
    Bare,
    /// How many of a thing, by the thing's stem: "4 coffees".
    Count(String),
}

/// One amount a text tells.
#[derive(Debug, Clone)]
pub(super) struct Amount {
    pub(super) measure: Measure,
    pub(super) value: f64,
    /// The figure as written: "11" of "11pm".
    pub(super) figure: f64,
}

pub(super) fn same_value(a: &Amount, b: &Amount) -> bool {
    // A weight or a length told in another unit within half a percent: "14 stone" is "196
    // lbs" (88.9 kg either way).
    let converted = matches!(a.measure, Measure::Weight | Measure::Length);
    let tolerance = if converted { 0.005 } else { 1e-9 };
    let close = |x: f64, y: f64| (x - y).abs() <= tolerance * x.abs().max(y.abs()).max(0.001);
    // "at 11" may be "11pm".
    if a.measure == Measure::Bare || b.measure == Measure::Bare {
        return close(a.figure, b.figure);
    }
    close(a.value, b.value) || (a.measure == Measure::Clock && close(a.value % 720.0, b.value % 720.0))
}

pub(super) fn holds_number(text: &str) -> bool {
    text.bytes().any(|b| b.is_ascii_digit())
        || text
            .split(|c: char| !c.is_alphabetic())
            .any(|w| word_number(&w.to_lowercase()).is_some())
}

/// The text's words, lowercase, without the punctuation around them (a currency sign, a
/// percent and a clock's colon kept).
pub(super) fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for t in text
        .replace(['\u{2019}', '\u{2018}'], "'")
        .to_lowercase()
        .split_whitespace()
    {
        let bare = t
            .trim_start_matches(|c: char| "\"'([".contains(c))
            .trim_end_matches(|c: char| ".,!?;:)\"'".contains(c));
        if !bare.is_empty() {
            out.push(bare.to_owned());
        }
        // "an iPhone 12, had it since launch": what follows a comma is no unit.
        if bare.len() < t.len() && t.ends_with([',', '.', '!', '?', ';', ':']) {
            out.push(",".to_owned());
        }
    }
    out
}

/// The amounts told in `tokens`, each with what it measures, and the figures that name
/// things ("iPhone 12", "box 7", "since 2015").
pub(super) fn amounts(tokens: &[String]) -> (Vec<Amount>, BTreeSet<&str>) {
    let money_words = tokens.iter().any(|t| MONEY_WORDS.contains(&t.as_str()));
    let weight_words = tokens.iter().any(|t| WEIGHT_WORDS.contains(&t.as_str()));
    // "weighed in at 88.5 this morning": a bare figure of one's weigh-in is a weight.
    let weighed = super::weighed_in(tokens);
    let mut out = Vec::new();
    let mut names = BTreeSet::new();
    for (i, token) in tokens.iter().enumerate() {
        let Some(Figure {
            currency,
            value,
            suffix,
            ordinal,
        }) = figure(token)
        else {
            continue;
        };
        let prev = i.checked_sub(1).map(|p| tokens[p].as_str()).unwrap_or_default();
        let next = tokens.get(i + 1).map(String::as_str).unwrap_or_default();
        let after_next = tokens.get(i + 2).map(String::as_str).unwrap_or_default();
        let unit = if suffix.is_empty() { next } else { suffix.as_str() };
        let measure = |m: Measure, v: f64| {
            Some(Amount {
                measure: m,
                value: v,
                figure: value,
            })
        };
        let grade = matches!(prev, "year" | "yr" | "grade" | "form" | "class")
            || GRADE_AFTER.contains(&next)
            || (ordinal && matches!(next, "year" | "yr"));
        // A day of a month is no amount of months: "our anniversary is 10 july", "on
        // March 3".
        let month = |w: &str| MONTHS.iter().any(|m| w == *m || (w.len() >= 3 && m.starts_with(w)));
        if !currency && (month(next) || month(prev)) {
            names.insert(token.as_str());
            continue;
        }
        // A figure that names a thing is no amount: "iPhone 12", "the 42 bus", "since 2015".
        let plain = !currency && !ordinal && (suffix.is_empty() || suffix == "k") && !UNIT_WORDS.contains(&next);
        let valued =
            matches!(prev, "" | ",") || prev.ends_with("'s") || FUNCTION.contains(&prev) || VALUE_PREV.contains(&prev);
        if !grade && plain && (!valued || (1900.0..=2100.0).contains(&value) && suffix.is_empty()) {
            names.insert(token.as_str());
            continue;
        }
        // "I'm one of five kids": a count one belongs to, not one has.
        if prev == "of" && i >= 2 && matches!(tokens[i - 2].as_str(), "one" | "1") {
            continue;
        }
        let amount = if grade {
            // "in year 3", "3rd grade", "my second year": a school year, not three years.
            measure(Measure::Grade, value)
        } else if ordinal && matches!(prev, "my" | "his" | "her" | "their" | "our") && noun(next).is_none() {
            // "mum celebrated her 70th"; not "our third baby".
            measure(Measure::Age, value)
        } else if ordinal {
            None
        } else if prev == "size" {
            measure(Measure::Size, value)
        } else if currency {
            let times = if matches!(unit, "k" | "grand") { 1000.0 } else { 1.0 };
            measure(Measure::Money, value * times)
        } else {
            match unit {
                "k" if RUNS.contains(&prev) || RUNS.contains(&next) => measure(Measure::Length, value),
                "k" if !suffix.is_empty() && noun(next).is_some() => {
                    measure(Measure::Count(noun(next).unwrap_or_default()), value * 1000.0)
                }
                // "on 72k now": the pay one is on.
                "k" if money_words || suffix.is_empty() || prev == "on" => measure(Measure::Money, value * 1000.0),
                "k" => measure(Measure::Bare, value * 1000.0),
                "grand" => measure(Measure::Money, value * 1000.0),
                "quid" | "bucks" | "dollars" | "euros" | "rupees" => measure(Measure::Money, value),
                "pounds" | "pound" if weight_words || !money_words => measure(Measure::Weight, value * 0.4536),
                "pounds" | "pound" => measure(Measure::Money, value),
                "kg" | "kgs" | "kilo" | "kilos" | "kilograms" => measure(Measure::Weight, value),
                "lb" | "lbs" => measure(Measure::Weight, value * 0.4536),
                "stone" | "st" => measure(Measure::Weight, value * 6.35),
                "%" | "percent" => measure(Measure::Percent, value),
                "am" | "pm" | "a.m" | "p.m" | "o'clock" => {
                    let hours = value.trunc() % 12.0 + if unit.starts_with('p') { 12.0 } else { 0.0 };
                    measure(Measure::Clock, hours * 60.0 + value.fract() * 100.0)
                }
                _ if unit.starts_with(':') => {
                    let pm = matches!(next, "pm" | "p.m") || unit.ends_with("pm");
                    let hours = value.trunc() % 12.0 + if pm { 12.0 } else { 0.0 };
                    measure(Measure::Clock, hours * 60.0 + (value.fract() * 100.0).round())
                }
                "km" | "kms" | "kilometres" | "kilometers" => measure(Measure::Length, value),
                "mile" | "miles" | "mi" => measure(Measure::Length, value * 1.609),
                "cm" | "cms" | "centimetres" | "centimeters" => measure(Measure::Length, value / 100_000.0),
                "ft" | "feet" | "foot" => measure(Measure::Length, value * 0.000_304_8),
                "inches" | "inch" => measure(Measure::Length, value * 0.000_025_4),
                "min" | "mins" | "minute" | "minutes" => measure(Measure::Span, value),
                "h" | "hr" | "hrs" | "hour" | "hours" => measure(Measure::Span, value * 60.0),
                "mg" | "mcg" | "ml" | "iu" => measure(Measure::Dose(unit.to_owned()), value),
                "unit" | "units" => measure(Measure::Dose("units".to_owned()), value),
                "yo" | "y/o" => measure(Measure::Age, value),
                "years" | "year" if after_next == "old" => measure(Measure::Age, value),
                // "I'm 34", "my mum is 69", "turned 35".
                "" | ","
                    if value <= 120.0
                        && (matches!(prev, "turned" | "turning" | "aged" | "age" | "am" | "i'm" | "im" | "is")
                            || prev.ends_with("'s")) =>
                {
                    measure(Measure::Age, value)
                }
                // "up at 4:30", "in bed by 10": a time of day.
                _ if matches!(prev, "at" | "by" | "till" | "until") && value < 24.0 && value.fract() < 0.6 => {
                    measure(Measure::Clock, value.trunc() * 60.0 + (value.fract() * 100.0).round())
                }
                // "2TB", "45mpg": a unit of its own.
                _ if !suffix.is_empty() => measure(Measure::Unit(suffix.clone()), value),
                _ if weighed && (20.0..=400.0).contains(&value) => measure(Measure::Weight, value),
                _ => match noun(unit) {
                    Some(thing) => measure(Measure::Count(thing), value),
                    // "the one who books the gigs": a number word counts what follows it.
                    None if word_number(token).is_none() => measure(Measure::Bare, value),
                    None => None,
                },
            }
        };
        out.extend(amount);
    }
    (out, names)
}

/// A figure as written.
struct Figure {
    /// A currency sign leads it.
    currency: bool,
    value: f64,
    /// What is written after its digits: "k", "kg", "am", "%", or ":" for a time of day,
    /// whose minutes are its hundredths.
    suffix: String,
    /// "3rd", "third".
    ordinal: bool,
}

/// A figure: digits, with a currency sign or a unit about them, or a number word from one
/// to twelve ("four", "third").
fn figure(token: &str) -> Option<Figure> {
    let figure = |value: f64, suffix: &str, ordinal: bool, currency: bool| Figure {
        currency,
        value,
        suffix: suffix.to_owned(),
        ordinal,
    };
    if let Some(v) = word_number(token) {
        return Some(figure(v, "", false, false));
    }
    if let Some(v) = ORDINALS.iter().position(|w| *w == token) {
        return Some(figure(v as f64 + 1.0, "", true, false));
    }
    // "R38,000", "R46k": South Africa's rand (not "r2" or "r5").
    let rand = token
        .strip_prefix(['r', 'R'])
        .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()) && (r.ends_with(['k', 'K']) || r.len() >= 4));
    let rest = rand.unwrap_or_else(|| token.trim_start_matches(|c: char| "£$€₹".contains(c)));
    let currency = rand.is_some() || rest.len() != token.len();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '.' || c == ':'))
        .unwrap_or(rest.len());
    let (digits, suffix) = rest.split_at(end);
    if !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_end_matches(['.', ',', ':']);
    if let Some((h, m)) = digits.split_once(':') {
        let (h, m) = (h.parse::<f64>().ok()?, m.parse::<f64>().ok()?);
        // "3:30pm": the half of the day stays with the colon.
        return Some(figure(h + m / 100.0, &format!(":{suffix}"), false, currency));
    }
    let value = digits.replace(',', "").parse::<f64>().ok()?;
    Some(match suffix {
        "st" | "nd" | "rd" | "th" => figure(value, "", true, currency),
        s => figure(value, s, false, currency),
    })
}

/// A noun an amount counts: "coffees" in "4 coffees". Not a function word, a period ("a
/// day"), nor a word that leads on ("4 of them").
fn noun(word: &str) -> Option<String> {
    let ok = word.len() >= 3
        && word.chars().all(char::is_alphabetic)
        && !FUNCTION.contains(&word)
        && !NOT_COUNTED.contains(&word);
    ok.then(|| stem(word))
}

pub(super) fn word_number(word: &str) -> Option<f64> {
    crate::entities::number_word(word).map(f64::from)
}

/// Words after which a figure without a unit is a value, not a name ("is 18", "about 20",
/// "cracked 1350"; not "iPhone 12" or "bus 42"), beside the function words.
const VALUE_PREV: &[&str] = &[
    "was",
    "at",
    "weigh",
    "weighs",
    "earn",
    "earns",
    "make",
    "making",
    // "so three kids now!"
    "so",
    "makes",
    "pays",
    "be",
    "now",
    "size",
    "costs",
    "cost",
    "pay",
    "paid",
    "like",
    "only",
    "just",
    "nearly",
    "almost",
    "over",
    "under",
    "roughly",
    "approx",
    "maybe",
    "down",
    "up",
    "till",
    "until",
    "than",
    "i'm",
    "im",
    "it's",
    "its",
    "he's",
    "she's",
    "that's",
    "thats",
    "i've",
    "we've",
    "we're",
    "they're",
    "drink",
    "smoke",
    "take",
    "eat",
    "sleep",
    "manage",
    "charge",
    "average",
    "averaging",
    "do",
    "doing",
    "hit",
    "reached",
    "cracked",
    "scored",
    "about",
    "around",
    "turned",
    "turning",
    "aged",
    "age",
    "am",
    "are",
    "of",
    "to",
    "on",
    "by",
    "is",
    "have",
    "has",
    "got",
    "the",
    "a",
    "another",
    "through",
    "into",
    "across",
    "extra",
    "keep",
    "own",
];

/// Ordinal number words, from the first.
const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth",
];

/// Words after a figure that are not what it counts: "14 after a good summer", "1k left".
const NOT_COUNTED: &[&str] = &[
    "times", "each", "every", "per", "more", "less", "now", "than", "and", "but", "after", "before", "left", "off",
    "over", "under", "since", "till", "until", "ago", "old", "then", "ish", "odd", "max", "tops", "both", "total",
    "years", "year", "months", "month", "weeks", "week", "days", "day",
];

/// Words beside "5k" that make it a run.
const RUNS: &[&str] = &["run", "runs", "ran", "running", "race", "parkrun", "jog", "pb"];

/// Words after a figure that make it a school year: "3rd grade", "year 3" is read before.
const GRADE_AFTER: &[&str] = &["grade", "grader"];

/// Words that make a bare "k" or "pounds" money.
const MONEY_WORDS: &[&str] = &[
    "salary",
    "pay",
    "paid",
    "earn",
    "earning",
    "wage",
    "raise",
    "rise",
    "income",
    "rent",
    "cost",
    "costs",
    "bill",
    "mortgage",
    "budget",
    "save",
    "saved",
    "savings",
    "spend",
    "owe",
    "debt",
    "loan",
    "price",
    "bonus",
    "making",
    "make",
    "makes",
    "pays",
    "payrise",
    "repayments",
];

/// Words that make "pounds" a weight.
const WEIGHT_WORDS: &[&str] = &[
    "weigh", "weight", "weighs", "lost", "gained", "heavier", "lighter", "down", "scales",
];

/// Words of units, which say how much, not of what.
pub(super) const UNIT_WORDS: &[&str] = &[
    "k",
    "grand",
    "quid",
    "bucks",
    "dollars",
    "euros",
    "pounds",
    "pound",
    "kg",
    "kgs",
    "kilo",
    "kilos",
    "kilograms",
    "lb",
    "lbs",
    "stone",
    "st",
    "percent",
    "min",
    "mins",
    "minute",
    "minutes",
    "hour",
    "hours",
    "hr",
    "hrs",
    "h",
    "mile",
    "miles",
    "mi",
    "km",
    "kms",
    "cm",
    "cms",
    "ft",
    "feet",
    "foot",
    "inch",
    "inches",
    "am",
    "pm",
    "weigh",
    "weighs",
    "weight",
    "mg",
    "mcg",
    "ml",
    "iu",
    "unit",
    "units",
    "dose",
    "dosage",
];
