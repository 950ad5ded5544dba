"""noise_variance_ of the top-k solvers: the total less the kept eigenvalues, and a warning where they
nearly cancel (issue 21: solver='power'/'krylov' gave it 3.5x off without a word)."""

from __future__ import annotations

import random
import warnings

import pytest

from purepca import PCA, AccuracyWarning


def low_rank(noise: float, n: int = 400, d: int = 12, k: int = 3) -> list[list[float]]:
    rng = random.Random(1)
    X = []
    for _ in range(n):
        t = [rng.gauss(0, 1) for _ in range(k)]
        X.append([sum(t[i] * (1 + (i * 7 + j) % 5) for i in range(k)) + noise * rng.gauss(0, 1) for j in range(d)])
    return X


@pytest.mark.parametrize("solver", ["krylov", "power"])
def test_noise_variance_top_k_warns_where_it_cancels(solver: str) -> None:
    X = low_rank(1e-6)
    truth = float(PCA(3, precision=40).fit(X).high_precision_["noise_variance_"])
    with pytest.warns(AccuracyWarning, match=f"solver='{solver}': noise_variance_ may be off by up to"):
        fitted = PCA(3, solver=solver).fit(X)
    assert abs(fitted.noise_variance_ - truth) > 1e-4 * truth  # the loss the warning speaks of is real
    assert abs(PCA(3, solver="svd").fit(X).noise_variance_ - truth) < 1e-9 * truth


@pytest.mark.parametrize("solver", ["krylov", "power"])
def test_noise_variance_top_k_is_quiet_where_it_holds(solver: str) -> None:
    X = low_rank(0.3)
    truth = float(PCA(3, precision=40).fit(X).high_precision_["noise_variance_"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccuracyWarning)
        fitted = PCA(3, solver=solver).fit(X)
    assert abs(fitted.noise_variance_ - truth) < 1e-9 * truth
