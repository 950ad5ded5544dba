"""What each library means by "PCA": divisor, scaling, sign rule, names.

Libraries agree on the principal axes and disagree on everything around them.
A *convention* fixes all of it at once; every field can still be overridden
one by one on :class:`purepca.PCA`.

==============  =======  =======  ====================  ===========
convention      ddof     scale    sign rule             names
==============  =======  =======  ====================  ===========
``sklearn``     1        False    ``max_abs_positive``  PC1, PC2 ...
``prcomp``      1        False    ``none``              PC1, PC2 ...
``princomp``    0        False    ``first_positive``    Comp.1 ...
``factominer``  0        True     ``factominer``        Dim.1 ...
``statsmodels`` 0        True     ``none``              comp_0 ...
``numpy``       1        False    ``none``              PC1, PC2 ...
==============  =======  =======  ====================  ===========

* **ddof**: the variance divisor is ``n - ddof``: scikit-learn and R's
  ``prcomp`` use the sample covariance (``n - 1``), ``princomp`` and
  FactoMineR the maximum-likelihood one (``n``).
* **scale**: standardise the columns first (R's ``scale.=TRUE``,
  ``cor=TRUE``, FactoMineR's default ``scale.unit=TRUE``), dividing by the
  standard deviation computed with the same divisor.
* **sign**: an eigenvector is only defined up to sign; each library fixes it
  its own way (see :func:`apply_sign_rule`).
* **ties**: the eigenvectors of equal eigenvalues are not defined even up to
  sign (any rotation within their span is as valid), so no rule can fix them:
  the fit warns instead, next to the sign rule (``_report_degenerate``, behind
  :func:`purepca.solvers.report_degenerate`; ``DEGENERATE_GAP``).
* ``statsmodels`` is ``statsmodels.multivariate.pca.PCA`` with its defaults
  (``standardize=True``, ``demean=True``): columns scaled by the standard
  deviation with divisor n, LAPACK's signs.  Its ``eigenvals`` are the sums
  of squares, n times ``explained_variance_``; :func:`as_statsmodels` gives
  its attributes (``eigenvals``, ``loadings``, ``factors``, ``coeff``),
  also for ``standardize=False``.
* ``numpy`` is ``numpy.linalg.eigh(numpy.cov(X, rowvar=False))``: the
  sample covariance, LAPACK's signs; :func:`as_numpy` gives eigh's output
  (eigenvalues ascending, eigenvectors as columns).

>>> CONVENTIONS["princomp"].ddof
0
>>> apply_sign_rule([[-0.6, -0.8], [0.8, 0.6]], "max_abs_positive")
[[0.6, 0.8], [0.8, 0.6]]
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional, Sequence

from .errors import DegenerateEigenvalueWarning, PurePCAError, user_stacklevel
from .numeric import Scalar
from .params import _not_one_of

__all__ = ["CONVENTIONS", "Convention", "SIGN_RULES", "apply_sign_rule", "as_numpy", "as_statsmodels", "sign_flips"]

#: The sign rules :func:`apply_sign_rule` knows.
SIGN_RULES = ("max_abs_positive", "first_positive", "sum_positive", "factominer", "none")


@dataclass(frozen=True)
class Convention:
    """A library's choices: divisor, scaling, sign rule and component names.

    >>> CONVENTIONS["sklearn"].component_name(0)
    'PC1'
    """

    name: str
    ddof: int
    scale: bool
    sign: str
    prefix: str

    def component_name(self, i: int) -> str:
        """The name of component ``i`` (0-based) as this library prints it.

        >>> CONVENTIONS["princomp"].component_name(0), CONVENTIONS["statsmodels"].component_name(0)
        ('Comp.1', 'comp_0')
        """
        if isinstance(i, bool) or not isinstance(i, int) or i < 0:
            raise PurePCAError(f"component_name: i must be an int >= 0 (a 0-based component), got {i!r:.60}")
        return f"{self.prefix}{i if self.name == 'statsmodels' else i + 1}"


CONVENTIONS = {
    "sklearn": Convention("sklearn", 1, False, "max_abs_positive", "PC"),
    "prcomp": Convention("prcomp", 1, False, "none", "PC"),
    "princomp": Convention("princomp", 0, False, "first_positive", "Comp."),
    "factominer": Convention("factominer", 0, True, "factominer", "Dim."),
    "statsmodels": Convention("statsmodels", 0, True, "none", "comp_"),
    "numpy": Convention("numpy", 1, False, "none", "PC"),
}


def _largest_is_negative(v: Sequence[Scalar]) -> bool:
    """``max_abs_positive`` (scikit-learn >= 1.5, ``svd_flip`` with ``u_based_decision=False``): the
    entry of largest absolute value is made positive; among equal largest values the first decides."""
    # (copy_abs: a Decimal's abs() rounds in the caller's decimal context, which may tie two entries)
    return bool(v[max(range(len(v)), key=lambda j: v[j].copy_abs() if isinstance(v[j], Decimal) else abs(v[j]))] < 0)


def _first_is_negative(v: Sequence[Scalar]) -> bool:
    """``first_positive`` (R ``princomp(fix_sign=TRUE)``): the first entry is made non-negative."""
    return bool(v[0] < 0)


def _sign_of_sum(v: Sequence[Scalar]) -> int:
    """The sign (-1, 0 or 1) of the exact sum of the entries, never of a rounded one: a float sum
    loses a -1e-17 beside 0.5 and -0.5, and overflows at 1e308 + 1e308.  ``math.fsum`` of floats is
    correctly rounded, and a correctly rounded sum has the exact sum's sign (a non-zero sum of
    floats is at least the smallest subnormal); where it overflows, or the entries are not all
    floats (Decimals at ``precision=N``, whose sum would round in a decimal context), the sum is
    taken exactly, in Fractions.

    >>> _sign_of_sum([0.5, -1e-17, -0.5]), _sign_of_sum([1e308, 1e308, -1e308]), _sign_of_sum([])
    (-1, 1, 0)
    """
    total: Any
    if all(type(x) is float for x in v):
        try:
            total = math.fsum(v)
        except OverflowError:  # an intermediate sum beyond the float range
            total = sum(map(Fraction, v), Fraction(0))
    else:
        total = sum(map(Fraction, v), Fraction(0))
    return int(total > 0) - int(total < 0)


def _sum_is_negative(v: Sequence[Scalar]) -> bool:
    """``sum_positive``: the sum of the entries is made non-negative; when it is zero, the first
    non-zero entry is made positive.  The sum is the exact one (:func:`_sign_of_sum`)."""
    sign = _sign_of_sum(v)
    return next((x for x in v if x != 0), 0) < 0 if sign == 0 else sign < 0


def _factominer_flips(v: Sequence[Scalar]) -> bool:
    """``factominer`` (FactoMineR's ``svd.triplet``): the sum of the entries is made non-negative; a
    vector whose sum is zero keeps the solver's sign.  (``PCA`` also skips the rule when one
    component is kept of data with more rows than columns, as FactoMineR does.)  The sum is the
    exact one (:func:`_sign_of_sum`)."""
    return _sign_of_sum(v) < 0


def _keep(v: Sequence[Scalar]) -> bool:
    """``none``: the signs the solver produced (R ``prcomp`` keeps LAPACK's; purepca's solvers are
    deterministic, so the result is reproducible but not LAPACK's)."""
    return False


#: Each sign rule: whether it flips a (non-empty) component.  One function a rule, so that a fit
#: runs only its own (SIGN_RULES gives their order).
_FLIPS = {"max_abs_positive": _largest_is_negative, "first_positive": _first_is_negative,
          "sum_positive": _sum_is_negative, "factominer": _factominer_flips, "none": _keep}


def sign_flips(components: Sequence[Sequence[Scalar]], rule: str) -> list[bool]:
    """For each component (a row), whether the rule flips its sign (the rules are listed in
    :data:`SIGN_RULES`; each one's function says what it fixes).

    >>> sign_flips([[0.1, -0.9], [0.5, 0.5]], "max_abs_positive")
    [True, False]
    >>> sign_flips([[-0.0, 1.0]], "first_positive"), sign_flips([[0.0, -1.0, 1.0]], "sum_positive")
    ([False], [True])
    """
    if rule not in SIGN_RULES:  # (the tuple: an unhashable rule is refused, not a TypeError)
        raise _not_one_of("sign", SIGN_RULES, rule)
    return _sign_flips(_checked_components(components), rule)


def _checked_components(components: Any) -> list[list[Scalar]]:
    """The components as lists of finite real numbers (floats, ints, Decimals, Fractions; not bools),
    or an error naming the first entry that is not one.

    >>> _checked_components([[1, 0.5]])
    [[1, 0.5]]
    >>> _checked_components([[1.0, float("nan")]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: components[0][1]: expected a finite real number, got nan
    """
    if isinstance(components, (str, bytes, bytearray, dict, set, frozenset)) or not hasattr(components, "__iter__"):
        raise PurePCAError(f"components: expected a sequence of components (rows of numbers), got "
                           f"{type(components).__name__}")
    out = []
    for i, v in enumerate(components):
        if isinstance(v, (str, bytes, bytearray, dict, set, frozenset)) or not hasattr(v, "__iter__"):
            raise PurePCAError(f"components[{i}]: expected a component (a row of numbers), got {v!r:.60}")
        row = list(v)
        for j, x in enumerate(row):
            if type(x) is float:
                if x - x == 0.0:  # finite (inf - inf and NaN - NaN are NaN)
                    continue
            elif type(x) is int or type(x) is Fraction or (type(x) is Decimal and x.is_finite()):
                continue
            elif isinstance(x, numbers.Real) and not isinstance(x, (bool, Decimal)):  # numpy's numbers
                row[j] = int(x) if isinstance(x, numbers.Integral) else float(x)
                if type(row[j]) is int or math.isfinite(row[j]):
                    continue
            raise PurePCAError(f"components[{i}][{j}]: expected a finite real number, got {x!r:.60}")
        out.append(row)
    return out


def _sign_flips(components: Sequence[Sequence[Scalar]], rule: str) -> list[bool]:
    """The worker behind :func:`sign_flips`, on components of finite numbers (a solver's)."""
    flips = _FLIPS[rule]
    return [bool(len(v)) and flips(v) for v in components]


def apply_sign_rule(components: Sequence[Sequence[Scalar]], rule: str) -> list[list[Scalar]]:
    """The components (rows) with the signs fixed by ``rule`` (a new list).

    >>> apply_sign_rule([[-1.0, 0.5]], "first_positive")
    [[1.0, -0.5]]
    """
    if rule not in SIGN_RULES:
        raise _not_one_of("sign", SIGN_RULES, rule)
    return _apply_sign_rule(_checked_components(components), rule)


def _apply_sign_rule(components: Sequence[Sequence[Scalar]], rule: str) -> list[list[Scalar]]:
    """The worker behind :func:`apply_sign_rule`, on a solver's components (finite numbers)."""
    return [[-x for x in v] if flip else list(v) for v, flip in zip(components, _sign_flips(components, rule))]


#: Eigenvalues closer than this, relative to the largest, count as equal.
DEGENERATE_GAP = 1e-10


def _report_degenerate(spectrum: list[float], k: int, stacklevel: Optional[int] = None, *, dim: int = 0,
                       svd: bool = False, eps: float = 2.0 ** -52) -> None:
    """:func:`purepca.solvers.report_degenerate`'s worker, on the fit's spectrum (the door checks a user's)."""
    if not spectrum or not spectrum[0] > 0:
        return
    top, limit = spectrum[0], DEGENERATE_GAP * spectrum[0]
    pairs, small = [], []
    for i in range(min(k + 1, len(spectrum)) - 1):
        a, b = spectrum[i], spectrum[i + 1]
        if b > limit:
            if a - b <= limit:
                pairs.append((i, a, b))
        elif dim > 0 and _unresolved(a, b, top, dim, svd, eps):
            small.append((i, a, b))
    if pairs or small:
        _warn_degenerate(pairs, small, (user_stacklevel() if stacklevel is None else stacklevel) + 1)


def _unresolved(a: float, b: float, top: float, dim: int, svd: bool, eps: float) -> bool:
    """Whether two eigenvalues ``a >= b`` at most ``DEGENERATE_GAP·top`` are closer than the errors of the
    path (``sqrt(dim)·eps·top``, or ``·sqrt(top·v)`` for an SVD) can tell apart, ``b`` itself above 16 times its
    error."""
    def error(v: float) -> float:  # (top * v may underflow)
        return math.sqrt(dim) * eps * (math.sqrt(top) * math.sqrt(v) if svd else top)
    return b > 16.0 * error(b) and a - b <= max(error(a) + error(b), DEGENERATE_GAP * a)


def _warn_degenerate(pairs: list[tuple[int, float, float]], small: list[tuple[int, float, float]],
                     stacklevel: int) -> None:
    """The warning of :func:`_report_degenerate`, naming the pairs (``stacklevel`` counted from here)."""
    listed = ", ".join(f"{i + 1} and {i + 2} ({a:.6g}, {b:.6g})" for i, a, b in pairs + small)
    within = f"within {DEGENERATE_GAP:g} of the largest" if not small else (
        f"within {DEGENERATE_GAP:g} of the largest or" if pairs else "") + " within the rounding errors of the solver"
    warnings.warn(
        f"eigenvalues {listed} are equal to {within.strip()}: the "
        "corresponding components are not unique (any rotation within their span is as valid); "
        "compare subspaces, not individual components",
        DegenerateEigenvalueWarning,
        stacklevel=stacklevel,
    )


def as_statsmodels(pca: Any, X: Any, *, normalize: bool = True) -> dict[str, Any]:
    """A fitted :class:`purepca.PCA` as ``statsmodels.multivariate.pca.PCA`` reports it.

    ``pca`` must be fitted on ``X`` with ``ddof=0`` (``convention="statsmodels"``
    for statsmodels' ``standardize=True``; ``convention="statsmodels", scale=False``
    for ``standardize=False, demean=True``).  Returns ``eigenvals`` (the sums
    of squares of the transformed data along each component: n times
    ``explained_variance_``), ``loadings`` (d x k, eigenvectors as columns),
    ``factors`` (the scores, divided by ``sqrt(eigenvals)`` when ``normalize``,
    so that each has unit length) and ``coeff`` (k x d; times
    ``sqrt(eigenvals)`` when ``normalize``), as nested lists.

    >>> from purepca import PCA
    >>> X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]]
    >>> sm = as_statsmodels(PCA(convention="statsmodels").fit(X), X)
    >>> [round(v, 10) for v in sm["eigenvals"]]      # n times the eigenvalues of the correlation matrix
    [7.3260873625, 0.6739126375]
    >>> round(sum(f[0] ** 2 for f in sm["factors"]), 12)
    1.0
    """
    if getattr(getattr(pca, "_state", None), "ddof", None) != 0 or not getattr(pca, "center", True):
        raise PurePCAError("as_statsmodels: fit the PCA with convention='statsmodels' (divisor n, centred); "
                           "statsmodels' demean=False is not a convention purepca has")
    n = pca.n_samples_
    eigenvals = [v * n for v in pca.explained_variance_]
    loadings = [list(col) for col in zip(*pca.components_)]
    scores = pca.transform(X)
    if normalize:
        roots = [math.sqrt(v) for v in eigenvals]
        factors = [[s / r if r > 0 else 0.0 for s, r in zip(row, roots)] for row in scores]
        coeff = [[x * r for x in v] for v, r in zip(pca.components_, roots)]
    else:
        factors = [list(row) for row in scores]
        coeff = [list(v) for v in pca.components_]
    return {"eigenvals": eigenvals, "loadings": loadings, "factors": factors, "coeff": coeff}


def as_numpy(pca: Any) -> tuple[list[float], list[list[float]]]:
    """A fitted :class:`purepca.PCA` (all components, ``convention="numpy"``) as
    ``numpy.linalg.eigh(numpy.cov(X, rowvar=False))`` returns it: the eigenvalues
    in ascending order and the eigenvectors as the columns of a d x d matrix.

    >>> from purepca import PCA
    >>> w, v = as_numpy(PCA(convention="numpy").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]]))
    >>> [round(x, 10) for x in w]
    [0.3547267835, 4.2286065499]
    """
    try:
        k, d = pca.n_components_, pca.n_features_in_
    except AttributeError:
        raise PurePCAError(f"as_numpy: pca must be a fitted purepca.PCA, got {pca!r:.60}") from None
    if k != d:
        raise PurePCAError(f"as_numpy: eigh returns all {pca.n_features_in_} eigenpairs; the PCA kept "
                           f"{pca.n_components_} (fit it with n_components=None on data with n > d)")
    values = list(reversed(pca.explained_variance_))
    vectors = [list(row) for row in zip(*reversed(pca.components_))]
    return values, vectors
