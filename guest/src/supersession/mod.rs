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
//!
//! `statement` and `rule_context` are the plain types at the bottom; `lexicon`, `tokens`,
//! `values` and `regions` read words; `clause` and `parse` read a sentence into a
//! statement; `rule` compares two; `verdict` is the language model's path.

mod clause;
pub(crate) mod lexicon;
mod parse;
pub(crate) mod regions;
mod rule;
mod rule_context;
mod statement;
#[cfg(test)]
mod tests;
mod tokens;
mod values;
mod verdict;

pub use parse::parse_statement;
pub use regions::is_region;
pub use rule::{rule_block, rule_replaces, rule_says_replaces};
pub use rule_context::RuleContext;
pub use statement::Statement;
pub use verdict::{parse_verdict, verification_request};
