"""Writes tests/data/rust_vectors.json: the embedding the Rust CLI stores for each sentence of
sentences.json (base64 little-endian float32, as in memories.jsonl). Run from bindings/python:
`python tests/make_reference_vectors.py [--transformer] [path/to/ash-memory]`. With
`--transformer`, the transformer's vectors instead, into tests/data/rust_transformer_vectors.json."""

import json
import pathlib
import subprocess
import sys
import tempfile

here = pathlib.Path(__file__).parent
args = sys.argv[1:]
transformer = "--transformer" in args
args = [a for a in args if a != "--transformer"]
cli = args[0] if args else str(here.parents[2] / "target" / "debug" / "ash-memory")
sentences = json.loads((here / "data" / "sentences.json").read_text(encoding="utf-8"))
vectors = {}
with tempfile.TemporaryDirectory() as tmp:
    for i, text in enumerate(sentences):
        home = pathlib.Path(tmp) / f"h{i}"
        home.mkdir()
        provider = "transformer" if transformer else "static"
        (home / "config.toml").write_text(f'[embedder]\nprovider = "{provider}"\n', encoding="utf-8")
        r = subprocess.run([cli, "--home", str(home), "--now", "2026-03-01T12:00:00Z", "add", "--", text],
                           capture_output=True, text=True)
        if r.returncode != 0:
            continue
        for line in (home / "memory" / "memories.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("content") == text and record.get("embedding"):
                vectors[text] = record["embedding"]
name = "rust_transformer_vectors.json" if transformer else "rust_vectors.json"
(here / "data" / name).write_text(json.dumps(vectors, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
print(len(vectors), "of", len(sentences), "sentences have a Rust vector")
