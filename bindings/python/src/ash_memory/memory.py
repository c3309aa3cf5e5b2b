"""`Memory`: the package's front door. Open a home, then call methods; each call takes the
home's lock, runs in the sandboxed policy component as one transaction (rolled back on any
error or trap), and returns a dataclass from `results`.

    with Memory("~/.ash", now="2026-03-01T12:00:00Z", ids="sequential") as m:
        m.add("I'm allergic to peanuts", user="alice")
        m.search("what should I avoid eating?", user="alice", limit=3)
"""

from __future__ import annotations

import builtins
import hashlib
import json
import logging
import os
import threading
import weakref
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

from wasmtime.component import Variant

from . import component as comp
from .clock import Clock
from .config import Config
from .embedder import Embedder
from .errors import Busy, InvalidInput, MemoryError, StorageError, from_guest
from .fs import HomeFs
from .home import Home
from .ids import IdSource
from .llm import Llm
from .sql import SqlConnection
from .results import (Added, CompactReport, ContextBlock, Extraction, Finding, Forgotten, GcReport, MemoryItem,
                      Person, Profile, SearchResults, StoredTurn)
from .sandbox import HostState, Sandbox, record

log = logging.getLogger("ash_memory")

#: The user a call acts as when it names none, as for the CLI and the owner's socket.
DEFAULT_USER = "local"
MEMORY_TYPES = ("preference", "identity", "relationship", "knowledge", "context", "event", "task", "observation", "reflection")
_U32_MAX = (1 << 32) - 1

_UNSET: Any = object()


