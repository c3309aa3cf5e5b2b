"""Finding, hashing and compiling the policy component.

The component is the same `.wasm` the Rust and JavaScript hosts load, byte for byte. It is
looked for in `$ASH_COMPONENT` (a path: for tests and development), then in the package
itself (`ash_memory/ash_memory.wasm`, copied in when the wheel is built; see the
README). Compiling takes a couple of seconds, so the compiled artifact is cached on disk
(`$ASH_CACHE_DIR`, else `$XDG_CACHE_HOME/ash-memory`, else `~/.cache/ash-memory`), keyed by
the wasmtime version and the component's digest, and loaded only when its own digest matches.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from importlib import resources
from pathlib import Path
from typing import Callable, TypeVar

import wasmtime
from wasmtime import component as wc

from .errors import SandboxError

log = logging.getLogger("ash_memory")

COMPONENT_FILE = "ash_memory.wasm"
WASMTIME_VERSION = "50.0.1"

_lock = threading.Lock()
_engine: wasmtime.Engine | None = None
_compiled: dict[str, wc.Component] = {}

#: What `load_cached` compiles: a component or a core module.
Compiled = TypeVar("Compiled", wc.Component, wasmtime.Module)


def component_path() -> Path | None:
    """Where the component comes from: `$ASH_COMPONENT`, else the packaged copy."""
    env = os.environ.get("ASH_COMPONENT")
    if env:
        return Path(env)
    packaged = resources.files("ash_memory") / COMPONENT_FILE
    if packaged.is_file():
        return Path(str(packaged))
    return None


def component_bytes() -> bytes:
    """The component's bytes, or a clear error saying how to provide it."""
    path = component_path()
    if path is None:
        raise SandboxError(
            "cannot load the policy component: the package holds no ash_memory.wasm "
            "and ASH_COMPONENT is not set; set ASH_COMPONENT to the component's path "
            "(`ash-memory component --out FILE` writes it) or install a wheel that includes it"
        )
    try:
        return path.read_bytes()
    except OSError as e:
        raise SandboxError(f"cannot load the policy component: {path}: {e.strerror or e}") from e


def component_sha256() -> str:
    """The sha256 (hex) of the component this package loads."""
    return hashlib.sha256(component_bytes()).hexdigest()


def engine() -> wasmtime.Engine:
    """The process's engine: fuel metering on, so that every call has a budget."""
    global _engine
    with _lock:
        if _engine is None:
            config = wasmtime.Config()
            config.consume_fuel = True
            _engine = wasmtime.Engine(config)
        return _engine


def default_cache_dir() -> Path | None:
    """`$ASH_CACHE_DIR`, else `$XDG_CACHE_HOME/ash-memory`, else `~/.cache/ash-memory`."""
    if os.environ.get("ASH_CACHE_DIR"):
        return Path(os.environ["ASH_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "ash-memory"
    if os.environ.get("HOME"):
        return Path(os.environ["HOME"]) / ".cache" / "ash-memory"
    return None


def compile_component(wasm: bytes, cache_dir: Path | None) -> wc.Component:
    """Compiles the component once per process, through the on-disk cache."""
    digest = hashlib.sha256(wasm).hexdigest()
    eng = engine()
    with _lock:
        if digest in _compiled:
            return _compiled[digest]
    def compile_() -> wc.Component:
        try:
            return wc.Component(eng, wasm)
        except wasmtime.WasmtimeError as e:
            raise SandboxError(f"cannot load the policy component: {e}") from e

    component = load_cached(eng, wasm, cache_dir, "policy", compile_, wc.Component.deserialize)
    with _lock:
        _compiled[digest] = component
    return component


def load_cached(
    eng: wasmtime.Engine,
    wasm: bytes,
    cache_dir: Path | None,
    kind: str,
    compile_: Callable[[], Compiled],
    deserialize: Callable[[wasmtime.Engine, bytes], Compiled],
) -> Compiled:
    """`compile_()` of `wasm` (a component or a core module, `kind` naming it in temporary
    files), through the on-disk cache in `cache_dir` when there is one."""
    if cache_dir is None:
        return compile_()
    digest = hashlib.sha256(wasm).hexdigest()
    path = cache_dir / f"python-wasmtime-{WASMTIME_VERSION}-{digest[:32]}.cwasm"
    digest_path = path.with_suffix(".cwasm.sha256")
    try:
        artifact = path.read_bytes()
        want = digest_path.read_text().strip()
        if hashlib.sha256(artifact).hexdigest() == want:
            # Deserializing trusts the bytes as machine code: only ones whose digest matches.
            return deserialize(eng, artifact)
        log.warning("compiled %s cache %s does not match its digest; compiling again", kind, path)
    except (OSError, wasmtime.WasmtimeError):
        pass
    compiled = compile_()
    # The cache is an optimisation: failing to write it is not an error. The digest is
    # renamed into place last, so a half-written artifact is never trusted.
    try:
        serialized = bytes(compiled.serialize())
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = cache_dir / f".python-{kind}-{os.getpid()}.tmp"
        tmp_digest = cache_dir / f".python-{kind}-{os.getpid()}.sha256.tmp"
        tmp.write_bytes(serialized)
        os.replace(tmp, path)
        tmp_digest.write_text(hashlib.sha256(serialized).hexdigest())
        os.replace(tmp_digest, digest_path)
    except (OSError, wasmtime.WasmtimeError) as e:
        log.debug("cannot cache the compiled %s in %s: %s", kind, cache_dir, e)
    return compiled
