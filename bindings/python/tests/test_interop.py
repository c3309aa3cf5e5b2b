"""A home written by this host is read by the Rust CLI without warnings or a rebuild, and
the reverse; both load the same component."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

import ash_memory
from ash_memory import Memory

NOW = "2026-03-01T12:00:00Z"


def test_the_rust_cli_reads_a_python_home(home: Path, cli):
    with Memory(home, now=NOW) as m:
        m.add("I'm allergic to peanuts", user="alice")
        m.add("My wife Sarah loves sushi", user="alice", subjects=["my wife Sarah"])
        m.search("warm the index", user="alice")
    listed = cli("--home", str(home), "--user", "alice", "--json", "list")
    assert listed.stderr == ""
    assert [x["content"] for x in json.loads(listed.stdout)] == ["My wife Sarah loves sushi", "I'm allergic to peanuts"]
    found = cli("--home", str(home), "--user", "alice", "--json", "search", "What should I avoid eating?")
    assert found.stderr == "", "no warning: the index is accepted as it is"
    assert json.loads(found.stdout)["hits"][0]["content"] == "I'm allergic to peanuts"
    doctor = cli("--home", str(home), "doctor")
    assert "WARN" not in doctor.stdout


def test_python_reads_a_rust_home_without_a_rebuild(home: Path, cli, caplog: pytest.LogCaptureFixture):
    cli("--home", str(home), "--user", "alice", "--now", NOW, "add", "I'm allergic to peanuts")
    cli("--home", str(home), "--user", "alice", "--now", NOW, "add", "I live in Lisbon")
    cli("--home", str(home), "--user", "alice", "search", "warm the index")
    with caplog.at_level(logging.DEBUG, logger="ash_memory"):
        with Memory(home, user="alice") as m:
            hits = m.search("What should I avoid eating?").hits
            assert hits[0].memory.content == "I'm allergic to peanuts"
            assert len(m.list()) == 2
    assert not [r for r in caplog.records if r.levelno >= logging.INFO], [r.getMessage() for r in caplog.records]
    # The search read the records the Rust host kept in the index, not memories.jsonl.
    messages = [r.getMessage() for r in caplog.records]
    assert any("search: answered from the index" in m for m in messages), messages
    # A list with a limit, in a new instance, reads the most recent from the index too.
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="ash_memory"):
        with Memory(home, user="alice") as m:
            assert [x.content for x in m.list(limit=1)] == ["I live in Lisbon"]
    messages = [r.getMessage() for r in caplog.records]
    assert any("list: read from the index" in m for m in messages), messages


def test_both_hosts_load_the_same_component(cli):
    assert cli("component", "--sha256").stdout.split()[0] == ash_memory.component_sha256()


def test_the_coarse_codes_are_the_rust_hosts_byte_for_byte(tmp_path: Path, cli):
    facts = ["I'm allergic to peanuts", "My wife Sarah loves sushi", "I live in Lisbon", "Meeting at 10:30 on Friday"]
    here, there = tmp_path / "here", tmp_path / "there"
    with Memory(here, now=NOW) as m:
        for fact in facts:
            m.add(fact, user="alice")
    for fact in facts:
        cli("--home", str(there), "--user", "alice", "--now", NOW, "add", fact)

    def codes(home: Path) -> list[tuple]:
        db = sqlite3.connect(home / "data" / "memory.db")
        try:
            return db.execute(
                "SELECT json_extract(items.record, '$.content'), codes.scope, codes.scale, codes.code"
                " FROM codes JOIN items ON items.rowid = codes.item ORDER BY 1"
            ).fetchall()
        finally:
            db.close()

    written = codes(here)
    assert [c[0] for c in written] == sorted(facts)
    assert written == codes(there)
