"""The JSON-RPC methods of `ash-memory serve`, as the Rust host's `server/methods.rs` and
`session.rs` define them: named parameters checked as serde checks them (unknown ones
refused, required ones present, each of its type), the caller taken out of `user_id`
(default "local") and `chat_id`, and the results in the `wire.rs` shapes.

`call(memory, method, params)` answers the `result` object or raises a `MemoryError`
whose `kind` is the error's `data.kind` (`invalid_params` for a bad parameter).
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

from .errors import InvalidParams, MethodNotFound
from .memory import DEFAULT_USER, MEMORY_TYPES, Memory

_U32_MAX = (1 << 32) - 1

# A parameter's type: "str", "u32", "bool" (serde default false), "strs" (default []),
# "any" (a JSON value, required), each optionally "?" (an Option: missing or null is None).
_METHODS: dict[str, dict[str, str]] = {
    "memory.search": {"query": "str", "limit": "u32?", "about": "str?"},
    "memory.add": {"content": "str", "source": "str?", "expires_days": "u32?", "subjects": "strs",
                   "memory_type": "str?", "shared": "bool", "observed_at": "str?",
                   "context": "str?"},
    "memory.list": {"limit": "u32?", "memory_type": "str?", "include_expired": "bool",
                    "include_superseded": "bool"},
    "memory.get": {"memory_id": "str"},
    "memory.history": {"memory_id": "str"},
    "memory.delete": {"memory_id": "str"},
    "memory.correct": {"memory_id": "str", "content": "str", "memory_type": "str?", "expires_days": "u32?",
                       "subjects": "strs?"},
    "memory.context": {"message": "str", "max_tokens": "u32?", "session": "str?"},
    "people.list": {},
    "people.show": {"reference": "str"},
    "people.add": {"name": "str", "relation": "str?", "aliases": "strs"},
    "people.alias": {"reference": "str", "alias": "str"},
    "people.merge": {"keep": "str", "merge": "str"},
    "people.forget": {"reference": "str", "purge": "bool"},
    "tools.schemas": {},
    "tools.call": {"name": "str", "arguments": "any"},
    "maintenance.gc": {"dry_run": "bool"},
    "conversations.turn": {"session": "str", "user_message": "str", "assistant_message": "str?",
                           "provider": "str?"},
    "conversations.extract": {"session": "str?"},
    "conversations.profile": {},
}


def caller(params: dict[str, Any]) -> tuple[str, str | None]:
    """Takes `user_id` (default "local") and `chat_id` out of the params, as the owner's
    socket does."""
    ids = []
    for key in ("user_id", "chat_id"):
        value = params.pop(key, None)
        if value is not None and not isinstance(value, str):
            raise InvalidParams(f"{key} is a string")
        ids.append(value)
    return (ids[0] if ids[0] is not None else DEFAULT_USER, ids[1])


def parse(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Checks a method's parameters as serde would and fills in the defaults."""
    spec = _METHODS.get(method)
    if spec is None:
        raise MethodNotFound(f'no method "{method}"; see docs/serving.md')
    for key in params:
        if key not in spec:
            expected = ", ".join(f"`{k}`" for k in spec)
            raise InvalidParams(
                f"unknown field `{key}`, expected one of {expected}" if spec else f"unknown field `{key}`, there are no fields"
            )
    out: dict[str, Any] = {}
    for key, kind in spec.items():
        optional = kind.endswith("?")
        kind = kind.rstrip("?")
        if key not in params or (optional and params[key] is None):
            if optional:
                out[key] = None
            elif kind == "bool":
                out[key] = False
            elif kind == "strs":
                out[key] = []
            else:
                raise InvalidParams(f"missing field `{key}`")
            continue
        value = params[key]
        if not _fits(kind, value):
            raise InvalidParams(f"invalid type or value for `{key}`: {json.dumps(value)[:80]}, expected {_describe(kind)}")
        out[key] = value
    return out


def _fits(kind: str, v: Any) -> bool:
    if kind == "str":
        return isinstance(v, str)
    if kind == "bool":
        return isinstance(v, bool)
    if kind == "u32":
        return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= _U32_MAX
    if kind == "strs":
        return isinstance(v, list) and all(isinstance(x, str) for x in v)
    return True


def _describe(kind: str) -> str:
    return {"str": "a string", "bool": "a boolean", "u32": "u32", "strs": "a sequence of strings",
            "any": "any value"}[kind]


