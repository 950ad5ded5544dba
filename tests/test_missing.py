"""PCA(missing=...): an error by default, listwise deletion, mean imputation, and EM imputation
(iterative PCA, missMDA's imputePCA(method="EM") and statsmodels' fill-em) (issue 11)."""

from __future__ import annotations

import math
import random

import pytest

from purepca import PCA, PurePCAError


def _low_rank(seed: int, n: int = 60, d: int = 5, noise: float = 1e-3) -> list[list[float]]:
    rng = random.Random(seed)
    basis = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(2)]
    return [[3 * a * u + b * v + noise * rng.gauss(0, 1) for u, v in zip(*basis)]
            for a, b in ((rng.gauss(0, 1), rng.gauss(0, 1)) for _ in range(n))]


def _punch(X: list[list[float]], share: float, seed: int, hole: object = None) -> tuple[list[list[object]], list[tuple[int, int]]]:
    rng = random.Random(seed)
    out: list[list[object]] = [list(row) for row in X]
    holes = []
    for i in range(len(X)):
        for j in range(len(X[0])):
            if rng.random() < share and len(holes) < len(X) * len(X[0]) // 4:
                out[i][j] = hole
                holes.append((i, j))
    return out, holes


def test_the_default_names_the_first_missing_cell() -> None:
    with pytest.raises(PurePCAError, match=r"row 1.*column 0|\[1\]\[0\]"):
        PCA().fit([[1.0, 2.0], [None, 3.0], [2.0, 2.0]])
    with pytest.raises(PurePCAError, match="missing must be"):
        PCA(missing="zero").fit([[1.0, 2.0], [2.0, 3.0], [2.0, 2.0]])


def test_drop_removes_incomplete_rows_and_counts_them() -> None:
    X = _low_rank(1)
    holed, holes = _punch(X, 0.05, 2, float("nan"))
    pca = PCA(2, missing="drop").fit(holed)
    rows_with_holes = {i for i, _ in holes}
    complete = [row for i, row in enumerate(X) if i not in rows_with_holes]
    assert pca.n_dropped_ == len(rows_with_holes) and pca.n_samples_ == len(complete)
    assert pca.explained_variance_ == PCA(2).fit(complete).explained_variance_


def test_mean_fills_each_hole_with_its_column_mean() -> None:
    X = _low_rank(3)
    holed, holes = _punch(X, 0.05, 4)
    pca = PCA(2, missing="mean").fit(holed)
    for i, j in holes:
        present = [row[j] for row in holed if row[j] is not None]
        assert pca.imputed_[i][j] == math.fsum(present) / len(present)  # type: ignore[arg-type, index]
    with pytest.raises(PurePCAError, match="column 1 has no value at all"):
        PCA(1, missing="mean").fit([[1.0, None], [2.0, None], [3.0, None]])


def test_em_recovers_low_rank_data_and_reaches_a_fixed_point() -> None:
    X = _low_rank(5)
    holed, holes = _punch(X, 0.06, 6)
    em = PCA(2, missing="em").fit(holed)
    mean = PCA(2, missing="mean").fit(holed)
    err_em = max(abs(em.imputed_[i][j] - X[i][j]) for i, j in holes)  # type: ignore[index]
    err_mean = max(abs(mean.imputed_[i][j] - X[i][j]) for i, j in holes)  # type: ignore[index]
    assert err_em < 0.05 and err_em < err_mean / 20
    assert em.n_iter_ >= 2
    # The fixed point: each imputed value is the reconstruction of its row by the final model.
    rebuilt = em.inverse_transform(em.transform(em.imputed_))
    assert max(abs(rebuilt[i][j] - em.imputed_[i][j]) for i, j in holes) < 1e-8  # type: ignore[index]


def test_em_agrees_with_the_iterative_pca_of_missmda() -> None:
    """missMDA's imputePCA(method="EM", scale=FALSE) transcribed in numpy: centre about the current
    means, keep k components of the SVD, refill the holes, until they stop moving.  (statsmodels'
    fill-em keeps the observed means fixed instead, a different fixed point: convention="statsmodels".)"""
    np = pytest.importorskip("numpy")
    X = _low_rank(7, n=80, d=6, noise=0.05)
    holed, holes = _punch(X, 0.05, 8, float("nan"))
    A = np.array(holed, dtype=float)
    mask = np.isnan(A)
    A[mask] = np.take(np.nanmean(A, 0), np.where(mask)[1])
    for _ in range(100000):
        mu = A.mean(0)
        u, s, vt = np.linalg.svd(A - mu, full_matrices=False)
        fitted = (u[:, :2] * s[:2]) @ vt[:2] + mu
        change = np.abs(fitted[mask] - A[mask]).max()
        A[mask] = fitted[mask]
        if change < 1e-13:
            break
    ours = PCA(2, missing="em").fit(holed)
    got = np.array(ours.imputed_)
    assert np.abs(got[mask] - A[mask]).max() < 1e-8 * np.abs(A).max()


def test_em_needs_a_number_of_components() -> None:
    holed = [[1.0, 2.0, 3.0], [2.0, None, 5.0], [3.0, 4.0, 7.5], [4.0, 6.0, 8.0]]
    with pytest.raises(PurePCAError, match="n_components must be an int between 1 and n_features - 1 = 2"):
        PCA(missing="em").fit(holed)
    with pytest.raises(PurePCAError, match=r"row 0, column 1 is a string \('x'\)"):
        PCA(1, missing="em").fit([[1.0, "x"], [None, 2.0], [3.0, 4.0]])


