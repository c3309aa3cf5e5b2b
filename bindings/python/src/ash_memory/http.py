"""The JSON-over-HTTP client behind the OpenAI-compatible embedder and language model, as
the Rust host's `http.rs` behaves: a timeout per request, up to two retries with
exponential backoff (250 ms, 500 ms) on 429 and 5xx, the API key read once from the
environment variable named in `config.toml` and sent only in the Authorization header.
Messages name the URL and the status, never the key.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

#: The largest answer read from a service (an embedding batch of 256 texts at 3072
#: dimensions is about 16 MB of JSON); anything larger is refused unread.
MAX_BODY_BYTES = 32 << 20


class HttpError(Exception):
    """Why a request failed: the message names the URL, never a key."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def join_url(base: str, path: str) -> str:
    """Joins a base URL and a path with exactly one slash."""
    return f"{base.rstrip('/')}/{path.lstrip('/')}"


class HttpClient:
    """A client for one service: `timeout` seconds per request, `retries` retries."""

    def __init__(self, timeout: float, retries: int, api_key_env: str | None) -> None:
        self.timeout = timeout
        self.retries = retries
        self.backoff = 0.25
        key = os.environ.get(api_key_env) if api_key_env else None
        self._api_key = key or None

    def post_json(self, url: str, body: Any) -> Any:
        """POSTs `body` as JSON and returns the decoded JSON answer."""
        attempt = 0
        while True:
            try:
                return self._within_deadline(url, body)
            except HttpError as e:
                retryable = e.status is not None and (e.status == 429 or e.status >= 500)
                if not retryable or attempt >= self.retries:
                    raise
                time.sleep(self.backoff * (2**attempt))
                attempt += 1

    def _within_deadline(self, url: str, body: Any) -> Any:
        """One request, given up after `timeout` seconds in all, as reqwest's timeout is:
        urllib's own timeout is per socket read, so a server that trickles its headers a
        byte at a time could hold the caller far longer. The request runs on a daemon
        thread; one given up on ends at its next socket timeout, unheard."""
        outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["value"] = self._once(url, body)
            except Exception as e:  # carried to the caller below
                outcome["error"] = e

        worker = threading.Thread(target=run, name="ash-memory-http", daemon=True)
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            raise HttpError(f"{url}: no answer within {max(int(self.timeout), 1)} s")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    def _once(self, url: str, body: Any) -> Any:
        data = json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method="POST")
        request.add_header("Content-Type", "application/json")
        if self._api_key:
            # Unredirected: urllib would copy a plain header to wherever a redirect points,
            # where reqwest drops it when the redirect leaves the host.
            request.add_unredirected_header("Authorization", f"Bearer {self._api_key}")
        secs = max(int(self.timeout), 1)
        deadline = time.monotonic() + self.timeout
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status = response.status
                raw = self._read(url, response, deadline, secs)
        except urllib.error.HTTPError as e:
            try:
                raw = e.read(MAX_BODY_BYTES)
            except Exception:
                raw = b""
            text = raw.decode("utf-8", errors="replace")[:200]
            raise HttpError(f"{url}: HTTP {e.code}: {text}", status=e.code) from None
        except urllib.error.URLError as e:
            if isinstance(e.reason, (socket.timeout, TimeoutError)):
                raise HttpError(f"{url}: no answer within {secs} s") from None
            raise HttpError(f"{url}: cannot connect ({e.reason})") from None
        except (socket.timeout, TimeoutError):
            raise HttpError(f"{url}: no answer within {secs} s") from None
        except (ConnectionError, OSError) as e:
            raise HttpError(f"{url}: cannot connect ({e})") from None
        if not 200 <= status < 300:
            text = raw.decode("utf-8", errors="replace")[:200]
            raise HttpError(f"{url}: HTTP {status}: {text}", status=status)
        try:
            return json.loads(raw.decode("utf-8", errors="replace"))
        except json.JSONDecodeError as e:
            raise HttpError(f"{url}: the answer is not JSON: {e}") from None

    def _read(self, url: str, response: Any, deadline: float, secs: int) -> bytes:
        """Reads the body in chunks, refusing one that is too large or too slow in total."""
        too_big = HttpError(f"{url}: the answer is larger than {MAX_BODY_BYTES >> 20} MiB")
        length = response.headers.get("Content-Length")
        if length and length.isdigit() and int(length) > MAX_BODY_BYTES:
            raise too_big
        chunks: list[bytes] = []
        size = 0
        while True:
            if time.monotonic() > deadline:
                raise HttpError(f"{url}: no answer within {secs} s")
            chunk = response.read(65536)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise too_big
            chunks.append(chunk)
