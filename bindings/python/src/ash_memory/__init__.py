"""ash-memory for Python: long-term memory for AI agents, decided by the sandboxed
ash-memory policy component (the same `.wasm` the Rust host runs) and stored in the same
files (JSONL + a SQLite index), so that a home is shared with the Rust CLI as it is.

    from ash_memory import Memory
    with Memory("/tmp/ash-home") as m:
        m.add("I'm allergic to peanuts", user="alice")
        hits = m.search("What should I avoid eating?", user="alice", limit=3)
"""

from .component import component_path, component_sha256
from .errors import (
    AmbiguousId,
    Busy,
    ConfigError,
    IndexFailure,
    InvalidInput,
    InvalidParams,
    IoError,
    MemoryError,
    MemoryNotFound,
    MethodNotFound,
    PersonNotFound,
    SandboxError,
    SecretRefused,
    StorageError,
    Unauthorized,
    UnknownTool,
)
from .memory import DEFAULT_USER, Memory
from .results import (
    Added,
    Archived,
    CompactReport,
    ContextBlock,
    Extraction,
    Finding,
    Forgotten,
    GcReport,
    MemoryItem,
    PastMessage,
    Person,
    Profile,
    SearchHit,
    SearchResults,
    StoredTurn,
    Superseded,
)

__version__ = "0.2.0"

__all__ = [
    "Memory", "DEFAULT_USER", "component_sha256", "component_path",
    "Added", "Archived", "CompactReport", "ContextBlock", "Finding", "Forgotten", "GcReport", "MemoryItem", "Person", "SearchHit", "SearchResults",
    "Superseded", "PastMessage", "StoredTurn", "Extraction", "Profile",
    "MemoryError", "InvalidInput", "SecretRefused", "MemoryNotFound", "AmbiguousId", "PersonNotFound",
    "Unauthorized", "UnknownTool", "StorageError", "IndexFailure", "Busy", "SandboxError", "ConfigError",
    "IoError", "InvalidParams", "MethodNotFound",
]
