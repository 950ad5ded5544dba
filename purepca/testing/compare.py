"""Comparing another PCA with the reference: tolerances from the error model of the method under test.

The error model of a method says how far a *correct* implementation of it
can be from the exact answer; the tolerance is that, times a small safety
factor measured on scikit-learn, numpy, scipy and statsmodels
(``benchmarks/oracle_matrix.py``).  All of it is computed on the data
divided by a power of two (exact), so that variances beyond the float range
or subnormal ones get a tolerance in range, never ``nan`` or 0.

* ``svd`` (a backward-stable SVD of the centred data): σ_i off by
  ``c·σ_1`` (Weyl; ``c = 2·sqrt(n + d)·eps``), so λ_i = σ_i²/(n - ddof) by
  ``2c·sqrt(λ_1·λ_i) + c²·λ_1`` at every size: small eigenvalues keep their
  digits, and a zero one comes out below ``c²·λ_1``.  (An absolute
  ``c·λ_1`` below ``c·λ_1`` let a last eigenvalue 1000 times too large, or
  0, pass; scikit-learn's ``PCA()`` that gave 1e-15 for the digits'
  constant pixels had chosen ``covariance_eigh``: a ``"covariance"`` answer.)
* ``covariance`` (a formed ``ZᵀZ`` or ``np.cov``, then ``eigh``):
  ``c·eps·λ_1`` whatever λ_i is.
* ``float32``: what binary32 can reach on these data: its arithmetic
  (``4·sqrt(d)·eps32·λ_1``), reading X into binary32 and centring in it
  (:func:`_float32_terms`); a result whose arrays are float32 is compared
  at float32's eps under any model.  Where that tolerance swallows λ_1 or
  a gap the reference resolves, or binary32 cannot hold the data, a
  ``precision`` check fails and says why: such an answer cannot be checked.
* ``iterative`` (Lanczos/ARPACK, LOBPCG, subspace iteration) and
  ``randomized`` (randomized range finders: scikit-learn, fbpca): the
  tolerance comes from the data, never from the answer.  A converged run of
  the class leaves a residual ``‖Cv - ρv‖`` of about ``eps·‖C‖``
  (``K_ITER·max(1, d/2, sqrt(n + d))·eps·λ_1``); a declared ``tol`` (ARPACK's stopping
  test, relative to the Ritz value) allows ``tol·λ_i`` more, and a randomized
  run of ``n_iter`` power steps on a block of ``k + n_oversamples`` vectors
  ``K_RAND·sqrt(d)·λ_i·(σ_l+1/σ_i)^(2·n_iter+1)`` (Halko, Martinsson and
  Tropp 2011, Thm 9.1), with ``σ`` the reference's singular values.  The
  oracle measures each component's residual against the exact covariance and
  judges it against that allowed ``R_i``; the eigenvalues within the
  covariance model plus ``min(R_i, R_i²/gap_i)`` (Weyl; Kato–Temple), the
  components within ``R_i/gap_i`` (Davis–Kahan sin θ) of the reference's own
  gaps.  A ``residual`` given can only tighten ``R_i``.
* ``incremental`` (scikit-learn's IncrementalPCA, any merge of batch SVDs):
  the svd model with ``eps`` grown by ``sqrt(m)``, ``m = ceil(n/batch_size)``
  merges, each a backward-stable SVD of a matrix of norm ``σ_1`` whose errors
  add as independent roundings; centring is not grown (the batch means'
  corrections at an offset are what the model must flag).

Every model adds what centring with a rounded mean costs: a mean off by
``δ`` adds ``n·δδᵀ`` to the sums of squares (the first-order term
vanishes: centred columns sum to zero), so the variances move by up to
``n/(n - ddof)·‖δ‖²``, with ``δ_j`` a couple of ulps of the mean.

Components are also checked for what every eigensolver owes: as many as
the variances given, unit length, orthogonality (``|v_i·v_j| <=
10·d·eps + eps·λ_1/|λ_i - λ_j|``) and, under ``covariance``, a backward error ``‖Cv - ρv‖ <=
6·max(1, d/2)·eps·‖C‖``; unsorted variances are named as unsorted.

Eigenvalues the method cannot tell apart (closer than the sum of their
tolerances) form a cluster whose vectors are compared as a subspace; the
null space of wide data (n <= d), known only as the complement of the
non-zero components, is checked by orthogonality to them.

>>> X = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.5], [3.0, 2.0]]
>>> [(c.quantity, c.passed) for c in compare_pca({"explained_variance_": [2.7169129481821, 0.2]}, X)]
[('explained_variance_[0]', True), ('explained_variance_[1]', False)]
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..conventions import CONVENTIONS
from ..errors import PurePCAError
from ..linalg.matrix import as_matrix
from ..params import _not_one_of, _show, as_int, as_real
from ..numeric import FLOAT
from ..numeric import _times_power_of_two as _times_power
from .geometry import (_dot, _line_angle, _rows, _sign_determined as sign_determined, angle_from, angle_inside,
                       subspace_distance)
from .answer import Reference, _Validated, _fingerprint, reference

__all__ = ["Check", "METHODS", "assert_pca_close", "compare_pca", "iterative_residuals", "summary", "tolerances"]

_EPS64 = 2.0 ** -52
_EPS32 = 2.0 ** -23

#: The error models the comparison knows (see the module docstring).
METHODS = ("svd", "covariance", "float32", "iterative", "randomized", "incremental")
_ITERATIVE = ("iterative", "randomized")

# Safety factors over the error models, calibrated by benchmarks/oracle_matrix.py: the largest error of a
# correct implementation (scikit-learn full/arpack/randomized/covariance_eigh, numpy, scipy, statsmodels,
# float32 variants) on 20 kinds of data stays below the tolerance, and the tolerance within 30x (median) of
# what the full SVD reaches.
_K_SVD = 2.0     # eigenvalues, svd model: K·eps·sqrt(n + d)·sqrt(λ_1·λ_i)
_K_COV = 4.0     # eigenvalues, covariance model: K·eps·sqrt(n + d)·λ_1
_K_MEAN = 4.0    # a mean: K·max(1, sqrt(n)/5) ulps of the mean of |x|; float32 sums add log2(n)
_K_CENTRE = 4.0  # centring: n/(n - ddof)·Σ_j (K_CENTRE·ulp(mean_j))², the ulps growing as the mean's
_K_ANGLE = 2.0   # angles (covariance, float32, randomized, rtol): K_ANGLE·(tol_i + tol_j)/|λ_i - λ_j|
# Angles of the svd model, per component: K_SVD_ANGLE·eps·σ_1·sqrt(Σ_j 1/(σ_i - σ_j)²) (its own gaps, in singular
# values) + F_SVD_ANGLE·eps (a computed unit vector's own rounding: LAPACK left the top vector of 18x3 graded data
# 44 eps off where the gap term is 1.4 eps).  benchmarks/oracle_angles.py calibrates it on 1,070 data sets (graded,
# random, 750 with two singular values 1e-6..1e-1 apart, with and without an offset, the 20 kinds of the matrix) x
# scikit-learn full, numpy svd, scipy gesvd, numpy svd of the transpose (LQ instead of QR: up to 9x the usual error
# on one component) and statsmodels svd, 25,000 angles: the K that covers 1.5x every error with F = 24 was 25.4,
# 18.7 and 26.4 on seeds 7, 3 and 11, and 30.4 on a fourth set; 0 angle alarms on 4,200 held-out fits (graded,
# random, close pairs, noise under strong directions, n up to 400 and d up to 40), the largest angle 0.61 of its
# tolerance.  No factor in n or d: error / gap term stayed below 16 up to 5,000 x 20, 500 x 200 and the digits
# (1,797 x 64, where it was 9), as on the small sets (the former sqrt(n + d) made the threshold 3.3x looser at 500 x
# 200 than at 60 x 6). LAPACK's error on one data set scatters over two decades below the bound (error / gap term:
# median 0.17, 99th percentile 4-5, largest 20-27), so the threshold sits a median ~120x above the error of a
# typical run.  Models that follow where the data's size sits (per column for v_j, per row for u_i) cut that to 80x
# on these sets but failed the digits by 4x (the reflectors applied to R's rows spread σ_1-sized errors into the
# near-constant pixels): the normwise bound stays.
_K_SVD_ANGLE = 30.0
_F_SVD_ANGLE = 24.0
_JOIN = 2.0      # eigenvalues closer than JOIN·(tol_i + tol_j) form a cluster
# Components beyond their angle (issue 35: on 1,450 correct answers over 300 data sets, max|VVᵀ - I|/eps had
# median 2.45 and maximum 8.1; the backward error ‖Cv - ρv‖/(eps‖C‖) of covariance-kind answers median 0.67 and
# maximum 4.28, catching 85 % of 1-digit and 99 % of 2-digit losses).
_K_UNIT = 4.0       # | ‖v‖ - 1 | <= K·(1 + sqrt(d))·eps
_K_ORTHO = 10.0     # max|v_i·v_j| <= K·max(1, d)·eps (i != j), LAPACK's normalisation
_K_BACKWARD = 6.0   # ‖Cv - ρv‖ <= K·max(1, d/2)·eps·‖C‖ (method="covariance"; scikit-learn's arpack reached 33
#                     at d = 15, scipy's eigh of np.cov 8.8 at d = 11)
# binary32 (method="float32", or float32 arrays): see _float32_terms.
_K_ARITH32 = 4.0  # the arithmetic on centred data: K·sqrt(d)·eps32·λ_1
_K_IN32 = 4.0     # reading X into binary32: K standard deviations of the first-order term
_K_ANGLE32 = 8.0  # angles of binary32 answers (numpy's float32 eigh of 17 x 8 data read from float64: 3.7x the
#                    float64 factor K_ANGLE at 2, of 27 x 5 data 5.4x; the reading term models sums of n roundings,
#                    rough at small n)
_MAX32 = 3.4028234663852886e38  # binary32's largest number
# Iterative methods (see the module docstring and benchmarks/bench_oracle.py's calibration).
_K_ITER = 12.0    # a converged iterative run: K·max(1, d/2, sqrt(n + d))·eps·λ_1
_K_TOL = 4.0      # a declared ARPACK tol: the residual it allows, K·tol·λ_i (its test is on a residual estimate)
_K_RAND = 100.0   # randomized range finder: K·sqrt(d)·λ_i·(σ_l+1/σ_i)^(2q+1); the Gaussian test matrix's factor
_K_DK = 2.0       # Davis–Kahan: sin θ <= K·R/gap (the Ritz value's gap is smaller than the exact one)
_K_C32 = 0.8      # a binary32 mean without mean_ given: K·max(1, sqrt(n)) ulps


def _digits_lost(error: float, scale: float, eps: float = _EPS64) -> str:
    """Decimal digits lost against the answer's own precision ``eps`` (binary64's or binary32's), at most
    all of them (``log10(1/eps)``: 15.7 or 6.9)."""
    if not scale > 0 or error != error:
        return "-"
    rel = error / scale
    if rel <= eps:
        return "0"
    return f"{min(math.log10(1 / eps), math.log10(rel / eps)):.1f}"


@dataclass(frozen=True)
class Check:
    """One compared quantity: its name, whether it passed, the error, the tolerance and the digits lost.

    For components, ``error`` and ``tolerance`` are angles in radians;
    ``note`` says what else was found (a flipped sign, a divisor mismatch).

    ``ratio`` is error ÷ tolerance (LAPACK's test ratio: above 1 is out), printed
    beside the digits.

    >>> Check("explained_variance_[0]", False, 1e-3, 1e-12, "9.3").line()
    'explained_variance_[0]: off by 0.001 (tolerance 1e-12, error/allowed 1e+09; 9.3 digits lost)'
    >>> Check("explained_variance_[0]", True, 1e-16, 1e-12, "0.7").ratio
    0.0001
    """

    quantity: str
    passed: bool
    error: float
    tolerance: float
    digits_lost: str
    note: str = ""

    @property
    def ratio(self) -> float:
        """error ÷ tolerance (NaN where either is not a number or the check has no tolerance of that kind)."""
        if self.quantity in _NO_RATIO or not (self.error == self.error and self.tolerance == self.tolerance):
            return math.nan
        if self.tolerance > 0:
            return self.error / self.tolerance
        return 0.0 if self.error == 0 else math.inf

    def line(self) -> str:
        """The mismatch as one line (what ``assert_pca_close`` reports), with its error/allowed ratio."""
        ratio = self.ratio
        if self.note:
            if not ratio > 1 or "error/allowed" in self.note:
                return self.note  # (a sign flipped, a count, a hint: no error beyond its allowance to show)
            at = self.note.find("(tolerance ")
            cut = self.note.find(";", at) if at >= 0 else -1
            if cut >= 0:  # beside the tolerance, as in the lines without a note
                return f"{self.note[:cut]}, error/allowed {ratio:.3g}{self.note[cut:]}"
            return f"{self.note} (error/allowed {ratio:.3g})"
        shown = f", error/allowed {ratio:.3g}" if ratio == ratio else ""
        return (f"{self.quantity}: off by {self.error:.3g} (tolerance {self.tolerance:.3g}{shown}; "
                f"{self.digits_lost} digits lost)")


#: Checks whose error and tolerance are not an error and its allowance (a ratio of divisors, counts, a gap).
_NO_RATIO = frozenset(("divisor", "n_components", "precision", "order", "float32", "convention", "scale"))


def summary(checks: Sequence[Check]) -> str:
    """How many checks are out (cuML's form) and the largest error/allowed (LAPACK's).

    >>> summary([Check("a", True, 1.0, 2.0, "0"), Check("b", False, 3.0, 1.0, "1")])
    '1 of 2 checks out; largest error/allowed 3 (b)'
    """
    if isinstance(checks, (str, bytes)) or not hasattr(checks, "__iter__"):
        raise PurePCAError(f"summary: expected a list of Check rows (compare_pca's), got {type(checks).__name__}")
    checks = list(checks)
    if any(not isinstance(c, Check) for c in checks):
        raise PurePCAError("summary: expected a list of Check rows (compare_pca's); got something else in it")
    out = [c for c in checks if not c.passed]
    ratios = [(c.ratio, c.quantity) for c in checks if c.ratio == c.ratio]
    text = f"{len(out)} of {len(checks)} checks out"
    if ratios:
        worst = max(ratios)
        text += f"; largest error/allowed {worst[0]:.3g} ({worst[1]})"
    return text


def _number(v: Any) -> float:
    """One number of another library's result; True and '1.0' are not numbers there (the command
    refuses them in a JSON result too)."""
    if isinstance(v, (bool, str, bytes)):
        raise TypeError(v)
    return float(v)


def _vector(values: Any, name: str = "result") -> list[float]:
    """Another library's numbers as floats (NaN and infinities kept: they are mismatches to report); a
    set, a mapping, text or an empty list is an error naming the field, never a comparison of nothing."""
    values = values.to_numpy() if hasattr(values, "to_numpy") else values
    values = values.tolist() if hasattr(values, "tolist") else values
    if isinstance(values, (set, frozenset, dict, str, bytes)) or not hasattr(values, "__iter__"):
        raise PurePCAError(f"{name}: expected a list of numbers, got {type(values).__name__}")
    try:
        out = [_number(v) for v in values]
    except (TypeError, ValueError, OverflowError):  # (an int beyond the float range)
        raise PurePCAError(f"{name}: expected a list of numbers (one per component), got {values!r:.80}") from None
    if not out:
        raise PurePCAError(f"{name}: empty; there is nothing to compare")
    return out


def _theirs(value: Any, name: str) -> list[list[float]]:
    """Another library's rows as floats, NaN and infinities kept (they are mismatches to report, not bad input)."""
    value = value.tolist() if hasattr(value, "tolist") else value
    try:
        rows = [[_number(x) for x in row] for row in value]
    except (TypeError, ValueError, OverflowError):
        raise PurePCAError(f"{name}: expected rows of numbers") from None
    if not rows or len({len(r) for r in rows}) != 1 or not rows[0]:
        raise PurePCAError(f"{name}: expected a non-empty rectangular table of numbers")
    return rows


