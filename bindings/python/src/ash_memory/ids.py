"""The `ids` import: random UUID v4 ids, or sequential ones for tests and the conformance
suite (`00000000-0000-4000-8000-000000000001`, then `...0002`, counting from 1 per opened
memory), so that every host hands out the same ids for the same calls."""

from __future__ import annotations

import uuid


class IdSource:
    """The ids one opened memory hands out: `"random"` (the default) or `"sequential"`."""

    def __init__(self, kind: str = "random") -> None:
        if kind not in ("random", "sequential"):
            raise ValueError(f"ids must be 'random' or 'sequential', not {kind!r}")
        self.kind = kind
        self.issued = 0

    def next(self) -> str:
        """The next id."""
        if self.kind == "sequential":
            self.issued += 1
            return f"00000000-0000-4000-8000-{self.issued:012d}"
        return str(uuid.uuid4())
