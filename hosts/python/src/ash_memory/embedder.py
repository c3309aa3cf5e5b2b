"""The `embedder` import: the static model shipped in the package, or an OpenAI-compatible
service over HTTP.

The static model must give vectors bit-identical to the Rust host's (model2vec-rs 0.4.0),
because vectors are stored in `memories.jsonl` and compared across hosts. Every step that
rounds is therefore done in float32 exactly as the Rust code does it: integer row sums
(exact), one division per component, a sequential float32 sum of squares, a float32 square
root, one division per component.
"""

from __future__ import annotations

import json
import struct
import threading
from importlib import resources
from typing import Protocol, Sequence

import numpy as np

from .http import HttpClient, HttpError, join_url


class EmbedUnavailable(Exception):
    """The embedder cannot answer; the guest carries on with full-text search only."""


class EmbedDimensionMismatch(Exception):
    """The service answered vectors of the wrong length."""

    def __init__(self, expected: int, got: int) -> None:
        super().__init__(f"expected {expected} dimensions, got {got}")
        self.expected = expected
        self.got = got


class Embedder(Protocol):
    """What the `embedder` import needs: implement it to bring a model of your own."""

    model_id: str
    dimension: int
    supersession_threshold: float
    is_remote: bool

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector per text, in order; raises EmbedUnavailable or EmbedDimensionMismatch."""
        ...


MAX_TOKENS = 512


class StaticEmbedder:
    """The embedded model2vec model: 256 dimensions, no network."""

    model_id = "minilm-l6-v2-m2v-256-int8"
    dimension = 256
    # Static embeddings score restatements lower than transformer ones (see the Rust host).
    supersession_threshold = 0.6
    is_remote = False

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: tuple[object, np.ndarray, int, int] | None = None

    def _load(self) -> tuple[object, np.ndarray, int, int]:
        """Parses the model on first use: commands that embed nothing never pay for it."""
        with self._lock:
            if self._loaded is None:
                try:
                    self._loaded = _load_model()
                except Exception as e:  # any failure to load means no vectors, not a crash
                    raise EmbedUnavailable(f"the embedded model failed to load: {e}") from e
            return self._loaded

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embeds each text; see the module docstring for the exact arithmetic."""
        tokenizer, table, unk_id, median = self._load()
        out = []
        for text in texts:
            out.append(embed_one(tokenizer, table, unk_id, median, text).tolist())
        return out


def _load_model() -> tuple[object, np.ndarray, int, int]:
    from tokenizers import Tokenizer

    base = resources.files("ash_memory") / "model"
    tok_bytes = (base / "tokenizer.json").read_bytes()
    spec = json.loads(tok_bytes)
    tokenizer = Tokenizer.from_str(tok_bytes.decode("utf-8"))
    # tokenizer.json asks for truncation and padding; model2vec turns both off.
    tokenizer.no_truncation()
    tokenizer.no_padding()
    vocab: dict[str, int] = spec["model"]["vocab"]
    unk_id = vocab[spec["model"]["unk_token"]]
    lengths = sorted(len(k.encode("utf-8")) for k in vocab)
    median = lengths[len(lengths) // 2] if lengths else 1
    weights = (base / "model.safetensors").read_bytes()
    table = _int8_tensor(weights, "embeddings")
    return tokenizer, table, unk_id, median


def _int8_tensor(data: bytes, name: str) -> np.ndarray:
    """Reads one 2-D int8 tensor straight from a safetensors file: an 8-byte header length,
    a JSON header, then the raw little-endian data."""
    (header_len,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + header_len])
    info = header[name]
    if info["dtype"] != "I8" or len(info["shape"]) != 2:
        raise ValueError(f"tensor {name!r} is {info['dtype']} {info['shape']}, not a 2-D int8")
    start, end = info["data_offsets"]
    rows, cols = info["shape"]
    raw = np.frombuffer(data, dtype=np.int8, count=end - start, offset=8 + header_len + start)
    return raw.reshape(rows, cols)


def embed_one(tokenizer: object, table: np.ndarray, unk_id: int, median: int, text: str) -> np.ndarray:
    """The float32 vector of one text, as model2vec-rs computes it."""
    # Cut to the first 512 * median characters (Unicode scalar values) before tokenizing.
    text = text[: MAX_TOKENS * median]
    ids = tokenizer.encode(text, add_special_tokens=False).ids[:MAX_TOKENS]  # type: ignore[attr-defined]
    ids = [i for i in ids if i != unk_id]
    dim = table.shape[1]
    if ids:
        # Integer sums are exact, so their order does not matter (|sum| < 2**24).
        sums = table[np.asarray(ids, dtype=np.int64)].sum(axis=0, dtype=np.int32)
    else:
        sums = np.zeros(dim, dtype=np.int32)
    x = sums.astype(np.float32) / np.float32(max(len(ids), 1))
    # Sequential float32 accumulation, rounded at each step (accumulate is not pairwise).
    sq = np.add.accumulate(x * x, dtype=np.float32)[-1]
    norm = max(np.float32(np.sqrt(np.float32(sq))), np.float32(1e-12))
    return (x / np.float32(norm)).astype(np.float32)


class OpenAiEmbedder:
    """An OpenAI-compatible `/embeddings` service (OpenAI, Ollama, vLLM, llama.cpp)."""

    supersession_threshold = 0.75
    is_remote = True

    def __init__(self, http: HttpClient, base_url: str, model: str, dimension: int) -> None:
        self.http = http
        self.url = join_url(base_url, "embeddings")
        self.model = model
        self.model_id = f"openai:{model}"
        self.dimension = dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embeds through the service, normalizing each vector to unit length."""
        if not texts:
            return []
        body = {"model": self.model, "input": list(texts), "dimensions": self.dimension}
        try:
            answer = self.http.post_json(self.url, body)
        except HttpError as e:
            raise EmbedUnavailable(str(e)) from e

        def bad(why: str) -> EmbedUnavailable:
            return EmbedUnavailable(f"{self.url}: {why}")

        data = answer.get("data") if isinstance(answer, dict) else None
        if not isinstance(data, list):
            raise bad("the answer has no `data` list")
        if len(data) != len(texts):
            raise bad(f"{len(data)} embeddings for {len(texts)} texts")
        vectors: list[tuple[int, list[float]]] = []
        for i, item in enumerate(data):
            values = item.get("embedding") if isinstance(item, dict) else None
            if not isinstance(values, list):
                raise bad("an item has no `embedding`")
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                raise bad("an embedding holds a non-number")
            v = np.asarray(values, dtype=np.float32)
            if len(v) != self.dimension:
                raise EmbedDimensionMismatch(self.dimension, len(v))
            # Cosine is a dot product on unit vectors.
            norm = np.float32(np.sqrt(np.add.accumulate(v * v, dtype=np.float32)[-1])) if len(v) else 0
            if norm > 0:
                v = v / np.float32(norm)
            index = item.get("index")
            order = index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else i
            vectors.append((order, v.tolist()))
        vectors.sort(key=lambda p: p[0])
        return [v for _, v in vectors]
