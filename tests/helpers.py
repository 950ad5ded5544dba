"""Test helpers: LAPACK's test matrices and test ratios, in pure Python.

Everything here runs without numpy so the battery also runs under PyPy.
"""

from __future__ import annotations

import decimal
import math
import os
import random
import sys
from fractions import Fraction
from typing import Any, List, Sequence

Matrix = List[List[float]]

ULP = 2.0 ** -52  # LAPACK's DLAMCH('Precision') = eps * base
SQRT_OVERFLOW = math.sqrt(sys.float_info.max)
SQRT_UNDERFLOW = math.sqrt(sys.float_info.min)
IS_PYPY = sys.implementation.name == "pypy"

#: The hypothesis profile (conftest.py): ``dev``, the default, runs a quarter of each test's examples;
#: ``ci`` (``.ci/test``'s first stage) runs them all.  Chosen by ``PUREPCA_PROFILE``.
PROFILE = os.environ.get("PUREPCA_PROFILE", "dev")
PROFILE_SHARE = {"dev": 0.25, "ci": 1.0}


def examples(wanted: int) -> int:
    """The examples a hypothesis test runs under the current profile: ``wanted`` under ``ci``."""
    share = PROFILE_SHARE.get(PROFILE, PROFILE_SHARE["dev"])
    return wanted if share >= 1 else max(5, int(wanted * share))


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


def exact_spectrum(X: Sequence[Sequence[float]], ddof: int = 1, digits: int = 60) -> List[Any]:
    """The covariance's eigenvalues (divisor n - ddof), descending, as mpmath numbers at ``digits``
    digits: the data centred and multiplied at that precision, then mpmath's ``eigsy``."""
    import mpmath as mp
    with mp.workdps(digits):
        n, d = len(X), len(X[0])
        cols = [[mp.mpf(r[j]) for r in X] for j in range(d)]
        Z = [[x - mp.fsum(c) / n for x in c] for c in cols]
        C = mp.matrix(d, d)
        for i in range(d):
            for j in range(i, d):
                C[i, j] = C[j, i] = mp.fdot(Z[i], Z[j]) / (n - ddof)
        values = mp.eigsy(C, eigvals_only=True)
        return sorted((values[i] for i in range(d)), reverse=True)


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