class Memory:
    """A memory home opened through the policy component. Use it as a context manager, or
    call `close()` (a Memory that is garbage collected unclosed is closed then). Threads may
    share it: their calls run one at a time (other processes may share the home; the home's
    lock serializes them)."""

    def __init__(
        self,
        home: str | os.PathLike[str] | None = None,
        *,
        user: str | None = DEFAULT_USER,
        chat: str | None = None,
        now: str | datetime | None = None,
        ids: str = "random",
        embedder: Embedder | None = None,
        llm: Llm | None = None,
        component: bytes | None = None,
        cache_dir: str | os.PathLike[str] | None | Any = _UNSET,
        auto_gc: bool = True,
    ) -> None:
        """Opens (creating) the home, reads its config.toml and loads the component.

        `user`/`chat` are the default caller of every call; `now` fixes the clock (an RFC
        3339 string or an aware datetime; see `set_now`); `ids="sequential"` hands out
        predictable ids for tests; `embedder`/`llm` replace the configured ones;
        `component` replaces the packaged `.wasm`; `auto_gc=False` skips `[memory] auto_gc`.
        """
        from .home import default_root

        root = Path(home).expanduser() if home is not None else default_root()
        # Everything is checked before the home's folders are made: a bad option or a
        # config.toml this host cannot follow leaves nothing behind.
        config = Config.load(Home.config_path(root))
        try:
            self._clock = Clock(now)
            self._ids = IdSource(ids)
        except ValueError as e:
            raise InvalidInput(str(e)) from None
        emb = embedder if embedder is not None else config.build_embedder()
        model = llm if llm is not None else config.build_llm()
        self.home = Home(root)
        self.user = user
        self.chat = chat
        sql = SqlConnection(self.home.index)
        self._state = HostState(self.home, HomeFs(self.home.root), sql, emb, model, self._clock, self._ids,
                                config.supersession_threshold(emb), config.max_entries,
                                config.extraction_enabled, config.extraction_confidence_threshold,
                                config.decay_told_facts)
        # One call at a time: wasmtime's store may not be entered from two threads, and the
        # home's lock is let go around remote calls, when another thread could take it.
        self._mutex = threading.RLock()
        wasm = component if component is not None else comp.component_bytes()
        self.component_sha256 = hashlib.sha256(wasm).hexdigest()
        cache = comp.default_cache_dir() if cache_dir is _UNSET else (Path(cache_dir) if cache_dir else None)
        compiled = comp.compile_component(wasm, cache)
        self._sandbox = Sandbox(comp.engine(), compiled, self._state, config.fuel_per_call, config.memory_limit_mib)
        # The instance, the index connection and the files the component holds open (its
        # journal) are let go when this object is collected unclosed (wasmtime keeps the
        # connection referenced past that point).
        self._finalizer = weakref.finalize(self, _release, self._sandbox)
        self.people = People(self)
        self.tools = Tools(self)
        if auto_gc and config.auto_gc:
            report = self.gc()
            if report.archived:
                log.info("auto_gc archived %d memories", len(report.archived))

    # ---- lifecycle ----

    def close(self) -> None:
        """Closes the index connection and the component's open files (its journal); the
        object is unusable after."""
        with self._mutex:
            self._finalizer()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_now(self, now: str | datetime | None) -> None:
        """Fixes "now" for later calls (None: the system clock)."""
        try:
            self._clock.set(now)
        except ValueError as e:
            raise InvalidInput(str(e)) from None

    def instantiate(self) -> None:
        """Instantiates the component now rather than at the first call (for timing)."""
        with self._mutex:
            self._sandbox.instantiate()

    # ---- the transaction around each call ----

    def _caller(self, user: str | None | Any, chat: str | None | Any) -> Any:
        u = self.user if user is _UNSET else user
        c = self.chat if chat is _UNSET else chat
        _opt_str("user", u)
        _opt_str("chat", c)
        return record(user_id=u, chat_id=c)

    def _call(self, iface: str, name: str, *args: Any) -> Any:
        """Runs one export under the home's lock as one transaction: a transaction left open
        by a process that died is rolled back first; the call's writes are committed when it
        succeeds and rolled back when it fails or traps. The collections and their journal
        are the component's own: this brackets the call with its `journal` export."""
        with self._mutex:
            return self._call_locked(iface, name, *args)

    def _call_locked(self, iface: str, name: str, *args: Any) -> Any:
        state = self._state
        state.lock = self.home.lock()
        state.lock_lost = None
        try:
            why = self._journal("roll-back")
            if why is not None:
                raise StorageError(f"storage error: cannot roll back an unfinished write: {why[1]}", why[1])
            try:
                value = _unwrap(iface, self._sandbox.call(iface, name, *args))
            except MemoryError as e:
                # Its writes were refused once the lock was lost: busy, not a storage fault,
                # so that the caller tries again (as in the Rust host).
                if state.lock_lost is not None:
                    raise Busy(state.lock_lost) from e
                self._roll_back_failed()
                raise
            except BaseException:  # a trap, or Ctrl-C passed on from an import
                self._roll_back_failed()
                raise
            if state.lock_lost is not None:
                raise Busy(state.lock_lost)
            why = self._journal("commit")
            if why is not None:
                kind, text = why
                if kind == "busy":
                    raise Busy(text)
                raise StorageError(f"storage error: {text}", text)
            return value
        finally:
            if state.lock is not None:
                state.lock.release()
                state.lock = None

    def _roll_back_failed(self) -> None:
        """Undoes a failed call's writes; without the lock (it was lost after a remote call)
        nothing may be touched, and the next call rolls back."""
        if self._state.lock_lost is not None:
            return
        try:
            failed = self._journal("roll-back")
        except Exception as e:  # a trap of the fresh instance
            failed = ("io", str(e))
        if failed is not None:
            log.error("cannot roll back the failed call's writes: %s", failed[1])

    def _journal(self, name: str) -> tuple[str, str] | None:
        """Calls the component's `journal` export (`commit` or `roll-back`): None when it
        succeeded, else its error's case (`io` or `busy`) and text. A trap raises."""
        result = self._sandbox.call("journal", name)
        if isinstance(result, Variant) and result.tag == "err":
            result = result.payload
        if isinstance(result, Variant) and result.tag in ("io", "busy"):
            return result.tag, str(result.payload)
        return None

    # ---- memories ----

    def add(
        self,
        content: str,
        *,
        user: str | None = _UNSET,
        chat: str | None = _UNSET,
        memory_type: str | None = None,
        expires_days: int | None = None,
        subjects: Sequence[str] = (),
        shared: bool = False,
        source: str | None = None,
        observed_at: str | None = None,
        context: str | None = None,
    ) -> Added:
        """Stores one memory, superseding what it verifiably replaces. `context` is what was
        said around it (a conversation's date, the turn before): searched with the content,
        returned apart from the content."""
        item = new_memory(content, memory_type=memory_type, expires_days=expires_days, subjects=subjects,
                          shared=shared, source=source, observed_at=observed_at, context=context)
        return Added.from_wit(self._call("memories", "add", self._caller(user, chat), item))

    def add_batch(self, items: Sequence[dict[str, Any]], *, user: str | None = _UNSET,
                  chat: str | None = _UNSET) -> Added:
        """Stores several memories (dicts of `add`'s keyword arguments plus `content`), all or none."""
        wit = [new_memory(**i) for i in items]
        return Added.from_wit(self._call("memories", "add-batch", self._caller(user, chat), wit))

    def get(self, memory_id: str, *, user: str | None = _UNSET, chat: str | None = _UNSET) -> MemoryItem:
        """One memory the caller may see, by id or a unique prefix of 8+ characters."""
        _str("memory_id", memory_id)
        return MemoryItem.from_wit(self._call("memories", "get", self._caller(user, chat), memory_id))

    def list(
        self,
        *,
        user: str | None = _UNSET,
        chat: str | None = _UNSET,
        limit: int | None = None,
        memory_type: str | None = None,
        include_expired: bool = False,
        include_superseded: bool = False,
    ) -> builtins.list[MemoryItem]:
        """The caller's memories, newest first."""
        _opt_u32("limit", limit)
        _bool("include_expired", include_expired)
        _bool("include_superseded", include_superseded)
        options = record(limit=limit, memory_type=_memory_type(memory_type),
                         include_expired=include_expired, include_superseded=include_superseded)
        found = self._call("memories", "list", self._caller(user, chat), options)
        return [MemoryItem.from_wit(m) for m in found]

    def history(self, memory_id: str, *, user: str | None = _UNSET, chat: str | None = _UNSET) -> builtins.list[MemoryItem]:
        """The supersession chain through a memory, oldest first, archived links included."""
        _str("memory_id", memory_id)
        chain = self._call("memories", "history", self._caller(user, chat), memory_id)
        return [MemoryItem.from_wit(m) for m in chain]

    def delete(self, memory_id: str, *, user: str | None = _UNSET, chat: str | None = _UNSET) -> str:
        """Deletes a memory (archived first); returns the full id deleted."""
        _str("memory_id", memory_id)
        return str(self._call("memories", "delete", self._caller(user, chat), memory_id))

    def correct(
        self,
        memory_id: str,
        content: str,
        *,
        memory_type: str | None = None,
        expires_days: int | None = None,
        subjects: Sequence[str] | None = None,
        user: str | None = _UNSET,
        chat: str | None = _UNSET,
    ) -> Added:
        """Corrects a memory (by id or a unique prefix): the new text is stored as a new
        memory in its scope that replaces it, so `history` shows both. `memory_type` and
        `subjects` of None keep the memory's; `expires_days` of None sets no expiry. A
        correction that says what the memory already says writes nothing and answers with
        it, in `restated`."""
        _str("memory_id", memory_id)
        _str("content", content)
        _opt_u32("expires_days", expires_days)
        refs = None if subjects is None else _str_list("subjects", subjects)
        correction = record(content=content, memory_type=_memory_type(memory_type), expires_in_days=expires_days,
                            subjects=refs)
        return Added.from_wit(self._call("memories", "correct", self._caller(user, chat), memory_id, correction))

    # ---- recall ----

    def search(self, query: str, *, user: str | None = _UNSET, chat: str | None = _UNSET,
               limit: int | None = None, about: str | None = None) -> SearchResults:
        """Vector and full-text search fused by Reciprocal Rank Fusion, in the caller's scope."""
        _str("query", query)
        _opt_u32("limit", limit)
        _opt_str("about", about)
        q = record(text=query, limit=limit, about=about)
        return SearchResults.from_wit(self._call("recall", "search", self._caller(user, chat), q))

    def context(self, message: str, *, user: str | None = _UNSET, chat: str | None = _UNSET,
                max_tokens: int | None = None, session: str | None = None) -> ContextBlock:
        """The "About the user", "Known People", "Relevant Context from Memory" and "Relevant
        past messages" block for a message; past messages come from the caller's sessions
        other than `session`."""
        _str("message", message)
        _opt_u32("max_tokens", max_tokens)
        _opt_str("session", session)
        block = self._call("recall", "context", self._caller(user, chat), message, max_tokens, session)
        return ContextBlock.from_wit(block)

    # ---- conversations ----

    def turn(self, session: str, user_message: str, assistant_message: str | None = None, *,
             provider: str | None = None, user: str | None = _UNSET, chat: str | None = _UNSET) -> StoredTurn:
        """Stores one exchange of a session (made on first use): the user's message and, if
        there was one, the agent's answer. Secrets are replaced by `[redacted]` before
        anything is stored; facts are read later, by `extract`."""
        _str("session", session)
        _str("user_message", user_message)
        _opt_str("assistant_message", assistant_message)
        _opt_str("provider", provider)
        t = record(session=session, provider=provider, user_message=user_message,
                   assistant_message=assistant_message)
        return StoredTurn.from_wit(self._call("conversations", "persist-turn", self._caller(user, chat), t))

    def extract(self, session: str | None = None, *, user: str | None = _UNSET,
                chat: str | None = _UNSET) -> Extraction:
        """Reads the caller's exchanges not read before (of one session, or of all) for facts
        and stores them as memories (`source` "extraction")."""
        _opt_str("session", session)
        return Extraction.from_wit(self._call("conversations", "extract", self._caller(user, chat), session))

    def profile(self, *, user: str | None = _UNSET, chat: str | None = _UNSET) -> Profile:
        """The caller's user profile: short notes, most important first."""
        return Profile.from_wit(self._call("conversations", "profile", self._caller(user, chat)))

    # ---- maintenance ----

    def gc(self, *, dry_run: bool = False) -> GcReport:
        """Archives superseded, expired and decayed memories (or reports them, on a dry run)."""
        _bool("dry_run", dry_run)
        return GcReport.from_wit(self._call("maintenance", "gc", dry_run))

    def compact(self, *, older_than_days: int = 90, force: bool = False) -> CompactReport:
        """Removes archive entries archived more than `older_than_days` ago for good; without
        `force` it only reports them."""
        _u32("older_than_days", older_than_days)
        _bool("force", force)
        return CompactReport.from_wit(self._call("maintenance", "compact", older_than_days, force))

    def doctor(self, *, fix: bool = False) -> builtins.list[Finding]:
        """The policy's checks of the home (index against files, embeddings, people); with
        `fix`, mends what is safe to mend."""
        _bool("fix", fix)
        return [Finding.from_wit(f) for f in self._call("maintenance", "doctor", fix)]

    def rebuild_index(self) -> dict[str, int]:
        """Clears the index and fills it again from memories.jsonl."""
        r = self._call("maintenance", "rebuild-index")
        return {k: getattr(r, k) for k in ("indexed", "embedded", "pending", "quarantined")}


