"""power_iteration and subspace_iteration: agreement with Jacobi, honest failure."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from helpers import qdq, random_orthogonal

from purepca import ConvergenceError, DecimalContext, PurePCAError, jacobi_eigh, power_iteration, subspace_iteration


def spectrum_matrix(values: list[float], seed: int = 0) -> list[list[float]]:
    # Offset the seed: Random(0) is also the start generator of the methods under test.
    return qdq(random_orthogonal(len(values), random.Random(seed + 1000)), values)


def aligned(u: list[float], v: list[float]) -> float:
    """|cos| of the angle between two unit vectors (sign does not matter)."""
    return abs(sum(a * b for a, b in zip(u, v)))


WELL_SEPARATED = [10.0, 5.0, 2.5, 1.0, 0.5, 0.25, 0.1, 0.05, 0.01, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("method", [power_iteration, subspace_iteration])
@pytest.mark.parametrize("k", [1, 3, 5])
def test_iterations_agree_with_jacobi_on_well_separated_spectra(method, k: int) -> None:  # type: ignore[no-untyped-def]
    A = spectrum_matrix(WELL_SEPARATED, seed=k)
    ref = jacobi_eigh(A)
    r = method(A, k=k)
    assert len(r.values) == k and len(r.vectors) == k
    for i in range(k):
        assert abs(r.values[i] - ref.values[i]) <= 1e-12 * ref.values[0]
        assert aligned(r.vectors[i], ref.vectors[i]) > 1 - 1e-10
        assert r.residuals[i] <= 2e-12 * ref.values[0]


@pytest.mark.parametrize("method", [power_iteration, subspace_iteration])
def test_iterations_accept_a_function_operator(method) -> None:  # type: ignore[no-untyped-def]
    A = spectrum_matrix([4.0, 2.0, 1.0, 0.5, 0.1])
    calls = []

    def op(v: list[float]) -> list[float]:
        calls.append(1)
        return [sum(a * x for a, x in zip(row, v)) for row in A]

    r = method(op, d=5, k=2)
    assert [round(v, 10) for v in r.values] == [4.0, 2.0]
    assert calls


@pytest.mark.parametrize("method", [power_iteration, subspace_iteration])
def test_iterations_are_deterministic(method) -> None:  # type: ignore[no-untyped-def]
    A = spectrum_matrix(WELL_SEPARATED)
    a, b = method(A, k=2, seed=7), method(A, k=2, seed=7)
    assert a == b


@pytest.mark.parametrize("method", [power_iteration, subspace_iteration])
def test_negative_eigenvalue_of_largest_magnitude(method) -> None:  # type: ignore[no-untyped-def]
    A = spectrum_matrix([-6.0, 3.0, 1.0, 0.5])
    r = method(A, k=2)
    assert [round(v, 10) for v in r.values] == [-6.0, 3.0]
    ref = jacobi_eigh(A)
    assert aligned(r.vectors[0], ref.vectors[-1]) > 1 - 1e-10


def test_power_iteration_raises_on_a_tiny_gap_within_a_small_budget() -> None:
    A = [[1.0, 0.0, 0.0], [0.0, 1.0 - 1e-6, 0.0], [0.0, 0.0, 0.5]]
    with pytest.raises(ConvergenceError, match=r"did not converge in 500 iterations: residual .* factor 1\.0000") as info:
        power_iteration(A, max_iter=500)
    assert info.value.iterations == 500
    assert info.value.residual > 1e-12


def test_power_iteration_raises_on_plus_minus_pair() -> None:
    A = [[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 0.5]]
    with pytest.raises(ConvergenceError, match=r"gap between this eigenvalue and the next in magnitude is too small"):
        power_iteration(A, max_iter=2000)


def test_subspace_iteration_resolves_what_power_iteration_cannot() -> None:
    # The block spans both top eigenvectors, so Rayleigh–Ritz separates them:
    # the right answer, not a mixture.
    for A, want in [
        ([[1.0, 0.0, 0.0], [0.0, 1.0 - 1e-6, 0.0], [0.0, 0.0, 0.5]], 1.0),
        ([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 0.5]], 1.0),
    ]:
        r = subspace_iteration(A, k=1, max_iter=50)
        assert abs(r.values[0] - want) < 1e-15
        assert abs(abs(r.vectors[0][0]) - 1.0) < 1e-9


def test_subspace_iteration_raises_when_the_block_cannot_separate() -> None:
    # Block of 2 on a spectrum whose 2nd and 3rd eigenvalues are 1e-7 apart
    # and the 1st and 2nd equal in magnitude: k=2 needs |λ3/λ2| < 1.
    A = spectrum_matrix([1.0, -1.0, 1.0 - 1e-7, 0.1, 0.01])
    with pytest.raises(ConvergenceError, match=r"subspace_iteration did not converge in 30 iterations"):
        subspace_iteration(A, k=2, block_size=2, max_iter=30)


def test_subspace_iteration_handles_rank_deficient_operators() -> None:
    A = spectrum_matrix([3.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    r = subspace_iteration(A, k=4)
    assert [round(v, 12) + 0.0 for v in r.values] == [3.0, 1.0, 0.0, 0.0]
    z = subspace_iteration([[0.0] * 3 for _ in range(3)], k=2)
    assert z.values == [0.0, 0.0]


def test_iterations_in_decimal_context() -> None:
    ctx = DecimalContext(40)
    A = [[2, 1, 0], [1, 2, 0], [0, 0, 0.5]]
    r = subspace_iteration(A, k=1, context=ctx)
    assert isinstance(r.values[0], Decimal)
    assert abs(r.values[0] - 3) < Decimal("1e-28")
    p = power_iteration(A, k=1, context=ctx)
    assert abs(p.values[0] - 3) < Decimal("1e-28")


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: power_iteration([[1.0]], k=2), r"k must be an int between 1 and d = 1, got 2"),
        (lambda: subspace_iteration([[1.0]], k=0), r"k must be an int between 1 and d = 1, got 0"),
        (lambda: power_iteration(lambda v: v, k=1), r"d: a callable operator needs its dimension d"),
        (lambda: subspace_iteration(lambda v: v[:1], d=2), r"op\(v\): returned 1 values for a vector of dimension 2"),
        (lambda: subspace_iteration([[1.0, 0.0], [0.0, 1.0]], d=3), r"d: the matrix is 2 x 2 but d = 3"),
        (lambda: power_iteration([[1.0, 2.0], [0.0, 1.0]]), r"op is not symmetric"),
        (lambda: power_iteration([[1.0]], max_iter=0), r"max_iter must be a positive int, got 0"),
        (lambda: subspace_iteration([[1.0]], tol=-1.0), r"tol must be a finite real number > 0.0, got -1.0"),
        (lambda: subspace_iteration([[1.0, 0.0], [0.0, 1.0]], k=2, block_size=1), r"block_size must be an int between k = 2 and d = 2, got 1"),
        (lambda: subspace_iteration(lambda v: [float("nan")] * 2, d=2), r"op\(v\): entry 0 is NaN"),
    ],
)
def test_iterations_reject_bad_input(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PurePCAError, match=message):
        call()


def test_iterations_do_not_mutate_the_matrix() -> None:
    A = spectrum_matrix([3.0, 2.0, 1.0])
    before = [row[:] for row in A]
    power_iteration(A, k=2)
    subspace_iteration(A, k=2)
    assert A == before
