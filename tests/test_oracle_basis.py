"""reference()'s starting basis (issue 42's speed): the covariance's eigenvectors by inverse iteration, made
orthonormal by one polar step, and the fit's path kept for wide data and for a failed inverse iteration.
Judged by exact arithmetic (Fractions) and mpmath, never by purepca itself."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from purepca.testing import answer, clear_cache, reference

mpmath = pytest.importorskip("mpmath")


def _data(n: int, d: int, seed: int = 0, offset: float = 0.0) -> list[list[float]]:
    rng = random.Random(seed)
    return [[offset + rng.gauss(0, 1) / (1 + 0.3 * j) for j in range(d)] for _ in range(n)]


def _exact_orthogonality(V: list[list[float]]) -> float:
    """max |V·Vᵀ - I| in exact arithmetic."""
    F = [[Fraction(x) for x in v] for v in V]
    return max(abs(float(sum(a * b for a, b in zip(F[i], F[j])) - (i == j)))
               for i in range(len(F)) for j in range(i, len(F)))


def _mp_eigen(X: list[list[float]]) -> tuple[list[float], list[list[float]]]:
    """The exact data's covariance (divisor n - 1) diagonalised by mpmath at 40 digits: values descending, vectors."""
    with mpmath.workdps(40):
        n, d = len(X), len(X[0])
        cols = [[mpmath.mpf(x) for x in c] for c in zip(*X)]
        means = [mpmath.fsum(c) / n for c in cols]
        Z = [[x - m for x in c] for c, m in zip(cols, means)]
        C = mpmath.matrix(d, d)
        for i in range(d):
            for j in range(i, d):
                C[i, j] = C[j, i] = mpmath.fdot(Z[i], Z[j]) / (n - 1)
        E, Q = mpmath.eigsy(C)
        order = sorted(range(d), key=lambda i: -E[i])
        return [float(E[i]) for i in order], [[float(Q[k, i]) for k in range(d)] for i in order]


def _errors(ref: answer.Reference, values: list[float], vectors: list[list[float]]) -> tuple[float, float]:
    """(largest eigenvalue error in ulps, largest ‖u ∓ v‖) of the reference against mpmath's."""
    ulps = max(abs(a - b) / math.ulp(b) for a, b in zip(ref.spectrum, values))
    worst = 0.0
    for u, v in zip(ref.components_, vectors):
        sign = 1.0 if math.fsum(a * b for a, b in zip(u, v)) >= 0 else -1.0
        worst = max(worst, math.sqrt(math.fsum((a - sign * b) ** 2 for a, b in zip(u, v))))
    return ulps, worst


def test_polished_basis_is_orthonormal_to_a_few_eps() -> None:
    rng = random.Random(3)
    # A basis off orthonormal by 1e-9 (as inverse iteration's vectors of close eigenvalues may be).
    d = 12
    Q = [[1.0 if i == j else 0.0 for j in range(d)] for i in range(d)]
    V = [[x + 1e-9 * rng.uniform(-1, 1) for x in row] for row in Q]
    assert _exact_orthogonality(V) > 1e-10
    P = answer._polished(V)
    assert P is not None and _exact_orthogonality(P) < 8 * 2.0 ** -52


def test_polished_refuses_a_basis_far_from_orthonormal() -> None:
    assert answer._polished([[1.0, 0.0], [0.1, 1.0]]) is None


def test_starting_basis_leaves_wide_and_tiny_data_to_the_fit() -> None:
    cols = [list(c) for c in zip(*_data(5, 8))]
    assert answer._starting_basis(cols, 5, 1) is None  # wide: the fit's Gram path
    assert answer._starting_basis([[1.0, 2.0, 3.0]], 3, 1) is None  # one column


def test_starting_basis_is_orthonormal_eigenvectors_of_the_covariance() -> None:
    X = _data(60, 10, seed=1)
    n = len(X)
    means = [math.fsum(c) / n for c in zip(*X)]
    cols = [[x - m for x in c] for c, m in zip(zip(*X), means)]
    V = answer._starting_basis(cols, n, 1)
    assert V is not None and len(V) == 10 and _exact_orthogonality(V) < 8 * 2.0 ** -52


@pytest.mark.slow  # (mpmath's eigenvalues of 40 x 40 and 30 x 30 at 40 digits: a few seconds)
@pytest.mark.parametrize("offset", [0.0, 1e4])
def test_reference_by_inverse_iteration_against_mpmath(offset: float) -> None:
    X = _data(120, 40, seed=2, offset=offset)
    values, vectors = _mp_eigen(X)
    clear_cache()
    ulps, angle = _errors(reference(X), values, vectors)
    # cd00a67's QL basis (not orthonormal to a few eps) reached 16 ulps and 5.6e-14 on 150 x 60
    assert ulps <= 4 and angle <= 1e-14, (ulps, angle)


