"""Hypothesis property tests: random shapes, scales and rank deficiency."""

from __future__ import annotations

import math
import os

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from helpers import covariance_error, decomposition_ratio, examples, exact_covariance, orthogonality_ratio  # noqa: E402

from purepca import Moments, PurePCAError, as_matrix, covariance_matrix, jacobi_eigh  # noqa: E402

SETTINGS = settings(max_examples=int(os.environ.get("PUREPCA_HYPOTHESIS_EXAMPLES", examples(60))), deadline=None, suppress_health_check=[HealthCheck.too_slow])

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


@st.composite
def pca_data(draw: st.DrawFn) -> list[list[float]]:
    """2-12 rows, 1-6 columns (wide or tall), an offset and a scale, never constant."""
    n = draw(st.integers(2, 12))
    d = draw(st.integers(1, 6))
    offset = draw(st.sampled_from([0.0, 3.0, -1e4, 1e8]))
    scale = 10.0 ** draw(st.integers(-50, 50))
    X = [[offset + draw(st.floats(-1, 1, allow_nan=False)) * scale for _ in range(d)] for _ in range(n)]
    # Columns that vary, by more than a float's variance can resolve (below
    # ~1e-154 the variance underflows: that has its own test).
    hypothesis.assume(all(1e-140 < max(col) - min(col) for col in zip(*X)))
    return X


@SETTINGS
@given(pca_data(), st.sampled_from(["jacobi", "gram", "svd"]), st.booleans(), st.booleans())
def test_pca_properties(X: list[list[float]], solver: str, scale: bool, whiten: bool) -> None:
    import warnings

    from purepca import PCA

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate spectra are legal input here
        pca = PCA(solver=solver, scale=scale, whiten=whiten).fit(X)
    k, d = pca.n_components_, len(X[0])
    assert k == min(len(X), d)
    ev = pca.explained_variance_
    assert all(v >= 0 for v in ev) and all(a >= b for a, b in zip(ev, ev[1:]))
    assert math.fsum(pca.explained_variance_ratio_) <= 1 + 1e-12
    W = pca.components_
    for i in range(k):
        for j in range(k):
            g = math.fsum(a * b for a, b in zip(W[i], W[j]))
            assert abs(g - (1.0 if i == j else 0.0)) < 1e-9
    # With every component kept, inverse_transform undoes transform, to
    # within rounding of the data's size (normwise: a column far smaller than
    # the others is only as accurate as the whole; scaled columns are
    # compared on their own scale).
    back = pca.inverse_transform(pca.transform(X))
    sizes = [max(abs(v) for v in col) for col in zip(*X)]
    overall = max(sizes)
    for j, col in enumerate(zip(*X)):
        size = sizes[j] if scale else overall
        assert all(abs(row[j] - x) <= 1e-8 * size for row, x in zip(back, col))
