"""The `llm` import. With no model configured every completion is unavailable, and the
guest uses its heuristics; otherwise an OpenAI-compatible `/chat/completions` service."""

from __future__ import annotations

from typing import Protocol

from .http import HttpClient, HttpError, join_url


class LlmUnavailable(Exception):
    """No model is configured, or the service failed; the guest falls back to heuristics."""


class Llm(Protocol):
    """What the `llm` import needs: implement it to bring a language model of your own."""

    is_remote: bool

    def complete(self, system: str, prompt: str, max_tokens: int) -> str:
        """The model's answer text; raises LlmUnavailable."""
        ...


class NoLlm:
    """No model: every request is unavailable."""

    is_remote = False

    def complete(self, system: str, prompt: str, max_tokens: int) -> str:
        raise LlmUnavailable("no language model is configured")


class OpenAiLlm:
    """An OpenAI-compatible `/chat/completions` service."""

    is_remote = True

    def __init__(self, http: HttpClient, base_url: str, model: str) -> None:
        self.http = http
        self.url = join_url(base_url, "chat/completions")
        self.model = model

    def complete(self, system: str, prompt: str, max_tokens: int) -> str:
        """Asks the service at temperature 0 and returns choices[0].message.content."""
        body = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
            "max_tokens": max_tokens,
            "temperature": 0,
        }
        try:
            answer = self.http.post_json(self.url, body)
        except HttpError as e:
            raise LlmUnavailable(str(e)) from e
        try:
            content = answer["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            content = None
        if not isinstance(content, str):
            raise LlmUnavailable(f"{self.url}: the answer has no choices[0].message.content")
        return content
