"""Scores of data with a large common offset are as accurate as scores of centred data.

The mean is carried as a pair (the rounded mean and its rounding error), so
``x - mean`` loses nothing: transform, fit_transform, inverse_transform and
score_samples are checked against exact rational arithmetic.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from purepca import PCA


def offset_data(offset: float, spread: float, n: int = 60, d: int = 4, seed: int = 0) -> list[list[float]]:
    rng = random.Random(seed)
    mix = [[rng.gauss(0.0, 1.0) for _ in range(d)] for _ in range(d)]
    rows = []
    for _ in range(n):
        z = [rng.gauss(0.0, 1.0) * (3.0 ** -j) for j in range(d)]
        rows.append([offset + spread * sum(m * x for m, x in zip(col, z)) for col in zip(*mix)])
    return rows


def exact_scores(X: list[list[float]], pca: PCA) -> list[list[Fraction]]:
    n = len(X)
    mean = [sum(Fraction(x) for x in col) / n for col in zip(*X)]
    W = [[Fraction(w) for w in row] for row in pca.components_]
    return [[sum(w * (Fraction(x) - m) for w, x, m in zip(row, xs, mean)) for row in W] for xs in X]


def worst_relative(got: list[list[float]], exact: list[list[Fraction]]) -> float:
    k = len(exact[0])
    worst = 0.0
    for j in range(k):
        largest = max(abs(row[j]) for row in exact)
        err = max(abs(Fraction(g[j]) - e[j]) for g, e in zip(got, exact))
        worst = max(worst, float(err / largest))
    return worst


@pytest.mark.parametrize("offset", [1e6, 1e9, 1e12])
@pytest.mark.parametrize("spread", [1.0, 1e-2, 1e-3])
def test_transform_of_offset_data_is_exact_to_1e_13(offset: float, spread: float) -> None:
    X = offset_data(offset, spread)
    pca = PCA().fit(X)
    exact = exact_scores(X, pca)
    assert worst_relative(pca.transform(X), exact) < 1e-13
    assert worst_relative(PCA().fit_transform(X), exact) < 1e-13
    # The training scores through R's x, and through another solver.
    assert worst_relative(pca.x, exact) < 1e-13
    svd = PCA(solver="svd").fit(X)
    assert worst_relative(svd.transform(X), exact_scores(X, svd)) < 1e-13


@pytest.mark.parametrize("offset", [1e9, 1e12])
def test_inverse_transform_of_offset_data_returns_the_rows(offset: float) -> None:
    X = offset_data(offset, 1e-3)
    pca = PCA().fit(X)
    back = pca.inverse_transform(pca.transform(X))
    # All components kept: the round trip is the identity up to the rounding of the result.
    for row, orig in zip(back, X):
        for a, b in zip(row, orig):
            assert abs(a - b) <= 2 * abs(b) * 2.0 ** -52


def test_score_samples_do_not_depend_on_the_offset() -> None:
    base = offset_data(0.0, 1e-3, seed=3)
    shifted = [[x + 1e9 for x in row] for row in base]
    a = PCA(2).fit(base).score_samples(base)
    b = PCA(2).fit(shifted).score_samples(shifted)
    # The shift itself rounds each entry by up to half an ulp of 1e9 (6e-8,
    # against a spread of 1e-3), so the two data sets differ by that much.
    assert max(abs(x - y) / abs(x) for x, y in zip(a, b)) < 1e-3
