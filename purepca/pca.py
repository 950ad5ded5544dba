"""``PCA``: principal component analysis with scikit-learn's protocol and R's names.

The estimator follows scikit-learn: the constructor only stores parameters,
``fit`` learns, fitted attributes end in ``_``, and ``transform``,
``inverse_transform``, ``score_samples`` ... behave as scikit-learn's do.  The
same model also answers to R's names (``sdev``, ``rotation``, ``x``,
``summary()``), and a *convention* switches divisor, scaling and sign rule
to what R's ``prcomp``/``princomp`` or FactoMineR report
(:mod:`purepca.conventions`).

How a fit goes:

1. validate X (any rows of real numbers) and the parameters;
2. centre (column means) and, with ``scale=True``, divide by the standard
   deviations (divisor ``n - ddof``);
3. solve: ``"jacobi"`` (covariance + Jacobi), ``"gram"`` (the n x n Gram
   matrix when n < d), ``"svd"`` (one-sided Jacobi SVD of the data: the
   accurate path for nearly collinear data) or ``"power"`` (matrix-free
   subspace iteration for the top k);
4. fix the signs (the convention's rule), choose k, and compute the
   variance ratios and the noise variance of probabilistic PCA.

>>> from purepca import PCA
>>> from purepca.datasets import toy_data
>>> pca = PCA(convention="prcomp").fit(toy_data())
>>> [round(s, 7) for s in pca.sdev]
[1.1331495, 0.2215477]
>>> [round(r, 8) for r in pca.explained_variance_ratio_]
[0.96318131, 0.03681869]
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence, Union

from . import interpretation, monitoring, probabilistic
from .base import Estimator, atomic
from .conventions import CONVENTIONS, SIGN_RULES
from .moments import Moments
from .errors import NotFittedError, PurePCAError
from .fitting import FACTOMINER_SD_FLOOR, ColumnRows, PCAState, Settings, fit_rows, plain_scores
from .fitting import fit_moments as _fit_moments
from .linalg.matrix import as_matrix
from .missing import EM_MAX_ITER, EM_TOL, FitFunction, fit_missing, with_holes
from . import fast
from .numeric import FLOAT, Context, Scalar, get_context
from .parallel import check_n_jobs
from .params import _not_one_of, as_int, as_real, is_int
from .projection import _float_rows, _reconstruct_rows, _reconstruction_error, _score_rows, _unwhiten
from .report import PCASummary, format_table
from .rotations import Rotation
from .solvers import DEGENERATE_GAP, SOLVER_TABLE
from .selection import components_for_fraction  # noqa: F401  (re-exported: tests and users import it from here)
from .weights import check_weights

#: The kernel room's validation of float rows straight into the columns a fit works on, or None.
_fast_columns = fast.float_columns

__all__ = ["ErrorBounds", "PCA", "PCASummary", "format_table"]


#: The solvers' names (``"auto"`` and the rows of :data:`purepca.solvers.SOLVER_TABLE` at import).
SOLVERS = ("auto",) + tuple(SOLVER_TABLE)
MISSING = ("error", "drop", "mean", "em")
_PARAMS = (
    "n_components", "center", "scale", "ddof", "whiten", "solver", "sign", "convention", "precision", "seed", "n_jobs",
    "missing", "parallel_quantile",
)


def _alpha(alpha: Any) -> float:
    """A control limit's level: a number strictly between 0 and 1."""
    value = as_real(alpha, "alpha", low=0.0, high=1.0, low_open=True)
    if value == 1.0:
        raise PurePCAError("alpha must be strictly between 0 and 1 (the level of the control limit), got 1.0")
    return value


@dataclass(frozen=True)
class ErrorBounds:
    """Rigorous bounds on a fitted PCA's float result (``PCA.error_bounds_``).

    ``explained_variance_``: one ``(low, high)`` per kept component, containing
    the exact eigenvalue; ``components_``: one angle bound (radians) per
    kept component; ``clusters``: groups of components whose eigenvalues
    could not be separated (their bounds are for the subspace they span).

    >>> ErrorBounds([(1.0, 1.0)], [0.0], [[0]]).explained_variance_
    [(1.0, 1.0)]
    """

    explained_variance_: list[tuple[float, float]]
    components_: list[float]
    clusters: list[list[int]]


def _checked_quantile(value: Any) -> float:
    """``parallel_quantile`` as a float strictly between 0 and 1, or an error naming it."""
    quantile = as_real(value, "parallel_quantile", low=0.0, high=1.0, low_open=True)
    if quantile == 1.0:
        raise PurePCAError("parallel_quantile must be strictly between 0 and 1, got 1.0")
    return quantile


def _n_components(nc: Any) -> Any:
    """``n_components`` checked: an int >= 0, a float strictly between 0 and 1, or a rule's name."""
    if is_int(nc) and not isinstance(nc, bool) and nc >= 0:
        nc = int(nc)
    elif isinstance(nc, numbers.Real) and not isinstance(nc, (bool, int)) and type(nc).__module__ == "numpy":
        nc = float(nc)  # numpy's float32 and the like: a fraction of the variance
    if not ((isinstance(nc, int) and not isinstance(nc, bool) and nc >= 0)
            or nc in ("mle", "kaiser", "broken_stick", "parallel")
            or (isinstance(nc, float) and 0.0 < nc < 1.0)):
        raise PurePCAError(
            "n_components must be None, an int >= 0, a float strictly between 0 and 1, 'mle', 'kaiser', "
            f"'broken_stick' or 'parallel'; got {nc!r}"
        )
    return nc


