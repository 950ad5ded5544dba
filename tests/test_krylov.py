"""lanczos: agreement with full solvers, algebraic ordering, multiplicities, block operators, errors."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest
from helpers import qdq, random_orthogonal

from purepca import ConvergenceError, DecimalContext, PurePCAError
from purepca.linalg import jacobi_eigh
from purepca.linalg.krylov import lanczos


def matrix_with(values: list[float], seed: int) -> list[list[float]]:
    return qdq(random_orthogonal(len(values), random.Random(seed)), values)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_lanczos_matches_jacobi_on_decaying_spectra(seed: int) -> None:
    rng = random.Random(seed)
    values = sorted((rng.expovariate(1.0) for _ in range(60)), reverse=True)
    A = matrix_with(values, seed)
    r = lanczos(A, k=5, seed=seed)
    full = jacobi_eigh(A)
    assert max(abs(a - b) for a, b in zip(r.values, full.values[:5])) < 1e-12 * values[0]
    for u, v in zip(r.vectors, full.vectors[:5]):
        assert abs(abs(sum(a * b for a, b in zip(u, v))) - 1.0) < 1e-10
    assert max(r.residuals) <= 64 * math.sqrt(60) * 2.0 ** -52 * values[0] or max(r.residuals) < 1e-12 * values[0]


def test_lanczos_finds_algebraically_largest_not_largest_magnitude() -> None:
    A = matrix_with([3.0, 1.0, 0.5, 0.0, -10.0, -20.0] + [0.1] * 20, 4)
    assert [round(v, 10) for v in lanczos(A, k=2).values] == [3.0, 1.0]
    assert [round(v, 10) for v in lanczos(A, k=2, which="magnitude").values] == [-20.0, -10.0]


def test_lanczos_finds_a_repeated_eigenvalue_with_a_block() -> None:
    A = matrix_with([5.0, 5.0, 5.0, 2.0] + [1.0 - i / 40 for i in range(36)], 9)
    r = lanczos(A, k=4, block_size=3)
    assert [round(v, 10) for v in r.values] == [5.0, 5.0, 5.0, 2.0]


def test_lanczos_blocked_operator_and_callable_agree() -> None:
    A = matrix_with([float(30 - i) for i in range(30)], 1)

    def one(v: list[float]) -> list[float]:
        return [sum(a * x for a, x in zip(row, v)) for row in A]

    calls: list[int] = []

    def block(V: list[list[float]]) -> list[list[float]]:
        calls.append(len(V))
        return [one(v) for v in V]

    a = lanczos(one, d=30, k=3)
    b = lanczos(block, d=30, k=3, blocked=True)
    assert a.values == b.values
    assert max(calls) > 1  # blocks really are passed whole


def test_lanczos_small_space_is_solved_exactly() -> None:
    A = [[2.0, 1.0], [1.0, 2.0]]
    r = lanczos(A, k=2)
    assert [round(v, 14) for v in r.values] == [3.0, 1.0]


def test_lanczos_decimal_context() -> None:
    A = matrix_with([4.0, 3.0, 2.0, 1.0, 0.5, 0.25], 2)
    ctx = DecimalContext(40)
    r = lanczos(A, k=2, context=ctx)
    assert all(isinstance(v, Decimal) for v in r.values)
    ref = jacobi_eigh(A, context=ctx).values
    assert all(abs(a - b) < Decimal("1e-25") for a, b in zip(r.values, ref))


def test_lanczos_is_deterministic() -> None:
    A = matrix_with([1.0 / (i + 1) for i in range(40)], 3)
    assert lanczos(A, k=4, seed=5) == lanczos(A, k=4, seed=5)


def test_lanczos_raises_convergence_error_with_the_residual() -> None:
    values = [1.0 - i * 1e-7 for i in range(6)] + [0.5 - i / 200 for i in range(94)]
    A = matrix_with(values, 6)
    with pytest.raises(ConvergenceError, match=r"lanczos did not converge in 1 restarts \(\d+ products with the operator\): largest residual") as info:
        lanczos(A, k=3, max_restarts=1, block_size=1, max_basis=8)
    assert info.value.residual > 0


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"k": 0}, "k must be an int between 1 and d = 3, got 0"),
        ({"k": 4}, "k must be an int between 1 and d = 3, got 4"),
        ({"which": "smallest"}, "which must be one of 'largest', 'magnitude'; got 'smallest'"),
        ({"block_size": 0}, "block_size must be an int between 1 and d = 3, got 0"),
        ({"max_basis": 1, "k": 2}, r"max_basis must be an int of at least min\(d, k \+ block_size\) = 3, got 1"),
        ({"tol": -1.0}, "tol must be a finite real number > 0.0, got -1.0"),
        ({"max_restarts": 0}, "max_restarts must be a positive int, got 0"),
        ({"blocked": 1}, "blocked must be True or False, got 1"),
    ],
)
def test_lanczos_rejects_bad_arguments(kwargs: dict, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        lanczos([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]], **kwargs)


def test_lanczos_rejects_bad_operators() -> None:
    with pytest.raises(PurePCAError, match="d: a callable operator needs its dimension d"):
        lanczos(lambda v: v, k=1)
    with pytest.raises(PurePCAError, match=r"op\(v\): returned 2 values for a vector of dimension 3"):
        lanczos(lambda v: v[:2], d=3, k=1)
    with pytest.raises(PurePCAError, match=r"op\(V\): returned 1 x 3 for 2 vectors of dimension 3"):
        lanczos(lambda V: V[:1], d=3, k=1, blocked=True)
    with pytest.raises(PurePCAError, match="blocked=True needs a function"):
        lanczos([[1.0]], k=1, blocked=True)
