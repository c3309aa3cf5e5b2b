"""The transaction journal (`memory/.journal`): makes the writes of one exported call all or
nothing, in the Rust host's exact format (host/src/files/journal.rs), so that a call left unfinished by one
host is rolled back by another.

Before a call's first write the journal records, durably, where every collection stands and
its token: `{"pid":N,"before":[["memories",end,generation],...],"tokens":[["memories",t],...]}`.
A replace adds `"replace":["memories",".memories.jsonl.tmp-PID"]` (the temporary file's name:
it lives beside its collection) before its rename, so that recovery can finish it; a rollback
adds `"rolling_back":["memories",...]`, the collections it cuts, before its first cut.
Success empties the file; failure (or the next call, after a crash) cuts appended bytes off
(`files.py`, `roll_back`). Every rewrite of an entry after a call's first write is atomic.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

COLLECTIONS = ("memories", "people", "archive", "sessions", "messages")


class FileIoError(Exception):
    """A file operation failed (the `files` interface's `io` error)."""


class InvalidLine(Exception):
    """A line handed to append or replace was empty or held a newline."""


@dataclass(frozen=True)
class Before:
    """Where a collection stood when a transaction began (or reached a commit point)."""

    collection: str
    end: int
    generation: int
    #: Its token then; None in a journal of an older version.
    token: int | None


@dataclass
class Pending:
    """What an unfinished transaction left to do."""

    #: Where each collection stood: appends beyond it are cut off.
    states: list[Before] = field(default_factory=list)
    #: A committed replace whose rename may not have happened: (collection, the temporary
    #: file as the journal names it, not yet checked).
    replace: tuple[str, str] | None = None
    #: The collections a rollback killed midway was cutting back.
    rolling_back: list[str] = field(default_factory=list)


def io_error(path: Path, e: OSError) -> FileIoError:
    """An OS error in the Rust host's words: `path: reason`."""
    reason = e.strerror or str(e)
    if e.errno is not None:
        reason = f"{reason} (os error {e.errno})"
    return FileIoError(f"{path}: {reason}")


class Journal:
    """The journal file of one home."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self.active = False

    def _file(self) -> int:
        if self._fd is None:
            existed = self.path.exists()
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                if not existed:
                    _sync_dir(self.path.parent)
            except OSError as e:
                raise io_error(self.path, e) from e
        return self._fd

    def begin(self, states: list[Before]) -> None:
        """Records, at a call's first write, the states its writes would roll back to,
        flushed. Written in place: a torn entry does not parse, and nothing has been written
        yet that would need undoing."""
        text = _entry_text(states, None, [])
        fd = self._file()
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, text.encode("utf-8"), 0)
            os.fdatasync(fd)
        except OSError as e:
            raise io_error(self.path, e) from e
        self.active = True

    def record(self, states: list[Before], replace: tuple[str, str | os.PathLike[str]] | None = None,
               rolling_back: list[str] | tuple[str, ...] = ()) -> None:
        """Replaces the entry of an open transaction (a commit point, a replace to finish, a
        rollback's plan) atomically: a new file, flushed, renamed over the journal. A crash
        leaves the old entry or the new one, never a torn one that would undo nothing."""
        text = _entry_text(states, replace, list(rolling_back))
        tmp = self.path.with_name(f"{self.path.name}.tmp-{os.getpid()}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                _write_all(fd, text.encode("utf-8"))
                os.fdatasync(fd)
            finally:
                os.close(fd)
            os.rename(tmp, self.path)
            _sync_dir(self.path.parent)
        except OSError as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise io_error(self.path, e) from e
        finally:
            # The descriptor held may be of the file just replaced.
            self.close()
        self.active = True

    def commit(self) -> None:
        """The call succeeded: empty the journal."""
        if self.active:
            self.clear()

    def clear(self) -> None:
        """Empties the journal, flushed."""
        fd = self._file()
        try:
            os.ftruncate(fd, 0)
            os.fdatasync(fd)
        except OSError as e:
            raise io_error(self.path, e) from e
        self.active = False

    def pending(self) -> Pending | None:
        """The transaction left open (by this process or a dead one), if any. A journal that
        does not parse was torn while being written, before anything changed."""
        if not self.active and not self.path.exists():
            return None
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        if not text.strip():
            return None
        try:
            entry = json.loads(text.strip())
            states = []
            tokens: dict[str, int] = {}
            for name, token in entry.get("tokens", []):
                if not isinstance(name, str) or not _is_u64(token):
                    raise ValueError("not a token")
                tokens.setdefault(name, token)
            for name, end, generation in entry["before"]:
                if name in COLLECTIONS:
                    states.append(Before(str(name), int(end), int(generation), tokens.get(name)))
            replace = None
            r = entry.get("replace")
            if r is not None:
                name, tmp = r
                if not isinstance(tmp, str):
                    raise ValueError("not a file name")
                if name in COLLECTIONS:
                    replace = (str(name), tmp)
            rolling_back = []
            for name in entry.get("rolling_back", []):
                if not isinstance(name, str):
                    raise ValueError("not a collection")
                if name in COLLECTIONS:
                    rolling_back.append(name)
            int(entry["pid"])
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            return Pending()
        return Pending(states, replace, rolling_back)

    def close(self) -> None:
        """Closes the journal's descriptor."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _is_u64(v: object) -> bool:
    return type(v) is int and 0 <= v < 1 << 64


def file_name(named: str | os.PathLike[str]) -> str | None:
    """The last component of a path, as Rust's `Path::file_name` has it: trailing slashes
    and `.` components do not count; None for `..`, `/` or an empty path."""
    parts = [p for p in os.fspath(named).split("/") if p not in ("", ".")]
    return None if not parts or parts[-1] == ".." else parts[-1]


def _entry_text(
    states: list[Before], replace: tuple[str, str | os.PathLike[str]] | None, rolling_back: list[str]
) -> str:
    """The journal entry, one line, as serde writes the Rust host's `Entry`: `tokens` and
    `rolling_back` only when not empty, `replace` only when there is one."""
    entry: dict[str, object] = {
        "pid": os.getpid(),
        "before": [[b.collection, b.end, b.generation] for b in states],
    }
    tokens = [[b.collection, b.token] for b in states if b.token is not None]
    if tokens:
        entry["tokens"] = tokens
    if replace is not None:
        # The name alone: the file lives beside its collection, wherever the home is.
        entry["replace"] = [replace[0], file_name(replace[1]) or ""]
    if rolling_back:
        entry["rolling_back"] = rolling_back
    return json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _sync_dir(d: Path) -> None:
    fd = os.open(d, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
