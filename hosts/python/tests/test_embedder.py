"""The static embedder gives vectors bit-identical to the Rust host's, on a few hundred
varied texts written by the Rust CLI (accents, CJK, emoji, punctuation, very long texts)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np

from ash_memory.embedder import StaticEmbedder

DATA = Path(__file__).parent / "data"


def test_vectors_are_bit_identical_to_the_rust_host():
    reference = json.loads((DATA / "rust_vectors.json").read_text(encoding="utf-8"))
    assert len(reference) >= 300
    texts = list(reference)
    vectors = StaticEmbedder().embed(texts)
    different = []
    for text, v in zip(texts, vectors):
        mine = np.asarray(v, dtype="<f4").tobytes()
        if mine != base64.b64decode(reference[text]):
            different.append(text[:60])
    assert not different, different
    assert any(len(t) > 10_000 for t in texts), "a text longer than the character cut"


def test_the_sum_of_squares_is_sequential_float32():
    # np.add.accumulate must round at every step, as `sq += x * x` in f32 does.
    x = np.random.default_rng(7).standard_normal(256).astype(np.float32)
    sq = np.float32(0)
    for v in x:
        sq = np.float32(sq + np.float32(v * v))
    assert np.add.accumulate(x * x, dtype=np.float32)[-1] == sq


def test_texts_without_known_tokens_give_zero_vectors():
    v = StaticEmbedder().embed(["🙂", ""])
    assert all(x == 0.0 for x in v[0]) and all(x == 0.0 for x in v[1])
    assert len(v[0]) == 256
