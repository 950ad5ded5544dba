"""Test helpers: LAPACK's test matrices and test ratios, in pure Python.

Everything here runs without numpy so the battery also runs under PyPy.
"""

from __future__ import annotations

import decimal
import math
import random
import sys
from fractions import Fraction
from typing import Any, List, Sequence

Matrix = List[List[float]]

ULP = 2.0 ** -52  # LAPACK's DLAMCH('Precision') = eps * base
SQRT_OVERFLOW = math.sqrt(sys.float_info.max)
SQRT_UNDERFLOW = math.sqrt(sys.float_info.min)
IS_PYPY = sys.implementation.name == "pypy"


def random_orthogonal(n: int, rng: random.Random) -> Matrix:
    """Rows of a random orthogonal matrix: Gram-Schmidt (twice) of Gaussian vectors."""
    rows: Matrix = []
    for _ in range(n):
        v = [rng.gauss(0.0, 1.0) for _ in range(n)]
        for _ in range(2):
            for u in rows:
                c = math.fsum(a * b for a, b in zip(u, v))
                v = [a - c * b for a, b in zip(v, u)]
        nv = math.sqrt(math.fsum(a * a for a in v))
        rows.append([a / nv for a in v])
    return rows


def qdq(Q: Matrix, d: Sequence[float]) -> Matrix:
    """Qᵀ·diag(d)·Q for Q given by rows: symmetric with eigenvalues d."""
    n = len(d)
    A = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            A[i][j] = A[j][i] = math.fsum(Q[k][i] * d[k] * Q[k][j] for k in range(n))
    return A


def spectrum(kind: str, n: int, rng: random.Random, signs: bool = True) -> List[float]:
    """LAPACK's eigenvalue distributions from 1 down to ulp (modes 4, 3 and 1 of DLATMS)."""
    if n == 0:
        return []
    if kind == "evenly":
        d = [1.0 - (1.0 - ULP) * i / (n - 1) if n > 1 else 1.0 for i in range(n)]
    elif kind == "geometric":
        d = [ULP ** (i / (n - 1)) if n > 1 else 1.0 for i in range(n)]
    elif kind == "clustered":
        d = [1.0] + [ULP] * (n - 1)
    else:
        raise ValueError(kind)
    if signs:
        d = [x if rng.random() < 0.5 else -x for x in d]
    rng.shuffle(d)
    return d


def lapack_matrix(kind: int, n: int, seed: int = 0) -> Matrix:
    """LAPACK's symmetric eigenproblem test matrix of type ``kind`` (1-21, as in DCHKST)."""
    rng = random.Random(1000 * kind + n + seed)
    if kind == 1:
        return [[0.0] * n for _ in range(n)]
    if kind == 2:
        return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    if kind == 21:
        d = spectrum("geometric", n, rng, signs=False)
        d.sort(reverse=True)
        A = [[0.0] * n for _ in range(n)]
        for i in range(n):
            A[i][i] = d[i]
        for i in range(1, n):
            e = rng.uniform(-0.5, 0.5) * math.sqrt(d[i - 1] * d[i])
            A[i - 1][i] = A[i][i - 1] = e
        return A
    scales = {0: 1.0, 1: SQRT_OVERFLOW, 2: SQRT_UNDERFLOW}
    if 3 <= kind <= 7:
        kinds = {3: ("evenly", 0), 4: ("geometric", 0), 5: ("clustered", 0), 6: ("evenly", 1), 7: ("evenly", 2)}
        dist, mag = kinds[kind]
        d = [x * scales[mag] for x in spectrum(dist, n, rng)]
        return [[d[i] if i == j else 0.0 for j in range(n)] for i in range(n)]
    if 8 <= kind <= 12 or 16 <= kind <= 20:
        base = kind if kind <= 12 else kind - 8
        kinds = {8: ("evenly", 0), 9: ("geometric", 0), 10: ("clustered", 0), 11: ("evenly", 1), 12: ("evenly", 2)}
        dist, mag = kinds[base]
        d = [x * scales[mag] for x in spectrum(dist, n, rng, signs=kind <= 12)]
        return qdq(random_orthogonal(n, rng), d)
    if 13 <= kind <= 15:
        s = scales[kind - 13]
        A = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i, n):
                A[i][j] = A[j][i] = rng.uniform(-1.0, 1.0) * s
        return A
    raise ValueError(f"no LAPACK matrix type {kind}")


def norm1(A: Sequence[Sequence[float]]) -> float:
    """Largest absolute column sum."""
    if not A:
        return 0.0
    return max(math.fsum(abs(x) for x in col) for col in zip(*A))


