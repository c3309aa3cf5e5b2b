"""The host side of the WIT imports and the one module that owns wasmtime's instances.

Each import of the `policy` world is defined on a component Linker as a thin adapter over a
capability module (files, index, embedder, llm, clock, ids, log, settings). wasmtime-py
represents WIT values as Python values: records as objects with one attribute per field
(kebab-case names), enums as strings, options as the value or None, tuples as tuples,
lists as lists. Variants and results are plain payloads when their cases can be told apart
by Python type, else `Variant(tag, payload)` objects; `_ResultShape` asks the component's
own types which, so that every import answers in the representation wasmtime expects.

Every exported call runs under a fuel budget and a linear-memory cap; a trap throws the
instance away and the next call gets a fresh one.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Sequence

import wasmtime
from wasmtime import component as wc
from wasmtime.component import Record, Variant

from .clock import Clock
from .embedder import EmbedDimensionMismatch, Embedder, EmbedUnavailable
from .errors import SandboxError
from .files import Chunk, FileState, FileStore
from .home import Home, HomeLock
from .ids import IdSource
from .index import Entry, IndexDimensionMismatch, IndexSql, IndexUnavailable, SqliteIndex
from .journal import FileIoError, InvalidLine
from .llm import Llm, LlmUnavailable

log = logging.getLogger("ash_memory")
guest_log = logging.getLogger("ash_memory.guest")

PACKAGE = "ash:memory"
VERSION = "0.2.0"


def interface(name: str) -> str:
    """The full name of one of the contract's interfaces."""
    return f"{PACKAGE}/{name}@{VERSION}"


def record(**fields: Any) -> Record:
    """A WIT record value: snake_case keyword names become the kebab-case field names."""
    r = Record()
    for key, value in fields.items():
        setattr(r, key.replace("_", "-"), value)
    return r


def field(r: Any, name: str) -> Any:
    """A field of a WIT record value, by its snake_case name."""
    return getattr(r, name.replace("_", "-"))


class _ResultShape:
    """How one import's `result<T, E>` is written for wasmtime-py: tagged or not, at both
    levels, as the component's own types say."""

    def __init__(self, ty: wc.ResultType) -> None:
        self.tagged = ty._tagged()
        err = ty.err
        self.err_tagged = isinstance(err, wc.VariantType) and err._tagged()

    def ok(self, value: Any) -> Any:
        return Variant("ok", value) if self.tagged else value

    def err(self, case: str, payload: Any) -> Any:
        inner = Variant(case, payload) if self.err_tagged else payload
        return Variant("err", inner) if self.tagged else inner


class HostState:
    """Everything the guest can reach, and nothing more."""

    def __init__(self, home: Home, files: FileStore, index: SqliteIndex, embedder: Embedder,
                 llm: Llm, clock: Clock, ids: IdSource, supersession_threshold: float,
                 max_entries: int | None, extraction_enabled: bool = True,
                 extraction_confidence_threshold: float = 0.7, decay_told_facts: bool = False) -> None:
        self.home = home
        self.files = files
        self.index = index
        self.embedder = embedder
        self.llm = llm
        self.clock = clock
        self.ids = ids
        self.supersession_threshold = supersession_threshold
        self.max_entries = max_entries
        self.extraction_enabled = extraction_enabled
        self.extraction_confidence_threshold = extraction_confidence_threshold
        self.decay_told_facts = decay_told_facts
        #: The home's lock, held for a whole exported call except while a remote service answers.
        self.lock: HomeLock | None = None
        #: Why the lock could not be taken back after a remote call: nothing more may be written.
        self.lock_lost: str | None = None
        #: A KeyboardInterrupt or SystemExit raised in an import, raised again by Sandbox.call.
        self.interrupt: BaseException | None = None

    def unlocked(self, remote: bool, f: Callable[[], Any]) -> Any:
        """Runs a call to a remote service without the home's lock, so that a slow service
        never stalls other processes. What the call wrote so far is committed first; after
        the lock is back, a transaction left by a process that died meanwhile is rolled
        back, and the guest reads the files again before it writes."""
        if not remote or self.lock is None:
            return f()
        try:
            self.files.commit()
        except FileIoError as e:
            log.warning("cannot commit before a remote call: %s", e)
            return f()
        self.lock.release()
        self.lock = None
        try:
            return f()
        finally:
            try:
                self.lock = self.home.lock()
                try:
                    self.files.roll_back()
                except FileIoError as e:
                    self.lock_lost = f"cannot recover the home after a remote call: {e}"
            except Exception as e:  # Busy or io: this call may write nothing more
                self.lock_lost = str(e)

    def writable(self) -> str | None:
        """Why writes are refused (the lock could not be taken back), or None."""
        return f"not written: {self.lock_lost}" if self.lock_lost is not None else None


