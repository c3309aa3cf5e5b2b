"""The home's files across hosts and the `fs` import they are reached through.

The collections and their journal are the Rust crate `files/`, compiled into the component
this host loads (and tested in files/src/tests.rs); what is tested here is what this host
adds: that a call Python was killed in is rolled back by the Rust CLI and the other way
round, that the journal Python's process leaves is the Rust host's format, that the home's
lock is let go while a remote service answers, and that `fs` stays inside the home.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ash_memory import Busy, Memory, SandboxError
from ash_memory.embedder import StaticEmbedder
from ash_memory.fs import FsError, HomeFs
from conftest import open_in

COLLECTIONS = {
    "memories": "memory/memories.jsonl",
    "people": "people.jsonl",
    "archive": "memory/archive.jsonl",
    "sessions": "memory/sessions.jsonl",
    "messages": "memory/messages.jsonl",
}


def _contents(home: Path) -> dict[str, bytes | None]:
    """Every collection's bytes, None for one that is not there."""
    return {c: (home / p).read_bytes() if (home / p).exists() else None for c, p in COLLECTIONS.items()}


def _journal(home: Path) -> str:
    """The journal's entry; "" when it holds none (it is kept at one length, blank when empty)."""
    path = home / "memory" / ".journal"
    return path.read_text().strip() if path.exists() else ""