#: The arrays of an answer whose dtype says it is float32, under every name :func:`_extract` reads:
#: scikit-learn's, numpy's ``eigh`` (also as a ``(w, v)`` tuple), statsmodels' and R's.
_ARRAY_NAMES = ("components_", "explained_variance_", "mean_", "eigenvalues_", "eigenvectors_",
                "eigenvalues", "eigenvectors", "eigenvals", "loadings", "sdev", "rotation")


def _is_float32(result: Any) -> bool:
    """Whether any array of ``result`` is numpy's float32 (read from its dtype, not its values)."""
    if isinstance(result, tuple) and len(result) == 2 and not hasattr(result, "eigenvalues"):
        result = {"eigenvalues": result[0], "eigenvectors": result[1]}  # numpy's eigh as (w, v)
    for name in _ARRAY_NAMES:
        value = result.get(name) if isinstance(result, dict) else getattr(result, name, None)
        if value is not None and str(getattr(value, "dtype", "")) == "float32":
            return True
    return False


def _is_binary32(x: float) -> bool:
    """Whether ``x`` is a binary32 number (reading it into float32 loses nothing)."""
    try:
        return bool(struct.unpack("<f", struct.pack("<f", x))[0] == x)
    except OverflowError:
        return False


def _extract(result: Any, d: int, n: int, divisor: int) -> dict[str, Any]:
    """Another library's answer as purepca's attribute names: components_ (k x d rows),
    explained_variance_ and, where given, mean_, singular_values_, explained_variance_ratio_,
    noise_variance_, whiten, and scores (``scores``/``x``, or a ``transform`` method).

    Besides scikit-learn's names: R's ``sdev``, ``rotation`` and ``x``;
    statsmodels' ``eigenvals`` (sums of squares: divided by ``divisor``
    here) and ``loadings``; numpy's ``eigh`` result (``eigenvalues``
    ascending, ``eigenvectors`` as columns), also as a ``(w, v)`` tuple."""
    if isinstance(result, tuple) and len(result) == 2 and not hasattr(result, "eigenvalues"):
        result = {"eigenvalues": result[0], "eigenvectors": result[1]}

    def get(name: str) -> Any:
        if isinstance(result, dict):
            return result.get(name)
        return getattr(result, name, None)

    if get("eigenvalues") is not None and get("eigenvectors") is not None:  # numpy.linalg.eigh
        return _from_eigh(get("eigenvalues"), get("eigenvectors"), d)
    if get("eigenvals") is not None and get("loadings") is not None:  # statsmodels
        loadings = _rows(get("loadings"), "loadings")
        return {"explained_variance_": [v / divisor for v in _vector(get("eigenvals"), "eigenvals")],
                "components_": [list(col) for col in zip(*loadings)]}
    out: dict[str, Any] = {}
    comps = get("components_")
    rotation = get("rotation")
    if comps is not None:
        out["components_"] = _theirs(comps, "components_")
    elif rotation is not None:  # R: d x k, one column per component
        out["components_"] = [list(col) for col in zip(*_rows(rotation, "rotation"))]
    variance = get("explained_variance_")
    sdev = get("sdev")
    if variance is not None:
        out["explained_variance_"] = _vector(variance, "explained_variance_")
    elif sdev is not None:  # R: standard deviations of the components
        sd = _vector(sdev, "sdev")
        if any(v < 0 for v in sd):
            i = next(i for i, v in enumerate(sd) if v < 0)
            raise PurePCAError(f"sdev[{i}] is {sd[i]!r}: a standard deviation is never negative")
        out["explained_variance_"] = [v * v for v in sd]  # v ** 2 would raise past 1e154
        out["variance given as"] = "sdev"  # for the messages (a NaN is named where it was given)
    for name in ("explained_variance_ratio_", "singular_values_", "mean_"):
        value = get(name)
        if value is not None:
            out[name] = _vector(value, name)
    noise = get("noise_variance_")
    if isinstance(noise, (list, tuple)) and len(noise) == 1:
        noise = noise[0]
    if noise is not None:
        try:
            out["noise_variance_"] = float(noise)
        except (TypeError, ValueError, OverflowError):
            raise PurePCAError(f"noise_variance_: expected a number, got {noise!r:.80}") from None
    whiten = get("whiten")
    if isinstance(whiten, bool):
        out["whiten"] = whiten
    scores = get("scores") if get("scores") is not None else get("x")
    if scores is not None and not callable(scores):
        out["scores"] = _theirs(scores, "scores")
    transform = None if isinstance(result, dict) else getattr(result, "transform", None)
    if isinstance(result, dict) and callable(result.get("transform")):
        transform = result["transform"]
    if transform is not None and callable(transform):
        out["transform"] = transform
    _check_shapes(out, d)
    return out


def _from_eigh(eigenvalues: Any, eigenvectors: Any, d: int) -> dict[str, Any]:
    """numpy's ``eigh`` result (values ascending, vectors as columns) as purepca's attributes, descending."""
    w = _vector(eigenvalues, "eigenvalues")
    v = _rows(eigenvectors, "eigenvectors")
    if len(v) != d or len(v[0]) != len(w):
        raise PurePCAError(f"eigenvectors: {len(v)} x {len(v[0])}, but numpy's eigh gives one column per "
                           f"eigenvalue ({len(w)}) and one row per column of X ({d}): expected {d} x {len(w)}")
    order = sorted(range(len(w)), key=lambda i: -w[i])
    return {"explained_variance_": [w[i] for i in order], "components_": [[row[i] for row in v] for i in order],
            "given as": "eigh"}


def _check_shapes(out: dict[str, Any], d: int) -> None:
    """Refuse an answer with nothing to compare, or with a shape no PCA of d columns has."""
    if "components_" not in out and "explained_variance_" not in out:
        raise PurePCAError("assert_pca_close: the result has neither components_ (or rotation) nor "
                           "explained_variance_ (or sdev); nothing to compare")
    if "components_" in out and any(len(row) != d for row in out["components_"]):
        raise PurePCAError(f"assert_pca_close: the components must have {d} entries (the columns of X)")
    # Shapes exact: an entry past what a PCA of d columns has would be compared with nothing, or ignored.
    mean = out.get("mean_")
    if mean is not None and len(mean) != d:
        raise PurePCAError(f"mean_: {len(mean)} entries, but X has {d} columns: a mean has one per column")
    for name in ("components_", "explained_variance_", "explained_variance_ratio_", "singular_values_"):
        value = out.get(name)
        if value is not None and len(value) > d:
            shown = "sdev" if name == "explained_variance_" and out.get("variance given as") == "sdev" else name
            raise PurePCAError(f"{shown}: {len(value)} entries, but a PCA of X's {d} columns has at most {d}")


def _ulp_in_units(v: float, lift: int) -> float:
    """One ulp of ``v`` in units of ``4**lift``; 2**1000 where that overflows (data so small that their
    variances underflow: a result of 0 passes, any other is inf in those units and fails; sums of
    such tolerances stay finite)."""
    try:
        return min(math.ldexp(math.ulp(v), -2 * lift), 2.0 ** 1000)
    except OverflowError:
        return 2.0 ** 1000


def _unit(x: float, e: int) -> float:
    """x divided by 2**e, with infinities and NaN kept (and inf where the quotient overflows)."""
    if x != x or math.isinf(x):
        return x
    try:
        return math.ldexp(x, -e)
    except OverflowError:
        return math.copysign(math.inf, x)


#: The largest count of rows or columns a tolerance is computed for (beyond it no float holds the count).
_COUNT_MAX = 2 ** 53


