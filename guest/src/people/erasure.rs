//! Taking a forgotten person's names out of text: every whole-word occurrence of their
//! name or an alias, in any case, becomes [`FORGOTTEN`]. What a purge does to the words
//! the owner keeps (their messages, the memories that named them among other things).

use serde_json::Value;

use super::{PersonRecord, is_stand_in};

/// What a name is replaced by. It reads as a gap in the sentence ("My sister [forgotten]
/// called") and says why the word is missing, as `[redacted]` does for a secret.
pub const FORGOTTEN: &str = "[forgotten]";

/// The names of one or more people, ready to be taken out of text.
#[derive(Debug, Clone, Default)]
pub struct Erasure {
    /// Each name as its words, folded to lower case; the longest first, so that "Anna
    /// Lee" goes whole rather than leaving "Lee" after "Anna".
    names: Vec<Vec<Vec<char>>>,
}

impl Erasure {
    /// The names and aliases of these people. Stand-ins ("my sister", "Tom's wife") are
    /// left alone: they name a relation, not the person, and may mean someone else.
    pub fn of<'a>(people: impl IntoIterator<Item = &'a PersonRecord>) -> Self {
        let names: Vec<&str> = people
            .into_iter()
            .flat_map(|p| std::iter::once(&p.name).chain(&p.aliases))
            .map(String::as_str)
            .filter(|n| !is_stand_in(n))
            .collect();
        Erasure::new(names)
    }

    /// These names, as they are.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut names: Vec<Vec<Vec<char>>> = names
            .into_iter()
            .map(|n| {
                n.split_whitespace()
                    .map(|w| w.chars().flat_map(fold).collect())
                    .collect()
            })
            .filter(|words: &Vec<Vec<char>>| !words.is_empty())
            .collect();
        let length = |words: &Vec<Vec<char>>| words.iter().map(Vec::len).sum::<usize>() + words.len();
        names.sort_by(|a, b| length(b).cmp(&length(a)).then_with(|| a.cmp(b)));
        names.dedup();
        Erasure { names }
    }

    /// Whether there is no name to erase.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The text with the names replaced; `None` when it names none. Text already erased
    /// stays as it is, so erasing twice is erasing once.
    pub fn erase(&self, text: &str) -> Option<String> {
        if self.names.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut changed = false;
        let mut at = 0;
        let mut after_word = false;
        while let Some(c) = text[at..].chars().next() {
            if text[at..].starts_with(FORGOTTEN) {
                out.push_str(FORGOTTEN);
                at += FORGOTTEN.len();
                after_word = false;
                continue;
            }
            if !after_word && let Some(end) = self.names.iter().find_map(|name| name_at(text, at, name)) {
                out.push_str(FORGOTTEN);
                changed = true;
                at = end;
                after_word = false;
                continue;
            }
            out.push(c);
            after_word = c.is_alphanumeric();
            at += c.len_utf8();
        }
        changed.then_some(out)
    }

    /// Erases the names from every string of a JSON value (not from its keys); whether
    /// any changed.
    pub fn erase_value(&self, value: &mut Value) -> bool {
        match value {
            Value::String(s) => match self.erase(s) {
                Some(erased) => {
                    *s = erased;
                    true
                }
                None => false,
            },
            Value::Array(items) => items.iter_mut().fold(false, |changed, v| self.erase_value(v) | changed),
            Value::Object(fields) => fields
                .values_mut()
                .fold(false, |changed, v| self.erase_value(v) | changed),
            _ => false,
        }
    }
}

/// A character as names are compared: lower case, a typographic apostrophe as a plain one.
fn fold(c: char) -> impl Iterator<Item = char> {
    let c = if c == '’' { '\'' } else { c };
    c.to_lowercase()
}

