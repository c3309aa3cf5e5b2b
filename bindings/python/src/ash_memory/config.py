"""`config.toml`: optional settings in the home folder, read with the Rust host's keys,
defaults and strictness (config.rs): a missing file means defaults; an unknown key, a
missing required key or a value of the wrong type is an error that names the file."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .embedder import Embedder, OpenAiEmbedder, StaticEmbedder
from .transformer import TransformerEmbedder
from .errors import ConfigError, IoError
from .http import HttpClient
from .llm import Llm, NoLlm, OpenAiLlm

# A version check rather than try/except ImportError, so that mypy reads only the branch
# of the Python it checks for (tomli is not installed on 3.11 and later).
if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

#: Retries after a 429 or 5xx answer, with exponential backoff from 250 ms.
HTTP_RETRIES = 2
#: Fuel per call (about one WebAssembly instruction each): about ten seconds of work, as in
#: the Rust host (a rebuild of 100,000 memories takes 11.3 billion).
DEFAULT_FUEL = 30_000_000_000
#: The most linear memory the component may have, in MiB.
DEFAULT_MEMORY_MIB = 1024

_U64 = (0, (1 << 64) - 1)
_U32 = (0, (1 << 32) - 1)

# Each table's keys and their types: "bool", "str", "u32", "u64", "float".
_TABLES: dict[str, dict[str, str]] = {
    "memory": {"auto_gc": "bool", "max_entries": "u64", "extraction_enabled": "bool",
               "extraction_confidence_threshold": "float", "supersession_threshold": "float",
               "decay_told_facts": "bool", "reflection_check_minutes": "u64"},
    "sandbox": {"fuel_per_call": "u64", "memory_limit_mib": "u64"},
    "llm": {"base_url": "str", "model": "str", "api_key_env": "str", "timeout_secs": "u64"},
    "embedder": {"provider": "str", "base_url": "str", "model": "str", "dimensions": "u32",
                 "api_key_env": "str", "timeout_secs": "u64"},
}
_REQUIRED = {"llm": ("base_url", "model")}


@dataclass
class Config:
    """The parsed `config.toml`: one dict per table, with only the keys given."""

    path: Path
    memory: dict[str, Any] = field(default_factory=dict)
    sandbox: dict[str, Any] = field(default_factory=dict)
    llm: dict[str, Any] | None = None
    embedder: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> "Config":
        """Reads `config.toml`, or defaults if there is none."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except (OSError, UnicodeDecodeError) as e:
            raise IoError(f"{path}: {e}") from e
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: {e}") from e
        config = cls(path)
        for key, value in doc.items():
            if key not in _TABLES:
                raise ConfigError(f"{path}: unknown field `{key}`, expected one of `memory`, `sandbox`, `llm`, `embedder`")
            if not isinstance(value, dict):
                raise ConfigError(f"{path}: `{key}` must be a table")
            setattr(config, key, _check_table(path, key, value))
        confidence = config.memory.get("extraction_confidence_threshold")
        if confidence is not None and not 0 <= confidence <= 1:
            raise ConfigError(
                f"{path}: [memory] extraction_confidence_threshold is {confidence}; it must be from 0 to 1")
        return config

    def build_embedder(self) -> Embedder:
        """The configured embedder: the embedded transformer by default."""
        e = self.embedder
        provider = e.get("provider", "transformer")
        if provider == "static":
            return StaticEmbedder()
        if provider == "openai":
            for key in ("base_url", "model", "dimensions"):
                if key not in e:
                    raise ConfigError(f"{self.path}: [embedder] {key} is required for openai")
            http = HttpClient(float(e.get("timeout_secs", 30)), HTTP_RETRIES, e.get("api_key_env"))
            return OpenAiEmbedder(http, e["base_url"], e["model"], e["dimensions"])
        if provider == "transformer":
            return TransformerEmbedder()
        raise ConfigError(
            f'{self.path}: [embedder] provider "{provider}" is not one of "static", "transformer", "openai"')

    def build_llm(self) -> Llm:
        """The configured language model, or none."""
        if self.llm is None:
            return NoLlm()
        http = HttpClient(float(self.llm.get("timeout_secs", 30)), HTTP_RETRIES, self.llm.get("api_key_env"))
        return OpenAiLlm(http, self.llm["base_url"], self.llm["model"])

    def supersession_threshold(self, embedder: Embedder) -> float:
        """`[memory] supersession_threshold`, else the embedder's own."""
        return float(self.memory.get("supersession_threshold", embedder.supersession_threshold))

    @property
    def extraction_enabled(self) -> bool:
        """`[memory] extraction_enabled`: whether `extract` reads conversations (default true)."""
        return bool(self.memory.get("extraction_enabled", True))

    @property
    def decay_told_facts(self) -> bool:
        """`[memory] decay_told_facts`: whether `gc` archives a told fact once it has
        faded, as it does an extracted one (default false)."""
        return bool(self.memory.get("decay_told_facts", False))

    @property
    def extraction_confidence_threshold(self) -> float:
        """`[memory] extraction_confidence_threshold`: the least confidence a language
        model's fact needs to be stored (default 0.7)."""
        return float(self.memory.get("extraction_confidence_threshold", 0.7))

    @property
    def max_entries(self) -> int | None:
        """`[memory] max_entries` (per scope), if set."""
        return self.memory.get("max_entries")

    @property
    def auto_gc(self) -> bool:
        """`[memory] auto_gc`: run gc when the memory is opened."""
        return self.memory.get("auto_gc") is True

    @property
    def fuel_per_call(self) -> int:
        return int(self.sandbox.get("fuel_per_call", DEFAULT_FUEL))

    @property
    def memory_limit_mib(self) -> int:
        return int(self.sandbox.get("memory_limit_mib", DEFAULT_MEMORY_MIB))


def _check_table(path: Path, table: str, values: dict[str, Any]) -> dict[str, Any]:
    known = _TABLES[table]
    for key, value in values.items():
        kind = known.get(key)
        if kind is None:
            names = ", ".join(f"`{k}`" for k in known)
            raise ConfigError(f"{path}: [{table}] unknown field `{key}`, expected one of {names}")
        if not _fits(kind, value):
            raise ConfigError(f"{path}: [{table}] {key}: invalid type or value {value!r}, expected {_describe(kind)}")
    for key in _REQUIRED.get(table, ()):
        if key not in values:
            raise ConfigError(f"{path}: [{table}] missing field `{key}`")
    return dict(values)


def _fits(kind: str, value: Any) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    lo, hi = _U32 if kind == "u32" else _U64
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def _describe(kind: str) -> str:
    return {"bool": "a boolean", "str": "a string", "float": "a number",
            "u32": "an integer from 0 to 4294967295", "u64": "a non-negative integer"}[kind]
