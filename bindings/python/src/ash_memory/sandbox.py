"""The host side of the WIT imports and the one module that owns wasmtime's instances.

Each import of the `policy` world is defined on a component Linker as a thin adapter over a
capability module (files, sql, embedder, llm, clock, ids, log, settings). wasmtime-py
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
from .journal import FileIoError, InvalidLine
from .llm import Llm, LlmUnavailable
from .sql import SqlConnection, SqlFailed, SqlUnusable

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

    def __init__(self, home: Home, files: FileStore, sql: SqlConnection, embedder: Embedder,
                 llm: Llm, clock: Clock, ids: IdSource, supersession_threshold: float,
                 max_entries: int | None, extraction_enabled: bool = True,
                 extraction_confidence_threshold: float = 0.7, decay_told_facts: bool = False) -> None:
        self.home = home
        self.files = files
        self.sql = sql
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

        # ---- sql: the index is the component's own (index/wasm); this runs its statements ----
        def sql_call(fname: str, f: Callable[[], Any], write: bool = False) -> Any:
            s = shape("sql", fname)
            if write and state.writable():
                return s.err("failed", state.writable())
            try:
                return s.ok(f())
            except SqlUnusable as e:
                return s.err("unusable", str(e))
            except SqlFailed as e:
                return s.err("failed", str(e))

        def written(changes: int, last_rowid: int) -> Record:
            return record(changes=changes, last_rowid=last_rowid)

        with root.add_instance(interface("sql")) as _sql:
            sql = _Guarded(_sql, state)
            sql.add_func("open", lambda _s: sql_call("open", state.sql.open))
            sql.add_func("close", lambda _s: state.sql.close())
            sql.add_func("reset", lambda _s: sql_call("reset", state.sql.reset, True))
            sql.add_func("query", lambda _s, statement, params: sql_call(
                "query", lambda: state.sql.query(statement, params)))
            sql.add_func("execute", lambda _s, statement, params: sql_call("execute", lambda: written(
                *state.sql.execute(statement, params)), True))
            sql.add_func("execute-each", lambda _s, statement, width, params: sql_call(
                "execute-each", lambda: state.sql.execute_each(statement, width, params), True))
            sql.add_func("batch", lambda _s, statements: sql_call("batch", lambda: state.sql.batch(statements)))

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
            # Its index may have stopped inside a transaction: closing the connection rolls
            # that back.
            self._store, self._instance, self._funcs = None, None, {}
            self.state.sql.close()
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
