//! Deciding whether a new fact replaces an old one. Candidates come from vector
//! similarity; this module verifies them, by one of two paths:
//!
//! - The LLM verdict: [`verification_request`] asks the language model, and
//!   [`parse_verdict`] accepts only a clear one-word yes or no.
//! - The conservative rule, when the model cannot be asked: [`rule_replaces`] reads both
//!   facts as "subject's attribute is value" ([`parse_statement`]) and replaces only when
//!   the same attribute of the same subject took a value that makes the old one untrue.
//!
//! Both paths fail closed: when unsure, keep both. A wrong supersession hides a true fact;
//! a missed one only leaves a stale fact beside the new one, which the user can still see
//! and correct.

mod clause;
pub(crate) mod lexicon;
#[cfg(test)]
mod pairs;
pub(crate) mod regions;
mod statement;
#[cfg(test)]
mod tests;
mod tokens;
mod values;

use crate::ports::LlmRequest;

pub use regions::is_region;
pub use statement::{Statement, parse_statement};

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

/// What the rule knows about the memory beyond its text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleContext {
    /// The memory lives in a group chat's scope: "we" and "our" are the group, and "I"
    /// could be any member, so first-person singular facts are never compared there.
    pub group: bool,
    /// Names of the people the memory is about: "she", "his", "their", "Sarah" and
    /// "Sarah's" refer to them.
    pub subject_names: Vec<String>,
}

/// The conservative rule, in context: replace only when both facts state the same
/// attribute of the same subject and the new one makes the old one untrue. When unsure,
/// keep both.
pub fn rule_replaces(old: &str, new: &str, ctx: &RuleContext) -> bool {
    match (statement::parse_in(old, ctx), statement::parse_in(new, ctx)) {
        (Some(a), Some(b)) => a.replaced_by(&b),
        _ => false,
    }
}

/// The block of a fact under the rule, in context: [`rule_replaces`] is false for two facts
/// whose blocks differ (or that have none), so candidates for the rule can be grouped by
/// it instead of searched for. `None` when the rule cannot read the fact.
pub fn rule_block(text: &str, ctx: &RuleContext) -> Option<String> {
    statement::parse_in(text, ctx).map(|s| s.block())
}

/// The conservative rule without context: a personal memory about no one in particular.
pub fn rule_says_replaces(old: &str, new: &str) -> bool {
    rule_replaces(old, new, &RuleContext::default())
}
