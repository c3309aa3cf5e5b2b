"""Test setup: the component comes from $ASH_COMPONENT, else the workspace's build output;
the Rust CLI (for interoperability tests) from $ASH_CLI, else target/debug/ash-memory. A
test that needs the CLI skips when there is none, unless ASH_TEST_REQUIRE_CLI=1 (set by CI
and by the Rust suite that runs this one), which makes a missing CLI a failure."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
WORKSPACE = HERE.parents[2]

if not os.environ.get("ASH_COMPONENT"):
    built = WORKSPACE / "target" / "ash_memory.wasm"
    if built.is_file():
        os.environ["ASH_COMPONENT"] = str(built)


def rust_cli() -> str | None:
    """The Rust CLI, if one is built."""
    path = os.environ.get("ASH_CLI") or str(WORKSPACE / "target" / "debug" / "ash-memory")
    return path if Path(path).is_file() or shutil.which(path) else None


@pytest.fixture
def cli():
    """Runs the Rust CLI; skips the test when there is none (fails it under
    ASH_TEST_REQUIRE_CLI=1)."""
    path = rust_cli()
    if path is None:
        why = "no Rust CLI (target/debug/ash-memory or $ASH_CLI)"
        if os.environ.get("ASH_TEST_REQUIRE_CLI") == "1":
            pytest.fail(f"ASH_TEST_REQUIRE_CLI=1 but {why}", pytrace=False)
        pytest.skip(why)

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        # $ASH_COMPONENT names this package's component (the policy with the index in it);
        # the Rust CLI runs its own, which supplies the index natively.
        env = {k: v for k, v in os.environ.items() if k != "ASH_COMPONENT"}
        r = subprocess.run([path, *args], capture_output=True, text=True, env=env)
        if check and r.returncode != 0:
            raise AssertionError(f"ash-memory {' '.join(args)} failed: {r.stderr}")
        return r

    return run


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A folder for a new home."""
    return tmp_path / "home"


def open_in(folder: Path) -> list[str]:
    """The files in `folder` this process holds open."""
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            out.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return sorted(p for p in out if p.startswith(f"{folder}/"))


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of a home but the lock and the index, by relative path."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and rel != ".lock" and not rel.startswith("data/"):
            out[rel] = p.read_bytes()
    return out