def decomposition_ratio(A: Matrix, values: Sequence[float], vectors: Sequence[Sequence[float]]) -> float:
    """LAPACK's ‖A - VᵀΛV‖₁ / (n·‖A‖₁·ulp) (vectors as rows)."""
    n = len(A)
    if n == 0:
        return 0.0
    R = [
        [math.fsum([A[i][j]] + [-vectors[k][i] * values[k] * vectors[k][j] for k in range(n)]) for j in range(n)]
        for i in range(n)
    ]
    anorm = max(norm1(A), sys.float_info.min)
    # Divide in an order that neither overflows nor underflows.
    return (norm1(R) / anorm) / (n * ULP)


def orthogonality_ratio(vectors: Sequence[Sequence[float]]) -> float:
    """LAPACK's ‖I - VVᵀ‖₁ / (n·ulp)."""
    n = len(vectors)
    if n == 0:
        return 0.0
    E = [
        [(1.0 if i == j else 0.0) - math.fsum(a * b for a, b in zip(vectors[i], vectors[j])) for j in range(n)]
        for i in range(n)
    ]
    return norm1(E) / (n * ULP)


def exact_covariance(X: Sequence[Sequence[float]], ddof: int = 1) -> List[List[Fraction]]:
    """The covariance of the given floats, in exact rational arithmetic."""
    n, d = len(X), len(X[0])
    F = [[Fraction(x) for x in row] for row in X]
    mu = [sum(row[j] for row in F) / n for j in range(d)]
    C = [[Fraction(0)] * d for _ in range(d)]
    for i in range(d):
        for j in range(i, d):
            C[i][j] = C[j][i] = sum((row[i] - mu[i]) * (row[j] - mu[j]) for row in F) / (n - ddof)
    return C


def covariance_error(C: Sequence[Sequence[float]], exact: Sequence[Sequence[Fraction]]) -> float:
    """Largest error of an entry relative to sqrt(C_ii·C_jj) (the scale of that entry).

    The scale is computed without underflow (in wide-exponent decimal) and
    floored at the smallest normal float: a covariance that underflows
    cannot be computed to any relative accuracy, only to an absolute one.
    """
    wide = decimal.Context(prec=40, Emin=-10**6, Emax=10**6)

    def as_decimal(q: Fraction) -> decimal.Decimal:
        return wide.divide(decimal.Decimal(q.numerator), decimal.Decimal(q.denominator))

    d = len(exact)
    worst = 0.0
    for i in range(d):
        for j in range(d):
            scale = wide.sqrt(wide.multiply(as_decimal(exact[i][i]), as_decimal(exact[j][j])))
            scale = max(scale, decimal.Decimal(sys.float_info.min))
            err = as_decimal(abs(Fraction(C[i][j]) - exact[i][j]))
            worst = max(worst, float(wide.divide(err, scale)))
    return worst


def reliable(values: list[float], i: int) -> bool:
    """Component i is defined well enough to compare: its eigenvalue is not
    negligible and is separated from its neighbours."""
    top = values[0]
    if values[i] < 1e-8 * top:
        return False
    gaps = [abs(values[i] - values[j]) for j in (i - 1, i + 1) if 0 <= j < len(values)]
    return all(g > 1e-6 * top for g in gaps)


def random_symmetric(n: int, seed: int) -> Matrix:
    """A symmetric matrix with entries uniform in [-1, 1]."""
    rng = random.Random(seed)
    A = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            A[i][j] = A[j][i] = rng.uniform(-1.0, 1.0)
    return A


def check_lapack_ratios(solver: Any, kind: int, n: int, threshold: float = 20.0) -> None:
    """LAPACK's checks of an eigensolver on its test matrix type ``kind``:
    no mutation, sizes, descending finite values, and the decomposition and
    orthogonality ratios below ``threshold``."""
    A = lapack_matrix(kind, n)
    original = [row[:] for row in A]
    r = solver(A)
    assert A == original, "input was mutated"
    assert len(r.values) == n and len(r.vectors) == n
    assert all(a >= b for a, b in zip(r.values, r.values[1:])), "not in descending order"
    assert all(math.isfinite(v) for v in r.values)
    decomposition = decomposition_ratio(A, r.values, r.vectors)
    orthogonality = orthogonality_ratio(r.vectors)
    assert decomposition < threshold, f"type {kind}, n={n}: ‖A - VᵀΛV‖ ratio {decomposition:.2f}"
    assert orthogonality < threshold, f"type {kind}, n={n}: ‖I - VVᵀ‖ ratio {orthogonality:.2f}"



def max_abs_diff(a: Any, b: Any) -> float:
    """The largest absolute difference between two equally shaped numbers, vectors or matrices (lists)."""
    if isinstance(a, (int, float)):
        return abs(float(a) - float(b))
    if len(a) != len(b):
        raise AssertionError(f"lengths differ: {len(a)} and {len(b)}")
    return max((max_abs_diff(x, y) for x, y in zip(a, b)), default=0.0)