/// Where the name starting at byte `at` of `text` ends, if one does there and ends a
/// word: its words in order, any run of white space between them. The caller checks that
/// `at` starts a word.
fn name_at(text: &str, at: usize, words: &[Vec<char>]) -> Option<usize> {
    let mut chars = text[at..].char_indices().peekable();
    let mut end = at;
    for (k, word) in words.iter().enumerate() {
        if k > 0 {
            let mut spaced = false;
            while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {
                spaced = true;
            }
            if !spaced {
                return None;
            }
        }
        let mut rest: &[char] = word;
        while !rest.is_empty() {
            let (i, c) = chars.next()?;
            for f in fold(c) {
                rest = rest.strip_prefix(&[f])?;
            }
            end = at + i + c.len_utf8();
        }
    }
    // "Ann" is not in "Annual"; "Zanzibarina's" holds "Zanzibarina".
    match chars.peek() {
        Some((_, c)) if c.is_alphanumeric() => None,
        _ => Some(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn erase(names: &[&str], text: &str) -> String {
        Erasure::new(names.iter().copied())
            .erase(text)
            .unwrap_or_else(|| text.to_owned())
    }

    #[test]
    fn whole_names_in_any_case_and_possessives_go() {
        let names = ["Zanzibarina", "Zanzi", "Anna Lee"];
        assert_eq!(
            erase(&names, "My sister Zanzibarina called about Quxville"),
            "My sister [forgotten] called about Quxville"
        );
        assert_eq!(
            erase(&names, "ZANZIBARINA's kids, zanzi’s dog; (Zanzi)"),
            "[forgotten]'s kids, [forgotten]’s dog; ([forgotten])"
        );
        assert_eq!(erase(&names, "Anna  Lee\nand Anna"), "[forgotten]\nand Anna");
        assert_eq!(erase(&names, "anna\tlee."), "[forgotten].");
    }

    #[test]
    fn other_words_that_hold_a_name_stay() {
        let names = ["Ann", "Zanzi"];
        for text in ["Annual report", "Joann", "Zanzibar", "Ann2", "deZanzi"] {
            assert_eq!(erase(&names, text), text);
        }
        assert_eq!(Erasure::new(["Ann"]).erase("Nothing here"), None);
        assert_eq!(Erasure::default().erase("Ann"), None);
        assert!(Erasure::default().is_empty());
    }

    #[test]
    fn letters_beyond_ascii_fold_too() {
        assert_eq!(erase(&["Élodie"], "ÉLODIE et élodie"), "[forgotten] et [forgotten]");
        assert_eq!(erase(&["Søren"], "søren's"), "[forgotten]'s");
    }

    #[test]
    fn erasing_twice_is_erasing_once() {
        // Even when a name is the placeholder's own word.
        let erasure = Erasure::new(["Forgotten", "Zee"]);
        let once = erasure.erase("Zee and forgotten").unwrap();
        assert_eq!(once, "[forgotten] and [forgotten]");
        assert_eq!(erasure.erase(&once), None);
    }

    #[test]
    fn stand_ins_are_not_names() {
        let mut p = PersonRecord::parse(
            r#"{"id":"p","version":1,"owner_user_id":"u","name":"Zee","aliases":["my sister","Tom's wife","Z. Z."],"created_at":"2026-01-01T00:00:00+00:00"}"#,
        )
        .unwrap();
        let text = "my sister Zee is Tom's wife, Z. Z.";
        assert_eq!(
            Erasure::of([&p]).erase(text).unwrap(),
            "my sister [forgotten] is Tom's wife, [forgotten]"
        );
        p.name = "my sister".into();
        p.aliases.clear();
        assert!(Erasure::of([&p]).is_empty());
    }

    #[test]
    fn strings_inside_json_are_erased() {
        let mut value = serde_json::json!({"note": "for Zee", "tags": ["zee", 3, {"who": "ZEE"}], "Zee": true});
        assert!(Erasure::new(["Zee"]).erase_value(&mut value));
        assert_eq!(
            value,
            serde_json::json!({"note": "for [forgotten]", "tags": ["[forgotten]", 3, {"who": "[forgotten]"}], "Zee": true})
        );
        assert!(!Erasure::new(["Zee"]).erase_value(&mut value));
    }
}
