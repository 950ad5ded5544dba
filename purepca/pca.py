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

import math
import numbers
from dataclasses import dataclass
import warnings
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from .base import Estimator, atomic
from .conventions import CONVENTIONS, SIGN_RULES, Convention, apply_sign_rule
from .covariance import Centred, Moments, _centred_columns, _cross_products, _divisor
from .errors import AccuracyWarning, ConvergenceError, NotFittedError, PurePCAError, float_range
from .imputation import squarem
from .linalg.cholesky import _spd_inverse
from .linalg.eigen import _eigh
from .linalg.matrix import as_matrix
from .numeric import Context, Scalar, get_context
from .parallel import check_n_jobs, parallel_gram
from .params import as_int, as_real, is_int
from .projection import _float_rows, _reconstruct_rows, _score_rows, reconstruction_error, unwhiten
from .report import PCASummary, format_table
from .rotations import Rotation
from .selection import broken_stick, components_for_fraction, infer_dimension, kaiser, parallel_analysis
from .weights import check_weights, weighted_data
from .solvers import (
    ACCURACY_TARGET,
    DEGENERATE_GAP,
    Spectrum,
    choose_solver,
    krylov_form,
    report_degenerate,
    solve_covariance,
    solve_gram,
    solve_krylov,
    solve_krylov_covariance,
    squared_path_errors,
    solve_power,
    solve_svd,
)

__all__ = ["ErrorBounds", "PCA", "PCASummary", "format_table"]

SOLVERS = ("auto", "covariance", "jacobi", "gram", "svd", "krylov", "power")
_UNDERFLOW = (
    "the values differ, but their variance underflows a float (a spread below about 1e-154 squares "
    "to below 1e-308); multiply the data by a large constant (PCA's components do not change)"
)
_PARAMS = (
    "n_components", "center", "scale", "ddof", "whiten", "solver", "sign", "convention", "precision", "seed", "n_jobs",
    "missing", "parallel_quantile",
)


