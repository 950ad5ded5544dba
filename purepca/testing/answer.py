"""The reference answer another PCA is compared with, computed once per data set and process.

``reference(X, ...)`` returns the PCA of X under a library's conventions
(divisor, scaling, sign rule) with every attribute a float PCA has, and
what a comparison needs besides: the whole spectrum, the data's power-of-two
scale (so that variances beyond the float range, or subnormal ones, are
compared in range) and the column scales.

Two ways to compute it:

* ``digits=None`` (the default): in floats, refined.  A basis V comes from
  the covariance's eigenvectors (Householder, QL for the values, inverse
  iteration for the vectors; purepca's fit for wide data), made orthonormal
  to about eps by one polar step (``V - (VVᵀ - I)·V/2``: without it, V's
  few eps off orthonormal moved the eigenvalues by up to 22 ulps); the
  centred (corrected two-pass) and, when asked, scaled
  data are multiplied by them with compensated dot products (``W = Z·V``,
  each entry to about one rounding), and the Rayleigh–Ritz matrix
  ``H = WᵀW/(n - ddof)`` (or ``V·(ZᵀZ)·Vᵀ/(n - ddof)`` from the compensated
  Gram of the columns, half the products, where no vector's products
  cancel: :func:`_ritz_by_gram`) is diagonalised by Jacobi, whose relative
  stopping test gives each eigenvalue of H to a few units of eps
  *relative* and each vector to ``eps·sqrt(λ_i·λ_j)/|λ_i - λ_j|``
  (Demmel–Veselić).  With the centring's rounding (about
  ``eps·sqrt(λ_1·λ_i)``, up to 1.33 times that measured), each eigenvalue
  is within ``3.6·eps·λ_i + 1.8·eps·sqrt(λ_1·λ_i)``: below what a
  backward-stable SVD of the data can reach, ``2·sqrt(n + d)·eps·sqrt(λ_1·λ_i)``.
  tests/test_oracle.py checks it against the 50-digit answer on offsets,
  collinear, clustered, wide, graded and scaled data.  The data are first scaled by a power of two
  (exact) so that nothing overflows; when that cannot be exact (entries
  that would turn subnormal) the 50-digit path is taken.
* ``digits=N``: purepca's fit at N digits (decimal arithmetic), exact up to
  10^-N; about 10x slower.

Results are cached on the data's fingerprint (a hash of the bits of every
entry) and the parameters, within the process: fifty comparisons against
the same data compute the reference once.

>>> ref = reference([[0.0, 0.0], [1.0, 1.0], [2.0, 2.5]])
>>> [round(v, 12) for v in ref.explained_variance_], ref.computed
([2.575243483396, 0.008089849938], 'float, refined')
>>> reference([[0.0, 0.0], [1.0, 1.0], [2.0, 2.5]]) is ref      # cached
True
"""

from __future__ import annotations

import hashlib
import itertools
import math
import operator
import struct
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional

from ..conventions import CONVENTIONS, apply_sign_rule
from ..errors import PurePCAError
from ..linalg.jacobi import jacobi_eigh
from ..numeric import FLOAT
from ..numeric import in_owned_decimal
from .geometry import _rows

__all__ = ["Reference", "clear_cache", "fingerprint", "reference"]

#: How many references the process keeps (least recently used dropped first).
CACHE_SIZE = 32
_CACHE: "OrderedDict[tuple[Any, ...], Reference]" = OrderedDict()


