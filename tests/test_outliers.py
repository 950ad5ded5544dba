"""Hotelling's T² and the SPE with their limits (issue 11, acceptance 3), and the quantile functions
written without scipy, checked against scipy over their range."""

from __future__ import annotations

import math
import random

import pytest

from purepca import PCA, PurePCAError
from purepca.datasets import load
from purepca.distributions import beta_cdf, beta_ppf, f_cdf, f_ppf, norm_cdf, norm_ppf

stats = pytest.importorskip("scipy.stats")
np = pytest.importorskip("numpy")


def test_normal_quantiles_over_the_whole_range() -> None:
    for e in range(1, 300, 7):
        for p in (10.0 ** -e, 1 - 10.0 ** -min(e, 15)):
            assert abs(norm_ppf(p) - stats.norm.ppf(p)) <= 1e-14 * abs(stats.norm.ppf(p))
    for p in [i / 1000 for i in range(1, 1000)]:
        assert abs(norm_ppf(p) - stats.norm.ppf(p)) <= 2e-15 * max(1.0, abs(stats.norm.ppf(p)))
    for x in (-37.0, -8.0, -1.0, 0.0, 0.3, 5.0, 8.0):
        # erfc(-x/√2): the rounding of x/√2 costs about 2·(x²/2)·eps relative in the far tail.
        assert abs(norm_cdf(x) - stats.norm.cdf(x)) <= 1e-15 * (1 + x * x) * stats.norm.cdf(x)
    with pytest.raises(PurePCAError):
        norm_ppf(1.0)


@pytest.mark.slow
def test_f_and_beta_quantiles_against_scipy() -> None:
    rng = random.Random(1)
    for _ in range(500):
        d1 = rng.choice([1, 2, 3, 5, 10, 30, 100])
        d2 = rng.choice([1, 2, 4, 8, 20, 50, 200, 1000])
        p = rng.choice([0.5, 0.9, 0.95, 0.99, 0.999, rng.random()])
        assert abs(f_ppf(p, d1, d2) - stats.f.ppf(p, d1, d2)) <= 1e-11 * stats.f.ppf(p, d1, d2)
        x = rng.uniform(0.01, 20)
        assert abs(f_cdf(x, d1, d2) - stats.f.cdf(x, d1, d2)) <= 1e-12
        a, b = rng.choice([0.5, 1, 1.5, 2, 5, 20, 100]), rng.choice([0.5, 1, 3, 10, 50, 300])
        q = rng.random()
        assert abs(beta_ppf(q, a, b) - stats.beta.ppf(q, a, b)) <= 1e-11 * stats.beta.ppf(q, a, b)
        y = rng.random()
        assert abs(beta_cdf(y, a, b) - stats.beta.cdf(y, a, b)) <= 1e-12


def _fitted(k: int, scale: bool, convention: str = "sklearn") -> tuple[PCA, list[list[float]]]:
    X = load("iris").rows
    return PCA(k, scale=scale, convention=convention).fit(X), X


@pytest.mark.parametrize("k, scale, convention", [(1, False, "sklearn"), (2, True, "sklearn"), (3, False, "princomp"),
                                                  (2, True, "factominer")])