@pytest.mark.slow
@pytest.mark.parametrize("name, d, k", [("usarrests", 4, 2), ("iris", 4, 2), ("decathlon", 10, 3)])
@pytest.mark.parametrize("standardize", [True, False])
def test_em_under_the_statsmodels_convention_equals_fill_em(name: str, d: int, k: int, standardize: bool) -> None:
    """statsmodels' PCA(missing="fill-em") on three data sets with 5 % of the cells missing, run to
    its own tolerance 1e-15 (its default, 5e-8 in 100 steps, stops short of the fixed point)."""
    np = pytest.importorskip("numpy")
    sm_pca = pytest.importorskip("statsmodels.multivariate.pca", reason="statsmodels is a test extra")
    from purepca.datasets import load

    X = np.array([row[:d] for row in load(name).rows])
    mask = np.random.default_rng(1).random(X.shape) < 0.05
    assert 0.03 < mask.mean() < 0.07
    holed = X.copy()
    holed[mask] = np.nan
    theirs = sm_pca.PCA(holed, ncomp=k, missing="fill-em", standardize=standardize, tol_em=1e-15,
                        max_em_iter=30000)._adjusted_data
    ours = PCA(k, convention="statsmodels", scale=standardize, missing="em").fit(holed.tolist())
    got = np.array(ours.imputed_)
    assert np.array_equal(got[~mask], X[~mask])
    assert np.abs(got[mask] - theirs[mask]).max() <= 1e-8 * np.abs(X).max()
    # The missMDA fixed point is another one: the two conventions do differ here.
    other = np.array(PCA(k, scale=standardize, missing="em").fit(holed.tolist()).imputed_)
    assert np.abs(other[mask] - theirs[mask]).max() > 1e-6 * np.abs(X).max()


def test_em_reports_slow_convergence_and_no_weights_under_statsmodels() -> None:
    from purepca import ConvergenceError

    rows = [[float(i), float(i * i % 7), float((3 * i) % 5), float(i % 2)] for i in range(12)]
    holed = [list(r) for r in rows]
    for i, j in ((1, 0), (4, 1), (7, 2), (9, 3), (10, 0)):
        holed[i][j] = None
    with pytest.raises(PurePCAError, match="has no sample weights"):
        PCA(2, convention="statsmodels", missing="em").fit(holed, sample_weight=[1.0] * 12)
    old = PCA.EM_MAX_ITER
    try:
        PCA.EM_MAX_ITER = 4
        with pytest.raises(ConvergenceError, match="did not converge in 4 steps"):
            PCA(3, missing="em").fit(holed)
    finally:
        PCA.EM_MAX_ITER = old


@pytest.mark.parametrize("scale, weighted", [(True, False), (False, True), (True, True)])
def test_em_agrees_with_missmda_scaled_and_weighted(scale: bool, weighted: bool) -> None:
    """missMDA's impute(method = "EM", scale =, row.w =) transcribed: at each step the weighted means
    and standard deviations (divisor Σw) of the completed data, svd.triplet with row.w, the rank-k
    reconstruction carried back to the data's units.  The divisor of the deviations does not move the
    fixed point (it scales every column alike), so purepca's n - 1 meets missMDA's n."""
    np = pytest.importorskip("numpy")
    X = _low_rank(11, n=70, d=6, noise=0.05)
    holed, _ = _punch(X, 0.05, 12, float("nan"))
    rng = random.Random(13)
    w = np.array([rng.uniform(0.2, 3.0) for _ in X]) if weighted else np.ones(len(X))
    r = w / w.sum()
    A = np.array(holed, dtype=float)
    mask = np.isnan(A)
    A[mask] = np.take(np.nansum(A * r[:, None], 0) / ((~mask) * r[:, None]).sum(0), np.where(mask)[1])
    for _ in range(200000):
        mu = r @ A
        Z = A - mu
        et = np.sqrt(r @ Z ** 2) if scale else np.ones(A.shape[1])
        Z = Z / et
        u, s, vt = np.linalg.svd(Z * np.sqrt(r)[:, None], full_matrices=False)
        fitted = ((u[:, :2] * s[:2]) @ vt[:2]) / np.sqrt(r)[:, None] * et + mu
        change = np.abs(fitted[mask] - A[mask]).max()
        A[mask] = fitted[mask]
        if change < 1e-14 * np.abs(A).max():
            break
    ours = PCA(2, scale=scale, missing="em").fit(holed, sample_weight=list(w) if weighted else None)
    got = np.array(ours.imputed_)
    assert np.abs(got[mask] - A[mask]).max() < 1e-8 * np.abs(A).max()


def test_em_refuses_holes_a_rank_k_model_cannot_determine() -> None:
    # Issue 20, line 13: three rows, two columns, one component: any value of either hole is a fixed
    # point of the EM (the rank-1 model fits every completion), and one was returned without a word.
    with pytest.raises(PurePCAError, match=r"4 observed values cannot determine a rank-1 model with means "
                                           r"\(5 degrees of freedom\)"):
        PCA(1, missing="em").fit([[1.0, 2.0], [None, 3.0], [3.0, None]])
    rows = [[float(i), float(i * i % 7), float((3 * i) % 5), float(i % 2)] for i in range(12)]
    lonely = [list(r) for r in rows]
    lonely[2] = [None, None, None, 1.0]
    with pytest.raises(PurePCAError, match="row 2 has 1 observed value"):
        PCA(2, missing="em").fit(lonely)
    sparse = [list(r) for r in rows]
    for i in range(1, 12):
        sparse[i][1] = None
    with pytest.raises(PurePCAError, match="column 1 has 1 observed value"):
        PCA(1, missing="em").fit(sparse)
    # Determined holes are imputed as before.
    holed = [list(r) for r in rows]
    holed[3][2] = None
    assert PCA(2, missing="em").fit(holed).n_iter_ > 0
