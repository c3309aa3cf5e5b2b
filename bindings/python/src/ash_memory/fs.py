"""The `ash:memory/fs` import (wit/fs.wit): the file primitives of one home. The files
component compiled into `ash_memory.wasm` (the Rust host's collections and journal) builds
the JSONL collections on these, so this host keeps no collection logic of its own; it opens
files as the Rust host's `files/src/native.rs` does, so that both leave the same files.

Paths are relative to the home, with `/` between their parts (`""` is the home itself); an
absolute one, or one with a `..` part, is refused. Files are created owner-only (0600).
"""

from __future__ import annotations

import os
import secrets

from .home import FILE_MODE

#: The flags of each `open-mode`, as `NativeFs::open` opens them.
MODES = {
    "read": os.O_RDONLY,
    "write": os.O_WRONLY,
    "append": os.O_RDWR | os.O_APPEND | os.O_CREAT,
    "update": os.O_RDWR | os.O_CREAT,
    "create": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
}

_CHUNK = 64 * 1024


class FsError(Exception):
    """An `fs` error: `kind` is its WIT case (`not-found` or `io`), the message names the path."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def _failure(path: str, e: OSError) -> FsError:
    """An OS error in the Rust host's words (`path: reason (os error N)`), `not-found` when
    the file or folder is missing."""
    reason = e.strerror or str(e)
    if e.errno is not None:
        reason = f"{reason} (os error {e.errno})"
    return FsError("not-found" if isinstance(e, FileNotFoundError) else "io", f"{path}: {reason}")


def metadata(st: os.stat_result) -> tuple[int, int, int]:
    """A file's length, inode and device: what identifies it to the collections."""
    return st.st_size, st.st_ino, st.st_dev


class OpenFile:
    """A file the component holds open, by its descriptor."""

    __slots__ = ("fd", "path", "appends")

    def __init__(self, fd: int, path: str, appends: bool) -> None:
        self.fd: int | None = fd
        self.path = path
        #: Opened to append: every write goes to the end (O_APPEND), whatever the offset.
        self.appends = appends

    def _fd(self) -> int:
        if self.fd is None:
            raise FsError("io", f"{self.path}: closed")
        return self.fd

    def stat(self) -> tuple[int, int, int]:
        """This open file's length and identity (not whatever its path names now)."""
        try:
            return metadata(os.fstat(self._fd()))
        except OSError as e:
            raise _failure(self.path, e) from None

    def read_at(self, offset: int, length: int | None) -> bytes:
        """`length` bytes from `offset` (fewer at the end), or all to the end when None:
        what was appended after the length was taken as well."""
        fd = self._fd()
        try:
            if length is not None:
                parts: list[bytes] = []
                got = 0
                while got < length:
                    part = os.pread(fd, length - got, offset + got)
                    if not part:
                        break
                    parts.append(part)
                    got += len(part)
                return parts[0] if len(parts) == 1 else b"".join(parts)
            want = max(os.fstat(fd).st_size - offset, 0) + _CHUNK
            parts = []
            at = offset
            while True:
                part = os.pread(fd, want, at)
                if not part:
                    break
                parts.append(part)
                at += len(part)
                want = _CHUNK
            return parts[0] if len(parts) == 1 else b"".join(parts)
        except OSError as e:
            raise _failure(self.path, e) from None

    def write_at(self, offset: int, data: bytes) -> None:
        """Writes all of `data` at `offset`, or at the end for a file opened to append."""
        fd = self._fd()
        view = memoryview(data)
        try:
            while view:
                n = os.write(fd, view) if self.appends else os.pwrite(fd, view, offset)
                view = view[n:]
                offset += n
        except OSError as e:
            raise _failure(self.path, e) from None

    def set_len(self, length: int) -> None:
        """Cuts or extends the file to `length` bytes."""
        try:
            os.ftruncate(self._fd(), length)
        except OSError as e:
            raise _failure(self.path, e) from None

    def sync_data(self) -> None:
        """Flushes its bytes to the disk (fdatasync)."""
        try:
            os.fdatasync(self._fd())
        except OSError as e:
            raise _failure(self.path, e) from None

    def sync_all(self) -> None:
        """Flushes its bytes and metadata to the disk (fsync)."""
        try:
            os.fsync(self._fd())
        except OSError as e:
            raise _failure(self.path, e) from None

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            try:
                os.close(fd)
            except OSError:
                pass