@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_limits_equal_the_formulas_with_scipy(k: int, scale: bool, convention: str, alpha: float) -> None:
    pca, X = _fitted(k, scale, convention)
    n = len(X)
    new = k * (n - 1) * (n + 1) / (n * (n - k)) * stats.f.ppf(1 - alpha, k, n - k)
    training = (n - 1) ** 2 / n * stats.beta.ppf(1 - alpha, k / 2, (n - k - 1) / 2)
    assert abs(pca.t2_limit(alpha) - new) <= 1e-10 * new
    assert abs(pca.t2_limit(alpha, "training") - training) <= 1e-10 * training
    # SPE: Jackson and Mudholkar from numpy's eigenvalues of the sample covariance (correlation when scaled).
    ddof = 0 if convention in ("princomp", "factominer") else 1
    A = np.array(X)
    A = (A - A.mean(0)) / (A.std(0, ddof=ddof) if scale else 1)  # standardised as the model does
    lam = np.sort(np.linalg.eigvalsh(np.cov(A, rowvar=False)))[::-1][k:]  # the sample covariance (n - 1)
    t1, t2, t3 = (np.sum(lam ** i) for i in (1, 2, 3))
    h0 = 1 - 2 * t1 * t3 / (3 * t2 ** 2)
    c = stats.norm.ppf(1 - alpha)
    q = t1 * (c * np.sqrt(2 * t2 * h0 ** 2) / t1 + 1 + t2 * h0 * (h0 - 1) / t1 ** 2) ** (1 / h0)
    assert abs(pca.spe_limit(alpha) - q) <= 1e-10 * q


@pytest.mark.parametrize("scale", [False, True])
def test_t2_and_spe_equal_numpy(scale: bool) -> None:
    pca, X = _fitted(2, scale)
    A = np.array(X)
    mu, sd = A.mean(0), (A.std(0, ddof=1) if scale else np.ones(A.shape[1]))
    Z = (A - mu) / sd
    w, V = np.linalg.eigh(np.cov(Z, rowvar=False))
    order = np.argsort(w)[::-1][:2]
    lam, V = w[order], V[:, order]
    T = Z @ V
    t2 = (T ** 2 / lam).sum(1)
    spe = ((Z - T @ V.T) ** 2).sum(1)
    new = [[5.0, 3.0, 1.5, 0.3], [7.0, 2.0, 6.5, 2.5]]
    assert np.abs(np.array(pca.hotelling_t2(X)) - t2).max() < 1e-10 * t2.max()
    assert np.abs(np.array(pca.spe(X)) - spe).max() < 1e-10 * spe.max()
    Zn = (np.array(new) - mu) / sd
    Tn = Zn @ V
    assert np.abs(np.array(pca.hotelling_t2(new)) - (Tn ** 2 / lam).sum(1)).max() < 1e-9
    assert np.abs(np.array(pca.spe(new)) - ((Zn - Tn @ V.T) ** 2).sum(1)).max() < 1e-9
    # Whitening changes the scores, not T².
    white = PCA(2, scale=scale, whiten=True).fit(X)
    assert np.abs(np.array(white.hotelling_t2(X)) - t2).max() < 1e-10 * t2.max()


def test_limits_errors() -> None:
    pca, _ = _fitted(4, False)
    assert pca.spe_limit() == 0.0  # nothing discarded
    with pytest.raises(PurePCAError, match="kind must be"):
        pca.t2_limit(0.05, "old")
    with pytest.raises(PurePCAError, match="alpha"):
        pca.t2_limit(1.5)
    top = PCA(1, solver="krylov").fit(load("iris").rows)
    with pytest.raises(PurePCAError, match="found only the kept eigenvalues"):
        top.spe_limit()


def test_the_t2_limit_for_training_rows_holds_about_alpha_of_them() -> None:
    """On Gaussian data the training-row limit is exceeded by about alpha of the rows (the F limit
    for new rows, by about alpha of new rows)."""
    rng = random.Random(4)
    X = [[rng.gauss(0, 1), rng.gauss(0, 2), rng.gauss(0, 0.5)] for _ in range(4000)]
    pca = PCA(3).fit(X)
    limit = pca.t2_limit(0.05, "training")  # once: each call inverts a Beta distribution
    share = sum(t > limit for t in pca.hotelling_t2(X)) / len(X)
    assert 0.04 < share < 0.06
    fresh = [[rng.gauss(0, 1), rng.gauss(0, 2), rng.gauss(0, 0.5)] for _ in range(4000)]
    limit = pca.t2_limit(0.05)
    share = sum(t > limit for t in pca.hotelling_t2(fresh)) / len(fresh)
    assert 0.04 < share < 0.06
