//! The `llm` capability. With no model configured every completion is `Unavailable`, and
//! the guest uses its heuristics.

/// A completion request; see `request` in `wit/llm.wit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmRequest {
    pub system: String,
    pub prompt: String,
    pub max_tokens: u32,
}

/// A failed completion.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("language model unavailable: {0}")]
pub struct LlmError(pub String);

/// Answers completion requests.
pub trait Llm: Send {
    fn complete(&self, request: &LlmRequest) -> Result<String, LlmError>;
}

/// No model: every request is unavailable.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoLlm;

impl Llm for NoLlm {
    fn complete(&self, _request: &LlmRequest) -> Result<String, LlmError> {
        Err(LlmError("no language model is configured".into()))
    }
}