def _with_holes(X: Any) -> tuple[list[list[Optional[float]]], list[tuple[int, int]]]:
    """The rows with None for each missing cell (None or NaN), and the (row, column) of each hole.

    Other cells are left for :func:`as_matrix` to validate after the holes are filled.
    """
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    if hasattr(X, "tolist"):
        X = X.tolist()
    try:
        rows = [list(row) for row in X]
    except TypeError:
        raise PurePCAError(f"X: expected a 2-D table of numbers, got {type(X).__name__}") from None
    if not rows or not rows[0]:
        raise PurePCAError("X: no data")
    holes = []
    out: list[list[Optional[float]]] = []
    for i, row in enumerate(rows):
        new: list[Optional[float]] = []
        for j, v in enumerate(row):
            if v is None or (isinstance(v, float) and v != v):
                new.append(None)
                holes.append((i, j))
            else:
                new.append(v)
        out.append(new)
    return out, holes


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
    # Fitted state that is not part of the public attributes.
    _x: Optional[list[list[float]]] = None  # training scores, once computed
    _train: Optional[list[list[Scalar]]] = None  # training rows, until x is asked for
    _fit_rows: Optional[list[list[Scalar]]] = None  # training rows, for error_bounds_ (None after partial_fit)
    _bounds: Optional["ErrorBounds"] = None
    _parallel_sd: Optional[list[float]] = None  # column standard deviations, for n_components="parallel"
    _moments: Optional[Moments] = None  # partial_fit's accumulator
    _weights: tuple[Optional[list[float]], Optional[list[float]]] = (None, None)  # sample and column weights

    def __init__(
        self,
        n_components: Union[None, int, float, str] = None,
        *,
        center: bool = True,
        scale: Optional[bool] = None,
        ddof: Optional[int] = None,
        whiten: bool = False,
        solver: str = "auto",
        sign: Optional[str] = None,
        convention: str = "sklearn",
        precision: Optional[int] = None,
        seed: int = 0,
        n_jobs: Optional[int] = None,
        missing: str = "error",
        parallel_quantile: float = 0.95,
    ) -> None:
        self.n_components = n_components
        self.center = center
        self.scale = scale
        self.ddof = ddof
        self.whiten = whiten
        self.solver = solver
        self.sign = sign
        self.convention = convention
        self.precision = precision
        self.seed = seed
        self.n_jobs = n_jobs
        self.missing = missing
        self.parallel_quantile = parallel_quantile

    def _settings(self) -> tuple[Context, Convention, int, bool, str]:
        """Validate the parameters; resolve the convention and the overrides."""
        if self.convention not in CONVENTIONS:
            raise PurePCAError(f"convention must be one of {', '.join(map(repr, CONVENTIONS))}; got {self.convention!r}")
        conv = CONVENTIONS[self.convention]
        ddof = conv.ddof if self.ddof is None else self.ddof
        if isinstance(ddof, bool) or not isinstance(ddof, numbers.Integral) or ddof < 0:
            raise PurePCAError(f"ddof must be a non-negative int, got {self.ddof!r}")
        scale = conv.scale if self.scale is None else self.scale
        if not isinstance(scale, bool):
            raise PurePCAError(f"scale must be True, False or None, got {self.scale!r}")
        sign = conv.sign if self.sign is None else self.sign
        if sign not in SIGN_RULES:
            raise PurePCAError(f"sign must be one of {', '.join(map(repr, SIGN_RULES))} or None; got {self.sign!r}")
        if self.solver not in SOLVERS:
            raise PurePCAError(f"solver must be one of {', '.join(map(repr, SOLVERS))}; got {self.solver!r}")
        for flag in ("center", "whiten"):
            if not isinstance(getattr(self, flag), bool):
                raise PurePCAError(f"{flag} must be True or False, got {getattr(self, flag)!r}")
        as_int(self.seed, "seed")
        if as_real(self.parallel_quantile, "parallel_quantile", low=0.0, high=1.0, low_open=True) == 1.0:
            raise PurePCAError("parallel_quantile must be strictly between 0 and 1, got 1.0")
        nc = self.n_components
        if not (
            nc is None
            or nc in ("mle", "kaiser", "broken_stick", "parallel")
            or (is_int(nc) and nc >= 0)
            or (isinstance(nc, float) and 0.0 < nc < 1.0)
        ):
            raise PurePCAError(
                "n_components must be None, an int >= 0, a float strictly between 0 and 1, 'mle', 'kaiser', "
                f"'broken_stick' or 'parallel'; got {nc!r}"
            )
        try:
            ctx = get_context(self.precision)
        except PurePCAError as err:
            raise PurePCAError(f"{err} (the PCA parameter precision)") from None
        return ctx, conv, int(ddof), scale, sign

    def _check_k(self, n: int, d: int, solver: str) -> None:
        nc = self.n_components
        limit = min(n, d)
        if isinstance(nc, numbers.Integral) and not isinstance(nc, bool) and nc > limit:
            raise PurePCAError(
                f"n_components={nc} must be at most min(n_samples, n_features) = min({n}, {d}) = {limit}"
            )
        if nc == "mle" and n < d:
            raise PurePCAError(
                f"n_components='mle' is only supported if n_samples >= n_features; got {n} samples and {d} features"
            )
        if solver in ("power", "krylov") and not (is_int(nc) and int(nc) >= 1):  # type: ignore[arg-type]
            raise PurePCAError(
                f"solver={solver!r} computes only the top k components: n_components must be an int >= 1, got {nc!r}"
            )

    def _wanted(self) -> Optional[int]:
        """n_components when it is an int (known before the spectrum), else None."""
        nc = self.n_components
        return int(nc) if isinstance(nc, numbers.Integral) and not isinstance(nc, bool) else None

    def _choose_solver(self, n: int, d: int) -> str:
        if self.solver != "auto":
            return self.solver
        return choose_solver(n, d, self._wanted() or None)  # n_components=0: the full spectrum, none kept

    # --------------------------------------------------------------- fitting

    def _read(self, X: Any, ctx: Context, name: str = "X") -> list[list[Scalar]]:
        return as_matrix(X, name=name, context=ctx)

    def _feature_names(self, X: Any) -> Optional[list[str]]:
        columns = getattr(X, "columns", None)
        if columns is None:
            return None
        names = list(columns)
        return [str(c) for c in names] if names and all(isinstance(c, str) for c in names) else None

    @atomic
    def fit(self, X: Any, y: Any = None, sample_weight: Any = None, column_weight: Any = None) -> "PCA":
        """Fit the model to the rows of ``X`` (n_samples x n_features); returns self.

        Computes the means, the spectrum and the axes, and nothing more: the
        training scores come from :meth:`fit_transform`, or from ``x`` when
        it is first asked for.

        ``sample_weight`` (one per row, >= 0) are frequencies: the means and
        variances are weighted and the divisor is ``Σw - ddof``, so integer
        weights give the fit of the rows repeated (FactoMineR's ``row.w``,
        which it normalises to sum to 1, is the same analysis with
        ``ddof=0``).  ``column_weight`` (one per column, >= 0) multiplies each
        column's share of every squared distance (FactoMineR's ``col.w``): the
        column is divided by ``sqrt(c_j)`` more, which ``scale_`` includes.
        See :mod:`purepca.weights`.

        >>> PCA().fit([[0, 0], [1, 1], [2, 2.5]]).n_components_
        2
        >>> a = PCA().fit([[0.0, 1.0], [1.0, 0.0], [3.0, 3.5]], sample_weight=[2, 1, 1])
        >>> b = PCA().fit([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [3.0, 3.5]])
        >>> [round(v, 12) for v in a.explained_variance_] == [round(v, 12) for v in b.explained_variance_]
        True
        """
        M = self._fit(X, sample_weight, column_weight)
        self._train = M
        return self

    #: missing="em": stop when no imputed value moved by more than this, relative to the data's spread.
    EM_TOL = 1e-10
    EM_MAX_ITER = 1000

    def _fit(self, X: Any, sample_weight: Any = None, column_weight: Any = None) -> list[list[Scalar]]:
        """Fit with the missing cells (None or NaN) handled as ``missing`` says; return the validated rows."""
        weights = (sample_weight, column_weight)
        if self.missing == "error":
            self.imputed_ = None
            self.n_dropped_ = 0
            self.n_iter_ = 0
            return self._fit_complete(X, *weights)
        if self.missing not in ("drop", "mean", "em"):
            raise PurePCAError(f"missing must be 'error', 'drop', 'mean' or 'em'; got {self.missing!r}")
        rows, holes = _with_holes(X)
        # Every cell that is not missing is validated as usual (a hole counts as 0.0 for that).
        valid = as_matrix([[0.0 if v is None else v for v in row] for row in rows], name="X")
        rows = [[None if v is None else float(w) for v, w in zip(row, vrow)] for row, vrow in zip(rows, valid)]
        d = len(rows[0])
        w = check_weights(sample_weight, len(rows), "sample_weight", "rows")
        if self.missing == "drop":
            whole = [i for i, row in enumerate(rows) if all(v is not None for v in row)]
            kept = [rows[i] for i in whole]
            if len(kept) < 2:
                raise PurePCAError(f"X: {len(rows) - len(kept)} of {len(rows)} rows have a missing value; "
                                   f"missing='drop' leaves {len(kept)}, and PCA needs at least 2")
            M = self._fit_complete(kept, None if w is None else [w[i] for i in whole], column_weight)
            self.imputed_, self.n_dropped_, self.n_iter_ = None, len(rows) - len(kept), 0
            return M
        means = []
        for j in range(d):
            present = [(row[j], 1.0 if w is None else w[i]) for i, row in enumerate(rows) if row[j] is not None]
            if not present or not any(wi > 0 for _, wi in present):
                raise PurePCAError(f"X: column {j} has no value at all (of positive weight); it cannot be imputed")
            # The (weighted) mean of the values present.
            means.append(math.fsum(v * wi for v, wi in present) / math.fsum(wi for _, wi in present))  # type: ignore
        filled = [[means[j] if v is None else float(v) for j, v in enumerate(row)] for row in rows]
        weights = (w, column_weight)
        if self.missing == "mean" or not holes:
            M = self._fit_complete(filled, *weights)
            self.imputed_, self.n_dropped_, self.n_iter_ = [list(r) for r in filled], 0, 0
            return M
        nc = self.n_components
        if not (is_int(nc) and 1 <= int(nc) < d):  # type: ignore[arg-type]
            raise PurePCAError(f"missing='em' imputes with the model's own components: n_components must be an int "
                               f"between 1 and n_features - 1 = {d - 1}, got {nc!r}")
        if self.convention == "statsmodels":
            return self._fit_em_statsmodels(rows, holes, int(nc), w, column_weight)  # type: ignore[arg-type]

        def rebuild(grid: list[list[float]]) -> list[list[float]]:
            """missMDA's step: the model re-fitted, means included; the data reconstructed from k components."""
            self._fit_complete(grid, *weights)
            return self.inverse_transform(self.transform(grid))

        steps = self._em_fixed_point(filled, holes, rebuild)
        M = self._fit_complete(filled, *weights)
        self.imputed_, self.n_dropped_, self.n_iter_ = [list(r) for r in filled], 0, steps
        return M

    def _em_fixed_point(self, grid: list[list[float]], holes: list[tuple[int, int]],
                        rebuild: Callable[[list[list[float]]], list[list[float]]]) -> int:
        """Fill the ``holes`` of ``grid`` (in place) with the fixed point of ``rebuild`` read at the holes,
        accelerated by :func:`~purepca.imputation.squarem`, to ``EM_TOL`` of the grid's spread; return
        the number of steps."""
        spread = max(max(col) - min(col) for col in zip(*grid)) or 1.0

        def step(values: list[float]) -> list[float]:
            for (i, j), v in zip(holes, values):
                grid[i][j] = v
            rebuilt = rebuild(grid)
            return [rebuilt[i][j] for i, j in holes]

        values, steps = squarem(step, [grid[i][j] for i, j in holes], self.EM_TOL * spread, self.EM_MAX_ITER)
        for (i, j), v in zip(holes, values):
            grid[i][j] = v
        return steps

    def _fit_em_statsmodels(self, rows: list[list[Optional[float]]], holes: list[tuple[int, int]], k: int,
                            w: Optional[list[float]], column_weight: Any) -> list[list[Scalar]]:
        """``missing="em"`` as statsmodels' ``fill-em`` does it: each column is centred (and, with
        ``scale``, divided) once by the mean (and the standard deviation, divisor n) of its present
        values; the holes start at 0 and take the rank-k reconstruction of the standardised data
        *about zero* (no centring inside the loop) until they stop moving; they are then carried back
        to the data's units and the model is fitted on the completed data.  missMDA re-centres at
        every step, and the two fixed points differ."""
        if w is not None:
            raise PurePCAError("missing='em' under convention='statsmodels' has no sample weights (statsmodels' "
                               "fill-em has none); use another convention for a weighted imputation")
        d = len(rows[0])
        scale = self._settings()[3]
        mu, sigma = [], []
        for j in range(d):
            present = [float(row[j]) for row in rows if row[j] is not None]  # type: ignore[arg-type]
            m = math.fsum(present) / len(present)
            mu.append(m if self.center else 0.0)
            s = math.sqrt(math.fsum((x - m) ** 2 for x in present) / len(present))
            if scale:
                if s == 0:
                    raise PurePCAError(f"X: column {j} is constant where present; it cannot be standardised")
                sigma.append(s)
            else:
                sigma.append(1.0)
        Y = [[0.0 if v is None else (float(v) - mu[j]) / sigma[j] for j, v in enumerate(row)] for row in rows]
        inner = PCA(k, center=False, scale=False, solver="svd" if self.solver == "auto" else self.solver,
                    sign="none", precision=self.precision)

        def rebuild(grid: list[list[float]]) -> list[list[float]]:
            """fill-em's step: the rank-k reconstruction of the standardised data about zero."""
            inner.fit(grid)
            return inner.inverse_transform(inner.transform(grid))

        steps = self._em_fixed_point(Y, holes, rebuild)
        filled = [[float(v) if v is not None else Y[i][j] * sigma[j] + mu[j] for j, v in enumerate(row)]
                  for i, row in enumerate(rows)]
        M = self._fit_complete(filled, None, column_weight)
        self.imputed_, self.n_dropped_, self.n_iter_ = filled, 0, steps
        return M

    def _fit_complete(self, X: Any, sample_weight: Any = None, column_weight: Any = None) -> list[list[Scalar]]:
        """Validate X (and the weights) once, fit, and return the validated rows."""
        ctx, conv, ddof, scale, sign = self._settings()
        jobs = check_n_jobs(self.n_jobs)
        M = self._read(X, ctx)
        n, d = len(M), len(M[0])
        if n < 2:
            raise PurePCAError(f"X: PCA needs at least 2 samples, got n_samples = {n}")
        w = check_weights(sample_weight, n, "sample_weight", "rows")
        cw = check_weights(column_weight, d, "column_weight", "columns", positive=True)
        weighted = w is not None or cw is not None
        if weighted and self.n_components in ("mle", "parallel"):
            raise PurePCAError(f"n_components={self.n_components!r} assumes equally weighted rows and columns; "
                               "with sample_weight or column_weight choose k by an int, a fraction, 'kaiser' or "
                               "'broken_stick'")
        solver = self._choose_solver(n, d)
        self._check_k(n, d, solver)
        div = _divisor(n, ddof, ctx)
        with ctx.local():
            cols = list(zip(*M))
            if weighted:
                # The weighted problem is the unweighted one of Y = D_w^½·Z·D_c^½
                # (purepca.weights), already centred: the solvers below take its
                # columns with no mean to remove and no scale to apply.
                # A constant column is judged on the rows of positive weight.
                counted = cols if w is None else [[x for x, wi in zip(col, w) if wi > 0] for col in cols]
                wd = weighted_data(M, w, cw, ddof, self.center, (lambda s: self._scales(s, ctx, counted)) if scale
                                   else None, ctx)
                div, e, raw_sd, sd = wd.div, 0, None, None
                zeros = [ctx.zero] * d
                c = Centred(wd.hi, zeros, wd.cols, zeros, [0] * d)
                if any(not math.isfinite(ctx.to_float(v)) for col in wd.cols for v in col):
                    raise PurePCAError("X: the weighted, centred data overflow a float; divide the data or the "
                                       "weights by a power of ten")
            else:
                c = self._centre(cols, ctx)
                # Data whose spread is near overflow or underflow (beyond about
                # 1e±146) are scaled by a power of two, exactly, as LAPACK's drivers
                # do; variances are scaled back at the end.
                e = 0
                if ctx.needs_scaling:
                    try:
                        spread = max(ctx.ldexp(max(map(abs, col)), ej) for col, ej in zip(c.cols, c.exps))
                        e = ctx.scale_exponent(spread)
                    except OverflowError:  # a spread beyond the float range: its exponent
                        e = max(math.frexp(max(map(abs, col)))[1] + ej for col, ej in zip(c.cols, c.exps))
                raw_sd = self._column_sd(c, div, e, ctx) if scale else None
                sd = self._scales(raw_sd, ctx, cols, e) if raw_sd is not None else None
            # The sums of products: compensated dot products, or where those are
            # slow (CPython < 3.12) the polarization Gram, whose error is below
            # what the eigensolver adds (numeric.GramWork); over n_jobs processes.
            gram = parallel_gram(ctx, jobs, fast=True) or ctx.fast_gram
            k = self._wanted() or 0
            formed = solver in ("covariance", "jacobi") or (solver == "krylov" and krylov_form(n, d, k) == "covariance")
            if formed:
                method = "jacobi" if solver == "jacobi" else "auto"
                if sd is None:
                    C = _cross_products(c, ctx, div, gram, shift=2 * e)
                else:
                    # The correlation from the standardised columns themselves:
                    # no product of two standard deviations can underflow.
                    C = _cross_products(self._standardised(c, sd, e, ctx), ctx, div, gram)
                    for j in range(d):
                        if raw_sd is not None and sd[j] is raw_sd[j]:  # a genuine scale (not FactoMineR's 1)
                            C[j][j] = ctx.one
                if solver == "krylov":
                    found = solve_krylov_covariance(C, k, ctx, seed=as_int(self.seed, "seed"))
                else:
                    found = solve_covariance(C, min(n, d), ctx, method)
            else:
                Z = self._data_matrix(c, sd, e, ctx)
                if solver == "gram":
                    found = solve_gram(Z, div, ctx, gram)
                elif solver == "svd":
                    found = solve_svd(Z, div, ctx)
                elif solver == "krylov":
                    found = solve_krylov(Z, k, div, ctx, seed=as_int(self.seed, "seed"), gram=gram, jobs=jobs)
                else:
                    found = solve_power(Z, k, div, ctx, seed=as_int(self.seed, "seed"))
            # The covariance and Gram paths square the condition of the data: an
            # eigenvalue far below the largest may have lost the digits the data
            # hold.  "auto" then takes the SVD of the data itself.
            constant = sum(1 for col in c.cols if not any(col))  # deviations all zero: a constant column
            losses = self._losses(found, n, d - constant, ctx)
            if self.solver == "auto" and solver in ("covariance", "gram") and any(
                    err > ACCURACY_TARGET for err in losses):
                found = solve_svd(self._data_matrix(c, sd, e, ctx), div, ctx)
                solver = "svd"
                losses = []
        if not found.total > 0 and any(max(col) != min(col) for col in cols):
            raise PurePCAError(f"X: {_UNDERFLOW}")
        self._parallel_sd = None
        if self.n_components == "parallel" and sd is None:
            self._parallel_sd = [ctx.to_float(s) * 2.0 ** e for s in self._column_sd(c, div, e, ctx)]
        if weighted:
            self._finish(ctx, conv, sign, ddof, n, d, solver, wd.hi, wd.lo, wd.scales, found, 0, div=wd.div)
            self._weights = (w, cw)
            self._scaled = wd.sd is not None
        else:
            self._finish(ctx, conv, sign, ddof, n, d, solver, c.hi, c.lo, sd, found, e)
        if self.solver in ("covariance", "jacobi", "gram") and losses:
            self._warn_losses(losses, solver)
        self.feature_names_in_ = self._feature_names(X)
        self._moments = None
        self._fit_rows = M
        return M

    def _losses(self, found: Spectrum, n: int, varying: int, ctx: Context) -> list[float]:
        """Estimated relative errors of the eigenvalues that can be non-zero (at
        most n - 1 after centring, and one per column that is not constant),
        when ``found`` came from a formed covariance or Gram matrix (else none)."""
        if found.solver not in ("covariance", "gram"):
            return []
        structural = min(n - 1 if self.center else n, varying)
        values = [ctx.to_float(v) for v in found.values[:structural]]
        dim = len(found.components[0]) if found.solver == "covariance" and found.components else n
        return squared_path_errors(values, dim, ctx.to_float(ctx.eps))

    def _warn_losses(self, losses: list[float], solver: str) -> None:
        """The warning of a solver chosen by the user that may have lost digits."""
        k = self.n_components_
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
            stacklevel=5,
        )

    def _centre(self, cols: Sequence[Sequence[Scalar]], ctx: Context) -> Centred:
        """The columns centred about their means (``center=True``) or as they are."""
        if self.center:
            return _centred_columns(cols, ctx)
        zeros = [ctx.zero] * len(cols)
        exps = [ctx.scale_exponent(max(map(abs, col))) if ctx.needs_scaling else 0 for col in cols]
        scaled = [[ctx.ldexp(x, -ej) for x in col] if ej else list(col) for col, ej in zip(cols, exps)]
        return Centred(zeros, list(zeros), scaled, list(zeros), exps)

    @staticmethod
    def _column_sd(c: Centred, div: Scalar, e: int, ctx: Context) -> list[Scalar]:
        """Standard deviations of the centred columns, in units of ``2**e``."""
        n = ctx.convert(len(c.cols[0]))
        out = []
        for col, s, ej in zip(c.cols, c.sums, c.exps):
            ss = ctx.dot(col, col) - s * s / n
            out.append(ctx.ldexp(ctx.sqrt(ss / div), ej - e) if ss > 0 else ctx.zero)
        return out

    @staticmethod
    def _standardised(c: Centred, sd: list[Scalar], e: int, ctx: Context) -> Centred:
        """The centred columns divided by their standard deviations (``sd`` in
        units of ``2**e``), with their sums: what the correlation is made of."""
        cols, sums = [], []
        for col, s, ej, sj in zip(c.cols, c.sums, c.exps, sd):
            shift = ej - e
            cols.append([ctx.ldexp(x, shift) / sj for x in col] if shift else [x / sj for x in col])
            sums.append(ctx.ldexp(s, shift) / sj)
        return Centred(c.hi, c.lo, cols, sums, [0] * len(cols))

    @staticmethod
    def _data_matrix(c: Centred, sd: Optional[list[Scalar]], e: int, ctx: Context) -> list[list[Scalar]]:
        """The rows ``((x - hi) - lo)/sd`` in units of ``2**e``: centred about the
        mean to twice the working precision (the rounding of ``hi`` removed)."""
        columns = []
        for j, (col, ej) in enumerate(zip(c.cols, c.exps)):
            shift = ej - e
            lo = ctx.ldexp(c.lo[j], -e)
            if shift:
                col = [ctx.ldexp(x, shift) for x in col]
            if lo:
                col = [x - lo for x in col]
            if sd is not None:
                s = sd[j]
                col = [x / s for x in col]
            columns.append(col)
        return [list(row) for row in zip(*columns)]

    #: FactoMineR's ``ec.tab``: a standard deviation at or below this is set to 1 (the column is left unscaled).
    FACTOMINER_SD_FLOOR = 1e-16

    def _scales(self, sds: list[Scalar], ctx: Context, cols: Optional[Sequence[Sequence[Scalar]]] = None,
                e: int = 0) -> list[Scalar]:
        """The standard deviations for ``scale=True`` (in units of ``2**e``), refusing a constant column;
        under ``convention="factominer"`` one at or below 1e-16 becomes 1, as FactoMineR does."""
        if self.convention == "factominer":
            floor = ctx.convert(self.FACTOMINER_SD_FLOOR)
            one = ctx.ldexp(ctx.one, -e) if e else ctx.one
            return [one if not ctx.ldexp(s, e) > floor else s for s in sds]
        for j, s in enumerate(sds):
            if not s > 0:
                if cols is not None and max(cols[j]) != min(cols[j]):
                    raise PurePCAError(f"X: column {j}: {_UNDERFLOW}")
                raise PurePCAError(f"X: column {j} is constant (standard deviation 0); scale=True cannot scale it")
        return sds

    def _finish(
        self,
        ctx: Context,
        conv: Convention,
        sign: str,
        ddof: int,
        n: int,
        d: int,
        solver: str,
        hi: list[Scalar],
        lo: list[Scalar],
        sd: Optional[list[Scalar]],
        found: Spectrum,
        scale_exp: int = 0,
        div: Optional[Scalar] = None,
    ) -> None:
        """Signs, choice of k, ratios and noise variance; then store everything.

        The mean is the pair ``hi + lo`` (``lo`` the rounding error of ``hi``).
        ``sd`` and the spectrum are of the data divided by ``2**scale_exp``;
        they are scaled back here (a variance that cannot be represented
        becomes inf or 0; the components and ratios are unaffected).  ``div``
        is the variance divisor when it is not ``n - ddof`` (weighted rows).
        """
        r = min(n, d)
        spectrum, comps, total = found.values, found.components, found.total
        with ctx.local():
            if not total > 0:
                raise PurePCAError(
                    "X: every feature is constant (total variance 0), or varies by so little (below about "
                    "1e-154) that its variance underflows a float; there are no principal components"
                )
            ratios = [v / total for v in spectrum]
            nc = self.n_components
            if nc is None:
                k = len(spectrum)
            elif nc == "mle":
                k = infer_dimension([ctx.to_float(v) for v in spectrum], n)
            elif nc == "kaiser":
                k = kaiser([ctx.to_float(v) for v in spectrum], ctx.to_float(total), d)
            elif nc == "broken_stick":
                k = broken_stick([ctx.to_float(v) for v in ratios], d)
            elif nc == "parallel":
                thresholds = parallel_analysis(
                    n, d, scale=sd is not None, sd=self._parallel_sd, ddof=ddof, seed=as_int(self.seed, "seed"),
                    quantile=self.parallel_quantile)
                k = 0
                for value, limit in zip(spectrum, thresholds):
                    # The spectrum is in units of 2**scale_exp: compare in the data's units.
                    real = ctx.to_float(value) * (1.0 if sd is not None else 2.0 ** (2 * scale_exp))
                    if real > limit:
                        k += 1
                    else:
                        break
            elif isinstance(nc, float):
                k = components_for_fraction(ratios, ctx.convert(nc))
            else:
                k = int(nc)
            # FactoMineR (svd.triplet) fixes no sign when one component is asked of data with n > p.
            rule = "none" if sign == "factominer" and k == 1 and n > d else sign
            comps = apply_sign_rule(comps, rule)
            if k < r and len(spectrum) == r:
                noise = ctx.sum(spectrum[k:]) / ctx.convert(r - k)
            elif k < r:
                # Only the top k were computed: the rest of the variance is the
                # total less what they hold.
                noise = (total - ctx.sum(spectrum)) / ctx.convert(r - k)
                noise = noise if noise > 0 else ctx.zero
            else:
                noise = ctx.zero
            div = ctx.convert(n - ddof) if div is None else div
            e = scale_exp
            # With scale=True the spectrum is of the standardised data, which has no
            # unit: only the standard deviations are in units of 2**e.
            ve = 0 if sd is not None else e
            singular = [_unscale(ctx.sqrt(v * div), ve, ctx) for v in spectrum[:k]]
            roots = [_unscale(ctx.sqrt(v), ve, ctx) for v in spectrum[:k]]
            beyond = [] if found.next_value is None else [found.next_value]
            self._report_degenerate([ctx.to_float(v) for v in list(spectrum) + beyond], k)
            spectrum = [_unscale(v, 2 * ve, ctx) for v in spectrum]
            noise = _unscale(noise, 2 * ve, ctx)
            mean = [h + l for h, l in zip(hi, lo)]
            sd = [_unscale(s, e, ctx) for s in sd] if sd is not None else None
            if sd is not None and not all(s > 0 for s in sd):
                j = next(j for j, s in enumerate(sd) if not s > 0)
                raise PurePCAError(f"X: column {j}: its standard deviation underflows to 0; scale=True cannot scale it")
        f = ctx.to_float
        self._ctx = ctx
        self._convention = conv
        self._sign = sign
        self._ddof = ddof
        self._div = f(div)
        self._weights = (None, None)
        self._scaled = sd is not None
        self.solver_ = solver
        self._mean = mean
        self._mean_hi = list(hi)
        self._mean_lo = list(lo)
        self._sd = sd
        self._variance = spectrum[:k]
        self._roots = roots
        self._components = comps[:k]
        self._noise = noise
        # The discarded eigenvalues (for the SPE limit), when the solver found them all.
        self._rest = [f(v) for v in spectrum[k:]] if len(spectrum) == min(n, d) else None
        self.components_ = [[f(x) for x in v] for v in comps[:k]]
        self.explained_variance_ = [f(v) for v in spectrum[:k]]
        self.explained_variance_ratio_ = [f(v) for v in ratios[:k]]
        self.singular_values_ = [f(s) for s in singular]
        self.mean_ = [f(m) for m in mean]
        self.scale_ = [f(s) for s in sd] if sd is not None else None
        self.n_components_ = k
        self.n_samples_ = n
        self.n_features_in_ = d
        self.noise_variance_ = f(noise)
        self.high_precision_ = (
            None
            if self.precision is None
            else {
                "components_": comps[:k],
                "explained_variance_": spectrum[:k],
                "explained_variance_ratio_": ratios[:k],
                "singular_values_": singular,
                "mean_": mean,
                "scale_": sd,
                "noise_variance_": noise,
            }
        )
        self._x = None
        self._train = None
        self._fit_rows = None
        self._bounds = None

    #: Eigenvalues closer than this, relative to the largest, count as equal.
    DEGENERATE_GAP = DEGENERATE_GAP

    @classmethod
    def _report_degenerate(cls, spectrum: list[float], k: int) -> None:
        report_degenerate(spectrum, k, stacklevel=7)

    @atomic
    def fit_transform(self, X: Any, y: Any = None, sample_weight: Any = None,
                      column_weight: Any = None) -> list[list[float]]:
        """Fit, then return the scores of the training data (equal to ``fit(X).transform(X)``);
        the weights are :meth:`fit`'s.

        >>> PCA(1).fit_transform([[0.0, 0.0], [2.0, 0.0]])
        [[-1.0], [1.0]]
        """
        M = self._fit(X, sample_weight, column_weight)
        self._x = self._scores(M)
        return self._output([list(row) for row in self._x], X)

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
        ctx, conv, ddof, scale, sign = self._settings()
        M = self._read(X, ctx)
        moments = self._moments
        if moments is None:
            moments = Moments(context=ctx)
        elif moments.context != ctx:
            raise PurePCAError(
                f"precision changed between partial_fit calls ({moments.context.name} to {ctx.name}); "
                "the rows seen so far were accumulated at the old precision: refit from the start"
            )
        if moments.n and len(M[0]) != moments.d:
            raise PurePCAError(
                f"X has {len(M[0])} features, but PCA is expecting {moments.d} features as input (what partial_fit has seen)"
            )
        trial = Moments(context=ctx)
        trial.merge(moments)
        trial._add_validated(M)
        if trial.n >= 2:
            self._fit_moments(trial, ctx, conv, ddof, scale, sign)
            self.feature_names_in_ = self._feature_names(X)
        self._moments = trial
        return self

    @atomic
    def fit_stream(self, rows: Iterable[Sequence[float]], y: Any = None, *, chunk_size: int = 4096) -> "PCA":
        """Fit from any iterable of rows in one pass, with O(d²) memory.

        >>> pca = PCA().fit_stream(([i, 2.0 * i + (i % 2)] for i in range(100)))
        >>> pca.n_samples_
        100
        """
        ctx, conv, ddof, scale, sign = self._settings()
        moments = Moments(context=ctx, chunk_size=chunk_size)
        moments.update_many(rows)
        if moments.n < 2:
            raise PurePCAError(f"rows: PCA needs at least 2 samples, got {moments.n}")
        self._fit_moments(moments, ctx, conv, ddof, scale, sign)
        self.feature_names_in_ = None
        self._moments = None
        return self

    def _fit_moments(self, moments: Moments, ctx: Context, conv: Convention, ddof: int, scale: bool, sign: str) -> None:
        n, d = moments.n, moments.d or 0
        if self.solver not in ("auto", "covariance", "jacobi"):
            raise PurePCAError(
                f"partial_fit and fit_stream use the covariance (solver 'covariance' or 'jacobi'); got solver={self.solver!r}"
            )
        solver = "jacobi" if self.solver == "jacobi" else "covariance"
        self._check_k(n, d, solver)
        with ctx.local():
            C = moments.covariance(ddof, center=self.center)
            mean = moments.mean if self.center else [ctx.zero] * d
            sd = self._scales([ctx.sqrt(C[j][j]) for j in range(d)], ctx) if scale else None
            self._parallel_sd = [ctx.to_float(ctx.sqrt(C[j][j])) for j in range(d)] if not scale else None
            found = solve_covariance(C, min(n, d), ctx, "jacobi" if solver == "jacobi" else "auto", sd)
        self._finish(ctx, conv, sign, ddof, n, d, solver, mean, [ctx.zero] * d, sd, found)

    # ------------------------------------------------------------- using it

    def _is_fitted(self) -> bool:
        return hasattr(self, "components_")

    def _n_eff(self) -> float:
        """The number of samples: n, or the sum of the sample weights (frequencies)."""
        return self._div + self._ddof

    def _sample_variances(self, values: Optional[list[float]] = None) -> list[float]:
        """Eigenvalues (the kept ones by default) with the sample divisor n - 1, what T² and the SPE limit
        assume, whatever the convention's divisor (n is the sum of the weights for a weighted fit)."""
        n = self._n_eff()
        if n <= 1:
            raise PurePCAError(f"the sample weights sum to {n!r}: T² and the SPE limit treat them as frequencies "
                               "and need a sum above 1 (pass counts, not weights normalised to sum to 1)")
        return [v * self._div / (n - 1) for v in (self.explained_variance_ if values is None else values)]

    def hotelling_t2(self, X: Any) -> list[float]:
        """Hotelling's T² of each row: ``Σ_j t_j²/λ_j`` over the kept components, ``t`` the scores and
        ``λ`` the eigenvalues of the sample covariance (divisor n - 1, whatever the convention).

        >>> pca = PCA(1).fit([[0.0, 0.0], [1.0, 1.1], [2.0, 1.9], [3.0, 3.2]])
        >>> [round(v, 6) for v in pca.hotelling_t2([[1.5, 1.55], [4.0, 4.0]])]
        [0.0, 3.520709]
        """
        self._fitted()
        lam = self._sample_variances()
        scores = self._plain_scores(X)
        return [math.fsum(t * t / l if l > 0 else 0.0 for t, l in zip(row, lam)) for row in scores]

    def _plain_scores(self, X: Any) -> list[list[float]]:
        """Scores without whitening, centred about the mean carried as hi + lo (as transform does)."""
        M = self._read(X, self._ctx)
        self._check_features(M, X)
        Z = _score_rows(M, self._components, self._mean_hi, self._mean_lo, self._sd, None, self._ctx)
        return Z if self._ctx.name == "float" else _float_rows(Z, self._ctx, "the score")

    def spe(self, X: Any) -> list[float]:
        """The squared prediction error (Q) of each row: the squared distance between the (centred and
        scaled) row and its projection on the kept components.

        >>> pca = PCA(1).fit([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.1]])
        >>> [round(v, 6) for v in pca.spe([[1.0, 2.0]])]
        [0.47557]
        """
        self._fitted()
        comps = self.components_
        out = []
        for z in self._standardised_rows(X):
            t = [math.fsum(a * b for a, b in zip(c, z)) for c in comps]
            resid = [math.fsum([z[j]] + [-tj * c[j] for tj, c in zip(t, comps)]) for j in range(len(z))]
            out.append(math.fsum(r * r for r in resid))
        return out

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
        from .distributions import beta_ppf, f_ppf

        self._fitted()
        alpha = as_real(alpha, "alpha", low=0.0, high=1.0, low_open=True)
        n, k = self._n_eff(), self.n_components_
        # With sample weights n is their sum: the limits take them as counts.
        counts = "" if self._weights[0] is None else (
            f" (n is the sum of the sample weights, {n!r}: the limits take them as counts; pass counts, not weights "
            "normalised to sum to 1)")
        if kind == "new":
            if n - k < 1:
                raise PurePCAError(f"t2_limit: n - k = {n - k}; the F limit needs n > k{counts}")
            return k * (n - 1) * (n + 1) / (n * (n - k)) * f_ppf(1 - alpha, k, n - k)
        if kind == "training":
            if n - k - 1 < 1:
                raise PurePCAError(f"t2_limit: n - k - 1 = {n - k - 1}; the beta limit needs n > k + 1{counts}")
            return (n - 1) ** 2 / n * beta_ppf(1 - alpha, k / 2, (n - k - 1) / 2)
        raise PurePCAError(f"kind must be 'new' or 'training'; got {kind!r}")

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
        from .distributions import norm_ppf

        self._fitted()
        alpha = as_real(alpha, "alpha", low=0.0, high=1.0, low_open=True)
        if self._rest is None:
            raise PurePCAError(f"spe_limit: solver {self.solver_!r} found only the kept eigenvalues; the limit needs "
                               "the discarded ones too (use a full solver)")
        rest = [v for v in self._sample_variances(self._rest) if v > 0]
        if not rest:
            return 0.0
        t1, t2, t3 = (math.fsum(v ** i for v in rest) for i in (1, 2, 3))
        h0 = 1 - 2 * t1 * t3 / (3 * t2 * t2)
        c = norm_ppf(1 - alpha)
        return float(t1 * (c * math.sqrt(2 * t2 * h0 * h0) / t1 + 1 + t2 * h0 * (h0 - 1) / (t1 * t1)) ** (1 / h0))

    # ------------------------------------------------ FactoMineR's outputs

    def _standardised_rows(self, X: Any) -> list[list[float]]:
        """Rows centred about the mean (hi + lo) and divided by the scales: FactoMineR's X̃."""
        M = self._read(X, self._ctx)
        self._check_features(M, X)
        hi, lo, sd = self._mean_hi, self._mean_lo, self._sd
        out = []
        for row in M:
            z = [float((x - h) - l) for x, h, l in zip(row, hi, lo)]
            out.append([v / float(s) for v, s in zip(z, sd)] if sd is not None else z)
        return out

    def row_coordinates(self, X: Any) -> list[list[float]]:
        """FactoMineR's ``ind$coord`` (and ``ind.sup$coord`` for new rows): the scores, never whitened.

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> [round(v, 6) for v in pca.row_coordinates([[1.0, 2.0]])[0]]
        [-1.307252, -0.590115]
        """
        self._fitted()
        return self._plain_scores(X)

    def row_distances(self, X: Any) -> list[float]:
        """FactoMineR's ``ind$dist``: each row's distance to the centre, in the (scaled) space of the fit.

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> round(pca.row_distances([[1.0, 2.0]])[0], 6)
        1.434274
        """
        self._fitted()
        return [math.sqrt(math.fsum(v * v for v in z)) for z in self._standardised_rows(X)]

    def row_cos2(self, X: Any) -> list[list[float]]:
        """FactoMineR's ``ind$cos2``: the squared cosine of the angle between each row and each component,
        ``coord²/dist²`` (a row's cos² over all components sums to 1).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> round(sum(pca.row_cos2([[1.0, 2.0]])[0]), 12)
        1.0
        """
        self._fitted()
        coords = self._plain_scores(X)
        dists = self.row_distances(X)
        return [[c * c / (r * r) if r > 0 else 0.0 for c in row] for row, r in zip(coords, dists)]

    @property
    def row_contributions_(self) -> list[list[float]]:
        """FactoMineR's ``ind$contrib`` for the training rows, in percent:
        ``100·coord²/((n - ddof)·λ)`` (each component's column sums to 100).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> round(sum(row[0] for row in pca.row_contributions_), 10)
        100.0
        """
        self._fitted()
        if self._fit_rows is None:
            raise PurePCAError("row_contributions_: the model keeps no training rows (partial_fit, fit_stream)")
        div = self._div
        coords = self._plain_scores(self._fit_rows)
        return [[100.0 * w * c * c / (div * v) if v > 0 else 0.0 for c, v in zip(row, self.explained_variance_)]
                for row, w in zip(coords, self._row_weights())]

    def _row_weights(self) -> list[float]:
        """The training rows' sample weights (1 each for an unweighted fit)."""
        w = self._weights[0]
        return w if w is not None else [1.0] * self.n_samples_

    @property
    def column_coordinates_(self) -> list[list[float]]:
        """FactoMineR's ``var$coord``: ``v_jc·sqrt(λ_c)/sqrt(w_j)``, a row per column of X (d x k), with
        ``w_j`` the column weight (1 without ``column_weight``).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> [round(v, 6) for v in pca.column_coordinates_[0]]
        [0.956954, 0.29024]
        """
        self._fitted()
        cw = self._weights[1]
        if cw is None:
            return self._loadings()
        return [[v / math.sqrt(c) for v in row] for row, c in zip(self._loadings(), cw)]

    def _loadings(self) -> list[list[float]]:
        """``v_jc·sqrt(λ_c)`` (d x k): the loadings of the columns as the fit saw them."""
        roots = [math.sqrt(v) for v in self.explained_variance_]
        return [[c[j] * r for c, r in zip(self.components_, roots)] for j in range(self.n_features_in_)]

    def _column_variances(self) -> list[float]:
        """The variances (divisor n - ddof) of the fitted columns as the fit saw them (1 when scaled)."""
        if self._fit_rows is None:
            raise PurePCAError("the model keeps no training rows (partial_fit, fit_stream); fit it with fit(X)")
        Z = self._standardised_rows(self._fit_rows)
        w = self._row_weights()
        return [math.fsum(wi * z[j] * z[j] for z, wi in zip(Z, w)) / self._div for j in range(self.n_features_in_)]

    @property
    def column_correlations_(self) -> list[list[float]]:
        """FactoMineR's ``var$cor``: the correlation of each column with each component (d x k).

        >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
        >>> [round(v, 6) for v in pca.column_correlations_[1]]
        [0.956954, -0.29024]
        """
        self._fitted()
        variances = self._column_variances()
        return [[c / math.sqrt(v) if v > 0 else 0.0 for c in row] for row, v in zip(self._loadings(), variances)]

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
        self._fitted()
        return [[100.0 * c[j] * c[j] for c in self.components_] for j in range(self.n_features_in_)]

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
        self._fitted()
        if self._fit_rows is None:
            raise PurePCAError("supplementary_columns: the model keeps no training rows (partial_fit, fit_stream)")
        S = [[float(v) for v in row] for row in as_matrix(X_sup, name="X_sup")]
        n = self.n_samples_
        if len(S) != n:
            raise PurePCAError(f"X_sup: {len(S)} rows, but the model was fitted on {n}; supplementary columns "
                               "are measured on the training rows")
        div = self._div
        w = self._row_weights()
        total = math.fsum(w)
        coords = self._plain_scores(self._fit_rows)
        roots = [math.sqrt(v) for v in self.explained_variance_]
        cols = []
        for j in range(len(S[0])):
            col = [row[j] for row in S]
            m = math.fsum(wi * x for wi, x in zip(w, col)) / total
            dev = [x - m for x in col]
            if self._scaled:
                sdj = math.sqrt(math.fsum(wi * v * v for wi, v in zip(w, dev)) / div)
                if sdj <= (self.FACTOMINER_SD_FLOOR if self.convention == "factominer" else 0.0):
                    sdj = 1.0 if self.convention == "factominer" else sdj
                if sdj == 0:
                    raise PurePCAError(f"X_sup: column {j} is constant; a scaled PCA cannot scale it")
                dev = [v / sdj for v in dev]
            cols.append(dev)
        coord, cor = [], []
        for dev in cols:
            var = math.fsum(wi * v * v for wi, v in zip(w, dev)) / div
            row_coord = [math.fsum(wi * x * c[k] for wi, x, c in zip(w, dev, coords)) / (div * r) if r > 0 else 0.0
                         for k, r in enumerate(roots)]
            coord.append(row_coord)
            cor.append([c / math.sqrt(var) if var > 0 else 0.0 for c in row_coord])
        return {"coord": coord, "cor": cor, "cos2": [[c * c for c in row] for row in cor]}

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
        test value; 0 for a category that holds every row); ``eta2``: for each component the correlation ratio, the share of the
        coordinates' variance that lies between the categories.  The formulas are FactoMineR's
        ``PCA.R`` (``fct.eta2`` and the ``quali.sup`` block).

        >>> X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0], [5.0, 4.5], [0.5, 1.5]]
        >>> pca = PCA(convention="factominer", scale=True).fit(X)
        >>> cats = pca.supplementary_categories(["a", "a", "b", "b", "b", "a"])
        >>> cats["levels"], [round(v, 4) for v in cats["coord"][1]]
        (['a', 'b'], [1.2617, -0.0033])
        >>> [round(v, 4) for v in cats["eta2"]]
        [0.853, 0.0001]
        """
        self._fitted()
        if self._fit_rows is None:
            raise PurePCAError("supplementary_categories: the model keeps no training rows (partial_fit, fit_stream)")
        n = self.n_samples_
        if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__") or len(labels) != n:
            got = len(labels) if hasattr(labels, "__len__") and not isinstance(labels, (str, bytes)) else labels
            raise PurePCAError(f"labels: need one label per training row ({n}), got {got!r}")
        for i, label in enumerate(labels):
            if label is None or (isinstance(label, float) and label != label):
                raise PurePCAError(f"labels: entry {i} is missing")
        names = [str(label) for label in labels]
        w = self._row_weights()
        total = math.fsum(w)
        coords = self._plain_scores(self._fit_rows)
        Z = self._standardised_rows(self._fit_rows)
        lam = self.explained_variance_
        levels = sorted(set(names))
        groups = [[i for i, name in enumerate(names) if name == level] for level in levels]
        sizes = [math.fsum(w[i] for i in members) for members in groups]
        out: dict[str, Any] = {"levels": levels, "coord": [], "dist": [], "cos2": [], "v_test": []}
        for level, members, size in zip(levels, groups, sizes):
            if not size > 0:
                raise PurePCAError(f"labels: category {level!r} has no row of positive weight")
            coord = [math.fsum(w[i] * coords[i][c] for i in members) / size for c in range(len(lam))]
            centre = [math.fsum(w[i] * Z[i][j] for i in members) / size for j in range(self.n_features_in_)]
            dist2 = math.fsum(v * v for v in centre)
            if total <= 1:  # weights normalised to sum to 1: FactoMineR's other branch
                factor = math.sqrt(size)
            else:
                factor = math.sqrt(size * (total - 1) / (total - size)) if total > size else 0.0
            out["coord"].append(coord)
            out["dist"].append(math.sqrt(dist2))
            out["cos2"].append([c * c / dist2 if dist2 > 0 else 0.0 for c in coord])
            out["v_test"].append([c / math.sqrt(l) * factor if l > 0 else 0.0 for c, l in zip(coord, lam)])
        eta2 = []
        for c in range(len(lam)):
            between = math.fsum(math.fsum(w[i] * coords[i][c] for i in members) ** 2 / size
                                for members, size in zip(groups, sizes))
            whole = math.fsum(wi * row[c] ** 2 for wi, row in zip(w, coords))
            eta2.append(between / whole if whole > 0 else 0.0)
        out["eta2"] = eta2
        return out

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
        from .rotations import promax, varimax

        self._fitted()
        roots = [math.sqrt(v) for v in self.explained_variance_]
        loadings = [[c[j] * r for c, r in zip(self.components_, roots)] for j in range(self.n_features_in_)]
        if method == "varimax":
            return varimax(loadings, normalize=normalize, eps=eps)
        if method == "promax":
            return promax(loadings, m=m)
        raise PurePCAError(f"method must be 'varimax' or 'promax'; got {method!r}")

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
        self._fitted()
        if self._bounds is None:
            if self._fit_rows is None:
                raise PurePCAError("error_bounds_: the model keeps no training rows (partial_fit and fit_stream "
                                   "keep only their moments); fit it with fit(X) for bounds")
            from .bounds import data_operator, enclose

            rows = [[float(x) for x in row] for row in self._fit_rows]
            apply, error = data_operator(rows, self._ddof, self._scaled, self.center, *self._weights)
            found = enclose(apply, self.n_features_in_, self.components_, error)
            self._bounds = ErrorBounds(found.values, found.angles, found.clusters)
        return self._bounds

    def _fitted(self) -> None:
        if not hasattr(self, "components_"):
            seen = self._moments
            extra = f" (partial_fit has seen {seen.n} sample; it needs 2)" if seen is not None and seen.n else ""
            raise NotFittedError(f"this PCA is not fitted yet; call fit, partial_fit or fit_stream first{extra}")

    def _check_features(self, M: list[list[Scalar]], X: Any) -> None:
        if len(M[0]) != self.n_features_in_:
            raise PurePCAError(f"X has {len(M[0])} features, but PCA is expecting {self.n_features_in_} features as input")
        names = self._feature_names(X)
        fitted = getattr(self, "feature_names_in_", None)
        if names is not None and fitted is not None and names != fitted:
            raise PurePCAError(f"X has feature names {names}, but PCA was fitted with {fitted}")

    def transform(self, X: Any) -> list[list[float]]:
        """Scores of the rows of ``X`` on the components (n_samples x k).

        >>> pca = PCA(1).fit([[0.0, 0.0], [2.0, 0.0]])
        >>> pca.transform([[3.0, 5.0]])
        [[2.0]]
        """
        self._fitted()
        M = self._read(X, self._ctx)
        self._check_features(M, X)
        return self._output(self._scores(M), X)

    def _scores(self, M: list[list[Scalar]]) -> list[list[float]]:
        ctx = self._ctx
        Z = _score_rows(
            M, self._components, self._mean_hi, self._mean_lo, self._sd, self._roots if self.whiten else None, ctx
        )
        if ctx.name == "float":
            return Z
        return _float_rows(Z, ctx, "the score")

    def inverse_transform(self, Z: Any) -> list[list[float]]:
        """Rows in feature space whose scores are ``Z`` (undoes whitening and scaling).

        >>> pca = PCA().fit([[1.0, 2.0], [3.0, 3.0], [0.0, 5.0]])
        >>> [[round(v, 12) for v in row] for row in pca.inverse_transform(pca.transform([[4.0, 4.0]]))]
        [[4.0, 4.0]]
        """
        self._fitted()
        ctx = self._ctx
        S = as_matrix(Z, name="Z", context=ctx)
        if len(S[0]) != self.n_components_:
            raise PurePCAError(f"Z has {len(S[0])} columns, but PCA has {self.n_components_} components")
        if self.whiten:
            S = unwhiten(S, self._roots, context=ctx)
        X = _reconstruct_rows(S, self._components, self._mean_hi, self._mean_lo, self._sd, ctx)
        return _float_rows(X, ctx, "the reconstruction")

    def reconstruction_error(self, X: Any) -> float:
        """Mean over rows of ``‖x - inverse_transform(transform(x))‖²``.

        >>> PCA(1).fit([[0.0, 0.0], [2.0, 0.0], [1.0, 1e-9]]).reconstruction_error([[1.0, 1.0]]) > 0.9
        True
        """
        self._fitted()
        ctx = self._ctx
        M = self._read(X, ctx)
        self._check_features(M, X)
        hi, lo, sd = self._mean_hi, self._mean_lo, self._sd
        S = _score_rows(M, self._components, hi, lo, sd, None, ctx)
        R = _reconstruct_rows(S, self._components, hi, lo, sd, ctx)
        try:
            error = ctx.to_float(reconstruction_error(M, R, context=ctx))
        except (OverflowError, ValueError):  # fsum: an intermediate overflow
            error = math.inf
        if not math.isfinite(error):
            raise PurePCAError("X: the reconstruction error (a mean of squared distances) is beyond the float range; rescale the data")
        return error

    def get_feature_names_out(self, input_features: Any = None) -> list[str]:
        """scikit-learn's output names: ``pca0``, ``pca1``, ...

        >>> PCA(2).fit([[0, 1], [1, 0], [2, 2]]).get_feature_names_out()
        ['pca0', 'pca1']
        """
        self._fitted()
        return [f"pca{i}" for i in range(self.n_components_)]

    # ----------------------------------------------------- R's view of it

    @property
    def sdev(self) -> list[float]:
        """Standard deviations of the components (R's ``sdev``): ``sqrt(explained_variance_)``."""
        self._fitted()
        return [self._ctx.to_float(s) for s in self._roots]

    @property
    def rotation(self) -> list[list[float]]:
        """The components as columns, d x k (R's ``rotation`` / ``loadings``)."""
        self._fitted()
        return [list(col) for col in zip(*self.components_)]

    @property
    def x(self) -> list[list[float]]:
        """Scores of the training data, n x k (R's ``x``).

        Available after ``fit`` or ``fit_transform``; ``partial_fit`` and
        ``fit_stream`` do not keep the rows.
        """
        self._fitted()
        if self._x is None:
            if self._train is None:
                raise NotFittedError("x (the training scores) needs fit(X) or fit_transform(X); partial_fit and fit_stream keep no rows")
            self._x = self._scores(self._train)
            self._train = None
        return [list(row) for row in self._x]

    @property
    def component_names(self) -> list[str]:
        """Names of the components as the convention prints them (PC1, Comp.1, Dim.1 ...)."""
        self._fitted()
        return [self._convention.component_name(i) for i in range(self.n_components_)]

    def summary(self) -> PCASummary:
        """R's importance table: standard deviation, proportion and cumulative proportion."""
        self._fitted()
        ratios = self.explained_variance_ratio_
        cumulative = [math.fsum(ratios[: i + 1]) for i in range(len(ratios))]
        return PCASummary(self.component_names, self.sdev, list(ratios), cumulative)

    # ------------------------------------------- probabilistic PCA (sklearn)

    def _covariance_model(self) -> tuple[list[list[Scalar]], list[Scalar]]:
        """Components (scaled by sqrt(variance) when whitening, as scikit-learn
        does) and the excess variances max(λ - σ², 0)."""
        ctx = self._ctx
        beyond = [j for j, v in enumerate(self._variance) if not math.isfinite(ctx.to_float(v))]
        if beyond:
            raise PurePCAError(
                f"the model covariance needs the variance of component {beyond[0]}, which is beyond the float range "
                "(reported as inf); rescale the data or fit with precision=N"
            )
        W = self._components
        if self.whiten:
            W = [[x * s for x in w] for w, s in zip(W, self._roots)]
        diff = [v - self._noise if v > self._noise else ctx.zero for v in self._variance]
        return W, diff

    def _get_covariance(self) -> list[list[Scalar]]:
        ctx = self._ctx
        d = self.n_features_in_
        with ctx.local(), float_range("the model covariance"):
            W, diff = self._covariance_model()
            cols = list(zip(*W))
            cov = [[ctx.sum(a * l * b for a, l, b in zip(cols[i], diff, cols[j])) for j in range(d)] for i in range(d)]
            for i in range(d):
                cov[i][i] = cov[i][i] + self._noise
            return cov

    def get_covariance(self) -> list[list[float]]:
        """Covariance of the probabilistic PCA model: ``Wᵀ·diag(λ - σ²)·W + σ²·I``.

        As in scikit-learn, with ``whiten=True`` the rows of W are first
        multiplied by ``sqrt(λ)``.

        >>> pca = PCA().fit([[0.0, 0.0], [2.0, 2.0], [1.0, 0.0]])
        >>> [[round(v, 12) for v in row] for row in pca.get_covariance()]
        [[1.0, 1.0], [1.0, 1.333333333333]]
        """
        self._fitted()
        return _float_rows(self._get_covariance(), self._ctx, "the model covariance")

    def _get_precision(self) -> list[list[Scalar]]:
        ctx = self._ctx
        d = self.n_features_in_
        with ctx.local():
            if self._noise == 0:
                return _spd_inverse(self._get_covariance(), ctx, "the model covariance")
            if not self._components:  # n_components=0: the covariance is σ²·I
                return [[ctx.one / self._noise if i == j else ctx.zero for j in range(d)] for i in range(d)]
            W, diff = self._covariance_model()
            if any(v == 0 for v in diff):
                return _spd_inverse(self._get_covariance(), ctx, "the model covariance")
            k = len(W)
            inner = [[ctx.dot(W[i], W[j]) / self._noise for j in range(k)] for i in range(k)]
            for i in range(k):
                inner[i][i] = inner[i][i] + ctx.one / diff[i]
            inv = _spd_inverse(inner, ctx, "the k x k inner matrix")
            cols = list(zip(*W))
            noise2 = self._noise * self._noise
            P = [[-ctx.sum(cols[i][a] * inv[a][b] * cols[j][b] for a in range(k) for b in range(k)) / noise2
                  for j in range(d)] for i in range(d)]
            for i in range(d):
                P[i][i] = P[i][i] + ctx.one / self._noise
            return P

    def get_precision(self) -> list[list[float]]:
        """Inverse of :meth:`get_covariance`, by the matrix inversion lemma (as scikit-learn).

        >>> pca = PCA(1).fit([[0.0, 0.0], [2.0, 2.1], [1.0, 0.0], [3.0, 2.5]])
        >>> P, C = pca.get_precision(), pca.get_covariance()
        >>> [[round(sum(a * b for a, b in zip(row, col)), 12) for col in zip(*C)] for row in P]
        [[1.0, 0.0], [0.0, 1.0]]
        """
        self._fitted()
        return _float_rows(self._get_precision(), self._ctx, "the model precision")

    def score_samples(self, X: Any) -> list[float]:
        """Log-likelihood of each row under the probabilistic PCA model (as scikit-learn).

        ``-(xᵀPx + d·log 2π - log det P)/2`` with ``x`` the centred row and P
        the precision.

        >>> pca = PCA(1).fit([[0.0, 0.0], [2.0, 2.1], [1.0, 0.0], [3.0, 2.5]])
        >>> [round(v, 6) for v in pca.score_samples([[1.0, 1.0]])]
        [-1.697449]
        """
        self._fitted()
        ctx = self._ctx
        M = self._read(X, ctx)
        self._check_features(M, X)
        d = self.n_features_in_
        with ctx.local():
            if self._noise == 0:
                # No noise: the model covariance is Σ μ_j·u_j·u_jᵀ over the
                # components, singular when fewer than d have μ_j > 0.  The
                # density is then that of the degenerate Gaussian on its
                # support (pseudo-inverse and pseudo-determinant), as
                # scikit-learn's score returns a number there, not an error;
                # with d positive μ_j it is the ordinary density.
                W, diff = self._covariance_model()
                P = [[ctx.zero] * d for _ in range(d)]
                logdet, rank = ctx.zero, 0
                for w, m in zip(W, diff):
                    nw = ctx.dot(w, w)
                    mu = m * nw
                    if mu > 0:
                        rank += 1
                        logdet = logdet - ctx.ln(mu)
                        for a in range(d):
                            for b in range(d):
                                P[a][b] = P[a][b] + w[a] * w[b] / (nw * mu)
                const = ctx.convert(rank) * ctx.ln(ctx.two * ctx.pi()) - logdet
            else:
                P = self._get_precision()
                eig = _eigh(P, "jacobi", ctx)
                if not all(v > 0 for v in eig.values):
                    raise PurePCAError("the precision matrix is not positive definite; score_samples is undefined")
                logdet = ctx.sum(ctx.ln(v) for v in eig.values)
                const = ctx.convert(d) * ctx.ln(ctx.two * ctx.pi()) - logdet
            out = []
            for i, row in enumerate(M):
                try:
                    r = [(a - h) - l for a, h, l in zip(row, self._mean_hi, self._mean_lo)]
                    Pr = [ctx.dot(p, r) for p in P]
                    value = ctx.to_float(-(ctx.dot(r, Pr) + const) / ctx.two)
                except (OverflowError, ValueError):  # fsum: an intermediate overflow, or inf - inf
                    value = -math.inf
                if not math.isfinite(value):
                    raise PurePCAError(f"X: the log-likelihood of row {i} is beyond the float range; rescale the data")
                out.append(value)
            return out

    def score(self, X: Any, y: Any = None) -> float:
        """Average log-likelihood of the rows (scikit-learn's ``score``).

        >>> pca = PCA(1).fit([[0.0, 0.0], [2.0, 2.1], [1.0, 0.0], [3.0, 2.5]])
        >>> round(pca.score([[1.0, 1.0], [2.0, 2.0]]), 6)
        -1.725009
        """
        values = self.score_samples(X)
        return math.fsum(values) / len(values)


def _unscale(x: Scalar, e: int, ctx: Context) -> Scalar:
    """``x·2**e``; inf when that overflows a float (the honest answer)."""
    if not e:
        return x
    try:
        return ctx.ldexp(x, e)
    except OverflowError:
        return math.copysign(math.inf, x)
