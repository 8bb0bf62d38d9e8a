"""Installed as users install it: the wheel built from the tree, installed into a fresh venv,
runs ``kg demo`` there (the bundled abstracts, models, lexicon, templates and query packs are
package data, not files of the checkout).

The venv reaches the dependencies already installed for this interpreter through a ``.pth``
file (a path line: no ``.pth`` file of that folder is processed, so an editable install of the
checkout stays out of reach), and the wheel is installed with ``--no-deps``: no package index
is asked. The test checks that the ``kg`` which ran is the wheel's, under the venv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("kg", "loaders", "queries", "visuals")  # pyproject's packages
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


def build_wheel(into: Path, work: Path) -> Path:
    """The wheel of a copy of the tree's shipped parts (the build writes build/ and egg-info there,
    not into the checkout), built by this interpreter's setuptools without a build venv."""
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in SHIPPED:
        shutil.copytree(ROOT / package, source / package, ignore=IGNORED)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
         "-w", into, source])
    (wheel,) = into.glob("kg-*.whl")
    return wheel


def fresh_venv(folder: Path) -> Path:
    """A venv without pip whose ``sys.path`` ends with this interpreter's site-packages; its python."""
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(folder)
    python = folder / ("Scripts" if os.name == "nt" else "bin") / "python"
    own = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    (Path(own) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return python


@pytest.mark.wheel
def test_the_installed_wheel_runs_the_demo(tmp_path):
    wheel = build_wheel(tmp_path / "dist", tmp_path)
    python = fresh_venv(tmp_path / "venv")
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "--quiet", wheel])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    work = tmp_path / "elsewhere"  # no checkout around: nothing is found relative to the working folder
    work.mkdir()
    where = run([python, "-c", "import kg, queries, visuals; print(kg.__file__, queries.__file__, visuals.__file__)"],
                cwd=work, env=env).stdout.split()
    assert all(Path(w).is_relative_to(tmp_path / "venv") for w in where), where

    kg = python.with_name("kg")
    done = run([kg, "demo", "--db", work / "db", "-o", work / "demo.html"], cwd=work, env=env)
    assert "Papers: 57" in done.stdout, done.stdout
    assert "== overview/top-concepts" in done.stdout and "== papers/sharing-concepts" in done.stdout
    assert (work / "demo.html").stat().st_size > 100_000
    run([kg, "server", "stop", "--db", work / "db"], cwd=work, env=env)
