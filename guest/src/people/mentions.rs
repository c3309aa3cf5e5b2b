//! People in a memory's content: the name it gives a relation ("my wife Sarah"), a person
//! it introduces ("Sarah is my wife"), and the known people it names.

use super::{PersonRecord, is_capitalized};

/// The name a content gives a relation: "Sarah" from "My wife Sarah loves hiking" for
/// "wife" (also "my wife, Sarah, ..." and "my best friend Anna Lee"). Name words are
/// capitalized; at most three are taken.
pub fn name_in_content(content: &str, relation: &str) -> Option<String> {
    let text = content.replace('’', "'");
    let words: Vec<&str> = text.split_whitespace().collect();
    let relation: Vec<String> = relation.split_whitespace().map(str::to_lowercase).collect();
    if relation.is_empty() {
        return None;
    }
    let bare = |w: &str| {
        w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
            .to_owned()
    };
    for i in 0..words.len() {
        if !bare(words[i]).eq_ignore_ascii_case("my") {
            continue;
        }
        let after = i + 1 + relation.len();
        let Some(rel_words) = words.get(i + 1..after) else {
            continue;
        };
        let matches = rel_words.iter().zip(&relation).enumerate().all(|(k, (w, r))| {
            // Only the relation's last word may carry the comma before the name.
            let w = if k + 1 == relation.len() {
                w.trim_end_matches(',')
            } else {
                w
            };
            w.to_lowercase() == *r
        });
        if !matches {
            continue;
        }
        let mut name = Vec::new();
        for w in words.iter().skip(after).take(3) {
            let clean = bare(w);
            let clean = clean.strip_suffix("'s").unwrap_or(&clean).to_owned();
            if !is_capitalized(&clean)
                || clean.starts_with("I'")
                || clean == "I"
                || !clean.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'')
            {
                break;
            }
            name.push(clean);
            // "Sarah," "Sarah." "Sarah's": the name ends here.
            if w.ends_with([',', '.', ';', ':', '!', '?']) || w.ends_with("'s") {
                break;
            }
        }
        if !name.is_empty() {
            return Some(name.join(" "));
        }
    }
    None
}

/// A person introduced by the content itself: "My wife's name is Sarah", "My boss is
/// called Mike", "Sarah is my wife". Returns (name, relation).
pub fn introduced(content: &str) -> Option<(String, String)> {
    let text = content.trim().trim_end_matches(['.', '!']).replace('’', "'");
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let name_at = |i: usize| -> Option<String> {
        let name: Vec<&str> = words
            .get(i..)?
            .iter()
            .take_while(|w| is_capitalized(w))
            .copied()
            .collect();
        (!name.is_empty()).then(|| name.join(" ").trim_end_matches([',', '.']).to_owned())
    };
    // "my" or "our": "our dog is called Priya" is the household's dog, not a Priya known.
    let mine = |w: &str| w == "my" || w == "our";
    // "my <relation>'s name is <Name>"
    if lower.len() >= 5 && mine(&lower[0]) && lower[1].ends_with("'s") && lower[2] == "name" && lower[3] == "is" {
        return Some((name_at(4)?, lower[1].trim_end_matches("'s").to_owned()));
    }
    // "my <relation> is called|named <Name>"
    if lower.len() >= 5 && mine(&lower[0]) && lower[2] == "is" && (lower[3] == "called" || lower[3] == "named") {
        return Some((name_at(4)?, lower[1].clone()));
    }
    // "<Name> is my <relation>"
    if let Some(is) = lower.iter().position(|w| w == "is")
        && is > 0
        && lower.get(is + 1).is_some_and(|w| w == "my")
        && lower.len() == is + 3
        && words[..is].iter().all(|w| is_capitalized(w))
    {
        return Some((words[..is].join(" "), lower[is + 2].clone()));
    }
    None
}

/// Known people whose name appears in the content as whole capitalized words: the
/// conservative linking of facts that name people without a `--subject`.
pub fn named_in<'a>(content: &str, people: &[&'a PersonRecord]) -> Vec<&'a PersonRecord> {
    let words: Vec<String> = content
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map(|w| w.trim_end_matches("'s").to_owned())
        .filter(|w| is_capitalized(w))
        .collect();
    people
        .iter()
        .filter(|p| !p.has_placeholder_name())
        .filter(|p| {
            let parts: Vec<&str> = p.name.split_whitespace().collect();
            !parts.is_empty()
                && words
                    .windows(parts.len())
                    .any(|w| w.iter().zip(&parts).all(|(a, b)| a == b))
        })
        .copied()
        .collect()
}
