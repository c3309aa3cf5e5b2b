//! Words of time put first: "These days I drive to work", "Nowadays, we're with Octopus",
//! "Since the merger my husband is back in the office". Users put them first as often as
//! last, and the rules read a fact's time after its subject, where "I drive to work these
//! days" has it. Put first, "now" and "these days" were skipped with the words that open a
//! fact ("anyway", "update"), and 13 of 64 changes of the development sets told that way
//! were kept beside the old fact; "since the merger" was read as the fact's subject, and
//! so as the teller's. Such a fact is read as if the words closed its first clause.

/// Words of time that may open a fact, longest first so that "right now" is not read as
/// "now": of the present, and of a day or a week ("Tomorrow I'm up at 4"), which the rules
/// read as a one-off when it comes after.
const TIMES: &[&str] = &[
    "these days",
    "at the moment",
    "at present",
    "right now",
    "for now",
    "nowadays",
    "currently",
    "lately",
    "recently",
    "now",
    "this weekend",
    "this week",
    "next week",
    "tomorrow",
    "tonight",
    "today",
];

/// Words that open a stretch of time running up to the fact's subject or a comma: "Since
/// the merger my husband is back in the office", "As of last month, I own my place".
const SPANS: &[&str] = &[
    "ever since",
    "since",
    "as of",
    "as from",
    "from",
    "for the past",
    "for the last",
    "over the past",
    "over the last",
];

/// Words that open a fact's subject, where a stretch of time told first ends.
const SUBJECTS: &[&str] = &[
    "i", "i'm", "i've", "i'd", "i'll", "im", "ive", "we", "we're", "we've", "were", "my", "our", "he", "she", "they",
    "he's", "she's", "they're",
];

/// Words after which the opening words are no time of the fact: "Now that the kids have
/// left, ...", "Now, what was I saying", "lately is when ...".
const NOT_A_FACT_NEXT: &[&str] = &[
    "that", "is", "was", "and", "or", "but", "what", "how", "if", "then", "so", "when", "where", "why", "who", "which",
    "more", "on",
];

/// The most words a stretch of time told first may take: "for the past couple of months".
const SPAN_WORDS: usize = 6;

/// `text` with the words of time that open it moved to the end of its first clause
/// ("These days I drive to work." -> "I drive to work nowadays."), or none when it does
/// not open with them.
pub(super) fn time_last(text: &str) -> Option<String> {
    let trimmed = text.trim_start();
    let opens = |text: &str, p: &str| {
        text.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p))
            && text[p.len()..].starts_with(|c: char| c == ',' || c.is_whitespace())
    };
    let (phrase, rest) = if let Some(time) = TIMES.iter().find(|p| opens(trimmed, p)) {
        let rest = trimmed[time.len()..].trim_start_matches(|c: char| c == ',' || c.is_whitespace());
        let next = rest.split_whitespace().next()?.to_lowercase();
        if NOT_A_FACT_NEXT.contains(&next.as_str()) || TIMES.iter().chain(SPANS).any(|p| opens(rest, p)) {
            return None;
        }
        (&trimmed[..time.len()], rest)
    } else {
        let span = SPANS.iter().find(|p| opens(trimmed, p))?;
        // Up to a comma, or to the first word of a subject after at least one more word.
        let mut end = None;
        for (k, (i, word)) in word_starts(trimmed).skip(span.split(' ').count()).enumerate() {
            if k >= SPAN_WORDS {
                return None;
            }
            let low = word.trim_end_matches(',').to_lowercase().replace('\u{2019}', "'");
            // "Since I'm vegan, ...", "From what I hear": a reason or a source, no stretch
            // of time.
            if k == 0 && NOT_A_FACT_NEXT.contains(&low.as_str()) {
                return None;
            }
            if SUBJECTS.contains(&low.as_str()) {
                if k == 0 {
                    return None;
                }
                end = Some(i);
                break;
            }
            if word.ends_with(',') {
                end = Some(i + word.len());
                break;
            }
        }
        let end = end?;
        let phrase = trimmed[..end].trim_end_matches(|c: char| c == ',' || c.is_whitespace());
        (
            phrase,
            trimmed[end..].trim_start_matches(|c: char| c == ',' || c.is_whitespace()),
        )
    };
    // The end of the first clause: the first mark of punctuation that closes one; a full
    // stop after a short capitalised word is a title's ("Dr. Shah").
    let title = |i: usize| {
        let word = rest[..i].rsplit(char::is_whitespace).next().unwrap_or("");
        word.len() <= 3 && word.starts_with(char::is_uppercase)
    };
    let end = rest
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, ',' | ';' | '!' | '?' | ':' | '(')
                || (c == '.' && rest[i + 1..].chars().next().is_none_or(char::is_whitespace) && !title(i))
        })
        .map_or(rest.len(), |(i, _)| i);
    let (clause, after) = rest.split_at(end);
    let clause = clause.trim_end();
    if clause.is_empty() {
        return None;
    }
    // "These days" is read as "nowadays", as when it opened the fact: a word of the time,
    // not of what the fact says ("These days I walk to work" tells "I walk to work" again).
    let phrase = if phrase.eq_ignore_ascii_case("these days") {
        "nowadays"
    } else {
        phrase
    };
    // Its first letter lowercased, as it reads within a sentence; a name in it keeps its own.
    let mut letters = phrase.chars();
    let first = letters.next()?.to_lowercase();
    Some(format!("{clause} {first}{}{after}", letters.as_str()))
}

/// The words of `text` split at whitespace, each with where it starts.
fn word_starts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

#[cfg(test)]
mod tests {
    use super::time_last;

    #[test]
    fn words_of_the_present_put_first_close_the_first_clause() {
        for (told, read) in [
            ("These days I drive to work.", "I drive to work nowadays."),
            ("Nowadays, we're with Octopus", "we're with Octopus nowadays"),
            (
                "now gym days are tuesdays and thursdays",
                "gym days are tuesdays and thursdays now",
            ),
            (
                "Lately I've been getting the bus, the car died",
                "I've been getting the bus lately, the car died",
            ),
            ("Right now I'm on £30k", "I'm on £30k right now"),
            ("At the moment, Dr. Shah is my GP", "Dr. Shah is my GP at the moment"),
            ("Tomorrow I'm up at 4 for a flight", "I'm up at 4 for a flight tomorrow"),
            (
                "Since the merger my husband is back in the office",
                "my husband is back in the office since the merger",
            ),
            ("As of last month, I own my place.", "I own my place as of last month."),
            (
                "For the past couple of months I've been walking",
                "I've been walking for the past couple of months",
            ),
            (
                "Since Tom left, we rent out his room",
                "we rent out his room since Tom left",
            ),
        ] {
            assert_eq!(time_last(told).as_deref(), Some(read), "{told}");
        }
    }

    #[test]
    fn other_openings_are_read_as_told() {
        for told in [
            "I drive to work these days",
            "Now that the kids have left, we downsized",
            "Now, what was I saying",
            "Nowhere near as busy at work",
            "Currently, ",
            "Now",
            "recent changes: I drive to work",
            "Since I'm vegan, I skip the cheese",
            "From what I hear the office is closing",
            "Since the start of the long summer holidays in July the kids are at home",
        ] {
            assert_eq!(time_last(told), None, "{told}");
        }
    }
}
