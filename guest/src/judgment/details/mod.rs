//! Personal details that hold one value written in a form of its own: a birthday or an
//! anniversary (a day of a month), a phone or other number (its digits), an email address,
//! pronouns and a time zone. "Sorry, my birthday is actually May 5" replaces "My birthday
//! is May 3"; "my mobile is 07700900123" restates "My number is 07700 900123". The words
//! alone cannot tell: "she/her" and "they/them" are all function words, and "May 3" and
//! "May 5" share half of what they say.

mod amounts;
mod day;
mod dose;
mod figures;

pub(super) use amounts::{Reading as AmountReading, another_amount, same_amount};
use day::{day_after, day_at};
pub(super) use dose::another_dose;
use figures::phone_digits;
pub(super) use figures::{another_number, corrected_number};

use super::fact::Fact;
use crate::entities::email;

/// A detail a fact gives, and its value in one written form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Detail {
    /// What the detail is: "birthday", "phone", "work phone", "passport number", "email".
    pub(super) kind: String,
    pub(super) value: Value,
}

/// A detail's value, so that two ways of writing one compare equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Value {
    /// A day of a month, and the year when one was written.
    Day { month: u32, day: u32, year: Option<i32> },
    /// A date written in figures ("02/03/1985"), which reads either way round: only the
    /// same figures are the same date.
    Figures(String),
    /// Anything else, normalised: a number's digits, a lowercase address, sorted pronouns.
    Text(String),
}

/// What a new detail is to an old one of the same kind: `None` when it cannot tell (a day
/// beside figures).
pub(super) fn compare(old: &Value, new: &Value) -> Option<Ordering> {
    Some(match (old, new) {
        (
            Value::Day {
                month: m,
                day: d,
                year: y,
            },
            Value::Day {
                month: n,
                day: e,
                year: z,
            },
        ) => {
            if (m, d) != (n, e) || (y.is_some() && z.is_some() && y != z) {
                Ordering::Other
            } else if y.is_none() && z.is_some() {
                Ordering::More
            } else {
                Ordering::Same
            }
        }
        (Value::Figures(a), Value::Figures(b)) => {
            if a == b {
                Ordering::Same
            } else {
                Ordering::Other
            }
        }
        // "020 7946 0999, extension 214" says the number and more.
        (Value::Text(a), Value::Text(b)) => {
            if a == b {
                Ordering::Same
            } else if b.starts_with(a.as_str()) {
                Ordering::More
            } else {
                Ordering::Other
            }
        }
        _ => return None,
    })
}

/// How two values of one detail stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ordering {
    Same,
    /// The new value says the old one and more (a birthday's year).
    More,
    Other,
}

/// Whether the only denial of `text` is "not" before `old` ("June 12, not June 2",
/// "it's 4521 not 4512"): a correction, which denies the old value and states the new.
pub(super) fn denies_only(text: &str, old: &Value) -> bool {
    let low = text.to_lowercase();
    let Some((said, denied)) = low.rsplit_once(" not ") else {
        return false;
    };
    let tokens: Vec<String> = denied
        .split_whitespace()
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric() && c != '/').to_owned())
        .collect();
    let names = |v: &Value| match v {
        Value::Text(t) => denied.contains(t.as_str()) || phone_digits(denied).as_ref() == Some(t),
        // "the 14th of May, not March": the old day's month alone, denied.
        Value::Day { month, .. } if tokens.len() == 1 && day::month_of(&tokens[0]) == Some(*month) => true,
        // "the 16th not the 14th": the old day of the month alone, denied.
        Value::Day { day, .. } if denied_day(denied) == Some(*day) => true,
        _ => (0..tokens.len().min(3))
            .any(|i| day_at(&tokens, i).is_some_and(|d| compare(old, &d) == Some(Ordering::Same))),
    };
    !said
        .split_whitespace()
        .any(|w| matches!(w, "not" | "no" | "never" | "don't" | "isn't"))
        && names(old)
}

/// The day of the month alone that a denial's clause names: "the 14th, I misread ...".
fn denied_day(denied: &str) -> Option<u32> {
    let clause = denied.split([',', '.', '!', ';']).next()?;
    match clause.split_whitespace().collect::<Vec<_>>().as_slice() {
        [d] | ["the", d] => crate::entities::day(d),
        _ => None,
    }
}

