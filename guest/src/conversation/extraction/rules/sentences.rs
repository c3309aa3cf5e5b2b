//! Cutting a message into sentences and a sentence down to its fact's clause, and matching
//! whole words. Every pattern is ASCII, so offsets found in a lowercased copy slice the
//! original.

use super::words::{LEADS, NEGATIONS, PLACE_WORDS, QUESTION_OPENERS, SNEERED, SOFTENERS, SUBJECTS};

/// The fact's clause: up to the first comma, semicolon, dash or joining word.
pub(super) fn clause(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut end = text.len();
    for cut in [
        ",",
        ";",
        " - ",
        " \u{2014} ",
        " and i ",
        " and i'm ",
        " but ",
        " so ",
        " because ",
        " which ",
        " and still ",
        " lol",
        // Another subject takes over: "we live in Hackney and the boiler's gone again".
        " and the ",
        " and it ",
        " and it's ",
        " and its ",
        " and they ",
        " and he ",
        " and she ",
        " and that ",
        " and his ",
        " and her ",
        " and their ",
        " and everyone ",
    ] {
        if let Some(i) = lower.find(cut) {
            end = end.min(i);
        }
    }
    // "hates spicy food btw so keep it mild": an aside that ends what is told, not "BTW
    // Solicitors".
    for aside in [" btw", " fyi"] {
        let ends = |i: usize| {
            let rest = &lower[i + aside.len()..];
            rest.is_empty()
                || rest.starts_with([',', '.', '!', ';'])
                || [" so ", " but "].iter().any(|j| rest.starts_with(j))
        };
        if let Some((i, _)) = lower.match_indices(aside).find(|&(i, _)| ends(i)) {
            end = end.min(i);
        }
    }
    text[..end].trim().trim_end_matches(['.', '!']).trim().to_owned()
}

pub(super) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Where the sentence starts once the openers that carry nothing are gone.
pub(super) fn strip_leads(lower: &str) -> usize {
    let mut at = 0;
    loop {
        let rest = &lower[at..];
        let skipped = rest.len() - rest.trim_start_matches([' ', ',', '-', ':']).len();
        let rest = &rest[skipped..];
        match LEADS.iter().find(|l| starts_with_word(rest, l)) {
            Some(l) => at += skipped + l.len(),
            None => return at + skipped,
        }
    }
}