class People:
    """`memory.people`: the people in a user's life."""

    def __init__(self, memory: Memory) -> None:
        self._m = memory

    def list(self, *, user: str | None = _UNSET, chat: str | None = _UNSET) -> builtins.list[Person]:
        """The caller's people, by name."""
        return [Person.from_wit(p) for p in self._m._call("people", "list", self._m._caller(user, chat))]

    def show(self, reference: str, *, user: str | None = _UNSET, chat: str | None = _UNSET) -> Person:
        """One of the caller's people, by reference ("my wife", "Sarah") or id."""
        _str("reference", reference)
        return Person.from_wit(self._m._call("people", "show", self._m._caller(user, chat), reference))

    def add(self, name: str, *, relation: str | None = None, aliases: Sequence[str] = (),
            user: str | None = _UNSET, chat: str | None = _UNSET) -> Person:
        """Adds a person, or completes the one who already answers to the name."""
        _str("name", name)
        _opt_str("relation", relation)
        alias_list = _str_list("aliases", aliases)
        person = record(name=name, relation=relation, aliases=alias_list)
        return Person.from_wit(self._m._call("people", "add", self._m._caller(user, chat), person))

    def alias(self, reference: str, alias: str, *, user: str | None = _UNSET, chat: str | None = _UNSET) -> Person:
        """Adds an alias to one of the caller's people."""
        _str("reference", reference)
        _str("alias", alias)
        return Person.from_wit(self._m._call("people", "alias", self._m._caller(user, chat), reference, alias))

    def merge(self, keep: str, merge: str, *, user: str | None = _UNSET, chat: str | None = _UNSET) -> Person:
        """Folds `merge` into `keep`, re-linking memories."""
        _str("keep", keep)
        _str("merge", merge)
        return Person.from_wit(self._m._call("people", "merge", self._m._caller(user, chat), keep, merge))

    def forget(self, reference: str, *, purge: bool = False, user: str | None = _UNSET,
               chat: str | None = _UNSET) -> Forgotten:
        """Forgets one of the caller's people: memories about them alone are archived (with
        `purge`, removed, and older archive entries about them too); others lose them."""
        _str("reference", reference)
        _bool("purge", purge)
        return Forgotten.from_wit(self._m._call("people", "forget", self._m._caller(user, chat), reference, purge))