/// Words before "number" that make it the phone's.
const PHONE_WORDS: &[&str] = &["phone", "cell", "landline", "whatsapp", "contact", "telephone", "tel"];

/// Words that say whose line or address a detail is: a work phone is a second one.
const QUALIFIERS: &[&str] = &[
    "work",
    "office",
    "business",
    "home",
    "landline",
    "personal",
    "school",
    "uni",
    "university",
];

/// The detail `fact` (read from `text`) gives, if it gives one.
pub(super) fn detail_of(text: &str, fact: &Fact) -> Option<Detail> {
    let lows: Vec<&str> = fact.words[fact.body.min(fact.words.len())..]
        .iter()
        .map(|w| w.low.trim_end_matches("'s"))
        .collect();
    let qualifier = || lows.iter().find(|w| QUALIFIERS.contains(w)).copied();
    let kind = |base: &str| match qualifier() {
        Some(q) => format!("{q} {base}"),
        None => base.to_owned(),
    };
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if lows.iter().any(|w| matches!(*w, "birthday" | "bday" | "born" | "dob"))
        || lows.windows(3).any(|w| w == ["date", "of", "birth"])
    {
        return day_after(&tokens, &["birthday", "bday", "born", "dob", "birth"]).map(|value| Detail {
            kind: "birthday".to_owned(),
            value,
        });
    }
    if lows.contains(&"anniversary") {
        return day_after(&tokens, &["anniversary"]).map(|value| Detail {
            kind: "anniversary".to_owned(),
            value,
        });
    }
    if lows.contains(&"pronouns") || lows.contains(&"pronoun") {
        let mut said: Vec<&str> = lows.iter().copied().filter(|w| PRONOUNS.contains(w)).collect();
        said.sort_unstable();
        said.dedup();
        return (!said.is_empty()).then(|| Detail {
            kind: "pronouns".to_owned(),
            value: Value::Text(said.join("/")),
        });
    }
    // "you can reach me at jane@example.com" gives an address as "my email is" does.
    let address_of_mine = || {
        lows.iter().any(|w| matches!(*w, "me" | "i"))
            && tokens
                .iter()
                .any(|t| email(t.trim_matches(|c: char| !c.is_alphanumeric())).is_some())
    };
    if (lows.iter().any(|w| *w == "email" || *w == "mail") || address_of_mine()) && !lows.contains(&"emailed") {
        return tokens
            .iter()
            .find_map(|t| email(t.trim_matches(|c: char| !c.is_alphanumeric())))
            .map(|address| Detail {
                kind: kind("email"),
                value: Value::Text(address),
            });
    }
    if let Some(at) = lows.iter().enumerate().position(|(i, w)| {
        matches!(*w, "postcode" | "zip" | "zipcode") || (*w == "code" && i > 0 && matches!(lows[i - 1], "post" | "zip"))
    }) {
        let figured = |w: &&&str| w.chars().any(|c| c.is_ascii_digit());
        let code: Vec<&str> = lows[at + 1..]
            .iter()
            .skip_while(|w| !figured(w))
            .take_while(figured)
            .copied()
            .collect();
        return (!code.is_empty()).then(|| Detail {
            kind: "postcode".to_owned(),
            value: Value::Text(code.concat()),
        });
    }
    if let Some(zone) = time_zone(fact) {
        return Some(Detail {
            kind: "time zone".to_owned(),
            value: Value::Text(zone),
        });
    }
    let mut digits = phone_digits(text)?;
    // An extension is the number's, told after it.
    if let Some(at) = lows.iter().position(|w| matches!(*w, "extension" | "ext"))
        && let Some(ext) = lows.get(at + 1).filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        && !digits.ends_with(*ext)
    {
        digits = format!("{digits}x{ext}");
    }
    // "My passport number is ...": the number of what the word before says.
    if let Some(at) = lows.iter().position(|w| *w == "number") {
        let before = at.checked_sub(1).map(|b| lows[b]);
        if let Some(b) = before.filter(|b| !PHONE_WORDS.contains(b) && !QUALIFIERS.contains(b) && !is_owner(b)) {
            return Some(Detail {
                kind: format!("{b} number"),
                value: Value::Text(digits),
            });
        }
        return Some(Detail {
            kind: kind("phone"),
            value: Value::Text(digits),
        });
    }
    let reached = lows
        .windows(3)
        .any(|w| matches!(w[0], "reach" | "call" | "text" | "ring") && w[1] == "me" && matches!(w[2], "on" | "at"));
    (reached || lows.iter().any(|w| PHONE_WORDS.contains(w))).then(|| Detail {
        kind: kind("phone"),
        value: Value::Text(digits),
    })
}

