//! The `llm` capability. With no model configured every completion is `Unavailable`, and
//! the guest uses its heuristics.

pub use crate::bindings::ash::memory::llm::{Error as LlmError, Request as LlmRequest};

/// Answers completion requests: the `llm` import. Implement it to give the policy a
/// language model of your own; see `wit/llm.wit` for what the policy asks.
pub trait Llm: Send {
    /// The model's answer to one request, or [`LlmError::Unavailable`] with the reason.
    fn complete(&self, request: &LlmRequest) -> Result<String, LlmError>;
    /// Whether a call may wait on a network service (see [`crate::embedder::Embedder::is_remote`]).
    fn is_remote(&self) -> bool {
        false
    }
}

/// No model: every request is unavailable.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoLlm;

impl Llm for NoLlm {
    fn complete(&self, _request: &LlmRequest) -> Result<String, LlmError> {
        Err(LlmError::Unavailable("no language model is configured".into()))
    }
}

/// An OpenAI-compatible `/chat/completions` service.
pub struct OpenAiLlm {
    http: crate::http::HttpClient,
    url: String,
    model: String,
}

impl OpenAiLlm {
    /// `base_url` is the API root, such as `https://api.openai.com/v1`.
    pub fn new(http: crate::http::HttpClient, base_url: &str, model: &str) -> Self {
        OpenAiLlm {
            http,
            url: crate::http::join(base_url, "chat/completions"),
            model: model.to_owned(),
        }
    }
}

impl Llm for OpenAiLlm {
    fn is_remote(&self) -> bool {
        true
    }
    fn complete(&self, request: &LlmRequest) -> Result<String, LlmError> {
        let body = serde_json::json!({
            "model": self.model,
            "messages": [
                { "role": "system", "content": request.system },
                { "role": "user", "content": request.prompt },
            ],
            "max_tokens": request.max_tokens,
            "temperature": 0,
        });
        let answer = self
            .http
            .post_json(&self.url, body)
            .map_err(|e| LlmError::Unavailable(e.to_string()))?;
        answer["choices"][0]["message"]["content"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| LlmError::Unavailable(format!("{}: the answer has no choices[0].message.content", self.url)))
    }
}
