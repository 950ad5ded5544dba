"""The fitted PCA as one value: :class:`PCAState`, and the pure functions that build it.

A fit is a function from validated rows (or merged :class:`~purepca.Moments`)
and validated settings to an immutable record; the estimator
(:class:`purepca.PCA`) validates its input once, calls one of these, and
assigns the record in one statement.  Everything that reads a fitted model
(:mod:`purepca.interpretation`, :mod:`purepca.monitoring`,
:mod:`purepca.probabilistic`, :mod:`purepca.model_io`) is a function of the
record and, where it needs them, validated rows.

=============================  ==============================================
``Settings``                   the validated parameters of one fit
``PCAState``                   everything a fitted PCA knows
``fit_rows``                   the record from validated rows (weights too)
``fit_moments``                the record from (merged) moments
``plain_scores``               scores of validated rows, never whitened
``standardised_rows``          rows centred (and scaled) as the fit saw them
=============================  ==============================================

How a fit of rows goes (:func:`fit_rows`):

1. centre the columns about their means carried as a pair ``hi + lo`` (the
   rounded mean and its rounding error) and, with ``scale``, divide by the
   standard deviations (divisor ``n - ddof``); weighted rows and columns are
   turned into the unweighted problem of ``D_w^½·Z·D_c^½``
   (:mod:`purepca.weights`);
2. solve on the path the settings name (:mod:`purepca.solvers`); under
   ``solver="auto"``, when a formed covariance or Gram matrix may have lost
   the digits the data hold, take the SVD of the data instead;
3. fix the signs, choose k, and compute the ratios and the noise variance
   (:func:`finish`).

>>> from purepca.datasets import toy_data
>>> from purepca.linalg.matrix import as_matrix
>>> state = fit_rows(Settings(), as_matrix(toy_data()))
>>> state.n_components_, [round(v, 7) for v in state.explained_variance_]
(2, [1.2840277, 0.0490834])

A singular value is ``sqrt(λ·div)``, or ``sqrt(λ)·sqrt(div)`` where the product leaves the float
range (weights summing to 1e308: a singular value of 1e155 came out inf):

>>> _root_of_product(4.0, 9.0, FLOAT), _root_of_product(2.0 ** 600, 2.0 ** 700, FLOAT) == 2.0 ** 650
(6.0, True)
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union, cast

from .conventions import CONVENTIONS, _apply_sign_rule, _report_degenerate
from .covariance import FACTOMINER_SD_FLOOR as FACTOMINER_SD_FLOOR
from .covariance import UNDERFLOW, Centred, _constant_columns, _divisor, _power_scaled
from .covariance import _centred_columns, _scale_exponent, _uncentred, column_sd, data_matrix
from .covariance import prepared_covariance, scales
from .errors import AccuracyWarning, PurePCAError, user_stacklevel
from . import fast
from .moments import Moments
from .numeric import FLOAT, Context, FloatContext, Scalar
from .numeric import in_owned_decimal
from .parallel import parallel_gram
from .projection import _float_rows, _reconstruct_rows, _score_rows
from .selection import broken_stick, components_for_fraction, infer_dimension, kaiser, parallel_analysis
from .solvers import (
    ACCURACY_TARGET,
    SOLVER_TABLE,
    Problem,
    Solver,
    Spectrum,
    _OWN_ROWS,
    _checked_spectrum,
    _choose_solver,
    _is_own,
    _path_losses,
    _solver_row,
    solve_svd,
    solved,
)
from .weights import weighted_data

__all__ = ["PCAState", "Settings", "fit_moments", "fit_rows", "plain_scores", "standardised_rows"]

@dataclass(frozen=True)
class Settings:
    """The validated parameters of one fit (``PCA._settings`` builds it from the estimator's).

    ``n_components`` is as the user gave it (None, an int, a fraction or a
    rule's name); ``solver`` is the one asked for (``"auto"`` included).

    >>> Settings(convention="prcomp").conv.component_name(0)
    'PC1'
    """

    ctx: Context = FLOAT
    convention: str = "sklearn"
    ddof: int = 1
    scale: bool = False
    sign: str = "max_abs_positive"
    solver: str = "auto"
    center: bool = True
    n_components: Any = None
    seed: int = 0
    jobs: int = 1
    parallel_quantile: float = 0.95

    @property
    def conv(self) -> Any:
        """The convention's record (:mod:`purepca.conventions`)."""
        return CONVENTIONS[self.convention]

    def wanted(self) -> Optional[int]:
        """``n_components`` when it is an int (known before the spectrum), else None."""
        nc = self.n_components
        return int(nc) if isinstance(nc, int) and not isinstance(nc, bool) else None

    def choose_solver(self, n: int, d: int) -> str:
        """The path that runs: the one asked for; for ``"auto"`` the shape's full path when every
        component is asked of purepca's own table (nothing to weigh), else what the cost model picks."""
        if self.solver != "auto":
            return self.solver
        k = self.wanted() or None  # n_components=0: the full spectrum, none kept
        own = len(SOLVER_TABLE) == len(_OWN_ROWS) and all(a is b for a, b in zip(SOLVER_TABLE.values(), _OWN_ROWS))
        if k is None and own:
            return "covariance" if n >= d else "gram"
        return _choose_solver(n, d, k)


@dataclass(frozen=True)
class PCAState:
    """Everything a fitted PCA knows, computed once and never changed.

    The fields without a trailing ``_`` are at the fit's precision (floats,
    or Decimals for ``precision=N``) and are what ``transform`` computes
    with; those with one are their float values, scikit-learn's attributes.
    The mean is the pair ``mean_hi + mean_lo`` (the rounded mean and its
    rounding error; ``mean`` is their sum rounded once); ``sd`` are the scales (standard deviations divided by
    ``sqrt`` of the column weights), None when not scaling; ``div`` is the
    variance divisor (``n - ddof``, or the weights' sum less ``ddof``);
    ``rest`` the discarded eigenvalues (None from a top-k solver); ``source``
    says which door built it (``"fit"``, ``"partial_fit"``, ``"fit_stream"``,
    ``"fit_moments"``, ``"model file"``) and so whether training rows exist.

    >>> from purepca import PCA
    >>> state = PCA(1).fit([[0.0, 0.0], [2.0, 1.0], [4.0, 2.1]])._state
    >>> state.n_components_, state.solver_, state.source
    (1, 'covariance', 'fit')
    """

    ctx: Context
    convention: str
    sign: str
    ddof: int
    div: float
    center: bool
    scaled: bool
    mean: list[Scalar]
    mean_hi: list[Scalar]
    mean_lo: list[Scalar]
    sd: Optional[list[Scalar]]
    components: list[list[Scalar]]
    variance: list[Scalar]
    ratios: list[Scalar]
    singular: list[Scalar]
    roots: list[Scalar]
    noise: Scalar
    rest: Optional[list[float]]
    solver_: str
    n_samples_: int
    n_features_in_: int
    components_: list[list[float]]
    explained_variance_: list[float]
    explained_variance_ratio_: list[float]
    singular_values_: list[float]
    mean_: list[float]
    scale_: Optional[list[float]]
    noise_variance_: float
    sample_weight: Optional[list[float]] = None
    column_weight: Optional[list[float]] = None
    feature_names_in_: Optional[list[str]] = None
    imputed_: Optional[list[list[float]]] = None
    n_dropped_: int = 0
    n_iter_: int = 0
    source: str = "fit"
    #: fit_moments of exact moments, unscaled: the correctly rounded covariance (what error_bounds_ encloses).
    covariance: Optional[list[list[float]]] = field(default=None, compare=False)
    #: partial_fit's accumulator (the rows seen so far), None for the other doors.
    moments: Optional[Moments] = field(default=None, compare=False)

    @property
    def n_components_(self) -> int:
        """The number of components kept."""
        return len(self.components)

    @property
    def n_eff(self) -> float:
        """The number of samples: n, or the sum of the sample weights (frequencies)."""
        return self.div + self.ddof

    def replace(self, **changes: Any) -> "PCAState":
        """A copy with some fields changed (the record itself never changes)."""
        return dataclasses.replace(self, **changes)


# ------------------------------------------------------- reading the record


def plain_scores(state: PCAState, M: list[list[Scalar]]) -> list[list[float]]:
    """Scores of validated rows, never whitened, centred about the mean carried as ``hi + lo``."""
    ctx = state.ctx
    Z = _score_rows(M, state.components, state.mean_hi, state.mean_lo, state.sd, None, ctx)
    return Z if ctx.name == "float" else _float_rows(Z, ctx, "the score")


def reconstruct(state: PCAState, M: list[list[Scalar]]) -> list[list[float]]:
    """The rank-k reconstruction of validated rows (their projection on the kept components, back in
    the data's units), as floats: what ``inverse_transform(transform(M))`` gives."""
    ctx = state.ctx
    S = _score_rows(M, state.components, state.mean_hi, state.mean_lo, state.sd, None, ctx)
    return _float_rows(_reconstruct_rows(S, state.components, state.mean_hi, state.mean_lo, state.sd, ctx), ctx,
                       "the reconstruction")


@in_owned_decimal  # the mean's hi + lo are Decimals at N digits: not in the caller's context
def standardised_rows(state: PCAState, M: list[list[Scalar]]) -> list[list[float]]:
    """Validated rows centred about the mean (hi + lo) and divided by the scales: FactoMineR's X̃."""
    hi, lo, sd = state.mean_hi, state.mean_lo, state.sd
    out = []
    for row in M:
        z = [float((x - h) - l) for x, h, l in zip(row, hi, lo)]
        out.append([v / float(s) for v, s in zip(z, sd)] if sd is not None else z)
    return out


# ------------------------------------------------------------ fit of rows


@dataclass
class _Prepared:
    """The data as the solvers take them: centred (and scaled) columns in units of ``2**e``, and the
    mean pair and scales the record keeps."""

    c: Centred
    sd: Optional[list[Scalar]]  # the scales the solver divides by (units of 2**e), None when not scaling
    raw_sd: Optional[list[Scalar]]  # the standard deviations, before FactoMineR's floor
    e: int
    div: Scalar
    hi: list[Scalar]
    lo: list[Scalar]
    scales: Optional[list[Scalar]]  # the scales the record keeps (in the data's units for a weighted fit)
    scaled: bool
    weighted: bool = False
    #: A weighted fit's divisor as the weights were given (``div`` is that of the weights times
    #: ``2**shift``, which the columns of Y carry: weights.WeightedData).
    weights_div: Optional[Scalar] = None
    _data: Optional[list[list[Scalar]]] = None

    def rows(self, ctx: Context) -> list[list[Scalar]]:
        """The rows ``((x - hi) - lo)/sd`` (:func:`data_matrix`), built once for every path that
        needs them (a solver, the discarded variance, auto's switch to the SVD)."""
        if self._data is None:
            self._data = data_matrix(self.c, self.sd, self.e, ctx)
        return self._data


class ColumnRows:
    """Validated rows kept as their columns (a fit validates a list of float rows straight into
    columns: ``linalg.matrix._float_columns`` on PyPy, ``_float_columns_at_once`` on CPython 3.12+);
    :meth:`rows` builds the rows, the same numbers, when they are first asked for (training scores,
    interpretation, bounds).

    >>> ColumnRows([[1.0, 3.0], [2.0, 4.0]]).rows()
    [[1.0, 2.0], [3.0, 4.0]]
    """

    __slots__ = ("cols", "_rows")

    def __init__(self, cols: Sequence[Sequence[Scalar]]) -> None:
        self.cols = cols
        self._rows: Optional[list[list[Scalar]]] = None

    def rows(self) -> list[list[Scalar]]:
        """The rows (built once)."""
        if self._rows is None:
            self._rows = [list(row) for row in zip(*self.cols)]
        return self._rows


_fast_columns = fast.columns
_fast_gram = fast.gram


def _counted(cols: Sequence[Sequence[Scalar]], w: Optional[list[float]]) -> Sequence[Sequence[Scalar]]:
    """The columns on the rows that count: those of positive weight (all rows when unweighted)."""
    return cols if w is None else [[x for x, wi in zip(col, w) if wi > 0] for col in cols]


def _prepare_weighted(s: Settings, M: list[list[Scalar]], cols: Sequence[Sequence[Scalar]],
                      w: Optional[list[float]], cw: Optional[list[float]]) -> _Prepared:
    """The weighted rows and columns prepared: the unweighted problem of ``D_w^½·Z·D_c^½``."""
    ctx = s.ctx
    if s.n_components in ("mle", "parallel"):
        raise PurePCAError(f"n_components={s.n_components!r} assumes equally weighted rows and columns; "
                           "with sample_weight or column_weight choose k by an int, a fraction, 'kaiser' or "
                           "'broken_stick'")
    # The weighted problem is the unweighted one of Y = D_w^½·Z·D_c^½ (purepca.weights), already
    # centred: the solvers take its columns with no mean to remove and no scale to apply.  A
    # constant column is judged on the rows of positive weight.
    counted = _counted(cols, w)
    wd = weighted_data(M, w, cw, s.ddof, s.center,
                       (lambda sds: scales(sds, s.convention, ctx, counted)) if s.scale else None, ctx)
    if any(not math.isfinite(ctx.to_float(v)) for col in wd.cols for v in col):
        raise PurePCAError("X: the weighted, centred data overflow a float; divide the data or the "
                           "weights by a power of ten")
    zeros = [ctx.zero] * len(cols)
    # Columns near overflow or underflow scaled by powers of two, as the unweighted ones are
    # (their Gram overflowed: a raw OverflowError on 3.11, components [1, 0] on 3.13).
    ys, exps = _power_scaled(wd.cols, ctx, copy=False)
    c = Centred(wd.hi, zeros, ys, zeros, exps)
    return _Prepared(c, sd=None, raw_sd=None, e=_scale_exponent(c, ctx), div=wd.div, hi=wd.hi, lo=wd.lo,
                     scales=wd.scales, scaled=wd.sd is not None, weighted=True,
                     weights_div=_unscale(wd.div, -wd.shift, ctx))


def check_k(s: Settings, n: int, d: int, solver: str, row: Optional[Solver] = None) -> None:
    """Refuse an ``n_components`` the data's shape or the solver (``row``, else looked up) cannot give."""
    nc = s.n_components
    limit = min(n, d)
    if s.wanted() is not None and nc > limit:
        raise PurePCAError(f"n_components={nc} must be at most min(n_samples, n_features) = min({n}, {d}) = {limit}")
    if nc == "mle" and n < d:
        raise PurePCAError(f"n_components='mle' is only supported if n_samples >= n_features; got {n} samples "
                           f"and {d} features")
    if (row or _solver_row(solver)).top_k and not (s.wanted() is not None and nc >= 1):
        raise PurePCAError(f"solver={solver!r} computes only the top k components: n_components must be an int "
                           f">= 1, got {nc!r}")


def fit_rows(s: Settings, M: Union[list[list[Scalar]], ColumnRows], w: Optional[list[float]] = None,
             cw: Optional[list[float]] = None, feature_names: Optional[list[str]] = None) -> PCAState:
    """The fitted record of validated rows ``M`` (n x d, at the precision of ``s.ctx``; or their
    columns, unweighted), with validated sample weights ``w`` and column weights ``cw`` (or None).

    >>> state = fit_rows(Settings(n_components=1), [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    >>> [round(v, 12) for v in state.components_[0]], state.explained_variance_
    ([0.707106781187, 0.707106781187], [2.0])
    """
    ctx = s.ctx
    # The columns: kept as such, or the kernel room's from the rows where bound (the same values).
    cols: Sequence[Sequence[Scalar]] = M.cols if isinstance(M, ColumnRows) else \
        _fast_columns(M, len(M[0])) if _fast_columns is not None else list(zip(*M))
    n, d = len(cols[0]), len(cols)
    if n < 2:
        raise PurePCAError(f"X: PCA needs at least 2 samples, got n_samples = {n}")
    shape = n if w is None else _frequency_rows(w)  # how many components exist (weights as frequencies)
    with ctx.local():
        p, found, losses, solver = _solve(s, M, cols, w, cw, n, d, shape)
    if not found.total > 0 and any(max(col) != min(col) for col in _counted(cols, w)):  # (the rows that count)
        raise PurePCAError(f"X: {UNDERFLOW}")
    # The variance a top k leave, measured on the data themselves (not the total less the kept).
    top_k = _solver_row(solver).top_k and len(found.values) < min(n, d)
    rest = discarded_variance(p.rows(ctx), found.components, p.div, ctx) if top_k else None
    parallel_sd = _parallel_sd(p, ctx) if s.n_components == "parallel" and p.sd is None else None
    # A weighted fit's scales are in the data's units and its spectrum (that of Y) in units of 2**(2e).
    state = finish(s, Solved(shape, d, solver, found, p.hi, p.lo, p.scales, scale_exp=0 if p.weighted else p.e,
                             div=p.weights_div if p.weighted else None, scaled=p.scaled, parallel_sd=parallel_sd,
                             rest=rest, spectrum_exp=p.e if p.weighted else None, feature_names=feature_names))
    if p.weighted:
        state = state.replace(sample_weight=w, column_weight=cw, n_samples_=n)
    if s.solver != "auto" and _solver_row(s.solver).formed and losses:
        _warn_losses(losses, solver, state.n_components_)
    return state


def _parallel_sd(p: _Prepared, ctx: Context) -> list[float]:
    """The columns' standard deviations as floats in units of ``2**e``, the spectrum's (parallel analysis's null)."""
    return [ctx.to_float(v) for v in column_sd(p.c, p.div, p.e, ctx)]


def _standard_deviations(s: Settings, c: Centred, cols: Sequence[Sequence[Scalar]], div: Scalar,
                         e: int) -> tuple[list[Scalar], list[Scalar]]:
    """The columns' standard deviations (units of ``2**e``) and the scales the convention makes of them."""
    raw_sd = column_sd(c, div, e, s.ctx)
    return raw_sd, scales(raw_sd, s.convention, s.ctx, cols, e)


def _solve(s: Settings, M: Union[list[list[Scalar]], ColumnRows], cols: Sequence[Sequence[Scalar]],
           w: Optional[list[float]], cw: Optional[list[float]], n: int, d: int,
           shape: int) -> tuple[_Prepared, Spectrum, list[float], str]:
    """The path's spectrum of the data centred and scaled, the estimated losses of a formed matrix and
    the path that gave it: where a formed matrix lost the digits the data hold, ``"auto"`` takes the
    SVD of the data.  Weighted rows that stand for more (or fewer) rows: ``min(shape, d)`` values."""
    ctx = s.ctx
    solver = s.choose_solver(n, d)
    row = _solver_row(solver)
    if s.n_components is not None or row.top_k:  # (else every component is asked of a full path: nothing to check)
        check_k(s, shape, d, solver, row)
    forms = row.forms_covariance(n, d, s.wanted() or 0)  # the path reads the covariance, else the rows
    if w is not None or cw is not None:  # (weighted rows are given as rows)
        p = _prepare_weighted(s, cast("list[list[Scalar]]", M), cols, w, cw)
    else:  # (lazy where the covariance is formed: the kernel room may leave the deviations unmade)
        nf = ctx.convert(n)  # the count in the context's numbers, taken once: the means and the divisor
        div = _divisor(n, s.ddof, ctx)
        c = _centred_columns(cols, ctx, lazy=forms, n=nf) if s.center else _uncentred(cols, ctx)
        e = _scale_exponent(c, ctx)
        raw_sd, sd = _standard_deviations(s, c, cols, div, e) if s.scale else (None, None)
        p = _Prepared(c, sd=sd, raw_sd=raw_sd, e=e, div=div, hi=c.hi, lo=c.lo, scales=sd, scaled=sd is not None)
    # The sums of products: ctx.dots', a kernel's faster Gram (numeric.GramWork) or n_jobs processes'.
    gram = parallel_gram(ctx, s.jobs, fast=True) if s.jobs != 1 else None
    gram = gram or (ctx.fast_gram if _fast_gram is not None else None)  # None: the reference's dot products
    C = prepared_covariance(p.c, p.sd, p.raw_sd, p.e, p.div, gram, ctx, n) if forms else None
    problem = Problem(ctx, n, d, s.wanted() or 0, p.div, s.seed, s.jobs, gram or ctx.gram,
                      lambda: prepared_covariance(p.c, p.sd, p.raw_sd, p.e, p.div, gram, ctx, n) if C is None else C,
                      lambda: p.rows(ctx))
    found = row.run(problem) if _is_own(row) else _checked_spectrum(row.run(problem), row, problem)  # (trusted)
    constant = _constant_columns(p.c) if p.c.constant is None else p.c.constant  # deviations all zero
    losses = _path_losses(found, n, d - constant, s.center, ctx)
    if s.solver == "auto" and row.formed and any(err > ACCURACY_TARGET for err in losses):
        found, solver, losses = solve_svd(p.rows(ctx), p.div, ctx), "svd", []
    if len(found.values) != min(shape, d):  # weighted rows that stand for more (or fewer) rows
        found = _at_rank(found, min(shape, d), min(n, d), s.wanted(), d, ctx)
    return p, found, losses, solver


def _at_rank(found: Spectrum, r: int, given: int, wanted: Optional[int], d: int, ctx: Context) -> Spectrum:
    """``found`` cut to ``r`` values, or completed to them (:func:`_complete`) where the path found all
    ``given`` (``min(n, d)`` of the rows given)."""
    if r < len(found.values):
        return dataclasses.replace(found, values=found.values[:r], components=found.components[:r])
    return _complete(found, r, wanted, d, ctx) if len(found.values) == given else found


def _complete(found: Spectrum, r: int, wanted: Optional[int], d: int, ctx: Context) -> Spectrum:
    """The whole spectrum of rows weighted to stand for more rows than given: ``r`` values, the
    missing ones 0 (the data have no spread there), and as many axes as the fit keeps (``wanted``,
    or all ``r``), the missing ones an orthonormal completion of those found.

    >>> from purepca import FLOAT
    >>> s = _complete(Spectrum([2.0], [[0.6, 0.8]], 2.0, "covariance"), 2, None, 2, FLOAT)
    >>> s.values, [[round(x, 12) for x in v] for v in s.components]
    ([2.0, 0.0], [[0.6, 0.8], [0.8, -0.6]])
    """
    values = list(found.values) + [ctx.zero] * (r - len(found.values))
    need = r if wanted is None else min(wanted, r)
    comps = list(found.components)
    # Gram-Schmidt, twice, on the coordinate axes in turn: an axis with a tenth of its length
    # off the span so far gives the next axis (the squared lengths off the span add up to
    # d - len(comps) over the d axes, so enough of them do).
    for least in (ctx.convert(0.1), ctx.convert(1e-6)):  # a second pass should the first fall short
        for j in range(d):
            if len(comps) >= need:
                break
            v = [ctx.one if i == j else ctx.zero for i in range(d)]
            for _ in range(2):
                for u in comps:
                    c = ctx.dot(u, v)
                    v = [a - c * b for a, b in zip(v, u)]
            nv = ctx.norm(v)
            if nv > least:
                comps.append([a / nv for a in v])
    return dataclasses.replace(found, values=values, components=comps)


def _frequency_rows(w: list[float]) -> int:
    """The number of rows the sample weights stand for: their sum when every weight is an integer
    (frequencies: the rows repeated), else the number of rows of positive weight.

    >>> _frequency_rows([2.0, 2.0, 2.0]), _frequency_rows([1.0, 0.0, 3.0]), _frequency_rows([0.5, 0.0, 1.5])
    (6, 4, 2)
    """
    if all(v.is_integer() for v in w):
        try:
            return int(math.fsum(w))
        except OverflowError:  # weights near the float range: as many rows as anyone could repeat
            return len(w) + 2 ** 62
    return sum(1 for v in w if v > 0)


def _warn_losses(losses: list[float], solver: str, k: int) -> None:
    """The warning of a solver chosen by the user that may have lost digits."""
    bad = [i for i in range(min(k, len(losses))) if losses[i] > ACCURACY_TARGET]
    noise = k < len(losses) and any(err > ACCURACY_TARGET for err in losses[k:])
    if not bad and not noise:
        return
    worst = max(losses[i] for i in bad) if bad else max(losses[k:])
    lost = "all" if not math.isfinite(worst) or worst >= 1 else f"about {max(1, round(math.log10(worst / 2.2e-16)))}"
    what = []
    if bad:
        what.append("the eigenvalues of component" + ("s " if len(bad) > 1 else " ")
                    + ", ".join(str(i + 1) for i in bad))
    if noise:
        what.append("noise_variance_")
    size = "inf" if not math.isfinite(worst) else f"{worst:.1e}"
    warnings.warn(
        f"solver={solver!r}: {' and '.join(what)} may be off by up to {size} relative ({lost} of 16 digits "
        "lost): the covariance and Gram matrices square the condition of the data; solver='svd' (which "
        "solver='auto' switches to here) gives them to the accuracy the data allow",
        AccuracyWarning,
        stacklevel=user_stacklevel(),
    )


def discarded_variance(Z: list[list[Scalar]], V: list[list[Scalar]], div: Scalar, ctx: Context) -> Scalar:
    """The variance the axes ``V`` (orthonormal rows) leave in the centred rows ``Z``:
    ``‖Z - Z·Vᵀ·V‖²_F / div``, each residual row from compensated dot products.

    The total less the kept eigenvalues cancels where the noise is far below the total (at noise
    1e-12·λ_1 it kept 2 digits); each residual here is within about ``eps·‖z‖`` of the exact one,
    so the sum keeps its digits relative to itself (``eps·sqrt(total/rest)``), and an axis off by
    an angle θ adds only ``θ²·λ`` (second order).

    >>> discarded_variance([[1.0, 2.0], [-1.0, -2.0]], [[1.0, 0.0]], 1.0, FLOAT)
    8.0
    """
    if _fast_residual_squares is not None and isinstance(ctx, FloatContext) and V:
        quick = _fast_residual_squares(Z, V)  # within its stated bound (purepca.fast)
        if quick is not None:
            return ctx.sum(quick) / div
    dot = ctx.dot
    columns = [list(col) for col in zip(*V)]
    squares = []
    for z in Z:
        p = [dot(z, v) for v in V]
        r = [x - dot(p, col) for x, col in zip(z, columns)]
        squares.append(dot(r, r))
    return ctx.sum(squares) / div


_fast_residual_squares = fast.residual_squares


def _warn_noise_cancellation(ctx: Context, solver: str, total: Scalar, rest: Scalar, d: int) -> None:
    """A top-k solver's noise variance is the total variance less the kept eigenvalues: where those
    nearly cancel (the discarded variance far below the total), it keeps few digits; say how few.
    The estimate, ``d·eps·total/rest``, was within a factor of 2 of the error measured against 40
    digits on low-rank data with noise 1e-3 and 1e-6 (1e-8 and 5e-3 relative)."""
    if ctx.name != "float":
        return
    worst = math.inf if not rest > 0 else d * ctx.to_float(ctx.eps) * ctx.to_float(total) / ctx.to_float(rest)
    if worst <= ACCURACY_TARGET:
        return
    size = "all" if worst >= 1 else f"{worst:.1e} relative"
    warnings.warn(
        f"solver={solver!r}: noise_variance_ may be off by up to {size}: it is the total variance less the kept "
        "eigenvalues, which nearly cancel here; solver='svd' (all components) gives it to the accuracy the data "
        "allow", AccuracyWarning, stacklevel=user_stacklevel())


# ------------------------------------------------------- fit of moments


def fit_moments(s: Settings, moments: Moments, source: str = "fit_moments") -> PCAState:
    """The fitted record of (merged) streaming moments: the covariance path, as ``partial_fit`` and
    ``fit_stream`` take it (the data are seen only through their mean and covariance).

    >>> from purepca import Moments
    >>> m = Moments()
    >>> m.update_many([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    >>> fit_moments(Settings(n_components=1), m).explained_variance_
    [2.0]
    """
    ctx = s.ctx
    n, d = moments.n, moments.d or 0
    if n < 2:
        raise PurePCAError(f"moments: PCA needs at least 2 samples, got {n}")
    if moments.context != ctx:
        raise PurePCAError(f"moments: accumulated at {moments.context.name}, but the PCA computes at {ctx.name} "
                           "(the precision parameter); build the moments with the same context")
    if s.solver not in ("auto", "covariance", "jacobi"):
        raise PurePCAError(
            f"partial_fit, fit_stream and fit_moments use the covariance (solver 'covariance' or 'jacobi'); "
            f"got solver={s.solver!r}"
        )
    solver = "jacobi" if s.solver == "jacobi" else "covariance"
    check_k(s, n, d, solver)
    with ctx.local():
        C = moments.covariance(s.ddof, center=s.center)
        # The mean as a pair, as a fit of rows keeps it: new rows are centred to about twice the precision.
        hi, lo = moments.mean_pair if s.center else ([ctx.zero] * d, [ctx.zero] * d)
        raw = [ctx.sqrt(C[j][j]) for j in range(d)]
        sd = scales(raw, s.convention, ctx) if s.scale else None
        parallel_sd = [ctx.to_float(v) for v in raw] if not s.scale else None
        if sd is not None:
            # The correlation, with a unit diagonal only where the scale is genuine: a column
            # FactoMineR leaves unscaled (its 1 for a constant column) keeps its variance, 0.
            C = [[c / (si * sj) for c, sj in zip(row, sd)] for row, si in zip(C, sd)]
            for j in range(d):
                if sd[j] is raw[j]:
                    C[j][j] = ctx.one
        problem = Problem(ctx, n, d, s.wanted() or 0, ctx.one, s.seed, 1, ctx.gram, lambda: C, _no_rows)
        found = solved(_solver_row(solver), problem)
    state = finish(s, Solved(n, d, solver, found, list(hi), list(lo), sd, parallel_sd=parallel_sd))
    # Exact moments give the covariance correctly rounded: each entry within half an ulp of the exact
    # one, which is what rigorous bounds need (float moments carry a rounding error not bounded here).
    exact = getattr(moments, "exact", False) and ctx.name == "float" and sd is None and s.center
    return state.replace(source=source, covariance=[[float(v) for v in row] for row in C] if exact else None)


def _no_rows() -> list[list[Scalar]]:  # pragma: no cover - the moments' solvers read the covariance only
    raise PurePCAError("a fit from moments keeps no rows: use solver 'covariance' or 'jacobi'")


# ------------------------------------------------------------- the finish


def choose_k(s: Settings, spectrum: list[Scalar], ratios: list[Scalar], total: Scalar, n: int, d: int,
             scaled: bool, scale_exp: int, parallel_sd: Optional[list[float]]) -> int:
    """How many components to keep, by the rule ``s.n_components`` names (:mod:`purepca.selection`)."""
    ctx = s.ctx
    nc = s.n_components
    if nc is None:
        return len(spectrum)
    if nc == "mle":
        return infer_dimension([ctx.to_float(v) for v in spectrum], n)
    if nc == "kaiser":
        return kaiser([ctx.to_float(v) for v in spectrum], ctx.to_float(total), d)
    if nc == "broken_stick":
        return broken_stick([ctx.to_float(v) for v in ratios], d)
    if nc == "parallel":
        thresholds = parallel_analysis(n, d, scale=scaled, sd=parallel_sd, ddof=s.ddof, seed=s.seed,
                                       quantile=s.parallel_quantile)
        k = 0
        for value, limit in zip(spectrum, thresholds):  # (in the spectrum's units: parallel_sd's are those)
            if ctx.to_float(value) > limit:
                k += 1
            else:
                break
        return k
    if isinstance(nc, float):
        return components_for_fraction(ratios, ctx.convert(nc))
    return int(nc)


@dataclass(frozen=True)
class Solved:
    """What :func:`finish` makes the record of: the spectrum ``found`` of n x d data on the path
    ``solver``, with the mean pair ``hi + lo`` and the scales ``sd``.  ``sd`` and the spectrum (of the
    data divided by ``2**scale_exp``, or by ``2**spectrum_exp`` for a weighted fit's spectrum) are
    scaled back by ``finish``; ``div`` is the divisor when not ``n - ddof``; ``scaled`` says whether
    the data were scaled (when ``sd`` alone does not: a weighted fit); ``parallel_sd`` are the
    standard deviations parallel analysis simulates; ``rest`` the variance a top-k solver's axes
    leave in the data, when measured.

    >>> found = Spectrum([4.0, 1.0], [[0.0, -1.0], [1.0, 0.0]], 5.0, "covariance")
    >>> state = finish(Settings(), Solved(3, 2, "covariance", found, [1.0, 2.0], [0.0, 0.0], None))
    >>> state.components_, state.explained_variance_ratio_, state.mean_
    ([[-0.0, 1.0], [1.0, 0.0]], [0.8, 0.2], [1.0, 2.0])
    """

    n: int
    d: int
    solver: str
    found: Spectrum
    hi: list[Scalar]
    lo: list[Scalar]
    sd: Optional[list[Scalar]]
    scale_exp: int = 0
    div: Optional[Scalar] = None
    scaled: Optional[bool] = None
    parallel_sd: Optional[list[float]] = None
    rest: Optional[Scalar] = None
    spectrum_exp: Optional[int] = None
    feature_names: Optional[list[str]] = None


#: The error of data without variance (constant columns, or all below the float range's squares).
NO_VARIANCE = ("X: every feature is constant (total variance 0), or varies by so little (below about 1e-154) that "
               "its variance underflows a float; there are no principal components")


def finish(s: Settings, o: Solved) -> PCAState:
    """Signs, choice of k, ratios and noise variance: the record of what was solved."""
    ctx = s.ctx
    n, d, solver, found, sd, scale_exp = o.n, o.d, o.solver, o.found, o.sd, o.scale_exp
    r = min(n, d)
    spectrum, total = found.values, found.total
    scaled = sd is not None if o.scaled is None else o.scaled
    with ctx.local():
        if not total > 0:
            raise PurePCAError(NO_VARIANCE)
        ratios = [v / total for v in spectrum]
        k = len(spectrum) if s.n_components is None else choose_k(s, spectrum, ratios, total, n, d, sd is not None,
                                                                    scale_exp, o.parallel_sd)
        noise = _noise(ctx, spectrum, k, r, total, o.rest, solver, d) if k < r else ctx.zero
        div = ctx.convert(n - s.ddof) if o.div is None else o.div
        # Scaled back once (scale=True: the spectrum has no unit, and only the scales are in units of 2**e).
        ve = o.spectrum_exp if o.spectrum_exp is not None else 0 if sd is not None else scale_exp
        singular = [_root_of_product(v, div, ctx) for v in spectrum[:k]]
        roots = [ctx.sqrt(v) for v in spectrum[:k]]
        beyond = [] if found.next_value is None else [found.next_value]
        found_values = [ctx.to_float(v) for v in list(spectrum) + beyond]
        if ve:
            singular, roots, spectrum, noise = _unscaled_spectrum(singular, roots, spectrum, noise, ve, ctx)
        sd = _unscaled_sd(sd, scale_exp, ctx) if sd is not None else None
        mean = [h + l for h, l in zip(o.hi, o.lo)]
        # FactoMineR (svd.triplet) fixes no sign when one component is asked of data with n > p.
        comps = _apply_sign_rule(found.components, "none" if s.sign == "factominer" and k == 1 and n > d else s.sign)
        _report_degenerate(found_values, k, dim=0 if _solver_row(solver).top_k else max(n, d), svd=solver == "svd",
                           eps=ctx.to_float(ctx.eps))
    f = ctx.to_float
    return PCAState(
        ctx=ctx, convention=s.convention, sign=s.sign, ddof=s.ddof, div=f(div), center=s.center, scaled=scaled,
        mean=mean, mean_hi=list(o.hi), mean_lo=list(o.lo), sd=sd, components=comps[:k], variance=spectrum[:k],
        ratios=ratios[:k], singular=singular, roots=roots, noise=noise,
        rest=[f(v) for v in spectrum[k:]] if len(spectrum) == r else None,  # (all found: for the SPE limit)
        solver_=solver, n_samples_=n, n_features_in_=d, components_=[[f(x) for x in v] for v in comps[:k]],
        explained_variance_=[f(v) for v in spectrum[:k]], explained_variance_ratio_=[f(v) for v in ratios[:k]],
        singular_values_=[f(v) for v in singular], mean_=[f(m) for m in mean],
        scale_=[f(v) for v in sd] if sd is not None else None, noise_variance_=f(noise),
        feature_names_in_=o.feature_names)


def _unscaled_spectrum(singular: list[Scalar], roots: list[Scalar], spectrum: list[Scalar], noise: Scalar, e: int,
                       ctx: Context) -> tuple[list[Scalar], list[Scalar], list[Scalar], Scalar]:
    """The singular values and roots times ``2**e``, the spectrum and the noise variance times ``2**(2e)``: in
    the units of data that were scaled by ``2**-e`` (each inf where it overflows a float)."""
    return ([_unscale(v, e, ctx) for v in singular], [_unscale(v, e, ctx) for v in roots],
            [_unscale(v, 2 * e, ctx) for v in spectrum], _unscale(noise, 2 * e, ctx))


def _unscaled_sd(sd: list[Scalar], scale_exp: int, ctx: Context) -> list[Scalar]:
    """The scales in the data's units; one that underflows to 0 is an error naming its column."""
    sd = [_unscale(v, scale_exp, ctx) for v in sd]
    if not all(v > 0 for v in sd):
        j = next(j for j, v in enumerate(sd) if not v > 0)
        raise PurePCAError(f"X: column {j}: its standard deviation underflows to 0; scale=True cannot scale it")
    return sd


def _noise(ctx: Context, spectrum: list[Scalar], k: int, r: int, total: Scalar, rest: Optional[Scalar], solver: str,
           d: int) -> Scalar:
    """The noise variance: the mean of the ``r - k`` eigenvalues not kept."""
    if len(spectrum) == r:
        return ctx.sum(spectrum[k:]) / ctx.convert(r - k)
    if rest is not None and k == len(spectrum):
        # Only the top k were computed; ``rest`` is what they leave, measured on the data.
        return rest / ctx.convert(r - k) if rest > 0 else ctx.zero
    # Only the top k were computed: the rest of the variance is the total less what they hold.
    rest = total - ctx.sum(spectrum)
    _warn_noise_cancellation(ctx, solver, total, rest, d)
    return rest / ctx.convert(r - k) if rest > 0 else ctx.zero


def _root_of_product(v: Scalar, div: Scalar, ctx: Context) -> Scalar:
    """``sqrt(v·div)``, or ``sqrt(v)·sqrt(div)`` where the product leaves the float range."""
    product = v * div
    if isinstance(product, float) and (product == math.inf or (product == 0.0 and v != 0.0 and div != 0.0)):
        return ctx.sqrt(v) * ctx.sqrt(div)
    return ctx.sqrt(product)


def _unscale(x: Scalar, e: int, ctx: Context) -> Scalar:
    """``x·2**e``; inf when that overflows a float (the honest answer)."""
    if not e:
        return x
    try:
        return ctx.ldexp(x, e)
    except OverflowError:
        return math.copysign(math.inf, x)
