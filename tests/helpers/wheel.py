"""kg as users install it: the wheel built from the tree, installed into a fresh venv.

The venv reaches the dependencies already installed for this interpreter through a ``.pth``
file (a path line: no ``.pth`` file of that folder is processed, so an editable install of the
checkout stays out of reach), and the wheel is installed with ``--no-deps``: no package index
is asked. The tests' demo graph is built by the ``kg`` of that venv (``tests/conftest.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("kg", "loaders", "queries", "visuals")  # pyproject's packages
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")


def run(command: list, merged: bool = False, **kwargs) -> subprocess.CompletedProcess:
    """``command`` run to its end; ``merged``: stderr into stdout, as a terminal shows them. Its
    output is in the error if it fails."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT} if merged else {"capture_output": True}
    done = subprocess.run([str(c) for c in command], text=True, timeout=900, **streams, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


def build_wheel(work: Path) -> Path:
    """The wheel of a copy of the tree's shipped parts (the build writes build/ and egg-info there,
    not into the checkout), built by this interpreter's setuptools without a build venv."""
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in SHIPPED:
        shutil.copytree(ROOT / package, source / package, ignore=IGNORED)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
         "-w", work / "dist", source])
    (wheel,) = (work / "dist").glob("kg-*.whl")
    return wheel


def fresh_venv(folder: Path) -> Path:
    """A venv without pip whose ``sys.path`` ends with this interpreter's site-packages; its python."""
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(folder)
    python = folder / ("Scripts" if os.name == "nt" else "bin") / "python"
    own = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    (Path(own) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return python


def installed_wheel(work: Path) -> Path:
    """The python of a fresh venv (``work/venv``) holding the wheel built from the tree."""
    wheel = build_wheel(work)
    python = fresh_venv(work / "venv")
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "--quiet", wheel])
    return python


def user_env() -> dict:
    """The environment of a user's shell: no PYTHONPATH pointing into the checkout."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