def factominer_pca(X: Any, row_w: Any = None, col_w: Any = None, scale: bool = True, sup: Any = None,
                   quali: Any = None) -> dict[str, Any]:
    """FactoMineR's PCA.R and svd.triplet.R transcribed in numpy (ncp = all): row.w (default 1/n, normalised
    to sum 1) and col.w (default 1); ``sup`` are quanti.sup columns, ``quali`` the labels of one quali.sup
    variable.  The caller skips without numpy."""
    import numpy as np

    X = np.array(X, dtype=float)
    n, p = X.shape
    row_w_init = row_w
    row_w = np.full(n, 1.0) if row_w is None else np.array(row_w, dtype=float)
    row_w = row_w / row_w.sum()
    col_w = np.full(p, 1.0) if col_w is None else np.array(col_w, dtype=float)
    centre = row_w @ X
    Xc = X - centre
    if scale:
        et = np.sqrt(row_w @ (Xc ** 2))
        et[et <= 1e-16] = 1
        Xc = Xc / et
    dist2_ind = ((Xc ** 2) * col_w).sum(1)
    dist2_var = row_w @ (Xc ** 2)
    ncp = min(n - 1, p)
    Xs = Xc * np.sqrt(col_w) * np.sqrt(row_w)[:, None]
    u, s, vt = np.linalg.svd(Xs, full_matrices=False)
    U, V = u[:, :ncp], vt[:ncp].T
    mult = np.sign(V.sum(0))
    mult[mult == 0] = 1
    if ncp > 1 or n <= p:
        U, V = U * mult, V * mult
    U = U / np.sqrt(row_w)[:, None]
    V = V / np.sqrt(col_w)[:, None]
    eig = s[:ncp] ** 2
    coord_ind = U * np.sqrt(eig)
    coord_var = V * np.sqrt(eig)
    out = {
        "eig": eig,
        "ind.coord": coord_ind,
        "ind.dist": np.sqrt(dist2_ind),
        "ind.cos2": coord_ind ** 2 / dist2_ind[:, None],
        "ind.contrib": 100 * coord_ind ** 2 * row_w[:, None] / eig,
        "var.coord": coord_var,
        "var.cor": coord_var / np.sqrt(dist2_var)[:, None],
        "var.cos2": (coord_var / np.sqrt(dist2_var)[:, None]) ** 2,
        "var.contrib": 100 * coord_var ** 2 * col_w[:, None] / eig,
    }
    if sup is not None:
        S = np.array(sup, dtype=float)
        S = S - row_w @ S
        if scale:
            S = S / np.sqrt(row_w @ (S ** 2))
        coord = (S * row_w[:, None]).T @ U
        d2 = row_w @ (S ** 2)
        out["sup.coord"] = coord
        out["sup.cor"] = coord / np.sqrt(d2)[:, None]
        out["sup.cos2"] = out["sup.cor"] ** 2
    if quali is not None:
        labels = np.array([str(v) for v in quali])
        init = np.full(n, 1.0) if row_w_init is None else np.array(row_w_init, dtype=float)
        levels = sorted(set(labels.tolist()))
        bary = np.array([(row_w[labels == lv] / row_w[labels == lv].sum()) @ X[labels == lv] for lv in levels])
        nombre = np.array([init[labels == lv].sum() for lv in levels])
        bary = (bary - centre) / (et if scale else 1.0)
        d2 = ((bary ** 2) * col_w).sum(1)
        coord = (bary * col_w) @ V
        vtest = coord / np.sqrt(eig)
        total = init.sum()
        vtest = vtest * (np.sqrt(nombre / ((total - nombre) / (total - 1))) if total > 1 else np.sqrt(nombre))[:, None]
        tt = np.array([[1.0 if lab == lv else 0.0 for lv in levels] for lab in labels])
        ni = (tt * row_w[:, None]).sum(0)
        vb = np.array([(((tt * coord_ind[:, [c]]) * row_w[:, None]).sum(0) ** 2 / ni).sum()
                       for c in range(coord_ind.shape[1])])
        out["quali.levels"] = levels
        out["quali.coord"] = coord
        out["quali.dist"] = np.sqrt(d2)
        out["quali.cos2"] = coord ** 2 / d2[:, None]
        out["quali.vtest"] = vtest
        out["quali.eta2"] = vb / (coord_ind ** 2 * row_w[:, None]).sum(0)
    return out


def assert_close_arrays(a: Any, b: Any, tol: float) -> None:
    """``a`` and ``b`` have one shape and differ by at most ``tol`` relative to ``max(1, max|b|)``."""
    import numpy as np

    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    err = np.abs(a - b).max() / max(1.0, np.abs(b).max())
    assert err <= tol, err


def assert_factominer_outputs(pca: Any, X: Any, ref: dict[str, Any], tol: float) -> None:
    """Every individual and variable output of a fitted PCA against :func:`factominer_pca`'s ``ref``."""
    k = pca.n_components_
    pairs = [
        (pca.explained_variance_, ref["eig"][:k]),
        (pca.row_coordinates(X), ref["ind.coord"][:, :k]),
        (pca.row_distances(X), ref["ind.dist"]),
        (pca.row_cos2(X), ref["ind.cos2"][:, :k]),
        (pca.row_contributions_, ref["ind.contrib"][:, :k]),
        (pca.column_coordinates_, ref["var.coord"][:, :k]),
        (pca.column_correlations_, ref["var.cor"][:, :k]),
        (pca.column_cos2_, ref["var.cos2"][:, :k]),
        (pca.column_contributions_, ref["var.contrib"][:, :k]),
    ]
    for got, expected in pairs:
        assert_close_arrays(got, expected, tol)