class PCA(Estimator):
    """Principal component analysis.

    Parameters
    ----------
    n_components : None, int, float in (0, 1), "mle", "kaiser", "broken_stick" or "parallel"
        None keeps ``min(n_samples, n_features)`` components; an int keeps
        that many; a float keeps the fewest whose cumulative explained-variance
        ratio is *strictly greater* than it (scikit-learn's rule, so at exact
        equality one more component is kept); ``"mle"`` uses Minka's estimate
        (needs ``n_samples >= n_features``); ``"kaiser"`` keeps the eigenvalues
        above the mean eigenvalue, ``"broken_stick"`` the leading components
        whose share beats the broken-stick expectation, ``"parallel"`` those
        above the ``parallel_quantile`` (95 %) quantile of 100 random normal
        data sets of the same shape (Horn; seeded by ``seed``):
        :mod:`purepca.selection`.
    center : bool, default True
        Subtract the column means (R's ``center``).
    scale : bool or None
        Divide each column by its standard deviation (divisor ``n - ddof``):
        correlation PCA, R's ``scale.=TRUE``.  None: from the convention.
    ddof : int or None
        The variance divisor is ``n_samples - ddof``.  None: from the convention.
    whiten : bool, default False
        Scale the scores to unit variance (with the same divisor);
        ``inverse_transform`` undoes it.  A zero-variance component is divided
        by ``eps`` instead of zero, as scikit-learn does.
    solver : "auto", "covariance", "jacobi", "gram", "svd", "krylov" or "power"
        ``"covariance"``: eigh of the d x d covariance (Jacobi for d <= 16,
        Householder + QL above); ``"jacobi"``: the same with Jacobi always;
        ``"gram"``: eigh of the n x n Gram matrix; ``"svd"``: one-sided
        Jacobi SVD of the data (the accurate path for nearly collinear data);
        ``"krylov"``: block Lanczos for an int ``n_components``, matrix-free;
        ``"power"``: subspace iteration (the teaching method).  ``"auto"``
        takes ``covariance`` when n >= d, ``gram`` otherwise, and ``krylov``
        for a few components when a cost model
        (:func:`purepca.solvers.choose_solver`) predicts it at least twice
        as cheap.
    sign : "max_abs_positive", "first_positive", "sum_positive", "none" or None
        The sign rule applied to each component.  None: from the convention.
    convention : "sklearn", "prcomp", "princomp" or "factominer"
        Preset for ``ddof``, ``scale``, ``sign`` and the component names.
    precision : None or int
        None computes with floats; an int computes with that many decimal
        digits and rounds the results to floats.  The full-precision values
        are kept in ``high_precision_``.
    seed : int
        Seed of the start vectors of the ``krylov`` and ``power`` solvers.
    missing : "error", "drop", "mean" or "em"
        Missing cells (None or NaN) in ``fit``: an error naming the first
        (default); ``"drop"`` the incomplete rows (``n_dropped_``); ``"mean"``
        the column mean of the present values (weighted, with
        ``sample_weight``); ``"em"`` iterative PCA imputation with the model's
        ``n_components``: missMDA's ``imputePCA(method="EM")`` (the model
        re-fitted, means included, at each step), or under
        ``convention="statsmodels"`` statsmodels' ``fill-em`` (the observed
        means and standard deviations held fixed).  The iteration is
        accelerated (SQUAREM, :mod:`purepca.imputation`) and stops when the
        estimated distance to the fixed point is below 1e-10 of the data's
        spread; ``n_iter_`` counts the EM steps.  The completed data are
        ``imputed_``.  ``partial_fit`` and ``fit_stream`` take complete rows
        only.
    parallel_quantile : float, default 0.95
        The quantile of the random eigenvalues that ``n_components="parallel"``
        compares with, strictly between 0 and 1 (Horn (1965) compared with
        the mean; the 95 % quantile follows Glorfeld (1995)).
    n_jobs : None or int
        Processes for the covariance or Gram sums and the Krylov products
        (None or 1: this process only; -1: one per core).  The result has
        the same bits whatever ``n_jobs`` is.  Where processes cannot be
        started (Pyodide, some sandboxes) the work runs here, with a
        ``RuntimeWarning`` that says so.

    Attributes
    ----------
    components_ : k x d list, the principal axes as rows
    explained_variance_ : k variances (divisor ``n - ddof``)
    explained_variance_ratio_ : k fractions of the total variance
    singular_values_ : k singular values of the centred (scaled) data
    mean_ : d column means (zeros when ``center=False``)
    scale_ : d standard deviations, or None when not scaling
    n_components_, n_samples_, n_features_in_, noise_variance_
    solver_ : the solver that ran (what ``"auto"`` chose)
    feature_names_in_ : the column names, when X had string ``columns``

    >>> pca = PCA(n_components=1).fit([[1, 2], [2, 4.1], [3, 5.9]])
    >>> pca.n_components_, [round(c, 4) for c in pca.components_[0]]
    (1, [0.4558, 0.8901])
    >>> [round(v, 4) for v in pca.transform([[2, 4]])[0]]
    [0.0]
    """

    _PARAMS = _PARAMS
    # The fitted model is one value, _state (purepca.fitting.PCAState); beside it only the training
    # rows, validated once (R's x, contributions, error_bounds_), and what is computed from them on
    # first use (_cache: the training scores and the error bounds).  A fit assigns all three in one
    # statement.  partial_fit's rows seen before the model exists (fewer than 2) wait in _pending.
    #: missing="em": stop when the estimated distance to the fixed point is below this, relative to the
    #: data's spread, in at most EM_MAX_ITER steps (purepca.missing).
    EM_TOL = EM_TOL
    EM_MAX_ITER = EM_MAX_ITER
    #: Eigenvalues closer than this, relative to the largest, count as equal.
    DEGENERATE_GAP = DEGENERATE_GAP
    #: FactoMineR's ``ec.tab``: a standard deviation at or below this is set to 1 (the column is left unscaled).
    FACTOMINER_SD_FLOOR = FACTOMINER_SD_FLOOR

    _state: Optional[PCAState] = None
    _rows: Optional[Union[list[list[Scalar]], ColumnRows]] = None  # ColumnRows: the rows kept as columns (PyPy)
    _cache: Optional[dict[str, Any]] = None

    def __init__(self, n_components: Union[None, int, float, str] = None, *, center: bool = True,
                 scale: Optional[bool] = None, ddof: Optional[int] = None, whiten: bool = False, solver: str = "auto",
                 sign: Optional[str] = None, convention: str = "sklearn", precision: Optional[int] = None,
                 seed: int = 0, n_jobs: Optional[int] = None, missing: str = "error",
                 parallel_quantile: float = 0.95) -> None:
        self.n_components, self.center, self.scale, self.ddof, self.whiten = n_components, center, scale, ddof, whiten
        self.solver, self.sign, self.convention, self.precision = solver, sign, convention, precision
        self.seed, self.n_jobs, self.missing, self.parallel_quantile = seed, n_jobs, missing, parallel_quantile

    def _settings(self) -> Settings:
        """Validate the parameters; resolve the convention and the overrides."""
        values = [getattr(self, name) for name in self._PARAMS if name != "seed"]  # a seed may be any int
        if any(isinstance(v, int) and not isinstance(v, bool) for v in values):  # only an int can be too long to print
            self._check_printable()
        if not isinstance(self.convention, str) or self.convention not in CONVENTIONS:
            raise _not_one_of("convention", CONVENTIONS, self.convention)
        conv = CONVENTIONS[self.convention]
        ddof = conv.ddof if self.ddof is None else self.ddof
        if isinstance(ddof, bool) or not isinstance(ddof, numbers.Integral) or ddof < 0:
            raise PurePCAError(f"ddof must be a non-negative int, got {self.ddof!r}")
        scale = conv.scale if self.scale is None else self.scale
        if not isinstance(scale, bool):
            raise PurePCAError(f"scale must be True, False or None, got {self.scale!r}")
        sign = conv.sign if self.sign is None else self.sign
        if sign not in SIGN_RULES:
            raise _not_one_of("sign", SIGN_RULES, self.sign, " or None")
        names = ("auto",) + tuple(SOLVER_TABLE)  # the table, with any solver registered since import
        if self.solver not in names:
            raise _not_one_of("solver", names, self.solver)
        if self.missing not in MISSING:
            raise PurePCAError(f"missing must be 'error', 'drop', 'mean' or 'em'; got {self.missing!r}")
        if type(self.center) is not bool or type(self.whiten) is not bool:
            self._check_flags()
        seed = self.seed if type(self.seed) is int else as_int(self.seed, "seed")  # (a plain int needs no conversion)
        quantile = self.parallel_quantile
        if not (type(quantile) is float and 0.0 < quantile < 1.0):
            quantile = _checked_quantile(quantile)
        nc = None if self.n_components is None else _n_components(self.n_components)
        ctx = FLOAT if self.precision is None else self._context()
        return Settings(ctx=ctx, convention=self.convention, ddof=int(ddof), scale=scale, sign=sign,
                        solver=self.solver, center=self.center, n_components=nc, seed=seed,
                        jobs=1 if self.n_jobs is None else check_n_jobs(self.n_jobs), parallel_quantile=quantile)

    def _check_flags(self) -> None:
        """``center`` and ``whiten`` are bools (numpy's bool too: it has the same two values)."""
        for flag in ("center", "whiten"):
            value = getattr(self, flag)
            numpy_bool = type(value).__name__ in ("bool_", "bool") and type(value).__module__ == "numpy"
            if not isinstance(value, bool) and not numpy_bool:
                raise PurePCAError(f"{flag} must be True or False, got {value!r}")

    def _context(self) -> Context:
        """The number context the parameter ``precision`` names (a number of digits or a Context)."""
        try:
            return get_context(self.precision)
        except PurePCAError as err:
            raise PurePCAError(f"{err} (the PCA parameter precision)") from None

    def _choose_solver(self, n: int, d: int) -> str:
        """The path a fit of n x d data takes (what ``solver="auto"`` picks)."""
        return self._settings().choose_solver(n, d)

    # --------------------------------------------------------------- fitting

    def _feature_names(self, X: Any) -> Optional[list[str]]:
        columns = getattr(X, "columns", None)
        if columns is None:
            return None
        names = list(columns)
        return [str(c) for c in names] if names and all(isinstance(c, str) for c in names) else None

    def _assign(self, state: PCAState, rows: Optional[Union[list[list[Scalar]], ColumnRows]],
                cache: Optional[dict[str, Any]] = None) -> None:
        """The one place a fit changes the estimator: the record, the rows, a fresh cache."""
        vars(self).pop("_pending", None)
        vars(self).update(_state=state, _rows=rows, _cache={} if cache is None else cache)

    def fit(self, X: Any, y: Any = None, sample_weight: Any = None, column_weight: Any = None) -> "PCA":
        """Fit the model to the rows of ``X`` (n_samples x n_features); returns self (the training scores:
        :meth:`fit_transform`).  ``sample_weight`` (one per row) and ``column_weight`` (one per column), each
        >= 0: :mod:`purepca.weights` (a weight of 2 is the row repeated; the divisor is ``Σw - ddof``).

        >>> PCA().fit([[0, 0], [1, 1], [2, 2.5]]).n_components_
        2
        """
        # All or nothing by construction: the fit is built aside and _assign is its only change.
        unweighted = sample_weight is None and column_weight is None
        fitted = self._fit_columns(X) if _fast_columns is not None and unweighted else None
        self._assign(*(fitted or self._fit(X, sample_weight, column_weight)))
        return self

    def _fit_columns(self, X: Any) -> Optional[tuple[PCAState, ColumnRows]]:
        """A kernel (purepca.fast) validates a list of float rows straight into the columns the fit
        works on, kept as such (the rows are built if they are asked for); None: take the rows."""
        s = self._settings()
        cols = _fast_columns(X) if _fast_columns is not None and s.ctx is FLOAT and self.missing == "error" else None
        if cols is None:
            return None
        kept = ColumnRows(cols)
        return fit_rows(s, kept, None, None, self._feature_names(X)), kept

    def _fit(self, X: Any, sample_weight: Any, column_weight: Any) -> tuple[PCAState, list[list[Scalar]]]:
        """Validate X and the weights once; fit, with the missing cells handled as ``missing`` says."""
        s = self._settings()
        fit: FitFunction = functools.partial(fit_rows, s, feature_names=self._feature_names(X))
        if self.missing != "error":
            return self._fit_missing(s, X, sample_weight, column_weight, fit)
        M = as_matrix(X, name="X", context=s.ctx)
        if sample_weight is None and column_weight is None:
            return fit(M, None, None), M
        w = check_weights(sample_weight, len(M), "sample_weight", "rows")
        return fit(M, w, check_weights(column_weight, len(M[0]), "column_weight", "columns", positive=True)), M

    def _fit_missing(self, s: Settings, X: Any, sample_weight: Any, column_weight: Any,
                     fit: FitFunction) -> tuple[PCAState, list[list[Scalar]]]:
        """The fit of rows with missing cells (None or NaN), handled as ``missing`` says."""
        rows, holes = with_holes(X)
        # Every cell that is not missing is validated as usual (a hole counts as 0.0 for that).
        valid = as_matrix([[0.0 if v is None else v for v in row] for row in rows], name="X")
        grid = [[None if v is None else float(x) for v, x in zip(row, vrow)] for row, vrow in zip(rows, valid)]
        w = check_weights(sample_weight, len(grid), "sample_weight", "rows")
        cw = check_weights(column_weight, len(grid[0]), "column_weight", "columns", positive=True)
        return fit_missing(s, self.missing, grid, holes, w, cw, fit, self.EM_TOL, self.EM_MAX_ITER)

    @atomic
    def fit_transform(self, X: Any, y: Any = None, sample_weight: Any = None,
                      column_weight: Any = None) -> list[list[float]]:
        """Fit, then return the scores of the training data (equal to ``fit(X).transform(X)``);
        the weights are :meth:`fit`'s.

        >>> PCA(1).fit_transform([[0.0, 0.0], [2.0, 0.0]])
        [[-1.0], [1.0]]
        """
        state, M = self._fit(X, sample_weight, column_weight)
        scores = self._scores(state, M)
        self._assign(state, M, {"x": scores})
        return self._output([list(row) for row in scores], X)

    @atomic
    def partial_fit(self, X: Any, y: Any = None) -> "PCA":
        """Add rows and refit exactly: after any sequence of calls the model
        equals ``fit`` on all the rows so far (to rounding).

        The rows go into a streaming :class:`~purepca.Moments` (memory O(d²));
        the model is refitted from its covariance with the Jacobi solver.  A
        batch with a bad row is rejected whole, leaving the model as it was.

        >>> pca = PCA(1)
        >>> _ = pca.partial_fit([[0.0, 0.0], [1.0, 1.0]]).partial_fit([[2.0, 2.0]])
        >>> pca.n_samples_, [round(c, 12) for c in pca.components_[0]]
        (3, [0.707106781187, 0.707106781187])
        """
        s = self._settings()
        ctx = s.ctx
        M = as_matrix(X, name="X", context=ctx)
        moments = self._state.moments if self._state is not None else vars(self).get("_pending")
        if moments is None and self._state is not None:
            moments = self._moments_of_fit()
        if moments is None:
            moments = Moments(context=ctx)
        elif moments.context != ctx:
            raise PurePCAError(
                f"precision changed between partial_fit calls ({moments.context.name} to {ctx.name}); "
                "the rows seen so far were accumulated at the old precision: refit from the start"
            )
        if moments.n and len(M[0]) != moments.d:
            raise PurePCAError(
                f"X has {len(M[0])} features, but PCA is expecting {moments.d} features as input "
                "(what partial_fit has seen)"
            )
        trial = Moments(context=ctx)
        trial.merge(moments)
        trial._add_validated(M)
        if trial.n < 2:
            vars(self).update(_pending=trial)
            return self
        state = _fit_moments(s, trial, "partial_fit")
        self._assign(state.replace(moments=trial, feature_names_in_=self._feature_names(X)), None)
        return self

    def _moments_of_fit(self) -> Moments:
        """The moments of the rows a ``fit`` saw, for a ``partial_fit`` that continues it (as
        scikit-learn's IncrementalPCA does: ``n_samples_`` counts both); a fit they cannot stand for
        (weighted, with missing cells, or from moments or a stream) is refused rather than dropped."""
        state = self._fitted_state()
        if (state.sample_weight is not None or state.column_weight is not None or state.imputed_ is not None
                or state.n_dropped_ or self._rows is None):
            what = "a fit with weights or missing cells" if self._rows is not None else f"{state.source} (no rows kept)"
            raise PurePCAError(f"partial_fit after {what}: the rows seen so far cannot be added to; fit all the "
                               "rows again, or call partial_fit from the first batch")
        moments = Moments(context=state.ctx)
        moments._add_validated(self._training_rows("partial_fit"))
        return moments

    @atomic
    def fit_stream(self, rows: Iterable[Sequence[float]], y: Any = None, *, chunk_size: int = 4096) -> "PCA":
        """Fit from any iterable of rows in one pass, with O(d²) memory.

        >>> pca = PCA().fit_stream(([i, 2.0 * i + (i % 2)] for i in range(100)))
        >>> pca.n_samples_
        100
        """
        s = self._settings()
        moments = Moments(context=s.ctx, chunk_size=chunk_size)
        moments.update_many(rows)
        if moments.n < 2:
            raise PurePCAError(f"rows: PCA needs at least 2 samples, got {moments.n}")
        self._assign(_fit_moments(s, moments, "fit_stream"), None)
        return self

    @atomic
    def fit_moments(self, moments: Moments) -> "PCA":
        """Fit from streaming :class:`~purepca.Moments` (the mean and covariance of the rows they
        saw): the fit of a distributed job, whose partitions each built their moments
        (``Moments.from_rows``) and merged them.  The result equals ``fit`` on all the rows with the
        covariance solver (to rounding); no rows are kept, so what needs them (``x``,
        ``error_bounds_``, contributions) says so.

        >>> from purepca import Moments
        >>> rows = [[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], [3.0, 2.0]]
        >>> a, b = Moments(), Moments()
        >>> a.update_many(rows[:2]); b.update_many(rows[2:])
        >>> merged = PCA().fit_moments(a.merge(b))
        >>> full = PCA().fit(rows)
        >>> [round(v, 12) for v in merged.explained_variance_] == [round(v, 12) for v in full.explained_variance_]
        True
        """
        if not isinstance(moments, Moments):
            raise PurePCAError(f"moments: expected a purepca.Moments, got {type(moments).__name__}")
        s = self._settings()
        self._assign(_fit_moments(s, moments), None)
        return self

    # ------------------------------------------------------------- the record

    def _fitted_state(self) -> PCAState:
        """The fitted record, or NotFittedError (an AttributeError, so ``hasattr`` is False before a fit)."""
        state = self._state
        if state is None:
            seen = vars(self).get("_pending")
            extra = f" (partial_fit has seen {seen.n} sample; it needs 2)" if seen is not None and seen.n else ""
            raise NotFittedError(f"this PCA is not fitted yet; call fit, partial_fit or fit_stream first{extra}")
        return state

    def _fitted(self) -> None:
        self._fitted_state()

    def _is_fitted(self) -> bool:
        return self._state is not None

    def _training_rows(self, what: str) -> list[list[Scalar]]:
        """The training rows, or an error saying why the model has none."""
        state = self._fitted_state()
        if self._rows is None:
            how = {"model file": "a model file does not carry them; refit with fit(X)"}.get(
                state.source, f"{state.source} keeps only the moments (partial_fit, fit_stream); fit it with fit(X)")
            raise PurePCAError(f"{what}: the model keeps no training rows ({how})")
        return self._rows.rows() if isinstance(self._rows, ColumnRows) else self._rows

    def _read(self, X: Any) -> list[list[Scalar]]:
        """New rows validated once, at the fit's precision, with the fitted number of features (read,
        never changed nor kept, by every caller: a list of float rows may come back as it is)."""
        state = self._fitted_state()
        M = as_matrix(X, name="X", context=state.ctx, copy=False)
        if len(M[0]) != state.n_features_in_:
            raise PurePCAError(f"X has {len(M[0])} features, but PCA is expecting {state.n_features_in_} "
                               "features as input")
        names = self._feature_names(X)
        fitted = state.feature_names_in_
        if names is not None and fitted is not None and names != fitted:
            raise PurePCAError(f"X has feature names {names}, but PCA was fitted with {fitted}")
        return M

    @property
    def components_(self) -> list[list[float]]:
        """The principal axes as rows (k x d)."""
        return self._fitted_state().components_

    @property
    def explained_variance_(self) -> list[float]:
        """The k variances (divisor ``n - ddof``)."""
        return self._fitted_state().explained_variance_

    @property
    def explained_variance_ratio_(self) -> list[float]:
        """The k fractions of the total variance."""
        return self._fitted_state().explained_variance_ratio_

    @property
    def singular_values_(self) -> list[float]:
        """The k singular values of the centred (scaled) data."""
        return self._fitted_state().singular_values_

    @property
    def mean_(self) -> list[float]:
        """The d column means (zeros when ``center=False``)."""
        return self._fitted_state().mean_

    @property
    def scale_(self) -> Optional[list[float]]:
        """The d scales (standard deviations), or None when not scaling."""
        return self._fitted_state().scale_

    @property
    def noise_variance_(self) -> float:
        """The noise variance of probabilistic PCA: the mean of the discarded eigenvalues."""
        return self._fitted_state().noise_variance_

    @property
    def n_components_(self) -> int:
        """The number of components kept."""
        return self._fitted_state().n_components_

    @property
    def n_samples_(self) -> int:
        """The number of training rows."""
        return self._fitted_state().n_samples_

    @property
    def n_features_in_(self) -> int:
        """The number of columns."""
        return self._fitted_state().n_features_in_

    @property
    def solver_(self) -> str:
        """The solver that ran (what ``"auto"`` chose)."""
        return self._fitted_state().solver_

    @property
    def feature_names_in_(self) -> Optional[list[str]]:
        """The column names, when X had string ``columns`` (else None)."""
        return self._fitted_state().feature_names_in_

    @feature_names_in_.setter
    def feature_names_in_(self, names: Optional[Sequence[str]]) -> None:
        state = self._fitted_state()
        self._state = state.replace(feature_names_in_=None if names is None else [str(n) for n in names])

    @property
    def imputed_(self) -> Optional[list[list[float]]]:
        """The completed training data of ``missing="mean"`` or ``"em"`` (None when nothing was imputed)."""
        state = self._fitted_state()
        if state.source == "model file" and self.missing in ("mean", "em"):
            raise PurePCAError("imputed_: the completed training data are not in a model file (it keeps no "
                               "training rows); refit with fit(X)")
        return state.imputed_

    @property
    def n_dropped_(self) -> int:
        """The rows ``missing="drop"`` removed (0 otherwise)."""
        return self._fitted_state().n_dropped_

    @property
    def n_iter_(self) -> int:
        """The EM steps of ``missing="em"`` (0 for every other fit)."""
        return self._fitted_state().n_iter_

    @property
    def high_precision_(self) -> Optional[dict[str, Any]]:
        """With ``precision=N``, the results at N digits (Decimals) by attribute name; None for floats."""
        state = self._fitted_state()
        if state.ctx.name == "float":
            return None
        return {
            "components_": state.components, "explained_variance_": state.variance,
            "explained_variance_ratio_": state.ratios, "singular_values_": state.singular, "mean_": state.mean,
            "scale_": state.sd, "noise_variance_": state.noise,
        }

    # ------------------------------------------------------------- using it

    def hotelling_t2(self, X: Any) -> list[float]:
        """Hotelling's T² of each row: ``Σ_j t_j²/λ_j`` over the kept components, ``t`` the scores and
        ``λ`` the eigenvalues of the sample covariance (divisor n - 1, whatever the convention).

        >>> pca = PCA(1).fit([[0.0, 0.0], [1.0, 1.1], [2.0, 1.9], [3.0, 3.2]])
        >>> [round(v, 6) for v in pca.hotelling_t2([[1.5, 1.55], [4.0, 4.0]])]
        [0.0, 3.520709]
        """
        return monitoring.hotelling_t2(self._fitted_state(), self._read(X))

    def spe(self, X: Any) -> list[float]:
        """The squared prediction error (Q) of each row: the squared distance between the (centred and
        scaled) row and its projection on the kept components.

        >>> pca = PCA(1).fit([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.1]])
        >>> [round(v, 6) for v in pca.spe([[1.0, 2.0]])]
        [0.47557]
        """
        return monitoring.spe(self._fitted_state(), self._read(X))

    def t2_limit(self, alpha: float = 0.05, kind: str = "new") -> float:
        """The upper control limit of Hotelling's T² at level ``alpha``, from the F (or beta) distribution.

        ``kind="new"``: for a new row, ``k(n-1)(n+1)/(n(n-k))·F_(1-α)(k, n-k)``;
        ``kind="training"``: for a row of the training data,
        ``(n-1)²/n·Beta_(1-α)(k/2, (n-k-1)/2)`` (Tracy, Young and Mason 1992).
        The quantiles are :mod:`purepca.distributions` (no scipy).

        >>> pca = PCA(2).fit([[0.0, 0.0, 1.0], [1.0, 1.1, 0.0], [2.0, 1.9, 1.0], [3.0, 3.2, 0.5], [1.0, 0.0, 0.0],
        ...                   [2.0, 2.5, 0.2]])
        >>> round(pca.t2_limit(0.05), 6), round(pca.t2_limit(0.05, "training"), 6)
        (20.254126, 3.601163)
        """
        state = self._fitted_state()
        return monitoring.t2_limit(state, _alpha(alpha), kind)

    def spe_limit(self, alpha: float = 0.05) -> float:
        """The upper control limit of the SPE at level ``alpha`` (Jackson and Mudholkar 1979).

        With ``θ_i = Σ_(j>k) λ_j^i`` over the discarded eigenvalues (divisor n - 1),
        ``h0 = 1 - 2θ1θ3/(3θ2²)`` and ``c`` the normal quantile of ``1 - α``:
        ``Q = θ1·(c·sqrt(2θ2h0²)/θ1 + 1 + θ2h0(h0 - 1)/θ1²)^(1/h0)``.  Needs every
        eigenvalue (not a top-k solver); 0 when nothing was discarded.

        >>> pca = PCA(1).fit([[0.0, 0.0, 1.0], [1.0, 1.1, 0.0], [2.0, 1.9, 1.0], [3.0, 3.2, 0.5], [1.0, 0.0, 0.0]])
        >>> round(pca.spe_limit(0.05), 6)
        1.132233
        """
        state = self._fitted_state()
        return monitoring.spe_limit(state, _alpha(alpha))

    # ------------------------------------------------ FactoMineR's outputs

    def row_coordinates(self, X: Any) -> list[list[float]]:
        """FactoMineR's ``ind$coord`` (and ``ind.sup$coord`` for new rows): the scores, never whitened.

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> [round(v, 6) for v in pca.row_coordinates([[1.0, 2.0]])[0]]
        [-1.307252, -0.590115]
        """
        return plain_scores(self._fitted_state(), self._read(X))

    def row_distances(self, X: Any) -> list[float]:
        """FactoMineR's ``ind$dist``: each row's distance to the centre, in the (scaled) space of the fit.

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> round(pca.row_distances([[1.0, 2.0]])[0], 6)
        1.434274
        """
        return interpretation.row_distances(self._fitted_state(), self._read(X))

    def row_cos2(self, X: Any) -> list[list[float]]:
        """FactoMineR's ``ind$cos2``: the squared cosine of the angle between each row and each component,
        ``coord²/dist²`` (a row's cos² over all components sums to 1).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> round(sum(pca.row_cos2([[1.0, 2.0]])[0]), 12)
        1.0
        """
        return interpretation.row_cos2(self._fitted_state(), self._read(X))

    @property
    def row_contributions_(self) -> list[list[float]]:
        """FactoMineR's ``ind$contrib`` for the training rows, in percent:
        ``100·coord²/((n - ddof)·λ)`` (each component's column sums to 100).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> round(sum(row[0] for row in pca.row_contributions_), 10)
        100.0
        """
        return interpretation.row_contributions(self._fitted_state(), self._training_rows("row_contributions_"))

    @property
    def column_coordinates_(self) -> list[list[float]]:
        """FactoMineR's ``var$coord``: ``v_jc·sqrt(λ_c)/sqrt(w_j)``, a row per column of X (d x k), with
        ``w_j`` the column weight (1 without ``column_weight``).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> [round(v, 6) for v in pca.column_coordinates_[0]]
        [0.956954, 0.29024]
        """
        return interpretation.column_coordinates(self._fitted_state())

    @property
    def column_correlations_(self) -> list[list[float]]:
        """FactoMineR's ``var$cor``: the correlation of each column with each component (d x k).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> [round(v, 6) for v in pca.column_correlations_[1]]
        [0.956954, -0.29024]
        """
        return interpretation.column_correlations(self._fitted_state(), self._training_rows("column_correlations_"))

    @property
    def column_cos2_(self) -> list[list[float]]:
        """FactoMineR's ``var$cos2``: the squared correlations (d x k).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> round(sum(pca.column_cos2_[0]), 12)
        1.0
        """
        return [[c * c for c in row] for row in self.column_correlations_]

    @property
    def column_contributions_(self) -> list[list[float]]:
        """FactoMineR's ``var$contrib`` in percent: ``100·coord²/λ = 100·v_jc²`` (each component sums to 100).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> [round(sum(col), 10) for col in zip(*pca.column_contributions_)]
        [100.0, 100.0]
        """
        return interpretation.column_contributions(self._fitted_state())

    def supplementary_columns(self, X_sup: Any) -> dict[str, list[list[float]]]:
        """FactoMineR's ``quanti.sup``: columns measured on the training rows but not in the analysis
        (n x q), projected: ``coord`` (for a scaled PCA, the correlation with each component), ``cor``
        and ``cos2``.  Each column is centred by its mean and, for a scaled PCA, divided by its standard
        deviation (divisor n - ddof), as FactoMineR does.

        >>> X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]]
        >>> pca = PCA(convention="factominer").fit(X)
        >>> sup = pca.supplementary_columns([[r[0]] for r in X])   # an active column again: its own correlations
        >>> [round(v, 6) for v in sup["cor"][0]] == [round(v, 6) for v in pca.column_correlations_[0]]
        True
        """
        state = self._fitted_state()
        rows = self._training_rows("supplementary_columns")
        S = [[float(v) for v in row] for row in as_matrix(X_sup, name="X_sup")]
        return interpretation.supplementary_columns(state, rows, S)

    def supplementary_column_correlations(self, X_sup: Any) -> list[list[float]]:
        """FactoMineR's ``quanti.sup$cor``: the correlation of each supplementary column with each
        component (q x k); :meth:`supplementary_columns` gives the coordinates and cos² too.

        >>> X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]]
        >>> pca = PCA(convention="factominer").fit(X)
        >>> [round(v, 6) for v in pca.supplementary_column_correlations([[1.0], [2.0], [3.0], [5.0]])[0]]
        [0.579394, 0.433718]
        """
        return self.supplementary_columns(X_sup)["cor"]

    def supplementary_categories(self, labels: Sequence[Any]) -> dict[str, Any]:
        """FactoMineR's ``quali.sup`` for one categorical variable measured on the training rows (one
        label per row): each category (in sorted order, as R orders a factor's levels) is the weighted
        barycentre of its rows, projected like a new row.

        ``coord``: the barycentre's coordinates (the weighted mean of its rows' coordinates);
        ``dist`` and ``cos2``: its distance to the centre and ``coord²/dist²``; ``v_test``:
        ``coord/sqrt(λ)·sqrt(n_l·(N - 1)/(N - n_l))``, N the number of rows (the sum of the sample
        weights) and n_l the category's, a standard normal under random allocation (Lebart's
        test value; 0 for a category that holds every row); ``eta2``: for each component the
        correlation ratio, the share of the coordinates' variance that lies between the categories.
        The formulas are FactoMineR's ``PCA.R`` (``fct.eta2`` and the ``quali.sup`` block).

        >>> X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0], [5.0, 4.5], [0.5, 1.5]]
        >>> pca = PCA(convention="factominer", scale=True).fit(X)
        >>> cats = pca.supplementary_categories(["a", "a", "b", "b", "b", "a"])
        >>> cats["levels"], [round(v, 4) for v in cats["coord"][1]]
        (['a', 'b'], [1.2617, -0.0033])
        >>> [round(v, 4) for v in cats["eta2"]]
        [0.853, 0.0001]
        """
        state = self._fitted_state()
        return interpretation.supplementary_categories(state, self._training_rows("supplementary_categories"), labels)

    def rotated_loadings(self, method: str = "varimax", *, normalize: bool = True, eps: float = 1e-5,
                         m: int = 4) -> "Rotation":
        """The loadings ``components_ᵀ·diag(sqrt(explained_variance_))`` (d x k, as R's
        ``pca$rotation %*% diag(pca$sdev)``) rotated by R's ``varimax`` or ``promax``
        (:mod:`purepca.rotations`).

        >>> from purepca.datasets import load
        >>> pca = PCA(2, convention="prcomp", scale=True).fit(load("usarrests").rows)
        >>> r = pca.rotated_loadings("varimax")
        >>> len(r.loadings), len(r.loadings[0]), len(r.rotmat)
        (4, 2, 2)
        """
        return interpretation.rotated_loadings(self._fitted_state(), method, normalize, eps, m)

    @property
    def error_bounds_(self) -> "ErrorBounds":
        """Rigorous bounds on the float result (computed on first use, at 60 digits; see :mod:`purepca.bounds`).

        ``explained_variance_[i]`` is an interval ``(low, high)`` that contains
        the exact i-th eigenvalue of the exact covariance (or correlation) of
        the training data as given, with the exact mean; ``components_[i]``
        bounds, in radians, the angle between ``components_[i]`` and the exact
        eigenvector (for a cluster of eigenvalues that cannot be told apart,
        ``clusters``, between the spans); for a weighted fit, of the exact
        weighted problem.  Every rounding is accounted for, so
        the bounds cannot be too small.  Needs the training rows: a model
        fitted by ``partial_fit`` or ``fit_stream`` has none.  Costs about
        ``2·n·d²`` operations on 60-digit decimals.

        The error of the float value is then at most its distance to the far
        end of the interval.

        >>> X = [[2.5, 2.4], [0.5, 0.7], [2.2, 2.9], [1.9, 2.2], [3.1, 3.0], [2.3, 2.7]]
        >>> pca = PCA().fit(X)
        >>> low, high = pca.error_bounds_.explained_variance_[0]
        >>> exact = PCA(precision=50).fit(X).high_precision_["explained_variance_"][0]
        >>> low <= exact <= high, (high - low) / float(exact) < 1e-15, pca.error_bounds_.components_[0] < 1e-15
        (True, True, True)
        """
        state = self._fitted_state()
        cache = self._cache if self._cache is not None else {}
        if "bounds" not in cache:
            from .bounds import covariance_operator, data_operator, enclose

            if self._rows is None and state.covariance is not None:  # fit_moments of exact moments
                apply, error = covariance_operator(state.covariance)
            else:
                rows = [[float(x) for x in row] for row in self._training_rows("error_bounds_")]
                apply, error = data_operator(rows, state.ddof, state.scaled, state.center, state.sample_weight,
                                             state.column_weight)
            found = enclose(apply, state.n_features_in_, state.components_, error)
            cache["bounds"] = ErrorBounds(found.values, found.angles, found.clusters)
        return cache["bounds"]  # type: ignore[no-any-return]

    def transform(self, X: Any) -> list[list[float]]:
        """Scores of the rows of ``X`` on the components (n_samples x k).

        >>> pca = PCA(1).fit([[0.0, 0.0], [2.0, 0.0]])
        >>> pca.transform([[3.0, 5.0]])
        [[2.0]]
        """
        return self._output(self._scores(self._fitted_state(), self._read(X)), X)

    def _scores(self, state: PCAState, M: list[list[Scalar]]) -> list[list[float]]:
        ctx = state.ctx
        Z = _score_rows(M, state.components, state.mean_hi, state.mean_lo, state.sd,
                        state.roots if self.whiten else None, ctx)
        return Z if ctx.name == "float" else _float_rows(Z, ctx, "the score")

    def inverse_transform(self, Z: Any) -> list[list[float]]:
        """Rows in feature space whose scores are ``Z`` (undoes whitening and scaling).

        >>> pca = PCA().fit([[1.0, 2.0], [3.0, 3.0], [0.0, 5.0]])
        >>> [[round(v, 12) for v in row] for row in pca.inverse_transform(pca.transform([[4.0, 4.0]]))]
        [[4.0, 4.0]]
        """
        state = self._fitted_state()
        ctx = state.ctx
        S = as_matrix(Z, name="Z", context=ctx)
        if len(S[0]) != state.n_components_:
            raise PurePCAError(f"Z has {len(S[0])} columns, but PCA has {state.n_components_} components")
        if self.whiten:
            S = _unwhiten(S, state.roots, ctx)
        X = _reconstruct_rows(S, state.components, state.mean_hi, state.mean_lo, state.sd, ctx)
        return _float_rows(X, ctx, "the reconstruction")

    def reconstruction_error(self, X: Any) -> float:
        """Mean over rows of ``‖x - inverse_transform(transform(x))‖²``.

        >>> PCA(1).fit([[0.0, 0.0], [2.0, 0.0], [1.0, 1e-9]]).reconstruction_error([[1.0, 1.0]]) > 0.9
        True
        """
        state = self._fitted_state()
        ctx = state.ctx
        M = self._read(X)
        hi, lo, sd = state.mean_hi, state.mean_lo, state.sd
        S = _score_rows(M, state.components, hi, lo, sd, None, ctx)
        R = _reconstruct_rows(S, state.components, hi, lo, sd, ctx)
        try:
            error = ctx.to_float(_reconstruction_error(M, R, ctx))
        except (OverflowError, ValueError):  # fsum: an intermediate overflow
            error = math.inf
        if not math.isfinite(error):
            raise PurePCAError("X: the reconstruction error (a mean of squared distances) is beyond the float "
                               "range; rescale the data")
        return error

    def get_feature_names_out(self, input_features: Any = None) -> list[str]:
        """scikit-learn's output names: ``pca0``, ``pca1``, ...

        >>> PCA(2).fit([[0, 1], [1, 0], [2, 2]]).get_feature_names_out()
        ['pca0', 'pca1']
        """
        return [f"pca{i}" for i in range(self._fitted_state().n_components_)]

    # ----------------------------------------------------- R's view of it

    @property
    def sdev(self) -> list[float]:
        """Standard deviations of the components (R's ``sdev``): ``sqrt(explained_variance_)``."""
        state = self._fitted_state()
        return [state.ctx.to_float(s) for s in state.roots]

    @property
    def rotation(self) -> list[list[float]]:
        """The components as columns, d x k (R's ``rotation`` / ``loadings``)."""
        return [list(col) for col in zip(*self.components_)]

    @property
    def x(self) -> list[list[float]]:
        """Scores of the training data, n x k (R's ``x``).

        Available after ``fit`` or ``fit_transform``; ``partial_fit`` and
        ``fit_stream`` do not keep the rows.
        """
        state = self._fitted_state()
        cache = self._cache if self._cache is not None else {}
        if "x" not in cache:
            if self._rows is None:
                raise NotFittedError("x (the training scores) needs fit(X) or fit_transform(X); partial_fit and "
                                     "fit_stream keep no rows" + (", nor does a model file"
                                                                  if state.source == "model file" else ""))
            cache["x"] = self._scores(state, self._training_rows("x"))
        return [list(row) for row in cache["x"]]

    @property
    def component_names(self) -> list[str]:
        """Names of the components as the convention prints them (PC1, Comp.1, Dim.1 ...)."""
        state = self._fitted_state()
        conv = CONVENTIONS[state.convention]
        return [conv.component_name(i) for i in range(state.n_components_)]

    def summary(self) -> PCASummary:
        """R's importance table: standard deviation, proportion and cumulative proportion."""
        ratios = self.explained_variance_ratio_
        cumulative = [math.fsum(ratios[: i + 1]) for i in range(len(ratios))]
        return PCASummary(self.component_names, self.sdev, list(ratios), cumulative)

    def _repr_html_(self) -> str:
        """What Jupyter shows for the model: R's importance table once fitted (:func:`~purepca.report.pca_html`)."""
        from .report import pca_html
        return pca_html(self)

    # ------------------------------------------- probabilistic PCA (sklearn)

    def get_covariance(self) -> list[list[float]]:
        """Covariance of the probabilistic PCA model: ``Wᵀ·diag(λ - σ²)·W + σ²·I``.

        As in scikit-learn, with ``whiten=True`` the rows of W are first
        multiplied by ``sqrt(λ)``.

        >>> pca = PCA().fit([[0.0, 0.0], [2.0, 2.0], [1.0, 0.0]])
        >>> [[round(v, 12) for v in row] for row in pca.get_covariance()]
        [[1.0, 1.0], [1.0, 1.333333333333]]
        """
        state = self._fitted_state()
        return _float_rows(probabilistic.get_covariance(state, self.whiten), state.ctx, "the model covariance")

    def get_precision(self) -> list[list[float]]:
        """Inverse of :meth:`get_covariance`, by the matrix inversion lemma (as scikit-learn).

        >>> pca = PCA(1).fit([[0.0, 0.0], [2.0, 2.1], [1.0, 0.0], [3.0, 2.5]])
        >>> P, C = pca.get_precision(), pca.get_covariance()
        >>> [[round(sum(a * b for a, b in zip(row, col)), 12) for col in zip(*C)] for row in P]
        [[1.0, 0.0], [0.0, 1.0]]
        """
        state = self._fitted_state()
        return _float_rows(probabilistic.get_precision(state, self.whiten), state.ctx, "the model precision")

    def score_samples(self, X: Any) -> list[float]:
        """Log-likelihood of each row under the probabilistic PCA model (as scikit-learn).

        ``-(xᵀPx + d·log 2π - log det P)/2`` with ``x`` the centred row and P
        the precision.

        >>> pca = PCA(1).fit([[0.0, 0.0], [2.0, 2.1], [1.0, 0.0], [3.0, 2.5]])
        >>> [round(v, 6) for v in pca.score_samples([[1.0, 1.0]])]
        [-1.697449]
        """
        return probabilistic.score_samples(self._fitted_state(), self._read(X), self.whiten)

    def score(self, X: Any, y: Any = None) -> float:
        """Average log-likelihood of the rows (scikit-learn's ``score``).

        >>> pca = PCA(1).fit([[0.0, 0.0], [2.0, 2.1], [1.0, 0.0], [3.0, 2.5]])
        >>> round(pca.score([[1.0, 1.0], [2.0, 2.0]]), 6)
        -1.725009
        """
        values = self.score_samples(X)
        return math.fsum(values) / len(values)
