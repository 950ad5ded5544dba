"""PCA imputation (missing="em"): plain EM iteration against purepca's accelerated one (SQUAREM).

Run from the repository root:

    python benchmarks/bench_em.py            # scaled and unscaled (the plain runs take a minute or two)
    python benchmarks/bench_em.py --quick    # scaled only

For each data set, 5 % of the cells are removed (seeded).  Both runs take the
same EM step (missMDA's: fit with the holes filled, put the reconstruction in
them) from the same start and stop by the same rule: the estimated distance to
the fixed point, change/(1 - rate), below 1e-10 of the data's spread.  The
table gives the steps, the time (median of 3 for the accelerated run, one plain
run), the ratio plain/accelerated, and the largest difference between the two
imputations relative to the data's largest value.  Where the holes are barely
determined by the other cells at this k (iris here: rows with two of their four
cells missing and k = 2), plain EM has not converged after 20,000 steps and
the accelerated one stops at its limit of 1,000 steps with a ConvergenceError,
which the table shows.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from purepca import PCA, ConvergenceError  # noqa: E402
from purepca.datasets import load  # noqa: E402

CASES = [("usarrests", 4, 2), ("iris", 4, 2), ("decathlon", 10, 3)]
PLAIN_LIMIT = 20000


def holed(name: str, d: int, seed: int = 1) -> tuple[list[list[float]], list[list[Optional[float]]]]:
    rows = [row[:d] for row in load(name).rows]
    rng = random.Random(seed)
    out: list[list[Optional[float]]] = [[None if rng.random() < 0.05 else v for v in row] for row in rows]
    return rows, out


def plain(X: list[list[Optional[float]]], k: int, scale: bool) -> tuple[list[list[float]], int]:
    """Plain EM with purepca's stopping rule (the estimated distance to the fixed point)."""
    holes = [(i, j) for i, row in enumerate(X) for j, v in enumerate(row) if v is None]
    d = len(X[0])
    means = [math.fsum(r[j] for r in X if r[j] is not None) / sum(1 for r in X if r[j] is not None)  # type: ignore
             for j in range(d)]
    filled = [[means[j] if v is None else float(v) for j, v in enumerate(row)] for row in X]
    spread = max(max(col) - min(col) for col in zip(*filled))
    tol = PCA.EM_TOL * spread
    last = math.inf
    model = PCA(k, scale=scale)
    for step in range(1, PLAIN_LIMIT + 1):
        model.fit(filled)
        rebuilt = model.inverse_transform(model.transform(filled))
        change = math.sqrt(math.fsum((rebuilt[i][j] - filled[i][j]) ** 2 for i, j in holes))
        biggest = max(abs(rebuilt[i][j] - filled[i][j]) for i, j in holes)
        for i, j in holes:
            filled[i][j] = rebuilt[i][j]
        rate = min(change / last, 1 - 1e-9) if last > 0 and math.isfinite(last) else 0.0
        last = change
        if step > 1 and biggest / (1 - rate) <= tol:
            return filled, step
    return filled, PLAIN_LIMIT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="scaled data only")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; 5 % of the cells missing; tolerance {PCA.EM_TOL:g} of the spread")
    header = f"{'data':<10} {'k':>2} {'scaled':>6} {'plain steps':>11} {'time':>8} {'SQUAREM steps':>13} {'time':>8} " \
             f"{'ratio':>6} {'difference':>10}"
    print(header)
    print("-" * len(header))
    for scale in (True,) if args.quick else (True, False):
        for name, d, k in CASES:
            rows, X = holed(name, d)
            t = time.perf_counter()
            slow, steps = plain(X, k, scale)
            t_plain = time.perf_counter() - t
            times = []
            try:
                for _ in range(3):
                    t = time.perf_counter()
                    fast = PCA(k, scale=scale, missing="em").fit(X)
                    times.append(time.perf_counter() - t)
            except ConvergenceError as err:
                shown = f"{steps:>11}" if steps < PLAIN_LIMIT else f"{'>' + str(PLAIN_LIMIT):>11}"
                print(f"{name:<10} {k:>2} {str(scale):>6} {shown} {t_plain:>7.2f}s  neither converged: {err}")
                continue
            t_fast = statistics.median(times)
            top = max(abs(v) for row in rows for v in row)
            diff = max(abs(a - b) for ra, rb in zip(slow, fast.imputed_) for a, b in zip(ra, rb)) / top
            shown = f"{steps:>11}" if steps < PLAIN_LIMIT else f"{'>' + str(PLAIN_LIMIT):>11}"
            print(f"{name:<10} {k:>2} {str(scale):>6} {shown} {t_plain:>7.2f}s {fast.n_iter_:>13} {t_fast:>7.3f}s "
                  f"{t_plain / t_fast:>6.0f} {diff:>10.1e}")


if __name__ == "__main__":
    main()
