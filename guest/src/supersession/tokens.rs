//! Splitting a sentence into words, refusing anything that is not one plain clause.

use super::lexicon::HEDGES;

/// A word of the text: lowercased, whether it was capitalized, whether a comma followed.
#[derive(Debug, Clone)]
pub(super) struct Tok {
    pub(super) low: String,
    pub(super) cap: bool,
    pub(super) comma: bool,
}

impl Tok {
    pub(super) fn is(&self, word: &str) -> bool {
        self.low == word
    }
}

/// Contractions, expanded; `None` for those that make a sentence hypothetical.
fn expand(word: &str) -> Option<&'static [&'static str]> {
    Some(match word {
        "i'm" => &["i", "am"],
        "we're" => &["we", "are"],
        "they're" => &["they", "are"],
        "she's" => &["she", "is"],
        "he's" => &["he", "is"],
        "it's" => &["it", "is"],
        "i've" => &["i", "have"],
        "we've" => &["we", "have"],
        "they've" => &["they", "have"],
        "don't" => &["do", "not"],
        "doesn't" => &["does", "not"],
        "didn't" => &["did", "not"],
        "isn't" => &["is", "not"],
        "aren't" => &["are", "not"],
        "wasn't" => &["was", "not"],
        "weren't" => &["were", "not"],
        "haven't" => &["have", "not"],
        "hasn't" => &["has", "not"],
        "i'd" | "we'd" | "she'd" | "he'd" | "they'd" | "i'll" | "we'll" | "she'll" | "he'll" | "they'll" | "won't"
        | "can't" | "couldn't" | "wouldn't" | "shouldn't" | "let's" => &["would"],
        _ => return None,
    })
}

/// The words of a one-clause sentence, or `None` for anything else (questions, several
/// sentences, hedged or conditional ones).
pub(super) fn tokenize(text: &str) -> Option<Vec<Tok>> {
    let t = text.trim().replace(['\u{2019}', '\u{2018}'], "'");
    let t = t.trim_end_matches(['.', '!']).trim_end();
    if t.is_empty()
        || t.contains(['?', ';', '\n', '(', ')', '"', '!'])
        || t.contains(". ")
        || t.contains(" - ")
        || t.contains(" -- ")
    {
        return None;
    }
    let mut out = Vec::new();
    for raw in t.split_whitespace() {
        let comma = raw.ends_with(',');
        let word = raw.trim_matches(',');
        if word.is_empty() {
            continue;
        }
        let cap = word.chars().next().is_some_and(char::is_uppercase);
        let mut low = word.to_lowercase();
        if low == "a.m." || low == "p.m." {
            low = low.replace('.', "");
        }
        match expand(&low) {
            Some(parts) => out.extend(parts.iter().map(|p| Tok {
                low: (*p).to_owned(),
                cap: false,
                comma: false,
            })),
            None => out.push(Tok { low, cap, comma }),
        }
    }
    // "Actually, I live in Porto", "Update: ...": a lead-in, not part of the fact.
    while out.len() > 1
        && matches!(
            out[0].low.trim_end_matches(':'),
            "actually" | "now" | "so" | "well" | "oh" | "btw" | "update" | "correction" | "fyi"
        )
    {
        out.remove(0);
    }
    // "May" the month is no hedge.
    if out
        .iter()
        .any(|t| HEDGES.contains(&t.low.as_str()) && !(t.low == "may" && t.cap))
    {
        return None;
    }
    // A pronoun after the start is a second clause: "I live in Lisbon and she works there".
    if out
        .iter()
        .skip(1)
        .any(|t| matches!(t.low.as_str(), "i" | "we" | "she" | "he" | "they" | "it"))
    {
        return None;
    }
    Some(out)
}