def tolerances(ref: Reference, n: int, d: int, method: str = "svd", *, float32: bool = False,
               residual: float = 0.0, rtol: Optional[float] = None, size: Optional[int] = None,
               magnitudes: Optional[Sequence[float]] = None, exact32: bool = False,
               mean: Optional[Sequence[float]] = None, tol: Optional[float] = None,
               n_iter: Optional[int] = None, n_oversamples: Optional[int] = None,
               batch_size: Optional[int] = None, k: Optional[int] = None) -> list[float]:
    """The tolerance of every eigenvalue of the reference's spectrum, in units of ``4**ref.exponent``.

    ``size`` pads the spectrum with zeros (the null space of wide data, for
    an answer that gives all d eigenpairs of the covariance).  At float32's
    precision (``method="float32"`` or ``float32=True``) the tolerance
    follows what binary32 can reach on these data (:func:`_float32_terms`):
    ``magnitudes`` are the largest ``|x|`` of each column (default: the
    mean's size plus six standard deviations), ``exact32`` says that every
    entry of X is a binary32 number (nothing is lost reading it), and
    ``mean`` is the other side's ``mean_`` when it gave one (the centring
    it did, instead of a model of it: it can only tighten).  ``tol``,
    ``n_iter``, ``n_oversamples`` and ``k`` (the components computed)
    describe an iterative run (:func:`iterative_residuals`), ``batch_size``
    an incremental one.

    >>> X = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.5], [3.0, 2.0]]
    >>> t = tolerances(reference(X), 4, 2)
    >>> t[0] > t[1] > 0
    True
    """
    if not isinstance(ref, Reference):
        raise PurePCAError(f"tolerances: ref must be a Reference (from reference(X)), got {_show(ref)}")
    n = as_int(n, "tolerances: n", low=ref.ddof + 1, high=_COUNT_MAX)
    d = as_int(d, "tolerances: d", low=1, high=_COUNT_MAX)
    if size is not None:
        size = as_int(size, "tolerances: size", low=0, high=_COUNT_MAX)
    unit = list(ref.unit_spectrum) + [0.0] * max(0, (size or 0) - len(ref.unit_spectrum))
    if not unit:
        return []
    residual = as_real(residual, "residual", low=0.0)
    if rtol is not None:
        rtol = as_real(rtol, "rtol", low=0.0, low_open=True)
    if method not in METHODS:
        raise _not_one_of("method", METHODS, method)
    run = _run_arguments(method, tol, n_iter, n_oversamples, batch_size)
    tol, n_iter, n_oversamples, batch_size = run["tol"], run["n_iter"], run["n_oversamples"], run["batch_size"]
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 0):
        raise PurePCAError(f"k must be an int >= 0, got {k!r}")
    top = max(max(unit), 0.0)
    if rtol is not None:
        return [rtol * max(v, 0.0) + rtol * _EPS64 * top for v in unit]
    eps = _EPS32 if (float32 or method == "float32") else _EPS64
    root_m = math.sqrt(n + d)
    e = ref.exponent if not ref.scaled else 0
    centring = (_float32_terms(ref, n, d, len(unit), magnitudes, exact32, mean) if eps == _EPS32
                else [_centre_allowance(ref, n, d, eps)] * len(unit))
    allowed_r: list[float] = []
    gaps: list[float] = []
    if method in _ITERATIVE:
        allowed_r = _iterative_residuals(unit, d, eps, method=method, tol=tol, n_iter=n_iter, n=n,
                                        n_oversamples=n_oversamples, k=k, residual=_unit(_unit(residual, e), e),
                                        centring=centring)
        gaps = _gaps(unit)
    grow = _merges(n, d, batch_size) if method == "incremental" else 1.0
    out = []
    for i, (v, centre) in enumerate(zip(unit, centring)):
        lam = max(v, 0.0)
        if method == "float32":
            t = _K_ARITH32 * math.sqrt(d) * eps * top
        elif method in ("svd", "incremental"):
            c = _K_SVD * root_m * eps * grow
            # σ_i within c·σ_1 (Weyl, a backward error c·‖Z‖), so λ_i = σ_i²/(n - ddof) within
            # 2c·sqrt(λ_1·λ_i) + c²·λ_1, at every size of λ_i: a zero σ_i comes out at most c·σ_1, λ_i at c²·λ_1.
            t = c * (2 * math.sqrt(top) * math.sqrt(lam) + c * top)
        else:
            t = _K_COV * root_m * eps * top
        if eps == _EPS32:  # a binary32 covariance's entries may be subnormal there: a few of its smallest steps
            t += _unit(_unit(4 * d * 2.0 ** -149, e), e)
        if allowed_r:  # Weyl (|λ̃ - λ| <= R) and Kato–Temple (<= R²/gap): the smaller
            R = allowed_r[i]
            t += min(R, R * R / gaps[i]) if gaps[i] > 0 else R
        out.append(t + centre + 2 * eps * lam)
    return out


