"""The `$ASH_HOME` layout and the lock that serializes writers across processes, as the
Rust host's `home.rs` has them: folders 0700, files 0600, an flock on `$HOME/.lock` with
the holder's pid written into it, and a bounded wait (`ASH_LOCK_TIMEOUT_SECS`, default 30)
that gives up with a `busy` error naming the holder."""

from __future__ import annotations

import fcntl
import math
import os
import time
from pathlib import Path

from .errors import Busy, IoError

#: Seconds a call waits for another process's lock, unless ASH_LOCK_TIMEOUT_SECS says otherwise.
DEFAULT_LOCK_TIMEOUT = 30.0

#: Files of the home are personal: readable and writable by their owner only.
FILE_MODE = 0o600
DIR_MODE = 0o700


def default_root() -> Path:
    """`$ASH_HOME`, else `~/.ash`."""
    env = os.environ.get("ASH_HOME")
    if env:
        return Path(env)
    return Path(os.environ.get("HOME", ".")) / ".ash"


class Home:
    """Where everything of one memory lives."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        for d in (self.root, self.root / "memory", self.root / "data"):
            try:
                _mkdirs(d)
            except OSError as e:
                raise IoError(f"{d}: {e.strerror or e}") from e

    @property
    def config(self) -> Path:
        return Home.config_path(self.root)

    @staticmethod
    def config_path(root: Path) -> Path:
        """The config.toml of the home at `root`, without making the home's folders."""
        return root / "config.toml"

    @property
    def index(self) -> Path:
        return self.root / "data" / "memory.db"

    def lock(self) -> "HomeLock":
        """Takes the home's exclusive lock, waiting at most ASH_LOCK_TIMEOUT_SECS."""
        timeout = DEFAULT_LOCK_TIMEOUT
        raw = os.environ.get("ASH_LOCK_TIMEOUT_SECS")
        if raw is not None:
            try:
                value = float(raw.strip())
                if math.isfinite(value) and value >= 0:
                    timeout = value
            except ValueError:
                pass
        return self.lock_within(timeout)

    def lock_within(self, timeout: float) -> "HomeLock":
        """Takes the lock (an OS flock, released even if the holder crashes)."""
        path = self.root / ".lock"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        except OSError as e:
            raise IoError(f"{path}: {e.strerror or e}") from e
        start = time.monotonic()
        pause = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                pass
            except OSError as e:
                os.close(fd)
                raise IoError(f"{path}: {e.strerror or e}") from e
            if time.monotonic() - start >= timeout:
                try:
                    # The pid's line; the Rust host records where its last write left
                    # the home after it.
                    holder = path.read_text(errors="replace").partition("\n")[0].strip()
                except OSError:
                    holder = ""
                os.close(fd)
                who = f" (pid {holder})" if holder else ""
                raise Busy(
                    f"{self.root} is busy: another process{who} has held its lock for over "
                    f"{timeout:.1f} s; try again"
                )
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        # Who holds it, for the message another process prints while it waits.
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        except OSError:
            pass
        return HomeLock(fd)


class HomeLock:
    """Holds the home's exclusive lock until released (or garbage collected)."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def release(self) -> None:
        """Releases the lock; closing the descriptor drops the flock."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        self.release()


def _mkdirs(d: Path) -> None:
    """Creates a folder and its parents owner-only (an existing one keeps its mode)."""
    if d.is_dir():
        return
    if not d.parent.is_dir():
        _mkdirs(d.parent)
    try:
        os.mkdir(d, DIR_MODE)
    except FileExistsError:
        if not d.is_dir():
            raise
