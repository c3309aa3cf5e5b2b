//! Reading an exchange for facts worth remembering. Two extractors, one output:
//!
//! - `prompt` and `answer`: one request to the language model per exchange, and a parser
//!   that reads what local models actually answer (fenced JSON, trailing prose, single
//!   quotes, unquoted keys, trailing commas) and refuses anything else.
//! - `rules`: offline, a conservative reader of clear first-person statements.
//!
//! Both keep only facts grounded in what the user said (`grounding`), so that a model
//! that invents, or is talked into inventing, stores nothing; `dates` turns "next
//! Tuesday" into a date from the exchange's time.

pub mod answer;
pub mod dates;
pub mod grounding;
pub mod prompt;
pub mod rules;

use crate::memory_type::MemoryType;

/// One fact read from an exchange, phrased as the user would say it.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    pub content: String,
    pub memory_type: MemoryType,
    /// References to the people it is about ("my wife Sarah"), as `add` takes them.
    pub subjects: Vec<String>,
    /// How sure the extractor is, from 0 to 1.
    pub confidence: f64,
    pub expires_in_days: Option<u32>,
}

/// The most facts kept from one exchange: a turn is not a biography.
pub const MAX_FACTS_PER_EXCHANGE: usize = 8;
/// The longest fact kept, in characters: a fact, not a paragraph.
pub const MAX_FACT_CHARS: usize = 400;
/// The confidence the rule-based extractor gives what it reads: it reads only what is
/// stated plainly.
pub const RULE_CONFIDENCE: f64 = 0.9;
