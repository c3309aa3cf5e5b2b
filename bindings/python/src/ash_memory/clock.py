"""The `clock` import: the system's time, or a fixed instant (for tests and `--now`), as
RFC 3339 in UTC the way chrono's `to_rfc3339_opts(SecondsFormat::AutoSi, false)` writes it:
no fraction when it is zero, else 3 or 6 digits, and a `+00:00` offset."""

from __future__ import annotations

import re
from datetime import datetime, timezone

_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
)


def parse_rfc3339(text: str) -> datetime:
    """Parses an RFC 3339 instant into an aware UTC datetime, within the years 1970 to 9899
    (so that a hundred years of expiry still writes a timestamp RFC 3339 can read back)."""
    m = _RFC3339.match(text)
    if not m:
        raise ValueError(f"{text!r} is not an RFC 3339 time; for example 2026-03-01T12:00:00Z")
    frac = m.group(7) or ""
    micro = int((frac[1:] + "000000")[:6]) if frac else 0
    offset = m.group(8)
    normalized = f"{m.group(1)}-{m.group(2)}-{m.group(3)}T{m.group(4)}:{m.group(5)}:{m.group(6)}"
    normalized += "+00:00" if offset in ("Z", "z") else offset
    try:
        t = datetime.fromisoformat(normalized).replace(microsecond=micro).astimezone(timezone.utc)
    except ValueError as e:
        raise ValueError(f"{text!r} is not an RFC 3339 time ({e}); for example 2026-03-01T12:00:00Z") from None
    if not 1970 <= t.year <= 9899:
        raise ValueError(f"{text!r} is outside the years 1970 to 9899")
    return t


def rfc3339(t: datetime | None) -> str:
    """An instant (now when None) as chrono's AutoSi RFC 3339 with a +00:00 offset."""
    if t is None:
        t = datetime.now(timezone.utc)
    t = t.astimezone(timezone.utc)
    base = t.strftime("%Y-%m-%dT%H:%M:%S")
    us = t.microsecond
    if us == 0:
        frac = ""
    elif us % 1000 == 0:
        frac = f".{us // 1000:03d}"
    else:
        frac = f".{us:06d}"
    return f"{base}{frac}+00:00"


class Clock:
    """Where "now" comes from: the system clock, or a fixed instant."""

    def __init__(self, fixed: str | datetime | None = None) -> None:
        self.fixed: datetime | None = None
        if fixed is not None:
            self.set(fixed)

    def set(self, fixed: str | datetime | None) -> None:
        """Fixes now (an RFC 3339 string or an aware datetime), or back to the system clock."""
        if fixed is None:
            self.fixed = None
        elif isinstance(fixed, datetime):
            if fixed.tzinfo is None:
                raise ValueError("a fixed time needs a timezone")
            self.fixed = fixed.astimezone(timezone.utc)
        else:
            self.fixed = parse_rfc3339(fixed)

    def now(self) -> str:
        """Now, as the `clock` interface returns it."""
        return rfc3339(self.fixed)
