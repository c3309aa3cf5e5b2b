"""The `sql` import (wit/sql.wit): the home's index file on SQLite with sqlite-vec and FTS5.

The index itself is the Rust host's, compiled into the component (`index/wasm`); this runs
the statements it is given and nothing more.
"""

from __future__ import annotations

import base64
import os
import struct
from pathlib import Path
from typing import Any, Sequence

# sqlean.py is the standard library's sqlite3 module built with its own SQLite, with FTS5 and
# extension loading on: many Pythons' own sqlite3 cannot load sqlite-vec (pyenv's and
# python.org's macOS builds among them), and this one behaves the same everywhere.
import sqlean as sqlite3  # type: ignore[import-untyped]

from .home import FILE_MODE

# SQLite's primary result codes for a file that is not a database, or is corrupt.
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26

#: The statements one connection keeps prepared (the index runs about fifty).
_PREPARED_STATEMENTS = 128


class SqlUnusable(Exception):
    """The file cannot be opened, is not a database or is corrupt."""


class SqlFailed(Exception):
    """Any other SQLite failure."""


def _error(e: sqlite3.Error) -> Exception:
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in (_SQLITE_NOTADB, _SQLITE_CORRUPT):
        return SqlUnusable(str(e))
    return SqlFailed(str(e))


def _load_vec(conn: sqlite3.Connection) -> None:
    import sqlite_vec  # type: ignore[import-untyped]  # the package ships no type information

    conn.enable_load_extension(True)
    try:
        sqlite_vec.load(conn)
    finally:
        conn.enable_load_extension(False)


_I64 = struct.Struct("<Bq")
_I64_BODY = struct.Struct("<q")
_F64_BODY = struct.Struct("<d")
_LEN_BODY = struct.Struct("<I")
_F64 = struct.Struct("<Bd")
_LEN = struct.Struct("<BI")


def encode_rows(rows: Sequence[Sequence[Any]]) -> str:
    """Rows as `encoded-rows` (wit/sql.wit): each column a tag byte and its bytes, in base64."""
    out: list[bytes] = []
    for row in rows:
        for c in row:
            if c is None:
                out.append(b"\0")
            elif isinstance(c, int):
                out.append(_I64.pack(1, c))
            elif isinstance(c, float):
                out.append(_F64.pack(2, c))
            elif isinstance(c, str):
                b = c.encode("utf-8")
                out.append(_LEN.pack(3, len(b)))
                out.append(b)
            else:
                b = bytes(c)
                out.append(_LEN.pack(4, len(b)))
                out.append(b)
    return base64.b64encode(b"".join(out)).decode("ascii")


def decode_values(encoded: str) -> list[Any]:
    """`encoded-values` (wit/sql.wit) as the Python values sqlite3 binds."""
    data = base64.b64decode(encoded)
    out: list[Any] = []
    at = 0
    try:
        while at < len(data):
            tag = data[at]
            at += 1
            if tag == 0:
                out.append(None)
            elif tag == 1:
                out.append(_I64_BODY.unpack_from(data, at)[0])
                at += 8
            elif tag == 2:
                out.append(_F64_BODY.unpack_from(data, at)[0])
                at += 8
            elif tag in (3, 4):
                (n,) = _LEN_BODY.unpack_from(data, at)
                at += 4
                if at + n > len(data):
                    raise SqlFailed("malformed parameters")
                body = data[at:at + n]
                out.append(body.decode("utf-8") if tag == 3 else body)
                at += n
            else:
                raise SqlFailed("malformed parameters")
    except (struct.error, UnicodeDecodeError) as e:
        raise SqlFailed(f"malformed parameters: {e}") from e
    return out


class SqlConnection:
    """One connection to the home's index file, opened when the index asks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None

    def open(self) -> bool:
        """Opens the file if it is not open; true when this call opened it."""
        if self._conn is not None:
            return False
        # Created owner-only; SQLite gives its -wal and -shm files the same mode.
        if not self.path.exists():
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE))
            except OSError:
                pass
        try:
            # Autocommit: the index begins and commits its own transactions.
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   cached_statements=_PREPARED_STATEMENTS)
        except sqlite3.Error as e:
            raise SqlUnusable(str(e)) from e
        try:
            _load_vec(conn)
        except sqlite3.Error as e:
            conn.close()
            raise SqlUnusable(str(e)) from e
        self._conn = conn
        return True

    def close(self) -> None:
        """Closes the connection, if open."""
        if self._conn is not None:
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
            self._conn = None

    def reset(self) -> None:
        """Closes the connection and deletes the file and its journals."""
        self.close()
        for suffix in ("", "-journal", "-wal", "-shm"):
            try:
                os.unlink(f"{self.path}{suffix}")
            except FileNotFoundError:
                pass

    def query(self, statement: str, params: str) -> tuple[int, str]:
        """Every row of a statement that reads, its parameters (`encoded-values`) bound to
        ?1, ?2, ...: how
        many columns a row has, and the rows encoded (`encode_rows`)."""
        try:
            cur = self._connection().execute(statement, decode_values(params))
            rows = cur.fetchall()
        except sqlite3.Error as e:
            raise _error(e) from e
        columns = len(cur.description) if cur.description else 0
        return columns, encode_rows(rows)

    def execute(self, statement: str, params: str) -> tuple[int, int]:
        """Runs a statement that writes: (rows changed, the last insert's rowid)."""
        try:
            cur = self._connection().execute(statement, decode_values(params))
            return cur.rowcount if cur.rowcount > 0 else 0, cur.lastrowid or 0
        except sqlite3.Error as e:
            raise _error(e) from e

    def execute_each(self, statement: str, width: int, params: str) -> int:
        """Runs a statement that writes once for every `width` parameters: the rows changed."""
        values = decode_values(params)
        if width < 1 or len(values) % width:
            raise SqlFailed(f"{len(values)} parameters do not make rows of {width}")
        rows = [values[at:at + width] for at in range(0, len(values), width)]
        try:
            cur = self._connection().executemany(statement, rows)
            return cur.rowcount if cur.rowcount > 0 else 0
        except sqlite3.Error as e:
            raise _error(e) from e

    def batch(self, statements: str) -> None:
        """Runs statements without parameters or rows."""
        try:
            self._connection().executescript(statements)
        except sqlite3.Error as e:
            raise _error(e) from e

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise SqlFailed("the index file is not open")
        return self._conn
