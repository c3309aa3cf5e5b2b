//! Entities in a text, found by rules (seed 004's "fast" strategy): email addresses, URLs,
//! dates, `@mentions`, `#tags`, and proper names. Each is a string `kind:value` with the
//! value normalised (lower case; dates as `YYYY-MM-DD`, or `--MM-DD` without a year), so
//! that a query naming an entity finds the memories that hold it however it was written.
//!
//! Names are the precise part: a capitalised word counts when it is not the first of a
//! sentence (where every word is capitalised), when it is possessive ("Sarah's"), or when
//! it is the name of someone the owner knows. A memory also holds the speaker its line
//! opens with ([`held`]: "Marcus: I got the keys to plot 14").

use chrono::NaiveDate;

/// The months, lower case, January first.
pub(crate) const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The days of the week, lower case, Monday first.
pub(crate) const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Capitalised words that are not names (besides weekdays and months): pronouns and words
/// capitalised by convention or at the start of a quoted sentence.
const NOT_NAMES: &[&str] = &[
    "i",
    "i'm",
    "i've",
    "i'll",
    "i'd",
    "mr",
    "mrs",
    "ms",
    "dr",
    "the",
    "a",
    "an",
    "my",
    "our",
    "we",
    "he",
    "she",
    "they",
    "it",
    "this",
    "that",
    "and",
    "but",
    "or",
    "so",
    "ok",
    "okay",
    "yes",
    "no",
    "please",
    "thanks",
    "today",
    "tomorrow",
    "yesterday",
];

/// The most memories an entity may be held by and still tell memories apart, as a share
/// of the memories searched. Chosen on the LoCoMo dev half (figures: docs/judgment.md).
pub const COMMON_SHARE: f64 = 0.05;

/// Below this many holders an entity always counts: in a small store every name is in a
/// large share of the memories and is still what the user asks about.
pub const COMMON_FLOOR: usize = 20;

/// Whether an entity held by `holders` of `searched` memories is too common to rank them
/// by, as a stop word is: more than [`COMMON_FLOOR`] and more than [`COMMON_SHARE`] of them.
pub fn is_common(holders: usize, searched: usize) -> bool {
    holders > COMMON_FLOOR && holders as f64 > COMMON_SHARE * searched as f64
}

