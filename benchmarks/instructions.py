"""Count the instructions of a fit and of a transform, this checkout beside
others, with valgrind's callgrind: the same count whatever else the machine
is doing, where timings on a shared machine move by 10 % or more.

Run from the repository root (valgrind must be on PATH):

    python3 benchmarks/instructions.py --baseline /tmp/before
    python3 benchmarks/instructions.py --baseline /tmp/a --baseline /tmp/b \\
        --python ~/.pyenv/versions/3.13.0/bin/python --shape 4000x20

Each count is of one whole process: importing purepca, drawing the data and
running the workload ``k`` times.  A process with ``k = 1`` and one with
``k = 3`` are counted, and half their difference is the workload's own
count, without the import and the data.  Under callgrind a process runs about
50 times slower: 2,000 x 50 takes about a minute a checkout.

This counts CPython's work, not its speed: a cache miss costs no
instruction.  Two checkouts with the same count and different medians in
bench_pca.py differ by the machine, not by the code.  PyPy's JIT compiles
at run time, so its counts are not comparable from run to run; time it
with bench_pca.py instead.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from typing import Optional

#: What one process runs: the checkout first on sys.path, then k workloads.
_WORKLOAD = r"""
import random, sys
sys.path.insert(0, sys.argv[1])
from purepca import PCA
n, d = (int(v) for v in sys.argv[2].split("x"))
what, k = sys.argv[3], int(sys.argv[4])
rng = random.Random(7)
X = [[rng.gauss(0, 1) / (1 + 0.2 * j) + 3.0 for j in range(d)] for _ in range(n)]
model = PCA().fit(X) if what == "transform" else None
for _ in range(k):
    if what == "fit":
        PCA().fit(X)
    else:
        model.transform(X)
"""


def count(python: str, root: str, shape: str, what: str, k: int) -> int:
    """The instructions callgrind counts in one process running ``what`` ``k`` times."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-c",
                               _WORKLOAD, root, shape, what, str(k)], capture_output=True, text=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode or found is None:
            raise SystemExit(f"{root}: callgrind failed:\n{done.stderr[-2000:]}")
        return int(found.group(1))


def per_call(python: str, root: str, shape: str, what: str) -> float:
    """Instructions of one ``what``: half the difference of 3 and 1 in a process."""
    return (count(python, root, shape, what, 3) - count(python, root, shape, what, 1)) / 2


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--baseline", action="append", default=[], help="another checkout (repeatable)")
    parser.add_argument("--python", action="append", default=[], help="an interpreter (repeatable; default this one)")
    parser.add_argument("--shape", default="2000x50", help="rows x columns of the data (default 2000x50)")
    parser.add_argument("--only", choices=["fit", "transform"], help="count one workload only")
    args = parser.parse_args(argv)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    roots = [here] + [os.path.abspath(b) for b in args.baseline]
    works = [args.only] if args.only else ["fit", "transform"]
    print(f"millions of instructions per call, {args.shape}; last column: change from the first baseline")
    for python in args.python or [sys.executable]:
        version = subprocess.run([python, "-c", "import platform; print(platform.python_implementation(), "
                                  "platform.python_version())"], capture_output=True, text=True).stdout.strip()
        for what in works:
            counts = [per_call(python, root, args.shape, what) for root in roots]
            cells = "  ".join(f"{os.path.basename(root) or root}: {c / 1e6:.1f}" for root, c in zip(roots, counts))
            change = f"  {100 * (counts[0] / counts[1] - 1):+.2f} %" if len(counts) > 1 else ""
            print(f"{version:>16} {what:>9}  {cells}{change}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
