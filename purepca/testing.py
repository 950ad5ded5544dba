"""purepca as the oracle in another PCA's tests: the reference, and comparisons that know
about signs, degenerate eigenvalues and how accurate each kind of method can be.

==========================================  ===================================
``reference(X, convention=...)``            the high-precision answer (50
                                            digits by default) as floats with
                                            the float attributes' shapes, plus
                                            eigenvalue clusters, gaps, condition
``assert_pca_close(result, X, ...)``        compare another library's fitted
                                            PCA (or a dict, or R's ``sdev`` and
                                            ``rotation``) with the reference,
                                            within a tolerance from the error
                                            model of its method
``subspace_distance(A, B)``                 the largest principal angle between
                                            two spans, accurate down to 1e-16
``align_signs(components, reference)``      flip rows to agree with a reference
``eigen_clusters(values, tol)``             groups of (nearly) equal eigenvalues
``residual_bound(A_or_X, values, vectors)``  ``‖A·v - λ·v‖`` per pair: some
                                            eigenvalue lies within it of λ
``sign_determined(v, rule, angle)``         whether a sign rule fixes v's sign
                                            despite an error of ``angle``
==========================================  ===================================

Inputs may be lists, tuples or numpy arrays (read row by row; numpy is never
imported).  A failed comparison raises ``AssertionError`` with one line per
mismatch: the quantity, the component, the size of the error, the tolerance
and the digits lost.

>>> X = [[2.5, 2.4], [0.5, 0.7], [2.2, 2.9], [1.9, 2.2], [3.1, 3.0], [2.3, 2.7], [2.0, 1.6], [1.0, 1.1],
...      [1.5, 1.6], [1.1, 0.9]]
>>> ref = reference(X)
>>> [round(v, 10) for v in ref.explained_variance_]
[1.2840277122, 0.0490833989]
>>> theirs = {"components_": [[-0.6778734, -0.7351787], [0.7351787, -0.6778734]],
...           "explained_variance_": [1.2840277, 0.0490834]}
>>> assert_pca_close(theirs, X, convention="prcomp", rtol=1e-6)   # seven digits, signs free under prcomp
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Optional, Sequence

from .conventions import CONVENTIONS, SIGN_RULES
from .errors import PurePCAError
from .linalg.jacobi import jacobi_svd
from .linalg.matrix import as_matrix
from .numeric import FLOAT

__all__ = [
    "Check",
    "METHODS",
    "Reference",
    "align_signs",
    "assert_pca_close",
    "compare_pca",
    "eigen_clusters",
    "reference",
    "residual_bound",
    "sign_determined",
    "subspace_distance",
]

_EPS64 = 2.0 ** -52
_EPS32 = 2.0 ** -23

#: The error models ``assert_pca_close`` knows: the absolute error of an
#: eigenvalue λ_i, as a multiple of ``eps`` and of the spectrum (see
#: :func:`_eigenvalue_tolerance`).
METHODS = ("svd", "covariance", "float32", "randomized")


def _rows(data: Any, name: str) -> list[list[float]]:
    return [[float(x) for x in row] for row in as_matrix(data, name=name)]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return FLOAT.dot(a, b)


def _orthonormal(rows: list[list[float]], name: str) -> list[list[float]]:
    """An orthonormal basis of the span of ``rows``, in order (Gram–Schmidt, twice, compensated)."""
    out: list[list[float]] = []
    for i, row in enumerate(rows):
        v = list(row)
        size = math.sqrt(_dot(v, v))
        for _ in range(2):  # "twice is enough"
            for q in out:
                c = _dot(q, v)
                v = [x - c * y for x, y in zip(v, q)]
        norm = math.sqrt(_dot(v, v))
        if not norm > 1e-12 * size or not norm > 0:
            raise PurePCAError(f"{name}: row {i} lies in the span of the rows before it; a basis is needed")
        out.append([x / norm for x in v])
    return out


def subspace_distance(A: Any, B: Any) -> float:
    """The largest principal angle (radians) between the spans of the rows of ``A`` and of ``B``.

    Both sets of rows are orthonormalised first.  The angle is
    ``atan2(s, c)`` with ``s`` the largest singular value of the part of
    B's basis outside span(A) (``Q_B - (Q_B·Q_Aᵀ)·Q_A``) and ``c`` the
    smallest singular value of ``Q_A·Q_Bᵀ``: small angles come from ``s``,
    which is computed from differences, not from ``sqrt(1 - c²)`` (which
    cannot resolve angles below about 1.5e-8), and large ones from ``c``.
    Accurate to a few units of 1e-16 absolute.

    >>> import math
    >>> t = 1e-12
    >>> subspace_distance([[1.0, 0.0, 0.0]], [[math.cos(t), math.sin(t), 0.0]])
    1e-12
    >>> round(subspace_distance([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]), 12)
    0.785398163397
    """
    QA = _orthonormal(_rows(A, "A"), "A")
    QB = _orthonormal(_rows(B, "B"), "B")
    if len(QA) != len(QB) or len(QA[0]) != len(QB[0]):
        raise PurePCAError(f"subspace_distance: A is {len(QA)} x {len(QA[0])} and B is {len(QB)} x {len(QB[0])}; "
                           "the spans to compare must have the same dimension, in the same space")
    M = [[_dot(a, b) for b in QB] for a in QA]  # k x k: cosines
    outside = []
    for j, b in enumerate(QB):
        coef = [M[i][j] for i in range(len(QA))]
        outside.append([FLOAT.sum([b[t]] + [-c * a[t] for c, a in zip(coef, QA)]) for t in range(len(b))])
    # Singular values: of the d x k matrix whose columns are the outside parts, and of M.
    s = jacobi_svd([list(col) for col in zip(*outside)]).values[0]
    c = jacobi_svd(M).values[-1]
    return math.atan2(s, c)


def align_signs(components: Any, reference: Any) -> list[list[float]]:
    """``components`` (rows) with each row's sign chosen to agree with the same row of ``reference``.

    A row is flipped when its dot product with the reference row is
    negative; rows orthogonal to theirs are kept.

    >>> align_signs([[-0.6, -0.8], [0.8, -0.6]], [[0.6, 0.8], [0.8, -0.6]])
    [[0.6, 0.8], [0.8, -0.6]]
    """
    rows, ref = _rows(components, "components"), _rows(reference, "reference")
    if len(rows) > len(ref):
        raise PurePCAError(f"align_signs: {len(rows)} components but {len(ref)} reference rows")
    return [[-x for x in v] if _dot(v, r) < 0 else list(v) for v, r in zip(rows, ref)]


def eigen_clusters(values: Sequence[float], tol: float = 1e-10) -> list[list[int]]:
    """Indices of the eigenvalues grouped into clusters of (nearly) equal ones.

    Sorted by decreasing value, neighbours closer than ``tol`` times the
    largest magnitude fall in one cluster (a chain of close pairs is one
    cluster).  Their eigenvectors are not individually determined: compare
    the span of each cluster, not its vectors.

    >>> eigen_clusters([5.0, 2.0, 2.0 + 1e-13, 0.5])
    [[0], [1, 2], [3]]
    """
    vals = [float(v) for v in values]
    if not vals:
        return []
    order = sorted(range(len(vals)), key=lambda i: -vals[i])
    limit = tol * max(abs(v) for v in vals)
    clusters = [[order[0]]]
    for prev, i in zip(order, order[1:]):
        if vals[prev] - vals[i] <= limit:
            clusters[-1].append(i)
        else:
            clusters.append([i])
    return [sorted(c) for c in clusters]


def residual_bound(A_or_X: Any, values: Sequence[float], vectors: Any, *, kind: str = "auto",
                   ddof: int = 1) -> list[float]:
    """``‖C·v - λ·v‖ / ‖v‖`` for each eigenpair (λ, v) of a symmetric matrix, or of the covariance of data.

    By the Krylov–Weinstein theorem some eigenvalue of ``C`` lies within
    this distance of λ, whatever method produced the pair.  ``kind``:
    ``"matrix"`` (``A_or_X`` is C), ``"data"`` (``A_or_X`` is n x d data;
    C is its covariance with divisor ``n - ddof``, never formed: ``C·v`` is
    ``Zᵀ·(Z·v)/(n - ddof)`` with Z the centred data) or ``"auto"`` (a
    square, symmetric input is a matrix).  Computed with compensated sums.

    >>> residual_bound([[2.0, 1.0], [1.0, 2.0]], [3.0], [[2 ** -0.5, 2 ** -0.5]])[0] < 1e-15
    True
    """
    M = _rows(A_or_X, "A_or_X")
    vecs = _rows(vectors, "vectors")
    vals = [float(v) for v in values]
    if len(vals) != len(vecs):
        raise PurePCAError(f"residual_bound: {len(vals)} values but {len(vecs)} vectors")
    if kind not in ("auto", "matrix", "data"):
        raise PurePCAError(f"kind must be 'auto', 'matrix' or 'data'; got {kind!r}")
    square = len(M) == len(M[0]) and all(M[i][j] == M[j][i] for i in range(len(M)) for j in range(i))
    as_data = kind == "data" or (kind == "auto" and not square)
    d = len(M[0])
    if any(len(v) != d for v in vecs):
        raise PurePCAError(f"residual_bound: the vectors must have {d} entries")
    if as_data:
        n = len(M)
        if n - ddof <= 0:
            raise PurePCAError(f"residual_bound: {n} rows and ddof={ddof} leave no degrees of freedom")
        cols = list(zip(*M))
        means = [FLOAT.sum(col) / n for col in cols]
        Z = [[x - m for x, m in zip(row, means)] for row in M]
        ZT = [list(col) for col in zip(*Z)]

        def times(v: list[float]) -> list[float]:
            w = [_dot(row, v) for row in Z]
            return [_dot(col, w) / (n - ddof) for col in ZT]
    else:
        if len(M) != d:
            raise PurePCAError(f"residual_bound: a matrix must be square, got {len(M)} x {d}")

        def times(v: list[float]) -> list[float]:
            return [_dot(row, v) for row in M]

    out = []
    for lam, v in zip(vals, vecs):
        w = times(v)
        r = [FLOAT.sum([a, -lam * b]) for a, b in zip(w, v)]
        out.append(math.sqrt(_dot(r, r)) / math.sqrt(_dot(v, v)))
    return out


def sign_determined(v: Sequence[float], rule: str, angle: float) -> bool:
    """Whether ``rule`` decides the sign of the unit vector ``v`` even if v is off by up to ``angle`` radians.

    ``max_abs_positive``: the largest entry must stay the largest and keep
    its sign (it beats the runner-up by more than ``2·angle`` and exceeds
    ``angle``); ``first_positive``: ``|v[0]| > angle``; ``sum_positive``:
    ``|Σv| > angle·sqrt(d)``; ``none``: never.

    >>> sign_determined([0.8, 0.6], "max_abs_positive", 1e-8), sign_determined([0.7071, 0.7071], "max_abs_positive", 1e-3)
    (True, False)
    """
    if rule not in SIGN_RULES:
        raise PurePCAError(f"rule must be one of {', '.join(map(repr, SIGN_RULES))}; got {rule!r}")
    vals = [float(x) for x in v]
    if rule == "none" or not vals:
        return False
    if rule == "max_abs_positive":
        mags = sorted((abs(x) for x in vals), reverse=True)
        second = mags[1] if len(mags) > 1 else 0.0
        return mags[0] - second > 2 * angle and mags[0] > angle
    if rule == "first_positive":
        return abs(vals[0]) > angle
    return abs(math.fsum(vals)) > angle * math.sqrt(len(vals))


@dataclass
class Reference:
    """The high-precision PCA of X as floats (the float attributes' names and shapes) and what
    a comparison needs to know about its spectrum.

    ``exact`` holds the same quantities as Decimals at the working digits.
    ``clusters`` groups the eigenvalues of all ``min(n, d)`` components that
    are equal to within ``1e-10`` of the largest, ``gaps[i]`` is the
    distance of eigenvalue i to the nearest eigenvalue outside its cluster
    (inf for a lone one), ``condition`` is ``λ_max/λ_min`` over the
    non-zero eigenvalues.
    """

    convention: str
    digits: int
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
    exact: dict[str, Any] = field(default_factory=dict)


def reference(X: Any, *, convention: str = "sklearn", n_components: Optional[int] = None, digits: int = 50,
              scale: Optional[bool] = None) -> Reference:
    """The reference answer for ``PCA(n_components, convention=...)`` of ``X``, computed with ``digits`` digits.

    >>> ref = reference([[0.0, 0.0], [1.0, 1.0], [2.0, 2.5]], digits=30)
    >>> ref.clusters, round(ref.condition, 3), len(ref.components_)
    ([[0], [1]], 318.33, 2)
    """
    from .pca import PCA

    if convention not in CONVENTIONS:
        raise PurePCAError(f"convention must be one of {', '.join(map(repr, sorted(CONVENTIONS)))}; got {convention!r}")
    full = PCA(None, convention=convention, precision=digits, scale=scale).fit(X)
    hp = full.high_precision_
    assert hp is not None
    spectrum_exact: list[Decimal] = list(hp["explained_variance_"])
    model = full if n_components is None else PCA(n_components, convention=convention, precision=digits,
                                                   scale=scale).fit(X)
    mp = model.high_precision_
    assert mp is not None
    spectrum = [float(v) for v in spectrum_exact]
    clusters = eigen_clusters(spectrum)
    gaps = []
    for i in range(len(spectrum)):
        mine = next(c for c in clusters if i in c)
        others = [abs(spectrum[i] - spectrum[j]) for j in range(len(spectrum)) if j not in mine]
        gaps.append(min(others) if others else math.inf)
    positive = [v for v in spectrum if v > 0]
    condition = positive[0] / positive[-1] if positive else math.inf
    conv = CONVENTIONS[convention]
    return Reference(
        convention=convention,
        digits=digits,
        components_=[[float(x) for x in row] for row in mp["components_"]],
        explained_variance_=[float(v) for v in mp["explained_variance_"]],
        explained_variance_ratio_=[float(v) for v in mp["explained_variance_ratio_"]],
        singular_values_=[float(v) for v in mp["singular_values_"]],
        mean_=[float(v) for v in mp["mean_"]],
        noise_variance_=float(mp["noise_variance_"]),
        spectrum=spectrum,
        clusters=clusters,
        gaps=gaps,
        condition=condition,
        sign_rule=conv.sign,
        n_samples=model.n_samples_,
        exact=dict(mp),
    )


def _eigenvalue_tolerance(method: str, spectrum: list[float], i: int, n: int, d: int, residual: float,
                          offset: float = 0.0) -> float:
    """Absolute tolerance for eigenvalue i under the error model of ``method`` (ten times the usual error).

    Every float implementation centres with a rounded mean: each column is
    then off by a constant ``δ ≈ log2(n)·eps·|mean|`` (``offset`` is the
    largest ``|mean|``), which adds up to ``d·δ²`` to the variances (the
    first-order term cancels, the centred columns summing to zero).  At an
    offset of 1e12 that is 5e-8: the digits the data's offset leaves."""
    top = spectrum[0] if spectrum else 0.0
    lam = max(spectrum[i], 0.0)
    m = max(n, d)
    eps = _EPS32 if method == "float32" else _EPS64
    delta = (1 + math.log2(n)) * eps * offset
    centring = 10 * d * delta * delta * n / max(n - 1, 1)
    if method == "svd":  # backward stable on the data: σ_i off by eps·σ_max, so λ_i by 2·eps·sqrt(λ_max·λ_i)
        return 10 * m * eps * (2 * math.sqrt(top) * math.sqrt(lam) + eps * top) + centring  # no underflow of top·λ
    if method in ("covariance", "float32"):  # formed ZᵀZ: absolute eps·λ_max, whatever λ_i is
        return 10 * m * eps * top + centring
    return 10 * m * eps * top + centring + residual  # randomized: its own residual on top of rounding


def _vector(values: Any) -> list[float]:
    values = values.to_numpy() if hasattr(values, "to_numpy") else values
    return [float(v) for v in values]


def _extract(result: Any, d: int, n: int) -> dict[str, Any]:
    """Another library's answer as purepca's attribute names: components_ (k x d rows),
    explained_variance_ and, where given, mean_, singular_values_, explained_variance_ratio_.

    Besides scikit-learn's names: R's ``sdev`` and ``rotation``;
    statsmodels' ``eigenvals`` (sums of squares: divided by n here) and
    ``loadings``; numpy's ``eigh`` result (``eigenvalues`` ascending,
    ``eigenvectors`` as columns), also as a ``(w, v)`` tuple."""
    if isinstance(result, tuple) and len(result) == 2 and not hasattr(result, "eigenvalues"):
        result = {"eigenvalues": result[0], "eigenvectors": result[1]}

    def get(name: str) -> Any:
        if isinstance(result, dict):
            return result.get(name)
        return getattr(result, name, None)

    if get("eigenvalues") is not None and get("eigenvectors") is not None:  # numpy.linalg.eigh
        w = _vector(get("eigenvalues"))
        v = _rows(get("eigenvectors"), "eigenvectors")
        order = sorted(range(len(w)), key=lambda i: -w[i])
        return {"explained_variance_": [w[i] for i in order], "components_": [[row[i] for row in v] for i in order]}
    if get("eigenvals") is not None and get("loadings") is not None:  # statsmodels
        loadings = _rows(get("loadings"), "loadings")
        return {"explained_variance_": [v / n for v in _vector(get("eigenvals"))],
                "components_": [list(col) for col in zip(*loadings)]}
    out: dict[str, Any] = {}
    comps = get("components_")
    rotation = get("rotation")
    if comps is not None:
        out["components_"] = _rows(comps, "components_")
    elif rotation is not None:  # R: d x k, one column per component
        out["components_"] = [list(col) for col in zip(*_rows(rotation, "rotation"))]
    variance = get("explained_variance_")
    sdev = get("sdev")
    if variance is not None:
        out["explained_variance_"] = [float(v) for v in variance]
    elif sdev is not None:  # R: standard deviations of the components
        out["explained_variance_"] = [float(v) ** 2 for v in sdev]
    for name in ("explained_variance_ratio_", "singular_values_", "mean_"):
        value = get(name)
        if value is not None:
            out[name] = [float(v) for v in value]
    if "components_" not in out and "explained_variance_" not in out:
        raise PurePCAError("assert_pca_close: the result has neither components_ (or rotation) nor "
                           "explained_variance_ (or sdev); nothing to compare")
    if "components_" in out and any(len(row) != d for row in out["components_"]):
        raise PurePCAError(f"assert_pca_close: the components must have {d} entries (the columns of X)")
    return out


def _digits_lost(error: float, scale: float) -> str:
    if not scale > 0:
        return "-"
    rel = error / scale
    if rel <= _EPS64:
        return "0"
    return f"{min(16.0, math.log10(rel / _EPS64)):.1f}"


@dataclass(frozen=True)
class Check:
    """One compared quantity: its name, whether it passed, the error, the tolerance and the digits lost.

    For components, ``error`` and ``tolerance`` are angles in radians;
    ``note`` says what else was found (a flipped sign, a cut cluster).
    """

    quantity: str
    passed: bool
    error: float
    tolerance: float
    digits_lost: str
    note: str = ""

    def line(self) -> str:
        """The mismatch as one line (what ``assert_pca_close`` reports)."""
        return self.note if self.note else (f"{self.quantity}: off by {self.error:.3g} (tolerance {self.tolerance:.3g}; "
                                            f"{self.digits_lost} digits lost)")


def compare_pca(result: Any, X: Any, *, convention: str = "sklearn", method: str = "svd",
                rtol: Optional[float] = None, residual: float = 0.0, scale: Optional[bool] = None,
                ref: Optional[Reference] = None) -> list[Check]:
    """Every comparison :func:`assert_pca_close` makes, passed or not, as :class:`Check` rows.

    >>> X = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.5], [3.0, 2.0]]
    >>> [(c.quantity, c.passed) for c in compare_pca({"explained_variance_": [2.7169129481821, 0.2]}, X)]
    [('explained_variance_[0]', True), ('explained_variance_[1]', False)]
    """
    if method not in METHODS:
        raise PurePCAError(f"method must be one of {', '.join(map(repr, METHODS))}; got {method!r}")
    rows = _rows(X, "X")
    n, d = len(rows), len(rows[0])
    theirs = _extract(result, d, n)
    k = len(theirs.get("components_") or theirs.get("explained_variance_") or [])
    r = ref if ref is not None else reference(rows, convention=convention, n_components=k, scale=scale)
    spectrum = r.spectrum
    checks: list[Check] = []
    offset = max(abs(v) for v in r.mean_) if r.mean_ else 0.0
    tol = [rtol * max(abs(spectrum[i]), 0.0) + rtol * _EPS64 * spectrum[0] if rtol is not None
           else _eigenvalue_tolerance(method, spectrum, i, n, d, residual, offset) for i in range(len(spectrum))]
    if k > len(r.explained_variance_):
        checks.append(Check("n_components", False, float(k), float(len(r.explained_variance_)), "-",
                            f"{k} components, but X has at most {len(r.explained_variance_)}"))
        k = len(r.explained_variance_)
    for i, value in enumerate((theirs.get("explained_variance_") or [])[:k]):
        want = r.explained_variance_[i]
        err = abs(value - want)
        ok = err <= tol[i]
        note = "" if ok else (f"explained_variance_[{i}]: {value!r} off by {err:.3g} from {want!r} "
                              f"(tolerance {tol[i]:.3g}; {_digits_lost(err, abs(want))} digits lost)")
        checks.append(Check(f"explained_variance_[{i}]", ok, err, tol[i], _digits_lost(err, abs(want)), note))
    for name in ("explained_variance_ratio_", "singular_values_", "mean_"):
        values = theirs.get(name)
        if values is None:
            continue
        wanted = getattr(r, name)
        for i, (a, b) in enumerate(zip(values, wanted)):
            if name == "mean_":
                allowed = 10 * n * _EPS64 * (max(abs(x[i]) for x in rows) or 1.0) if rtol is None else rtol * abs(b)
            else:
                frac = (tol[i] / spectrum[i]) if spectrum[i] > 0 else math.inf
                allowed = (frac if name != "singular_values_" else frac / 2 + _EPS64) * abs(b) + 1e-300
            err = abs(a - b)
            ok = err <= allowed
            note = "" if ok else (f"{name}[{i}]: {a!r} off by {err:.3g} from {b!r} (tolerance {allowed:.3g}; "
                                  f"{_digits_lost(err, abs(b))} digits lost)")
            checks.append(Check(f"{name}[{i}]", ok, err, allowed, _digits_lost(err, abs(b)), note))
    comps = theirs.get("components_")
    if comps is not None:
        basis = r.components_
        for cluster in r.clusters:
            inside = sorted(i for i in cluster if i < k)
            if not inside:
                continue
            label = (f"components_[{inside[0]}]" if len(inside) == 1 else
                     f"components_[{inside[0]}..{inside[-1]}]")
            if len(inside) < len(cluster):
                checks.append(Check(label, False, math.nan, math.nan, "-",
                                    f"{label}: the kept components cut the cluster of equal eigenvalues {cluster}; "
                                    "they are not determined (keep all or none of them)"))
                continue
            gap = min(r.gaps[i] for i in inside)
            err_val = max(tol[i] for i in inside)
            allowed = min(math.pi / 2, (err_val / gap if gap > 0 else math.inf) + 10 * max(n, d) * _EPS64)
            try:
                angle = subspace_distance([comps[i] for i in inside], [basis[i] for i in inside])
            except PurePCAError as err:
                checks.append(Check(label, False, math.nan, allowed, "-", f"{label}: {err}"))
                continue
            long_label = label if len(inside) == 1 else f"{label} (a cluster of equal eigenvalues, compared as a subspace)"
            lost = _digits_lost(angle, 1.0)
            if not angle <= allowed:
                checks.append(Check(label, False, angle, allowed, lost, f"{long_label}: at an angle of {angle:.3g} rad "
                                    f"from the reference (allowed {allowed:.3g})"))
                continue
            if len(inside) == 1:
                i = inside[0]
                if sign_determined(basis[i], r.sign_rule, allowed) and _dot(comps[i], basis[i]) < 0:
                    checks.append(Check(label, False, angle, allowed, lost, f"{label}: the sign is flipped; convention "
                                        f"{convention!r} ({r.sign_rule}) determines it"))
                    continue
            checks.append(Check(label, True, angle, allowed, lost))
    return checks


def assert_pca_close(result: Any, X: Any, *, convention: str = "sklearn", method: str = "svd",
                     rtol: Optional[float] = None, residual: float = 0.0, scale: Optional[bool] = None,
                     ref: Optional[Reference] = None) -> None:
    """Check another PCA's answer on ``X`` against the reference; raise ``AssertionError`` naming each mismatch.

    ``result`` is a fitted estimator with scikit-learn's attribute names, a
    dict of them, R's ``{"sdev": ..., "rotation": ...}``, a fitted
    ``statsmodels.multivariate.pca.PCA`` (``convention="statsmodels"``) or
    numpy's ``eigh(np.cov(X, rowvar=False))`` (``convention="numpy"``).  The tolerance
    of eigenvalue i comes from the error model of ``method``: ``"svd"``
    (backward stable on the data: ``20·m·eps·sqrt(λ_max·λ_i)``),
    ``"covariance"`` (a formed ``XᵀX``: ``10·m·eps·λ_max``), ``"float32"``
    (the same with float32's eps), ``"randomized"`` (the covariance model
    plus the ``residual`` the method reports), each plus what centring with a
    rounded mean costs at the data's offset (``10·d·δ²``, ``δ`` the rounding
    of the largest mean); ``rtol`` instead sets a relative tolerance for
    everything.  Components are compared cluster by
    cluster of equal eigenvalues, as subspaces, with the angle allowed by
    the Davis–Kahan bound ``tolerance/gap``; a sign is checked only where the
    convention's sign rule determines it despite that angle.

    >>> X = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.5], [3.0, 2.0]]
    >>> good = {"explained_variance_": reference(X).explained_variance_, "components_": reference(X).components_}
    >>> assert_pca_close(good, X)
    >>> bad = dict(good, explained_variance_=[good["explained_variance_"][0] * (1 + 1e-6), good["explained_variance_"][1]])
    >>> assert_pca_close(bad, X)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: PCA differs from the reference (convention sklearn, method svd):
      explained_variance_[0]: 2.716915665095049 off by 2.72e-06 from 2.716912948182101 (tolerance 4.83e-14; 9.7 digits lost)
    """
    checks = compare_pca(result, X, convention=convention, method=method, rtol=rtol, residual=residual, scale=scale,
                         ref=ref)
    problems = [c.line() for c in checks if not c.passed]
    if problems:
        raise AssertionError(f"PCA differs from the reference (convention {convention}, method "
                             f"{method if rtol is None else f'rtol={rtol:g}'}):\n  " + "\n  ".join(problems))
