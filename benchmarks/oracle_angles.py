"""How far a backward-stable SVD's components actually are from the exact ones, against the angle model of
``method="svd"`` in purepca/testing/compare.py; and false alarms of that model on held-out data.

Run from the repository root (needs numpy, scikit-learn, statsmodels):

    python benchmarks/oracle_angles.py                     # calibration (150 of each family) and held-out check
    python benchmarks/oracle_angles.py --sets 50 --close 100 --holdout 100

Calibration: for every component of every data set (graded columns, random ordinary data, two singular
values 1e-6..1e-1 apart with and without an offset, the 20 kinds of oracle_matrix.py), the angle that
scikit-learn's full SVD, numpy's svd, scipy's svd with LAPACK's gesvd, numpy's svd of the transposed data (the
LQ path a row-major library takes) and statsmodels' svd leave against the 50-digit reference, divided by the
gap term of the model, ``eps·σ_1·sqrt(Σ_j 1/(σ_i - σ_j)²)`` (components whose angle is below the floor
``F·eps`` need no gap term).  The model's constant K must cover 1.5 times the largest ratio.
Held out: ``compare_pca`` with the constants in compare.py on fresh data of the same families, on noise
under strong directions and on larger data (n 80-400, d 10-40), counting correct answers flagged.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from oracle_matrix import errors, kinds, random_ordinary  # noqa: E402
from purepca.testing import compare_pca, reference  # noqa: E402
from purepca.testing import compare as model  # noqa: E402

warnings.simplefilter("ignore")
EPS = 2.0 ** -52


def families(seed: int, count: int, noisy: bool, close_count: int = 0) -> dict[str, list[list[float]]]:
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)

    def graded() -> list[list[float]]:
        n, d = rng.randint(6, 60), rng.randint(2, 9)
        f = [10.0 ** rng.uniform(-6, 0) for _ in range(d)]
        return [[rng.gauss(0, 1) * f[j] for j in range(d)] for _ in range(n)]

    def close() -> list[list[float]]:
        n, d = int(nrng.integers(6, 60)), int(nrng.integers(3, 9))
        d = min(d, n - 1)
        G = nrng.standard_normal((n, d))
        G -= G.mean(axis=0)
        Q1, _ = np.linalg.qr(G)
        Q2, _ = np.linalg.qr(nrng.standard_normal((d, d)))
        sig = np.sort(10.0 ** nrng.uniform(-3, 0, d))[::-1]
        j = int(nrng.integers(0, d - 1))
        sig[j + 1] = sig[j] * (1 - 10.0 ** nrng.uniform(-6, -1))
        sig = np.sort(sig)[::-1]
        offset = nrng.uniform(-5, 5, d) if rng.random() < 0.5 else 0.0
        return (Q1 @ np.diag(sig) @ Q2.T + offset).tolist()  # type: ignore[no-any-return]

    def strong() -> list[list[float]]:
        n, d = rng.randint(8, 60), rng.randint(3, 9)
        k = rng.randint(1, min(3, d - 1))
        dirs = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(k)]
        amp = [10.0 ** rng.uniform(0, 3) for _ in range(k)]
        eta = 10.0 ** rng.uniform(-9, -3)
        return [[sum(rng.gauss(0, 1) * a * v[j] for a, v in zip(amp, dirs)) + eta * rng.gauss(0, 1) + 7.0
                 for j in range(d)] for _ in range(n)]

    out: dict[str, list[list[float]]] = {}
    for t in range(count):
        out[f"graded {t}"] = graded()
        out[f"random {t}"] = random_ordinary(rng)
        if noisy:
            out[f"strong directions {t}"] = strong()
    for t in range(close_count or count):
        out[f"close {t}"] = close()
    return out


def implementations() -> list[tuple[str, str, dict[str, Any], Callable[[np.ndarray], Any]]]:
    from sklearn.decomposition import PCA as SkPCA
    from statsmodels.multivariate.pca import PCA as SmPCA

    def np_svd(A: np.ndarray) -> Any:
        mean = A.mean(axis=0)
        _, s, vt = np.linalg.svd(A - mean, full_matrices=False)
        return {"explained_variance_": s ** 2 / (A.shape[0] - 1), "components_": vt}

    def sm_svd(A: np.ndarray) -> Any:
        res = SmPCA(A, standardize=False, demean=True, method="svd", normalize=False)
        return {"eigenvals": np.asarray(res.eigenvals), "loadings": np.asarray(res.loadings)}

    def gesvd(A: np.ndarray) -> Any:  # LAPACK's QR iteration instead of divide and conquer
        from scipy.linalg import svd

        _, s, vt = svd(A - A.mean(axis=0), full_matrices=False, lapack_driver="gesvd")
        return {"explained_variance_": s ** 2 / (A.shape[0] - 1), "components_": vt}

    def transposed(A: np.ndarray) -> Any:  # a row-major library handing LAPACK the transpose: LQ, not QR
        u, s, _ = np.linalg.svd((A - A.mean(axis=0)).T, full_matrices=False)
        return {"explained_variance_": s ** 2 / (A.shape[0] - 1), "components_": u.T}

    return [("scikit-learn full", "sklearn", {}, lambda A: SkPCA(svd_solver="full").fit(A)),
            ("numpy svd", "prcomp", {}, np_svd),
            ("scipy svd (gesvd)", "prcomp", {}, gesvd),
            ("numpy svd of the transpose", "prcomp", {}, transposed),
            ("statsmodels svd", "statsmodels", {"scale": False}, sm_svd)]


def larger(seed: int, count: int) -> dict[str, list[list[float]]]:
    """Held-out data larger than the calibration's (n up to 400, d up to 40): ordinary and close pairs."""
    nrng = np.random.default_rng(seed)
    out: dict[str, list[list[float]]] = {}
    for t in range(count):
        n, d = int(nrng.integers(80, 400)), int(nrng.integers(10, 40))
        A = nrng.standard_normal((n, d)) * np.exp(nrng.uniform(-1, 1, d)) + nrng.uniform(-3, 3, d)
        out[f"larger ordinary {n}x{d}"] = A.tolist()
        G = nrng.standard_normal((n, d))
        Q1, _ = np.linalg.qr(G - G.mean(axis=0))
        Q2, _ = np.linalg.qr(nrng.standard_normal((d, d)))
        sig = np.sort(10.0 ** nrng.uniform(-3, 0, d))[::-1]
        j = int(nrng.integers(0, d - 1))
        sig[j + 1] = sig[j] * (1 - 10.0 ** nrng.uniform(-6, -1))
        out[f"larger close {n}x{d}"] = (Q1 @ np.diag(np.sort(sig)[::-1]) @ Q2.T).tolist()
    return out


