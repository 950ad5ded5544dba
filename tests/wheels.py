"""Building purepca's wheel and sdist from a copy of the source tree: the helpers the packaging tests
(tests/test_package.py, tests/test_face_layout.py; slow tier) share.

``source_tree(tmp_path)`` copies what a build reads (the build writes its egg-info beside it, never in
the checkout) and skips the test where setuptools is missing or too old; ``build(tree, dist, "wheel")``
runs one of setuptools' PEP 517 hooks in a fresh process and returns the built file and what the
build printed.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: The files beside ``purepca/`` a build reads.
BUILD_FILES = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in")


def needs_setuptools() -> None:
    """Skip the calling test where setuptools is not installed or predates the SPDX license string."""
    try:
        import setuptools
    except ImportError:
        pytest.skip("setuptools is not installed in this environment (.ci/test installs it for CPython)")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip(f"setuptools {setuptools.__version__} predates the SPDX license string (needs >= 77)")


def source_tree(tmp_path: pathlib.Path) -> pathlib.Path:
    """``tmp_path/tree``: a copy of the files a build reads and of ``purepca/`` (no bytecode)."""
    needs_setuptools()
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in BUILD_FILES:
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "purepca", tree / "purepca", ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def build(tree: pathlib.Path, dist: pathlib.Path, what: str) -> tuple[pathlib.Path, str]:
    """``build_meta.build_<what>`` (``wheel`` or ``sdist``) of ``tree`` into ``dist``, in a process of its
    own (a second build in one process wrote nothing), every warning shown: the file built and the
    build's output (stdout and stderr); the test fails with the build's error where it fails."""
    code = f"import sys; from setuptools import build_meta; print(build_meta.build_{what}(sys.argv[1]))"
    run = subprocess.run([sys.executable, "-W", "always", "-c", code, str(dist)], cwd=tree, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return dist / run.stdout.strip().splitlines()[-1], run.stdout + run.stderr
