"""The idiomatic API: results, error kinds, scoping, and that a bad input changes nothing."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

import ash_memory
from ash_memory import (
    Busy, InvalidInput, InvalidParams, Memory, MemoryError, MemoryNotFound, PersonNotFound, SecretRefused,
    UnknownTool,
)
from ash_memory import rpc
from conftest import open_in, snapshot

NOW = "2026-03-01T12:00:00Z"


@pytest.fixture
def m(home: Path):
    with Memory(home, now=NOW, ids="sequential") as memory:
        yield memory


def test_add_search_list_and_shapes(m: Memory):
    added = m.add("I'm allergic to peanuts", user="alice")
    assert added.memory.id == "00000000-0000-4000-8000-000000000001"
    assert added.memory.created_at == "2026-03-01T12:00:00+00:00"
    d = added.to_dict()
    assert set(d) == {"memories", "superseded", "evicted", "restated"} and d["restated"] == []
    assert d["memories"][0]["memory_type"] == "identity" and d["memories"][0]["embedded"] is True
    results = m.search("What should I avoid eating?", user="alice", limit=3)
    assert [h.memory.id for h in results] == [added.memory.id]
    hit = results.to_dict()["hits"][0]
    assert {"score", "similarity", "subjects", "reasons", "content"} <= set(hit)
    assert hit["reasons"] and set(hit["reasons"]) <= {"meaning", "words", "person", "entity", "time", "reply"}
    assert [x.content for x in m.list(user="alice")] == ["I'm allergic to peanuts"]
    assert m.get(added.memory.id[:12], user="alice").content == "I'm allergic to peanuts"


def test_scoping_keeps_users_and_chats_apart(m: Memory):
    m.add("Alice likes green tea", user="alice")
    m.add("The team meets on Mondays", user="alice", chat="team", shared=True)
    assert m.search("tea", user="bob").hits == []
    assert [x.content for x in m.list(user="bob", chat="team")] == ["The team meets on Mondays"]
    assert len(m.list(user="alice", chat="team")) == 2
    with pytest.raises(MemoryNotFound) as e:
        m.get("00000000-0000-4000-8000-000000000001", user="bob")
    assert e.value.kind == "memory_not_found" and isinstance(e.value, MemoryError)


def test_error_kinds(m: Memory):
    cases = [
        (lambda: m.add(""), InvalidInput, "invalid_input"),
        (lambda: m.add("my password is hunter2"), SecretRefused, "secret_refused"),
        (lambda: m.get("no-such-memory"), MemoryNotFound, "memory_not_found"),
        (lambda: m.people.show("nobody"), PersonNotFound, "person_not_found"),
        (lambda: m.tools.call("nope", "{}"), UnknownTool, "unknown_tool"),
        (lambda: m.add("x", expires_days=-1), InvalidInput, "invalid_input"),
        (lambda: m.add("x", memory_type="mood"), InvalidInput, "invalid_input"),
        (lambda: m.add(42), InvalidInput, "invalid_input"),  # type: ignore[arg-type]
    ]
    for run, cls, kind in cases:
        with pytest.raises(cls) as e:
            run()
        assert e.value.kind == kind
    assert ash_memory.errors.BY_KIND["busy"] is Busy


def test_a_bad_input_changes_nothing_on_disk(m: Memory, home: Path):
    m.add("I live in Lisbon")
    m.people.add("Sarah", relation="wife")
    before = snapshot(home)
    for bad in (lambda: m.add("my password is hunter2"), lambda: m.add("   "),
                lambda: m.add_batch([{"content": "fine"}, {"content": "token ghp_" + "a1B2" * 9}]),
                lambda: m.add("x", observed_at="yesterday"), lambda: m.people.alias("Tom", "T"),
                lambda: m.delete("nope")):
        with pytest.raises(MemoryError):
            bad()
    assert snapshot(home) == before


def test_people_tools_context_history_delete_gc(m: Memory):
    m.add("My wife Sarah loves sushi", subjects=["my wife Sarah"])
    sarah = m.people.show("my wife")
    assert sarah.name == "Sarah" and [p.name for p in m.people.list()] == ["Sarah"]
    assert "Sally" in m.people.alias("Sarah", "Sally").aliases
    block = m.context("dinner with Sarah")
    assert "Sarah" in block.markdown and block.to_dict()["estimated_tokens"] > 0
    names = [t["name"] for t in m.tools.schemas()]
    assert names[:2] == ["remember", "recall"]
    assert "sushi" in m.tools.call("recall", {"query": "sushi"})
    red = m.add("My favorite color is red").memory
    m.set_now("2026-03-02T12:00:00Z")
    blue = m.add("My favorite color is blue")
    assert blue.superseded[0].memory.id == red.id
    assert [x.id for x in m.history(red.id)] == [red.id, blue.memory.id]
    assert m.delete(blue.memory.id) == blue.memory.id
    report = m.gc()
    assert [a.reason for a in report.archived] == ["superseded"]
    assert report.to_dict()["counts"] == {"superseded": 1}


def test_correct_replaces_the_memory_and_history_keeps_both(m: Memory, home: Path):
    berlin = m.add("I live in Berlin", user="alice").memory
    fixed = m.correct(berlin.id, "I live in Hamburg", user="alice")
    hamburg = fixed.memory
    assert [x.content for x in fixed.memories] == ["I live in Hamburg"] and hamburg.id != berlin.id
    assert (hamburg.source, hamburg.owner_user_id, hamburg.memory_type) == ("correction", "alice", berlin.memory_type)
    assert [(s.memory.id, s.superseded_by_id) for s in fixed.superseded] == [(berlin.id, hamburg.id)]
    assert fixed.superseded[0].memory.superseded_by_id == hamburg.id
    assert (fixed.evicted, fixed.restated) == ([], [])
    assert fixed.to_dict()["superseded"][0]["superseded_by_id"] == hamburg.id
    chain = m.history(hamburg.id, user="alice")
    assert [(x.id, x.content) for x in chain] == [(berlin.id, "I live in Berlin"), (hamburg.id, "I live in Hamburg")]
    assert chain[0].superseded_by_id == hamburg.id and chain[1].superseded_by_id is None
    assert [x.content for x in m.list(user="alice")] == ["I live in Hamburg"]
    before = snapshot(home)
    with pytest.raises(MemoryNotFound) as e:
        m.correct(hamburg.id, "I live in Munich", user="bob")
    assert e.value.kind == "memory_not_found"
    with pytest.raises(InvalidInput) as e:
        m.correct(berlin.id, "I live in Munich", user="alice")
    assert hamburg.id in str(e.value), "a replaced memory is not corrected: its replacement names itself"
    assert snapshot(home) == before
    again = m.add("i live in hamburg!", user="alice")
    assert again.restated == [hamburg.id] and [x.id for x in again.memories] == [hamburg.id]
    assert again.superseded == [] and again.to_dict()["restated"] == [hamburg.id]
    assert [x.content for x in m.list(user="alice")] == ["I live in Hamburg"]


def test_correct_over_json_rpc(m: Memory):
    berlin = rpc.call(m, "memory.add", {"user_id": "alice", "content": "I live in Berlin"})["memories"][0]
    fixed = rpc.call(m, "memory.correct", {"user_id": "alice", "memory_id": berlin["id"],
                                           "content": "I live in Hamburg", "subjects": None})
    assert set(fixed) == {"memories", "superseded", "evicted", "restated"} and fixed["restated"] == []
    hamburg = fixed["memories"][0]
    assert hamburg["content"] == "I live in Hamburg" and hamburg["memory_type"] == berlin["memory_type"]
    assert fixed["superseded"][0]["memory"]["id"] == berlin["id"]
    assert fixed["superseded"][0]["superseded_by_id"] == hamburg["id"]
    history = rpc.call(m, "memory.history", {"user_id": "alice", "memory_id": hamburg["id"]})["memories"]
    assert [x["id"] for x in history] == [berlin["id"], hamburg["id"]]
    for bad in ({"memory_id": hamburg["id"]}, {"memory_id": hamburg["id"], "content": "x", "shared": True},
                {"memory_id": hamburg["id"], "content": "x", "memory_type": "mood"},
                {"memory_id": hamburg["id"], "content": "x", "subjects": "Sarah"},
                {"memory_id": hamburg["id"], "content": "x", "expires_days": -1}):
        with pytest.raises(InvalidParams):
            rpc.call(m, "memory.correct", {"user_id": "alice", **bad})
    with pytest.raises(MemoryNotFound):
        rpc.call(m, "memory.correct", {"user_id": "bob", "memory_id": hamburg["id"], "content": "I live in Munich"})
    again = rpc.call(m, "memory.add", {"user_id": "alice", "content": "i live in hamburg!"})
    assert again["restated"] == [hamburg["id"]] and again["memories"][0]["id"] == hamburg["id"]


def test_compact_and_doctor(m: Memory, home: Path):
    red = m.add("My favorite color is red").memory
    m.set_now("2026-03-02T12:00:00Z")
    m.add("My favorite color is blue")
    assert [a.id for a in m.gc().archived] == [red.id]
    assert m.compact().removed == [], "archived a day ago, kept for 90"
    m.set_now("2026-07-01T12:00:00Z")
    before = (home / "memory" / "archive.jsonl").read_bytes()
    report = m.compact()
    assert (report.removed, report.forced) == ([red.id], False)
    assert (home / "memory" / "archive.jsonl").read_bytes() == before, "without force, only a report"
    assert m.compact(force=True).to_dict() == {"removed": [red.id], "kept": 0, "forced": True}
    assert red.id.encode() not in (home / "memory" / "archive.jsonl").read_bytes()
    with pytest.raises(InvalidInput):
        m.compact(older_than_days=-1)
    findings = m.doctor()
    assert findings and all(f.ok for f in findings), [f.to_dict() for f in findings]
    # Another process loses an index entry behind the files' back.
    with sqlite3.connect(home / "data" / "memory.db") as db:
        db.execute("DELETE FROM items WHERE rowid = (SELECT max(rowid) FROM items)")
    db.close()
    broken = [f for f in m.doctor() if not f.ok]
    assert broken, "an index short of the files is found"
    assert any(f.fixed for f in m.doctor(fix=True))
    assert all(f.ok for f in m.doctor())


def test_a_held_lock_makes_a_call_busy(m: Memory, home: Path, monkeypatch: pytest.MonkeyPatch):
    import fcntl

    m.add("warm up")
    fd = os.open(home / ".lock", os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.pwrite(fd, b"4242", 0)
    monkeypatch.setenv("ASH_LOCK_TIMEOUT_SECS", "0.2")
    try:
        with pytest.raises(Busy) as e:
            m.list()
        assert "pid 4242" in str(e.value) and e.value.kind == "busy"
    finally:
        os.close(fd)
    assert len(m.list()) == 1


def test_a_trap_is_a_sandbox_error_and_the_next_call_works(home: Path):
    home.mkdir()
    (home / "config.toml").write_text("[sandbox]\nfuel_per_call = 2000\n")
    with Memory(home) as m:
        with pytest.raises(ash_memory.SandboxError) as e:
            m.add("I like tea")
        assert "fuel" in str(e.value) and e.value.kind == "sandbox"
        files = {k: v for k, v in snapshot(home).items() if k != "config.toml"}
        journal = files.pop("memory/.journal", b"")
        assert files == {} and journal.strip() == b"", "nothing written"
    (home / "config.toml").unlink()
    with Memory(home) as m:
        assert m.add("I like tea").memory.content == "I like tea"


def test_a_malformed_config_is_a_config_error(home: Path):
    home.mkdir()
    (home / "config.toml").write_text("[memory]\nauto_gcc = true\n")
    with pytest.raises(ash_memory.ConfigError) as e:
        Memory(home)
    assert "auto_gcc" in str(e.value) and e.value.kind == "config"


def test_component_sha256_names_the_bytes_loaded():
    path = ash_memory.component_path()
    assert path is not None
    import hashlib

    assert ash_memory.component_sha256() == hashlib.sha256(path.read_bytes()).hexdigest()


def test_random_ids_are_uuid_v4(home: Path):
    import uuid

    with Memory(home) as m:
        mid = m.add("I like tea").memory.id
    assert uuid.UUID(mid).version == 4


def test_threads_sharing_a_memory_take_turns(home: Path):
    # The home's lock is let go while a remote embedder answers; without a lock of its own,
    # another thread then entered the same wasmtime store and every call trapped.
    import threading
    import time

    from ash_memory.embedder import StaticEmbedder

    class SlowRemote(StaticEmbedder):
        is_remote = True

        def embed(self, texts):  # type: ignore[no-untyped-def]
            time.sleep(0.1)
            return super().embed(texts)

    errors: list[BaseException] = []
    with Memory(home, user="alice", embedder=SlowRemote()) as m:
        def add(i: int) -> None:
            try:
                m.add(f"fact number {i} about topic {i}")
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=add, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        assert len(m.list()) == 4


def test_a_memory_dropped_without_close_releases_its_files(home: Path):
    import gc

    m = Memory(home, user="alice")
    m.add("I like green tea")
    assert open_in(home), "the index is open"
    del m
    gc.collect()
    assert open_in(home) == []


def test_ctrl_c_in_an_import_reaches_the_caller_and_the_call_rolls_back(home: Path):
    # wasmtime's C callback used to swallow a KeyboardInterrupt raised in an import: the
    # call trapped and the caller saw a SandboxError, the interrupt lost.
    from ash_memory.embedder import StaticEmbedder

    class Interrupted(StaticEmbedder):
        armed = False

        def embed(self, texts):  # type: ignore[no-untyped-def]
            if self.armed:
                raise KeyboardInterrupt
            return super().embed(texts)

    embedder = Interrupted()
    with Memory(home, user="alice", embedder=embedder) as m:
        m.add("I'm allergic to peanuts")
        before = (home / "memory" / "memories.jsonl").read_bytes()
        embedder.armed = True
        with pytest.raises(KeyboardInterrupt):
            m.add("I live in Lisbon")
        assert (home / "memory" / "memories.jsonl").read_bytes() == before
        embedder.armed = False
        m.add("I live in Porto")
        assert [x.content for x in m.list()] == ["I live in Porto", "I'm allergic to peanuts"]


def test_a_statement_run_for_many_rows_binds_each_row_and_refuses_a_partial_one(home: Path):
    from ash_memory.sql import SqlFailed, encode_rows

    with Memory(home, user="alice") as m:
        m.add("I'm allergic to peanuts")
        sql = m._state.sql
        sql.execute("CREATE TABLE t (a INTEGER, b INTEGER)", "")
        values = lambda *xs: encode_rows([xs])  # noqa: E731 (one row's values, encoded)
        assert sql.execute_each("INSERT INTO t VALUES (?1, ?2)", 2, values(1, 2, 3, 4, 5, 6)) == 3
        with pytest.raises(SqlFailed, match="rows of 2"):
            sql.execute_each("INSERT INTO t VALUES (?1, ?2)", 2, values(7, 8, 9))
        assert sql.query("SELECT a * 10 + b FROM t ORDER BY a", "") == (1, values(12, 34, 56))


def test_a_trap_inside_the_index_transaction_leaves_nothing_half_written(home: Path):
    # The index runs in the component: a trap between its BEGIN and COMMIT must not leave
    # the host's connection inside that transaction, or every later write would fail.
    with Memory(home, user="alice") as m:
        m.add("I'm allergic to peanuts")
        sql = m._state.sql
        execute_each = sql.execute_each
        trapped = []

        def failing(statement, width, params):  # type: ignore[no-untyped-def]
            if statement.startswith("INSERT INTO fts") and not trapped:
                trapped.append(statement)
                raise RuntimeError("the disk went away")
            return execute_each(statement, width, params)

        sql.execute_each = failing
        with pytest.raises(ash_memory.SandboxError):
            m.add("I live in Lisbon")
        assert trapped, "the add reached the index's full-text write"
        m.add("I live in Porto")
        hits = [h.memory.content for h in m.search("Where do I live?").hits]
        assert "I live in Porto" in hits and "I live in Lisbon" not in hits
        with sqlite3.connect(home / "data" / "memory.db") as db:
            held = [r for (r,) in db.execute("SELECT record FROM items")]
        assert len(held) == 2 and not any("Lisbon" in r for r in held), held


def test_a_context_is_searched_with_the_content_kept_and_returned_apart(m: Memory, home: Path):
    m.add("I drive a 2015 Subaru Outback", user="alice")
    m.add("Yes, twice, and I would go back tomorrow", user="alice", context="Ana: Have you ever been to Japan?")
    found = m.search("japan", user="alice")
    assert [h.memory.content for h in found] == ["Yes, twice, and I would go back tomorrow"]
    assert found.hits[0].memory.context == "Ana: Have you ever been to Japan?"
    assert found.to_dict()["hits"][0]["context"] == "Ana: Have you ever been to Japan?"
    assert [x.context for x in m.list(user="alice") if "Subaru" in x.content] == [None]
    line = (home / "memory" / "memories.jsonl").read_text().strip().splitlines()[-1]
    assert '"context":"Ana: Have you ever been to Japan?"' in line
    before = snapshot(home)
    with pytest.raises(SecretRefused):
        m.add("Noted", user="alice", context="my token is ghp_0123456789abcdefghijABCDEFGHIJ0123")
    with pytest.raises(InvalidInput):
        m.add("Noted", user="alice", context=7)  # type: ignore[arg-type]
    assert snapshot(home) == before
