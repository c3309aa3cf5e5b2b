"""The OpenAI-compatible embedder and language model, against a real HTTP server on loopback:
answers, retries on 429 and 5xx, no retry on 4xx, timeouts, the key in the header only, and
the home's lock released while the service answers."""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

import pytest

from ash_memory import Memory
from ash_memory.embedder import EmbedUnavailable, OpenAiEmbedder
from ash_memory.http import HttpClient, HttpError
from ash_memory.llm import LlmUnavailable, OpenAiLlm


class Service:
    """A loopback HTTP server whose answers a test scripts: `handler(path, body) -> (status, json)`."""

    def __init__(self, handler: Callable[[str, Any], tuple[int, Any]]) -> None:
        self.requests: list[tuple[str, Any, dict[str, str]]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                service.requests.append((self.path, body, dict(self.headers)))
                status, answer = handler(self.path, body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve():
    started: list[Service] = []

    def start(handler: Callable[[str, Any], tuple[int, Any]]) -> Service:
        s = Service(handler)
        started.append(s)
        return s

    yield start
    for s in started:
        s.close()


def vector(text: str) -> list[float]:
    """A deterministic 4-dimensional embedding: words about food point one way."""
    food = any(w in text.lower() for w in ("peanut", "eat", "food", "sushi"))
    return [1.0, 0.1, 0.0, 0.0] if food else [0.0, 0.1, 1.0, 0.0]


def embeddings(body: Any) -> dict[str, Any]:
    return {"data": [{"index": i, "embedding": vector(t)} for i, t in enumerate(body["input"])]}


def test_embedder_answers_in_order_normalized(serve):
    s = serve(lambda path, body: (200, {"data": [{"index": 1, "embedding": [0, 2]}, {"index": 0, "embedding": [3, 4]}]}))
    e = OpenAiEmbedder(HttpClient(5, 2, None), s.url, "m", 2)
    assert e.embed(["a", "b"]) == [[0.6000000238418579, 0.800000011920929], [0.0, 1.0]]
    path, body, _ = s.requests[0]
    assert path == "/v1/embeddings" and body == {"model": "m", "input": ["a", "b"], "dimensions": 2}


def test_retries_on_429_and_5xx_then_succeeds(serve):
    answers = iter([(500, {"error": "boom"}), (429, {"error": "slow down"}), (200, {"data": [{"embedding": [1, 0]}]})])
    s = serve(lambda path, body: next(answers))
    started = time.monotonic()
    assert OpenAiEmbedder(HttpClient(5, 2, None), s.url, "m", 2).embed(["a"]) == [[1.0, 0.0]]
    assert len(s.requests) == 3 and time.monotonic() - started >= 0.7, "backoff 250 ms then 500 ms"


def test_a_4xx_is_not_retried_and_names_the_status(serve):
    s = serve(lambda path, body: (400, {"error": "bad model"}))
    with pytest.raises(EmbedUnavailable) as e:
        OpenAiEmbedder(HttpClient(5, 2, None), s.url, "m", 2).embed(["a"])
    assert len(s.requests) == 1 and "HTTP 400" in str(e.value) and s.url in str(e.value)


def test_too_many_5xx_give_up(serve):
    s = serve(lambda path, body: (503, {}))
    with pytest.raises(HttpError) as e:
        HttpClient(5, 2, None).post_json(s.url + "/x", {})
    assert len(s.requests) == 3 and "HTTP 503" in str(e.value)


def test_a_slow_service_times_out(serve):
    def slow(path: str, body: Any) -> tuple[int, Any]:
        time.sleep(1.6)
        return 200, {}

    s = serve(slow)
    with pytest.raises(HttpError) as e:
        HttpClient(1, 0, None).post_json(s.url + "/x", {})
    assert "no answer within 1 s" in str(e.value)


def test_an_unreachable_service_cannot_connect():
    with pytest.raises(LlmUnavailable) as e:
        OpenAiLlm(HttpClient(2, 0, None), "http://127.0.0.1:9/v1", "m").complete("s", "p", 5)
    assert "cannot connect" in str(e.value)


def test_llm_sends_the_key_only_in_the_header(serve, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TEST_KEY", "sk-test-123")
    s = serve(lambda path, body: (200, {"choices": [{"message": {"content": "yes"}}]}))
    llm = OpenAiLlm(HttpClient(5, 2, "TEST_KEY"), s.url, "gpt")
    assert llm.complete("system", "prompt", 7) == "yes"
    path, body, headers = s.requests[0]
    assert path == "/v1/chat/completions" and headers["Authorization"] == "Bearer sk-test-123"
    assert body["max_tokens"] == 7 and body["temperature"] == 0 and body["messages"][1]["content"] == "prompt"
    assert "sk-test" not in json.dumps(body)


def test_a_home_on_an_http_embedder_releases_its_lock_while_the_service_answers(serve, home: Path):
    lock_free: list[bool] = []

    def handler(path: str, body: Any) -> tuple[int, Any]:
        if path.endswith("/embeddings"):
            fd = os.open(home / ".lock", os.O_RDWR)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                lock_free.append(True)
            except BlockingIOError:
                lock_free.append(False)
            finally:
                os.close(fd)
            return 200, embeddings(body)
        return 200, {"choices": [{"message": {"content": "no"}}]}

    s = serve(handler)
    home.mkdir()
    (home / "config.toml").write_text(
        f'[embedder]\nprovider = "openai"\nbase_url = "{s.url}"\nmodel = "tiny"\ndimensions = 4\n'
        f'[llm]\nbase_url = "{s.url}"\nmodel = "chat"\n'
    )
    with Memory(home, user="alice") as m:
        m.add("I'm allergic to peanuts")
        m.add("The meeting moved to Tuesday")
        hits = m.search("what should I not eat?").hits
        assert hits[0].memory.content == "I'm allergic to peanuts"
        assert all(x.embedded for x in m.list())
    assert lock_free and all(lock_free)


def test_an_unreachable_embedder_stores_without_a_vector(home: Path):
    home.mkdir()
    (home / "config.toml").write_text(
        '[embedder]\nprovider = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\ndimensions = 4\n'
        "timeout_secs = 2\n"
    )
    with Memory(home) as m:
        added = m.add("I like green tea")
        assert added.memory.embedded is False
        results = m.search("green tea")
        assert results.hits[0].memory.content == "I like green tea"
        assert results.notices, "says it searched on full text only"


def test_a_redirect_to_another_host_does_not_carry_the_key(monkeypatch: pytest.MonkeyPatch):
    # reqwest drops the Authorization header when a redirect leaves the host; urllib copies
    # every header it was given with add_header to the redirected request.
    seen: list[dict[str, str]] = []

    class Elsewhere(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            seen.append(dict(self.headers))
            data = b"{}"
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    elsewhere = ThreadingHTTPServer(("127.0.0.2", 0), Elsewhere)
    target = f"http://127.0.0.2:{elsewhere.server_address[1]}/collect"

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    origin = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    for server in (elsewhere, origin):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("TEST_KEY", "sk-test-123")
        HttpClient(5, 0, "TEST_KEY").post_json(f"http://127.0.0.1:{origin.server_address[1]}/v1/x", {})
    finally:
        for server in (elsewhere, origin):
            server.shutdown()
            server.server_close()
    assert len(seen) == 1 and "Authorization" not in seen[0], seen


def test_a_server_that_trickles_its_answer_is_given_up_on_in_time():
    # Each byte comes well within the socket timeout, so only a deadline for the whole
    # request ends the wait. The answer is whole and valid, but takes about 5 s: a client
    # that waited for it would return it instead of giving up.
    import socket as sock

    listener = sock.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    answer = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{"data": []}'

    def trickle() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        try:
            for i in range(len(answer)):
                conn.sendall(answer[i : i + 1])
                time.sleep(0.05)
        except OSError:
            pass
        finally:
            conn.close()

    threading.Thread(target=trickle, daemon=True).start()
    client = HttpClient(timeout=1, retries=0, api_key_env=None)
    with pytest.raises(HttpError, match="no answer within 1 s"):
        client.post_json(f"http://127.0.0.1:{port}/v1/embeddings", {"input": ["x"]})
    listener.close()