def _memory_type(name: str | None) -> str | None:
    if name is None:
        return None
    t = name.strip().lower()
    if t not in MEMORY_TYPES:
        raise InvalidParams(f'unknown memory_type "{name}"; one of {", ".join(MEMORY_TYPES)}')
    return t


def health() -> dict[str, Any]:
    """`health`: answers without touching the store."""
    from . import __version__

    return {"status": "ok", "version": __version__, "pid": os.getpid()}


def call(memory: Memory, method: str, params: dict[str, Any] | None = None) -> Any:
    """Runs one JSON-RPC method on an opened memory, as a client on the owner's socket."""
    if method == "health":
        return health()
    params = dict(params or {})
    user, chat = caller(params)
    p = parse(method, params)
    run = _HANDLERS[method]
    return run(memory, {"user": user, "chat": chat}, p)


def _add(m: Memory, who: dict[str, Any], p: dict[str, Any]) -> Any:
    added = m.add(p["content"], memory_type=_memory_type(p["memory_type"]), expires_days=p["expires_days"],
                  subjects=p["subjects"], shared=p["shared"], source=p["source"] if p["source"] is not None else "rpc",
                  observed_at=p["observed_at"], context=p["context"], **who)
    return added.to_dict()


def _correct(m: Memory, who: dict[str, Any], p: dict[str, Any]) -> Any:
    # `subjects` missing or null is None: the memory keeps its subjects.
    added = m.correct(p["memory_id"], p["content"], memory_type=_memory_type(p["memory_type"]),
                      expires_days=p["expires_days"], subjects=p["subjects"], **who)
    return added.to_dict()


def _tool_call(m: Memory, who: dict[str, Any], p: dict[str, Any]) -> Any:
    args = p["arguments"]
    # A string is passed as it is; any other value as compact JSON (serde_json sorts keys).
    text = args if isinstance(args, str) else json.dumps(args, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return {"result": m.tools.call(p["name"], text, **who)}


_HANDLERS: dict[str, Callable[[Memory, dict[str, Any], dict[str, Any]], Any]] = {
    "memory.search": lambda m, w, p: m.search(p["query"], limit=p["limit"], about=p["about"], **w).to_dict(),
    "memory.add": _add,
    "memory.list": lambda m, w, p: {"memories": [x.to_dict() for x in m.list(
        limit=p["limit"], memory_type=_memory_type(p["memory_type"]), include_expired=p["include_expired"],
        include_superseded=p["include_superseded"], **w)]},
    "memory.delete": lambda m, w, p: {"deleted": m.delete(p["memory_id"], **w)},
    "memory.correct": _correct,
    "memory.get": lambda m, w, p: m.get(p["memory_id"], **w).to_dict(),
    "memory.history": lambda m, w, p: {"memories": [x.to_dict() for x in m.history(p["memory_id"], **w)]},
    "memory.context": lambda m, w, p: m.context(p["message"], max_tokens=p["max_tokens"], session=p["session"],
                                                **w).to_dict(),
    "people.list": lambda m, w, p: {"people": [x.to_dict() for x in m.people.list(**w)]},
    "people.show": lambda m, w, p: m.people.show(p["reference"], **w).to_dict(),
    "people.add": lambda m, w, p: m.people.add(p["name"], relation=p["relation"], aliases=p["aliases"], **w).to_dict(),
    "people.alias": lambda m, w, p: m.people.alias(p["reference"], p["alias"], **w).to_dict(),
    "people.merge": lambda m, w, p: m.people.merge(p["keep"], p["merge"], **w).to_dict(),
    "people.forget": lambda m, w, p: m.people.forget(p["reference"], purge=p["purge"], **w).to_dict(),
    "tools.schemas": lambda m, w, p: m.tools.schemas(),
    "tools.call": _tool_call,
    "maintenance.gc": lambda m, w, p: m.gc(dry_run=p["dry_run"]).to_dict(),
    "conversations.turn": lambda m, w, p: m.turn(p["session"], p["user_message"], p["assistant_message"],
                                                 provider=p["provider"], **w).to_dict(),
    "conversations.extract": lambda m, w, p: m.extract(p["session"], **w).to_dict(),
    "conversations.profile": lambda m, w, p: m.profile(**w).to_dict(),
}
