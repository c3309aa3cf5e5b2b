"""The transaction journal (`memory/.journal`): makes the writes of one exported call all or
nothing, in the Rust host's exact format (journal.rs), so that a call left unfinished by one
host is rolled back by another.

Before a call's first write the journal records, durably, where every collection stands:
`{"pid":N,"before":[["memories",end,generation],...]}`; a replace adds
`"replace":["memories","/path/to/tmp"]` before its rename, so that recovery can finish it.
Success empties the file; failure (or the next call, after a crash) cuts appended bytes off.
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


@dataclass
class Pending:
    """What an unfinished transaction left to do."""

    #: (collection, end, generation) before the call's writes.
    states: list[tuple[str, int, int]] = field(default_factory=list)
    #: A committed replace whose rename may not have happened: (collection, temp file).
    replace: tuple[str, Path] | None = None


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

    def begin(self, states: list[tuple[str, int, int]], replace: tuple[str, Path] | None = None) -> None:
        """Records the states the call's writes would roll back to (and a rename to finish)."""
        entry: dict[str, object] = {"pid": os.getpid(), "before": [list(s) for s in states]}
        if replace is not None:
            entry["replace"] = [replace[0], str(replace[1])]
        text = json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n"
        fd = self._file()
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, text.encode("utf-8"), 0)
            os.fdatasync(fd)
        except OSError as e:
            raise io_error(self.path, e) from e
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
            for name, end, generation in entry["before"]:
                if name in COLLECTIONS:
                    states.append((str(name), int(end), int(generation)))
            replace = None
            r = entry.get("replace")
            if r is not None:
                if r[0] in COLLECTIONS:
                    replace = (str(r[0]), Path(r[1]))
            int(entry["pid"])
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            return Pending()
        return Pending(states, replace)

    def close(self) -> None:
        """Closes the journal's descriptor."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _sync_dir(d: Path) -> None:
    fd = os.open(d, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
