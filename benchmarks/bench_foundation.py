"""Time covariance and jacobi_eigh against textbook Python, mpmath and numpy.

Run from the repository root:

    python benchmarks/bench_foundation.py            # all sizes
    python benchmarks/bench_foundation.py --quick    # the smallest size only

Everything is timed in one run, side by side, and each cell is the median of
several repeats (these machines are shared and noisy).  Ratios are
"other / purepca": above 1 means purepca is faster.  mpmath and numpy are
optional; their columns say "n/a" when they are not installed.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from purepca import covariance_matrix, jacobi_eigh  # noqa: E402
from textbook import textbook_jacobi  # noqa: E402

try:
    import numpy
except ImportError:  # pragma: no cover - optional
    numpy = None  # type: ignore[assignment]
try:
    import mpmath
except ImportError:  # pragma: no cover - optional
    mpmath = None  # type: ignore[assignment]


def textbook_covariance(X: list[list[float]]) -> list[list[float]]:
    """cov(X_i, X_j) = Σ_k (X_ki - x̄_i)(X_kj - x̄_j) / (n - 1), coded as written."""
    n, d = len(X), len(X[0])
    mean = [0.0] * d
    for j in range(d):
        s = 0.0
        for k in range(n):
            s += X[k][j]
        mean[j] = s / n
    C = [[0.0] * d for _ in range(d)]
    for i in range(d):
        for j in range(d):
            s = 0.0
            for k in range(n):
                s += (X[k][i] - mean[i]) * (X[k][j] - mean[j])
            C[i][j] = s / (n - 1)
    return C


def median_time(fn: Callable[[], Any], repeats: int, budget: float) -> float:
    """Median of up to ``repeats`` timings, stopping early past ``budget`` seconds.

    On PyPy every implementation gets one untimed call first, so that the
    cells compare compiled code rather than how long the JIT takes to warm
    up (``bench_pca.py`` times cold calls in fresh processes instead).
    """
    if sys.implementation.name == "pypy":
        fn()
    times = []
    start = time.perf_counter()
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - start > budget:
            break
    return statistics.median(times)


def fmt(seconds: Optional[float]) -> str:
    if seconds is None:
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def ratio(other: Optional[float], ours: float) -> str:
    return "n/a" if other is None else f"{other / ours:.2f}x"


def data(n: int, d: int, seed: int = 0) -> list[list[float]]:
    rng = random.Random(seed)
    latent = [[rng.gauss(0, 1) for _ in range(3)] for _ in range(n)]
    return [[100.0 + sum(l * math.sin(i + j + 1) for i, l in enumerate(row)) + rng.gauss(0, 0.1 * (j + 1))
             for j in range(d)] for row in latent]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the smallest size")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sizes = [(1000, 10)] if args.quick else [(1000, 10), (10_000, 50), (2000, 100)]
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
          f"numpy {getattr(numpy, '__version__', 'absent')}, mpmath {getattr(mpmath, '__version__', 'absent')}")
    print(f"# medians of up to {args.repeats} runs; ratio = other time / purepca time\n")

    print("## covariance_matrix (n x d data -> d x d)\n")
    print("| n x d | purepca | textbook | numpy.cov | textbook/purepca | numpy/purepca |")
    print("|---|---|---|---|---|---|")
    matrices = {}
    for n, d in sizes:
        X = data(n, d)
        ours = median_time(lambda: covariance_matrix(X), args.repeats, 20)
        book = median_time(lambda: textbook_covariance(X), args.repeats, 20)
        npt = None
        if numpy is not None:
            arr = numpy.array(X)
            npt = median_time(lambda: numpy.cov(arr, rowvar=False), args.repeats * 4, 5)
        print(f"| {n:,} x {d} | {fmt(ours)} | {fmt(book)} | {fmt(npt)} | {ratio(book, ours)} | {ratio(npt, ours)} |")
        matrices[d] = covariance_matrix(X)

    print("\n## jacobi_eigh (d x d covariance of the data above)\n")
    print("| d | purepca | textbook Jacobi | mpmath.eigsy (53 bits) | numpy.linalg.eigh "
          "| textbook/purepca | mpmath/purepca | numpy/purepca |")
    print("|---|---|---|---|---|---|---|---|")
    for d, C in matrices.items():
        ours = median_time(lambda: jacobi_eigh(C), args.repeats, 20)
        book = median_time(lambda: textbook_jacobi(C), args.repeats, 30)
        mpt = None
        if mpmath is not None:
            def run_mpmath() -> None:
                with mpmath.workprec(53):
                    mpmath.eigsy(mpmath.matrix(C))
            mpt = median_time(run_mpmath, args.repeats, 60)
        npt = None
        if numpy is not None:
            arr = numpy.array(C)
            npt = median_time(lambda: numpy.linalg.eigh(arr), args.repeats * 4, 5)
        print(f"| {d} | {fmt(ours)} | {fmt(book)} | {fmt(mpt)} | {fmt(npt)} | {ratio(book, ours)} "
              f"| {ratio(mpt, ours)} | {ratio(npt, ours)} |")


if __name__ == "__main__":
    main()