/// `text` without `names` (lowercased, as `name:` entities hold them) where a word
/// capitalised as a name says one, with any possessive: "What did Caroline's sister say?"
/// without "caroline" is "What did sister say?", and "Did Bill pay the bill?" without
/// "bill" keeps the bill. None when nothing was left out or only the names were said.
pub fn without_names(text: &str, names: &[String]) -> Option<String> {
    if names.is_empty() {
        return None;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let kept: Vec<&str> = words
        .iter()
        .copied()
        .filter(|word| {
            let word = word.replace('’', "'");
            let bare = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
            let bare = bare.trim_start_matches('\'');
            let bare = bare.strip_suffix("'s").unwrap_or(bare).trim_end_matches('\'');
            let named = bare.chars().next().is_some_and(char::is_uppercase);
            !(named && names.iter().any(|n| *n == bare.to_lowercase()))
        })
        .collect();
    let left = kept.join(" ");
    (kept.len() < words.len() && left.chars().any(char::is_alphanumeric)).then_some(left)
}

/// The entities of `text`, sorted and each once. `known` are names of people the owner
/// knows, found wherever they stand.
pub fn recognise(text: &str, known: &[&str]) -> Vec<String> {
    let text = text.replace('’', "'");
    let raw: Vec<&str> = text.split_whitespace().collect();
    let mut found: Vec<String> = Vec::new();
    for (i, token) in raw.iter().enumerate() {
        let word = token.trim_matches(|c: char| "\"'()[]{}<>,;:!?".contains(c));
        let bare = word.trim_end_matches('.');
        if let Some(url) = url(bare) {
            found.push(format!("url:{url}"));
        } else if let Some(email) = email(bare) {
            found.push(format!("email:{email}"));
        } else if let Some(rest) = bare.strip_prefix('@').filter(|r| is_handle(r)) {
            found.push(format!("mention:{}", rest.to_lowercase()));
        } else if let Some(rest) = bare
            .strip_prefix('#')
            .filter(|r| is_handle(r) && r.chars().any(char::is_alphabetic))
        {
            found.push(format!("tag:{}", rest.to_lowercase()));
        } else if let Some(date) = iso_date(bare) {
            found.push(format!("date:{date}"));
        } else if let Some(date) = month_date(&raw, i) {
            found.push(format!("date:{date}"));
        } else if let Some(name) = name(&raw, i, bare) {
            found.push(format!("name:{name}"));
        }
    }
    let lower = format!(" {} ", words_only(&text));
    for name in known {
        // A word that is only "'s" leaves a space at an edge ("'s Gravesande").
        let wanted = words_only(name);
        let wanted = wanted.trim();
        if !wanted.is_empty() && lower.contains(&format!(" {wanted} ")) {
            found.push(format!("name:{wanted}"));
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The entities a memory's `content` holds: those [`recognise`] finds, and the speaker
/// its line opens with ("Marcus: About two, they think."), each word a name. The speaker
/// is in every line they say though seldom in its words, and one who says half the lines
/// is as common as a name said in each ([`is_common`]). A query is read by `recognise`
/// alone: "Context: what did Caroline paint?" names no one but Caroline.
pub fn held(content: &str, known: &[&str]) -> Vec<String> {
    let mut found = recognise(content, known);
    if let Some(crate::speaker::Opening::Speaker(name)) = crate::speaker::opening(content) {
        found.extend(name.split(' ').map(|w| format!("name:{}", w.to_lowercase())));
        found.sort();
        found.dedup();
    }
    found
}

/// The text lower-cased with everything but letters, digits and apostrophes as spaces,
/// and a possessive "'s" dropped: what a name is looked for in.
fn words_only(text: &str) -> String {
    // Most names are ASCII words between single spaces ("Sarah", "Tom Baker"), which the
    // general way would only lower-case; every add looks for each of the caller's people.
    let plain = !text.is_empty()
        && !text.starts_with(' ')
        && !text.ends_with(' ')
        && !text.contains("  ")
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b' ');
    if plain {
        return text.to_ascii_lowercase();
    }
    words_only_generally(text)
}

/// `words_only` for any text.
fn words_only_generally(text: &str) -> String {
    let spaced: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '\'' { c } else { ' ' })
        .collect();
    spaced
        .split_whitespace()
        .map(|w| w.strip_suffix("'s").unwrap_or(w))
        .collect::<Vec<_>>()
        .join(" ")
}

fn url(word: &str) -> Option<String> {
    let lower = word.to_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
        .or_else(|| lower.starts_with("www.").then_some(lower.as_str()))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest).trim_end_matches('/');
    (rest.contains('.') && rest.len() > 3).then(|| rest.to_owned())
}

/// An email address, lowercased: the word must be one and nothing more.
pub(crate) fn email(word: &str) -> Option<String> {
    let (local, domain) = word.split_once('@')?;
    let local_ok = !local.is_empty() && local.chars().all(|c| c.is_alphanumeric() || "._%+-".contains(c));
    let (host, tld) = domain.rsplit_once('.')?;
    let domain_ok = !host.is_empty()
        && host.chars().all(|c| c.is_alphanumeric() || ".-".contains(c))
        && tld.len() >= 2
        && tld.chars().all(char::is_alphabetic);
    (local_ok && domain_ok).then(|| word.to_lowercase())
}

fn is_handle(rest: &str) -> bool {
    !rest.is_empty() && rest.len() <= 64 && rest.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

fn iso_date(word: &str) -> Option<String> {
    let date = NaiveDate::parse_from_str(word.get(..10)?, "%Y-%m-%d").ok()?;
    (word.len() == 10).then(|| date.format("%Y-%m-%d").to_string())
}

/// A month's number from its name or three-letter abbreviation, capitalised ("May",
/// "Sept" aside: "may" the verb is not a month).
pub(crate) fn month(word: &str) -> Option<u32> {
    let clean = word.trim_matches(|c: char| !c.is_alphabetic());
    if !clean.chars().next().is_some_and(char::is_uppercase) || clean.len() < 3 {
        return None;
    }
    let lower = clean.to_lowercase();
    MONTHS
        .iter()
        .position(|m| *m == lower || (lower.len() == 3 && m.starts_with(&lower)))
        .map(|i| i as u32 + 1)
}

/// A day of the month: "3", "3rd", "21st,".
pub(crate) fn day(word: &str) -> Option<u32> {
    let clean = word.trim_end_matches([',', '.', ';', '!', '?', ')']);
    let digits = clean.trim_end_matches(|c: char| c.is_alphabetic());
    let suffix = &clean[digits.len()..];
    let n: u32 = digits.parse().ok()?;
    ((1..=31).contains(&n) && ["", "st", "nd", "rd", "th"].contains(&suffix)).then_some(n)
}

/// A number written as a word, "zero" to "twelve", lower case.
pub(crate) fn number_word(word: &str) -> Option<u32> {
    const NUMBERS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ];
    NUMBERS.iter().position(|n| *n == word).map(|i| i as u32)
}

pub(crate) fn year(word: Option<&&str>) -> Option<i32> {
    let clean = word?.trim_end_matches([',', '.', ';', '!', '?', ')']);
    let n: i32 = clean.parse().ok()?;
    (clean.len() == 4 && (1900..=2199).contains(&n)).then_some(n)
}

/// A date written with a month's name, found at its first word: "May 3", "May 3, 2025",
/// "3 May 2025", "3rd of May".
fn month_date(raw: &[&str], i: usize) -> Option<String> {
    let ((y, m, d), _) = date_at(raw, i)?;
    Some(match y {
        Some(y) => format!("{y:04}-{m:02}-{d:02}"),
        None => format!("--{m:02}-{d:02}"),
    })
}

/// A date as texts give it, year (which may be left out), month and day.
pub(crate) type TextDate = (Option<i32>, u32, u32);

/// The date written with a month's name at `raw[i]` (as `month_date` reads it), and the
/// index of the word after it.
pub(crate) fn date_at(raw: &[&str], i: usize) -> Option<(TextDate, usize)> {
    let (m, d, after) = if let Some(m) = month(raw.get(i)?) {
        (m, day(raw.get(i + 1)?)?, i + 2)
    } else {
        let d = day(raw[i])?;
        let at = if raw.get(i + 1).is_some_and(|w| *w == "of") {
            i + 2
        } else {
            i + 1
        };
        (month(raw.get(at)?)?, d, at + 1)
    };
    match year(raw.get(after)) {
        Some(y) => NaiveDate::from_ymd_opt(y, m, d).map(|_| ((Some(y), m, d), after + 1)),
        // 2000 was a leap year: the 29th of February is a day of some years.
        None => NaiveDate::from_ymd_opt(2000, m, d).map(|_| ((None, m, d), after)),
    }
}

/// A proper name at `raw[i]`, lower-cased.
fn name(raw: &[&str], i: usize, bare: &str) -> Option<String> {
    let possessive = bare.strip_suffix("'s");
    let word = possessive.unwrap_or(bare);
    let mut chars = word.chars();
    let first = chars.next()?;
    if !first.is_uppercase()
        || word.chars().count() < 2
        || !word.chars().all(|c| c.is_alphabetic() || c == '-')
        || word.chars().skip(1).all(char::is_uppercase)
    {
        return None;
    }
    let lower = word.to_lowercase();
    if NOT_NAMES.contains(&lower.as_str()) || WEEKDAYS.contains(&lower.as_str()) || month(word).is_some() {
        return None;
    }
    let starts_sentence = i == 0 || raw[i - 1].ends_with(['.', '!', '?', ':', '"']) || raw[i].starts_with(['"', '(']);
    (!starts_sentence || possessive.is_some()).then_some(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_left_out_where_a_capitalised_word_says_them() {
        let caroline = ["caroline".to_owned()];
        assert_eq!(
            without_names("What did Caroline’s sister tell 'Caroline' and (Caroline)?", &caroline).as_deref(),
            Some("What did sister tell and")
        );
        assert_eq!(without_names("Caroline?", &caroline), None, "nothing but the name");
        assert_eq!(without_names("Where is Carolina?", &caroline), None, "nothing left out");
        assert_eq!(without_names("Where is Caroline?", &[]), None);
        let bill = ["bill".to_owned()];
        assert_eq!(
            without_names("Did Bill pay the bill?", &bill).as_deref(),
            Some("Did pay the bill?"),
            "a word that is not capitalised is not the name"
        );
    }

    #[test]
    fn an_entity_is_common_past_the_floor_and_the_share() {
        assert!(!is_common(20, 21), "never below the floor");
        assert!(is_common(21, 100));
        assert!(!is_common(50, 1000), "5% of a thousand");
        assert!(is_common(51, 1000));
    }

    #[test]
    fn a_plain_name_reads_as_the_general_way_reads_it() {
        for name in [
            "Sarah",
            "Tom Baker",
            "R2D2",
            "Mary Ann Lee",
            "José",
            "O'Brien",
            "Sarah's",
            " Tom",
            "Tom  Baker",
            "Tom-Baker",
            "TOM",
            "",
            "my boss",
            "Ana\tLu",
        ] {
            assert_eq!(words_only(name), words_only_generally(name), "{name:?}");
        }
    }

    #[test]
    fn a_known_name_with_a_bare_possessive_is_found_by_its_words() {
        // Lower-case, so that only the known names can find them.
        assert_eq!(
            recognise("met gravesande at the fair", &["'s Gravesande"]),
            ["name:gravesande"]
        );
        assert_eq!(recognise("tom called", &["Tom 's"]), ["name:tom"]);
    }

    #[test]
    fn each_kind_is_found_and_normalised() {
        let found = recognise(
            "Email Bob at Bob.Smith@Example.com or see https://www.Example.com/Docs/ before 2025-05-03 #Travel @sam_k",
            &[],
        );
        assert_eq!(
            found,
            [
                "date:2025-05-03",
                "email:bob.smith@example.com",
                "mention:sam_k",
                "name:bob",
                "tag:travel",
                "url:example.com/docs",
            ]
        );
    }

    #[test]
    fn dates_with_month_names_with_and_without_a_year() {
        assert_eq!(recognise("The party is on May 3, 2025.", &[]), ["date:2025-05-03"]);
        assert_eq!(recognise("Her birthday is the 3rd of May", &[]), ["date:--05-03"]);
        assert_eq!(recognise("Flight on 14 February", &[]), ["date:--02-14"]);
        assert!(recognise("You may 3 times", &[]).is_empty(), "the verb is no month");
        assert!(recognise("Room 404 on floor 31", &[]).is_empty());
    }

    #[test]
    fn names_are_capitalised_words_that_do_not_merely_start_a_sentence() {
        assert_eq!(recognise("Lunch with Marco next week", &[]), ["name:marco"]);
        assert_eq!(recognise("Sarah's birthday is soon", &[]), ["name:sarah"]);
        assert!(recognise("Lunch is at noon. The soup is good", &[]).is_empty());
        assert!(recognise("I think I'm late on Monday", &[]).is_empty());
        assert!(recognise("The API uses JSON", &[]).is_empty(), "acronyms are not names");
        // Someone the owner knows is a name wherever it stands.
        assert_eq!(recognise("Sarah likes tulips", &["Sarah"]), ["name:sarah"]);
        assert_eq!(recognise("anna lee called", &["Anna Lee"]), ["name:anna lee"]);
    }

    #[test]
    fn a_memory_holds_the_speaker_its_line_opens_with() {
        assert_eq!(held("Marcus: Got the keys to plot 14 on Monday.", &[]), ["name:marcus"]);
        assert_eq!(
            held("Gwen: Oh Marcus, that's lovely.", &[]),
            ["name:gwen", "name:marcus"]
        );
        assert_eq!(held("Tom Reed: fine, thanks", &[]), ["name:reed", "name:tom"]);
        assert_eq!(
            recognise("Marcus: Got the keys.", &[]),
            Vec::<String>::new(),
            "a query names no speaker"
        );
        for text in [
            "Note: call the vet",
            "Reminders: bins on Thursday",
            "Birthday: 4 May",
            "Marcus:",
        ] {
            let names: Vec<String> = held(text, &[]).into_iter().filter(|e| e.starts_with("name:")).collect();
            assert!(names.is_empty(), "{text}: {names:?}");
        }
    }

    #[test]
    fn nothing_is_made_of_near_misses() {
        assert!(recognise("an @ sign, a # sign, user@localhost and ###", &[]).is_empty());
        assert!(recognise("2025-13-45 is no date", &[]).is_empty());
    }
}
