"""The README's Python example runs as written (from the repository root)."""

import os
import re
import runpy
import subprocess
import sys

from conftest import ROOT


def _readme_example():
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## From Python"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_readme_python_example_runs():
    code = _readme_example()
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # print(orbit.period, orbit.stable): the walker's stable gait (Bhounsule 2014, Table 1).
    period, stable = lines[0].split()
    assert abs(float(period) - 3.8824637) < 1e-6 and stable == "True"


def test_walker_example_runs(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "python" / "examples" / "walker.py"), str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "period_doubling" in out.stdout


def test_basin_example_runs(tmp_path):
    # A 12 × 12 grid: the example's code path (Dask LocalCluster when distributed is there,
    # the figure when matplotlib is) at a small size.
    out = subprocess.run([sys.executable, str(ROOT / "python" / "examples" / "basin.py"),
                          str(tmp_path), "12"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "144 starts" in out.stdout and "A0 (period 1)" in out.stdout
