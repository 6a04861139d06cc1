"""The benchmark regression guard flags a drop beyond the noise band and nothing else."""

import json
import subprocess
import sys

from benchmarks.compare import compare
from tests.helpers import ROOT


def _result(kernel, kernel_min):
    rate = {"steps_per_s": kernel, "steps_per_s_min": kernel_min}
    return {"rows": [{"game": "hansa", "players": 3, "kernel": rate, "aec": rate,
                      "reference": None, "batch": {"64": rate}}]}


def test_flags_only_drops_below_the_stored_spread():
    stored = _result(100.0, 90.0)
    assert not any(r[4] for r in compare(stored, _result(95.0, 95.0)))
    assert not any(r[4] for r in compare(stored, _result(80.0, 80.0), tolerance=0.15))
    flagged = compare(stored, _result(70.0, 70.0), tolerance=0.15)
    assert all(r[4] for r in flagged) and len(flagged) == 3


def test_command_exit_codes(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(_result(100.0, 95.0)))
    b.write_text(json.dumps(_result(50.0, 50.0)))
    run = [sys.executable, "-m", "benchmarks.compare"]
    assert subprocess.run(run + [str(a), str(a)], cwd=ROOT, capture_output=True).returncode == 0
    assert subprocess.run(run + [str(a), str(b)], cwd=ROOT, capture_output=True).returncode == 1
