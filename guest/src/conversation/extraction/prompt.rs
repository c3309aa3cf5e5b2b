//! The request put to the language model for one exchange.

use chrono::{DateTime, Utc};

use crate::ports::LlmRequest;

/// The longest message text sent, in characters; the rest is cut (a pasted document
/// holds no facts about its sender worth a huge prompt).
const MAX_MESSAGE_CHARS: usize = 6000;

const SYSTEM: &str = "You read one exchange between a user and their assistant and list the durable facts \
the USER states about themselves or the people in their life, worth remembering for later conversations.

Rules:
- Only what the user's message states. Nothing the assistant says, suggests or does.
- Skip questions, hypotheticals, jokes, greetings, thanks, requests to the assistant, passing moods and \
states (\"I'm tired\", \"I'm at the airport\"), and anything the user says is no longer true.
- Never include passwords, API keys, card numbers or any other credential.
- Write each fact in the first person, as the user would say it, in one short sentence \
(\"I am allergic to peanuts\", \"My wife's name is Sarah\").
- Write dates as absolute dates (YYYY-MM-DD), using the date of the exchange given below.
- type is one of: identity, preference, relationship, knowledge, event, task, context.
- subjects lists the people a fact is about other than the user, as the user refers to them \
(\"my wife Sarah\"); empty when none.
- confidence is from 0 to 1: how clearly the user stated it.
- expires_in_days only for facts that stop being true on their own (an appointment), else omit.

Answer with JSON only, no prose:
{\"facts\": [{\"content\": \"...\", \"type\": \"...\", \"subjects\": [], \"confidence\": 0.9}]}
When there is nothing worth remembering, answer {\"facts\": []}.";

/// The request for one exchange at `at`.
pub fn request(user: &str, assistant: Option<&str>, at: DateTime<Utc>) -> LlmRequest {
    let mut prompt = format!(
        "Date of the exchange: {} ({})\n\nUSER:\n{}\n",
        at.format("%Y-%m-%d"),
        at.format("%A"),
        cut(user)
    );
    if let Some(a) = assistant.filter(|a| !a.trim().is_empty()) {
        prompt.push_str(&format!("\nASSISTANT:\n{}\n", cut(a)));
    }
    LlmRequest {
        system: SYSTEM.to_owned(),
        prompt,
        max_tokens: 600,
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((i, _)) => format!("{} [...]", &text[..i]),
        None => text.to_owned(),
    }
}