@pytest.mark.slow
def test_reference_on_the_fits_path_against_mpmath(monkeypatch: pytest.MonkeyPatch) -> None:
    # Inverse iteration refused (a vector failing its residual check): the fit's QL basis, polished too.
    import purepca.linalg.stein as stein

    monkeypatch.setattr(stein, "eigh_inverse_iteration", lambda M, ctx: None)
    X = _data(90, 30, seed=4)
    values, vectors = _mp_eigen(X)
    clear_cache()
    ulps, angle = _errors(reference(X), values, vectors)
    clear_cache()
    assert ulps <= 4 and angle <= 1e-14, (ulps, angle)


def test_starting_basis_leaves_a_null_space_to_the_fit() -> None:
    # A zero column: inverse iteration would span the null space with an arbitrary basis; QL keeps the zeros.
    X = [[0.0, x, 2 * x + 1.0] for x in (0.5, 1.5, 2.0, 4.0, 7.0)]
    n = len(X)
    means = [math.fsum(c) / n for c in zip(*X)]
    cols = [[x - m for x in c] for c, m in zip(zip(*X), means)]
    assert answer._starting_basis(cols, n, 1) is None
    ref = reference(X)
    assert ref.spectrum[1:] == [0.0, 0.0] and ref.components_[0][0] == 0.0


def _columns(X: list[list[float]]) -> list[list[float]]:
    n = len(X)
    means = [math.fsum(c) / n for c in zip(*X)]
    return [[x - m for x in c] for c, m in zip(zip(*X), means)]


@pytest.mark.parametrize("offset", [0.0, 1e4])
def test_ritz_by_gram_is_taken_where_products_do_not_cancel_and_agrees_with_mpmath(
        offset: float, monkeypatch: pytest.MonkeyPatch) -> None:
    X = _data(250, 10, seed=5, offset=offset)
    values, vectors = _mp_eigen(X)
    taken = []

    def spy(*args: object) -> object:
        H = gram(*args)  # type: ignore[arg-type]
        taken.append(H is not None)
        return H

    gram = answer._ritz_by_gram
    monkeypatch.setattr(answer, "_ritz_by_gram", spy)
    clear_cache()
    ulps, angle = _errors(reference(X), values, vectors)
    assert taken == [True]
    assert ulps <= 4 and angle <= 1e-14, (ulps, angle)
    monkeypatch.setattr(answer, "_GRAM_SPREAD", 0.0)  # the rows' path, for the same figures
    clear_cache()
    ulps_rows, angle_rows = _errors(reference(X), values, vectors)
    clear_cache()
    assert taken == [True, False] and ulps_rows <= 4 and angle_rows <= 1e-14, (ulps_rows, angle_rows)


def test_ritz_by_gram_refuses_vectors_whose_products_cancel() -> None:
    # Nearly collinear columns: the smallest component's products z_kj·v_j cancel to 1e-6 of their size, where
    # the Gram's error (eps·s_i) would swamp what the rows' path keeps (eps·sqrt(λ_i·s_i)).
    rng = random.Random(7)
    X = [[a, b, a - b + 1e-6 * rng.gauss(0, 1), rng.gauss(0, 1)]
         for a, b in ((rng.gauss(0, 1), rng.gauss(0, 1)) for _ in range(200))]
    cols = _columns(X)
    start = answer._starting_pairs(cols, len(X), 1)
    assert start is not None and start[0] is not None
    assert answer._ritz_by_gram(cols, start[0], start[1], len(X) - 1, len(X) - 1) is None
    values, vectors = _mp_eigen(X)
    clear_cache()
    ref = reference(X)
    clear_cache()
    # The rows' path: each eigenvalue within what reference() claims (tests/test_oracle.py's bound against the
    # 50-digit answer: a few ulps relative and the centring's eps·sqrt(λ_1·λ_i), here 1.33 times that on PyPy in
    # reference mode, up to 1.26 in a hostile battery), below a backward-stable SVD's 2·sqrt(n + d)·eps·sqrt(λ_1·λ_i).
    for a, b in zip(ref.spectrum, values):
        assert abs(a - b) <= 8e-16 * b + 4e-16 * math.sqrt(values[0] * b), (a, b)
