"""Make the playground servable: build purepca's wheel into wheels/purepca.whl beside index.html.

    python docs/playground/prepare.py            # then: (cd docs/playground && npm ci)
    python -m http.server -d docs/playground -b 127.0.0.1 8000

Pyodide comes from npm (``npm ci`` here installs the version package-lock.json
pins into node_modules/, which git ignores); the wheel is built from this
checkout with setuptools' build backend (no network: setuptools must be
installed, as it is in the test environment: at least version 77, which
pyproject.toml's ``[build-system] requires`` names, for its SPDX ``license``
field).  ``--out DIR`` writes the wheel elsewhere (the tests do).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


NEEDED = 77  # pyproject.toml's [build-system] requires = ["setuptools>=77"]


def setuptools_problem() -> str:
    """Why setuptools cannot build the wheel here (missing, or older than 77), or "" when it can."""
    try:
        import setuptools
    except ImportError:
        return (f"prepare.py builds the wheel with setuptools >= {NEEDED}, which is not installed: "
                f"pip install 'setuptools>={NEEDED}'")
    version = getattr(setuptools, "__version__", "0")
    major = int("".join(ch for ch in version.split(".")[0] if ch.isdigit()) or 0)
    if major < NEEDED:
        return (f"prepare.py builds the wheel with setuptools >= {NEEDED} (pyproject.toml's SPDX license field "
                f"needs it); this Python has setuptools {version}: pip install 'setuptools>={NEEDED}'")
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "wheels"), help="where purepca.whl goes (default: wheels/)")
    args = parser.parse_args()
    problem = setuptools_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    from setuptools import build_meta

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            name = build_meta.build_wheel(tmp)
        finally:
            os.chdir(cwd)
        shutil.copyfile(os.path.join(tmp, name), out / "purepca.whl")
    print(f"{out / 'purepca.whl'} (from {name})")
    if not (HERE / "node_modules" / "pyodide" / "pyodide.js").exists():
        print("Pyodide is not installed yet: (cd docs/playground && npm ci)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