/// Words that say whose something is.
fn is_owner(low: &str) -> bool {
    matches!(
        low,
        "my" | "our" | "your" | "his" | "her" | "their" | "the" | "a" | "new" | "old"
    ) || low.ends_with("'s")
}

/// Pronouns as people give theirs.
const PRONOUNS: &[&str] = &[
    "he", "him", "his", "she", "her", "hers", "they", "them", "theirs", "xe", "xem", "xyr", "ze", "zir", "hir", "it",
    "its", "any",
];

/// The zone of "I'm on Pacific time", "my time zone is CET", "in the Berlin timezone".
fn time_zone(fact: &Fact) -> Option<String> {
    let words = &fact.words[fact.body.min(fact.words.len())..];
    let zoned = |w: &super::words::Word| w.cap || w.upper || ZONES.contains(&w.low.as_str());
    for (i, w) in words.iter().enumerate() {
        let low = w.low.as_str();
        let before = i.checked_sub(1).map(|b| &words[b]);
        let named =
            matches!(low, "timezone" | "tz") || (low == "time" && words.get(i + 1).is_some_and(|n| n.low == "zone"));
        if named {
            if let Some(b) = before.filter(|b| zoned(b) && !matches!(b.low.as_str(), "my" | "the" | "our")) {
                return Some(b.low.clone());
            }
            return words[i + 1..]
                .iter()
                .find(|w| zoned(w) && w.low != "zone")
                .map(|w| w.low.clone());
        }
        if low == "time"
            && let Some(b) = before.filter(|b| ZONES.contains(&b.low.as_str()))
        {
            return Some(b.low.clone());
        }
    }
    None
}

/// Zones people name in lowercase.
const ZONES: &[&str] = &[
    "pacific", "eastern", "central", "mountain", "gmt", "utc", "bst", "cet", "cest", "est", "edt", "pst", "pdt", "cst",
    "mst", "ist", "aest", "jst", "uk", "london", "berlin", "paris", "tokyo", "sydney",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::supersession::RuleContext;

    fn detail(text: &str) -> Option<Detail> {
        detail_of(text, &Fact::read(text, &RuleContext::default()))
    }

    #[test]
    fn a_day_reads_the_same_however_it_is_written() {
        let may3 = Some(Value::Day {
            month: 5,
            day: 3,
            year: None,
        });
        for text in [
            "My birthday is May 3",
            "my birthday's on the 3rd of may",
            "Birthday: 3 May",
            "I was born on May 3rd",
        ] {
            assert_eq!(detail(text).map(|d| d.value), may3, "{text}");
        }
        assert_eq!(
            detail("I got a bike for my birthday, and a cake"),
            None,
            "no birthday's day"
        );
    }

    #[test]
    fn a_number_is_its_digits_and_its_kind() {
        let phone = |t: &str| detail(t).map(|d| (d.kind, d.value));
        let digits = |d: &str| Value::Text(d.to_owned());
        assert_eq!(
            phone("My number is 07700 900123"),
            Some(("phone".into(), digits("07700900123")))
        );
        assert_eq!(
            phone("my mobile is 07700900123."),
            Some(("phone".into(), digits("07700900123")))
        );
        assert_eq!(
            phone("My work phone is 020 7946 0000"),
            Some(("work phone".into(), digits("02079460000")))
        );
        assert_eq!(
            phone("My passport number is 123456789"),
            Some(("passport number".into(), digits("123456789")))
        );
        assert_eq!(phone("I ran 5 km in 25 minutes"), None);
    }
}