def _merges(n: int, d: int, batch_size: Optional[int]) -> float:
    """``sqrt(m)`` for the ``m = ceil(n/batch_size)`` merges of an incremental SVD (scikit-learn's
    IncrementalPCA: batches of ``5·d`` rows by default)."""
    b = 5 * d if batch_size is None else batch_size
    return math.sqrt(max(1, -(-n // max(1, b))))


def _gaps(unit: list[float]) -> list[float]:
    """Each eigenvalue's distance to the nearest other one (inf when alone)."""
    out = []
    for i, v in enumerate(unit):
        near = [abs(v - w) for j, w in enumerate(unit) if j != i]
        out.append(min(near) if near else math.inf)
    return out


def iterative_residuals(unit: Sequence[float], d: int, eps: float = _EPS64, *, method: str = "iterative",
                        tol: Optional[float] = None, n_iter: Optional[int] = None,
                        n_oversamples: Optional[int] = None, k: Optional[int] = None, residual: float = 0.0,
                        centring: Optional[Sequence[float]] = None, n: Optional[int] = None) -> list[float]:
    """The residual ``‖Cv_i - ρ_i·v_i‖`` a run of an iterative method may leave on each eigenpair, from the
    data's spectrum ``unit`` (exact eigenvalues of C), never from the answer.

    * converged (Lanczos/ARPACK with ``tol=0``, LOBPCG, subspace iteration
      run to convergence): ``K_ITER·max(1, d/2, sqrt(n + d))·eps·λ_1``,
      what an eigensolver of a formed covariance leaves and products with
      the n rows add, plus what centring with a rounded mean adds
      (``centring``);
    * a declared ``tol`` (ARPACK's ``‖r‖ <= tol·|θ|``): ``K_TOL·tol·λ_i`` more;
    * a randomized range finder (``method="randomized"``, or ``n_iter``
      given): ``q = n_iter`` power steps on ``l = k + n_oversamples``
      vectors leave ``tan θ_i`` of about ``G·(σ_l+1/σ_i)^(2q+1)`` (Halko,
      Martinsson and Tropp 2011, §9-10; G, the test matrix's factor, taken
      as ``K_RAND·sqrt(d)``), so a residual of ``λ_i`` times that.
      scikit-learn's defaults (``n_iter="auto"``: 7 when ``k < 0.1·min(n,
      d)``, else 4; ``n_oversamples=10``) apply under ``"randomized"``.

    A ``residual`` given can only tighten each allowance (it is a claim about the run, and the oracle
    holds the answer to it).

    >>> r = iterative_residuals([4.0, 1.0, 0.25, 0.0625], 4, tol=1e-8)
    >>> r[0] > r[1] > 0
    True
    """
    if method not in _ITERATIVE:
        raise PurePCAError(f"method must be 'iterative' or 'randomized'; got {method!r}")
    values = _vector(unit, "unit")
    if any(not (math.isfinite(v) and v >= 0) for v in values):
        raise PurePCAError("unit: expected the covariance's eigenvalues: finite and >= 0")
    for name, value, low in (("d", d, 1), ("k", k, 0), ("n", n, 1)):
        if value is None and name != "d":
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise PurePCAError(f"{name} must be an int >= {low}, got {_show(value)}")
        if value > _COUNT_MAX:
            raise PurePCAError(f"{name} must be an int >= {low} and <= 2**53 (a count a float holds), "
                               f"got {_show(value)}")
    eps = as_real(eps, "eps", low=0.0, low_open=True)
    residual = as_real(residual, "residual", low=0.0)
    run = _run_arguments(method, tol, n_iter, n_oversamples, None)
    extra = None if centring is None else _vector(centring, "centring")
    return _iterative_residuals(values, d, eps, method=method, tol=run["tol"], n_iter=run["n_iter"],
                                n_oversamples=run["n_oversamples"], k=k, residual=residual, centring=extra, n=n)


def _iterative_residuals(unit: Sequence[float], d: int, eps: float = _EPS64, *, method: str = "iterative",
                        tol: Optional[float] = None, n_iter: Optional[int] = None,
                        n_oversamples: Optional[int] = None, k: Optional[int] = None, residual: float = 0.0,
                        centring: Optional[Sequence[float]] = None, n: Optional[int] = None) -> list[float]:
    """The worker of :func:`iterative_residuals`, its arguments checked."""
    top = max(max(unit, default=0.0), 0.0)
    kk = len(unit) if k is None else k
    # (products with the n x d data at every step: scikit-learn's randomized reached 38 eps·‖C‖ at 67 x 4, and
    # 32.4 on longley (16 x 7, columns at 1e5): K_ITER = 2·K_BACKWARD)
    base = _K_ITER * max(1.0, d / 2, math.sqrt(n + d) if n is not None else 1.0) * eps * top
    out = []
    q: Optional[int] = n_iter
    if q is None and method == "randomized":
        q = -1  # scikit-learn's "auto", fixed below once k is known
    for i, v in enumerate(unit):
        lam = max(v, 0.0)
        R = base + (centring[i] if centring is not None and i < len(centring) else 0.0)
        if tol is not None and i < kk:
            R += _K_TOL * tol * lam
        if q is not None and lam > 0 and i < kk:  # (beyond the k computed: not compared, and not widening others)
            steps = q if q >= 0 else (7 if kk < 0.1 * min(len(unit), d) else 4)
            ell = kk + (10 if n_oversamples is None else n_oversamples)
            if ell < len(unit) and unit[ell] > 0:
                # tan θ_i <= (σ_j/σ_i)^(2q+1)·‖Ω₂Ω₁⁺‖ for any j > i, Ω₁ the j x l top block of the Gaussian test
                # matrix (‖Ω₁⁺‖ ~ sqrt(l)/(l - j + 1)); the Ritz step spreads it over the whole spectrum (λ_1).
                best = min(min(1.0, math.sqrt(max(unit[j], 0.0) / lam)) ** (2 * steps + 1) * math.sqrt(ell)
                           / (ell - j + 1)
                           for j in range(i + 1, ell + 1))
                R += _K_RAND * math.sqrt(d) * top * best
        if residual > 0:
            R = min(R, residual)
        out.append(R)
    return out


def _ulp32(x: float) -> float:
    """One unit in the last place of binary32 at ``|x|`` (its normal range; 2**-149 below it)."""
    x = abs(x)
    if not x > 0 or not math.isfinite(x):
        return 2.0 ** -149 if x == 0 else x
    return max(math.ldexp(1.0, math.frexp(x)[1] - 24), 2.0 ** -149)


def _float32_terms(ref: Reference, n: int, d: int, size: int, magnitudes: Optional[Sequence[float]],
                   exact32: bool, mean: Optional[Sequence[float]]) -> list[float]:
    """What binary32 costs each eigenvalue besides its arithmetic on the centred data, in units of
    ``4**ref.exponent``.

    * Reading X: each entry rounded to binary32 moves by up to half an ulp of
      itself, ``Δ``, so the covariance gains ``(ZᵀΔ + ΔᵀZ + ΔᵀΔ)/(n - ddof)``.
      Roundings are independent, so ``v·(ZᵀΔ)·v`` is a sum of n terms of
      mean 0 whose standard deviation is ``sqrt((n - ddof)·λ_i·w_i²)`` with
      ``w_i² = Σ_j v_ij²·ulp_j²/12 <= max_j ulp_j²/12`` (ulp_j at column j's
      largest |x|; the bound is used, as the same roundings couple v_i to
      the other components); the
      term is ``K_IN32`` of those, times 2, plus the bias ``ΔᵀΔ`` (twice
      ``n/(n - ddof)·w_i²``).  Data whose entries are binary32 numbers lose
      nothing here.
    * Centring: a mean off by ``δ`` adds ``n/(n - ddof)·δδᵀ``, which moves
      ``λ_i`` by up to ``‖δ‖²``.  When the other side gave its ``mean_``, its
      own ``δ`` is used (its size is checked as ``mean_[j]``); else ``δ``
      is modelled as ``K_C32·max(1, sqrt(n))`` ulps of binary32 at the mean
      (numpy's float32 mean over axis 0 adds row by row: 0.74·sqrt(n) ulps
      off at 2,000 rows and an offset of 1e6), as ``(δ·v_i)²`` with the
      roundings independent across columns.
    """
    e = ref.exponent if not ref.scaled else 0
    spread = ref.scale_ if ref.scaled and ref.scale_ else [1.0] * d
    div = n - ref.ddof
    mags = list(magnitudes) if magnitudes is not None else None
    if mags is None:
        comps0 = ref.all_components or ref.components_
        var = [math.fsum(_times_power(max(v, 0.0), 2 * e) * c[j] * c[j] for v, c in zip(ref.unit_spectrum, comps0))
               * (s * s if ref.scaled else 1.0) for j, s in enumerate(spread)]
        mags = [abs(m) + 6 * math.sqrt(v) for m, v in zip(ref.mean_, var)]
    # (capped: data below binary32's range, 1e-200, make its steps 2**500 in the data's units, whose squares
    # overflow; the precision check refuses such data by name)
    ulps = [min(_unit(_ulp32(mj), e) / s, 2.0 ** 400) for mj, s in zip(mags, spread)]
    g = _K_C32 * max(1.0, math.sqrt(n))
    top_ulp = min(max(_unit(_ulp32(m), e) / s for m, s in zip(ref.mean_, spread)), 2.0 ** 400)
    centring = [n / div * (g * top_ulp) ** 2] * size
    if mean is not None:
        # The centring it did, instead of the model, where that is smaller: a mean given only tightens (its
        # own error is checked as mean_[j]); one ulp per column summed over d columns can exceed the model.
        deltas = [min(_unit(abs(a - b), e) / s, 2.0 ** 400) if a == a and math.isfinite(a) else math.inf
                  for a, b, s in zip(mean, ref.mean_, spread)]
        given = n / div * math.fsum(x * x for x in deltas)
        centring = [min(c, given) for c in centring]
    out = []
    for i in range(size):
        lam = max(ref.unit_spectrum[i], 0.0) if i < len(ref.unit_spectrum) else 0.0
        # (the largest column's ulp, not v_i's own mix: the same roundings couple v_i to every v_j, and an
        # angle allowance is built from these terms; v_i's mix left numpy's float32 eigh of 27 x 5 data 1.4x out)
        w2 = max(ulps) ** 2 / 12
        reading = 0.0 if exact32 else _K_IN32 * 2 * math.sqrt(lam * w2 / div) + 2 * n / div * w2
        out.append(reading + centring[i])
    return out


def _sum_growth(n: int, eps: float) -> float:
    """How the rounding of a column's mean grows with n, in units of its size at n <= 25: ``sqrt(n)/5`` (numpy
    sums over axis 0 row by row: its mean was off by up to sqrt(n)/2.5 eps of the mean of |x|, n = 20 to
    100,000, C and Fortran order); for float32 sums ``sqrt(n) + log2(n)``."""
    if eps == _EPS32:  # numpy's float32 mean over axis 0 adds row by row: 2.7·sqrt(n) ulps off at 697 rows
        return max(1.0, math.sqrt(n)) + math.log2(n)
    return max(1.0, math.sqrt(n) / 6)


def _centre_allowance(ref: Reference, n: int, d: int, eps: float) -> float:
    """What centring with a rounded mean adds to the variances, ``n/(n - ddof)·Σ_j δ_j²``, in the
    (scaled) units of the spectrum."""
    e = ref.exponent if not ref.scaled else 0
    spread = ref.scale_ if ref.scaled and ref.scale_ else [1.0] * d
    mean_err = _K_CENTRE * _sum_growth(n, eps)
    return n / (n - ref.ddof) * math.fsum(
        (mean_err * math.ulp(_unit(abs(m), e) / (s if ref.scaled else 1.0)) * (eps / _EPS64)) ** 2
        for m, s in zip(ref.mean_, spread))


def _model_clusters(unit: list[float], tol: list[float]) -> list[list[int]]:
    if not unit:
        return []
    out = [[0]]
    for i in range(1, len(unit)):
        if unit[i - 1] - unit[i] <= _JOIN * (tol[i - 1] + tol[i]):
            out[-1].append(i)
        else:
            out.append([i])
    return out


def _angle_allowed(cluster: list[int], unit: list[float], tol: list[float], floor: float,
                   k_angle: float = _K_ANGLE) -> float:
    worst = 0.0
    for i in cluster:
        for j in range(len(unit)):
            if j in cluster:
                continue
            gap = abs(unit[i] - unit[j])
            worst = max(worst, k_angle * (tol[i] + tol[j]) / gap if gap > 0 else math.inf)
    return min(math.pi / 2, worst + floor)


def _svd_angle_allowed(cluster: list[int], unit: list[float], extra: list[float], eps: float,
                       roots: Optional[list[float]] = None) -> float:
    """The angle a backward-stable SVD of the centred data may leave between a component (or the span of
    a cluster) and the exact one, from its own gaps: a perturbation ``E`` of the data with ``‖E‖ ~ eps·σ_1``
    turns ``v_i`` towards ``v_j`` by ``(σ_i·e_ji + σ_j·e_ij)/(σ_i² - σ_j²) ~ eps·σ_1/|σ_i - σ_j|``; summed
    in squares over j (with no growth in n or d: measured up to 5,000 x 200), plus a unit vector's own
    rounding and what the ``extra`` allowances (centring, a rounded result) do to each pair, as in the other
    models.  ``roots``: the square roots of ``unit`` (computed here when not given)."""
    top = math.sqrt(max(max(unit), 0.0))
    if roots is None:
        roots = [math.sqrt(max(u, 0.0)) for u in unit]
    members = set(cluster)
    others = [j for j in range(len(unit)) if j not in members]
    worst = 0.0
    for i in cluster:
        root_i = roots[i]
        gaps = [abs(root_i - roots[j]) for j in others]
        if not all(gap > 0 for gap in gaps):
            return math.pi / 2
        squares = 0.0
        for gap in gaps:  # (summed in order, as before: the same bits on every interpreter)
            squares += (top / gap) ** 2
        pairs = max([0.0] + [_K_ANGLE * (extra[i] + extra[j]) / abs(unit[i] - unit[j]) for j in others])
        worst = max(worst, _K_SVD_ANGLE * eps * math.sqrt(squares) + pairs)
    return min(math.pi / 2, worst + _F_SVD_ANGLE * eps)


def _order_checks(values: list[float], unit: list[float], tol: list[float], lift: int) -> list[Check]:
    """A failed Check when the variances given are not in descending order beyond what the method can tell
    apart: the components are unsorted (the reference's are sorted, so every pair would be compared with
    the wrong one)."""
    for i in range(len(values) - 1):
        a, b = _unit(_unit(values[i], lift), lift), _unit(_unit(values[i + 1], lift), lift)
        if b - a > _JOIN * (tol[i] + tol[i + 1]):
            return [Check("order", False, b - a, tol[i] + tol[i + 1], "-",
                          f"order: the components are unsorted: explained_variance_[{i + 1}] = {values[i + 1]!r} is "
                          f"larger than explained_variance_[{i}] = {values[i]!r}; PCA gives them by decreasing "
                          "variance (sort the variances and the components together)")]
    return []


def _precision_checks(r: Reference, unit: list[float], tol: list[float], k: int, lift: int,
                      magnitudes: Optional[list[float]]) -> list[Check]:
    """Failed Checks where binary32 cannot tell apart what is compared: the largest variance from 0, or
    eigenvalues the reference separates (their components are then not determined at that precision).
    A tail of eigenvalues it cannot tell from 0 is compared as one subspace, as zeros are."""
    out: list[Check] = []
    mags = magnitudes or [abs(m) for m in r.mean_]
    largest = max(mags) if mags else 0.0
    top_variance = r.spectrum[0] if r.spectrum else 0.0
    if largest > _MAX32 or 0 < largest < 2.0 ** -126 or top_variance > _MAX32:
        where = (f"entries reach {largest:.3g}, above its largest number, 3.4e+38" if largest > _MAX32 else
                 f"entries reach {largest:.3g}, below its normal range, 1.2e-38" if largest < 2.0 ** -126 else
                 f"largest variance is {top_variance:.3g}, above its largest number, 3.4e+38")
        return [Check("precision", False, largest, _MAX32, "-",
                      f"precision: binary32 cannot hold these data: their {where}; a binary32 answer cannot be "
                      "checked (compare a float64 answer, or scale the data first)")]
    why = (f"binary32's tolerance follows the data: entries up to {max(mags):.3g} are read and centred with "
           f"{_ulp32(max(mags)):.3g} steps, against a spread of "
           f"{math.sqrt(max(_times_power(unit[0], 2 * lift), 0.0)):.3g}"
           if unit else "")
    if unit and k and not unit[0] > tol[0]:
        out.append(Check("precision", False, _times_power(tol[0], 2 * lift), _times_power(unit[0], 2 * lift), "-",
                         f"precision: binary32 cannot tell explained_variance_[0] = {r.spectrum[0]:.6g} from 0 on "
                         f"these data: its tolerance is {_times_power(tol[0], 2 * lift):.3g} ({why}); nothing a "
                         "binary32 answer gives can be checked (compare a float64 answer, or centre the data before "
                         "rounding them to float32)"))
        return out
    ref_cluster = {i: c for c, members in enumerate(r.clusters) for i in members}
    for cluster in _model_clusters(unit, tol):
        if len(cluster) < 2 or cluster[0] >= k or not unit[cluster[0]] > 2 * tol[cluster[0]]:
            continue  # one eigenvalue, not compared, or a tail that cannot be told from 0
        if len({ref_cluster.get(i, -1) for i in cluster}) < 2:
            continue  # equal in the reference too: a subspace in any precision
        # The pair that joined the cluster: its gap is within JOIN·(tol_i + tol_i+1) by construction, and the
        # message shows that sum (one tolerance alone may be smaller than the gap).
        i0 = min(cluster[:-1], key=lambda i: (unit[i] - unit[i + 1]) / (tol[i] + tol[i + 1]))
        gap = unit[i0] - unit[i0 + 1]
        reach = _JOIN * (tol[i0] + tol[i0 + 1])
        shown = cluster[:max(1, min(len(cluster), k))]
        out.append(Check("precision", False, _times_power(gap, 2 * lift), _times_power(reach, 2 * lift),
                         "-", f"precision: binary32 cannot tell explained_variance_[{cluster[0]}..{cluster[-1]}] apart "
                         f"on these data: explained_variance_[{i0}] and [{i0 + 1}] are "
                         f"{_times_power(gap, 2 * lift):.3g} apart, within the {_times_power(reach, 2 * lift):.3g} "
                         f"binary32 may move them (twice their tolerances, {_times_power(tol[i0], 2 * lift):.3g} and "
                         f"{_times_power(tol[i0 + 1], 2 * lift):.3g}: {why}), so components_[{shown[0]}.."
                         f"{shown[-1]}] are not determined at this precision (compare a float64 answer, or centre "
                         "the data before rounding them to float32)"))
    return out


def _component_checks(comps: list[list[float]], r: Reference, unit: list[float], lift: int, eps: float,
                      method: str, rtol: Optional[float], allowed: list[float],
                      centring: list[float], clusters: list[list[int]],
                      allowed_r: Optional[list[float]] = None, rows: Optional[list[list[float]]] = None
                      ) -> list[Check]:
    """What a set of components must be besides close in angle: unit vectors, orthogonal to working
    precision (``max|VVᵀ - I|/eps``), and, from a method that diagonalises a formed covariance, eigenvectors
    of it to working precision (the backward error ``‖Cv - ρv‖/(eps·‖C‖)``, ρ the Rayleigh quotient)."""
    d = len(comps[0]) if comps else 0
    norms = [_norm_of(v) for v in comps]
    flat = rtol is not None
    out = _length_checks(norms, d, eps, method, rtol, allowed)
    if len(comps) > 1 and all(s == s and s > 0 and math.isfinite(s) for s in norms):
        out += _orthogonality_check(comps, norms, unit, eps, method, flat, allowed, clusters)
    if method == "covariance" and not flat and unit and max(unit) > 0:
        out += _backward_error_checks(comps, norms, r, unit, eps, centring, rows)
    if allowed_r and not flat and unit and max(unit) > 0:
        out += _residual_checks(comps, norms, r, unit, lift, eps, allowed_r, rows)
    return out


def _length_checks(norms: list[float], d: int, eps: float, method: str, rtol: Optional[float],
                   allowed: list[float]) -> list[Check]:
    """A failed Check per component that is not a unit vector (beyond its rounding, or the answer's printed
    digits, or an iterative method's accuracy)."""
    flat = rtol is not None
    out: list[Check] = []
    length_allowed = _K_UNIT * (1 + math.sqrt(d)) * eps
    if rtol is not None:  # printed numbers: each entry rounded to rtol of itself
        length_allowed += 2 * rtol * math.sqrt(d)
    if method in _ITERATIVE or flat:
        length_allowed += max(allowed or [0.0])
    for i, size in enumerate(norms):
        err = abs(size - 1.0) if size == size else math.nan
        if not err <= length_allowed:
            out.append(Check(f"length of components_[{i}]", False, err, length_allowed, "-",
                             f"length of components_[{i}]: {size:.17g}, not 1 (off by {err:.3g}, tolerance "
                             f"{length_allowed:.3g}); components are unit vectors"))
    return out


def _orthogonality_check(comps: list[list[float]], norms: list[float], unit: list[float], eps: float, method: str,
                         flat: bool, allowed: list[float], clusters: list[list[int]]) -> list[Check]:
    """A failed Check for the pair of components furthest from orthogonal beyond its allowance (LAPACK's
    ``max|VVᵀ - I|/(d·eps)``, widened for a close pair and within a cluster)."""
    out: list[Check] = []
    d = len(comps[0])
    cluster_of = [0] * sum(len(c) for c in clusters)
    for number, members in enumerate(clusters):
        for i in members:
            cluster_of[i] = number
    units = [[x / s for x in v] for v, s in zip(comps, norms)]
    base = _K_ORTHO * eps * max(1.0, d)  # LAPACK's ratio ‖I - VVᵀ‖/(d·eps): scipy's eigh of 214 x 13 reached 8.4
    worst, pair, limit = -1.0, (0, 1), base
    # A screen: the cosine by polarization, ``(|u|² + |w|² - |u - w|²)/2`` with ``|u - w|`` from math.dist
    # (one C loop: a quarter of a plain dot's time, 0.2 s of a 500 x 200 comparison) and the squares by
    # fsum.  For unit vectors (|u - w|² <= 4) it is within about 13·eps of the exact cosine (the
    # differences rounded, the distance to an ulp, its square, the squares and the sums rounded): a pair
    # 64·eps below its allowance passes for certain; the others are computed with compensated sums.
    plain_error = 64 * _EPS64
    tuples = [tuple(u) for u in units]
    squares = [math.fsum(x * x for x in u) for u in units]
    dist = math.dist
    top_unit = max(unit) if unit else 0.0
    widest = 2 * max(allowed or [0.0])
    for i, ui in enumerate(units):
        for j in range(i + 1, len(units)):
            # Vectors of one cluster of eigenvalues the method cannot tell apart are a basis of its span,
            # compared as one: scipy's eigh (MRRR) left two null vectors of 15 x 19 data 1,639 eps apart.
            same = i < len(cluster_of) and j < len(cluster_of) and cluster_of[i] == cluster_of[j]
            allowed_ij = base + (2 * allowed[i] if same and i < len(allowed) else 0.0)
            # A close pair: an eigensolver's backward error eps·‖C‖ turns each towards the other by
            # eps·λ_1/gap (scipy's eigh, MRRR, left 40.39 and 40.28 of λ_1 = 328 407 eps apart).
            if j < len(unit) and unit[i] != unit[j]:
                allowed_ij += eps * top_unit / abs(unit[i] - unit[j])
            elif j < len(unit):
                allowed_ij = math.inf
            if method in _ITERATIVE or flat:  # an iterative method's vectors are as orthogonal as accurate
                allowed_ij += widest
            c = abs(squares[i] + squares[j] - dist(tuples[i], tuples[j]) ** 2) / 2
            if c + plain_error <= allowed_ij and c / allowed_ij <= worst / limit:
                continue
            c = abs(FLOAT.dot(ui, units[j]))
            if c / allowed_ij > worst / limit:
                worst, pair, limit = c, (i, j), allowed_ij
    if not worst <= limit:
        out.append(Check("orthogonality", False, worst / eps, limit / eps, "-",
                         f"orthogonality: components_[{pair[0]}] and components_[{pair[1]}] have a dot product "
                         f"of {worst:.3g} = {worst / eps:.3g} eps (allowed {limit / eps:.3g} eps: 10·d, and "
                         "eps·λ_1/gap "
                         "for a close pair; a correct eigensolver's max|VVᵀ - I|/(d·eps) stayed below 8.4); the "
                         "components are not orthonormal"))
    return out


def _backward_error_checks(comps: list[list[float]], norms: list[float], r: Reference, unit: list[float],
                           eps: float, centring: list[float], rows: Optional[list[list[float]]]) -> list[Check]:
    """A failed Check per component that is not an eigenvector of the covariance to working precision (the
    backward error of a method that diagonalises a formed covariance)."""
    out: list[Check] = []
    d = len(comps[0]) if comps else 0
    basis = r.all_components or r.components_
    top = max(unit)
    for i, v in enumerate(comps):
        size = norms[i]
        if not (size == size and size > 0 and math.isfinite(size)):
            continue
        ratio = _backward_error(v, size, basis, unit) / (eps * top)
        # The covariance they formed differs from the exact one by what centring with a rounded mean adds.
        limit = (_K_BACKWARD * max(1.0, d / 2)
                 + (centring[i] if i < len(centring) else centring[-1]) / (eps * top))
        if not ratio <= limit:
            cause = _formed_cause(v, size, rows, r, eps, limit) if rows is not None else None
            out.append(Check(f"backward error of components_[{i}]", False, ratio, limit, "-",
                             f"backward error of components_[{i}]: ‖Cv - ρv‖ = {ratio:.3g} eps·‖C‖ (allowed "
                             f"{limit:.3g}, 3·d: a correct eigensolver of a formed covariance stayed below 2.2·d, plus "
                             "what centring with a rounded mean adds); "
                             + (cause or "it is not an eigenvector of the covariance to working precision")))
    return out


def _residual_checks(comps: list[list[float]], norms: list[float], r: Reference, unit: list[float], lift: int,
                     eps: float, allowed_r: list[float], rows: Optional[list[list[float]]]) -> list[Check]:
    """A Check per component of an iterative answer: its residual against the exact covariance, within
    what a converged run of that method reaches."""
    out: list[Check] = []
    basis = r.all_components or r.components_
    top = max(unit)
    for i, v in enumerate(comps):
        size = norms[i]
        if i >= len(allowed_r) or not (size == size and size > 0 and math.isfinite(size)):
            continue
        measured = _backward_error(v, size, basis, unit)
        ok = measured <= allowed_r[i]
        note = ""
        if not ok:
            cause = _formed_cause(v, size, rows, r, eps, allowed_r[i] / (eps * top)) if rows is not None else None
            note = (f"residual of components_[{i}]: ‖Cv - ρv‖ = {measured / (eps * top):.3g} eps·‖C‖ against the "
                    f"exact covariance, where a run of this iterative method reaches {allowed_r[i] / (eps * top):.3g} "
                    f"(error/allowed {measured / allowed_r[i]:.3g}; from the data's spectrum and the run declared, "
                    "never from the answer); " + (cause or "the pair has not converged, or is not of these data"))
        out.append(Check(f"residual of components_[{i}]", ok, _times_power(measured, 2 * lift),
                         _times_power(allowed_r[i], 2 * lift), _digits_lost(measured, top * eps / eps, eps),
                         note))
    return out


def _formed_cause(v: list[float], size: float, rows: Optional[list[list[float]]], r: Reference, eps: float,
                  limit: float) -> Optional[str]:
    """The cause, when ``v``'s backward error against the exact covariance is within what forming the one-pass
    covariance ``(XᵀX - n·x̄x̄ᵀ)/(n - ddof)`` in floats costs (scikit-learn's ``covariance_eigh``): each entry
    of ``XᵀX`` is rounded to about ``eps·n·(x̄_j² + s_j²)``, so ‖C_formed - C‖ up to
    ``2·sqrt(d)·n/(n - ddof)·eps·max_j(x̄_j² + s_j²)``: an eigenvector of that matrix is off the exact one by as
    much, and the formed covariance, not the eigensolver, lost the digits."""
    if rows is None or r.scaled or not r.unit_spectrum:
        return None
    n, d = len(rows), len(rows[0])
    e = r.exponent
    comps = r.all_components or r.components_
    var = [math.fsum(max(lam, 0.0) * c[j] * c[j] for lam, c in zip(r.unit_spectrum, comps)) for j in range(d)]
    worst = max(_unit(m, e) ** 2 + s2 for m, s2 in zip(r.mean_, var))
    top = max(r.unit_spectrum)
    if not top > 0:
        return None
    formed = 2 * math.sqrt(d) * n / (n - r.ddof) * worst / top  # in eps·‖C‖
    basis = r.all_components or r.components_
    measured = _backward_error(v, size, basis, list(r.unit_spectrum)) / (eps * top)
    if not limit < measured <= formed:
        return None
    return (f"that is within what forming the one-pass covariance (XᵀX - n·x̄x̄ᵀ)/(n - {r.ddof}) in floats costs at "
            f"this offset ({formed:.3g} eps·‖C‖): the vector fits the covariance such a solver formed (scikit-learn's "
            "covariance_eigh), and that formed covariance, not the eigensolver, lost the digits (centre the data "
            "before forming XᵀX, or compare a solver that does)")


def _norm_of(v: list[float]) -> float:
    if any(x != x or math.isinf(x) for x in v):
        return math.nan
    top = max(map(abs, v), default=0.0)
    return top * math.sqrt(FLOAT.dot([x / top for x in v], [x / top for x in v])) if top > 0 else 0.0


def _backward_error(v: list[float], size: float, basis: list[list[float]], unit: list[float]) -> float:
    """``‖Cv - ρv‖`` for a unit ``v``, with C given by the reference's eigenpairs (exact to a few ulps at any
    offset, which a C formed from the data in floats is not): ``Σ_j (λ_j - ρ)²·c_j²`` with ``c_j = u_j·v``,
    plus ``ρ²`` times the part of v outside the reference's span (the null space of wide data)."""
    u = [x / size for x in v]
    c = [FLOAT.dot(b, u) for b in basis]
    lam = [max(x, 0.0) for x in unit[:len(c)]]
    rho = math.fsum(l_ * x * x for l_, x in zip(lam, c))  # vᵀCv for the unit v
    parts = [((l_ - rho) * x) ** 2 for l_, x in zip(lam, c)]
    if len(basis) < len(u):
        rest = [math.fsum([u[t]] + [-x * b[t] for x, b in zip(c, basis)]) for t in range(len(u))]
        parts.append(rho * rho * math.fsum(x * x for x in rest))
    return math.sqrt(math.fsum(parts))


def _scale_hint(values: list[float], rows: list[list[float]], r: Reference, convention: str, ddof: Optional[int],
                scale_ddof: Optional[int], theirs: dict[str, Any]) -> Optional[Check]:
    """A failed Check naming the scaling when the variances are those of the other scaling (statsmodels'
    ``standardize=False`` compared under its default, which scales)."""
    finite = [v for v in values if v == v and math.isfinite(v)]
    if not finite or len(finite) != len(values):
        return None
    if not r.scaled:  # the other is a correlation PCA: its variances sum to d·(n - scale_ddof)/(n - ddof)
        ddof_v = CONVENTIONS[convention].ddof if ddof is None else ddof
        sddof = ddof_v if scale_ddof is None else scale_ddof
        n, d = len(rows), len(rows[0])
        if n > max(ddof_v, sddof) and math.fsum(values) > 2 * d * (n - sddof) / (n - ddof_v):
            return None  # (they cannot all be within 1e-6 of its: no second reference computed to say so)
    try:
        other = reference(rows, convention=convention, scale=not r.scaled, ddof=ddof, scale_ddof=scale_ddof)
    except PurePCAError:
        return None
    top = max(abs(v) for v in other.spectrum[:len(values)]) if other.spectrum else 0.0
    if not top > 0 or len(other.spectrum) < len(values):
        return None
    if not all(abs(a - b) <= 1e-6 * top for a, b in zip(values, other.spectrum)):
        return None
    fix = ("scale=False (statsmodels' PCA(standardize=False); its default standardizes)" if r.scaled
           else "scale=True (the columns were standardized)")
    return Check("scale", False, 0.0, 0.0, "-",
                 f"scale: the variances are those of the {'unscaled' if r.scaled else 'standardized'} data, not of the "
                 f"{'standardized' if r.scaled else 'unscaled'} data the reference analysed: pass {fix}")


def _float32_hint(theirs: dict[str, Any]) -> Optional[Check]:
    """A failed Check saying "float32" when every number of a float64 answer is a binary32 number with more
    than 12 significant bits somewhere (a random float64 is binary32 with probability 2**-29)."""
    numbers = [x for row in theirs.get("components_") or [] for x in row] + list(theirs.get("explained_variance_")
                                                                               or [])
    if len(numbers) < 2 or not all(_is_binary32(x) for x in numbers):
        return None
    if not any(x != 0 and math.isfinite(x) and math.frexp(x)[0] * 2 ** 12 != int(math.frexp(x)[0] * 2 ** 12)
               for x in numbers):
        return None  # short numbers (0.5, 3.0): binary32 and binary64 alike
    return Check("float32", False, 0.0, 0.0, "-",
                 "float32: every number of the answer is a binary32 (float32) number, compared as float64: a float32 "
                 "computation (its arrays cast to float64 after it) cannot reach float64's digits; compare the float32 "
                 "arrays themselves, or pass method='float32'")


def _divisor_name(ddof: int) -> str:
    return "n" if ddof == 0 else f"(n-{ddof})"


def _divisor_hint(values: list[float], unit: list[float], tol: list[float], n: int, ddof: int, e: int,
                  scaled: bool) -> Optional[Check]:
    """A failed Check naming a divisor mismatch: every variance off by exactly (n - a)/(n - b)."""
    ratios = [(_unit(_unit(a, e), e) / u, t / u) for a, u, t in zip(values, unit, tol) if u > 4 * t and u > 0]
    if not ratios:
        return None
    for other in (0, 1, 2):
        if other == ddof or n - other <= 0:
            continue
        # Their variance divided by n - other instead of n - ddof; or (scaled) their standard deviations were.
        for top, bottom, how in ((ddof, other, "variances"), (other, ddof, "scaling")):
            f = (n - top) / (n - bottom)
            if not all(abs(r - f) <= 2 * t + 8 * _EPS64 for r, t in ratios):
                continue
            if how == "scaling" and not scaled:
                continue
            pair = {ddof, other}
            named = "n/(n-1)" if pair == {0, 1} else f"{_divisor_name(min(pair))}/{_divisor_name(max(pair))}"
            hint = (f"scale=True, scale_ddof={other}: StandardScaler divides by n" if how == "scaling" and other == 0
                    else f"scale_ddof={other}" if how == "scaling" else f"ddof={other}")
            return Check("divisor", False, ratios[0][0], f, "-",
                         f"divisor: every variance is {_divisor_name(top)}/{_divisor_name(bottom)} = {n - top}/"
                         f"{n - bottom} times the reference's, a mismatch by exactly {named}: the other side's "
                         f"{how} divided by n - {other}, the reference's by n - {ddof} (pass {hint})")
    return None


def _run_arguments(method: str, tol: Any, n_iter: Any, n_oversamples: Any, batch_size: Any) -> dict[str, Any]:
    """What the user declares about an iterative or incremental run, checked: each for its method only."""
    out: dict[str, Any] = {"tol": None, "n_iter": None, "n_oversamples": None, "batch_size": None}
    for name, value, low in (("n_iter", n_iter, 0), ("n_oversamples", n_oversamples, 0),
                             ("batch_size", batch_size, 1)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise PurePCAError(f"{name} must be an int >= {low}, got {value!r}")
        out[name] = value
    if tol is not None:
        out["tol"] = as_real(tol, "tol", low=0.0)
    wrong = [name for name in ("tol", "n_iter", "n_oversamples") if out[name] is not None]
    if wrong and method not in _ITERATIVE:
        raise PurePCAError(f"{wrong[0]} describes an iterative run; it means nothing under method={method!r} "
                           "(pass method='iterative' or 'randomized')")
    if out["batch_size"] is not None and method != "incremental":
        raise PurePCAError(f"batch_size describes an incremental run; it means nothing under method={method!r} "
                           "(pass method='incremental')")
    return out


def _data_rows(X: Any) -> list[list[float]]:
    """``X`` validated as rows of floats, as :func:`~purepca.testing.geometry._rows` gives them, but a list of
    float rows as it is (no copy: a comparison only reads the data, and the copy was 19 MB of a 10,000 x 50
    verify, alive beside the reference's work)."""
    return [row if all(type(x) is float for x in row) else [float(x) for x in row]
            for row in as_matrix(X, name="X", copy=False)]


@dataclass
class _Model:
    """One comparison's frame, what every check reads: the reference and the answer (in the reference's units
    of ``4**lift``), and the error model's allowances."""

    r: Reference
    theirs: dict[str, Any]
    rows: list[list[float]]
    n: int
    d: int
    k: int
    eps: float
    lift: int
    unit: list[float]
    spectrum: list[float]
    tols: list[float]
    allowed_r: list[float]
    centring: list[float]
    extra: Optional[list[float]]
    eps_angle: float
    magnitudes: Optional[list[float]]


def _checked_arguments(method: Any, convention: Any, scale: Any, residual: Any, rtol: Any, tol: Any, n_iter: Any,
                       n_oversamples: Any, batch_size: Any) -> tuple[float, Optional[float], dict[str, Any]]:
    """compare_pca's arguments checked before any work: (residual, rtol, the run declared)."""
    if method not in METHODS:
        raise _not_one_of("method", METHODS, method)
    if not isinstance(convention, str) or convention not in CONVENTIONS:
        raise PurePCAError(f"convention must be one of {', '.join(map(repr, sorted(CONVENTIONS)))}; "
                           f"got {_show(convention)}")
    if scale is not None and type(scale).__name__ not in ("bool", "bool_"):
        raise PurePCAError(f"scale must be None, True or False, got {_show(scale)}")
    residual = as_real(residual, "residual", low=0.0)
    rtol = None if rtol is None else as_real(rtol, "rtol", low=0.0, low_open=True)
    run = _run_arguments(method, tol, n_iter, n_oversamples, batch_size)
    return residual, rtol, run


def _reference_of(rows: list[list[float]], ref: Optional[Reference], convention: str, scale: Optional[bool],
                  ddof: Optional[int], scale_ddof: Optional[int], constant_columns: str) -> Reference:
    """The reference given (checked to be of these data) or computed."""
    n, d = len(rows), len(rows[0])
    if ref is not None and not isinstance(ref, Reference):
        raise PurePCAError(f"ref must be a Reference (purepca.testing.reference(X)), got {type(ref).__name__}")
    if ref is not None and ref.data and ref.data != _fingerprint(rows):
        raise PurePCAError(f"ref is the reference of other data ({ref.n_samples} rows, {len(ref.mean_)} columns), "
                           f"not of X ({n} x {d}): pass reference(X)")
    return ref if ref is not None else reference(_Validated(rows), convention=convention, scale=scale, ddof=ddof,
                                                   scale_ddof=scale_ddof, constant_columns=constant_columns)


def _model(result: Any, rows: list[list[float]], r: Reference, method: str, residual: float,
           rtol: Optional[float], run: dict[str, Any]) -> _Model:
    """The answer read (:func:`_extract`) and the error model's allowances for it on these data."""
    n, d = len(rows), len(rows[0])
    theirs = _extract(result, d, n, n - r.ddof)
    f32 = _is_float32(result)
    eps = _EPS32 if (f32 or method == "float32") else _EPS64
    e = r.exponent
    lift = 0 if r.scaled else e
    k = len(theirs.get("components_") or theirs.get("explained_variance_") or [])
    # Wide data: an answer may give all d eigenpairs of the covariance, the null space included.
    size = k if len(r.unit_spectrum) < k <= d else None
    unit = list(r.unit_spectrum) + [0.0] * max(0, (size or 0) - len(r.unit_spectrum))
    spectrum = list(r.spectrum) + [0.0] * (len(unit) - len(r.spectrum))
    low: dict[str, Any] = {}
    if eps == _EPS32:
        # What binary32 can reach follows the data: their magnitudes, whether reading them rounds, the mean given.
        low["magnitudes"] = [max(abs(x) for x in col) for col in zip(*rows)]
        low["exact32"] = all(_is_binary32(x) for row in rows for x in row)
        given_mean = theirs.get("mean_")
        low["mean"] = given_mean if given_mean is not None and len(given_mean) == d and not r.scaled else None
    k_run = len(theirs.get("components_") or theirs.get("explained_variance_") or [])
    tol_list = tolerances(r, n, d, method, float32=f32, residual=residual, rtol=rtol, size=size, k=k_run,
                          **run, **low)
    allowed_r = (_iterative_residuals(unit, d, eps, method=method, k=k_run, n=n, residual=_unit(_unit(residual, e), e),
                                     centring=(_float32_terms(r, n, d, len(unit), low["magnitudes"], low["exact32"],
                                                              low["mean"]) if eps == _EPS32
                                               else [_centre_allowance(r, n, d, eps)] * len(unit)),
                                     tol=run["tol"], n_iter=run["n_iter"], n_oversamples=run["n_oversamples"])
                 if method in _ITERATIVE and rtol is None else [])
    tols = tol_list
    # A result rounded to a float (subnormal ones keep few digits): one ulp of the value in data units.
    rounded = [_ulp_in_units(v, lift) if math.isfinite(v) else 0.0 for v in spectrum]
    tols = [t + u for t, u in zip(tols, rounded)]
    # What is not the method's own error, for the per-component angles of the svd model.
    centring = (_float32_terms(r, n, d, len(unit), low["magnitudes"], low["exact32"], low["mean"])
                if eps == _EPS32 else [_centre_allowance(r, n, d, eps)] * len(unit))
    extra = ([c + u for c, u in zip(centring, rounded)] if method in ("svd", "incremental") and rtol is None
             else None)
    eps_angle = eps * (_merges(n, d, run["batch_size"]) if method == "incremental" else 1.0)
    return _Model(r, theirs, rows, n, d, k, eps, lift, unit, spectrum, tols, allowed_r, centring, extra, eps_angle,
                  low.get("magnitudes"))


def _count_checks(m: _Model) -> list[Check]:
    """Failed Checks for more components than the data have (then only as many are compared: ``m.k`` is cut),
    or more components than variances."""
    theirs, unit, k = m.theirs, m.unit, m.k
    checks: list[Check] = []
    if k > len(unit):
        checks.append(Check("n_components", False, float(k), float(len(unit)), "-",
                            f"n_components: {k} components, but X has at most {len(unit)}"))
        m.k = len(unit)
    given_comps = theirs.get("components_")
    given_values = theirs.get("explained_variance_")
    # More variances than components is how R's prcomp(rank. = k) and statsmodels report (every sdev or
    # eigenvalue, k loadings); more components than variances is a component without its variance.
    if given_comps is not None and given_values is not None and len(given_comps) > len(given_values):
        what = "explained_variance_" if theirs.get("variance given as") != "sdev" else "sdev"
        checks.append(Check("n_components", False, float(len(given_comps)), float(len(given_values)), "-",
                            f"n_components: {len(given_comps)} components but {len(given_values)} values of {what}; "
                            "each component has its variance"))
    return checks


def compare_pca(result: Any, X: Any, *, convention: str = "sklearn", method: str = "svd",
                rtol: Optional[float] = None, residual: float = 0.0, scale: Optional[bool] = None,
                ddof: Optional[int] = None, scale_ddof: Optional[int] = None, ref: Optional[Reference] = None,
                points: Any = None, whiten: Optional[bool] = None,
                constant_columns: str = "error", tol: Optional[float] = None, n_iter: Optional[int] = None,
                n_oversamples: Optional[int] = None, batch_size: Optional[int] = None) -> list[Check]:
    """Every comparison :func:`assert_pca_close` makes, passed or not, as :class:`Check` rows.

    >>> X = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.5], [3.0, 2.0]]
    >>> [(c.quantity, c.passed) for c in compare_pca({"explained_variance_": [2.7169129481821, 0.2]}, X)]
    [('explained_variance_[0]', True), ('explained_variance_[1]', False)]
    """
    residual, rtol, run = _checked_arguments(method, convention, scale, residual, rtol, tol, n_iter, n_oversamples,
                                             batch_size)  # the arguments first, before any work
    rows = _data_rows(X)
    r = _reference_of(rows, ref, convention, scale, ddof, scale_ddof, constant_columns)
    m = _model(result, rows, r, method, residual, rtol, run)
    checks = _count_checks(m)
    given_values = m.theirs.get("explained_variance_")
    checks += _order_checks((given_values or [])[:m.k], m.unit, m.tols, m.lift)
    if m.eps == _EPS32 and rtol is None:
        checks += _precision_checks(r, m.unit, m.tols, m.k, m.lift, m.magnitudes)
    checks += _variance_checks(m)
    if any(not c.passed for c in checks if c.quantity.startswith("explained_variance_")):
        values = (given_values or [])[:m.k]
        hint = _divisor_hint(values, m.unit, m.tols, m.n, r.ddof, m.lift, r.scaled)
        if hint is None and rtol is None:
            hint = _scale_hint(values, rows, r, convention, ddof, scale_ddof, m.theirs)
        if hint is not None:
            checks.append(hint)
    checks += _ratio_checks(m) + _singular_value_checks(m) + _mean_checks(m, scale_ddof) + _noise_checks(m)
    found, clusters, allowed_of, flips = _angle_checks(m, rtol, convention)
    checks += found
    comps, k = m.theirs.get("components_"), m.k
    if comps is not None:
        checks += _component_checks(comps[:k], r, m.unit, m.lift, m.eps, method, rtol,
                                    [allowed_of[i] for i in range(min(k, len(m.unit)))], m.centring, clusters,
                                    m.allowed_r, rows)
    checks += _score_checks(m.theirs, r, rows, points, whiten, clusters, allowed_of, flips, m.tols, m.eps,
                            min(k, len(r.unit_spectrum)))
    if m.eps == _EPS64 and rtol is None and any(not c.passed for c in checks):
        hint32 = _float32_hint(m.theirs)
        if hint32 is not None:
            checks.append(hint32)
    return checks


def _variance_checks(m: _Model) -> list[Check]:
    """A Check per variance given: within the model's tolerance of the reference's (in units of 4**lift)."""
    theirs, unit, spectrum, tols, lift, eps, k = m.theirs, m.unit, m.spectrum, m.tols, m.lift, m.eps, m.k
    checks: list[Check] = []
    values = (theirs.get("explained_variance_") or [])[:k]
    for i, value in enumerate(values):
        want = spectrum[i]
        got = _unit(_unit(value, lift), lift)
        err = abs(got - unit[i])
        ok = err <= tols[i] or (math.isinf(value) and value == want)
        real_err = math.ldexp(err, 2 * lift) if err == err and not math.isinf(err) and 2 * lift < 1000 else err
        note = "" if ok else (f"explained_variance_[{i}]: {value!r} off by {real_err:.3g} from {want!r} "
                              f"(tolerance {math.ldexp(tols[i], 2 * lift) if 2 * lift < 1000 else math.inf:.3g}; "
                              f"{_digits_lost(err, abs(unit[i]), eps)} digits lost)")
        if value != value:
            given = theirs.get("variance given as", "explained_variance_")
            shown = math.sqrt(want) if given == "sdev" and want >= 0 else want
            note = f"{given}[{i}] is NaN in the result (the reference has {shown!r})"
        # error and tolerance both in the data's units (the tolerance was reported in 4**lift's)
        checks.append(Check(f"explained_variance_[{i}]", ok, real_err, _times_power(tols[i], 2 * lift),
                            _digits_lost(err, abs(unit[i]), eps), note))
    return checks


def _ratio_checks(m: _Model) -> list[Check]:
    """A Check per explained-variance ratio given: the ratio's own rounding plus what the variances' tolerances
    do to it."""
    theirs, unit, tols, eps, k = m.theirs, m.unit, m.tols, m.eps, m.k
    total = math.fsum(unit)
    tol_total = math.fsum(tols)
    checks: list[Check] = []
    for i, a in enumerate((theirs.get("explained_variance_ratio_") or [])[:k]):
        if not total > 0:
            continue
        b = unit[i] / total
        allowed = (tols[i] + b * tol_total) / total + 2 * eps * b + 4 * _EPS64 * 2.0 ** -1022
        err = abs(a - b)
        ok = err <= allowed
        note = "" if ok else (f"explained_variance_ratio_[{i}]: {a!r} off by {err:.3g} from {b!r} (tolerance "
                              f"{allowed:.3g}; {_digits_lost(err, b, eps)} digits lost)")
        checks.append(Check(f"explained_variance_ratio_[{i}]", ok, err, allowed, _digits_lost(err, b, eps), note))
    return checks


def _singular_value_checks(m: _Model) -> list[Check]:
    """A Check per singular value given: ``sqrt(λ·(n - ddof))`` within what the variance's tolerance allows."""
    r, theirs, unit, tols, lift, eps, k = m.r, m.theirs, m.unit, m.tols, m.lift, m.eps, m.k
    n = m.n
    checks: list[Check] = []
    div = n - r.ddof
    for i, a in enumerate((theirs.get("singular_values_") or [])[:k]):
        lam = max(unit[i], 0.0)
        b = math.sqrt(lam * div)
        allowed = div * tols[i] / (math.sqrt(div * (lam + tols[i])) + b) + 2 * eps * b
        got = _unit(a, lift)
        err = abs(got - b)
        ok = err <= allowed or (math.isinf(a) and i < len(r.singular_values_) and math.isinf(r.singular_values_[i]))
        real = _times_power(err, lift) if err == err and not math.isinf(err) and lift < 1000 else err
        note = "" if ok else (f"singular_values_[{i}]: {a!r} off by {real:.3g} from {_times_power(b, lift)!r} "
                              f"(tolerance {_times_power(allowed, lift):.3g}; {_digits_lost(err, b, eps)} digits lost)")
        checks.append(Check(f"singular_values_[{i}]", ok, real, _times_power(allowed, lift), _digits_lost(err, b, eps),
                            note))
    return checks


def _mean_checks(m: _Model, scale_ddof: Optional[int]) -> list[Check]:
    """A Check per column of the mean given: a sum's rounding growth times the column's magnitude."""
    r, theirs, eps = m.r, m.theirs, m.eps
    n, d, rows = m.n, m.d, m.rows
    checks: list[Check] = []
    mean = theirs.get("mean_")
    if mean is not None:
        pipeline = r.scaled and scale_ddof is not None  # their PCA saw scaled columns: its mean is ~0
        spread = r.scale_ or [1.0] * d
        growth = _K_MEAN * _sum_growth(n, eps)  # (4 ulps at any n flagged 3 of 150 held-out fits at n ~ 300)
        columns = list(zip(*rows))
        for j, a in enumerate(mean[:d]):
            mabs = math.fsum([abs(x) / n for x in columns[j]])  # (a sum of the values may overflow)
            b = 0.0 if pipeline else r.mean_[j]
            magnitude = mabs / spread[j] if pipeline else mabs
            allowed = growth * eps * magnitude + math.ulp(b) + (2.0 ** -149 if eps == _EPS32 else math.ulp(0.0))
            err = abs(a - b)
            ok = err <= allowed
            note = "" if ok else (f"mean_[{j}]: {a!r} off by {err:.3g} from {b!r} (tolerance {allowed:.3g}; "
                                  f"{_digits_lost(err, abs(b), eps)} digits lost)")
            checks.append(Check(f"mean_[{j}]", ok, err, allowed, _digits_lost(err, abs(b), eps), note))
    return checks


def _noise_checks(m: _Model) -> list[Check]:
    """The noise variance given: the mean of the variances left out, within their tolerances."""
    r, theirs, unit, tols, lift, eps, k = m.r, m.theirs, m.unit, m.tols, m.lift, m.eps, m.k
    total = math.fsum(unit)
    tol_total = math.fsum(tols)
    checks: list[Check] = []
    noise = theirs.get("noise_variance_")
    if noise is not None and k:
        rest = len(unit) - k
        b = math.fsum(unit[k:]) / rest if rest > 0 else 0.0
        allowed = (tol_total + _K_COV * eps * max(total, 0.0)) / rest if rest > 0 else 2 * tols[-1]
        got = _unit(_unit(noise, lift), lift)
        err = abs(got - b)
        ok = err <= allowed or (math.isinf(noise) and math.isinf(r.noise_variance_) and noise > 0)
        want = _times_power(b, 2 * lift) if 2 * lift < 1000 else math.inf  # the value compared with (k kept)
        real = math.ldexp(err, 2 * lift) if err == err and not math.isinf(err) and 2 * lift < 1000 else err
        note = "" if ok else (f"noise_variance_: {noise!r} off by {real:.3g} from {want!r} (tolerance "
                              f"{math.ldexp(allowed, 2 * lift) if 2 * lift < 1000 else math.inf:.3g}; "
                              f"{_digits_lost(err, abs(b), eps)} digits lost)")
        checks.append(Check("noise_variance_", ok, real, _times_power(allowed, 2 * lift),
                            _digits_lost(err, abs(b), eps),
                            note))
    return checks


def _angle_checks(m: _Model, rtol: Optional[float], convention: str
                  ) -> tuple[list[Check], list[list[int]], dict[int, float], dict[int, int]]:
    """A Check per component (or cluster of eigenvalues the method cannot tell apart: its span): the angle to
    the reference's, and its sign where the convention determines it; with the clusters, each component's
    allowed angle and its sign against the reference's (for the scores)."""
    r, theirs, unit, tols, eps, k = m.r, m.theirs, m.unit, m.tols, m.eps, m.k
    checks: list[Check] = []
    # Components, cluster by cluster of eigenvalues the method cannot tell apart.
    clusters = _model_clusters(unit, tols)
    floor = 2 * eps  # the reference's own angle error is a few eps
    comps = theirs.get("components_")
    comps_all = r.all_components or r.components_
    extra, eps_angle, allowed_r = m.extra, m.eps_angle, m.allowed_r
    open_null = len(unit) < m.d  # wide data: the null space is larger than the reference's span
    allowed_of: dict[int, float] = {}
    flips: dict[int, int] = {}
    roots = [math.sqrt(max(u, 0.0)) for u in unit]  # (once, not once per cluster)
    for cluster in clusters:
        allowed = (_svd_angle_allowed(cluster, unit, extra, eps_angle, roots) if extra is not None
                   else _angle_allowed(cluster, unit, tols, floor, _K_ANGLE32 if eps == _EPS32 and rtol is None
                                       else _K_ANGLE))
        if allowed_r:  # Davis–Kahan: sin θ <= ‖r‖/gap, the gap from the cluster to the rest of the spectrum
            gap = min((abs(unit[i] - unit[j]) for i in cluster for j in range(len(unit)) if j not in cluster),
                      default=math.inf)
            dk = max(allowed_r[i] for i in cluster) * _K_DK
            allowed = min(math.pi / 2, allowed + (dk / gap if gap > 0 else math.inf))
        for i in cluster:
            allowed_of[i] = allowed
        inside = [i for i in cluster if i < k]
        if comps is None or not inside:
            continue
        label = f"components_[{inside[0]}]" if len(inside) == 1 else f"components_[{inside[0]}..{inside[-1]}]"
        is_open = open_null and cluster[-1] == len(unit) - 1 and unit[cluster[0]] <= 2 * tols[cluster[0]]
        if not is_open and cluster[-1] >= len(comps_all):
            is_open = True
        mine = [comps[i] for i in inside]
        try:
            if is_open:
                outside = [comps_all[j] for j in range(len(unit)) if j not in cluster]
                angle = angle_from(mine, outside)
                what = " (the null space: compared as orthogonal to the other components)"
            elif len(inside) == len(cluster):
                line = _line_angle(mine[0], comps_all[cluster[0]]) if len(cluster) == 1 else None
                angle = line if line is not None else subspace_distance(mine, [comps_all[i] for i in cluster])
                what = ("" if len(cluster) == 1
                        else " (eigenvalues the method cannot tell apart: compared as a subspace)")
            else:
                angle = angle_inside(mine, [comps_all[i] for i in cluster])
                what = (f" (the kept part of the cluster {cluster[0]}..{cluster[-1]} of eigenvalues the method cannot "
                        "tell apart: compared as lying inside its span)")
        except PurePCAError as err:
            checks.append(Check(label, False, math.nan, allowed, "-", f"{label}: {err}"))
            continue
        lost = _digits_lost(angle, 1.0, eps)
        if not angle <= allowed:
            checks.append(Check(label, False, angle, allowed, lost, f"{label}{what}: at an angle of {angle:.3g} rad "
                                f"from the reference (allowed {allowed:.3g})"))
            continue
        if len(cluster) == 1 and not is_open:
            i = inside[0]
            flips[i] = -1 if _dot(comps[i], comps_all[i]) < 0 else 1
            if sign_determined(comps_all[i], r.sign_rule, allowed) and flips[i] < 0:
                eigh_hint = ("; numpy's eigh (LAPACK) fixes no sign: for an np.linalg.eigh answer pass "
                             "convention=\"numpy\"" if theirs.get("given as") == "eigh" and convention != "numpy"
                             else "")
                checks.append(Check(label, False, angle, allowed, lost, f"{label}: the sign is flipped; convention "
                                    f"{convention!r} ({r.sign_rule}) determines it{eigh_hint}"))
                continue
        checks.append(Check(label, True, angle, allowed, lost))
    return checks, clusters, allowed_of, flips


def _score_checks(theirs: dict[str, Any], r: Reference, rows: list[list[float]], points: Any,
                  whiten: Optional[bool], clusters: list[list[int]], allowed_of: dict[int, float],
                  flips: dict[int, int], tol: list[float], eps: float, k: int) -> list[Check]:
    """Scores (``transform`` of ``points``, or the ``scores`` given for X), whitened when the fit was."""
    given = theirs.get("scores")
    if given is not None and points is None:
        P = rows
        got = given
    elif points is not None and (given is not None or "transform" in theirs):
        P = _rows(points, "points")
        got = given if given is not None else _theirs(theirs["transform"](P), "transform(points)")
    else:
        return []
    if len(got) != len(P):
        return [Check("scores", False, math.nan, math.nan, "-",
                      f"scores: {len(got)} rows of scores for {len(P)} points")]
    w = theirs.get("whiten", False) if whiten is None else whiten
    d = len(P[0])
    e = 0 if r.scaled else r.exponent
    spread = r.scale_ if r.scaled and r.scale_ else [1.0] * d
    Z = [[(_unit(x, e) - _unit(m, e)) / s for x, m, s in zip(p, r.mean_, spread)] for p in P]
    unit = r.unit_spectrum
    comps = r.all_components or r.components_
    growth = _K_CENTRE * _sum_growth(r.n_samples, eps)
    delta = math.sqrt(math.fsum((growth * math.ulp(_unit(abs(m), e)) / s * (eps / _EPS64)) ** 2
                                for m, s in zip(r.mean_, spread)))
    kk = min(k, len(got[0]) if got else 0)
    out: list[Check] = []
    for cluster in clusters:
        inside = [i for i in cluster if i < kk]
        if not inside or len(inside) < len(cluster):
            continue
        if w and any(unit[i] <= 2 * tol[i] for i in inside):
            continue  # whitening divides by an eigenvalue the method cannot resolve from zero
        sgn = 1
        if len(inside) == 1:
            j0 = inside[0]
            sgn = flips.get(j0, 0)
            if sgn == 0:  # no components to compare: the sign that fits their scores best
                sgn = -1 if FLOAT.dot([g[j0] for g in got], [FLOAT.dot(zz, comps[j0]) for zz in Z]) < 0 else 1
            if sign_determined(comps[j0], r.sign_rule, allowed_of[j0]):
                sgn = 1
        worst = (-1.0, 0.0, 0.0, 0, 0.0)  # (ratio, error, allowed, row, size)
        for row, (z, s) in enumerate(zip(Z, got)):
            size = math.sqrt(FLOAT.dot(z, z))
            want = [FLOAT.dot(z, comps[i]) / (math.sqrt(unit[i]) if w else 1.0) for i in inside]
            mine = [_unit(s[i], 0 if w else e) for i in inside]
            allowed = (allowed_of[inside[0]] * size + delta + 4 * eps * math.sqrt(d) * size)
            if w:
                allowed = allowed / math.sqrt(unit[inside[-1]]) + max(abs(x) for x in want) * max(
                    tol[i] / unit[i] for i in inside)
            if len(inside) == 1:
                err = abs(mine[0] - sgn * want[0])
                ref_size = abs(want[0])
            else:  # a subspace: the length of the projection is what is determined
                err = abs(math.sqrt(FLOAT.dot(mine, mine)) - math.sqrt(FLOAT.dot(want, want)))
                ref_size = math.sqrt(FLOAT.dot(want, want))
            ratio = err / allowed if allowed > 0 else (0.0 if err == 0 else math.inf)
            if ratio != ratio:
                ratio = math.inf  # a NaN score
            if ratio > worst[0]:
                worst = (ratio, err, allowed, row, ref_size)
        _, err, allowed, row, size = worst
        ok = err <= allowed
        label = f"scores[:, {inside[0]}]" if len(inside) == 1 else f"scores[:, {inside[0]}..{inside[-1]}]"
        if w:
            label = "whitened " + label
        scale_back = 0 if w else e
        real = math.ldexp(err, scale_back) if err == err and scale_back < 1000 else err
        note = "" if ok else (f"{label}: row {row} off by {real:.3g} (tolerance "
                              f"{math.ldexp(allowed, scale_back) if scale_back < 1000 else math.inf:.3g}; "
                              f"{_digits_lost(err, size, eps)} digits lost)")
        out.append(Check(label, ok, real, allowed, _digits_lost(err, size, eps), note))
    return out


def assert_pca_close(result: Any, X: Any, *, convention: str = "sklearn", method: str = "svd",
                     rtol: Optional[float] = None, residual: float = 0.0, scale: Optional[bool] = None,
                     ddof: Optional[int] = None, scale_ddof: Optional[int] = None, ref: Optional[Reference] = None,
                     points: Any = None, whiten: Optional[bool] = None,
                     constant_columns: str = "error", tol: Optional[float] = None, n_iter: Optional[int] = None,
                     n_oversamples: Optional[int] = None, batch_size: Optional[int] = None) -> None:
    """Check another PCA's answer on ``X`` against the reference; raise ``AssertionError`` naming each mismatch.

    ``result`` is a fitted estimator with scikit-learn's attribute names, a
    dict of them, R's ``{"sdev": ..., "rotation": ..., "x": ...}``, a fitted
    ``statsmodels.multivariate.pca.PCA`` (``convention="statsmodels"``;
    ``scale=False`` for ``standardize=False``) or numpy's
    ``eigh(np.cov(X, rowvar=False))`` (``convention="numpy"``).  What is
    compared: every eigenvalue, ratio, singular value, the mean,
    ``noise_variance_``, the components (as subspaces where the method
    cannot tell eigenvalues apart; signs only where the convention's rule
    fixes them) and the scores: of ``points`` through ``result.transform``,
    or the ``scores``/``x`` given for X, whitened when ``result.whiten`` is
    (or ``whiten=True``).

    ``method`` picks the error model (``"svd"``, ``"covariance"``,
    ``"float32"``, ``"iterative"`` for Lanczos/ARPACK, LOBPCG and subspace
    iteration, with the ``tol`` it ran with if not 0, ``"randomized"`` with
    its ``n_iter`` and ``n_oversamples`` (scikit-learn's by default),
    ``"incremental"`` with its ``batch_size`` (``5·d`` by default));
    ``residual`` only tightens what an iterative run is allowed.  float32
    arrays are compared at float32's eps whatever the model.  ``rtol`` sets a flat
    relative tolerance instead.  ``ddof`` (the variance divisor ``n -
    ddof``), ``scale`` and ``scale_ddof`` (the divisor of the scaling's
    standard deviations) default to the convention's; scikit-learn's
    ``StandardScaler`` then ``PCA`` is ``scale=True, scale_ddof=0``, with
    ``constant_columns="unscaled"`` where a column is constant (it leaves
    such a column unscaled; by default a constant column is an error).  A
    mismatch by exactly ``n/(n-1)`` is named as such.  ``ref`` reuses a
    :func:`reference`; without it the reference is computed once per data
    set and process (cached).

    >>> X = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.5], [3.0, 2.0]]
    >>> good = {"explained_variance_": reference(X).explained_variance_, "components_": reference(X).components_}
    >>> assert_pca_close(good, X)
    >>> values = good["explained_variance_"]
    >>> bad = dict(good, explained_variance_=[values[0] * (1 + 1e-6), values[1]])
    >>> assert_pca_close(bad, X)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    AssertionError: PCA differs from the reference (convention sklearn, method svd):
      explained_variance_[0]: 2.7169156650950... off by 2.72e-06 from 2.71691294818210... (...; 9.7 digits lost)
    1 of 4 checks out; largest error/allowed ... (explained_variance_[0])
    """
    __tracebackhide__ = True  # pytest shows the failures, not this function's source and docstring
    checks = compare_pca(result, X, convention=convention, method=method, rtol=rtol, residual=residual, scale=scale,
                         ddof=ddof, scale_ddof=scale_ddof, ref=ref, points=points, whiten=whiten,
                         constant_columns=constant_columns, tol=tol, n_iter=n_iter, n_oversamples=n_oversamples,
                         batch_size=batch_size)
    problems = [c.line() for c in checks if not c.passed]
    if problems:
        raise AssertionError(f"PCA differs from the reference (convention {convention}, method "
                             f"{method if rtol is None else f'rtol={rtol:g}'}):\n  " + "\n  ".join(problems)
                             + f"\n{summary(checks)}")
