"""How often the oracle catches issue 42's injected defects in fbpca answers (acceptance 1), under each recipe.

Run from the repository root (needs numpy, fbpca, scikit-learn and mpmath):

    python benchmarks/oracle_fbpca.py               # 40 data sets
    python benchmarks/oracle_fbpca.py --sets 10 --solvers fbpca

The data are docs/oracle.md's "40 random data sets with larger d": n 30-300, d 4-30, k random below d; spectra
geometric down to 1e-5, linear, or mixed with an offset of 1e3 (seed 4242).  Each answer is first judged by
mpmath (the covariance's eigenvalues at 30 digits): its worst relative eigenvalue error is printed beside the
verdicts, so that an answer the oracle fails can be seen to be that far off.  The defects are those of
tests/test_oracle_iterative.py: variances times (n-1)/n, the first two components swapped, a sign flipped, an
eigenvalue times 1 + 1e-6, a component turned 1e-4 rad, every number rounded to float32.
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import mpmath  # noqa: E402
import numpy as np  # noqa: E402

from purepca.testing import compare_pca  # noqa: E402

DEFECTS = ("ddof", "unsorted", "sign", "eigenvalue 1e-6", "turned 1e-4 rad", "float32")


def data_set(rng: "np.random.Generator") -> tuple["np.ndarray", int]:
    n = int(rng.integers(30, 301))
    d = int(rng.integers(4, 31))
    kind = rng.integers(3)
    if kind == 0:
        spread = np.geomspace(1.0, 10 ** -2.5, d)  # variances down to 1e-5
    elif kind == 1:
        spread = np.sqrt(np.linspace(1.0, 0.05, d))
    else:
        spread = np.sqrt(np.concatenate([np.geomspace(1.0, 1e-3, d // 2), np.linspace(1e-3, 1e-4, d - d // 2)]))
    X = rng.normal(size=(n, d)) * spread
    if kind == 2:
        X = X + 1e3
    k = int(rng.integers(1, min(n, d)))
    return X, k


def mp_spectrum(X: "np.ndarray") -> list[float]:
    with mpmath.workdps(30):
        n, d = X.shape
        cols = [[mpmath.mpf(float(x)) for x in X[:, j]] for j in range(d)]
        means = [mpmath.fsum(c) / n for c in cols]
        dev = [[x - m for x in c] for c, m in zip(cols, means)]
        C = mpmath.matrix(d, d)
        for a in range(d):
            for b in range(a, d):
                C[a, b] = C[b, a] = mpmath.fsum(x * y for x, y in zip(dev[a], dev[b])) / (n - 1)
        return sorted((float(v) for v in mpmath.eigsy(C, eigvals_only=True)), reverse=True)


def answers(X: "np.ndarray", k: int, solver: str, seed: int) -> dict[str, "np.ndarray"]:
    if solver == "fbpca":
        import fbpca

        np.random.seed(seed)
        U, S, Vt = fbpca.pca(X, k, raw=False)
        Vt = Vt * np.sign(Vt[np.arange(k), np.abs(Vt).argmax(1)])[:, None]  # scikit-learn's sign rule, as a user
        return {"components_": Vt.copy(), "explained_variance_": S ** 2 / (X.shape[0] - 1)}
    from sklearn.decomposition import PCA

    fitted = PCA(k, svd_solver=solver, random_state=seed).fit(X)
    return {"components_": fitted.components_.copy(), "explained_variance_": fitted.explained_variance_.copy()}


def defects(good: dict[str, "np.ndarray"], n: int, seed: int) -> dict[str, dict[str, "np.ndarray"]]:
    rng = np.random.default_rng(seed)
    c = good["components_"]
    k, d = c.shape
    out: dict[str, dict[str, "np.ndarray"]] = {"ddof": dict(good, explained_variance_=good["explained_variance_"] * (n - 1) / n)}
    if k >= 2 and good["explained_variance_"][0] != good["explained_variance_"][1]:
        order = [1, 0] + list(range(2, k))
        out["unsorted"] = {"components_": c[order], "explained_variance_": good["explained_variance_"][order]}
    flipped = c.copy()
    flipped[0] = -flipped[0]
    out["sign"] = dict(good, components_=flipped)
    off = good["explained_variance_"].copy()
    off[k - 1] *= 1 + 1e-6
    out["eigenvalue 1e-6"] = dict(good, explained_variance_=off)
    i = min(1, k - 1)
    w = rng.normal(size=d)
    for row in c:
        w -= (w @ row) * row
    w /= np.linalg.norm(w)
    turned = c.copy()
    turned[i] = math.cos(1e-4) * c[i] + math.sin(1e-4) * w
    out["turned 1e-4 rad"] = dict(good, components_=turned)
    out["float32"] = {key: a.astype(np.float32).astype(np.float64) for key, a in good.items()}
    return out


RECIPES = {
    "fbpca": [("randomized n_iter=2 l=k+2", dict(method="randomized", n_iter=2, n_oversamples=2)),
              ("iterative", dict(method="iterative"))],
    "arpack": [("iterative", dict(method="iterative"))],
    "randomized": [("randomized", dict(method="randomized")), ("iterative", dict(method="iterative"))],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", type=int, default=40)
    parser.add_argument("--solvers", default="fbpca,arpack,randomized")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(4242)
    sets = [data_set(rng) for _ in range(args.sets)]
    exact = [mp_spectrum(X) for X, _ in sets]
    for solver in args.solvers.split(","):
        for label, kwargs in RECIPES[solver]:
            passed = 0
            caught = {name: [0, 0] for name in DEFECTS}
            fails = []
            for s, ((X, k), spectrum) in enumerate(zip(sets, exact)):
                good = answers(X, k, solver, s)
                err = max(abs(a - b) / b for a, b in zip(good["explained_variance_"], spectrum))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    out = [c for c in compare_pca(good, X, convention="sklearn", **kwargs) if not c.passed]
                if out:
                    fails.append((s, X.shape, k, err, out[0].line()[:110]))
                else:
                    passed += 1
                for name, bad in defects(good, X.shape[0], s).items():
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        hit = any(not c.passed for c in compare_pca(bad, X, convention="sklearn", **kwargs))
                    caught[name][0] += hit
                    caught[name][1] += 1
            cells = " | ".join(f"{a}/{b}" for a, b in caught.values())
            print(f"| {solver} ({label}) | {passed}/{len(sets)} | {cells} |", flush=True)
            if args.verbose:
                for f in fails:
                    print("   fails:", f)


if __name__ == "__main__":
    main()
