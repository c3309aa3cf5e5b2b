"""The host side of the WIT imports and the one module that owns wasmtime's instances.

Each import is defined on a component Linker as a thin adapter over a capability module
(fs, sql, embedder, llm, clock, ids, log, settings). wasmtime-py represents WIT values as
Python values: records as objects with one attribute per field (kebab-case names), enums as
strings, options as the value or None, tuples as tuples, lists as lists, resources as
`ResourceHost`/`ResourceAny` handles. Variants and results are plain payloads when their
cases can be told apart by Python type, else `Variant(tag, payload)` objects; `_ResultShape`
asks the component's own types which, so that every import answers in the representation
wasmtime expects.

Every exported call runs under a fuel budget and a linear-memory cap; a trap throws the
instance away (and closes the files it held open) and the next call gets a fresh one.
"""

from __future__ import annotations

import base64
import binascii
import logging
from typing import Any, Callable, Sequence

import wasmtime
from wasmtime import component as wc
from wasmtime.component import Record, ResourceHost, ResourceType, Variant

from .clock import Clock
from .embedder import EmbedDimensionMismatch, Embedder, EmbedUnavailable
from .errors import SandboxError
from .fs import FsError, HomeFs
from .home import Home, HomeLock
from .ids import IdSource
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

    def __init__(self, home: Home, fs: HomeFs, sql: SqlConnection, embedder: Embedder,
                 llm: Llm, clock: Clock, ids: IdSource, supersession_threshold: float,
                 max_entries: int | None, extraction_enabled: bool = True,
                 extraction_confidence_threshold: float = 0.7, decay_told_facts: bool = False) -> None:
        self.home = home
        self.fs = fs
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

    def unlocks_for(self, service: str) -> bool:
        """Whether the lock is let go while the component waits on `service` (`embedder` or
        `llm`): only for one over the network, so that a slow one never stalls other processes."""
        model = self.llm if service == "llm" else self.embedder
        return self.lock is not None and bool(model.is_remote)

    def unlock(self) -> None:
        """Lets the lock go (the component has committed what the call wrote so far)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def relock(self) -> str | None:
        """Takes the lock back after a remote call; why it cannot, or None. When it cannot,
        the call may write nothing more and fails as busy."""
        try:
            self.lock = self.home.lock()
            return None
        except Exception as e:  # Busy or io
            self.lock_lost = str(e)
            return self.lock_lost

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

    def add_resource(self, name: str, ty: ResourceType, dtor: Callable[[Any, int], None]) -> None:
        self._inner.add_resource(name, ty, dtor)


def define_imports(linker: wc.Linker, component: wc.Component, engine: wasmtime.Engine,
                   state: HostState) -> None:
    """Defines every import of the composed component on `linker`, served by `state`."""
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

    with linker.root() as root:
        with root.add_instance(interface("fs")) as _fs:
            define_fs(_Guarded(_fs, state), state, lambda fname: shape("fs", fname))

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
                vectors = emb.embed(list(texts))
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
                text = model.complete(field(request, "system"), field(request, "prompt"),
                                      field(request, "max_tokens"))
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


#: The `file` resource's type id: one type, every instance's handles carry its rep.
FILE_RESOURCE = 1


def define_fs(fs: _Guarded, state: HostState, shape: Callable[[str], _ResultShape]) -> None:
    """Defines `ash:memory/fs` (its functions and its `file` resource) over `state.fs`. A
    `file` is an own handle carrying the rep of the open file in `state.fs`'s table; its
    methods get a borrowed handle (a `ResourceAny`) as their first argument."""
    home = state.fs
    file_type = ResourceType.host(FILE_RESOURCE)

    def call(fname: str, f: Callable[[], Any]) -> Any:
        s = shape(fname)
        try:
            return s.ok(f())
        except FsError as e:
            return s.err(e.kind, e.message)

    def method(fname: str, f: Callable[..., Any]) -> None:
        def run(store: Any, handle: Any, *args: Any) -> Any:
            return call(f"[method]file.{fname}", lambda: f(home.file(handle.to_host(store).rep), *args))

        fs.add_func(f"[method]file.{fname}", run)

    def opened(path: str, how: str) -> ResourceHost:
        return ResourceHost.own(home.open(path, how), FILE_RESOURCE)

    fs.add_resource("file", file_type, lambda _s, rep: home.drop(rep))
    method("stat", lambda f: _meta(f.stat()))
    method("read-at", lambda f, offset, length: _to_wit_bytes(f.read_at(offset, length)))
    method("write-at", lambda f, offset, data: f.write_at(offset, _from_wit_bytes(data)))
    method("set-len", lambda f, length: f.set_len(length))
    method("sync-data", lambda f: f.sync_data())
    method("sync-all", lambda f: f.sync_all())
    fs.add_func("open", lambda _s, path, how: call("open", lambda: opened(path, how)))
    fs.add_func("stat", lambda _s, path: call("stat", lambda: _meta(home.stat(path))))
    fs.add_func("read-from", lambda _s, path, offset: call("read-from", lambda: _read_from(home.read_from(path, offset))))
    fs.add_func("overwrite", lambda _s, path, data: call("overwrite", lambda: home.overwrite(path, _from_wit_bytes(data))))
    fs.add_func("read-whole", lambda _s, path: call("read-whole", lambda: _to_wit_bytes(home.read_whole(path))))
    fs.add_func("rename", lambda _s, src, dst: call("rename", lambda: home.rename(src, dst)))
    fs.add_func("remove", lambda _s, path: call("remove", lambda: home.remove(path)))
    fs.add_func("list", lambda _s, path: call("list", lambda: home.list(path)))
    fs.add_func("sync-dir", lambda _s, path: call("sync-dir", lambda: home.sync_dir(path)))
    fs.add_func("random", lambda _s: home.random())
    fs.add_func("process-id", lambda _s: home.process_id())
    # The lock around remote calls: the component asks, commits, and lets it go.
    fs.add_func("unlocks-for", lambda _s, service: state.unlocks_for(service))
    fs.add_func("unlock", lambda _s: state.unlock())

    def relock(_s: Any) -> Any:
        lost = state.relock()
        return shape("lock").ok(None) if lost is None else shape("lock").err("io", lost)

    fs.add_func("lock", relock)


def _meta(m: tuple[int, int, int]) -> Record:
    return record(len=m[0], ino=m[1], dev=m[2])


def _read_from(read: tuple[tuple[int, int, int], bytes]) -> tuple[Record, Variant]:
    return _meta(read[0]), _to_wit_bytes(read[1])


def _to_wit_bytes(data: bytes) -> Variant:
    """`fs.bytes`: text when the bytes are UTF-8 (a string crosses whole; a `list<u8>`
    would cross one byte at a time), base64 when not."""
    try:
        return Variant("text", data.decode("utf-8"))
    except UnicodeDecodeError:
        return Variant("base64", base64.b64encode(data).decode("ascii"))


def _from_wit_bytes(data: Variant) -> bytes:
    if data.tag == "text":
        return data.payload.encode("utf-8")
    try:
        return base64.b64decode(data.payload, validate=True)
    except (binascii.Error, ValueError) as e:
        raise FsError("io", f"the component's bytes are not base64: {e}") from None


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
        self.drop_instance()
        store = wasmtime.Store(self.engine)
        store.set_limits(memory_size=self.memory_limit_mib << 20)
        store.set_fuel(self.fuel_per_call)
        try:
            instance = self.linker.instantiate(store, self.component)
        except wasmtime.WasmtimeError as e:
            raise SandboxError(f"cannot load the policy component: {e}") from e
        self._store, self._instance, self._funcs = store, instance, {}

    def drop_instance(self) -> None:
        """Forgets the instance, if any: a trapped one may not be entered again, and the next
        call makes a new one. Its index may have stopped inside a transaction: closing the
        connection rolls that back; the files it held open are closed."""
        if self._instance is None:
            return
        self._store, self._instance, self._funcs = None, None, {}
        self.state.sql.close()
        self.state.fs.close_all()

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
            self.drop_instance()
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
