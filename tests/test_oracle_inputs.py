"""The oracle's own inputs: a bad argument or a malformed result is a PurePCAError naming it, never a
comparison of nothing or a raw exception (issue 20, lines 12, 21 and 27)."""

from __future__ import annotations

import math

import pytest

from purepca import PurePCAError
from purepca.testing import assert_pca_close, eigen_clusters, subspace_distance

X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]]


@pytest.mark.parametrize("result, kwargs, message", [
    ({"explained_variance_": []}, {}, r"explained_variance_: empty; there is nothing to compare"),
    ({"explained_variance_": {1.0, 2.0}}, {}, r"explained_variance_: expected a list of numbers, got set"),
    ({"explained_variance_": ["a", 1.0]}, {}, r"explained_variance_: expected a list of numbers"),
    ({"explained_variance_": [1.0], "noise_variance_": "x"}, {}, r"noise_variance_: expected a number"),
    ({"explained_variance_": [1.0]}, {"rtol": math.nan}, r"rtol must be a finite real number > 0"),
    ({"explained_variance_": [1.0]}, {"rtol": -1.0}, r"rtol must be a finite real number > 0"),
    ({"explained_variance_": [1.0]}, {"rtol": math.inf}, r"rtol must be a finite real number > 0"),
    ({"explained_variance_": [1.0]}, {"rtol": "a"}, r"rtol must be a finite real number > 0"),
    ({"explained_variance_": [1.0]}, {"residual": math.nan}, r"residual must be a finite real number >= 0"),
    ({"explained_variance_": [1.0]}, {"residual": math.inf}, r"residual must be a finite real number >= 0"),
    ({"explained_variance_": [1.0]}, {"residual": -1.0}, r"residual must be a finite real number >= 0"),
])
def test_oracle_inputs_bad_results_and_arguments_are_named(result, kwargs, message) -> None:
    with pytest.raises(PurePCAError, match=message):
        assert_pca_close(result, X, **kwargs)


def test_oracle_inputs_eigen_clusters_and_subspace_distance() -> None:
    with pytest.raises(PurePCAError, match="holds a NaN or an infinity"):
        eigen_clusters([1.0, math.nan, 1.0])
    with pytest.raises(PurePCAError, match="tol must be a finite number >= 0"):
        eigen_clusters([1.0, 1.0], tol=-1)
    with pytest.raises(PurePCAError, match="expected a sequence of numbers, got str"):
        eigen_clusters("abc")  # type: ignore[arg-type]
    # Rows at the edges of the float range span what they span (an OverflowError before).
    assert subspace_distance([[1e154, 1e154]], [[1.0, 1.0]]) < 1e-15
    assert abs(subspace_distance([[1e-200, 0.0]], [[1.0, 1.0]]) - math.pi / 4) < 1e-15
    delta = 2.0 ** -20  # the angle between (1, 1 + delta) and (1, 1) is atan(delta/(2 + delta))
    assert abs(subspace_distance([[1e300, 1e300 * (1 + delta)]], [[1.0, 1.0]]) - math.atan(delta / (2 + delta))) < 1e-15
