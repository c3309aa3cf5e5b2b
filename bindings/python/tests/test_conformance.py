"""The conformance suite (tests/conformance/*.json, and this package's own scenarios) and
the runner's command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ash_memory.conformance import main, mismatch

HERE = Path(__file__).parent
SUITE = sorted((HERE.parents[2] / "tests" / "conformance").glob("*.json"))
OWN = sorted((HERE / "scenarios").glob("*.json"))


@pytest.mark.parametrize("scenario", SUITE + OWN, ids=lambda p: p.stem)
def test_scenario_passes(scenario: Path, capsys: pytest.CaptureFixture[str]):
    code = main([str(scenario)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines()[-1] == "1 passed, 0 failed"


def test_a_failing_scenario_prints_the_difference_and_exits_1(tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({
        "description": "expects the wrong id",
        "now": "2026-03-01T12:00:00Z",
        "steps": [{"method": "memory.add", "params": {"content": "I like tea"},
                   "expect": {"memories": [{"id": "nope"}]}}],
    }))
    r = subprocess.run([sys.executable, "-m", "ash_memory.conformance", str(bad)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "FAIL  bad: step 1 (memory.add): /memories/0/id: expected \"nope\"" in r.stdout
    assert "got: " in r.stdout and r.stdout.rstrip().endswith("0 passed, 1 failed")


def test_keep_leaves_the_home(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["--keep", str(tmp_path), str(OWN[0])]) == 0
    assert (tmp_path / OWN[0].stem / "memory" / "memories.jsonl").is_file()
    assert main(["--keep", str(tmp_path), str(OWN[0])]) == 1, "refuses a folder that exists"


def test_subset_matching():
    got = {"hits": [{"id": "a", "score": 0.51234, "x": 1}], "notices": []}
    assert mismatch({"hits": [{"id": "a", "score": 0.5123}]}, got) is None
    assert "expected 0 elements" in mismatch({"hits": []}, got)
    assert "/hits/0/id" in mismatch({"hits": [{"id": "b"}]}, got)
    assert "missing" in mismatch({"gone": None}, got)
    assert mismatch({"hits": [{"score": 0.6}]}, got)
    assert mismatch({"flag": True}, {"flag": 1}), "a boolean is not a number"