def _killed_python(home: Path, script: str) -> int:
    """Runs `script` in a new Python process with `m`, a Memory of `home` (user "u"), and
    `kill_at(statement)`, which makes the process kill itself (SIGKILL, as `kill -9`) when
    the index is next sent that statement; returns the dead process's pid."""
    prelude = textwrap.dedent(f"""
        import os, signal
        from ash_memory import Memory
        m = Memory({str(home)!r}, user="u", auto_gc=False)

        def kill_at(statement):
            sql = m._state.sql
            real = sql.execute

            def execute(s, params):
                if s.startswith(statement):
                    os.kill(os.getpid(), signal.SIGKILL)
                return real(s, params)

            sql.execute = execute
    """)
    p = subprocess.Popen([sys.executable, "-c", prelude + textwrap.dedent(script)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, stderr = p.communicate()
    assert p.returncode == -signal.SIGKILL, stderr
    return p.pid


def _python_call(home: Path) -> list[str]:
    """One call from this host, which first rolls back what a dead process left."""
    with Memory(home, user="u", auto_gc=False) as m:
        return [x.content for x in m.list()]


def test_python_killed_in_a_call_leaves_the_rust_journal_and_the_rust_cli_rolls_it_back(home: Path, cli):
    cli("--home", str(home), "--user", "u", "add", "I like tea")
    committed = _contents(home)
    memories = committed["memories"]
    assert memories is not None
    # Killed once the add's line is flushed and the index is being written.
    pid = _killed_python(home, 'kill_at("BEGIN")\nm.add("I live in Lisbon")\n')
    assert (home / COLLECTIONS["memories"]).read_bytes() != memories, "the line was written"
    entry = json.loads(_journal(home))
    # As serde writes the Rust host's `Entry`: fields in order, the dead process's pid.
    assert list(entry) == ["pid", "before", "tokens"] and entry["pid"] == pid != os.getpid()
    assert ["memories", len(memories)] == entry["before"][0][:2]
    assert [c for c, _ in entry["tokens"]] == [c for c, _, _ in entry["before"]]
    listed = cli("--home", str(home), "--user", "u", "--json", "list")
    assert [m["content"] for m in json.loads(listed.stdout)] == ["I like tea"]
    assert _contents(home) == committed and _journal(home) == ""


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
    committed = _contents(home)
    # A delete killed once both of its appends are flushed: the journal has tokens.
    at_home = ("--home", str(home), "--user", "u")
    _killed(cli, monkeypatch, "append:memories:synced", *at_home, "delete", listed[0]["id"])
    assert "tokens" in json.loads(_journal(home))
    assert _python_call(home) == ["I live in Lisbon", "I have a cat named Tom"]
    assert _contents(home) == committed and _journal(home) == ""
    # gc killed after its rewrite's commit point and new token, before the rename: the
    # journal names the temporary file by its name alone, and recovery here finishes it.
    _killed(cli, monkeypatch, "replace:memories:token", *at_home, "gc")
    name = json.loads(_journal(home))["replace"][1]
    assert name.startswith(".memories.jsonl.tmp-"), name
    rewritten = (home / "memory" / name).read_bytes()
    _python_call(home)
    assert (home / COLLECTIONS["memories"]).read_bytes() == rewritten and not (home / "memory" / name).exists()
    listed = cli("--home", str(home), "--user", "u", "--json", "list")
    assert [m["content"] for m in json.loads(listed.stdout)] == ["I live in Lisbon", "I have a cat named Tom"]
    # A search brings the index up to the files, as any ordinary call may.
    cli("--home", str(home), "--user", "u", "search", "cat")
    assert "WARN" not in cli("--home", str(home), "doctor").stdout


def test_the_rust_cli_finishes_a_rollback_python_was_killed_in(home: Path, cli):
    for fact in ("I'm allergic to peanuts", "I have a cat named Tom", "I live in Lisbon"):
        cli("--home", str(home), "--user", "u", "add", fact)
    listed = json.loads(cli("--home", str(home), "--user", "u", "--json", "list").stdout)
    cli("--home", str(home), "--user", "u", "delete", listed[2]["id"])  # the archive is there
    committed = _contents(home)
    # A delete killed after its two appends (the archive's, the memories' removal line)...
    _killed_python(home, f'kill_at("BEGIN")\nm.delete({listed[0]["id"]!r})\n')
    # ...then the next process killed in its rollback, once the first collection is cut.
    pid = _killed_python(home, """
        cuts = []
        real = os.ftruncate

        def ftruncate(fd, length):
            if os.readlink(f"/proc/self/fd/{fd}").endswith(".jsonl"):
                if cuts:
                    os.kill(os.getpid(), signal.SIGKILL)
                cuts.append(fd)
            return real(fd, length)

        os.ftruncate = ftruncate
        m.list()
    """)
    entry = json.loads(_journal(home))
    assert entry["pid"] == pid and sorted(entry["rolling_back"]) == ["archive", "memories"], entry
    assert _contents(home) != committed, "one of the two cuts is left to do"
    listed = cli("--home", str(home), "--user", "u", "--json", "list")
    assert [m["content"] for m in json.loads(listed.stdout)] == ["I live in Lisbon", "I have a cat named Tom"]
    assert _contents(home) == committed and _journal(home) == ""


def test_a_line_that_is_not_utf8_crosses_as_base64_and_is_quarantined(home: Path):
    (home / "memory").mkdir(parents=True)
    (home / COLLECTIONS["memories"]).write_bytes(b"\xff\xfe bad\n")
    with Memory(home, user="u", auto_gc=False) as m:
        assert m.list() == []
    first = (home / "memory" / "memories.quarantine.jsonl").read_text().splitlines()[0]
    assert json.loads(first)["line_base64"] == "//4gYmFk", first


class _Watching(StaticEmbedder):
    """An embedder that looks, while it embeds, whether the home's lock is free, as another
    process would: a lock of its own on the lock file, not waited for."""

    def __init__(self, home: Path, remote: bool) -> None:
        super().__init__()
        self.home = home
        self.is_remote = remote
        self.seen: list[bool] = []

    def embed(self, texts):  # type: ignore[no-untyped-def]
        fd = os.open(self.home / ".lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self.seen.append(True)
        except BlockingIOError:
            self.seen.append(False)
        finally:
            os.close(fd)  # and with it the lock, if it was taken
        return super().embed(texts)


@pytest.mark.parametrize("remote", [True, False])
def test_the_lock_is_let_go_while_a_remote_embedder_answers_only(home: Path, remote: bool):
    embedder = _Watching(home, remote)
    with Memory(home, user="u", embedder=embedder, auto_gc=False) as m:
        m.add("I'm allergic to peanuts")
        before = _contents(home)
        m.add("I live in Lisbon")
        assert [h.memory.content for h in m.search("Where do I live?").hits][0] == "I live in Lisbon"
        assert embedder.seen and all(free == remote for free in embedder.seen), embedder.seen
        assert _contents(home)["memories"] != before["memories"] and len(m.list()) == 2


def test_a_lock_not_taken_back_after_a_remote_call_refuses_the_calls_writes(home: Path, monkeypatch):
    class Holding(StaticEmbedder):
        """A remote embedder during whose answer another process takes the lock and keeps it."""

        is_remote = True
        holder: int | None = None

        def embed(self, texts):  # type: ignore[no-untyped-def]
            if self.holder is None and armed:
                self.holder = os.open(home / ".lock", os.O_RDWR)
                fcntl.flock(self.holder, fcntl.LOCK_EX)
            return super().embed(texts)

    armed = False
    embedder = Holding()
    monkeypatch.setenv("ASH_LOCK_TIMEOUT_SECS", "0.2")
    with Memory(home, user="u", embedder=embedder, auto_gc=False) as m:
        m.add("I'm allergic to peanuts")
        before = _contents(home)
        # An add's write is refused, a search writes nothing more: both fail as busy, with
        # the lock's error, as in the Rust host.
        for call in (lambda: m.add("I live in Lisbon"), lambda: m.search("peanuts")):
            armed = True
            with pytest.raises(Busy) as e:
                call()
            assert "is busy" in str(e.value) and "not written" not in str(e.value)
            assert embedder.holder is not None
            os.close(embedder.holder)
            embedder.holder, armed = None, False
        assert _contents(home) == before, "nothing was written after the lock was lost"
        assert [x.content for x in m.list()] == ["I'm allergic to peanuts"]


def test_a_trapped_instance_leaves_no_file_open(home: Path):
    with Memory(home, user="u", auto_gc=False) as m:
        m.add("I'm allergic to peanuts")
        assert open_in(home / "memory") == [], "nothing stays open between calls"
        sql = m._state.sql
        execute_each = sql.execute_each

        def failing(statement, width, params):  # type: ignore[no-untyped-def]
            if statement.startswith("INSERT INTO fts"):
                raise RuntimeError("the disk went away")
            return execute_each(statement, width, params)

        sql.execute_each = failing
        for i in range(3):
            with pytest.raises(SandboxError):
                m.add(f"I have {i + 2} cats")
            assert open_in(home / "memory") == [], "the trapped instance's files are closed"
        sql.execute_each = execute_each
        assert [x.content for x in m.list()] == ["I'm allergic to peanuts"]
    assert open_in(home) == []


def test_fs_refuses_paths_outside_the_home(tmp_path: Path):
    home = tmp_path / "home"
    (home / "memory").mkdir(parents=True)
    (tmp_path / "x").write_text("not yours\n")
    fs = HomeFs(home)
    for path in ("../x", "memory/../../x", "/etc/passwd", "..", str(tmp_path / "x")):
        for attempt in (
            lambda: fs.open(path, "read"),
            lambda: fs.open(path, "create"),
            lambda: fs.stat(path),
            lambda: fs.read_whole(path),
            lambda: fs.read_from(path, 0),
            lambda: fs.overwrite(path, b"x"),
            lambda: fs.remove(path),
            lambda: fs.list(path),
            lambda: fs.sync_dir(path),
            lambda: fs.rename("memory/a", path),
            lambda: fs.rename(path, "memory/a"),
        ):
            with pytest.raises(FsError) as e:
                attempt()
            assert e.value.kind == "io" and "not a path inside the home" in e.value.message, path
    assert (tmp_path / "x").read_text() == "not yours\n"
    assert sorted(fs.list("")) == ["memory"]
    for missing in (lambda: fs.open("memory/none", "read"), lambda: fs.stat("memory/none"),
                    lambda: fs.read_whole("memory/none")):
        with pytest.raises(FsError) as e:
            missing()
        assert e.value.kind == "not-found"


def test_fs_opens_files_as_the_rust_host_does(tmp_path: Path):
    fs = HomeFs(tmp_path)
    f = fs.file(fs.open("a.jsonl", "append"))
    f.write_at(0, b"one\n")
    f.write_at(0, b"two\n")  # an append goes to the end, whatever the offset
    assert f.read_at(0, None) == b"one\ntwo\n" and f.read_at(4, 2) == b"tw" and f.read_at(9, 4) == b""
    assert oct((tmp_path / "a.jsonl").stat().st_mode & 0o777) == "0o600", "owner-only"
    u = fs.file(fs.open("a.jsonl", "update"))
    u.write_at(0, b"ONE")
    assert (tmp_path / "a.jsonl").read_bytes() == b"ONE\ntwo\n", "update keeps the bytes"
    u.set_len(4)
    assert f.stat()[0] == 4 == fs.stat("a.jsonl")[0]
    c = fs.file(fs.open("a.jsonl", "create"))
    assert (tmp_path / "a.jsonl").read_bytes() == b"", "create empties"
    c.write_at(2, b"x")
    assert (tmp_path / "a.jsonl").read_bytes() == b"\0\0x"
    with pytest.raises(FsError) as e:
        fs.open("b.jsonl", "write")
    assert e.value.kind == "not-found" and "b.jsonl" in e.value.message
    assert fs.overwrite("journal", b"a longer entry") is True, "made"
    assert fs.overwrite("journal", b"\xff") is False, "already there"
    assert (tmp_path / "journal").read_bytes() == b"\xff"
    assert oct((tmp_path / "journal").stat().st_mode & 0o777) == "0o600", "owner-only"
    assert fs.read_from("journal", 0)[1] == b"\xff" and fs.read_from("journal", 0)[0][0] == 1
    assert fs.read_from("journal", 5)[1] == b"", "past its end"
    fs.close_all()
    with pytest.raises(FsError):
        f.read_at(0, None)
