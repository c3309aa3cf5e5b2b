"""The `embedder` import's transformer: all-MiniLM-L6-v2 with int8 weights, as the Rust host
runs it (`[embedder] provider = "transformer"`).

The arithmetic is the Rust host's own encoder crate compiled to a WebAssembly core module
(`encoder/wasm`, copied into the package's `model/transformer/` by the build), run by
wasmtime; tokenizing is the model's `tokenizer.json` through `tokenizers`. The vectors are the
Rust host's bit for bit (the encoder's kernels sum in one order on every target), because
they are stored in `memories.jsonl` and compared across hosts. The module's interface is
documented in `encoder/wasm/src/lib.rs`.
"""

from __future__ import annotations

import json
import struct
import threading
from importlib import resources
from typing import Any, Sequence

from .component import default_cache_dir, load_cached
from .embedder import EmbedUnavailable


#: The loaded encoder, shared by every memory a process opens (loading copies 24 MB), and
#: the lock its calls are made under.
_SHARED: _Encoder | None = None
_LOCK = threading.Lock()


class TransformerEmbedder:
    """The embedded transformer, the default: 384 dimensions, no network."""

    #: The model id recorded in the index (the Rust host's `TransformerEmbedder::MODEL_ID`).
    model_id = "all-minilm-l6-v2-int8"
    dimension = 384
    #: The Rust host's 0.5: restatements score 0.5-0.75 with this model, unrelated facts
    #: under 0.15.
    supersession_threshold = 0.5
    #: The Rust host's 0.25: below it the best hit found by meaning alone is noise.
    weak_similarity = 0.25
    is_remote = False

    @staticmethod
    def _load() -> _Encoder:
        """Compiles the module and copies the weights in on first use, once per process:
        commands that embed nothing never pay for it. Called under `_LOCK`."""
        global _SHARED
        if _SHARED is None:
            try:
                _SHARED = _Encoder()
            except Exception as e:  # any failure to load means no vectors, not a crash
                raise EmbedUnavailable(f"the embedded transformer failed to load: {e}") from e
        return _SHARED

    def token_ids(self, text: str) -> list[int]:
        """`text`'s token ids as the model was trained on them: [CLS], the text's, [SEP]."""
        with _LOCK:
            return self._load().token_ids(text)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector per text; raises EmbedUnavailable if the module fails."""
        global _SHARED
        if not texts:
            return []
        with _LOCK:
            encoder = self._load()
            try:
                return encoder.embed(texts)
            except Exception as e:
                # A trap may leave the module's allocator half-updated: load afresh next time.
                _SHARED = None
                raise EmbedUnavailable(f"the embedded transformer failed: {e}") from e


class _Encoder:
    """The loaded module, its weights and the tokenizer; used under the embedder's lock."""

    def __init__(self) -> None:
        import wasmtime
        from tokenizers import Tokenizer

        base = resources.files("ash_memory") / "model" / "transformer"
        spec = (base / "tokenizer.json").read_text(encoding="utf-8")
        self.tokenizer = Tokenizer.from_str(spec)
        # The file's truncation (256 tokens, [CLS] and [SEP] included) is the Rust host's;
        # applied here by hand below, as the other hosts do.
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        truncation = json.loads(spec).get("truncation") or {}
        self.store = wasmtime.Store(wasmtime.Engine())
        wasm = (base / "encoder.wasm").read_bytes()
        # Compiled once per machine, as the policy component is.
        module = load_cached(
            self.store.engine, wasm, default_cache_dir(), "encoder",
            lambda: wasmtime.Module(self.store.engine, wasm), wasmtime.Module.deserialize)
        instance = wasmtime.Instance(self.store, module, [])
        exports = instance.exports(self.store)
        self.memory: Any = exports["memory"]
        self.fn: dict[str, Any] = {
            name: exports[name] for name in ("alloc", "free", "load", "encode", "error", "dimension", "max_tokens")
        }
        if self._call("dimension") != TransformerEmbedder.dimension:
            raise ValueError(f"encoder.wasm: {self._call('dimension')} dimensions, expected 384")
        self.max_tokens = min(int(truncation.get("max_length", 1 << 30)), self._call("max_tokens"))
        weights = (base / "model.safetensors").read_bytes()
        at = self._alloc(len(weights))
        self.memory.write(self.store, weights, at)
        self._check(self._call("load", at, len(weights)))

    def _call(self, name: str, *args: int) -> int:
        # wasm's i32 comes back signed: addresses past 2 GiB would be negative.
        return int(self.fn[name](self.store, *args)) & 0xFFFFFFFF

    def _alloc(self, n: int) -> int:
        at = self._call("alloc", n)
        if at == 0:
            raise MemoryError("encoder.wasm: out of memory")
        return at

    def _check(self, status: int) -> None:
        if status:
            at = self._call("error")
            message = bytes(self.memory.read(self.store, at, at + status)).decode("utf-8", "replace")
            raise RuntimeError(f"encoder.wasm: {message}")

    def token_ids(self, text: str) -> list[int]:
        ids: list[int] = self.tokenizer.encode(text).ids
        if len(ids) > self.max_tokens:
            ids = ids[: self.max_tokens - 1] + ids[-1:]
        return ids

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        ids = [self.token_ids(t) for t in texts]
        flat = [i for t in ids for i in t]
        dim = TransformerEmbedder.dimension
        sizes = (4 * len(flat), 4 * len(ids), 4 * dim * len(ids))
        ats: list[int] = []
        try:
            for n in sizes:
                ats.append(self._alloc(n))
            ids_at, lens_at, out_at = ats
            self.memory.write(self.store, struct.pack(f"<{len(flat)}I", *flat), ids_at)
            self.memory.write(self.store, struct.pack(f"<{len(ids)}I", *map(len, ids)), lens_at)
            self._check(self._call("encode", ids_at, lens_at, len(ids), out_at))
            raw = bytes(self.memory.read(self.store, out_at, out_at + sizes[2]))
        finally:
            for at, n in zip(ats, sizes):
                self.fn["free"](self.store, at, n)
        values = struct.unpack(f"<{dim * len(ids)}f", raw)
        return [list(values[k * dim : (k + 1) * dim]) for k in range(len(ids))]
