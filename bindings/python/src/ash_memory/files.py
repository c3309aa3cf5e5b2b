"""The `files` import: whole-line appends, atomic replaces and quarantine on the JSONL
collections, ported from the Rust host's `files.rs` so that both hosts agree on every
byte and every generation number.

A collection's generation mixes a random token (in `.<stem>.generation` beside the file,
renewed at every replace and rollback), the file's inode and its device with splitmix64's
finalizer. Callers hold the home lock; the writes of one exported call form a transaction
(see `journal.py`).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from .clock import rfc3339
from .home import FILE_MODE, Home
from .journal import Before, FileIoError, InvalidLine, Journal, _sync_dir, _write_all, file_name, io_error

log = logging.getLogger("ash_memory")

COLLECTIONS = ("memories", "people", "archive", "sessions", "messages")
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix(parts: list[int]) -> int:
    """Mixes the parts of a generation into one u64 (splitmix64's finalizer, folded)."""
    h = _GOLDEN
    for p in parts:
        z = ((h ^ p) + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        h = z ^ (z >> 31)
    return h


@dataclass(frozen=True)
class FileState:
    """Where a collection stands: its incarnation and the byte offset past its last line."""

    generation: int
    end: int


@dataclass(frozen=True)
class Chunk:
    """Bytes read from a collection."""

    data: str
    end: int
    generation: int


class FileStore:
    """The JSONL files of one home."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self.journal = Journal(home.journal)

    def path(self, c: str) -> Path:
        """The file behind a collection."""
        return {"memories": self.home.memories, "people": self.home.people, "archive": self.home.archive,
                "sessions": self.home.sessions, "messages": self.home.messages}[c]

    def quarantine_path(self, c: str) -> Path:
        """Where a collection's unparseable lines are kept."""
        return self._sibling(c, ".quarantine.jsonl", False)

    def _token_path(self, c: str) -> Path:
        return self._sibling(c, ".generation", True)

    def _sibling(self, c: str, suffix: str, hidden: bool) -> Path:
        path = self.path(c)
        stem = path.stem or "collection"
        return path.with_name(f"{'.' if hidden else ''}{stem}{suffix}")

    def _token(self, c: str) -> int:
        """The random token of the collection's incarnation (0 before the first replace)."""
        try:
            value = int(self._token_path(c).read_text().strip())
            return value if 0 <= value <= _MASK else 0
        except (OSError, ValueError):
            return 0

    def new_token(self, c: str) -> None:
        """Gives the collection a new random token, written and flushed before the change it
        announces: a crash in between only makes readers read again."""
        path = self._token_path(c)
        tmp = path.with_name(f"{path.stem}.tmp-{os.getpid()}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
            try:
                os.write(fd, str(secrets.randbits(64)).encode())
                os.fdatasync(fd)
            finally:
                os.close(fd)
            os.rename(tmp, path)
        except OSError as e:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise io_error(path, e) from e

    def _generation(self, c: str, st: os.stat_result) -> int:
        """Token, inode and device: the token changes at every replace and rollback (inode
        numbers come back), the inode catches a file deleted and made anew by hand."""
        return mix([self._token(c), st.st_ino, st.st_dev])

    def state(self, c: str) -> FileState:
        """Where the collection stands now; a missing file is empty, with a generation of its own."""
        path = self.path(c)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return FileState(mix([self._token(c), 0, 0]), 0)
        except OSError as e:
            raise io_error(path, e) from e
        return FileState(self._generation(c, st), st.st_size)

    def states(self) -> list[Before]:
        """Where every collection stands, with its token, for the journal."""
        out = []
        for c in COLLECTIONS:
            s = self.state(c)
            out.append(Before(c, s.end, s.generation, self._token(c)))
        return out

    def read(self, c: str, start: int, generation: int | None) -> Chunk:
        """Reads from `start` to the end, or from 0 when the generation changed."""
        path = self.path(c)
        try:
            f = open(path, "rb")
        except FileNotFoundError:
            return Chunk("", 0, self.state(c).generation)
        except OSError as e:
            raise io_error(path, e) from e
        with f:
            try:
                st = os.fstat(f.fileno())
                gen = self._generation(c, st)
                offset = start if generation == gen and start <= st.st_size else 0
                f.seek(offset)
                raw = f.read()
            except OSError as e:
                raise io_error(path, e) from e
        end = offset + len(raw)
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError:
            data = self._set_aside_invalid_utf8(c, raw)
        return Chunk(data, end, gen)

    def _set_aside_invalid_utf8(self, c: str, raw: bytes) -> str:
        """A WIT string must be UTF-8: lines that are not go to the quarantine file (base64)
        here, and the guest gets a placeholder line it quarantines and drops as usual."""
        records = []
        parts = []
        for line in raw.split(b"\n"):
            try:
                parts.append(line.decode("utf-8"))
            except UnicodeDecodeError:
                records.append(json.dumps({
                    "line_base64": base64.b64encode(line).decode(),
                    "quarantined_at": rfc3339(None),
                    "reason": "not valid UTF-8",
                }, separators=(",", ":"), ensure_ascii=False))
                parts.append("\ufffd a line that was not valid UTF-8; its bytes are in the quarantine file")
        self._append_raw(self.quarantine_path(c), records)
        log.warning("%s: %d line(s) were not UTF-8 and were quarantined", self.path(c), len(records))
        return "\n".join(parts)

    def append(self, c: str, lines: list[str]) -> FileState:
        """Appends whole lines in one write, flushed; ends an unterminated last line first."""
        check_lines(lines)
        if lines:
            self._begin()
            path = self.path(c)
            try:
                fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, FILE_MODE)
                try:
                    size = os.fstat(fd).st_size
                    buf = ""
                    if size > 0 and os.pread(fd, 1, size - 1) != b"\n":
                        buf = "\n"
                    buf += "".join(line + "\n" for line in lines)
                    _write_all(fd, buf.encode("utf-8"))
                    os.fdatasync(fd)
                finally:
                    os.close(fd)
            except OSError as e:
                raise io_error(path, e) from e
        return self.state(c)

    def _append_raw(self, path: Path, lines: list[str]) -> None:
        """Appends lines to a file that is not a collection (quarantine), flushed."""
        if not lines:
            return
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
            try:
                _write_all(fd, "".join(line + "\n" for line in lines).encode("utf-8"))
                os.fdatasync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            raise io_error(path, e) from e

    def replace(self, c: str, lines: list[str]) -> FileState:
        """Replaces a collection atomically: temp file, fsync, journal, new token, rename,
        fsync of the folder. A commit point of the call's transaction."""
        check_lines(lines)
        self._begin()
        path = self.path(c)
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
        try:
            self._write_replacement(c, lines, tmp)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        # A new baseline, so that appends after the rewrite still roll back.
        self.journal.record(self.states())
        return self.state(c)

    def _write_replacement(self, c: str, lines: list[str], tmp: Path) -> None:
        path = self.path(c)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
            try:
                _write_all(fd, "".join(line + "\n" for line in lines).encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            raise io_error(tmp, e) from e
        # The commit point, recorded before the rename: a crash from here on finishes it.
        self.journal.record(self.states(), (c, tmp))
        self.new_token(c)
        try:
            os.rename(tmp, path)
        except OSError as e:
            raise io_error(path, e) from e
        try:
            _sync_dir(path.parent)
        except OSError as e:
            raise io_error(path.parent, e) from e

    def quarantine(self, c: str, lines: list[str], reason: str) -> None:
        """Keeps unparseable lines with the reason and time. Never rolled back: an extra
        copy is harmless, a lost one is not."""
        now = rfc3339(None)
        records = [
            json.dumps({"line": line, "quarantined_at": now, "reason": reason},
                       separators=(",", ":"), ensure_ascii=False)
            for line in lines
        ]
        path = self.quarantine_path(c)
        self._append_raw(path, records)
        log.warning("%d line(s) quarantined in %s", len(lines), path)

    def _begin(self) -> None:
        """Starts the call's transaction at its first write."""
        if not self.journal.active:
            self.journal.begin(self.states())

    def commit(self) -> None:
        """Ends the call's transaction: its writes stand."""
        self.journal.commit()

    def roll_back(self) -> None:
        """Undoes the call's writes since its last commit point: each collection appended to
        is cut back to where it stood. Also run at the start of every call, for a call that
        died with its transaction open. Recovery may itself be killed at any point, so every
        step can be done again (as the Rust host's files/recovery.rs):

        1. A committed replace whose rename did not happen is finished (a new token, then
           the rename: a kill between the two does both again).
        2. The collections to cut are recorded in the journal (atomically) before the first
           cut: a recovery killed after cutting one of them still knows the others.
        3. Each is cut back to its recorded end; a file the call created goes away. A cut
           only shortens, so doing it twice does nothing more.
        4. Each cut collection gets a new token, after its cut, so that readers that saw the
           undone bytes read again. A collection whose token already changed was cut.
        5. The journal is emptied.

        A file is recognised by its token, which a copied home (`cp -a`, a restore) keeps,
        and recovery touches only the home's own files, whatever a journal names."""
        pending = self.journal.pending()
        if pending is None:
            return
        if pending.replace is not None:
            self._finish_replace(*pending.replace)
        self._sweep_temporary_files()
        cut = list(pending.rolling_back)
        for b in pending.states:
            if self._appended_to(b) and b.collection not in cut:
                cut.append(b.collection)
        if not cut:
            self.journal.clear()
            return
        if cut != pending.rolling_back:
            self.journal.record(pending.states, None, cut)
        planned = [b for b in pending.states if b.collection in cut]
        for b in planned:
            self.cut_back(b)
        for b in planned:
            if self._unchanged(b):
                self.new_token(b.collection)
        self.journal.clear()

    def _unchanged(self, b: Before) -> bool:
        """Whether the collection is the file the journal saw: the same token (a journal of
        an older version has none, and compares generations)."""
        if b.token is not None:
            return self._token(b.collection) == b.token
        if b.end == 0:
            return True
        try:
            return self.state(b.collection).generation == b.generation
        except FileIoError:
            return False

    def _appended_to(self, b: Before) -> bool:
        """Whether the call appended to the collection, which is still the file it saw."""
        return self._unchanged(b) and self.state(b.collection).end > b.end

    def cut_back(self, b: Before) -> None:
        """Cuts the collection back to where it stood, or removes it if the call made it."""
        if not self._appended_to(b):
            return
        c = b.collection
        path = self.path(c)
        now = self.state(c)
        token = b.token if b.token is not None else self._token(c)
        existed = b.generation != mix([token, 0, 0])
        if b.end == 0 and not existed:
            try:
                os.unlink(path)
            except OSError as e:
                raise io_error(path, e) from e
            log.warning("%s: removed, made by an unfinished write", path)
            return
        try:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.ftruncate(fd, b.end)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            raise io_error(path, e) from e
        log.warning("%s: rolled back %d bytes of an unfinished write", path, now.end - b.end)

    def _finish_replace(self, c: str, named: str) -> None:
        """Finishes a committed replace whose rename a crash interrupted. Only a file of this
        home's own temporary name beside the collection is taken, whatever folder the
        journal names."""
        path = self.path(c)
        tmp = self._own_temporary_file(c, named)
        if tmp is None:
            log.warning("%s: the journal names %s as its rewrite, which is not this home's; ignored",
                        path, named)
            return
        if not tmp.exists():
            return
        self.new_token(c)
        try:
            os.rename(tmp, path)
            _sync_dir(path.parent)
        except OSError as e:
            raise io_error(path, e) from e
        log.warning("%s: finished a rewrite that was interrupted", path)

    def _own_temporary_file(self, c: str, named: str) -> Path | None:
        """The temporary file a journal names for a collection's rewrite, if the name is one
        this home gives them (`.memories.jsonl.tmp-PID`), looked for beside the collection,
        so that a home moved or copied finishes its own rewrite."""
        name = file_name(named)
        path = self.path(c)
        prefix = f".{path.name}.tmp-"
        if name is None or not name.startswith(prefix) or not re.fullmatch(r"[0-9]+", name[len(prefix):]):
            return None
        return path.with_name(name)

    def _sweep_temporary_files(self) -> None:
        """Removes temporary files a replace, a token or a journal rewrite left when its
        process died. Only run while the lock is held and a transaction is being rolled back."""
        dirs: list[Path] = []
        for c in COLLECTIONS:
            if self.path(c).parent not in dirs:
                dirs.append(self.path(c).parent)
        prefixes = [".journal.tmp-"]
        for c in COLLECTIONS:
            p = self.path(c)
            prefixes += [f".{p.name}.tmp-", f".{p.stem}.tmp-"]
        for d in dirs:
            try:
                names = os.listdir(d)
            except OSError:
                continue
            for name in names:
                if any(name.startswith(p) for p in prefixes):
                    try:
                        os.unlink(d / name)
                        log.info("removed %s, left by an interrupted rewrite", name)
                    except OSError:
                        pass

    def close(self) -> None:
        """Closes the journal's descriptor."""
        self.journal.close()


def check_lines(lines: list[str]) -> None:
    """Refuses empty lines and lines that span several lines; nothing is written then."""
    for i, line in enumerate(lines):
        if not line.strip() or "\n" in line or "\r" in line:
            raise InvalidLine(f"line {i + 1} is empty or spans several lines")

