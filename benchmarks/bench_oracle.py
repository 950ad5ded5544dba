"""Time the oracle side by side with another checkout: reference(), a comparison with a given reference,
and ``purepca verify`` of a 10,000 x 50 answer (seconds and peak memory).

Run from the repository root, with a second checkout to compare with (issue 42 quotes 1d257ef):

    git worktree add /tmp/base 1d257ef
    python benchmarks/bench_oracle.py --before /tmp/base          # medians of 3 runs each
    python benchmarks/bench_oracle.py --before /tmp/base --runs 5 --only reference

Every measurement runs in a fresh interpreter with that checkout first on ``sys.path`` (the two never share
a process, a cache or an import), one checkout after the other for each run, so a busy machine slows both
alike.  ``reference()`` and ``compare_pca(ref=)`` are CPU seconds (``time.process_time``) of one call on
500 x 200 Gaussian data with a decaying spectrum (column j has spread 1/(1 + 0.2 j)), the answer being
scikit-learn's ``PCA(svd_solver="full")`` (or purepca's own fit without it); ``verify`` is the CPU time and
peak resident memory (``VmHWM`` where /proc has it, else ``ru_maxrss``) of ``python -m purepca verify``
on a 10,000 x 50 CSV and a JSON answer.

Measured at ed95840 beside 1d257ef (CPython 3.11.7, 2 cores shared with other work, medians of 3):

| measurement | ed95840 | 1d257ef | ratio |
|---|---|---|---|
| reference() of 500 x 200, CPU s | 7.29 s | 11.81 s | 0.62 |
| compare_pca(ref=) of 500 x 200, CPU s | 0.24 s | 1.20 s | 0.20 |
| verify of 10,000 x 50: CPU s, peak MB | 5.51 s, 71 MB | 8.64 s, 135 MB | 0.64, 0.53 |

With the Rayleigh–Ritz step from the columns' Gram where no vector's products cancel (issue 42, item 2):
verify of 10,000 x 50 2.98 s, 71 MB against 8.13 s, 135 MB (0.37, 0.53).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

_REFERENCE = """
import random, time, sys
from purepca.testing import reference
n, d = {n}, {d}
rng = random.Random(0)
X = [[rng.gauss(0, 1) / (1 + 0.2 * j) for j in range(d)] for _ in range(n)]
t = time.process_time(); reference(X); print(time.process_time() - t)
"""

_COMPARE = """
import random, time, sys
from purepca.testing import reference, compare_pca
n, d = {n}, {d}
rng = random.Random(0)
X = [[rng.gauss(0, 1) / (1 + 0.2 * j) for j in range(d)] for _ in range(n)]
try:
    import numpy as np
    from sklearn.decomposition import PCA
    theirs = PCA(svd_solver="full").fit(np.array(X))
except ImportError:
    from purepca import PCA
    theirs = PCA().fit(X)
ref = reference(X)
t = time.process_time(); checks = compare_pca(theirs, X, ref=ref); print(time.process_time() - t)
assert all(c.passed for c in checks), [c.line() for c in checks if not c.passed]
"""

_VERIFY = """
import resource, sys, time
from purepca.cli import main
t = time.process_time()
code = main(["verify", "--data", {data!r}, "--result", {result!r}, "--output", {out!r}])
cpu = time.process_time() - t
try:  # this process's own high-water mark: ru_maxrss keeps the parent's across fork and exec (this script's
    # parent held the 10,000 x 50 data and a fit: 88 MB, above what verify itself reached)
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(cpu, peak, code)
"""


def run(checkout: str, code: str) -> list[float]:
    env = dict(os.environ, PYTHONPATH=checkout)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=checkout,
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: {done.stderr[-2000:]}")
    return [float(x) for x in done.stdout.split()]


def verify_files(folder: str, n: int, d: int) -> tuple[str, str]:
    rng = random.Random(1)
    X = [[rng.gauss(0, 1) / (1 + 0.2 * j) for j in range(d)] for _ in range(n)]
    data = os.path.join(folder, "X.csv")
    with open(data, "w") as f:
        f.write(",".join(f"c{j}" for j in range(d)) + "\n")
        f.writelines(",".join(repr(x) for x in row) + "\n" for row in X)
    sys.path.insert(0, str(HERE))
    from purepca import PCA  # the answer: any correct PCA will do, and this one needs nothing installed

    fitted = PCA().fit(X)
    result = os.path.join(folder, "theirs.json")
    with open(result, "w") as f:
        json.dump({"components_": fitted.components_, "explained_variance_": fitted.explained_variance_,
                   "mean_": fitted.mean_}, f)
    return data, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default=None, help="another checkout's root to measure side by side")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("reference", "compare", "verify"), default=None)
    parser.add_argument("--size", default="500x200", help="n x d of reference() and compare_pca (default 500x200)")
    parser.add_argument("--verify-size", default="10000x50")
    args = parser.parse_args()
    checkouts = [("this checkout", str(HERE))] + ([("before", args.before)] if args.before else [])
    n, d = (int(x) for x in args.size.split("x"))
    vn, vd = (int(x) for x in args.verify_size.split("x"))
    folder = tempfile.mkdtemp()
    data, result = verify_files(folder, vn, vd) if args.only in (None, "verify") else ("", "")
    jobs = {
        "reference": (f"reference() of {n} x {d}, CPU s", _REFERENCE.format(n=n, d=d)),
        "compare": (f"compare_pca(ref=) of {n} x {d}, CPU s", _COMPARE.format(n=n, d=d)),
        "verify": (f"verify of {vn:,} x {vd}: CPU s, peak MB",
                   _VERIFY.format(data=data, result=result, out=os.path.join(folder, "report.txt"))),
    }
    print(f"Python {platform.python_implementation()} {platform.python_version()}; median of {args.runs} runs\n")
    print("| measurement | " + " | ".join(name for name, _ in checkouts) + " |")
    print("|---" * (len(checkouts) + 1) + "|")
    for key, (label, code) in jobs.items():
        if args.only not in (None, key):
            continue
        got: dict[str, list[list[float]]] = {name: [] for name, _ in checkouts}
        for _ in range(args.runs):
            for name, path in checkouts:
                got[name].append(run(path, code))
        cells = []
        for name, _ in checkouts:
            values = got[name]
            if key == "verify":
                cells.append(f"{statistics.median(v[0] for v in values):.2f} s, "
                             f"{statistics.median(v[1] for v in values):.0f} MB")
            else:
                cells.append(f"{statistics.median(v[0] for v in values):.2f} s")
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
