"""The benchmark regression guard flags a drop beyond the noise band and nothing else."""

import json
import subprocess
import sys

from tests.helpers import ROOT
from tradewinds.benchmarks.compare import compare


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
    run = [sys.executable, "-m", "tradewinds.benchmarks.compare"]
    assert subprocess.run(run + [str(a), str(a)], cwd=ROOT, capture_output=True).returncode == 0
    assert subprocess.run(run + [str(a), str(b)], cwd=ROOT, capture_output=True).returncode == 1


def test_guard_flags_a_ratio_that_lost_more_than_a_third_and_nothing_else():
    from tradewinds.benchmarks.guard import drops

    stored = {"ratios": {"hansa kernel / reference": 150.0, "hansa kernel / plain loop": 0.3,
                         "gone": 1.0}}
    fresh = {"ratios": {"hansa kernel / reference": 101.0, "hansa kernel / plain loop": 0.19,
                        "new": 2.0}}
    rows = {name: dropped for name, _, _, _, dropped in drops(stored, fresh)}
    assert rows == {"hansa kernel / reference": False, "hansa kernel / plain loop": True}


def test_guard_without_stored_ratios_says_so(tmp_path, monkeypatch):
    from tradewinds.benchmarks import compare, guard

    monkeypatch.setattr(guard, "measure", lambda: {"ratios": {"x": 1.0}})
    missing = tmp_path / "guard.json"
    assert compare.main(["--guard", str(missing)]) == 2
    assert compare.main(["--guard", "--write", str(missing)]) == 0
    assert compare.main(["--guard", str(missing)]) == 0
    monkeypatch.setattr(guard, "measure", lambda: {"ratios": {"x": 0.5}})
    assert compare.main(["--guard", str(missing)]) == 1
