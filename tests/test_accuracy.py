"""Accurate by default (issue 8): where the covariance path would lose the small eigenvalues,
``solver="auto"`` takes the SVD of the data; a solver chosen by the user says what it lost.

The truth is the same fit at 40 significant digits (``precision=40``), which
agrees with independent mpmath code to 1e-39 (tests/test_pca.py).
"""

from __future__ import annotations

import random
import warnings

import pytest

from purepca import PCA
from purepca.errors import AccuracyWarning, DegenerateEigenvalueWarning
from purepca.solvers import ACCURACY_TARGET, solve_gram, solve_svd, squared_path_errors
from purepca.numeric import FLOAT


def collinear(seed: int, n: int = 300, d: int = 6, tiny: float = 1e-6) -> list[list[float]]:
    """d - 1 columns that are one signal plus a tiny independent part, and one free column."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        t, s = rng.gauss(0, 1), rng.gauss(0, 1)
        rows.append([t + tiny * rng.gauss(0, 1) for _ in range(d - 1)] + [s])
    return rows


def strong(seed: int, n: int = 300, d: int = 10, noise: float = 1e-2) -> list[list[float]]:
    """Three strong directions (standard deviations 1e3, 1e2, 10) and small isotropic noise."""
    rng = random.Random(seed)
    dirs = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(3)]
    rows = []
    for _ in range(n):
        a = [rng.gauss(0, 1e3), rng.gauss(0, 1e2), rng.gauss(0, 10)]
        rows.append([sum(a[k] * dirs[k][j] for k in range(3)) + noise * rng.gauss(0, 1) for j in range(d)])
    return rows


def wide(seed: int, n: int = 20, d: int = 60) -> list[list[float]]:
    """Fewer rows than columns: two strong directions and noise 1e-5."""
    rng = random.Random(seed)
    dirs = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(2)]
    rows = []
    for _ in range(n):
        a = [rng.gauss(0, 1e3), rng.gauss(0, 1)]
        rows.append([a[0] * dirs[0][j] + a[1] * dirs[1][j] + 1e-5 * rng.gauss(0, 1) for j in range(d)])
    return rows


def _relative_errors(fitted: list[float], truth: list[float]) -> list[float]:
    return [abs(a - b) / b for a, b in zip(fitted, truth) if b > 1e-14 * truth[0]]


CASES = [("collinear", collinear, s) for s in (1, 2, 3)] + [("strong", strong, s) for s in (4, 5, 6)] \
    + [("collinear d=12, 1e-7", lambda s: collinear(s, d=12, tiny=1e-7), 7), ("wide", wide, 8)]


@pytest.mark.parametrize("name, make, seed", CASES)
def test_the_default_gives_every_eigenvalue_and_the_noise_variance_to_1e_9(name: str, make: object, seed: int) -> None:
    X = make(seed)  # type: ignore[operator]
    truth = PCA(precision=40).fit(X)
    exact = [float(v) for v in truth.high_precision_["explained_variance_"]]  # type: ignore[index]
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccuracyWarning)  # the default never warns: it takes the accurate path
        fitted = PCA().fit(X)
    assert fitted.solver_ == "svd"
    assert max(_relative_errors(fitted.explained_variance_, exact)) < 1e-9
    k = 2 if name == "wide" else 3
    noise = float(PCA(k, precision=40).fit(X).high_precision_["noise_variance_"])  # type: ignore[index]
    got = PCA(k).fit(X).noise_variance_
    assert abs(got - noise) <= 1e-9 * noise


@pytest.mark.parametrize("name, make, seed", CASES[:4])
def test_the_covariance_path_would_have_lost_them_and_says_so(name: str, make: object, seed: int) -> None:
    X = make(seed)  # type: ignore[operator]
    exact = [float(v) for v in PCA(precision=40).fit(X).high_precision_["explained_variance_"]]  # type: ignore[index]
    with warnings.catch_warnings():
        # The path may also find small eigenvalues it cannot separate (a DegenerateEigenvalueWarning):
        # not what this test is about.
        warnings.simplefilter("ignore", DegenerateEigenvalueWarning)
        with pytest.warns(AccuracyWarning, match=r"solver='covariance': the eigenvalues of components .* may be off "
                          r"by up to .* relative \(about \d+ of 16 digits lost\)") as caught:
            cov = PCA(solver="covariance").fit(X)
    assert max(_relative_errors(cov.explained_variance_, exact)) > 1e-9  # the warning was deserved
    accuracy = next(w for w in caught if issubclass(w.category, AccuracyWarning))
    named = str(accuracy.message).split("components ")[1].split(" may")[0]
    assert str(len(exact)) in named.split(", ")  # the smallest is among those named
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccuracyWarning)
        PCA(solver="svd").fit(X)  # the SVD path has nothing to confess


def test_well_conditioned_data_keep_the_fast_covariance_path() -> None:
    rng = random.Random(11)
    X = [[rng.gauss(0, 1) + 0.3 * j for j in range(8)] for _ in range(400)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccuracyWarning)
        assert PCA().fit(X).solver_ == "covariance"
        assert PCA(solver="covariance").fit(X).solver_ == "covariance"


def test_constant_columns_do_not_send_auto_to_the_svd() -> None:
    rng = random.Random(12)
    X = [[rng.gauss(0, 1), 5.0, rng.gauss(0, 2), -1.0] for _ in range(50)]
    assert PCA().fit(X).solver_ == "covariance"


def test_the_noise_variance_warning_of_an_explicit_solver() -> None:
    X = strong(9)
    with pytest.warns(AccuracyWarning, match="noise_variance_"):
        PCA(3, solver="covariance").fit(X)


def test_squared_path_errors_follow_the_estimate() -> None:
    errs = squared_path_errors([4.0, 1.0, 0.0], 9, 2.0 ** -52)
    assert errs[0] == 3 * 2.0 ** -52 and errs[1] == 4 * errs[0] and errs[2] == float("inf")
    assert squared_path_errors([], 3, 1e-16) == [] and squared_path_errors([0.0], 3, 1e-16) == [0.0]
    assert 1e-12 < ACCURACY_TARGET < 1e-6


def test_the_wide_svd_agrees_with_the_gram_path_on_well_conditioned_data() -> None:
    rng = random.Random(13)
    Z = [[rng.gauss(0, 1) for _ in range(30)] for _ in range(8)]
    means = [sum(col) / 8 for col in zip(*Z)]
    Z = [[x - m for x, m in zip(row, means)] for row in Z]
    a, b = solve_svd(Z, 7.0, FLOAT), solve_gram(Z, 7.0, FLOAT)
    assert len(a.values) == len(b.values) == 8 and len(a.components) == 8
    for u, v in zip(a.values[:7], b.values[:7]):
        assert abs(u - v) <= 1e-13 * a.values[0]
    for p, q in zip(a.components[:7], b.components[:7]):
        assert abs(abs(sum(x * y for x, y in zip(p, q))) - 1) < 1e-12
    for i, p in enumerate(a.components):  # orthonormal, the completion included
        for j, q in enumerate(a.components):
            assert abs(sum(x * y for x, y in zip(p, q)) - (i == j)) < 1e-13


@pytest.mark.parametrize("factor", [1e-150, 1e150, 1e-300, 1e300])
def test_scaled_pca_of_data_near_the_ends_of_the_range_is_the_correlation_pca(factor: float) -> None:
    # Found by the golden corpus: with scale=True the spectrum (of unitless
    # standardised data) was scaled back by the data's power of two, giving
    # variances of 1e-299 instead of the correlation matrix's eigenvalues.
    rng = random.Random(21)
    X = [[round(rng.gauss(0, 1 + j), 3) for j in range(3)] for _ in range(8)]
    plain = PCA(convention="prcomp", scale=True).fit(X)
    far = PCA(convention="prcomp", scale=True).fit([[v * factor for v in row] for row in X])
    for a, b in zip(far.explained_variance_, plain.explained_variance_):
        assert abs(a - b) <= 1e-14 * b
    for a, b in zip(far.singular_values_, plain.singular_values_):
        assert abs(a - b) <= 1e-14 * b
    assert abs(far.scale_[0] / factor - plain.scale_[0]) <= 1e-14 * plain.scale_[0]


def test_the_mean_is_within_one_ulp_of_the_exact_mean() -> None:
    # Found by the golden corpus: lo of the mean hi + lo came from the rounded
    # deviations, and mean_ could be a few ulps off where the mean is small
    # next to the spread.
    from fractions import Fraction
    import math

    rng = random.Random(22)
    for trial in range(30):
        X = [[rng.gauss(0, 1) + 0.01 * trial, rng.gauss(0, 1e-3)] for _ in range(25)]
        fitted = PCA().fit(X)
        for j in range(2):
            exact = sum(Fraction(row[j]) for row in X) / len(X)
            assert abs(Fraction(fitted.mean_[j]) - exact) <= Fraction(math.ulp(float(exact))) / 2
