"""Make the playground servable: build purepca's wheel into wheels/purepca.whl beside index.html.

    python docs/playground/prepare.py            # then: (cd docs/playground && npm ci)
    python -m http.server -d docs/playground -b 127.0.0.1 8000

Pyodide comes from npm (``npm ci`` here installs the version package-lock.json
pins into node_modules/, which git ignores); the wheel is built from this
checkout with setuptools' build backend (no network: setuptools must be
installed, as it is in the test environment, at the version pyproject.toml's
``[build-system] requires`` names: setuptools >= 77, the first to read its
``license = "MIT"`` and ``license-files`` (PEP 639); an older one is refused
with a message saying so).  ``--out DIR`` writes the wheel elsewhere (the
tests do).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import sys
import tempfile
from typing import Optional

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def required_setuptools() -> tuple[int, ...]:
    """The least setuptools version pyproject.toml's ``[build-system] requires`` names, e.g. (77,)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    match = re.search(r'requires\s*=\s*\[[^\]]*"setuptools\s*>=\s*([0-9.]+)"', text)
    return tuple(int(x) for x in match.group(1).split(".")) if match else (0,)


def setuptools_problem(found: Optional[str], needed: tuple[int, ...]) -> Optional[str]:
    """What is wrong with the setuptools installed (version ``found``, None when absent), or None.

    >>> setuptools_problem("80.9.0", (77,)) is None, setuptools_problem("77.0", (77,)) is None
    (True, True)
    >>> print(setuptools_problem("65.5.0", (77,)))
    prepare.py: building purepca's wheel needs setuptools >= 77 (pyproject.toml's license fields, PEP 639); this Python has setuptools 65.5.0: pip install 'setuptools>=77'
    """
    wanted = ".".join(map(str, needed))
    if found is None:
        have = "no setuptools"
    else:
        parts = tuple(int(x) for x in re.findall(r"\d+", found)[:len(needed)])
        if parts >= needed:
            return None
        have = f"setuptools {found}"
    return (f"prepare.py: building purepca's wheel needs setuptools >= {wanted} (pyproject.toml's license fields, "
            f"PEP 639); this Python has {have}: pip install 'setuptools>={wanted}'")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "wheels"), help="where purepca.whl goes (default: wheels/)")
    args = parser.parse_args()
    try:
        import setuptools
        found: Optional[str] = str(getattr(setuptools, "__version__", "0"))
    except ImportError:
        found = None
    problem = setuptools_problem(found, required_setuptools())
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
