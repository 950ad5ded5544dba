"""PCA against scikit-learn's full-SVD PCA on 200 random data sets, every solver."""

from __future__ import annotations

import math
import random
import warnings

import pytest

np = pytest.importorskip("numpy")
skd = pytest.importorskip("sklearn.decomposition")

from helpers import reliable  # noqa: E402

from purepca import PCA, AccuracyWarning, DegenerateEigenvalueWarning  # noqa: E402

SOLVERS = ["jacobi", "gram", "svd", "power"]


def make_data(seed: int) -> tuple[list[list[float]], str]:
    """Tall, wide, rank-deficient, badly scaled and integer data, in turn."""
    rng = random.Random(seed)
    kind = ["tall", "wide", "rank", "scales", "integer"][seed % 5]
    if kind == "wide":
        n, d = rng.randint(3, 8), rng.randint(9, 15)
    else:
        n, d = rng.randint(12, 40), rng.randint(2, 9)
    spread = [rng.uniform(0.2, 5.0) for _ in range(d)]
    X = [[rng.gauss(0, s) + 10.0 for s in spread] for _ in range(n)]
    if kind == "rank":  # rank r < d: columns are combinations of r latent ones
        r = rng.randint(1, max(1, d - 1))
        L = [[rng.gauss(0, 1) for _ in range(r)] for _ in range(n)]
        B = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(r)]
        X = [[math.fsum(l * b for l, b in zip(Lrow, col)) for col in zip(*B)] for Lrow in L]
    elif kind == "scales":
        X = [[x * 10.0 ** (j - d // 2) for j, x in enumerate(row)] for row in X]
    elif kind == "integer":
        X = [[float(rng.randint(-5, 20)) for _ in range(d)] for _ in range(n)]
    return X, kind


def sign_tie(component: list[float]) -> bool:
    """The two largest |entries| are equal to rounding: the max-abs sign rule
    is decided by rounding noise, so only the direction can be compared."""
    mags = sorted((abs(x) for x in component), reverse=True)
    return len(mags) > 1 and mags[0] - mags[1] <= 1e-9 * mags[0]


def close(a: float, b: float, scale: float, tol: float = 1e-10) -> bool:
    return abs(a - b) <= tol * scale


@pytest.mark.parametrize("seed", range(200))
def test_every_solver_agrees_with_scikit_learn(seed: int) -> None:
    X, kind = make_data(seed)
    scale = seed % 2 == 1  # half the sets are fitted as correlation PCA
    A = np.array(X)
    if scale:
        sd = A.std(axis=0, ddof=1)
        if (sd == 0).any():
            scale = False
        else:
            A = (A - A.mean(axis=0)) / sd
    n, d = A.shape
    ref = skd.PCA(svd_solver="full").fit(A)
    ref_values = ref.explained_variance_.tolist()
    new = [[x + 0.5 for x in row] for row in X[:3]]
    new_A = np.array(new)
    if scale:
        Xa = np.array(X)
        new_A = (new_A - Xa.mean(axis=0)) / Xa.std(axis=0, ddof=1)
    ref_new = ref.transform(new_A).tolist()
    for solver in SOLVERS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            k = min(n, d) if solver != "power" else min(3, min(n, d))
            pca = PCA(k, solver=solver, scale=scale).fit(X)
            assert pca.n_components_ == k
            top = ref_values[0]
            assert all(close(a, b, top) for a, b in zip(pca.explained_variance_, ref_values)), (solver, kind)
            ratios = ref.explained_variance_ratio_.tolist()
            assert all(close(a, b, 1.0) for a, b in zip(pca.explained_variance_ratio_, ratios)), (solver, kind)
            ours_new = pca.transform(new)
            score_scale = max(abs(v) for row in ref_new for v in row) or 1.0
            for i in range(k):
                if not reliable(ref_values, i):
                    continue
                theirs = ref.components_[i].tolist()
                flip = -1.0 if sign_tie(theirs) and sum(a * b for a, b in zip(pca.components_[i], theirs)) < 0 else 1.0
                assert all(close(flip * a, b, 1.0) for a, b in zip(pca.components_[i], theirs)), (solver, kind, i)
                assert all(close(flip * row[i], ref_row[i], score_scale) for row, ref_row in zip(ours_new, ref_new)), (solver, kind, i)
            assert pca.fit_transform(X) == PCA(k, solver=solver, scale=scale).fit(X).transform(X)
        # The paths that square the condition number say so on rank-deficient or badly scaled data (the
        # components they lose are those reliable() leaves out above); the SVD path never needs to.
        for w in caught:
            assert w.category is DegenerateEigenvalueWarning or (
                w.category is AccuracyWarning and solver != "svd"), (solver, kind, str(w.message))
