"""Time the oracle: reference() and a comparison with a given reference, at the sizes of a test suite.

Run from the repository root (scikit-learn supplies the answer compared; without it, purepca's own float fit):

    python benchmarks/bench_oracle.py                   # 500 x 200 and smaller
    python benchmarks/bench_oracle.py --before REV      # also the oracle as it was at git revision REV

CPU seconds (time.process_time) of one call each, the reference cache cleared first; the data are Gaussian
with a decaying spectrum (column j has spread 1/(1 + 0.2 j)).  "cached" is a second reference() of the same
data (the fingerprint lookup).
"""

from __future__ import annotations

import argparse
import platform
import random
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from purepca import PCA  # noqa: E402
from purepca.testing import clear_cache, compare_pca, reference  # noqa: E402


def cpu(f: Callable[[], Any]) -> tuple[float, Any]:
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def old_module(rev: str) -> Any:
    src = subprocess.run(["git", "show", f"{rev}:purepca/testing.py"], capture_output=True, text=True,
                         check=True).stdout.replace("from .", "from purepca.")
    module = types.ModuleType("old_testing")
    sys.modules["old_testing"] = module  # dataclasses look their module up
    exec(compile(src, "old_testing.py", "exec"), module.__dict__)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default=None, help="git revision of the oracle to time side by side")
    parser.add_argument("--sizes", default="100x20,200x50,500x200")
    args = parser.parse_args()
    old = old_module(args.before) if args.before else None
    try:
        import numpy as np
        from sklearn.decomposition import PCA as SkPCA
    except ImportError:  # pragma: no cover
        np = None  # type: ignore[assignment]
    print(f"Python {platform.python_implementation()} {platform.python_version()}; CPU seconds of one call\n")
    head = "| n x d | reference() | cached | compare_pca(ref=) |"
    if old is not None:
        head += " before: reference() | before: compare_pca(ref=) | before: assert_pca_close (no ref) |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for size in args.sizes.split(","):
        n, d = (int(x) for x in size.split("x"))
        rng = random.Random(0)
        X = [[rng.gauss(0, 1) / (1 + 0.2 * j) for j in range(d)] for _ in range(n)]
        clear_cache()
        t_ref, ref = cpu(lambda: reference(X))
        t_cached, _ = cpu(lambda: reference(X))
        theirs: Any = SkPCA(svd_solver="full").fit(np.array(X)) if np is not None else PCA().fit(X)
        t_cmp, checks = cpu(lambda: compare_pca(theirs, X, ref=ref))
        assert all(c.passed for c in checks)
        row = f"| {n:,} x {d:,} | {t_ref:.2f} s | {t_cached * 1e3:.1f} ms | {t_cmp:.2f} s |"
        if old is not None:
            t_old_ref, old_ref = cpu(lambda: old.reference(X))
            t_old_cmp, _ = cpu(lambda: old.compare_pca(theirs, X, ref=old_ref))
            t_old_all, _ = cpu(lambda: old.compare_pca(theirs, X))
            row += f" {t_old_ref:.2f} s | {t_old_cmp:.2f} s | {t_old_all:.2f} s |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
