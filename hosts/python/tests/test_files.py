"""The files capability and the journal: whole lines, atomic replaces, rollback of a call
that died (by this host or the Rust one), quarantine."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ash_memory.files import FileStore, mix
from ash_memory.home import Home
from ash_memory.journal import InvalidLine


def test_mix_is_splitmix64_folded():
    # Values from the Rust host's `mix` (files.rs) for the same parts.
    assert mix([]) == 0x9E3779B97F4A7C15
    assert mix([0, 0, 0]) != mix([1, 0, 0]) != mix([0, 1, 0])
    assert 0 <= mix([2**64 - 1, 2**64 - 1, 2**64 - 1]) < 2**64


def test_append_ends_a_torn_line_and_refuses_bad_lines(home: Path):
    files = FileStore(Home(home))
    path = files.path("memories")
    path.write_bytes(b'{"torn"')
    state = files.append("memories", ['{"a":1}'])
    files.commit()
    assert path.read_bytes() == b'{"torn"\n{"a":1}\n' and state.end == len(path.read_bytes())
    for bad in ([""], ["two\nlines"], ["  "]):
        with pytest.raises(InvalidLine):
            files.append("memories", bad)
    files.append("people", ['{"p":1}'])
    assert oct(files.path("people").stat().st_mode & 0o777) == "0o600", "new files are owner-only"


def test_a_call_that_died_is_rolled_back_and_the_journal_has_the_rust_format(home: Path):
    files = FileStore(Home(home))
    files.append("memories", ['{"a":1}'])
    files.commit()
    before = files.state("memories")
    files.append("memories", ['{"b":2}'])
    files.append("people", ['{"p":1}'])
    entry = json.loads((home / "memory" / ".journal").read_text())
    assert list(entry) == ["pid", "before"] and entry["pid"] == os.getpid()
    assert entry["before"][0] == ["memories", before.end, before.generation]
    # A new process finds the journal and rolls back.
    again = FileStore(Home(home))
    again.roll_back()
    assert files.path("memories").read_bytes() == b'{"a":1}\n'
    assert not files.path("people").exists(), "a file the call created goes away"
    assert (home / "memory" / ".journal").read_bytes() == b""
    assert again.state("memories").generation != before.generation, "readers read again"


def test_replace_is_atomic_and_rolls_forward(home: Path):
    files = FileStore(Home(home))
    files.append("memories", ['{"a":1}', '{"b":2}'])
    g0 = files.state("memories").generation
    state = files.replace("memories", ['{"b":2}'])
    files.commit()
    assert files.path("memories").read_bytes() == b'{"b":2}\n' and state.generation != g0
    assert not [p for p in (home / "memory").iterdir() if ".tmp-" in p.name]
    # A crash between the journal's commit point and the rename: recovery finishes it.
    tmp = home / "memory" / ".memories.jsonl.tmp-99999"
    tmp.write_bytes(b'{"c":3}\n')
    files.journal.begin(files.states(), ("memories", tmp))
    FileStore(Home(home)).roll_back()
    assert files.path("memories").read_bytes() == b'{"c":3}\n' and not tmp.exists()


def test_quarantine_keeps_lines_with_the_reason(home: Path):
    files = FileStore(Home(home))
    files.quarantine("memories", ["not json"], "does not parse")
    record = json.loads(files.quarantine_path("memories").read_text())
    assert record["line"] == "not json" and record["reason"] == "does not parse"
    assert record["quarantined_at"].endswith("+00:00")


def test_invalid_utf8_is_set_aside(home: Path):
    files = FileStore(Home(home))
    files.path("memories").write_bytes(b'{"a":1}\n\xff\xfe\n')
    chunk = files.read("memories", 0, None)
    assert chunk.data.startswith('{"a":1}\n\ufffd') and chunk.end == 11
    record = json.loads(files.quarantine_path("memories").read_text())
    assert record["line_base64"] == "//4=" and record["reason"] == "not valid UTF-8"


def test_the_rust_cli_rolls_back_what_python_left(home: Path, cli):
    cli("--home", str(home), "add", "I like tea")
    path = home / "memory" / "memories.jsonl"
    committed = path.read_bytes()
    files = FileStore(Home(home))
    files.append("memories", ['{"id":"half-written","version":1}'])  # and the process "dies"
    listed = cli("--home", str(home), "--json", "list")
    assert [m["content"] for m in json.loads(listed.stdout)] == ["I like tea"]
    assert path.read_bytes() == committed