def gap_term(spec: list[float], i: int) -> float:
    """The model's angle for component i without its constants: ``eps·σ_1·sqrt(Σ_j 1/(σ_i - σ_j)²)``."""
    top = math.sqrt(max(spec))
    root = math.sqrt(max(spec[i], 0.0))
    squares = 0.0
    for j, v in enumerate(spec):
        if j != i:
            gap = abs(root - math.sqrt(max(v, 0.0)))
            squares += (top / gap) ** 2 if gap > 0 else math.inf
    return EPS * math.sqrt(squares)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", type=int, default=150, help="graded and random data sets for the calibration")
    parser.add_argument("--close", type=int, default=750, help="data sets with two close singular values")
    parser.add_argument("--holdout", type=int, default=250, help="data sets of each family held out")
    parser.add_argument("--larger", type=int, default=25, help="held-out pairs of larger data sets (n 80-400)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the calibration data")
    args = parser.parse_args()
    impls = implementations()
    data = dict(kinds())
    data.update(families(args.seed, args.sets, noisy=False, close_count=args.close))
    ratios = []
    for name, X in data.items():
        truth = reference(X, digits=50)
        A = np.array(X)
        for iname, _, _, fit in impls:
            try:
                _, angles = errors(fit(A), X, truth, "sklearn")
            except Exception:  # noqa: BLE001 - a failed fit is not an angle
                continue
            for i, a in enumerate(angles):
                if a == a and 0 < a < math.inf and not name.startswith("offset"):  # offsets: the centring term
                    g = gap_term(truth.unit_spectrum, i)
                    # The K that covers 1.5 times this error, given the floor F·eps.
                    ratios.append(((1.5 * a - model._F_SVD_ANGLE * EPS) / g, a / g, name, iname, i))
    ratios.sort()
    plain = sorted(r[1] for r in ratios)
    print(f"## Calibration: {len(data)} data sets, {len(ratios)} angles\n")
    print(f"error / gap term: median {statistics.median(plain):.3g}, 99th percentile "
          f"{plain[int(0.99 * len(plain))]:.3g}, largest {plain[-1]:.3g}")
    print(f"K covering 1.5 x every error with the floor {model._F_SVD_ANGLE:g} eps: {ratios[-1][0]:.2f} "
          f"({ratios[-1][2]}, {ratios[-1][3]}, component {ratios[-1][4]}); compare.py: {model._K_SVD_ANGLE:g}\n")
    fits = alarms = 0
    held = families(1000, args.holdout, noisy=True)
    held.update(larger(1000, args.larger))
    worst = (0.0, "")
    for name, X in held.items():
        A = np.array(X)
        for iname, convention, kw, fit in impls[:4]:
            fits += 1
            checks = compare_pca(fit(A), X, convention=convention, **kw)
            bad = [c.line() for c in checks if not c.passed]
            for c in checks:
                if c.quantity.startswith("components_") and c.tolerance > 0 and c.error / c.tolerance > worst[0]:
                    worst = (c.error / c.tolerance, f"{name} / {iname} / {c.quantity}")
            if bad:
                alarms += 1
                print(f"  false alarm: {name} / {iname}: {bad[0]}")
    print(f"## Held out: {len(held)} data sets x scikit-learn full, numpy svd, scipy gesvd and numpy svd of the "
          f"transpose: {alarms} false alarms in {fits} fits; the largest angle / tolerance {worst[0]:.2f} ({worst[1]})")


if __name__ == "__main__":
    main()
