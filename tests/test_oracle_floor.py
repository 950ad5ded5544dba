"""The svd model's floor (issue 42, a hostile battery): under ``method="svd"`` an eigenvalue below
``c·λ_1`` was allowed the absolute ``c·λ_1``, so a last eigenvalue 1000 times too large, or 0, passed.
A backward-stable SVD gives σ_i to ``c·σ_1`` (Weyl), so λ_i to ``2c·sqrt(λ_1·λ_i) + c²·λ_1`` at every
size.  Each planted defect is judged wrong by mpmath (60 digits) before the oracle is asked; correct SVDs
(numpy, scikit-learn's full) still pass, and a formed covariance's answer passes as ``"covariance"``."""

from __future__ import annotations

import random

import pytest

from helpers import exact_spectrum
from purepca.testing import compare_pca

np = pytest.importorskip("numpy")
mp = pytest.importorskip("mpmath")


def _svd_answer(X: list[list[float]]) -> dict[str, object]:
    A = np.array(X)
    _, S, Vt = np.linalg.svd(A - A.mean(axis=0), full_matrices=False)
    return {"explained_variance_": S ** 2 / (len(X) - 1), "components_": Vt}


def _graded(seed: int = 1, step: float = 3.0) -> list[list[float]]:
    """Columns of spread 1, 10**-step, 10**-2·step, ...: the last eigenvalue near 10**-(6·step)·λ_1."""
    rng = random.Random(seed)
    return [[rng.gauss(0, 1) * 10.0 ** (-step * j) for j in range(4)] for _ in range(20)]


def _graded_less(seed: int = 1) -> list[list[float]]:
    return _graded(seed, 2.55)  # the last eigenvalue near 6e-16·λ_1: below c·λ_1, above what 1e-6 of it needs


def _nearly_collinear(seed: int = 2) -> list[list[float]]:
    rng = random.Random(seed)
    rows = [[rng.gauss(0, 1) for _ in range(4)] for _ in range(30)]
    return [r + [r[0] - r[1] + 1e-7 * rng.gauss(0, 1)] for r in rows]


def _out(answer: object, X: list[list[float]], **kwargs: object) -> list[str]:
    """The checks out; numpy's SVD fixes no sign: convention "prcomp" unless told."""
    kwargs.setdefault("convention", "prcomp")
    return [c.quantity for c in compare_pca(answer, X, **kwargs) if not c.passed]  # type: ignore[arg-type]


@pytest.mark.parametrize("data, defect", [(_graded, 1000.0), (_graded, 10.0), (_graded, 0.0), (_graded_less, 1 + 1e-6),
                                          (_graded_less, 0.0), (_nearly_collinear, 0.0),
                                          (_nearly_collinear, 1 + 1e-6)])
def test_svd_model_small_eigenvalue_defects_are_caught_where_mpmath_says_wrong(data: object, defect: float) -> None:
    X = data()  # type: ignore[operator]
    exact = exact_spectrum(X)
    good = _svd_answer(X)
    values = good["explained_variance_"]
    last = len(values) - 1
    assert exact[last] < 1e-14 * exact[0]  # below c·λ_1 (c = 2·sqrt(n + d)·eps), where the absolute allowance was
    assert _out(good, X) == []  # numpy's SVD passes
    bad = np.array(values, dtype=float)
    bad[last] *= defect
    planted = abs(mp.mpf(float(bad[last])) - exact[last])
    svd_error = abs(mp.mpf(float(values[last])) - exact[last])
    assert planted > 100 * svd_error  # mpmath: the defect is wrong, 100x what a correct SVD made
    assert f"explained_variance_[{last}]" in _out(dict(good, explained_variance_=bad), X)
    assert f"explained_variance_[{last}]" in _out(dict(good, explained_variance_=bad), X, method="incremental")


def test_svd_model_passes_scikit_learns_full_svd_on_small_eigenvalues() -> None:
    decomposition = pytest.importorskip("sklearn.decomposition")
    for X in (_graded(3), _graded_less(3), _nearly_collinear(4)):
        fitted = decomposition.PCA(svd_solver="full").fit(np.array(X))
        assert _out(fitted, X, convention="sklearn") == []


def test_svd_model_zero_eigenvalue_floor_is_c_squared_and_a_covariance_answer_is_named_by_its_method() -> None:
    # Rank-deficient data: the exact last eigenvalue is 0.  An SVD gives it at about (eps·σ_1)²/(n - 1); a formed
    # covariance at eps·λ_1, which passes as "covariance" and is flagged as an SVD's answer.
    rng = random.Random(6)
    X = [r + [r[0] + r[1]] for r in ([rng.gauss(0, 1) for _ in range(3)] for _ in range(25))]
    exact = exact_spectrum(X)
    assert abs(exact[3]) < 1e-30 * exact[0]  # (0 but for the rounding of r[0] + r[1])
    good = _svd_answer(X)
    assert _out(good, X) == []
    w, v = np.linalg.eigh(np.cov(np.array(X), rowvar=False))
    formed = {"explained_variance_": w[::-1].copy(), "components_": v[:, ::-1].T}
    formed["explained_variance_"][3] = 2.0 ** -52 * formed["explained_variance_"][0]  # eps·λ_1: a formed C's floor
    assert _out(formed, X, method="covariance") == []
    assert _out(formed, X) == ["explained_variance_[3]"]