/// The sentence without a softener after its subject ("I just moved to Glasgow" is "I
/// moved to Glasgow"): within its first five words, the subject's words unbroken by any
/// mark, and a word after it that does not tell where ("we live just outside York" keeps
/// its "just"; "I just love ..." is left as it is, [`SNEERED`]). `None` when there is none
/// to take out.
pub(super) fn without_softener(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<(usize, &str)> = lower
        .split(' ')
        .scan(0, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .take(6)
        .collect();
    if !words.first().is_some_and(|(_, w)| SUBJECTS.contains(w)) {
        return None;
    }
    for k in 1..words.len().min(5) {
        let (start, word) = words[k];
        if words[k - 1].1.ends_with(|c: char| !c.is_alphanumeric()) {
            return None;
        }
        let next = words
            .get(k + 1)
            .map(|(_, w)| w.trim_end_matches(|c: char| !c.is_alphanumeric()));
        if word == "just" && next.is_some_and(|n| SNEERED.contains(&n)) {
            return None;
        }
        if SOFTENERS.contains(&word) && next.is_some_and(|n| !n.is_empty() && !PLACE_WORDS.contains(&n)) {
            let rest = text[start + word.len()..].trim_start();
            return Some(format!("{}{rest}", &text[..start]));
        }
    }
    None
}

pub(super) fn negated(lower: &str) -> bool {
    lower.contains("n't") || NEGATIONS.iter().any(|n| has_phrase(lower, n))
}

/// Whether `phrase` occurs in `text` as whole words.
pub(super) fn has_phrase(text: &str, phrase: &str) -> bool {
    phrase_at(text, phrase).is_some()
}

/// Where `phrase` first occurs in `text` as whole words.
pub(super) fn phrase_at(text: &str, phrase: &str) -> Option<usize> {
    text.match_indices(phrase).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

pub(super) fn starts_with_word(text: &str, word: &str) -> bool {
    text.starts_with(word) && !text[word.len()..].chars().next().is_some_and(char::is_alphanumeric)
}

/// The message cut into sentences at `.`, `!`, `?` and line breaks followed by a space.
pub(super) fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let next = bytes.get(k + 1).map(|&(_, n)| n);
        if c == '\n' || (matches!(c, '.' | '!' | '?') && next.is_none_or(char::is_whitespace)) {
            out.push(&text[start..i + c.len_utf8()]);
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

/// Words that open a clause told by the teller: "I", "my", "we".
const TELLER: &[&str] = &["i", "i'm", "im", "i've", "i am", "my", "we", "we're", "we've"];

/// Joining words and marks after which a clause of its own may begin.
const JOINERS: &[&str] = &[
    ", and ",
    " and ",
    "; ",
    ", ",
    // "quick q - I'm 84kg", "pay rise came through - I'm on £31.50 an hour now".
    " - ",
    " but ",
    " while ",
    " though ",
    " although ",
];

/// A sentence cut where a clause told by the teller begins ("I live in Leeds and I work at
/// the council", "I'm a nurse, and I'm allergic to latex"): each part is read as a sentence
/// of its own. A clause about someone else ("... and she lives in Lisbon") stays with the
/// one before it.
pub(super) fn parts(sentence: &str) -> Vec<&str> {
    let lower = sentence.to_ascii_lowercase();
    let mut cuts: Vec<(usize, usize)> = JOINERS
        .iter()
        .flat_map(|j| lower.match_indices(j).map(move |(i, _)| (i, i + j.len())))
        // "my husband and I have three kids": the teller joins a subject, no clause ends.
        .filter(|&(i, after)| {
            let joint = lower[i..after].trim() == "and" && starts_with_word(&lower[after..], "i");
            // After any lead: "So my partner and I are vegan".
            let lead = strip_leads(&lower).min(i);
            let subject = &lower[lead..i];
            !(joint && subject.starts_with("my ") && subject.split_whitespace().count() <= 3)
        })
        .filter(|&(_, after)| {
            let rest = &lower[after..];
            let rest = &rest[strip_leads(rest)..];
            TELLER.iter().any(|t| starts_with_word(rest, t))
        })
        .collect();
    // At one place the longest joiner wins: ", and " before ", ".
    cuts.sort_by_key(|&(i, after)| (i, std::cmp::Reverse(after)));
    let mut out = Vec::new();
    let mut start = 0;
    for (i, after) in cuts {
        if i < start {
            continue;
        }
        out.push(&sentence[start..i]);
        start = after;
    }
    out.push(&sentence[start..]);
    out.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// Where a question ends the sentence, the statement told before it: "I have type 1
/// diabetes, what snacks are good?" tells the diabetes. A sentence that asks from its start
/// ("Do I live in Paris?", "what should I cook if I'm allergic?") or asks only for a nod
/// ("I have a dog, right?") tells nothing; one that does not ask is whole.
pub(super) fn told_before_question(sentence: &str) -> Option<&str> {
    if !sentence.trim_end().ends_with('?') {
        return Some(sentence);
    }
    let lower = sentence.to_ascii_lowercase();
    let opens_question = |at: usize| {
        let rest = &lower[at..];
        let rest = &rest[strip_leads(rest)..];
        QUESTION_OPENERS.iter().any(|q| starts_with_word(rest, q))
    };
    if opens_question(0) {
        return None;
    }
    let cut = [
        ", so ",
        " so ",
        ", but ",
        ", and ",
        ", ",
        " - ",
        " \u{2014} ",
        " \u{2013} ",
        "; ",
    ]
    .iter()
    .flat_map(|j| lower.match_indices(j).map(move |(i, _)| (i, i + j.len())))
    // "I take 20 units at night - if I'm hiking tomorrow should I adjust it?": the
    // question is the supposition's.
    .filter(|&(_, after)| opens_question(after) || starts_with_word(&lower[after..], "if"))
    .map(|(i, _)| i)
    .min()?;
    Some(&sentence[..cut])
}
