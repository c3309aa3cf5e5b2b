//! Taking secrets out of what people say before it is stored. A memory that holds a
//! secret is refused; a message cannot be (the exchange happened), so the secret is
//! replaced instead, using the same detectors (`crate::secrets`) that refuse memories.
//!
//! Redaction errs towards removing too much: first the words that are secrets on their
//! own (a key, a card number), then, when the sentence still states a secret ("my
//! password is hunter2", where no single word is one), the whole sentence, and, when the
//! text as a whole still does, all of it.

use crate::secrets;

/// What a secret is replaced by.
pub const REDACTED: &str = "[redacted]";

/// The messages of one exchange with their secrets replaced, and how many replacements
/// were made. A value taken out with the sentence that stated it ("my password is
/// hunter2") is also taken out wherever else it appears in the exchange ("Don't forget
/// hunter2!", or the agent repeating it), though nothing there says it is a secret.
pub fn redact_all(texts: &[&str]) -> (Vec<String>, u32) {
    let mut values = Vec::new();
    let mut count = 0;
    let mut out: Vec<String> = texts
        .iter()
        .map(|t| {
            let (text, n) = redact_collecting(t, &mut values);
            count += n;
            text
        })
        .collect();
    for text in &mut out {
        let (again, n) = replace_words(text, &values);
        *text = again;
        count += n;
    }
    (out, count)
}

/// The text with its secrets replaced, and how many replacements were made.
pub fn redact(text: &str) -> (String, u32) {
    redact_collecting(text, &mut Vec::new())
}

/// The words of a sentence that could be the value it states: any word holding a digit or
/// a symbol, and the word after "is", "was", ":" or "=".
fn values_in(sentence: &str, values: &mut Vec<String>) {
    let words: Vec<&str> = sentence
        .split_whitespace()
        .map(|w| w.trim_matches(is_edge_punctuation))
        .collect();
    for (i, w) in words.iter().enumerate() {
        let after_is = i > 0 && matches!(words[i - 1].to_ascii_lowercase().as_str(), "is" | "was" | ":" | "=");
        let odd = w.chars().any(|c| !c.is_alphabetic());
        if w.chars().count() >= 4 && (odd || after_is) && !values.iter().any(|v| v == w) {
            values.push((*w).to_owned());
        }
    }
}

/// Every whole-word occurrence of the values replaced (punctuation around a word kept).
fn replace_words(text: &str, values: &[String]) -> (String, u32) {
    if values.is_empty() {
        return (text.to_owned(), 0);
    }
    map_words(text, |word| {
        let core = word.trim_matches(is_edge_punctuation);
        if core.is_empty() || !values.iter().any(|v| v == core) {
            return None;
        }
        let at = word.find(core).unwrap_or(0);
        Some(format!("{}{REDACTED}{}", &word[..at], &word[at + core.len()..]))
    })
}

/// Punctuation that may end or wrap a word without being part of it.
fn is_edge_punctuation(c: char) -> bool {
    matches!(c, '.' | ',' | '!' | '?' | ';' | '"' | '\'' | '(' | ')')
}

/// The text with each whitespace-separated word replaced where `f` gives a replacement,
/// whitespace kept as it was; and how many were replaced.
fn map_words(text: &str, f: impl Fn(&str) -> Option<String>) -> (String, u32) {
    let mut out = String::with_capacity(text.len());
    let mut count = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        match (!word.is_empty()).then(|| f(word)).flatten() {
            Some(replacement) => {
                out.push_str(&replacement);
                count += 1;
            }
            None => out.push_str(word),
        }
        rest = &rest[end..];
    }
    (out, count)
}

fn redact_collecting(text: &str, values: &mut Vec<String>) -> (String, u32) {
    if secrets::detect(text).is_none() {
        return (text.to_owned(), 0);
    }
    let mut count = 0;
    let mut out = String::with_capacity(text.len());
    for sentence in sentences(text) {
        if secrets::detect(sentence).is_none() {
            out.push_str(sentence);
            continue;
        }
        let (words, n) = redact_words(sentence);
        if secrets::detect(&words).is_none() {
            out.push_str(&words);
            count += n;
        } else {
            values_in(sentence, values);
            // Keep the sentence's trailing whitespace, so that the text keeps its shape.
            let trimmed = sentence.trim_end();
            out.push_str(REDACTED);
            out.push_str(&sentence[trimmed.len()..]);
            count += 1;
        }
    }
    if secrets::detect(&out).is_some() {
        return (REDACTED.to_owned(), count.max(1));
    }
    (out, count)
}

/// Each whitespace-separated word that is a secret by itself replaced.
fn redact_words(sentence: &str) -> (String, u32) {
    map_words(sentence, |word| secrets::detect(word).map(|_| REDACTED.to_owned()))
}

/// The text cut after each `.`, `!`, `?` or line break that is followed by whitespace,
/// each piece keeping its trailing whitespace; the pieces join back to the text.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let ends = matches!(c, '.' | '!' | '?' | '\n') && chars.peek().is_none_or(|(_, n)| n.is_whitespace());
        if ends {
            // Take the whitespace after it into this piece.
            let mut end = i + c.len_utf8();
            while let Some(&(j, n)) = chars.peek() {
                if !n.is_whitespace() {
                    break;
                }
                end = j + n.len_utf8();
                chars.next();
            }
            out.push(&text[start..end]);
            start = end;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_untouched() {
        assert_eq!(
            redact("I live in Porto. I like tea!"),
            ("I live in Porto. I like tea!".into(), 0)
        );
    }

    #[test]
    fn a_key_is_replaced_and_the_rest_kept() {
        let key = format!("sk-proj-{}", "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI");
        let (text, n) = redact(&format!("Use {key} for the staging box. I live in Porto."));
        assert_eq!(n, 1);
        assert!(!text.contains(&key), "{text}");
        assert!(
            text.contains("[redacted]") && text.contains("I live in Porto."),
            "{text}"
        );
    }

    #[test]
    fn a_stated_password_takes_its_sentence() {
        let (text, n) = redact("Thanks! my password is hunter2 by the way. See you.");
        assert!(n >= 1);
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.starts_with("Thanks! ") && text.ends_with("See you."), "{text}");
        assert!(crate::secrets::detect(&text).is_none());
    }

    #[test]
    fn a_stated_value_goes_wherever_it_is_repeated() {
        let (texts, n) = redact_all(&[
            "My password is hunter2. Don't forget hunter2!",
            "Got it, I'll keep hunter2 in mind.",
        ]);
        assert!(texts.iter().all(|t| !t.contains("hunter2")), "{texts:?}");
        assert_eq!(texts[0], "[redacted] Don't forget [redacted]!");
        assert_eq!(texts[1], "Got it, I'll keep [redacted] in mind.");
        assert_eq!(n, 3);
        assert_eq!(redact_all(&["I live in Porto", "Nice!"]).1, 0);
    }

    #[test]
    fn pieces_join_back_to_the_text() {
        let text = "a. b!  c?\nd e.f";
        assert_eq!(sentences(text).concat(), text);
        assert_eq!(sentences(text), ["a. ", "b!  ", "c?\n", "d e.f"]);
    }
}
