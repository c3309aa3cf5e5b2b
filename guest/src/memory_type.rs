//! Memory types, their lifetimes, and the heuristic that infers a type from content.

use chrono::TimeDelta;
use serde::{Deserialize, Serialize};

/// What a memory is; decides how long it lives (seed 000's table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryType {
    Preference,
    Identity,
    Relationship,
    Knowledge,
    Context,
    Event,
    Task,
    Observation,
    /// A summary of a past week; only `reflect` writes one by itself.
    Reflection,
}

impl MemoryType {
    /// All types, long-lived first, then reflections (the order of `memory-type` in
    /// `wit/types.wit`).
    pub const ALL: [MemoryType; 9] = [
        MemoryType::Preference,
        MemoryType::Identity,
        MemoryType::Relationship,
        MemoryType::Knowledge,
        MemoryType::Context,
        MemoryType::Event,
        MemoryType::Task,
        MemoryType::Observation,
        MemoryType::Reflection,
    ];

    /// The lowercase name used in JSONL and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryType::Preference => "preference",
            MemoryType::Identity => "identity",
            MemoryType::Relationship => "relationship",
            MemoryType::Knowledge => "knowledge",
            MemoryType::Context => "context",
            MemoryType::Event => "event",
            MemoryType::Task => "task",
            MemoryType::Observation => "observation",
            MemoryType::Reflection => "reflection",
        }
    }

    /// How long an ephemeral type lives, measured from `observed_at` (else `created_at`);
    /// `None` for long-lived types, which never decay.
    pub fn ttl(self) -> Option<TimeDelta> {
        match self {
            MemoryType::Context => Some(TimeDelta::days(7)),
            MemoryType::Event => Some(TimeDelta::days(30)),
            MemoryType::Task => Some(TimeDelta::days(14)),
            MemoryType::Observation => Some(TimeDelta::days(3)),
            _ => None,
        }
    }

    /// The type with this lowercase name.
    pub fn parse(name: &str) -> Option<MemoryType> {
        MemoryType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// Whether the type decays.
    pub fn is_ephemeral(self) -> bool {
        self.ttl().is_some()
    }
}

/// Cue phrases per type, checked in this order; the first type with a cue wins. A cue is
/// whole words; a trailing `*` lets the last word be a prefix ("prefer*" matches
/// "preferred"). Order matters: "I need to call my wife" is a task before it is a
/// relationship, and "I'm currently in Lisbon" is context before it is identity.
const CUES: &[(MemoryType, &[&str])] = &[
    (
        MemoryType::Task,
        &[
            "need to",
            "needs to",
            "have to",
            "has to",
            "remind me",
            "remember to",
            "todo",
            "to-do",
            "don't forget to",
            "forget to",
            "must",
            "should call",
            "deadline",
            "due on",
            "due by",
        ],
    ),
    (
        MemoryType::Preference,
        &[
            "prefer*",
            "favorite",
            "favourite",
            "like",
            "likes",
            "love",
            "loves",
            "enjoy*",
            "hate*",
            "dislike*",
            "rather",
            "can't stand",
            "fan of",
        ],
    ),
    (
        MemoryType::Relationship,
        &[
            "wife",
            "husband",
            "son",
            "daughter",
            "mother",
            "mom",
            "father",
            "dad",
            "brother",
            "sister",
            "friend",
            "boss",
            "my partner",
            "our partner",
            "her partner",
            "his partner",
            "girlfriend",
            "boyfriend",
            "colleague",
            "coworker",
            // Said of someone: "a product manager" and "a partner at the firm" are jobs.
            "my manager",
            "our manager",
            "line manager",
            "cousin",
            "uncle",
            "aunt",
            "grandma",
            "grandpa",
            "dog named",
            "cat named",
            "married to",
        ],
    ),
    (
        MemoryType::Context,
        &[
            "currently",
            "working on",
            "right now",
            "at the moment",
            "this week",
            "these days",
            "for now",
            "busy with",
        ],
    ),
    (
        MemoryType::Event,
        &[
            "yesterday",
            "last week",
            "last night",
            "last month",
            "ago",
            "went to",
            "visited",
            "attended",
            "met with",
            "had dinner",
            "had lunch",
            "happened",
            "on monday",
            "on tuesday",
            "on wednesday",
            "on thursday",
            "on friday",
            "on saturday",
            "on sunday",
        ],
    ),
    (
        MemoryType::Observation,
        &[
            "seem*",
            "mentioned",
            "looks",
            "looked",
            "appears",
            "sounded",
            "tired",
            "in a good mood",
            "in a bad mood",
        ],
    ),
    (
        MemoryType::Identity,
        &[
            "i am",
            "i'm",
            "my name is",
            "i work*",
            "works as",
            "i live",
            "lives in",
            "allergic",
            "i was born",
            "born in",
            "years old",
            "my birthday",
            "i speak",
            "user is",
            "user's name",
        ],
    ),
];

/// Infers a type from the words and shape of the content; knowledge when nothing fits.
pub fn classify(content: &str) -> MemoryType {
    let lowered = content.to_lowercase().replace('\u{2019}', "'");
    let words: Vec<&str> = lowered
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    CUES.iter()
        .find(|(_, cues)| cues.iter().any(|cue| cue_matches(&words, cue)))
        .map_or(MemoryType::Knowledge, |(memory_type, _)| *memory_type)
}

