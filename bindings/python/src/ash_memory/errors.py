"""Errors: one exception class per error kind, all under `MemoryError` (which shadows the
builtin of that name inside this package only; import it as `ash_memory.MemoryError`).

Each class carries `kind` (the JSON-RPC `error.data.kind` string) and `code` (its JSON-RPC
error code), and its message is the one the Rust host prints. No error means data was lost:
every failed call leaves the files as they were before it.
"""

from __future__ import annotations

import builtins


class MemoryError(builtins.Exception):  # noqa: A001 - the name the API promises
    """The base of every error this package raises."""

    kind = "internal"
    code = -32603

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: The guest's own payload (an id, a reference, a reason), when there is one.
        self.detail = detail if detail is not None else message

    def to_dict(self) -> dict[str, object]:
        """The JSON-RPC error object."""
        return {"code": self.code, "message": self.message, "data": {"kind": self.kind}}


class InvalidInput(MemoryError):
    """The request is malformed; the text names the field."""

    kind, code = "invalid_input", -32010


class SecretRefused(MemoryError):
    """The content looks like a credential and was not stored."""

    kind, code = "secret_refused", -32011


class MemoryNotFound(MemoryError):
    """No memory with this id (or id prefix) is visible to the caller."""

    kind, code = "memory_not_found", -32012


class AmbiguousId(MemoryError):
    """This id prefix starts more than one of the caller's memories."""

    kind, code = "ambiguous_id", -32013


class PersonNotFound(MemoryError):
    """No person the caller knows answers to this reference or id."""

    kind, code = "person_not_found", -32014


class Unauthorized(MemoryError):
    """The caller may see this memory but not delete it."""

    kind, code = "unauthorized", -32015


class UnknownTool(MemoryError):
    """No agent tool has this name."""

    kind, code = "unknown_tool", -32016


class StorageError(MemoryError):
    """A file operation failed inside the call; the home is as it was."""

    kind, code = "storage", -32020


class IndexFailure(MemoryError):
    """The index failed in a way a rebuild did not mend."""

    kind, code = "index", -32021


class Busy(MemoryError):
    """Another process held the home's lock for longer than the wait allows."""

    kind, code = "busy", -32022


class SandboxError(MemoryError):
    """The policy component trapped, ran out of fuel or memory, or could not be loaded."""

    kind, code = "sandbox", -32030


class ConfigError(MemoryError):
    """`config.toml` is malformed."""

    kind, code = "config", -32031


class IoError(MemoryError):
    """A file or folder of the home could not be used."""

    kind, code = "io", -32032


class InvalidParams(MemoryError):
    """A JSON-RPC parameter is unknown, missing or of the wrong type (-32602)."""

    kind, code = "invalid_params", -32602

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message}


class MethodNotFound(MemoryError):
    """No JSON-RPC method has this name (-32601)."""

    kind, code = "method_not_found", -32601

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message}


#: Every error class by its kind.
BY_KIND: dict[str, type[MemoryError]] = {
    cls.kind: cls
    for cls in (
        MemoryError, InvalidInput, SecretRefused, MemoryNotFound, AmbiguousId, PersonNotFound,
        Unauthorized, UnknownTool, StorageError, IndexFailure, Busy, SandboxError, ConfigError,
        IoError, InvalidParams, MethodNotFound,
    )
}


def from_guest(interface: str, tag: str, payload: object) -> MemoryError:
    """The exception for an exported interface's `error` variant case, with the Rust host's
    message (error.rs)."""
    text = payload if isinstance(payload, str) else str(payload)
    if tag == "invalid-input":
        return InvalidInput(text)
    if tag == "invalid-arguments":
        return InvalidInput(text)
    if tag == "secret-refused":
        return SecretRefused(f"refused: {text}", text)
    if tag == "not-found" and interface == "people":
        return PersonNotFound(f"no person {_debug_str(text)} is known to you", text)
    if tag == "not-found":
        return MemoryNotFound(f"no memory {text} is visible to you", text)
    if tag == "ambiguous-id":
        return AmbiguousId(
            f"{text} is ambiguous: several of your memories start with it; give more characters", text
        )
    if tag == "unknown-person":
        return PersonNotFound(f"no person {_debug_str(text)} is known to you", text)
    if tag == "unauthorized":
        return Unauthorized(f"not allowed: deleting memory {text} needs a user", text)
    if tag == "unknown-tool":
        return UnknownTool(f'unknown tool {_debug_str(text)}: the tools are "remember" and "recall"', text)
    if tag == "storage":
        return StorageError(f"storage error: {text}", text)
    if tag == "index":
        return IndexFailure(f"index error: {text}", text)
    return MemoryError(f"the policy component answered an unknown error {tag!r}: {text}")


def _debug_str(s: str) -> str:
    """A string quoted as Rust's `{:?}` prints it (close enough for messages)."""
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return f'"{out}"'
