//! Who says a line: a transcript opens each line with its speaker ("Ana: ...", "Tom Reed:
//! ..."), and a note opens with a label that names no one ("Note: ...", "Reminders: ...").
//! Judgment reads a line as its speaker's words (`judgment::fact`); search counts the
//! speaker as a name the line holds (`entities::held`). One rule for both.

/// Labels that open a note rather than name its speaker: "Update: I work at Meta now",
/// "When: Friday at 8". A plural is read as its singular ("Reminders:").
const LABELS: &[&str] = &[
    "note",
    "update",
    "correction",
    "fyi",
    "reminder",
    "ps",
    "edit",
    "todo",
    "important",
    "fact",
    "memory",
    "summary",
    "re",
    "user",
    "me",
    "status",
    "news",
    "context",
    "tip",
    "warning",
    "question",
    "answer",
    "q",
    "a",
    "subject",
    "topic",
    "memo",
    "idea",
    "goal",
    "plan",
    "task",
    "address",
    "phone",
    "email",
    "password",
    "name",
    "date",
    "time",
    "location",
    "where",
    "when",
    "what",
    "who",
];

/// What opens a line before a colon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening<'a> {
    /// A speaker's name as written ("Tom Reed").
    Speaker(&'a str),
    /// A note's label as written ("Note").
    Label(&'a str),
}

/// The speaker or label `text` opens with: one or two capitalised words, a colon, then a
/// sentence. A key with a value that is no sentence ("Gate code: 4512", "Birthday: 4 May")
/// is neither, and none is read.
pub fn opening(text: &str) -> Option<Opening<'_>> {
    let text = text.trim_start();
    let (name, rest) = text.split_once(':')?;
    let parts: Vec<&str> = name.split(' ').collect();
    let named = parts.len() <= 2
        && parts.iter().all(|p| {
            p.chars().next().is_some_and(char::is_uppercase)
                && p.chars()
                    .all(|c| c.is_alphabetic() || c == '-' || c == '\'' || c == '.')
        });
    let said =
        rest.starts_with(char::is_whitespace) && rest.trim_start().chars().next().is_some_and(|c| !c.is_ascii_digit());
    if !named || !said {
        return None;
    }
    let low = name.to_lowercase();
    let singular = low.strip_suffix('s').unwrap_or(&low);
    if LABELS.contains(&low.as_str()) || LABELS.contains(&singular) {
        return Some(Opening::Label(name));
    }
    Some(Opening::Speaker(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_speaker_opens_a_transcripts_line_and_a_label_a_note() {
        assert_eq!(opening("Ana: How was your weekend?"), Some(Opening::Speaker("Ana")));
        assert_eq!(opening("Tom Reed: fine"), Some(Opening::Speaker("Tom Reed")));
        for (text, label) in [
            ("Note: call the vet", "Note"),
            ("Reminders: bins on Thursday", "Reminders"),
            ("When: Friday at 8", "When"),
        ] {
            assert_eq!(opening(text), Some(Opening::Label(label)), "{text}");
        }
        for text in [
            "Gate code: 4512",
            "Birthday: 4 May",
            "Marcus:",
            "Marcus said: hello",
            "the plan: go",
            "Three Big Words: here",
            "No colon here",
        ] {
            assert_eq!(opening(text), None, "{text}");
        }
    }
}