class Tools:
    """`memory.tools`: the `remember` and `recall` agent tools."""

    def __init__(self, memory: Memory) -> None:
        self._m = memory

    def schemas(self) -> Any:
        """The tool schemas, as JSON (a list of `{name, description, input_schema}`)."""
        text = self._m._call("tools", "schemas")
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise MemoryError(f"the component's tool schemas are not JSON: {e}") from None

    def call(self, name: str, arguments: str | dict[str, Any] | Any, *, user: str | None = _UNSET,
             chat: str | None = _UNSET) -> str:
        """Runs a tool call with its JSON arguments (a string, or any JSON value) and returns
        the text for the model."""
        _str("name", name)
        args = arguments if isinstance(arguments, str) else json.dumps(arguments, separators=(",", ":"))
        return str(self._m._call("tools", "call", self._m._caller(user, chat), name, args))


def new_memory(content: str, *, memory_type: str | None = None, expires_days: int | None = None,
               subjects: Sequence[str] = (), shared: bool = False, source: str | None = None,
               observed_at: str | None = None, context: str | None = None) -> Any:
    """A `new-memory` record, its types checked (a wrong type is `InvalidInput`)."""
    _str("content", content)
    _opt_u32("expires_days", expires_days)
    _bool("shared", shared)
    _opt_str("source", source)
    _opt_str("observed_at", observed_at)
    _opt_str("context", context)
    return record(content=content, memory_type=_memory_type(memory_type), expires_in_days=expires_days,
                  subjects=_str_list("subjects", subjects), shared=shared, source=source,
                  observed_at=observed_at, context=context)


