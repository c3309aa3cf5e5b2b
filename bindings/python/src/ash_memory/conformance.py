"""The conformance runner: `python -m ash_memory.conformance [--keep DIR] FILES...`.

Runs the scenarios every host of the policy component must pass (format:
`tests/conformance/README.md`): a fresh home per scenario (its `config.toml` written first),
the memory opened once with a fixed clock and sequential ids, then each step as the JSON-RPC
method a client on the owner's socket would call, its result matched against `expect` as a
subset, or its error kind against `error`. Prints one line per scenario (with what differs
on failure) and `N passed, M failed`; exits 1 when any failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from .errors import MemoryError
from .memory import Memory
from .rpc import call

_SCENARIO_KEYS = {"description", "now", "config", "steps"}
_STEP_KEYS = {"note", "now", "method", "params", "expect", "error"}


class ScenarioFailed(Exception):
    """A scenario did not pass; the message says where and why."""


def mismatch(expected: Any, actual: Any, at: str = "") -> str | None:
    """Where `actual` does not match `expected` as a subset, or None when it does: objects
    by their expected members, arrays element by element with the same length, numbers
    within 1e-4, anything else exactly."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, want in expected.items():
            if key not in actual:
                return f"{at}/{key}: missing"
            why = mismatch(want, actual[key], f"{at}/{key}")
            if why:
                return why
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{at}: expected {len(expected)} elements, got {len(actual)}"
        for i, (w, g) in enumerate(zip(expected, actual)):
            why = mismatch(w, g, f"{at}/{i}")
            if why:
                return why
        return None
    if _is_number(expected) and _is_number(actual):
        return None if abs(float(expected) - float(actual)) <= 1e-4 else f"{at}: expected {expected}, got {actual}"
    if type(expected) is not type(actual) and not (_is_number(expected) and _is_number(actual)):
        return f"{at}: expected {_show(expected)}, got {_show(actual)}"
    return None if expected == actual else f"{at}: expected {_show(expected)}, got {_show(actual)}"


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _show(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def _load(file: Path) -> dict[str, Any]:
    try:
        scenario = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ScenarioFailed(f"parsing {file}: {e}") from None
    if not isinstance(scenario, dict):
        raise ScenarioFailed(f"parsing {file}: a scenario is a JSON object")
    unknown = set(scenario) - _SCENARIO_KEYS
    missing = {"description", "now", "steps"} - set(scenario)
    if unknown or missing:
        raise ScenarioFailed(f"parsing {file}: unknown keys {sorted(unknown)}, missing keys {sorted(missing)}")
    for i, step in enumerate(scenario["steps"]):
        if not isinstance(step, dict) or "method" not in step or set(step) - _STEP_KEYS:
            raise ScenarioFailed(f"parsing {file}: step {i + 1} has unknown keys or no method")
    return scenario


def run_one(file: Path, name: str, keep: Path | None) -> int:
    """Runs one scenario; returns how many steps it had, or raises ScenarioFailed."""
    scenario = _load(file)
    with tempfile.TemporaryDirectory() as scratch:
        if keep is not None:
            home = keep / name
            if home.exists():
                raise ScenarioFailed(f"{home} exists; --keep needs a folder without it")
        else:
            home = Path(scratch) / "home"
        home.mkdir(parents=True)
        if scenario.get("config") is not None:
            # Owner-only, as every file of a home.
            fd = os.open(home / "config.toml", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(scenario["config"])
        try:
            memory = Memory(home, now=scenario["now"], ids="sequential")
        except MemoryError as e:
            raise ScenarioFailed(f"opening the memory: {e}") from None
        with memory:
            for i, step in enumerate(scenario["steps"]):
                at = f"step {i + 1} ({step['method']})"
                if step.get("now") is not None:
                    try:
                        memory.set_now(step["now"])
                    except MemoryError as e:
                        raise ScenarioFailed(f"{at}: {e}") from None
                try:
                    result, error = call(memory, step["method"], step.get("params") or {}), None
                except MemoryError as e:
                    result, error = None, e.kind
                why = check(step, result, error)
                if why:
                    raise ScenarioFailed(f"{at}: {why}")
    return len(scenario["steps"])


def check(step: dict[str, Any], result: Any, error: str | None) -> str | None:
    """What is wrong with one step's outcome, or None."""
    want_error = step.get("error")
    if want_error is not None:
        if error == want_error:
            return None
        if error is not None:
            return f"expected error {want_error}, got error {error}"
        return f"expected error {want_error}, got {_show(result)}"
    if error is not None:
        return f"failed with {error}"
    expect = step.get("expect")
    if expect is None:
        return None
    why = mismatch(expect, result)
    return f"{why}\n  got: {_show(result)}" if why else None


def run(files: list[Path], keep: Path | None) -> bool:
    """Runs every scenario, printing a line for each; True when all passed."""
    failed = 0
    for file in files:
        name = file.stem or "scenario"
        try:
            steps = run_one(file, name, keep)
            print(f"ok    {name} ({steps} steps)", flush=True)
        except ScenarioFailed as e:
            failed += 1
            print(f"FAIL  {name}: {e}", flush=True)
    print(f"{len(files) - failed} passed, {failed} failed")
    return failed == 0


def main(argv: list[str] | None = None) -> int:
    """The command line: `python -m ash_memory.conformance [--keep DIR] FILES...`."""
    parser = argparse.ArgumentParser(prog="python -m ash_memory.conformance",
                                     description="Run conformance scenarios against the Python host.")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="leave the home of scenario NAME at DIR/NAME, to compare hosts' files")
    parser.add_argument("files", nargs="+", type=Path, metavar="FILES")
    args = parser.parse_args(argv)
    return 0 if run(args.files, args.keep) else 1


if __name__ == "__main__":
    sys.exit(main())