@dataclass
class Reference:
    """The reference PCA of X (all ``min(n, d)`` components) and what a comparison needs to know.

    The float attributes have scikit-learn's names; ``spectrum`` is the
    whole list of eigenvalues (``explained_variance_`` keeps the first
    ``n_components``).  ``exponent`` is the power of two the data were
    divided by: ``unit_spectrum`` is ``spectrum / 4**exponent``, always in
    the float range even when the variances themselves overflow (then
    ``spectrum`` holds ``inf``, the correctly rounded float).  ``scale_``
    holds the column scales when scaled.  ``computed`` says how:
    ``"float, refined"`` or ``"50 digits"``.  ``exact`` holds the Decimals
    of the digits path.
    """

    convention: str
    digits: Optional[int]
    components_: list[list[float]]
    explained_variance_: list[float]
    explained_variance_ratio_: list[float]
    singular_values_: list[float]
    mean_: list[float]
    noise_variance_: float
    spectrum: list[float]
    clusters: list[list[int]]
    gaps: list[float]
    condition: float
    sign_rule: str
    n_samples: int
    ddof: int = 1
    scaled: bool = False
    scale_: Optional[list[float]] = None
    exponent: int = 0
    unit_spectrum: list[float] = field(default_factory=list)
    all_components: list[list[float]] = field(default_factory=list)
    computed: str = "float, refined"
    exact: dict[str, Any] = field(default_factory=dict)
    #: :func:`fingerprint` of the data it is the reference of ("" when unknown).
    data: str = ""


def fingerprint(rows: list[list[float]]) -> str:
    """A hash of the shape and the bits of every entry: equal data, equal fingerprint.

    >>> fingerprint([[1.0, 2.0]]) == fingerprint([[1.0, 2.0]]), fingerprint([[1.0, 2.0]]) == fingerprint([[2.0, 1.0]])
    (True, False)
    """
    return _fingerprint(_rows(rows, "fingerprint: rows"))


