"""tridiagonal_eigh and eigh: LAPACK's battery, 50-digit references, errors, tracing, the auto rule."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest
from helpers import IS_PYPY, check_lapack_ratios, orthogonality_ratio, qdq, random_orthogonal, random_symmetric

from purepca import ConvergenceError, DecimalContext, PurePCAError
from purepca.linalg import eigh, jacobi_eigh, tridiagonal_eigh
from purepca.linalg.eigen import JACOBI_MAX_N, choose_eigh_method
from purepca.linalg.tridiagonal import TridiagonalStep, tridiagonal_ql, tridiagonalize

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

THRESHOLD = 20.0
SIZES = [0, 1, 2, 3, 5, 20, 50]
RANDOM_TYPES = (13, 14, 15)


def cases() -> list[tuple[int, int]]:
    out = [(kind, n) for kind in range(1, 22) for n in SIZES]
    if not IS_PYPY:
        out += [(kind, 100) for kind in RANDOM_TYPES]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind,n", cases())
def test_tridiagonal_eigh_lapack_ratios(kind: int, n: int) -> None:
    check_lapack_ratios(tridiagonal_eigh, kind, n, THRESHOLD)


@pytest.mark.parametrize("seed", range(4))
def test_tridiagonal_eigh_at_50_digits_agrees_with_mpmath_eigsy(seed: int) -> None:
    mpmath = pytest.importorskip("mpmath")
    A = random_symmetric(12, seed)
    ctx = DecimalContext(50)
    ours = tridiagonal_eigh(A, context=ctx)
    assert all(isinstance(v, Decimal) for v in ours.values)
    with mpmath.workdps(50):
        E, Q = mpmath.eigsy(mpmath.matrix(A))
        want = sorted((E[i] for i in range(len(A))), reverse=True)
        norm = mpmath.mnorm(mpmath.matrix(A), "f")
        for got, w in zip(ours.values, want):
            assert abs(mpmath.mpf(str(got)) - w) / norm < mpmath.mpf("1e-45")
        # The vectors: residual ‖A·v - λ·v‖ at 50 digits.
        M = mpmath.matrix(A)
        for lam, v in zip(ours.values, ours.vectors):
            x = mpmath.matrix([mpmath.mpf(str(t)) for t in v])
            res = mpmath.norm(M * x - mpmath.mpf(str(lam)) * x)
            assert res / norm < mpmath.mpf("1e-45")


def test_tridiagonal_eigh_decimal_vectors_are_orthonormal_to_50_digits() -> None:
    ctx = DecimalContext(50)
    r = tridiagonal_eigh(random_symmetric(8, 7), context=ctx)
    with ctx.local():
        for i, u in enumerate(r.vectors):
            for j, v in enumerate(r.vectors):
                target = Decimal(1) if i == j else Decimal(0)
                assert abs(ctx.dot(u, v) - target) < Decimal("1e-47")


@pytest.mark.parametrize("n", [5, 30])
def test_tridiagonal_eigh_agrees_with_jacobi(n: int) -> None:
    A = random_symmetric(n, n)
    t, j = tridiagonal_eigh(A), jacobi_eigh(A)
    assert max(abs(a - b) for a, b in zip(t.values, j.values)) < 1e-13 * n
    for u, v in zip(t.vectors, j.vectors):
        assert abs(abs(sum(a * b for a, b in zip(u, v))) - 1.0) < 1e-10


@pytest.mark.parametrize("factor", [2.0 ** 900, 2.0 ** -900, 1e-300])
def test_tridiagonal_eigh_scales_near_overflow_and_underflow(factor: float) -> None:
    A = random_symmetric(6, 3)
    base = tridiagonal_eigh(A).values
    scaled = tridiagonal_eigh([[x * factor for x in row] for row in A]).values
    top = max(abs(v) for v in base)
    assert all(math.isfinite(v) for v in scaled)
    assert max(abs(s / factor - b) for s, b in zip(scaled, base)) < 1e-13 * top


def test_tridiagonal_eigh_degenerate_and_already_tridiagonal() -> None:
    # Identity: every reflection is the identity, nothing to iterate.
    r = tridiagonal_eigh([[1.0 if i == j else 0.0 for j in range(5)] for i in range(5)])
    assert r.values == [1.0] * 5 and r.sweeps == 0 and r.rotations == 0
    # A triple eigenvalue inside a random basis: the vectors still span it orthonormally.
    A = qdq(random_orthogonal(6, random.Random(2)), [3.0, 3.0, 3.0, 1.0, 0.5, -2.0])
    r = tridiagonal_eigh(A)
    assert orthogonality_ratio(r.vectors) < THRESHOLD
    assert max(abs(a - b) for a, b in zip(r.values, [3.0, 3.0, 3.0, 1.0, 0.5, -2.0])) < 1e-14


def test_tridiagonal_eigh_one_by_one_and_empty() -> None:
    assert tridiagonal_eigh([[5]]).values == [5.0]
    assert tridiagonal_eigh([[5]]).vectors == [[1.0]]
    r = tridiagonal_eigh([])
    assert r.values == [] and r.vectors == []


def test_tridiagonalize_reproduces_the_matrix() -> None:
    A = random_symmetric(7, 11)
    d, e, Qt = tridiagonalize(A)
    n = len(A)
    T = [[0.0] * n for _ in range(n)]
    for i in range(n):
        T[i][i] = d[i]
        if i + 1 < n:
            T[i + 1][i] = T[i][i + 1] = e[i]
    Q = [list(c) for c in zip(*Qt)]
    QT = [[sum(Q[i][k] * T[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    back = [[sum(QT[i][k] * Qt[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    assert max(abs(back[i][j] - A[i][j]) for i in range(n) for j in range(n)) < 1e-14


def test_tridiagonal_ql_raises_convergence_error_with_residual() -> None:
    A = random_symmetric(10, 5)
    d, e, Z = tridiagonalize(A)
    with pytest.raises(ConvergenceError, match=r"did not converge in 2 iterations: eigenvalue 1 of 10 still has a subdiagonal entry of") as info:
        tridiagonal_ql(d, e, Z, max_iter=2)
    assert info.value.residual > 0 and info.value.iterations == 2
    with pytest.raises(ConvergenceError, match="did not converge in 1 iterations"):
        tridiagonal_eigh(A, max_iter=1)


@pytest.mark.parametrize(
    "A,kwargs,message",
    [
        ([[1, 2], [3, 4]], {}, r"A is not symmetric: A\[0\]\[1\] = 2.0 but A\[1\]\[0\] = 3.0"),
        ([[1, 2, 3]], {}, "A must be square, got 1 rows and 3 columns"),
        ([[1.0, float("nan")], [float("nan"), 1.0]], {}, r"A: row 0, column 1 is NaN"),
        ([[1.0]], {"max_iter": 0}, "max_iter must be a positive int, got 0"),
        ([[1.0]], {"max_iter": True}, "max_iter must be a positive int, got True"),
    ],
)
def test_tridiagonal_eigh_rejects_bad_input(A: object, kwargs: dict, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        tridiagonal_eigh(A, **kwargs)


def test_tridiagonal_eigh_trace_shows_the_reflections_and_the_subdiagonal_falling() -> None:
    steps: list[TridiagonalStep] = []
    A = random_symmetric(6, 1)
    tridiagonal_eigh(A, trace=steps.append)
    householder = [s for s in steps if s.kind == "householder"]
    ql = [s for s in steps if s.kind == "ql"]
    assert [s.index for s in householder] == [0, 1, 2, 3]
    assert ql and all(s.tolerance > 0 for s in ql)
    # The last iteration on each eigenvalue brings its subdiagonal entry below the tolerance.
    last: dict[int, TridiagonalStep] = {}
    for s in ql:
        last[s.index] = s
    assert all(s.value <= s.tolerance for s in last.values())


def test_eigh_auto_rule_and_methods_agree() -> None:
    assert choose_eigh_method(JACOBI_MAX_N) == "jacobi"
    assert choose_eigh_method(JACOBI_MAX_N + 1) == "tridiagonal"
    assert choose_eigh_method(200, relative=True) == "jacobi"
    assert choose_eigh_method(3, "tridiagonal") == "tridiagonal"
    A = random_symmetric(20, 4)
    a, j, t = eigh(A), eigh(A, method="jacobi"), eigh(A, method="tridiagonal")
    assert a.values == (j.values if 20 <= JACOBI_MAX_N else t.values)  # PyPy: Jacobi up to 128
    assert max(abs(x - y) for x, y in zip(j.values, t.values)) < 1e-13
    with pytest.raises(PurePCAError, match="method must be one of 'auto', 'jacobi', 'tridiagonal'; got 'qr'"):
        eigh(A, method="qr")
    with pytest.raises(PurePCAError, match="relative must be True or False, got 1"):
        eigh(A, relative=1)  # type: ignore[arg-type]


def graded(n: int, seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    A = qdq(random_orthogonal(n, rng), [1.0 + 9.0 * i / (n - 1) for i in range(n)])
    D = [10.0 ** (-12.0 * i / (n - 1)) for i in range(n)]
    H = [[D[i] * A[i][j] * D[j] for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(i):
            H[i][j] = H[j][i]
    return H


def test_eigh_keeps_relative_accuracy_where_asked() -> None:
    H = graded(24, 3)
    ctx = DecimalContext(50)
    ref = [ctx.to_float(v) for v in jacobi_eigh(H, context=ctx).values]
    for result in (eigh(H, relative=True), eigh(H, method="jacobi")):
        worst = max(abs(g - e) / e for g, e in zip(result.values, ref))
        assert worst < 1e-12, worst
    # The tridiagonal method is accurate only relative to the norm: its small
    # eigenvalues of this graded matrix lose digits (which is why auto keeps Jacobi).
    tri = eigh(H, method="tridiagonal").values
    assert max(abs(g - e) for g, e in zip(tri, ref)) < 1e-13 * ref[0]
    assert max(abs(g - e) / e for g, e in zip(tri, ref)) > 1e-8


def test_pypy_float_jacobi_loop_gives_the_general_loops_bits():
    """The float Jacobi loop written for PyPy's JIT makes the same rotations
    with the same arithmetic as the general loop: same bits, same counts."""
    from purepca import FLOAT
    from purepca.fast.in_place import cyclic_jacobi_in_place
    from purepca.linalg.jacobi import _cyclic_jacobi

    for n, seed in ((1, 0), (2, 1), (7, 2), (30, 3)):
        A = random_symmetric(n, seed)
        results = []
        for general in (True, False):
            M = [list(row) for row in A]
            V = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
            if general:
                counts = _cyclic_jacobi(M, V, FLOAT.eps, 50, FLOAT, None)
            else:
                counts = cyclic_jacobi_in_place(M, V, FLOAT.eps, 50)
            results.append((counts, M, V))
        assert results[0] == results[1]
    assert cyclic_jacobi_in_place([list(r) for r in random_symmetric(6, 4)], [[1.0 if i == j else 0.0 for j in range(6)] for i in range(6)], FLOAT.eps, 1) is None
