//! The LLM verdict: the one-word question put to the language model, and a strict reading
//! of its answer.

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
