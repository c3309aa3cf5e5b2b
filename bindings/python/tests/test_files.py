"""The files capability and the journal: whole lines, atomic replaces, rollback of a call
that died (by this host or the Rust one), quarantine."""

from __future__ import annotations

import errno
import json
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from ash_memory.files import COLLECTIONS, FileStore, mix
from ash_memory.home import Home
from ash_memory.journal import FileIoError, InvalidLine


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
    assert list(entry) == ["pid", "before", "tokens"] and entry["pid"] == os.getpid()
    assert entry["before"][0] == ["memories", before.end, before.generation]
    assert entry["tokens"] == [[c, 0] for c in ("memories", "people", "archive", "sessions", "messages")]
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
    files.journal.record(files.states(), ("memories", tmp), ["archive"])
    entry = json.loads((home / "memory" / ".journal").read_text())
    assert list(entry) == ["pid", "before", "tokens", "replace", "rolling_back"]
    assert entry["replace"] == ["memories", tmp.name] and entry["rolling_back"] == ["archive"]
    assert not [p for p in (home / "memory").iterdir() if ".tmp-" in p.name and p != tmp]
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


def _contents(files: FileStore) -> dict[str, bytes | None]:
    """Every collection's bytes, None for one that is not there."""
    return {c: files.path(c).read_bytes() if files.path(c).exists() else None for c in COLLECTIONS}


def _killed(cli, monkeypatch: pytest.MonkeyPatch, fault: str, *args: str) -> None:
    """Runs the Rust CLI until it aborts (as kill -9 would) at the fault point named."""
    with monkeypatch.context() as m:
        m.setenv("ASH_FAULT", fault)
        r = cli(*args, check=False)
    assert r.returncode == -6, r.stderr


def test_a_call_the_rust_cli_was_killed_in_is_recovered_here(home: Path, cli, monkeypatch):
    for fact in ("I'm allergic to peanuts", "I have a cat named Tom", "I live in Lisbon"):
        cli("--home", str(home), "--user", "u", "add", fact)
    listed = json.loads(cli("--home", str(home), "--user", "u", "--json", "list").stdout)
    # A removal line, which gc's rewrite folds away.
    cli("--home", str(home), "--user", "u", "delete", listed[2]["id"])
    files = FileStore(Home(home))
    committed = _contents(files)
    # A delete killed once both of its appends are flushed: the journal has tokens.
    at_home = ("--home", str(home), "--user", "u")
    _killed(cli, monkeypatch, "append:memories:synced", *at_home, "delete", listed[0]["id"])
    assert "tokens" in json.loads(files.home.journal.read_text())
    files.roll_back()
    assert _contents(files) == committed
    # gc killed after its rewrite's commit point and new token, before the rename: the
    # journal names the temporary file by its name alone, and recovery here finishes it.
    _killed(cli, monkeypatch, "replace:memories:token", *at_home, "gc")
    name = json.loads(files.home.journal.read_text())["replace"][1]
    assert name.startswith(".memories.jsonl.tmp-"), name
    rewritten = (home / "memory" / name).read_bytes()
    files.roll_back()
    assert files.path("memories").read_bytes() == rewritten and not (home / "memory" / name).exists()
    files.close()
    listed = cli("--home", str(home), "--user", "u", "--json", "list")
    assert [m["content"] for m in json.loads(listed.stdout)] == ["I live in Lisbon", "I have a cat named Tom"]
    # A search brings the index up to the files, as any ordinary call may.
    cli("--home", str(home), "--user", "u", "search", "cat")
    assert "WARN" not in cli("--home", str(home), "doctor").stdout


def test_the_rust_cli_finishes_a_rollback_python_was_killed_in(home: Path, cli):
    cli("--home", str(home), "--user", "u", "add", "I'm allergic to peanuts")
    files = FileStore(Home(home))
    committed = _contents(files)
    files.append("archive", ['{"id":"half-archived","version":1}'])
    files.append("memories", ['{"id":"half-written","version":1}'])
    files.close()
    dying = FileStore(Home(home))
    pending = dying.journal.pending()
    dying.journal.record(pending.states, None, ["memories", "archive"])
    # The first cut and its new token are done, then the process dies.
    dying.cut_back(next(b for b in pending.states if b.collection == "memories"))
    dying.new_token("memories")
    dying.close()
    listed = cli("--home", str(home), "--user", "u", "--json", "list")
    assert [m["content"] for m in json.loads(listed.stdout)] == ["I'm allergic to peanuts"]
    assert _contents(files) == committed
    assert files.home.journal.read_bytes() == b""


def _home_with_an_open_transaction(root: Path) -> Home:
    """A home with one acknowledged line in each of two collections, and a call's unfinished
    appends to both (and to a collection it created), as a killed process leaves them."""
    home = Home(root)
    files = FileStore(home)
    files.append("memories", ["kept"])
    files.append("archive", ["kept copy"])
    files.commit()
    files.append("archive", ["undone copy"])
    files.append("people", ["undone person"])
    files.append("memories", ["undone"])
    files.close()
    return home


def _assert_rolled_back(home: Home, what: str) -> None:
    """The call left open is wholly undone, and recovery left nothing behind."""
    files = FileStore(home)
    assert files.path("memories").read_text() == "kept\n", what
    assert files.path("archive").read_text() == "kept copy\n", what
    assert not files.path("people").exists(), f"{what}: the file the call made is gone"
    assert files.journal.pending() is None, what
    for d in (home.root, home.root / "memory"):
        assert not [p.name for p in d.iterdir() if ".tmp-" in p.name], what
    files.close()


