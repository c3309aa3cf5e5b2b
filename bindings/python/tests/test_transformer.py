"""The transformer embedder: the Rust host's encoder compiled to WebAssembly, with the model's
tokenizer. Its vectors are compared bit for bit with the Rust CLI's (tests/data/rust_transformer_vectors.json,
written by `make_reference_vectors.py --transformer`), and a home on it answers a paraphrase."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

from ash_memory import Memory
from ash_memory.transformer import TransformerEmbedder

DATA = Path(__file__).parent / "data"
NOW = "2026-03-01T12:00:00Z"
EMBEDDER = TransformerEmbedder()


def test_vectors_are_bit_identical_to_the_rust_hosts():
    reference = json.loads((DATA / "rust_transformer_vectors.json").read_text(encoding="utf-8"))
    assert len(reference) >= 300
    texts = list(reference)
    # One batch, as an import embeds: each text must still get the vector it gets alone.
    vectors = EMBEDDER.embed(texts)
    different = [t[:60] for t, v in zip(texts, vectors) if struct.pack("<384f", *v) != base64.b64decode(reference[t])]
    assert not different, different
    assert any(len(EMBEDDER.token_ids(t)) == 256 for t in texts), "a text past the 256-token cut"


def test_texts_are_cut_at_the_models_256_tokens_sep_kept():
    ids = EMBEDDER.token_ids("alpha beta " * 400)
    assert len(ids) == 256
    assert (ids[0], ids[-1]) == (101, 102)


def test_a_home_on_the_transformer_answers_a_paraphrase(home: Path):
    home.mkdir()
    (home / "config.toml").write_text('[embedder]\nprovider = "transformer"\n')
    with Memory(home, now=NOW) as m:
        for fact in (
            "I drive a 2015 Subaru Outback",
            "I work as a nurse at the county hospital",
            "My favorite color is blue",
            "The standup is at 9:30 every weekday",
        ):
            m.add(fact, user="alice")
        hits = m.search("What vehicle do I own?", user="alice", limit=3).hits
        assert hits[0].memory.content == "I drive a 2015 Subaru Outback"
        assert hits[0].similarity > 0.4
    lines = [json.loads(x) for x in (home / "memory" / "memories.jsonl").read_text().splitlines()]
    assert lines and all(x["embedding_model"] == TransformerEmbedder.model_id for x in lines)


def test_the_compiled_encoder_is_cached_and_loaded_without_compiling(tmp_path: Path, monkeypatch):
    import wasmtime

    from ash_memory import transformer

    monkeypatch.setenv("ASH_CACHE_DIR", str(tmp_path))
    first = transformer._Encoder()
    cached = sorted(p.name for p in tmp_path.iterdir())
    assert len(cached) == 2 and cached[0].endswith(".cwasm") and cached[1].endswith(".cwasm.sha256"), cached

    class NotCompiled(wasmtime.Module):  # deserializing still works; compiling fails
        def __init__(self, *_args: object) -> None:
            raise AssertionError("compiled again")

    monkeypatch.setattr(wasmtime, "Module", NotCompiled)
    second = transformer._Encoder()
    assert second.embed(["I drive a 2015 Subaru Outback"]) == first.embed(["I drive a 2015 Subaru Outback"])
