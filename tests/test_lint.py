"""The code passes ruff's checks as pyproject.toml sets them (CONTRIBUTING: run them before committing)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("kg", "loaders", "queries", "visuals", "tests", "bench")


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *CHECKED], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
