"""Eigenvectors by inverse iteration (purepca.linalg.stein), the Gram path's eigensolver from
n = 150 on: LAPACK's test ratios on its matrix types, the fallback to QL, and a wide PCA fit."""

from __future__ import annotations

import math

import pytest
from helpers import IS_PYPY, lapack_matrix

from purepca import FLOAT, PCA
from purepca.linalg import tridiagonal_eigh
from purepca.linalg.jacobi import EighResult
from purepca.linalg.stein import _tridiagonal_vectors, eigh_inverse_iteration
from purepca.solvers import INVERSE_ITERATION_MIN_N

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

SIZES = [2, 3, 5, 20, 50]
LARGE_KINDS = () if IS_PYPY else (8, 9, 10, 13, 15)  # graded, clustered and random spectra at n = 120


def _solver(A: list[list[float]]) -> EighResult:
    M = [[float(x) for x in row] for row in A]
    return eigh_inverse_iteration(M, FLOAT) or tridiagonal_eigh(M)


@pytest.mark.slow
@pytest.mark.parametrize("kind,n", [(kind, n) for kind in range(1, 22) for n in SIZES] + [(k, 120) for k in LARGE_KINDS])
def test_stein_eigh_residuals_and_orthogonality_on_lapack_matrices(kind: int, n: int) -> None:
    # Zero, identity, clustered spectra down to ulp, graded, scaled near overflow and underflow,
    # random.  Each pair's residual is LAPACK's ratio below 20; two vectors are orthogonal to
    # eps·‖A‖/gap (inverse iteration's accuracy, that of any backward-stable method: the Gram path
    # orthonormalises what it maps back), and exactly so within a cluster of 1e-9·‖A‖.
    A = [[float(x) for x in row] for row in lapack_matrix(kind, n)]
    original = [row[:] for row in A]
    r = _solver(A)
    assert A == original
    assert all(a >= b for a, b in zip(r.values, r.values[1:]))
    size = max((sum(abs(x) for x in row) for row in A), default=0.0)
    eps = 2.0 ** -52
    for lam, v in zip(r.values, r.vectors):
        residual = max(abs(math.fsum(a * x for a, x in zip(row, v)) - lam * v[i]) for i, row in enumerate(A))
        assert residual <= 20 * n * eps * size, (kind, n, residual)
        assert abs(math.fsum(x * x for x in v) - 1.0) <= 20 * n * eps
    for i in range(n):
        for j in range(i + 1, n):
            overlap = abs(math.fsum(x * y for x, y in zip(r.vectors[i], r.vectors[j])))
            gap = r.values[i] - r.values[j]
            allowed = 20 * n * eps * (1.0 + (size / gap if gap > 0 else 0.0))
            assert overlap <= allowed, (kind, n, i, j, overlap, gap)


@pytest.mark.parametrize("kind", [13, 14, 15, 8, 9, 10])
def test_stein_eigh_takes_inverse_iteration_on_random_and_clustered_matrices(kind: int) -> None:
    A = lapack_matrix(kind, 40)
    r = eigh_inverse_iteration([[float(x) for x in row] for row in A], FLOAT)
    assert r is not None
    assert r.values == tridiagonal_eigh(A).values or max(
        abs(a - b) for a, b in zip(r.values, tridiagonal_eigh(A).values)) <= 40 * 2.0 ** -52 * max(map(abs, r.values))


def test_stein_vectors_refuse_a_wrong_eigenvalue() -> None:
    # Not an eigenvalue of the 2 x 2 [[2, 1], [1, 2]] (3 and 1): the residual check fails, so the
    # caller takes QL instead of returning a false vector.
    assert _tridiagonal_vectors([2.0, 2.0], [1.0], [3.0, 1.5]) is None
    vectors = _tridiagonal_vectors([2.0, 2.0], [1.0], [3.0, 1.0])
    assert vectors is not None
    assert [round(abs(x), 12) for x in vectors[0]] == [0.707106781187, 0.707106781187]


@pytest.mark.slow
def test_stein_gram_path_of_a_wide_fit_matches_the_ql_gram_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # Wide data at the size where the Gram path switches to inverse iteration: the same variances and
    # components (up to sign) as the same path with QL's rotations, and orthonormal components.
    import random

    import purepca.solvers

    rng = random.Random(7)
    n, d = INVERSE_ITERATION_MIN_N, INVERSE_ITERATION_MIN_N + 30
    X = [[rng.gauss(0.0, 1.0 / (1 + 0.1 * j)) for j in range(d)] for _ in range(n)]
    new = PCA(solver="gram").fit(X)
    monkeypatch.setattr(purepca.solvers, "INVERSE_ITERATION_MIN_N", 10**9)
    old = PCA(solver="gram").fit(X)
    top = old.explained_variance_[0]
    for a, b in zip(new.explained_variance_, old.explained_variance_):
        assert abs(a - b) <= 1e-12 * top
    for i, (u, v) in enumerate(zip(new.components_[:n - 1], old.components_)):
        assert abs(abs(math.fsum(x * y for x, y in zip(u, v))) - 1.0) <= 1e-9, i
    for i in range(0, n, 7):
        for j in range(i, n, 5):
            overlap = math.fsum(x * y for x, y in zip(new.components_[i], new.components_[j]))
            assert abs(overlap - (i == j)) <= 1e-13
