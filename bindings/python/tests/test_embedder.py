"""The static embedder gives vectors bit-identical to the Rust host's, on a few hundred
varied texts written by the Rust CLI (accents, CJK, emoji, punctuation, very long texts)."""

from __future__ import annotations

import base64
import json
import math
import random
import struct
from array import array
from pathlib import Path

import pytest

import ash_memory
from ash_memory import Memory
from ash_memory.embedder import StaticEmbedder, norm_f32

DATA = Path(__file__).parent / "data"


def test_vectors_are_bit_identical_to_the_rust_host():
    reference = json.loads((DATA / "rust_vectors.json").read_text(encoding="utf-8"))
    assert len(reference) >= 300
    texts = list(reference)
    vectors = StaticEmbedder().embed(texts)
    different = []
    for text, v in zip(texts, vectors):
        mine = struct.pack(f"<{len(v)}f", *v)
        if mine != base64.b64decode(reference[text]):
            different.append(text[:60])
    assert not different, different
    assert any(len(t) > 10_000 for t in texts), "a text longer than the character cut"


def test_the_norm_is_a_sequential_float32_sum():
    # Rounded at every step, as `sq += x * x` in f32 is; not the exact sum rounded once.
    def f32(v: float) -> float:
        return float(struct.unpack("<f", struct.pack("<f", v))[0])

    rng = random.Random(7)
    differs = False
    for _ in range(50):
        x = array("f", [rng.gauss(0, 1) for _ in range(256)]).tolist()
        sq = 0.0
        for v in x:
            sq = f32(sq + f32(v * v))
        assert norm_f32(x) == f32(math.sqrt(sq))
        differs |= f32(math.fsum(v * v for v in x)) != sq
    assert differs, "the inputs never tell sequential rounding from exact summation"


def test_texts_without_known_tokens_give_zero_vectors():
    v = StaticEmbedder().embed(["🙂", ""])
    assert all(x == 0.0 for x in v[0]) and all(x == 0.0 for x in v[1])
    assert len(v[0]) == 256

