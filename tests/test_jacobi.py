"""jacobi_eigh and jacobi_svd: references, contexts, errors, tracing, scaling."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest
from helpers import ULP, decomposition_ratio, orthogonality_ratio, qdq, random_orthogonal, random_symmetric

from purepca import ConvergenceError, DecimalContext, JacobiStep, PurePCAError, jacobi_eigh, jacobi_svd


@pytest.mark.parametrize("seed", range(5))
def test_jacobi_eigh_decimal_context_agrees_with_mpmath_to_45_digits(seed: int) -> None:
    mpmath = pytest.importorskip("mpmath")
    A = random_symmetric(10, seed)
    ctx = DecimalContext(50)
    ours = jacobi_eigh(A, context=ctx)
    assert all(isinstance(v, Decimal) for v in ours.values)
    with mpmath.workdps(50):
        E, _ = mpmath.eigsy(mpmath.matrix(A))
        ref = sorted((E[i] for i in range(10)), reverse=True)
        norm = max(abs(x) for x in ref)
        for got, want in zip(ours.values, ref):
            assert abs(mpmath.mpf(str(got)) - want) / norm < mpmath.mpf("1e-45")
        # The float result: within a few ulps of ‖A‖₂ (eigenvalues of a
        # symmetric matrix have absolute condition number 1).
        floats = jacobi_eigh(A).values
        for got, want in zip(floats, ref):
            assert abs(got - float(want)) <= 8 * ULP * float(norm)


def test_jacobi_eigh_decimal_vectors_are_orthonormal_to_50_digits() -> None:
    ctx = DecimalContext(50)
    A = random_symmetric(6, 11)
    r = jacobi_eigh(A, context=ctx)
    with ctx.local():
        for i in range(6):
            for j in range(6):
                g = ctx.dot(r.vectors[i], r.vectors[j])
                assert abs(g - (1 if i == j else 0)) < Decimal("1e-48")
            # A·v = λ·v to 50 digits
            Av = [ctx.dot([ctx.convert(x) for x in row], r.vectors[i]) for row in A]
            assert max(abs(a - r.values[i] * v) for a, v in zip(Av, r.vectors[i])) < Decimal("1e-47")


def test_jacobi_eigh_does_not_mutate_and_accepts_tuples() -> None:
    A = ((2.0, 1.0), (1.0, 2.0))
    r = jacobi_eigh(A)
    assert A == ((2.0, 1.0), (1.0, 2.0))
    assert r.values == [3.0, 1.0]
    B = [[2.0, 1.0], [1.0, 2.0]]
    jacobi_eigh(B)
    assert B == [[2.0, 1.0], [1.0, 2.0]]


@pytest.mark.parametrize("factor", [1e300, 1e-300, 2.0 ** 1000, 1e-310])
def test_jacobi_eigh_scales_near_overflow_and_underflow(factor: float) -> None:
    A = random_symmetric(8, 3)
    base = jacobi_eigh(A)
    scaled = [[x * factor for x in row] for row in A]
    r = jacobi_eigh(scaled)
    assert all(math.isfinite(v) for v in r.values)
    if factor >= 1e-300:  # 1e-310 is subnormal: only the ratios below apply
        for a, b in zip(r.values, base.values):
            assert abs(a / factor - b) <= 1e-13 * max(abs(x) for x in base.values)
    assert decomposition_ratio(scaled, r.values, r.vectors) < 20 or factor == 1e-310
    assert orthogonality_ratio(r.vectors) < 20


def test_jacobi_eigh_handles_zero_diagonal() -> None:
    r = jacobi_eigh([[0.0, 1e-300], [1e-300, 0.0]])
    assert r.values == [1e-300, -1e-300]
    r = jacobi_eigh([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    assert [round(v, 14) for v in r.values] == [round(math.sqrt(2), 14), 0.0, round(-math.sqrt(2), 14)]


def test_jacobi_eigh_reports_sweeps_and_rotations() -> None:
    r = jacobi_eigh(random_symmetric(10, 1))
    assert 3 <= r.sweeps <= 15
    assert r.rotations > 45
    d = jacobi_eigh([[3.0, 0.0], [0.0, 1.0]])
    assert (d.sweeps, d.rotations) == (1, 0)


def test_jacobi_eigh_raises_convergence_error_with_residual() -> None:
    with pytest.raises(ConvergenceError, match=r"jacobi_eigh did not converge in 1 sweeps: off-diagonal norm") as info:
        jacobi_eigh(random_symmetric(10, 2), max_sweeps=1)
    assert info.value.iterations == 1
    assert info.value.residual > 0


@pytest.mark.parametrize(
    "A, kwargs, message",
    [
        ([[1, 2, 3], [4, 5, 6]], {}, r"A must be square, got 2 rows and 3 columns"),
        ([[1, 2], [3, 4]], {}, r"A is not symmetric: A\[0\]\[1\] = 2.0 but A\[1\]\[0\] = 3.0"),
        ([[1, float("nan")], [float("nan"), 1]], {}, r"A: row 0, column 1 is NaN"),
        ([[1]], {"max_sweeps": 0}, r"max_sweeps must be a positive int, got 0"),
    ],
)
def test_jacobi_eigh_rejects_bad_input(A: object, kwargs: dict, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        jacobi_eigh(A, **kwargs)


def test_jacobi_eigh_trace_reports_every_rotation_and_sweep() -> None:
    steps: list[JacobiStep] = []
    A = random_symmetric(5, 4)
    r = jacobi_eigh(A, trace=steps.append)
    rotations = [s for s in steps if s.kind == "rotation"]
    sweeps = [s for s in steps if s.kind == "sweep"]
    assert len(rotations) == r.rotations
    assert len(sweeps) == r.sweeps
    assert all(0 <= s.p < s.q < 5 and abs(s.angle) <= math.pi / 4 + 1e-15 for s in rotations)
    # The off-diagonal norm never grows, and ends at (nearly) zero.
    norms = [s.off_norm for s in sweeps]
    assert all(b <= a * (1 + 1e-12) for a, b in zip(norms, norms[1:]))
    assert norms[-1] < 1e-15


def test_jacobi_eigh_identity_and_one_by_one() -> None:
    assert jacobi_eigh([[5.0]]).values == [5.0]
    assert jacobi_eigh([]).values == []
    r = jacobi_eigh([[1.0, 0.0], [0.0, 1.0]])
    assert r.values == [1.0, 1.0] and r.vectors == [[1.0, 0.0], [0.0, 1.0]]


# ---------------------------------------------------------------- jacobi_svd


def exact_singular_values(X: list[list[float]]) -> list[float]:
    ctx = DecimalContext(50)
    with ctx.local():
        Xd = [[ctx.convert(x) for x in row] for row in X]
        G = [[ctx.dot(ci, cj) for cj in zip(*Xd)] for ci in zip(*Xd)]
    values = jacobi_eigh(G, context=ctx).values
    with ctx.local():
        return [float(ctx.sqrt(v)) if v > 0 else 0.0 for v in values]


@pytest.mark.parametrize("shape", [(30, 4), (4, 4), (3, 6), (200, 10)])
def test_jacobi_svd_matches_a_50_digit_reference(shape: tuple[int, int]) -> None:
    n, d = shape
    rng = random.Random(n * d)
    X = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(n)]
    r = jacobi_svd(X)
    ref = exact_singular_values(X)
    assert len(r.values) == d
    for got, want in zip(r.values, ref):
        assert abs(got - want) <= 1e-14 * ref[0]
    assert orthogonality_ratio(r.vectors) < 20
    # X·v_i has norm sigma_i.
    for s, v in zip(r.values, r.vectors):
        Xv = [math.fsum(a * b for a, b in zip(row, v)) for row in X]
        assert abs(math.hypot(*Xv) - s) <= 1e-13 * ref[0]


def test_jacobi_svd_with_and_without_qr_agree() -> None:
    rng = random.Random(5)
    X = [[rng.gauss(0, 1) for _ in range(5)] for _ in range(60)]
    a = jacobi_svd(X, qr=True)
    b = jacobi_svd(X, qr=False)
    for x, y in zip(a.values, b.values):
        assert abs(x - y) <= 1e-14 * a.values[0]


def test_jacobi_svd_is_accurate_on_nearly_collinear_data() -> None:
    # Two columns that differ by 1e-9: the small singular value (~4e-9) is
    # found to an absolute error of about ulp·‖X‖, so it keeps eight digits;
    # through XᵀX its square (~2e-17) would sit below the rounding level
    # (ulp·‖X‖² ~ 1e-14) and be lost entirely.
    rng = random.Random(8)
    X = []
    for _ in range(50):
        t = rng.gauss(0, 1)
        X.append([t, t + 1e-9 * rng.gauss(0, 1), rng.gauss(0, 1)])
    ref = exact_singular_values(X)
    r = jacobi_svd(X)
    assert abs(r.values[-1] - ref[-1]) <= 4 * ULP * ref[0]
    assert abs(r.values[-1] - ref[-1]) / ref[-1] < 1e-6
    G = [[math.fsum(a * b for a, b in zip(ci, cj)) for cj in zip(*X)] for ci in zip(*X)]
    squared = jacobi_eigh(G).values[-1]
    assert abs(math.sqrt(max(squared, 0.0)) - ref[-1]) / ref[-1] > 1e-2  # the squared route fails


def test_jacobi_svd_decimal_context() -> None:
    ctx = DecimalContext(40)
    r = jacobi_svd([[3, 0], [0, 4], [0, 0]], context=ctx)
    assert r.values == [Decimal(4), Decimal(3)]


def test_jacobi_svd_scaled_input() -> None:
    X = [[3e300, 0.0], [0.0, 4e300], [1e300, 1e300]]
    r = jacobi_svd(X)
    base = jacobi_svd([[3.0, 0.0], [0.0, 4.0], [1.0, 1.0]])
    assert all(math.isfinite(v) for v in r.values)
    for a, b in zip(r.values, base.values):
        assert abs(a / 1e300 - b) < 1e-14 * base.values[0]


def test_jacobi_svd_rejects_bad_input() -> None:
    with pytest.raises(PurePCAError, match=r"qr must be 'auto', True or False, got 'yes'"):
        jacobi_svd([[1.0]], qr="yes")
    with pytest.raises(PurePCAError, match=r"X: row 1 has 1 value, expected 2"):
        jacobi_svd([[1.0, 2.0], [3.0]])
    with pytest.raises(PurePCAError, match=r"max_sweeps must be a positive int"):
        jacobi_svd([[1.0]], max_sweeps=-1)
    with pytest.raises(ConvergenceError, match=r"jacobi_svd did not converge in 1 sweeps: largest cosine"):
        rng = random.Random(1)
        jacobi_svd([[rng.gauss(0, 1) for _ in range(6)] for _ in range(6)], max_sweeps=1)


def test_qdq_helper_builds_the_spectrum_it_claims() -> None:
    rng = random.Random(0)
    A = qdq(random_orthogonal(4, rng), [4.0, 3.0, 2.0, 1.0])
    assert [round(v, 12) for v in jacobi_eigh(A).values] == [4.0, 3.0, 2.0, 1.0]