def _release(sandbox: Sandbox) -> None:
    """Closes what a Memory holds open (run once, by `close` or at collection): a component
    instance left with open files would find them closed."""
    sandbox.drop_instance()
    sandbox.state.sql.close()
    sandbox.state.fs.close_all()


def _unwrap(iface: str, value: Any) -> Any:
    """An export's `result`: the ok value, or the guest's error raised as its exception."""
    if isinstance(value, Variant):
        if value.tag == "ok":
            return value.payload
        if value.tag == "err":
            value = value.payload
        if isinstance(value, Variant):
            raise from_guest(iface, value.tag, value.payload)
    return value


def _memory_type(name: str | None) -> str | None:
    if name is None:
        return None
    _str("memory_type", name)
    t = name.strip().lower()
    if t not in MEMORY_TYPES:
        raise InvalidInput(f'unknown memory_type "{name}"; one of {", ".join(MEMORY_TYPES)}')
    return t


def _str(name: str, v: Any) -> None:
    if not isinstance(v, str):
        raise InvalidInput(f"{name} must be a string, not {type(v).__name__}")


def _opt_str(name: str, v: Any) -> None:
    if v is not None:
        _str(name, v)


def _bool(name: str, v: Any) -> None:
    if not isinstance(v, bool):
        raise InvalidInput(f"{name} must be true or false, not {type(v).__name__}")


def _opt_u32(name: str, v: Any) -> None:
    if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= _U32_MAX):
        raise InvalidInput(f"{name} must be an integer from 0 to {_U32_MAX}")


def _u32(name: str, v: Any) -> None:
    if v is None:
        raise InvalidInput(f"{name} must be an integer from 0 to {_U32_MAX}")
    _opt_u32(name, v)


def _str_list(name: str, v: Any) -> list[str]:
    if isinstance(v, str) or not all(isinstance(x, str) for x in v):
        raise InvalidInput(f"{name} must be a list of strings")
    return list(v)

