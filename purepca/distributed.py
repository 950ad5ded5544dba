"""Checking a distributed PCA (Spark MLlib, dask-ml) against merged exact moments.

==========================================  ====================================
``offset_rows(n, seed)``                    rows that defeat one-pass covariances
``covariance_error(C, reference)``          ``max |C - T| / sqrt(T_ii·T_jj)``
``reference_pca(moments, ...)``             the reference fit from merged moments
``spark_matrix(m)``                         a Spark ``DenseMatrix`` as rows
``compare_spark_pca(model, moments)``       a Spark ``PCAModel`` against the reference
``compare_sklearn_like_pca(pca, moments)``  a dask-ml / scikit-learn PCA against it
==========================================  ====================================

No engine is imported: the engine's objects are read through their public
attributes (``numRows``, ``numCols``, ``values`` of a Spark ``DenseMatrix``;
``components_``, ``explained_variance_`` of a dask-ml PCA), so this module
runs where the engine does not.  The recipes that build the moments on the
engines are in ``docs/distributed.md``.

>>> from purepca import Moments
>>> rows = offset_rows(200, seed=1)
>>> m = Moments.from_rows(rows[:100], exact=True).merge(Moments.from_rows(rows[100:], exact=True))
>>> covariance_error(Moments.from_rows(rows).covariance(), m.covariance()) < 4e-16
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence

from .moments import Moments
from .errors import PurePCAError
from .linalg.eigen import eigh
from .linalg.matrix import as_matrix, as_vector

__all__ = [
    "EngineComparison",
    "Reference",
    "compare_sklearn_like_pca",
    "compare_spark_pca",
    "covariance_error",
    "offset_rows",
    "reference_pca",
    "spark_matrix",
]


#: The most rows :func:`offset_rows` makes (10 floats each: about 1 GB at the limit).
OFFSET_ROWS_MAX = 10 ** 7


def offset_rows(n: int, *, seed: int = 0) -> List[List[float]]:
    """``n`` rows of 10 columns of the kind that defeat ``XᵀX/n - μμᵀ``: a
    timestamp-like column ``1.7e9 + 100·z``, two coordinates with a 1e-4
    spread around large offsets (correlated with the timestamp), and seven
    one-hot columns (so every row is at least half zeros, which sends Spark's
    ``RowMatrix.computeCovariance`` down its sparse path).

    >>> rows = offset_rows(3, seed=0)
    >>> len(rows), len(rows[0]), [sum(r[3:]) for r in rows]
    (3, 10, [1.0, 1.0, 1.0])
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= OFFSET_ROWS_MAX:  # the limit before the rows
        shown = repr(n) if len(repr(n)) < 40 else f"{type(n).__name__} of {len(repr(n))} characters"
        raise PurePCAError(f"offset_rows: n must be a positive int up to {OFFSET_ROWS_MAX:,}, got {shown}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PurePCAError(f"offset_rows: seed must be an int, got {seed!r}")
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        z = rng.gauss(0.0, 1.0)
        hot = [0.0] * 7
        hot[rng.randrange(7)] = 1.0
        rows.append([1.7e9 + 100.0 * z,
                     48.8566 + 1e-4 * (0.8 * z + 0.6 * rng.gauss(0.0, 1.0)),
                     2.3522 + 1e-4 * (-0.5 * z + rng.gauss(0.0, 1.0))] + hot)
    return rows


def covariance_error(C: Sequence[Sequence[float]], reference: Sequence[Sequence[Any]]) -> float:
    """``max |C_ij - T_ij| / sqrt(T_ii·T_jj)``: the error relative to the scale
    of each entry; ``inf`` when it is beyond the float range.  A column the
    reference holds constant (``T_ii = 0``) is measured on ``C``'s own scale
    (``C_ii`` in place of ``T_ii``), so a variance where the reference has none
    counts; an entry that differs where both scales are 0 gives ``inf``.

    >>> covariance_error([[1.0, 0.5], [0.5, 4.0]], [[1.0, 0.5], [0.5, 4.0000000004]])
    1e-10
    >>> covariance_error([[1.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, 1.0]])
    1.0
    """
    C = as_matrix(C, name="covariance_error: C")
    reference = as_matrix(reference, name="covariance_error: reference")
    d = len(reference)
    if len(C) != d or len(C[0]) != d or len(reference[0]) != d:
        raise PurePCAError(f"covariance_error: C is {len(C)} x {len(C[0])}, the reference {d} x {len(reference[0])}; "
                           "both must be the same square matrix size")
    for i in range(d):
        if reference[i][i] < 0:
            raise PurePCAError(f"covariance_error: reference[{i}][{i}] is {reference[i][i]!r}: a variance is never "
                               "negative")
    # a column constant in the reference is scaled by C's own variance (when C's is not negative)
    roots = [math.sqrt(float(reference[i][i])) if reference[i][i] > 0 else math.sqrt(max(float(C[i][i]), 0.0))
             for i in range(d)]
    worst = 0.0
    for i in range(d):
        for j in range(d):
            diff = abs(float(C[i][j]) - float(reference[i][j]))
            scale = roots[i] * roots[j]  # no product of variances to overflow
            if diff:
                worst = max(worst, diff / scale if scale > 0 else math.inf)
    return float(f"{worst:.3g}")


@dataclass(frozen=True)
class Reference:
    """The reference decomposition of merged moments: eigenvalues (descending),
    unit eigenvectors as rows, and the mean.

    >>> Reference([3.0, 1.0], [[1.0, 0.0], [0.0, 1.0]], [0.0, 0.0]).ratios
    [0.75, 0.25]
    """

    values: List[float]
    vectors: List[List[float]]
    mean: List[float]

    @property
    def ratios(self) -> List[float]:
        """Explained-variance ratios (each eigenvalue over their sum).

        >>> Reference([1.0, 1.0], [[1.0, 0.0], [0.0, 1.0]], [0.0, 0.0]).ratios
        [0.5, 0.5]
        """
        total = math.fsum(self.values)
        if not total > 0:
            raise PurePCAError(f"the reference's eigenvalues sum to {total!r} (every column constant): "
                               "explained-variance ratios are undefined")
        return [v / total for v in self.values]


def reference_pca(moments: Moments, *, ddof: int = 1) -> Reference:
    """The eigendecomposition of the merged moments' covariance (correctly
    rounded in exact mode), by purepca's Jacobi eigensolver.

    >>> ref = reference_pca(Moments.from_rows([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], exact=True))
    >>> [round(v, 12) for v in ref.values]
    [2.0, 0.0]
    """
    _check_moments(moments, "reference_pca")
    C = [[float(x) for x in row] for row in moments.covariance(ddof)]
    found = eigh(C, method="jacobi")
    return Reference(list(found.values), [list(v) for v in found.vectors], [float(x) for x in moments.mean])


def _check_moments(moments: Any, who: str) -> None:
    if not isinstance(moments, Moments):
        raise PurePCAError(f"{who}: moments: expected a purepca.Moments (merged from the partitions), "
                           f"got {type(moments).__name__}")


def _engine_rows(data: Any, who: str, name: str) -> List[List[float]]:
    """An engine's table of numbers, checked (rectangular, finite, real) and as floats."""
    return [[float(x) for x in row] for row in as_matrix(data, name=f"{who}: {name}")]


def spark_matrix(m: Any) -> List[List[float]]:
    """A Spark ``DenseMatrix`` (column-major ``values``) as a list of rows.

    >>> class Dense:  # what pyspark.ml.linalg.DenseMatrix(2, 2, [1, 2, 3, 4]) holds
    ...     numRows, numCols, values, isTransposed = 2, 2, [1.0, 2.0, 3.0, 4.0], False
    >>> spark_matrix(Dense())
    [[1.0, 3.0], [2.0, 4.0]]
    """
    who = "spark_matrix"
    missing = [a for a in ("numRows", "numCols", "values") if not hasattr(m, a)]
    if missing:
        raise PurePCAError(f"{who}: expected a Spark DenseMatrix, got {type(m).__name__} (no {', '.join(missing)})")
    r, c = m.numRows, m.numCols
    for name, v in (("numRows", r), ("numCols", c)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            index = getattr(v, "__index__", None)  # numpy's and Java's integers
            if isinstance(v, bool) or index is None or index() < 1:
                raise PurePCAError(f"{who}: {name} must be a positive int, got {v!r}")
    r, c = int(r), int(c)
    vals = [float(x) for x in as_vector(m.values, name=f"{who}: values")]
    if len(vals) != r * c:
        raise PurePCAError(f"{who}: {len(vals)} values for a {r} x {c} matrix, expected {r * c} "
                           f"({'too few' if len(vals) < r * c else 'too many'})")
    transposed = getattr(m, "isTransposed", False)
    if transposed in (0, 1) and not isinstance(transposed, float):  # Spark's own matrices give 0 or 1
        transposed = bool(transposed)
    if not isinstance(transposed, bool):
        raise PurePCAError(f"{who}: isTransposed must be True or False, or 0 or 1 as Spark gives it; "
                           f"got {transposed!r}")
    if transposed:
        return [vals[i * c:(i + 1) * c] for i in range(r)]
    return [[vals[j * r + i] for j in range(c)] for i in range(r)]


@dataclass(frozen=True)
class EngineComparison:
    """How far an engine's PCA is from the reference: the largest relative error
    of the explained-variance ratios, and the angle (radians) between each
    engine component and the reference's (sign ignored).

    >>> c = EngineComparison([0.01, 0.2], [1e-9, 1e-3]); c.worst_ratio_error
    0.2
    >>> print(c)
    explained-variance ratios off by up to 0.2 (relative); component angles up to 0.001 rad
    """

    ratio_errors: List[float]
    angles: List[float]

    @property
    def worst_ratio_error(self) -> float:
        """The largest relative error of an explained-variance ratio (0 when none was compared).

        >>> EngineComparison([], [0.0]).worst_ratio_error
        0.0
        """
        return max(self.ratio_errors, default=0.0)

    def __str__(self) -> str:
        return (f"explained-variance ratios off by up to {self.worst_ratio_error:.2g} (relative); "
                f"component angles up to {max(self.angles, default=0.0):.2g} rad")


def _compare(components: List[List[float]], ratios: Optional[List[float]], ref: Reference) -> EngineComparison:
    k = len(components)
    if k > len(ref.values):
        raise PurePCAError(f"the engine has {k} components, the reference {len(ref.values)}")
    d = len(ref.values)
    if any(len(u) != d for u in components):
        raise PurePCAError(f"the engine's components have {len(components[0])} entries, the moments {d} columns")
    if ratios is not None and len(ratios) > d:
        raise PurePCAError(f"the engine has {len(ratios)} explained-variance ratios, the moments {d} columns")
    angles = [_angle(u, v, i) for i, (u, v) in enumerate(zip(components, ref.vectors))]
    errs = []
    if ratios is not None:
        errs = [abs(r - t) / t if t else abs(r) for r, t in zip(ratios, ref.ratios)]
    return EngineComparison(errs, angles)


def _angle(u: List[float], v: List[float], i: int) -> float:
    """The angle between the line of ``u`` and the unit vector ``v`` (sign ignored),
    as ``2·atan2(|û - v|, |û + v|)`` with ``v`` turned to ``û``'s side: accurate at
    every angle, where ``acos`` of a cosine that rounds to 1 says 0 below about 1e-8.

    >>> _angle([1.0, 1e-10], [1.0, 0.0], 0)
    1e-10
    >>> _angle([0.0, -2.0], [0.0, 1.0], 0), _angle([1.0, 0.0], [0.0, 1.0], 0) == math.pi / 2
    (0.0, True)
    """
    big = max(map(abs, u))
    if not big:
        raise PurePCAError(f"the engine's component {i} is zero: it has no direction to compare")
    scaled = [x / big for x in u]  # no square to overflow or underflow
    norm = math.sqrt(math.fsum(x * x for x in scaled))
    unit = [x / norm for x in scaled]
    if math.fsum(a * b for a, b in zip(unit, v)) < 0:
        v = [-x for x in v]
    minus = math.sqrt(math.fsum((a - b) ** 2 for a, b in zip(unit, v)))
    plus = math.sqrt(math.fsum((a + b) ** 2 for a, b in zip(unit, v)))
    return 2.0 * math.atan2(minus, plus)


def compare_spark_pca(model: Any, moments: Moments) -> EngineComparison:
    """Compare a Spark ``ml.feature.PCAModel`` (``pc``: d x k, ``explainedVariance``)
    with the reference from merged moments.

    >>> class PC:
    ...     numRows, numCols, values, isTransposed = 2, 1, [0.7071067811865476, 0.7071067811865476], False
    >>> class Model:
    ...     pc, explainedVariance = PC(), [1.0]
    >>> m = Moments.from_rows([[0.0, 0.0], [1.0, 1.0]], exact=True)
    >>> compare_spark_pca(Model(), m).angles[0] < 1e-15  # the rounding of the two unit vectors
    True
    """
    _check_moments(moments, "compare_spark_pca")
    if not hasattr(model, "pc"):
        raise PurePCAError(f"compare_spark_pca: model: expected a fitted Spark PCAModel (with .pc), "
                           f"got {type(model).__name__}")
    ref = reference_pca(moments)
    pc = spark_matrix(model.pc)
    components = [list(col) for col in zip(*pc)]
    ev = getattr(model, "explainedVariance", None)
    ratios = None if ev is None else [float(x) for x in as_vector(getattr(ev, "values", ev),
                                                                  name="compare_spark_pca: explainedVariance")]
    return _compare(components, ratios, ref)


def compare_sklearn_like_pca(pca: Any, moments: Moments) -> EngineComparison:
    """Compare a fitted dask-ml (or scikit-learn) PCA, read through
    ``components_`` and ``explained_variance_ratio_``, with the reference.

    >>> class Fitted:
    ...     components_ = [[0.7071067811865476, 0.7071067811865476]]
    ...     explained_variance_ratio_ = [1.0]
    >>> compare_sklearn_like_pca(Fitted(), Moments.from_rows([[0.0, 0.0], [1.0, 1.0]])).ratio_errors
    [0.0]
    """
    who = "compare_sklearn_like_pca"
    _check_moments(moments, who)
    missing = [a for a in ("components_", "explained_variance_ratio_") if not hasattr(pca, a)]
    if missing:
        raise PurePCAError(f"{who}: pca: expected a fitted PCA, but {type(pca).__name__} has no "
                           + " or ".join(missing))
    components = _engine_rows(pca.components_, who, "components_")
    ratios = [float(x) for x in as_vector(pca.explained_variance_ratio_, name=f"{who}: explained_variance_ratio_")]
    return _compare(components, ratios, reference_pca(moments))