def _entry(r: Any) -> Entry:
    marks = field(r, "marks")
    return Entry(field(r, "id"), field(r, "content"), field(r, "embedding"),
                 field(r, "owner_user_id"), field(r, "chat_id"), field(r, "kind"), field(r, "record"),
                 list(field(marks, "keys")), field(marks, "lapses"), field(marks, "observed"),
                 field(marks, "made"))


def _revision(r: Any) -> tuple[str, str, list[str], int | None, int, int]:
    marks = field(r, "marks")
    return (field(r, "id"), field(r, "record"), list(field(marks, "keys")), field(marks, "lapses"),
            field(marks, "observed"), field(marks, "made"))


class _Guarded:
    """An instance of the linker whose functions pass Ctrl-C on. A KeyboardInterrupt or
    SystemExit raised in an import cannot cross wasmtime's C callback (ctypes prints and
    drops it): it is kept on the state, the call traps (and rolls back), and `Sandbox.call`
    raises it again once the instance is dropped."""

    def __init__(self, inner: Any, state: HostState) -> None:
        self._inner = inner
        self._state = state

    def add_func(self, name: str, fn: Callable[..., Any]) -> None:
        state = self._state

        def guarded(*args: Any) -> Any:
            try:
                return fn(*args)
            except Exception:
                raise
            except BaseException as e:
                state.interrupt = e
                raise RuntimeError(f"interrupted by {type(e).__name__}") from None

        self._inner.add_func(name, guarded)