def test_a_rollback_killed_after_its_first_cut_and_token_finishes_the_others(home: Path):
    h = _home_with_an_open_transaction(home)
    dying = FileStore(h)
    pending = dying.journal.pending()
    dying.journal.record(pending.states, None, ["archive", "memories", "people"])
    # The first cut and its new token are done, then the process dies.
    dying.cut_back(next(b for b in pending.states if b.collection == "archive"))
    dying.new_token("archive")
    dying.close()
    FileStore(h).roll_back()
    _assert_rolled_back(h, "the second cut is not skipped")


DISK_WRITES = ("write", "pwrite", "fsync", "fdatasync", "ftruncate", "rename", "replace", "unlink", "remove")


@contextmanager
def _dying_before_write(n: int, monkeypatch: pytest.MonkeyPatch):
    """A process that dies before its `n`th write to the disk (a write, flush, truncation,
    rename or removal): that one and every later one fails."""
    count = 0

    def dies(name: str, real):
        def call(*args, **kwargs):
            nonlocal count
            count += 1
            if count >= n:
                raise OSError(errno.EIO, f"killed before {name}")
            return real(*args, **kwargs)
        return call

    with monkeypatch.context() as m:
        for name in DISK_WRITES:
            m.setattr(os, name, dies(name, getattr(os, name)))
        yield


def test_a_rollback_killed_at_any_of_its_steps_is_finished_by_the_next_call(tmp_path: Path, monkeypatch):
    steps = 0
    n = 1
    while True:
        h = _home_with_an_open_transaction(tmp_path / str(n))
        tokens = [FileStore(h)._token(c) for c in ("memories", "archive")]
        dying = FileStore(h)
        died = False
        with _dying_before_write(n, monkeypatch):
            try:
                dying.roll_back()
            except (FileIoError, OSError):
                died = True
        dying.close()
        after = FileStore(h)
        after.roll_back()
        assert after._token("memories") != tokens[0], f"killed at {n}: readers of memories read again"
        assert after._token("archive") != tokens[1], f"killed at {n}: readers of archive read again"
        after.close()
        _assert_rolled_back(h, f"killed at write {n}")
        if not died:
            break
        steps = n
        n += 1
    assert steps >= 8, f"a rollback of three collections takes more steps than {steps}"


def test_a_home_copied_with_new_inodes_while_a_call_was_open_is_rolled_back_in_the_copy(tmp_path: Path):
    h = _home_with_an_open_transaction(tmp_path / "home")
    copy = tmp_path / "copy"
    copy.mkdir()
    # Every file made anew, as `cp -a` or a restore makes them: new inodes.
    subprocess.run(["cp", "-a", f"{h.root}/.", str(copy)], check=True)
    assert (copy / "memory" / "memories.jsonl").stat().st_ino != h.memories.stat().st_ino
    files = FileStore(Home(copy))
    files.roll_back()
    files.close()
    _assert_rolled_back(Home(copy), "the copy")
    assert h.memories.read_text() == "kept\nundone\n", "the original is not touched"


def test_a_journal_naming_a_file_outside_the_home_for_its_replace_changes_nothing(
    tmp_path: Path, monkeypatch
):
    files = FileStore(Home(tmp_path / "home"))
    files.append("memories", ["mine"])
    files.commit()
    # Bait that the names below reach from the working folder, read as the old code did.
    elsewhere = tmp_path / "elsewhere"
    outside = elsewhere / ".memories.jsonl.tmp-1"
    cwd = elsewhere / "a" / "b"
    cwd.mkdir(parents=True)
    (elsewhere / "etc").mkdir()
    baits = [outside, elsewhere / "evil.jsonl", elsewhere / "etc" / "passwd", cwd / ".journal"]
    for bait in baits:
        bait.write_text("not yours\n")
    monkeypatch.chdir(cwd)
    for named in (str(outside), str(elsewhere / "evil.jsonl"), "../../etc/passwd", ".journal", "..", "/", ""):
        # As a tampered journal has it: the path as written, not reduced to a name.
        entry = {"pid": 1, "before": [], "replace": ["memories", named]}
        files.home.journal.write_text(json.dumps(entry) + "\n")
        FileStore(files.home).roll_back()
        assert files.path("memories").read_text() == "mine\n", f"named {named}"
    for bait in baits:
        assert bait.read_text() == "not yours\n", bait
    assert files.home.journal.read_bytes() == b"", "and the journal is emptied"
    files.close()


def test_a_journal_the_rust_host_wrote_is_understood(home: Path):
    h = _home_with_an_open_transaction(home)
    files = FileStore(h)
    files.new_token("memories")
    files.new_token("archive")
    end = {c: files.path(c).stat().st_size for c in ("memories", "archive")}
    memories_token, archive_token = files._token("memories"), files._token("archive")
    # Generations no file here has (as in a copied home): the tokens match the files. People
    # was missing: its generation is its token's alone. Written as serde writes it.
    h.journal.write_text(
        f'{{"pid":4242,"before":[["memories",{end["memories"] - 7},123],["people",0,{mix([0, 0, 0])}],'
        f'["archive",{end["archive"]},456]],"tokens":[["memories",{memories_token}],["people",0],'
        f'["archive",{archive_token}]],"replace":["archive",".archive.jsonl.tmp-4242"]}}\n'
    )
    # A committed rewrite of the archive whose rename the process did not live to make.
    (h.root / "memory" / ".archive.jsonl.tmp-4242").write_text("rewritten\n")
    files.roll_back()
    assert files.path("memories").read_text() == "kept\n", "cut by its token"
    assert files.path("archive").read_text() == "rewritten\n", "the rename is finished beside the collection"
    assert files._token("archive") != archive_token, "a rewrite gives a new token"
    assert not files.path("people").exists(), "made by the call: removed"
    assert files.journal.pending() is None
    files.close()
