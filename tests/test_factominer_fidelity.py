"""convention="factominer" as FactoMineR's PCA does it (issue 11): its sign rule, including the two cases
where it keeps the solver's sign, and constant columns left unscaled instead of refused."""

from __future__ import annotations

import math
import random

import pytest

from purepca import PCA
from purepca.conventions import sign_flips


def _data(seed: int, n: int = 30, d: int = 4) -> list[list[float]]:
    rng = random.Random(seed)
    return [[rng.gauss(0, 1 + j) + 0.5 * rng.gauss(0, 1) * (j % 2) for j in range(d)] for _ in range(n)]


def test_the_column_sums_of_the_kept_components_are_made_positive() -> None:
    for seed in range(10):
        pca = PCA(3, convention="factominer").fit(_data(seed))
        assert all(math.fsum(c) >= 0 for c in pca.components_)


def test_one_component_of_tall_data_keeps_the_solvers_sign() -> None:
    # svd.triplet: "if (ncp > 1)" guards the sign fix when ncol(X) < nrow(X).
    for seed in range(10):
        X = _data(seed)
        one = PCA(1, convention="factominer").fit(X)
        free = PCA(1, convention="factominer", sign="none").fit(X)
        assert one.components_ == free.components_
    # Wide data (n <= p) always get the fix, whatever ncp.
    wide = [[random.Random(s).gauss(0, 1) for _ in range(6)] for s in range(4)]
    pca = PCA(1, convention="factominer").fit(wide)
    assert math.fsum(pca.components_[0]) >= 0


def test_a_vector_whose_sum_is_zero_keeps_its_sign() -> None:
    assert sign_flips([[-0.5, 0.5], [0.6, -0.8]], "factominer") == [False, True]
    assert sign_flips([[-0.5, 0.5]], "sum_positive") == [True]  # the other rule decides by the first entry


def test_a_constant_column_is_left_unscaled() -> None:
    rng = random.Random(5)
    X = [[rng.gauss(0, 1), 3.0, rng.gauss(0, 2), rng.gauss(0, 1)] for _ in range(20)]
    with pytest.raises(Exception, match="constant"):
        PCA(convention="prcomp", scale=True).fit(X)
    facto = PCA(convention="factominer").fit(X)
    assert facto.scale_[1] == 1.0 and facto.explained_variance_[-1] == 0.0
    rest = PCA(convention="factominer").fit([[r[0], r[2], r[3]] for r in X])
    for a, b in zip(facto.explained_variance_[:3], rest.explained_variance_):
        assert abs(a - b) <= 1e-13 * b
    # A column varying by 1e-16 (standard deviation 5e-17, below FactoMineR's 1e-16) is not scaled up either.
    Y = [[r[0], (i % 2) * 1e-16, r[2], r[3]] for i, r in enumerate(X)]
    tiny = PCA(convention="factominer").fit(Y)
    assert tiny.scale_[1] == 1.0 and tiny.explained_variance_[-1] < 1e-30


def test_the_svd_path_agrees_on_constant_columns() -> None:
    rng = random.Random(6)
    X = [[rng.gauss(0, 1), 3.0, rng.gauss(0, 2)] for _ in range(15)]
    a = PCA(convention="factominer", solver="covariance").fit(X)
    b = PCA(convention="factominer", solver="svd").fit(X)
    for u, v in zip(a.explained_variance_, b.explained_variance_):
        assert abs(u - v) <= 1e-13 * a.explained_variance_[0]


def test_a_sign_rule_that_is_not_a_name_is_refused_by_name() -> None:
    # The rules are a table of functions; a rule given as a set (unhashable) is a PurePCAError, not a TypeError.
    from purepca.conventions import apply_sign_rule
    from purepca.errors import PurePCAError

    with pytest.raises(PurePCAError, match="sign must be one of"):
        apply_sign_rule([[-1.0, 0.5]], {"first_positive"})  # type: ignore[arg-type]
