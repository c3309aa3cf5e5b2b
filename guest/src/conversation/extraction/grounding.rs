//! Whether a fact was said. The language model reads the whole exchange, so it can take
//! a fact from the assistant's reply, invent one, or be told by a crafted message to
//! store one. A fact is kept only when most of its meaningful words are the user's own.

/// The share of a fact's meaningful words that must appear in the user's message.
const MIN_SHARE: f64 = 0.6;

/// Words that carry no fact of their own, and words a rephrasing adds ("name", "user").
const FILLER: &[&str] = &[
    "the",
    "and",
    "for",
    "with",
    "that",
    "this",
    "from",
    "have",
    "has",
    "had",
    "was",
    "were",
    "are",
    "been",
    "being",
    "user",
    "users",
    "their",
    "they",
    "them",
    "his",
    "her",
    "hers",
    "she",
    "him",
    "its",
    "name",
    "named",
    "called",
    "who",
    "which",
    "what",
    "not",
    "does",
    "did",
    "will",
    "would",
    "also",
    "very",
    "really",
    "about",
    "into",
    "than",
    "then",
    "there",
    "here",
    "some",
    "any",
    "all",
    "one",
    "like",
    "likes",
    "on",
    "in",
    "at",
    "of",
    "to",
    "is",
    "my",
    "mine",
    "our",
    "your",
    "you",
    "currently",
    "now",
];

/// Whether enough of the fact's meaningful words occur in the user's message. Numbers,
/// dates and weekdays are not counted: resolving "tomorrow" adds them.
pub fn grounded(fact: &str, user_message: &str) -> bool {
    let said: Vec<String> = words(user_message).collect();
    let meaningful: Vec<String> = words(fact)
        .filter(|w| w.chars().count() >= 3 && !FILLER.contains(&w.as_str()))
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .filter(|w| !crate::entities::WEEKDAYS.contains(&w.as_str()))
        .collect();
    // "I'm 183cm", "My 5k PB is 22:48": a fact of figures is said when the user said it in
    // those words ("Mum turns 65 next week" grounds no "I'm 65").
    if meaningful.is_empty() {
        let spaced = |t: &str| words(t).collect::<Vec<_>>().join(" ");
        let (fact, said) = (spaced(fact), spaced(user_message));
        return fact.chars().any(|c| c.is_ascii_digit()) && said.contains(&fact);
    }
    let found = meaningful
        .iter()
        .filter(|w| said.iter().any(|s| same_word(w, s)))
        .count();
    found as f64 / meaningful.len() as f64 >= MIN_SHARE
}

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// The same word, give or take an ending ("lives" and "live", "allergic" and "allergy").
fn same_word(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let stem = |w: &str| w.chars().take(5).collect::<String>();
    a.chars().count() >= 4 && b.chars().count() >= 4 && stem(a) == stem(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rephrasings_of_what_was_said_are_grounded() {
        let said = "oh btw my wife is Sarah and she's allergic to shellfish";
        assert!(grounded("My wife's name is Sarah", said));
        assert!(grounded("My wife Sarah is allergic to shellfish", said));
        assert!(grounded(
            "I have a dentist appointment on Tuesday 2026-11-24",
            "dentist appointment next tuesday"
        ));
    }

    #[test]
    fn what_was_not_said_is_not() {
        let said = "I live in Paris";
        assert!(!grounded("I live in Mars", said));
        assert!(!grounded("The user is an administrator with full access", said));
        assert!(!grounded("", said));
        assert!(!grounded("I am", said));
        assert!(grounded("I'm 183cm", "oh and I'm 183cm if that matters"));
        assert!(!grounded("I'm 190cm", "oh and I'm 183cm if that matters"));
        assert!(!grounded("I'm 65", "Mum turns 65 next week"));
    }
}