def _fingerprint(rows: list[list[float]]) -> str:
    """``fingerprint`` of rows already checked (lists of floats)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(struct.pack("<qq", len(rows), len(rows[0]) if rows else 0))
    for k in range(0, len(rows), 256):  # (256 rows a call: the same bytes as one row a call, a third of the time)
        chunk = rows[k:k + 256]
        h.update(struct.pack(f"<{sum(map(len, chunk))}d", *itertools.chain.from_iterable(chunk)))
    return h.hexdigest()


def clear_cache() -> None:
    """Forget every cached reference.

    >>> clear_cache()
    """
    _CACHE.clear()


def _clusters_and_gaps(spectrum: list[float]) -> tuple[list[list[int]], list[float], float]:
    from .geometry import eigen_clusters

    clusters = eigen_clusters(spectrum)
    gaps = []
    for i in range(len(spectrum)):
        mine = next(c for c in clusters if i in c)
        others = [abs(spectrum[i] - spectrum[j]) for j in range(len(spectrum)) if j not in mine]
        gaps.append(min(others) if others else math.inf)
    positive = [v for v in spectrum if v > 0]
    condition = positive[0] / positive[-1] if positive else math.inf
    return clusters, gaps, condition


def _exponent(rows: list[list[float]]) -> int:
    top = max((max(map(abs, row), default=0.0) for row in rows), default=0.0)
    return math.frexp(top)[1] if top > 0 else 0


def _noise(unit: list[float], k: int) -> float:
    rest = unit[k:]
    return math.fsum(rest) / len(rest) if rest else 0.0


def _float_reference(rows: list[list[float]], convention: str, ddof: int, scaled: bool,
                     scale_ddof: int) -> Optional[tuple[list[list[float]], list[float], list[float],
                                                        Optional[list[float]], int]]:
    """(components, unit spectrum, mean, scales, exponent) in floats, refined; None when the data cannot be
    scaled into range exactly."""
    from ..fitting import ColumnRows, fit_rows
    from ..pca import PCA

    n = len(rows)
    e = _exponent(rows)
    tiny = min((min(map(abs, filter(None, row)), default=math.inf) for row in rows), default=math.inf)
    tiny = 1.0 if tiny == math.inf else tiny  # (no entry but zeros)
    if math.ldexp(tiny, -e) < 2.0 ** -960 or n - ddof <= 0:
        return None  # scaling would round the smallest entries (or no divisor): the digits path
    fsum = math.fsum
    sub = operator.sub
    # One copy of the data made, column by column (a 10,000 x 50 verify peaked at 138 MB with five copies, at
    # 102 MB with three): the scaled column and its deviations are generators, so only the corrected
    # deviations ((x - m) - c0, the same floats as before) are stored (and one scaled column at a time).
    Zc: list[list[float]] = []
    means = []
    for c in zip(*rows):
        col = list(map(math.ldexp, c, itertools.repeat(-e)))
        m = fsum(col) / n
        c0 = fsum(map(sub, col, itertools.repeat(m))) / n  # the corrected two-pass mean: what the rounded mean left
        Zc.append([(x - m) - c0 for x in col] if c0 else list(map(sub, col, itertools.repeat(m))))
        means.append(m + c0)
        del col
    scales: Optional[list[float]] = None
    if scaled:
        sds = [math.sqrt(fsum(x * x for x in c) / (n - scale_ddof)) if n - scale_ddof > 0 else 0.0 for c in Zc]
        if any(not s > 0 for s in sds):
            return None
        for j, s in enumerate(sds):  # (column by column: one copy alive)
            Zc[j] = [x / s for x in Zc[j]]
        scales = sds
    start = _starting_pairs(Zc, n, ddof)
    V0 = start[0] if start is not None else None
    div = n - (scale_ddof if scaled else ddof)  # scaled: the correlation itself; the caller applies any factor
    H = _ritz_by_gram(Zc, V0, start[1], n - ddof, div) if start is not None and V0 is not None else None
    if V0 is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # The fit's worker on the columns as they are (validated here: PCA.fit's door copied them, 27 MB of
            # a 10,000 x 50 verify): the same components, bit for bit.
            fitted = fit_rows(PCA(None, center=False, scale=False, ddof=ddof, solver="auto")._settings(),
                              ColumnRows(Zc), None, None, None).components_
        V0 = _polished(fitted) or fitted
    if H is None:
        H = _ritz_by_rows(Zc, V0, div)
    del Zc
    r = len(V0)
    vectors, eig_values = _nearly_diagonal_eigh(H)
    order = sorted(range(r), key=lambda i: -eig_values[i])
    cols_v = [list(c) for c in zip(*V0)]  # d x r
    comps = [_combine(cols_v, vectors[i]) for i in order]
    norms = [math.sqrt(fsum(y * y for y in v)) for v in comps]  # (once per vector, not once per entry: 1.5 s)
    comps = [[x / size for x in v] for v, size in zip(comps, norms)]
    values = [max(eig_values[i], 0.0) for i in order]
    comps = apply_sign_rule(comps, CONVENTIONS[convention].sign)
    return comps, values, [math.ldexp(m, e) for m in means], (
        [math.ldexp(s, e) for s in scales] if scales is not None else None), e


def _ritz_by_rows(Zc: list[list[float]], V0: list[list[float]], div: int) -> list[list[float]]:
    """The Rayleigh–Ritz matrix with compensated products: ``W = Z·V0ᵀ``, ``H = WᵀW/div``; each ``W_ki``
    within ``eps/2·(Σ_j |z_kj·v_ij| + |W_ki|)``, so ``H_ij`` within about ``eps·(sqrt(λ_i·s_j) + sqrt(λ_j·s_i))
    + eps·|H_ij|`` with ``s_i = (Σ_j |v_ij|·‖z_j‖)²/div`` (Cauchy–Schwarz, Minkowski).  ``Zc`` is emptied
    (its rows let go as they are used: W takes their room instead of adding to it)."""
    Z = list(zip(*Zc))  # the rows (tuples of the same float objects)
    Zc.clear()
    dots = FLOAT.dots
    W = []
    for k, z in enumerate(Z):
        W.append(dots(V0, z))
        Z[k] = ()
    del Z
    Wt = [list(c) for c in zip(*W)]  # (pointers to W's floats)
    del W
    r = len(V0)
    H = [[0.0] * r for _ in range(r)]
    for i in range(r):
        Hi = dots(Wt[i:], Wt[i])
        for j, h in enumerate(Hi):
            H[i][i + j] = H[i + j][i] = h / div
    return H


#: The Gram path of the Rayleigh–Ritz step (:func:`_ritz_by_gram`) is taken when every vector's spread
#: ``s_i = (Σ_j |v_ij|·‖z_j‖)²`` is at most this many times its sum of squares ``‖Z·v_i‖²``.
_GRAM_SPREAD = 8.0


def _ritz_by_gram(Zc: list[list[float]], V0: list[list[float]], estimates: list[float], scale: int,
                  div: int) -> Optional[list[list[float]]]:
    """The Rayleigh–Ritz matrix ``H = V0·(ZᵀZ)·V0ᵀ/div`` from the compensated Gram of the columns (``n·d²/2``
    products, against ``n·d²`` for ``W = Z·V0ᵀ`` and ``n·d²/2`` more for ``WᵀW``), or None where a vector's
    products would cancel: then :func:`_ritz_by_rows`.

    Each Gram entry is within ``eps/2·(Σ_k |z_kl·z_km| + |G_lm|) <= eps·‖z_l‖·‖z_m‖``, each entry of
    ``G·v_i`` and of ``v_j·(G·v_i)`` within ``eps/2`` of its absolute products, so ``H_ij`` is within about
    ``1.5·eps·sqrt(s_i·s_j)/div + eps·|H_ij|`` (``s_i`` as in :func:`_ritz_by_rows`), where the rows' path
    is within ``eps·(sqrt(λ_i·s_j) + sqrt(λ_j·s_i))``.  The two agree in kind when the products do not
    cancel, ``s_i/div <= K·λ_i``: with ``K = _GRAM_SPREAD`` (8) every ``H_ij`` stays within ``12·eps·sqrt(λ_i·λ_j)``
    (the rows' path: ``5.7·eps·sqrt(λ_i·λ_j)``), each eigenvalue to a few eps relative.  The test runs on
    the starting basis's eigenvalue ``estimates`` (of ``ZᵀZ/scale``) before any work, and on ``H``'s
    diagonal after it (it decides).  A 10,000 x 50 verify of Gaussian columns (``s_i/div`` at most
    5.9·λ_i) takes it; nearly collinear data (``λ_d`` far below the column variances) never do."""
    fsum = math.fsum
    mul = operator.mul
    d, r = len(Zc), len(V0)
    roots = [math.sqrt(fsum(map(mul, c, c))) for c in Zc]
    spreads = [fsum(abs(v) * s for v, s in zip(vec, roots)) ** 2 for vec in V0]
    if len(estimates) != r or any(not (e > 0 and s <= _GRAM_SPREAD * e * scale)
                                  for s, e in zip(spreads, estimates)):
        return None
    dots = FLOAT.dots
    G = [[0.0] * d for _ in range(d)]
    for i in range(d):
        for j, g in enumerate(dots(Zc[i:], Zc[i]), start=i):
            G[i][j] = G[j][i] = g
    T = [dots(G, v) for v in V0]  # G·v_i
    H = [[0.0] * r for _ in range(r)]
    for i in range(r):
        for j, h in enumerate(dots(V0[i:], T[i]), start=i):
            H[i][j] = H[j][i] = h / div
    if any(not s <= _GRAM_SPREAD * H[i][i] * div for i, s in enumerate(spreads)):
        return None
    return H


#: The starting basis is used when its rows are orthonormal to this before the polish (the polish leaves
#: ``O(‖E‖²)``); beyond it (never seen), the fit's QL path.
_POLISHABLE = 1e-6


def _starting_basis(Zc: list[list[float]], n: int, ddof: int) -> Optional[list[list[float]]]:
    """The rows of :func:`_starting_pairs`, or None."""
    pairs = _starting_pairs(Zc, n, ddof)
    return None if pairs is None else pairs[0]


def _starting_pairs(Zc: list[list[float]], n: int, ddof: int
                    ) -> Optional[tuple[Optional[list[list[float]]], list[float]]]:
    """(V0, the eigenvalue estimates of ``ZᵀZ/(n - ddof)`` that came with it), V0 None when the polish fails.

    The rows V0 the Rayleigh–Ritz step refines, for a covariance path (n >= d >= 2): the eigenvectors of
    the covariance by Householder, QL for the values and inverse iteration for the vectors
    (:func:`~purepca.linalg.stein.eigh_inverse_iteration`, as the fit's Gram path takes them: half the
    time of accumulating QL's rotations, 2.5 s of 5 s at d = 200), then :func:`_polished`.  The covariance
    is formed by polarization, ``x·y = (|x|² + |y|² - |x - y|²)/2`` with ``|x - y|`` from ``math.dist`` (one
    C loop, and no copy of the columns: the fit's Gram kernel copied them, 19 MB of a 10,000 x 50 verify);
    its error, a few eps of the larger ``|x|²``, is an eigensolver's own backward error: V0 only has to be
    close enough for the refinement, which is computed from the data.  None (then the fit's path) for wide
    or tiny data, for a covariance with an eigenvalue within ``d·eps·λ_1`` of zero, or when a vector fails
    inverse iteration's residual check."""
    from ..linalg.stein import eigh_inverse_iteration

    d = len(Zc)
    if n < d or d < 2:
        return None
    div = float(n - ddof)
    squares = [math.fsum(map(operator.mul, c, c)) for c in Zc]
    dist = math.dist
    cols = [tuple(c) for c in Zc]  # (pointers: math.dist converts a list on every call, thrice its own time)
    C = [[0.0] * d for _ in range(d)]
    for i, (ci, si) in enumerate(zip(cols, squares)):
        C[i][i] = si / div
        for j in range(i + 1, d):
            C[i][j] = C[j][i] = (si + squares[j] - dist(ci, cols[j]) ** 2) / 2 / div
    del cols
    eig = eigh_inverse_iteration(C, FLOAT)
    if eig is None or not min(eig.values) > d * FLOAT.eps * max(eig.values):
        # (a null space: inverse iteration spans it with an arbitrary basis, QL's rotations keep the data's
        # exact zeros exact, a zero column's zero variance and axis among them)
        return None
    return _polished([list(v) for v in eig.vectors]), list(eig.values)


def _polished(V: list[list[float]]) -> Optional[list[list[float]]]:
    """The rows ``V`` made orthonormal to about eps by one step of the polar iteration: with
    ``E = V·Vᵀ - I`` (compensated dots), ``V - E·V/2`` is orthonormal to ``O(‖E‖²)`` plus its own rounding.
    The refinement needs that: ``H = V·C·Vᵀ`` has the covariance's eigenvalues only when V is orthonormal,
    and an ``‖E‖`` of a few eps (QL's rotations, inverse iteration's vectors of close eigenvalues) moved
    them by as many eps relative.  None when ``‖E‖`` exceeds :data:`_POLISHABLE`."""
    r = len(V)
    dots = FLOAT.dots
    E = [[0.0] * r for _ in range(r)]
    for i in range(r):
        for j, g in enumerate(dots(V[i:], V[i]), start=i):
            E[i][j] = E[j][i] = g - 1.0 if i == j else g
    if max(abs(x) for row in E for x in row) > _POLISHABLE:
        return None
    cols = [list(c) for c in zip(*V)]
    # (E·V's entries are about ‖E‖ in size: plain sums keep them to far below eps of V's.)
    return [[v - 0.5 * sum(map(operator.mul, e, c)) for v, c in zip(row, cols)] for row, e in zip(V, E)]


def _combine(cols: list[list[float]], y: list[float]) -> list[float]:
    """``[c·y for c in cols]`` for a vector ``y`` of H: a unit vector plus parts of about 1e-14 (or a few parts
    of size within a strongly coupled group).  The small parts are summed plainly (their rounding is eps of
    themselves), the large ones added to that with ``fsum``: as accurate as a compensated dot, at half the
    cost (0.4 s instead of 0.7 s at 500 x 200)."""
    large = [(j, v) for j, v in enumerate(y) if abs(v) > 1e-6]
    small = list(y)
    for j, _ in large:
        small[j] = 0.0
    rests = map(sum, map(map, itertools.repeat(operator.mul), cols, itertools.repeat(small)))
    fsum = math.fsum
    return [fsum([rest] + [c[j] * v for j, v in large]) for c, rest in zip(cols, rests)]


def _nearly_diagonal_eigh(H: list[list[float]]) -> tuple[list[list[float]], list[float]]:
    """Eigenvectors (rows) and eigenvalues of a symmetric matrix close to diagonal (a Rayleigh–Ritz matrix).

    Indices coupled strongly (``|h_ij| > 1e-8·|h_ii - h_jj|``) are grouped and each group is solved by
    Jacobi; between groups the coupling is of the size of the angle error of the vectors that built H
    (about 1e-14), so second-order perturbation is exact to well below eps: the vector gains
    ``h_ij/(μ - h_jj)`` along j and the value ``h_ij²/(μ - h_jj)``.
    """
    r = len(H)
    parent = list(range(r))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(r):
        Hi = H[i]
        for j in range(i + 1, r):
            if Hi[j] != 0 and abs(Hi[j]) > 1e-8 * abs(Hi[i] - H[j][j]):
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(r):
        groups.setdefault(root(i), []).append(i)
    vectors: list[list[float]] = []
    values: list[float] = []
    diag = [H[i][i] for i in range(r)]
    for members in groups.values():
        if len(members) == 1:
            local = [([1.0], diag[members[0]])]
        else:
            eig = jacobi_eigh([[H[a][b] for b in members] for a in members])
            local = list(zip(eig.vectors, eig.values))
        inside = set(members)
        for y, mu in local:
            q = [0.0] * r
            lam_terms = [mu]
            for g, yg in zip(members, y):
                q[g] = yg
            for j in range(r):
                if j in inside:
                    continue
                c = math.fsum(yg * H[g][j] for g, yg in zip(members, y))
                if c == 0:
                    continue
                q[j] = c / (mu - diag[j])
                lam_terms.append(c * q[j])
            norm = math.sqrt(math.fsum(x * x for x in q))
            vectors.append([x / norm for x in q])
            values.append(math.fsum(lam_terms))
    return vectors, values


def _constant_columns(rows: list[list[float]]) -> list[int]:
    """The columns whose values are all equal (standard deviation exactly 0)."""
    first = rows[0]
    return [j for j in range(len(first)) if all(row[j] == first[j] for row in rows)]


def _with_constant(comps: list[list[float]], unit: list[float], mean: list[float], scales: Optional[list[float]],
                   const: list[int], first: list[float], n: int) -> tuple[list[list[float]], list[float], list[float],
                                                                     Optional[list[float]]]:
    """The reference of the other columns, with the constant ones put back as StandardScaler leaves them:
    centred to zeros, divided by 1, so each adds a zero eigenvalue whose eigenvector is its own axis."""
    d = len(first)
    keep = [j for j in range(d) if j not in const]

    def spread(v: list[float], fill: float) -> list[float]:
        out = [fill] * d
        for j, x in zip(keep, v):
            out[j] = x
        return out

    full = [spread(v, 0.0) for v in comps]
    for j in const:
        axis = [0.0] * d
        axis[j] = 1.0
        full.append(axis)
    size = min(n, d)
    new_mean = spread(mean, 0.0)
    for j in const:
        new_mean[j] = first[j]
    new_scales = None if scales is None else spread(scales, 1.0)
    return full[:size], (list(unit) + [0.0] * len(const))[:size], new_mean, new_scales


class _Validated:
    """Rows the oracle has already validated (lists of floats): ``reference`` takes them as they are,
    without a second copy (one of 16 MB for a 10,000 x 50 verify)."""

    __slots__ = ("rows",)

    def __init__(self, rows: list[list[float]]) -> None:
        self.rows = rows


def _check_arguments(ddof: Any, scale_ddof: Any, n_components: Any, constant_columns: Any, digits: Any) -> None:
    """``reference``'s arguments, each refused with a message naming it."""
    for name, value in (("ddof", ddof), ("scale_ddof", scale_ddof)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise PurePCAError(f"{name} must be a non-negative int, got {value!r}")
    if n_components is not None and (isinstance(n_components, bool) or not isinstance(n_components, int)
                                     or n_components < 0):
        raise PurePCAError(f"n_components must be None or a non-negative int, got {n_components!r}")
    if not isinstance(constant_columns, str) or constant_columns not in ("error", "unscaled"):
        raise PurePCAError(f"constant_columns must be 'error' or 'unscaled'; got {constant_columns!r:.60}")
    if digits is not None and (isinstance(digits, bool) or not isinstance(digits, int)):
        # checked before it keys the cache (an unhashable or signalling value raised TypeError there); the
        # fit at N digits names the range
        raise PurePCAError(f"digits must be None or an int, got {type(digits).__name__} {digits!r:.60}")


@in_owned_decimal
def reference(X: Any, *, convention: str = "sklearn", n_components: Optional[int] = None,
              digits: Optional[int] = None, scale: Optional[bool] = None, ddof: Optional[int] = None,
              scale_ddof: Optional[int] = None, constant_columns: str = "error") -> Reference:
    """The reference answer for ``PCA(n_components, convention=...)`` of ``X``.

    ``ddof`` is the variance divisor ``n - ddof`` and ``scale`` whether the
    columns are standardised (both default to the convention's);
    ``scale_ddof`` is the divisor of the standard deviations used for the
    scaling when it differs (scikit-learn's ``StandardScaler`` divides by
    n, its ``PCA`` by n - 1: ``scale=True, scale_ddof=0, ddof=1``).
    A constant column cannot be scaled to unit variance: by default that is
    an error; ``constant_columns="unscaled"`` divides it by 1 instead, as
    ``StandardScaler`` does (its ``scale_`` is 1 there), which adds a zero
    eigenvalue with that column's axis as eigenvector.
    ``digits=None`` computes in floats with a refinement that is more
    accurate than any float PCA can be; ``digits=50`` at 50 digits.

    >>> ref = reference([[0.0, 0.0], [1.0, 1.0], [2.0, 2.5]], digits=30)
    >>> ref.clusters, round(ref.condition, 3), len(ref.components_)
    ([[0], [1]], 318.33, 2)
    """
    if not isinstance(convention, str) or convention not in CONVENTIONS:
        raise PurePCAError(f"convention must be one of {', '.join(map(repr, sorted(CONVENTIONS)))}; got {convention!r}")
    conv = CONVENTIONS[convention]
    rows = X.rows if isinstance(X, _Validated) else _rows(X, "X")
    n, d = len(rows), len(rows[0])
    ddof_v = conv.ddof if ddof is None else ddof
    scaled = conv.scale if scale is None else bool(scale)
    sddof = ddof_v if scale_ddof is None else scale_ddof
    _check_arguments(ddof_v, sddof, n_components, constant_columns, digits)
    const = _constant_columns(rows) if scaled else []
    if const and constant_columns == "error":
        raise PurePCAError(f"column {const[0]} is constant (standard deviation 0) and cannot be scaled to unit "
                           "variance; scikit-learn's StandardScaler leaves such a column unscaled (scale 1): pass "
                           "constant_columns='unscaled' for that")
    if len(const) == d:
        raise PurePCAError("reference: every column is constant; there is nothing to analyse")
    if n_components is not None and n_components > min(n, d):
        raise PurePCAError(f"n_components={n_components}, but X ({n} x {d}) has at most {min(n, d)} components")
    mark = _fingerprint(rows)
    key = (mark, convention, n_components, digits, scaled, ddof_v, sddof, constant_columns)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    if n - ddof_v <= 0:
        raise PurePCAError(f"reference: {n} rows and ddof={ddof_v} leave no degrees of freedom")
    work = [[x for j, x in enumerate(row) if j not in const] for row in rows] if const else rows
    found = _float_reference(work, convention, ddof_v, scaled, sddof) if digits is None else None
    exact: dict[str, Any] = {}
    if found is not None:
        comps, unit, mean, scales, e = found
        computed = "float, refined"
    else:
        comps, unit, mean, scales, e, exact = _digits_reference(work, convention, ddof_v, scaled, sddof,
                                                                digits or 50)
        computed = f"{digits or 50} digits"
    if const:  # (exact, when the digits path ran, keeps the other columns' numbers)
        comps, unit, mean, scales = _with_constant(comps, unit, mean, scales, const, rows[0], n)
    if scaled and sddof != ddof_v:  # StandardScaler (divisor n - sddof) then PCA (divisor n - ddof)
        unit = _rescaled(unit, exact, n, ddof_v, sddof)
    k = len(unit) if n_components is None else min(n_components, len(unit))
    spectrum = [_ldexp2(v, e, scaled) for v in unit]
    total = math.fsum(unit)
    clusters, gaps, condition = _clusters_and_gaps(unit)
    lift = 0 if scaled else e  # a correlation PCA's variances do not scale with the data
    ref = Reference(
        convention=convention, digits=digits, components_=[list(v) for v in comps[:k]],
        explained_variance_=spectrum[:k],
        explained_variance_ratio_=[v / total if total > 0 else 0.0 for v in unit[:k]],
        singular_values_=[_lift_safe(math.sqrt(v * (n - ddof_v)), lift) for v in unit[:k]],
        mean_=mean, noise_variance_=_ldexp2(_noise(unit, k), e, scaled),
        spectrum=spectrum, clusters=clusters, gaps=[_ldexp2(g, e, scaled) if g != math.inf else g for g in gaps],
        condition=condition, sign_rule=conv.sign, n_samples=n, ddof=ddof_v, scaled=scaled, scale_=scales,
        exponent=0 if scaled else e, unit_spectrum=unit, all_components=comps, computed=computed, exact=exact,
        data=mark)
    _CACHE[key] = ref
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return ref


def _rescaled(unit: list[float], exact: dict[str, Any], n: int, ddof: int, scale_ddof: int) -> list[float]:
    """The variances of columns scaled with divisor ``n - scale_ddof`` (StandardScaler's) in a PCA with
    divisor ``n - ddof``: times ``(n - scale_ddof)/(n - ddof)``; the N-digit values (``exact``, the digits
    path) times the exact ratio, rounded once."""
    if exact:
        ratio = Fraction(n - scale_ddof, n - ddof)
        given = exact["explained_variance_"]
        return [float(Fraction(v) * ratio) for v in given] + unit[len(given):]
    factor = (n - scale_ddof) / (n - ddof)
    return [v * factor for v in unit]


def _lift_safe(v: float, e: int) -> float:
    """``v * 2**e``, inf where that overflows a float (as a correctly rounded float must)."""
    try:
        return math.ldexp(v, e)
    except OverflowError:
        return math.inf


def _ldexp2(v: float, e: int, scaled: bool) -> float:
    """A variance in data units from one in units of 4**e (overflowing to inf, as a float must)."""
    if scaled:
        return v
    try:
        return math.ldexp(v, 2 * e)
    except OverflowError:
        return math.inf


def _digits_reference(rows: list[list[float]], convention: str, ddof: int, scaled: bool, sddof: int,
                      digits: int) -> tuple[list[list[float]], list[float], list[float], Optional[list[float]],
                                            int, dict[str, Any]]:
    from ..pca import PCA

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = PCA(None, convention=convention, precision=digits, scale=scaled,
                   ddof=sddof if scaled else ddof).fit(rows)
    hp = full.high_precision_
    assert hp is not None
    e = _exponent(rows)
    # v / 4**e exactly (a Fraction), then one rounding to the float: dividing in the owned 28-digit context
    # rounded the N-digit value to 28 digits first, and that double rounding put a variance just above a float
    # midpoint one unit below it (tests/test_oracle_exit.py)
    quarter = Fraction(4) ** e
    unit = [float(Fraction(v) / quarter) if not scaled else float(v) for v in hp["explained_variance_"]]
    scales = [float(s) for s in hp["scale_"]] if hp.get("scale_") is not None else None
    comps = [[float(x) for x in row] for row in hp["components_"]]
    return comps, unit, [float(m) for m in hp["mean_"]], scales, e, dict(hp)
