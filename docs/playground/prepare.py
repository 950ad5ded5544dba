"""Make the playground servable: build purepca's wheel into wheels/purepca.whl beside index.html.

    python docs/playground/prepare.py            # then: (cd docs/playground && npm ci)
    python -m http.server -d docs/playground -b 127.0.0.1 8000

Pyodide comes from npm (``npm ci`` here installs the version package-lock.json
pins into node_modules/, which git ignores); the wheel is built from this
checkout with setuptools' build backend (no network: setuptools must be
installed, as it is in the test environment).  ``--out DIR`` writes the wheel
elsewhere (the tests do).
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "wheels"), help="where purepca.whl goes (default: wheels/)")
    args = parser.parse_args()
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
