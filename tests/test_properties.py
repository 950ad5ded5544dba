"""Hypothesis property tests: random shapes, scales and rank deficiency."""

from __future__ import annotations

import math
import os

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from helpers import covariance_error, decomposition_ratio, exact_covariance, orthogonality_ratio  # noqa: E402

from purepca import Moments, PurePCAError, as_matrix, covariance_matrix, jacobi_eigh  # noqa: E402

SETTINGS = settings(max_examples=int(os.environ.get("PUREPCA_HYPOTHESIS_EXAMPLES", "60")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

unit = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False, allow_infinity=False)


@st.composite
def symmetric_matrices(draw: st.DrawFn) -> list[list[float]]:
    """Symmetric matrices of size 1-8 with entries scaled by 2**k, |k| <= 500,
    and, half of the time, rank-deficient (B·Bᵀ with B of rank r < n)."""
    n = draw(st.integers(1, 8))
    scale = 2.0 ** draw(st.integers(-500, 500))
    if draw(st.booleans()):
        r = draw(st.integers(0, n - 1)) if n > 1 else 0
        B = [[draw(unit) for _ in range(r)] for _ in range(n)]
        A = [[math.fsum(a * b for a, b in zip(B[i], B[j])) * scale for j in range(n)] for i in range(n)]
    else:
        A = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i, n):
                A[i][j] = A[j][i] = draw(unit) * scale
    return A


@SETTINGS
@given(symmetric_matrices())
def test_jacobi_eigh_properties(A: list[list[float]]) -> None:
    before = [row[:] for row in A]
    r = jacobi_eigh(A)
    assert A == before
    n = len(A)
    assert all(a >= b for a, b in zip(r.values, r.values[1:]))
    assert all(math.isfinite(v) for v in r.values)
    assert decomposition_ratio(A, r.values, r.vectors) < 20
    assert orthogonality_ratio(r.vectors) < 20
    # The trace is preserved.
    trace = math.fsum(A[i][i] for i in range(n))
    assert abs(math.fsum(r.values) - trace) <= 8 * n * 2**-52 * max(abs(v) for v in r.values + [trace, 0.0]) + 1e-300


@st.composite
def data_matrices(draw: st.DrawFn) -> list[list[float]]:
    """Data with 2-30 rows, 1-4 columns, an offset, a scale, and possibly
    duplicated (collinear) or constant columns."""
    n = draw(st.integers(2, 30))
    d = draw(st.integers(1, 4))
    offset = draw(st.sampled_from([0.0, 1.0, -1e3, 1e6, 1e9, 1e12]))
    scale = 10.0 ** draw(st.integers(-100, 100))
    cols = [[draw(unit) * scale for _ in range(n)] for _ in range(d)]
    if d > 1 and draw(st.booleans()):
        cols[-1] = list(cols[0])  # rank deficiency
    return [[offset + col[i] for col in cols] for i in range(n)]


@SETTINGS
@given(data_matrices(), st.integers(1, 5))
def test_covariance_and_moments_properties(X: list[list[float]], chunk: int) -> None:
    C = covariance_matrix(X)
    exact = exact_covariance(X)
    d = len(X[0])
    # Symmetric, non-negative diagonal, and accurate where the data keeps
    # digits (offset + value rounds: the exact covariance is of those floats).
    assert all(C[i][j] == C[j][i] for i in range(d) for j in range(d))
    assert all(C[i][i] >= 0 for i in range(d))
    assert covariance_error(C, exact) < 1e-13
    m = Moments(chunk_size=chunk)
    m.update_many(X)
    assert covariance_error(m.covariance(), exact) < 1e-12
    # The covariance is positive semidefinite up to rounding.
    values = jacobi_eigh(C).values
    assert values[-1] >= -1e-12 * max(abs(values[0]), 1e-300)


bad_entries = st.sampled_from([float("nan"), float("inf"), -float("inf"), None, "1", True, 1j])


@SETTINGS
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_as_matrix_names_the_first_bad_entry(n: int, d: int, data: st.DataObject) -> None:
    X: list[list[object]] = [[float(i + j) for j in range(d)] for i in range(n)]
    i, j = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, d - 1))
    X[i][j] = data.draw(bad_entries)
    with pytest.raises(PurePCAError, match=rf"X: row {i}, column {j} is "):
        as_matrix(X)