class HomeFs:
    """The `fs` interface over the folder of one home, and the table of the files its
    component instance holds open, by the `rep` its `file` handles carry. The component
    closes a file by dropping its handle; a trapped or closed instance drops none, so
    `close_all` closes what is left."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = str(root)
        self._files: dict[int, OpenFile] = {}
        self._next = 1

    def full(self, path: str) -> str:
        """The full path of a home path; an absolute one or one that climbs out is refused
        (as `io`: the component names only its own files, so this is a fault, not a miss).
        A backslash or NUL is refused too, as the JavaScript host refuses them."""
        if path.startswith("/") or "\\" in path or "\0" in path or ".." in path.split("/"):
            raise FsError("io", f"{path}: not a path inside the home")
        return self.root if path == "" else f"{self.root}/{path}"

    # ---- open files ----

    def open(self, path: str, how: str) -> int:
        """Opens a file as `how` says (an `open-mode`); the rep of its handle."""
        full = self.full(path)
        try:
            fd = os.open(full, MODES[how], FILE_MODE)
        except OSError as e:
            raise _failure(full, e) from None
        rep = self._next
        self._next += 1
        self._files[rep] = OpenFile(fd, full, how == "append")
        return rep

    def file(self, rep: int) -> OpenFile:
        """The open file behind a handle."""
        f = self._files.get(rep)
        if f is None:
            raise FsError("io", f"no open file {rep}")
        return f

    def drop(self, rep: int) -> None:
        """Closes a file whose handle the component dropped."""
        f = self._files.pop(rep, None)
        if f is not None:
            f.close()

    def close_all(self) -> None:
        """Closes every file the instance left open (it trapped, or the Memory is closed)."""
        files, self._files = self._files, {}
        for f in files.values():
            f.close()

    # ---- paths ----

    def stat(self, path: str) -> tuple[int, int, int]:
        """A file's length and identity; `not-found` when it is missing."""
        full = self.full(path)
        try:
            return metadata(os.stat(full))
        except OSError as e:
            raise _failure(full, e) from None

    def read_from(self, path: str, offset: int) -> tuple[tuple[int, int, int], bytes]:
        """A file's length and identity and its bytes from `offset` (none past its end),
        through one descriptor; `not-found` when it is missing."""
        full = self.full(path)
        try:
            fd = os.open(full, os.O_RDONLY)
        except OSError as e:
            raise _failure(full, e) from None
        f = OpenFile(fd, full, False)
        try:
            meta = f.stat()
            return meta, (f.read_at(offset, None) if offset <= meta[0] else b"")
        finally:
            f.close()

    def overwrite(self, path: str, data: bytes) -> bool:
        """Replaces a small file's bytes in place, flushed; True when it was made."""
        full = self.full(path)
        try:
            try:
                fd, made = os.open(full, os.O_RDWR | os.O_CREAT | os.O_EXCL, FILE_MODE), True
            except FileExistsError:
                fd, made = os.open(full, os.O_RDWR), False
            try:
                # Bytes of the file's own length go over it uncut: the flush then has no
                # new length to record (the journal keeps one length).
                if os.fstat(fd).st_size != len(data):
                    os.ftruncate(fd, 0)
                view = memoryview(data)
                while view:
                    view = view[os.pwrite(fd, view, len(data) - len(view)):]
                os.fdatasync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            raise _failure(full, e) from None
        return made

    def read_whole(self, path: str) -> bytes:
        """A whole small file's bytes; `not-found` when it is missing."""
        full = self.full(path)
        try:
            with open(full, "rb") as f:
                return f.read()
        except OSError as e:
            raise _failure(full, e) from None

    def rename(self, src: str, dst: str) -> None:
        """Renames a file over another, atomically."""
        to = self.full(dst)
        try:
            os.rename(self.full(src), to)
        except OSError as e:
            raise _failure(to, e) from None

    def remove(self, path: str) -> None:
        full = self.full(path)
        try:
            os.unlink(full)
        except OSError as e:
            raise _failure(full, e) from None

    def list(self, path: str) -> list[str]:
        """The names in a folder; a name that is not UTF-8 is left out, as Rust's `read_dir`
        callers leave it out."""
        full = self.full(path)
        try:
            names = os.listdir(full)
        except OSError as e:
            raise _failure(full, e) from None
        return [n for n in names if _is_utf8(n)]

    def sync_dir(self, path: str) -> None:
        """Flushes a folder's entries, so that a rename or a new file in it survives a power cut."""
        full = self.full(path)
        try:
            fd = os.open(full, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            raise _failure(full, e) from None

    @staticmethod
    def random() -> int:
        """A random u64: a collection's generation token."""
        return secrets.randbits(64)

    @staticmethod
    def process_id() -> int:
        return os.getpid()


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:  # os.listdir's surrogateescape of bytes that are not UTF-8
        return False

