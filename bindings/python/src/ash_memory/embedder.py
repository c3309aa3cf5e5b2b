"""The `embedder` import's static model shipped in the package, and an OpenAI-compatible
service over HTTP (the default, the transformer, is in `transformer.py`).

The static model must give vectors bit-identical to the Rust host's (model2vec-rs 0.4.0),
because vectors are stored in `memories.jsonl` and compared across hosts. Every step that
rounds is therefore done in float32 exactly as the Rust code does it: integer row sums
(exact), one division per component, a sequential float32 sum of squares, a float32 square
root, one division per component.

Python has no float32 arithmetic, so each step is computed in float64 and rounded to
float32 (`array("f")` or `f32`). For +, -, *, / and sqrt of float32 operands that is
exactly the float32 result: float64's 53 bits are more than the 2 * 24 + 2 that make the
double rounding harmless. No numpy is needed.
"""

from __future__ import annotations

import json
import math
import struct
import threading
from array import array
from importlib import resources
from typing import Protocol, Sequence

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

def f32(x: float) -> float:
    """`x` rounded to the nearest float32 (ties to even; `inf` beyond its range, as Rust's
    `as f32`), as a Python float."""
    return array("f", (x,))[0]


#: The floor of a norm, as float32 (model2vec-rs divides by max(norm, 1e-12)).
_NORM_FLOOR = f32(1e-12)


def norm_f32(x: Sequence[float]) -> float:
    """The float32 Euclidean norm of `x` (float32 values), as Rust's
    `x.iter().map(|v| v * v).sum::<f32>().sqrt()`: squares rounded to float32, summed in
    order with a rounding at every step, a float32 square root."""
    squares = array("f", [v * v for v in x])
    # Storing into a float32 array rounds: the cheapest per-step rounding Python has.
    acc = array("f", (0.0,))
    for v in squares:
        acc[0] += v
    return f32(math.sqrt(acc[0]))


def divide_f32(x: Sequence[float], d: float) -> list[float]:
    """Each component of `x` divided by `d`, rounded to float32."""
    return array("f", [v / d for v in x]).tolist()


class _Table:
    """The model's int8 embedding table: `dim` signed bytes per token, read in place."""

    def __init__(self, data: memoryview, rows: int, dim: int) -> None:
        self.data = data
        self.rows = rows
        self.dim = dim

    def row(self, i: int) -> memoryview:
        """Token `i`'s row."""
        return self.data[i * self.dim : (i + 1) * self.dim]


class StaticEmbedder:
    """The embedded model2vec model: 256 dimensions, no network."""

    model_id = "minilm-l6-v2-m2v-256-int8"
    dimension = 256
    # Static embeddings score restatements lower than transformer ones (see the Rust host).
    supersession_threshold = 0.6
    # The Rust host's 0.3: below it the best hit found by meaning alone is noise.
    weak_similarity = 0.3
    is_remote = False

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: tuple[object, _Table, int, int] | None = None

    def _load(self) -> tuple[object, _Table, int, int]:
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
            out.append(embed_one(tokenizer, table, unk_id, median, text))
        return out


def _load_model() -> tuple[object, _Table, int, int]:
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


def _int8_tensor(data: bytes, name: str) -> _Table:
    """Reads one 2-D int8 tensor straight from a safetensors file: an 8-byte header length,
    a JSON header, then the raw little-endian data."""
    (header_len,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + header_len])
    info = header[name]
    if info["dtype"] != "I8" or len(info["shape"]) != 2:
        raise ValueError(f"tensor {name!r} is {info['dtype']} {info['shape']}, not a 2-D int8")
    start, end = info["data_offsets"]
    rows, cols = info["shape"]
    if end - start != rows * cols or 8 + header_len + end > len(data):
        raise ValueError(f"tensor {name!r} does not fit its shape or the file")
    raw = memoryview(data)[8 + header_len + start : 8 + header_len + end].cast("b")
    return _Table(raw, rows, cols)


def embed_one(tokenizer: object, table: _Table, unk_id: int, median: int, text: str) -> list[float]:
    """The float32 vector of one text (as Python floats), as model2vec-rs computes it."""
    # Cut to the first 512 * median characters (Unicode scalar values) before tokenizing.
    text = text[: MAX_TOKENS * median]
    ids = tokenizer.encode(text, add_special_tokens=False).ids[:MAX_TOKENS]  # type: ignore[attr-defined]
    ids = [i for i in ids if i != unk_id]
    # Integer sums are exact, so their order does not matter (|sum| < 2**24).
    rows = [table.row(i).tolist() for i in ids]
    sums = list(map(sum, zip(*rows))) if rows else [0] * table.dim
    count = float(max(len(ids), 1))
    # Each quotient rounded to float32, as `sum as f32 / count as f32` is.
    x = array("f", [s / count for s in sums])
    return divide_f32(x, max(norm_f32(x), _NORM_FLOOR))


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
            if len(values) != self.dimension:
                raise EmbedDimensionMismatch(self.dimension, len(values))
            try:
                v = array("f", values)  # `as f32`, as the Rust host casts each number
            except OverflowError:
                raise bad("an embedding holds a number too large for float32") from None
            # Cosine is a dot product on unit vectors; a vector without a norm is left as it is.
            norm = norm_f32(v)
            index = item.get("index")
            order = index if isinstance(index, int) and not isinstance(index, bool) and index >= 0 else i
            vectors.append((order, divide_f32(v, norm) if norm > 0 else v.tolist()))
        vectors.sort(key=lambda p: p[0])
        return [v for _, v in vectors]
