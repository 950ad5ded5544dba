"""Time the distributed reducer: float Moments against Moments(exact=True), and
the rows per second of one partition's reducer; optionally a 10,000,000-row run
through Spark local[2] and Dask processes with each worker's peak memory.

Run from the repository root, under CPython and under PyPy:

    python benchmarks/bench_moments.py            # exact vs float, rows/s at d = 10 and 50
    pypy3 benchmarks/bench_moments.py
    python benchmarks/bench_moments.py --scale    # + 10,000,000 x 10 on Spark and Dask (minutes; needs both)

Each cell is the median of several repeats (the machine is shared and noisy).
Figures measured with it are in docs/distributed.md, section "Scale".
"ratio" is exact / float: the cost of correctly rounded, partition-independent
moments.  Never run in CI.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, List

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from purepca import Moments  # noqa: E402
from purepca.distributed import offset_rows  # noqa: E402


def wide_rows(n: int, d: int, seed: int = 0) -> List[List[float]]:
    """d columns of the issue's kind: offsets of every size, small spreads, a few one-hot columns."""
    rng = random.Random(seed)
    offs = [rng.choice([1.7e9, 48.8566, -3e4, 0.0]) for _ in range(d)]
    spreads = [10.0 ** rng.randrange(-4, 3) for _ in range(d)]
    hot = d // 5
    out = []
    for _ in range(n):
        z = rng.gauss(0, 1)
        row = [o + s * (z + rng.gauss(0, 1)) for o, s in zip(offs[hot:], spreads[hot:])]
        h = [0.0] * hot
        h[rng.randrange(hot)] = 1.0
        out.append(row + h)
    return out


def best_of(f: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def reducer_table(repeats: int) -> None:
    impl = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"\nThe reducer, one partition, {impl} (median of {repeats}; covariance included)")
    print(f"{'data':>12} {'float s':>9} {'exact s':>9} {'ratio':>6} {'float rows/s':>13} {'exact rows/s':>13}")
    for n, d in [(100_000, 10), (10_000, 50)]:
        rows = offset_rows(n, seed=0) if d == 10 else wide_rows(n, d)
        tf = best_of(lambda: Moments.from_rows(rows).covariance(), repeats)
        te = best_of(lambda: Moments.from_rows(rows, exact=True).covariance(), repeats)
        print(f"{f'{n:,}x{d}':>12} {tf:9.3f} {te:9.3f} {te / tf:6.2f} {n / tf:13,.0f} {n / te:13,.0f}")
    m = Moments.from_rows(wide_rows(1000, 50), exact=True)
    f = Moments.from_rows(wide_rows(1000, 50))
    print(f"state at d = 50: float to_bytes {len(f.to_bytes()):,} bytes, exact {len(m.to_bytes()):,} bytes")


# --------------------------------------------------------------- at scale

def generated(seed: int, n: int) -> Iterator[List[float]]:
    """The issue's rows, made where they are reduced (not shipped from the driver)."""
    rng = random.Random(seed)
    for _ in range(n):
        z = rng.gauss(0.0, 1.0)
        hot = [0.0] * 7
        hot[rng.randrange(7)] = 1.0
        yield [1.7e9 + 100.0 * z, 48.8566 + 1e-4 * (0.8 * z + 0.6 * rng.gauss(0.0, 1.0)),
               2.3522 + 1e-4 * (-0.5 * z + rng.gauss(0.0, 1.0))] + hot


def partition_state(seed: int, n: int) -> tuple:
    m = Moments.from_rows(generated(seed, n), exact=True)
    return m.to_bytes(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, os.getpid()


def scale_runs(total: int, parts: int) -> None:
    per = total // parts
    print(f"\n{total:,} x 10 in {parts} partitions of {per:,}, exact moments, 2 workers")
    print(f"{'engine':>22} {'seconds':>8} {'rows/s':>10} {'peak MB per worker':>20}")
    try:
        import dask.bag as db
        from concurrent.futures import ProcessPoolExecutor
        import multiprocessing
        import dask
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
            with dask.config.set(scheduler="processes", pool=pool):
                t = time.perf_counter()
                out = db.from_sequence(range(parts), npartitions=parts).map(partition_state, per).compute()
                secs = time.perf_counter() - t
        report("Dask processes", out, secs, total)
    except ImportError as exc:
        print(f"Dask: not installed ({exc})")
    try:
        from pyspark.sql import SparkSession
        os.environ["PYSPARK_PYTHON"] = sys.executable
        spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        t = time.perf_counter()
        out = spark.sparkContext.parallelize(range(parts), parts).map(lambda s: partition_state(s, per)).collect()
        secs = time.perf_counter() - t
        spark.stop()
        report("Spark local[2]", out, secs, total)
    except ImportError as exc:
        print(f"Spark: not installed ({exc})")


def report(engine: str, out: List[tuple], secs: float, total: int) -> None:
    merged = Moments(exact=True)
    peak: dict = {}
    for state, mb, pid in out:
        merged.merge(Moments.from_bytes(state))
        peak[pid] = max(peak.get(pid, 0.0), mb)
    assert merged.n == total
    mbs = ", ".join(f"{v:.0f}" for v in sorted(peak.values()))
    print(f"{engine:>22} {secs:8.1f} {total / secs:10,.0f} {mbs:>20}   var(t) = {merged.covariance()[0][0]!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--scale", action="store_true", help="also 10,000,000 x 10 on Spark local[2] and Dask processes")
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--partitions", type=int, default=16)
    args = ap.parse_args()
    reducer_table(args.repeats)
    if args.scale:
        scale_runs(args.rows, args.partitions)


if __name__ == "__main__":
    main()