def define_imports(linker: wc.Linker, component: wc.Component, engine: wasmtime.Engine,
                   state: HostState) -> None:
    """Defines every import of the `policy` world on `linker`, served by `state`."""
    shapes: dict[tuple[str, str], _ResultShape] = {}
    for name, ext in component.type.imports(engine).items():
        ty = ext.ty
        if isinstance(ty, wc.ComponentInstanceType):
            for fname, fext in ty.exports(engine).items():
                fty = fext.ty
                if isinstance(fty, wc.FuncType) and isinstance(fty.result, wc.ResultType):
                    shapes[(name, fname)] = _ResultShape(fty.result)

    def shape(iface: str, fname: str) -> _ResultShape:
        return shapes[(interface(iface), fname)]

    # ---- files ----
    def files_call(fname: str, f: Callable[[], Any], write: bool) -> Any:
        s = shape("files", fname)
        if write and state.writable():
            return s.err("io", state.writable())
        try:
            return s.ok(f())
        except InvalidLine as e:
            return s.err("invalid-line", str(e))
        except FileIoError as e:
            return s.err("io", str(e))

    def chunk(c: Chunk) -> Record:
        return record(data=c.data, end=c.end, generation=c.generation)

    def state_rec(s: FileState) -> Record:
        return record(generation=s.generation, end=s.end)

    with linker.root() as root:
        with root.add_instance(interface("files")) as _files:
            files = _Guarded(_files, state)
            files.add_func("read", lambda _s, c, start, gen: files_call(
                "read", lambda: chunk(state.files.read(c, start, gen)), False))
            files.add_func("append", lambda _s, c, lines: files_call(
                "append", lambda: state_rec(state.files.append(c, lines)), True))
            files.add_func("replace", lambda _s, c, lines: files_call(
                "replace", lambda: state_rec(state.files.replace(c, lines)), True))
            files.add_func("quarantine", lambda _s, c, lines, reason: files_call(
                "quarantine", lambda: state.files.quarantine(c, lines, reason), True))

        # ---- index ----
        def index_call(fname: str, f: Callable[[], Any], write: bool = False) -> Any:
            s = shape("index", fname)
            if write and state.writable():
                return s.err("sql", state.writable())
            try:
                return s.ok(f())
            except IndexUnavailable as e:
                return s.err("unavailable", str(e))
            except IndexDimensionMismatch as e:
                return s.err("dimension-mismatch", (e.expected, e.got))
            except IndexSql as e:
                return s.err("sql", str(e))

        def optional_call(f: Callable[[], Any]) -> Any:
            # wasmtime-py cannot write an error for `result<option<record>, error>` (an
            # untagged option accepts any value as `ok`), so a broken index answers "none":
            # the guest then clears and rebuilds it, as it does for `unavailable`.
            try:
                return f()
            except (IndexUnavailable, IndexSql) as e:
                log.warning("the index is unusable (%s): answering as if it were empty", e)
                return None

        def hits(pairs: list[tuple[str, float]]) -> list[Record]:
            return [record(id=i, score=s) for i, s in pairs]

        def held(rows: list[tuple[str, str, list[float] | None]]) -> list[Record]:
            return [record(id=i, record=r, embedding=v) for i, r, v in rows]

        def counts(c: tuple[int, list[int]]) -> Record:
            return record(live=c[0], holding=c[1])

        def info() -> Record | None:
            i = state.index.info()
            return None if i is None else record(model=i[0], dimension=i[1])

        def reflects(kind: str) -> Record | None:
            r = state.index.reflects(kind)
            return None if r is None else state_rec(r)

        with root.add_instance(interface("index")) as _index:
            index = _Guarded(_index, state)
            index.add_func("upsert", lambda _s, entries: index_call(
                "upsert", lambda: state.index.upsert([_entry(e) for e in entries]), True))
            index.add_func("remove", lambda _s, ids: index_call(
                "remove", lambda: state.index.remove(ids), True))
            index.add_func("knn", lambda _s, q, k, scope: index_call("knn", lambda: hits(
                state.index.knn(q, k, field(scope, "user_id"), field(scope, "chat_id"), field(scope, "kind")))))
            index.add_func("text-search", lambda _s, terms, k, scope: index_call("text-search", lambda: hits(
                state.index.text_search(terms, k, field(scope, "user_id"), field(scope, "chat_id"),
                                        field(scope, "kind")))))
            index.add_func("fetch", lambda _s, ids: index_call("fetch", lambda: held(state.index.fetch(ids))))
            index.add_func("set-records", lambda _s, revisions: index_call(
                "set-records", lambda: state.index.set_records([_revision(r) for r in revisions]), True))
            index.add_func("tally", lambda _s, keys, scope, now: index_call("tally", lambda: counts(
                state.index.tally(keys, field(scope, "user_id"), field(scope, "chat_id"), now,
                                  field(scope, "kind")))))
            index.add_func("holding", lambda _s, keys, scope, now: index_call("holding", lambda: held(
                state.index.holding(keys, field(scope, "user_id"), field(scope, "chat_id"), now,
                                    field(scope, "kind")))))
            index.add_func("newest", lambda _s, keys, scope, now, limit: index_call("newest", lambda: [
                held(found) for found in state.index.newest(keys, field(scope, "user_id"), field(scope, "chat_id"),
                                                            now, limit, field(scope, "kind"))]))
            index.add_func("recent", lambda _s, scope, now, limit: index_call("recent", lambda: held(
                state.index.recent(field(scope, "user_id"), field(scope, "chat_id"), now, limit,
                                   field(scope, "kind")))))
            index.add_func("pending", lambda _s, kind: index_call("pending", lambda: state.index.pending(kind)))
            index.add_func("count", lambda _s, kind: index_call("count", lambda: state.index.count(kind)))
            index.add_func("clear", lambda _s, i: index_call(
                "clear", lambda: state.index.clear(field(i, "model"), field(i, "dimension")), True))
            index.add_func("reflects", lambda _s, kind: optional_call(lambda: reflects(kind)))
            index.add_func("set-reflects", lambda _s, kind, st: index_call(
                "set-reflects",
                lambda: state.index.set_reflects(kind, FileState(field(st, "generation"), field(st, "end"))), True))
            index.add_func("info", lambda _s: optional_call(info))

        # ---- embedder ----
        def embed(_s: Any, texts: Sequence[str]) -> Any:
            s = shape("embedder", "embed")
            emb = state.embedder
            try:
                vectors = state.unlocked(emb.is_remote, lambda: emb.embed(list(texts)))
            except EmbedUnavailable as e:
                return s.err("unavailable", str(e))
            except EmbedDimensionMismatch as e:
                return s.err("dimension-mismatch", (e.expected, e.got))
            except Exception as e:  # a model of the caller's own that failed otherwise
                return s.err("unavailable", f"the embedder failed: {e}")
            for v in vectors:
                if len(v) != emb.dimension:
                    return s.err("dimension-mismatch", (emb.dimension, len(v)))
            return s.ok([[float(x) for x in v] for v in vectors])

        with root.add_instance(interface("embedder")) as _embedder:
            embedder = _Guarded(_embedder, state)
            embedder.add_func("embed", embed)
            embedder.add_func("model-id", lambda _s: state.embedder.model_id)
            embedder.add_func("dimension", lambda _s: int(state.embedder.dimension))

        # ---- llm ----
        def complete(_s: Any, request: Any) -> Any:
            s = shape("llm", "complete")
            model = state.llm
            try:
                text = state.unlocked(model.is_remote, lambda: model.complete(
                    field(request, "system"), field(request, "prompt"), field(request, "max_tokens")))
            except LlmUnavailable as e:
                return s.err("unavailable", str(e))
            except Exception as e:  # a model of the caller's own that failed otherwise
                return s.err("unavailable", f"the language model failed: {e}")
            return s.ok(text)

        with root.add_instance(interface("llm")) as _llm:
            llm = _Guarded(_llm, state)
            llm.add_func("complete", complete)

        # ---- clock, ids, log, settings, types ----
        with root.add_instance(interface("clock")) as _clock:
            clock = _Guarded(_clock, state)
            clock.add_func("now", lambda _s: state.clock.now())
        with root.add_instance(interface("ids")) as _ids:
            ids = _Guarded(_ids, state)
            ids.add_func("new-id", lambda _s: state.ids.next())

        levels = {"debug": logging.DEBUG, "info": logging.INFO, "warn": logging.WARNING, "error": logging.ERROR}

        def progress(_s: Any, task: str, done: int, total: int) -> None:
            if total:
                guest_log.debug("%s: %d/%d", task, done, total)

        with root.add_instance(interface("log")) as _logi:
            logi = _Guarded(_logi, state)
            logi.add_func("log", lambda _s, level, message: guest_log.log(levels.get(level, logging.INFO), "%s", message))
            logi.add_func("progress", progress)
        with root.add_instance(interface("settings")) as _settings:
            settings = _Guarded(_settings, state)
            settings.add_func("get", lambda _s: record(
                supersession_threshold=float(state.supersession_threshold), max_entries=state.max_entries,
                extraction_enabled=bool(state.extraction_enabled),
                extraction_confidence_threshold=float(state.extraction_confidence_threshold),
                local_embedder=not state.embedder.is_remote,
                decay_told_facts=bool(state.decay_told_facts),
                weak_similarity=float(getattr(state.embedder, "weak_similarity", 0.0))))
        with root.add_instance(interface("types")):
            pass


