"""The last three doors the contract fuzzer found open (issue 41): each hostile value a PurePCAError."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from purepca import PurePCAError
from purepca.testing import eigen_clusters, reference

X = [[1.0, 2.0, 3.0], [2.0, 1.0, 0.5], [0.0, 4.0, 1.0], [3.0, 3.0, 2.0]]


@pytest.mark.parametrize("digits", [Decimal("sNaN"), set(), [], [[1, 2], [3]], 2.5, "30"])
def test_reference_digits_that_are_not_an_int_are_refused(digits: Any) -> None:
    with pytest.raises(PurePCAError, match="digits must be None or an int"):
        reference(X, digits=digits)


def test_eigen_clusters_tol_past_the_float_range_is_refused() -> None:
    with pytest.raises(PurePCAError, match="eigen_clusters: tol must be a finite number >= 0"):
        eigen_clusters([3.0, 2.0, 1.0], tol=10 ** 400)
    assert eigen_clusters([3.0, 2.0, 1.0], tol=0.5) == [[0, 1, 2]]


@pytest.mark.parametrize("offset", [10 ** 400, "x", b"x", Decimal("sNaN"), set(), [], float("nan")])
def test_offset_data_offset_that_is_not_a_finite_number_is_refused(offset: Any) -> None:
    pytest.importorskip("hypothesis")
    from purepca.testing.strategies import offset_data
    with pytest.raises(PurePCAError, match="offset_data: offset"):
        offset_data(offset=offset)
