//! Deciding whether a new fact replaces an old one. Candidates come from vector
//! similarity; this module verifies them. Both paths fail closed: when unsure, keep both.
//! A wrong supersession hides a true fact; a missed one only leaves a stale fact beside
//! the new one, which the user can still see and correct.

use crate::ports::LlmRequest;

/// The question put to the language model. The answer must be one word.
pub fn verification_request(old: &str, new: &str) -> LlmRequest {
    LlmRequest {
        system: "You maintain a user's long-term memory. Decide whether a NEW fact replaces an OLD \
                 fact: both state the same attribute of the same person or thing, and the new value \
                 makes the old one no longer true. Facts that can both be true (liking dogs and \
                 liking cats) do not replace each other. Answer with exactly one word: yes or no."
            .to_owned(),
        prompt: format!("OLD: {old}\nNEW: {new}\nDoes NEW replace OLD?"),
        max_tokens: 3,
    }
}

/// Reads the model's answer strictly: `Some(true)` for a clear yes, `Some(false)` for a
/// clear no, `None` for anything else (which the caller treats as no).
pub fn parse_verdict(answer: &str) -> Option<bool> {
    let word = answer.trim().trim_end_matches(['.', '!']).trim().to_lowercase();
    match word.as_str() {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// A fact read as "subject's attribute is value".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub subject: String,
    pub attribute: String,
    pub value: String,
}

/// Relations that hold one value at a time, as "<subject> <verb> <preposition> <value>":
/// you live in one place and work at one company, but like many things.
const SINGLE_VALUED: &[(&[&str], &str)] = &[
    (
        &[
            "live in",
            "lives in",
            "moved to",
            "am living in",
            "is living in",
            "reside in",
            "resides in",
        ],
        "lives in",
    ),
    (
        &[
            "work at",
            "works at",
            "work for",
            "works for",
            "am working at",
            "is working at",
        ],
        "works at",
    ),
    (&["work as", "works as", "am a", "is a"], "works as"),
    (&["am from", "is from", "come from", "comes from"], "is from"),
    (&["am married to", "is married to"], "is married to"),
    (&["drive a", "drives a"], "drives"),
];

/// Words that refer to the user.
const USER_WORDS: &[&str] = &["i", "user", "the user"];
const USER_POSSESSIVES: &[&str] = &["my", "user's", "the user's"];

fn normalize(text: &str) -> String {
    let lower = text.trim().to_lowercase().replace('’', "'");
    let lower = lower.trim_end_matches(['.', '!', '?']).trim().to_owned();
    // Expand the contractions the patterns care about.
    let lower = lower.replace("i'm ", "i am ").replace("i've ", "i have ");
    lower.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn subject_of(words: &str) -> String {
    if USER_WORDS.contains(&words) || USER_POSSESSIVES.contains(&words) {
        "user".to_owned()
    } else {
        words.trim_end_matches("'s").to_owned()
    }
}

fn clean_value(v: &str) -> String {
    let v = v.trim();
    let v = v.strip_prefix("now ").unwrap_or(v);
    let v = v.strip_suffix(" now").unwrap_or(v);
    v.trim().to_owned()
}

/// Reads "My favorite color is blue", "Sarah's birthday is in May", "I live in Porto",
/// "User works at Acme" as statements; anything else is `None`.
pub fn parse_statement(text: &str) -> Option<Statement> {
    let t = normalize(text);
    // "<possessor> <attribute> is|are|was <value>"
    for copula in [" is ", " are ", " was ", " has changed to ", " changed to "] {
        if let Some((head, value)) = t.split_once(copula) {
            let (possessor, attribute) = head.split_once(' ')?;
            let is_possessive = USER_POSSESSIVES.contains(&possessor) || possessor.ends_with("'s");
            let attribute = attribute.strip_prefix("current ").unwrap_or(attribute);
            if is_possessive && !attribute.is_empty() && attribute.split(' ').count() <= 4 {
                let value = clean_value(value);
                if value.is_empty() {
                    return None;
                }
                return Some(Statement {
                    subject: subject_of(possessor),
                    attribute: attribute.to_owned(),
                    value,
                });
            }
        }
    }
    // "<subject> <single-valued relation> <value>"
    for (forms, attribute) in SINGLE_VALUED {
        for form in *forms {
            let needle = format!(" {form} ");
            if let Some(pos) = t.find(&needle) {
                let subject = &t[..pos];
                let value = clean_value(&t[pos + needle.len()..]);
                if subject.is_empty() || subject.split(' ').count() > 3 || value.is_empty() {
                    continue;
                }
                let subject = subject.strip_suffix(" now").unwrap_or(subject);
                return Some(Statement {
                    subject: subject_of(subject),
                    attribute: (*attribute).to_owned(),
                    value,
                });
            }
        }
    }
    None
}

/// The conservative rule: replace only when both facts state the same attribute of the
/// same subject with different values.
pub fn rule_says_replaces(old: &str, new: &str) -> bool {
    match (parse_statement(old), parse_statement(new)) {
        (Some(a), Some(b)) => a.subject == b.subject && a.attribute == b.attribute && a.value != b.value,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_replaces_changed_values_of_one_attribute() {
        assert!(rule_says_replaces(
            "My favorite color is red",
            "My favorite color is blue"
        ));
        assert!(rule_says_replaces(
            "My favorite color is red.",
            "My favorite color is now blue"
        ));
        assert!(rule_says_replaces(
            "User's favorite color is red",
            "My favorite color is blue"
        ));
        assert!(rule_says_replaces("I live in Lisbon", "I live in Porto"));
        assert!(rule_says_replaces("I live in Lisbon", "I moved to Porto"));
        assert!(rule_says_replaces("I work at Acme", "I work for Globex"));
        assert!(rule_says_replaces(
            "Sarah's birthday is March 3",
            "Sarah's birthday is March 4"
        ));
    }

    #[test]
    fn the_rule_keeps_both_when_in_doubt() {
        assert!(!rule_says_replaces("I like dogs", "I like cats"));
        assert!(!rule_says_replaces(
            "My favorite color is blue",
            "My favorite color is blue"
        ));
        assert!(!rule_says_replaces(
            "My favorite color is red",
            "My favorite food is pizza"
        ));
        assert!(!rule_says_replaces(
            "My favorite color is red",
            "Sarah's favorite color is blue"
        ));
        assert!(!rule_says_replaces("I live in Lisbon", "My favorite city is Porto"));
        assert!(!rule_says_replaces(
            "I'm allergic to peanuts",
            "I'm allergic to shellfish"
        ));
    }

    #[test]
    fn only_a_clear_yes_counts() {
        assert_eq!(parse_verdict("yes"), Some(true));
        assert_eq!(parse_verdict(" Yes.\n"), Some(true));
        assert_eq!(parse_verdict("no"), Some(false));
        for unclear in ["", "maybe", "yes, probably", "Yes and no", "y", "{\"answer\": \"yes\"}"] {
            assert_eq!(parse_verdict(unclear), None, "{unclear:?}");
        }
    }
}