/// Whether `cue`'s words come in a row among `words`, each whole, except that a cue
/// ending in `*` takes its last word as a prefix. Compared word by word in place: a
/// substring search per cue, with its pattern formatted, was a third of an import's time
/// in the sandbox, where the standard library's search has no SIMD.
fn cue_matches(words: &[&str], cue: &str) -> bool {
    let (phrase, prefix) = match cue.strip_suffix('*') {
        Some(phrase) => (phrase, true),
        None => (cue, false),
    };
    (0..words.len()).any(|start| {
        let mut rest = words[start..].iter();
        let mut parts = phrase.split(' ').peekable();
        while let Some(part) = parts.next() {
            let Some(word) = rest.next() else {
                return false;
            };
            let matched = if prefix && parts.peek().is_none() {
                word.starts_with(part)
            } else {
                *word == part
            };
            if !matched {
                return false;
            }
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_the_seed_examples() {
        let cases = [
            ("I prefer dark mode", MemoryType::Preference),
            ("My favorite color is blue", MemoryType::Preference),
            ("I'm allergic to peanuts", MemoryType::Identity),
            ("I work as a software engineer", MemoryType::Identity),
            ("Sarah is my wife", MemoryType::Relationship),
            ("Has a dog named Max", MemoryType::Relationship),
            ("Project X uses Python", MemoryType::Knowledge),
            ("Currently working on project X", MemoryType::Context),
            ("Had dinner with Sarah on Tuesday", MemoryType::Event),
            ("I need to call the dentist", MemoryType::Task),
            ("Mentioned being tired", MemoryType::Observation),
            ("Busy at the moment with the move", MemoryType::Context),
            ("A person of interest", MemoryType::Knowledge),
            ("I'm now working as a product manager", MemoryType::Identity),
            ("My manager is Priya", MemoryType::Relationship),
            ("Alex is my partner", MemoryType::Relationship),
        ];
        for (text, want) in cases {
            assert_eq!(classify(text), want, "{text}");
        }
    }

    /// The rule as it was first written: the words joined by spaces, each cue searched for
    /// as a substring between spaces. `classify` must answer as this does.
    fn classify_by_substrings(content: &str) -> MemoryType {
        let words: Vec<String> = content
            .to_lowercase()
            .replace('\u{2019}', "'")
            .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect();
        let text = format!(" {} ", words.join(" "));
        for (memory_type, cues) in CUES {
            let hit = cues.iter().any(|cue| match cue.strip_suffix('*') {
                Some(prefix) => text.contains(&format!(" {prefix}")),
                None => text.contains(&format!(" {cue} ")),
            });
            if hit {
                return *memory_type;
            }
        }
        MemoryType::Knowledge
    }

    /// Pieces a text is made of: every cue's words (so cues are whole, split, or cut
    /// short), near misses around them, and separators that do and do not split words.
    fn pieces() -> Vec<String> {
        let mut pieces: Vec<String> = CUES
            .iter()
            .flat_map(|(_, cues)| cues.iter())
            .flat_map(|cue| cue.trim_end_matches('*').split(' '))
            .map(str::to_owned)
            .collect();
        for extra in [
            "",
            "ly",
            "s",
            "I",
            "Prefer",
            "PREFERABLY",
            "l",
            "i'",
            "don't",
            "can\u{2019}t",
            "re-like",
            "like-minded",
            "x",
            "Été",
            "über",
            "42",
            "mom's",
            "named",
        ] {
            pieces.push(extra.to_owned());
        }
        pieces
    }

    proptest::proptest! {
        #[test]
        fn classify_answers_as_the_substring_rule(
            picks in proptest::collection::vec((0usize..1000, 0usize..8), 0..9),
        ) {
            let pieces = pieces();
            let separators = [" ", "  ", ", ", ".", "-", "'", "\u{2019}", "\n"];
            let text: String = picks
                .iter()
                .map(|&(p, s)| format!("{}{}", pieces[p % pieces.len()], separators[s]))
                .collect();
            proptest::prop_assert_eq!(classify(&text), classify_by_substrings(&text), "{:?}", text);
        }
    }

    #[test]
    fn cues_match_whole_words_and_stars_match_prefixes() {
        let cases = [
            ("I prefer tea", MemoryType::Preference, "a whole cue"),
            ("preferably tea", MemoryType::Preference, "prefer* is a prefix"),
            ("unlike tea", MemoryType::Knowledge, "like is a whole word"),
            ("a fanatic of tea", MemoryType::Knowledge, "fan of is two whole words"),
            ("a fan, of tea", MemoryType::Preference, "punctuation only parts words"),
            (
                "I CAN\u{2019}T STAND tea",
                MemoryType::Preference,
                "case and curly apostrophes fold",
            ),
            ("i working late", MemoryType::Identity, "i work* takes working"),
            ("married", MemoryType::Knowledge, "a cue cut short is no cue"),
            ("", MemoryType::Knowledge, "nothing to go on"),
        ];
        for (text, want, why) in cases {
            assert_eq!(classify(text), want, "{text:?}: {why}");
        }
    }

    #[test]
    fn ttl_table() {
        assert_eq!(MemoryType::Context.ttl(), Some(TimeDelta::days(7)));
        assert_eq!(MemoryType::Event.ttl(), Some(TimeDelta::days(30)));
        assert_eq!(MemoryType::Task.ttl(), Some(TimeDelta::days(14)));
        assert_eq!(MemoryType::Observation.ttl(), Some(TimeDelta::days(3)));
        for t in [
            MemoryType::Preference,
            MemoryType::Identity,
            MemoryType::Relationship,
            MemoryType::Knowledge,
        ] {
            assert!(!t.is_ephemeral());
        }
    }
}