class Sandbox:
    """The compiled component, its linker, and the live instance, if any."""

    def __init__(self, engine: wasmtime.Engine, component: wc.Component, state: HostState,
                 fuel_per_call: int, memory_limit_mib: int) -> None:
        self.engine = engine
        self.component = component
        self.state = state
        self.fuel_per_call = fuel_per_call
        self.memory_limit_mib = memory_limit_mib
        self.linker = wc.Linker(engine)
        try:
            define_imports(self.linker, component, engine, state)
        except wasmtime.WasmtimeError as e:
            raise SandboxError(f"cannot load the policy component: {e}") from e
        self._store: wasmtime.Store | None = None
        self._instance: wc.Instance | None = None
        self._funcs: dict[tuple[str, str], wc.Func] = {}

    def instantiate(self) -> None:
        """Makes a fresh instance in a fresh store, with the memory cap."""
        store = wasmtime.Store(self.engine)
        store.set_limits(memory_size=self.memory_limit_mib << 20)
        store.set_fuel(self.fuel_per_call)
        try:
            instance = self.linker.instantiate(store, self.component)
        except wasmtime.WasmtimeError as e:
            raise SandboxError(f"cannot load the policy component: {e}") from e
        self._store, self._instance, self._funcs = store, instance, {}

    def _func(self, iface: str, name: str) -> wc.Func:
        key = (iface, name)
        f = self._funcs.get(key)
        if f is None:
            assert self._instance is not None and self._store is not None
            idx = self._instance.get_export_index(self._store, interface(iface))
            fidx = self._instance.get_export_index(self._store, name, idx) if idx else None
            f = self._instance.get_func(self._store, fidx) if fidx else None
            if f is None:
                raise SandboxError(f"cannot load the policy component: it exports no {interface(iface)}#{name}")
            self._funcs[key] = f
        return f

    def call(self, iface: str, name: str, *args: Any) -> Any:
        """Calls one export under the limits; a trap drops the instance."""
        if self._instance is None:
            self.instantiate()
        assert self._store is not None
        func = self._func(iface, name)
        self._store.set_fuel(self.fuel_per_call)
        try:
            result = func(self._store, *args)
            func.post_return(self._store)
        except Exception as e:
            # A trapped instance may not be entered again: the next call makes a new one.
            self._store, self._instance, self._funcs = None, None, {}
            interrupt, self.state.interrupt = self.state.interrupt, None
            if interrupt is not None:
                raise interrupt from None
            raise self._describe(e) from e
        return result

    def _describe(self, e: Exception) -> SandboxError:
        text = str(e)
        if "fuel" in text:
            return SandboxError(
                f"the policy component used up its budget of {self.fuel_per_call} fuel units "
                "for one call and was stopped")
        if "growing memory" in text or "memory limit" in text:
            return SandboxError(
                f"the policy component exceeded its memory limit of {self.memory_limit_mib} MiB and was stopped")
        if isinstance(e, wasmtime.WasmtimeError):
            return SandboxError(f"the policy component failed: {text}")
        return SandboxError(f"the policy component failed: a host import raised {type(e).__name__}: {text}")
