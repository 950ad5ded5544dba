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
import warnings
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence, Union

from .conventions import CONVENTIONS, SIGN_RULES, Convention, apply_sign_rule
from .base import Estimator
from .covariance import Moments, _divisor, column_means, column_std, covariance_matrix
from .errors import DegenerateEigenvalueWarning, NotFittedError, PurePCAError
from .linalg.jacobi import jacobi_eigh, jacobi_svd
from .linalg.matrix import as_matrix
from .linalg.power import subspace_iteration
from .numeric import Context, DecimalContext, Scalar, get_context
from .projection import project, reconstruct, reconstruction_error, unwhiten, whiten

__all__ = ["PCA", "PCASummary"]

SOLVERS = ("auto", "jacobi", "gram", "svd", "power")
_UNDERFLOW = (
    "the values differ, but their variance underflows a float (a spread below about 1e-154 squares "
    "to below 1e-308); multiply the data by a large constant (PCA's components do not change)"
)
_PARAMS = ("n_components", "center", "scale", "ddof", "whiten", "solver", "sign", "convention", "precision", "seed")


@dataclass(frozen=True)
class PCASummary:
    """The importance table of R's ``summary(prcomp(...))``.

    ``str()`` prints it as R does (four significant digits, each column
    formatted on its own); :meth:`to_string` takes other ``digits``.

    >>> from purepca.datasets import toy_data
    >>> print(PCA(convention="prcomp").fit(toy_data()).summary())
    Importance of components:
                              PC1     PC2
    Standard deviation     1.1331 0.22155
    Proportion of Variance 0.9632 0.03682
    Cumulative Proportion  0.9632 1.00000
    """

    names: list[str]
    standard_deviation: list[float]
    proportion_of_variance: list[float]
    cumulative_proportion: list[float]

    @property
    def rows(self) -> list[tuple[str, list[float]]]:
        """The table as ``(label, values)`` rows."""
        return [
            ("Standard deviation", self.standard_deviation),
            ("Proportion of Variance", self.proportion_of_variance),
            ("Cumulative Proportion", self.cumulative_proportion),
        ]

    def to_string(self, digits: int = 4) -> str:
        """The table with each column showing ``digits`` significant digits."""
        return "Importance of components:\n" + format_table(self.names, self.rows, digits)

    def __str__(self) -> str:
        return self.to_string()


def _r_decimals(values: Sequence[float], digits: int) -> int:
    """Decimal places for a column, as R's ``formatReal``: each value needs
    enough to show ``digits`` significant digits, less its trailing zeros; the
    column takes the most any value needs."""
    most = 0
    for v in values:
        if v == 0 or not math.isfinite(v):
            continue
        places = min(15, max(0, digits - 1 - math.floor(math.log10(abs(v)))))
        text = f"{abs(v):.{places}f}"
        if "." in text:
            places = len(text.rstrip("0").split(".")[1])
        most = max(most, places)
    return most


def format_table(names: Sequence[str], rows: Sequence[tuple[str, Sequence[float]]], digits: int) -> str:
    """A right-aligned text table whose columns are formatted like R's.

    >>> print(format_table(["A", "B"], [("x", [1.5, 0.25]), ("y", [2.0, 1.0])], 3))
        A    B
    x 1.5 0.25
    y 2.0 1.00
    """
    width = max(len(label) for label, _ in rows)
    columns = list(zip(*(values for _, values in rows)))
    formatted = []
    for name, col in zip(names, columns):
        places = _r_decimals(col, digits)
        cells = [f"{v:.{places}f}" for v in col]
        w = max([len(name)] + [len(c) for c in cells])
        formatted.append((name.rjust(w), [c.rjust(w) for c in cells]))
    lines = [" " * width + "".join(" " + name for name, _ in formatted)]
    for i, (label, _) in enumerate(rows):
        lines.append(label.ljust(width) + "".join(" " + cells[i] for _, cells in formatted))
    return "\n".join(lines)


def _assess_dimension(spectrum: Sequence[float], rank: int, n_samples: int) -> float:
    """Minka's log-likelihood of ``rank`` components (scikit-learn's ``_assess_dimension``).

    T. P. Minka, "Automatic choice of dimensionality for PCA", NIPS 2000, eq. (30)–(31).
    """
    d = len(spectrum)
    eps = 1e-15

    if spectrum[rank - 1] < eps:
        return -math.inf
    pu = -rank * math.log(2.0)
    for i in range(1, rank + 1):
        pu += math.lgamma((d - i + 1) / 2.0) - math.log(math.pi) * (d - i + 1) / 2.0
    pl = -math.fsum(math.log(v) for v in spectrum[:rank]) * n_samples / 2.0
    v = max(eps, math.fsum(spectrum[rank:]) / (d - rank))
    pv = -math.log(v) * n_samples * (d - rank) / 2.0
    m = d * rank - rank * (rank + 1.0) / 2.0
    pp = math.log(2.0 * math.pi) * (m + rank) / 2.0
    padded = list(spectrum[:rank]) + [v] * (d - rank)
    pa = 0.0
    for i in range(rank):
        for j in range(i + 1, d):
            term = (spectrum[i] - spectrum[j]) * (1.0 / padded[j] - 1.0 / padded[i])
            if term <= 0:
                # The rank splits a group of equal eigenvalues: not identifiable.
                # (scikit-learn raises "math domain error" here.)
                return -math.inf
            pa += math.log(term) + math.log(n_samples)
    return pu + pl + pv + pp - pa / 2.0 - rank * math.log(n_samples) / 2.0


def infer_dimension(spectrum: Sequence[float], n_samples: int) -> int:
    """Minka's MLE of the number of components, in ``[1, len(spectrum) - 1]``.

    >>> infer_dimension([5.0, 4.0, 0.011, 0.01, 0.009], 100)
    2
    """
    best, best_ll = 1, -math.inf
    for rank in range(1, len(spectrum)):
        ll = _assess_dimension(spectrum, rank, n_samples)
        if ll > best_ll:
            best, best_ll = rank, ll
    return best


def components_for_fraction(ratios: Sequence[Scalar], fraction: Scalar) -> int:
    """Fewest components whose cumulative ratio is *strictly greater* than ``fraction``.

    scikit-learn's rule (``searchsorted(cumsum, fraction, side="right") + 1``):
    at exact equality one more component is kept, so the variance kept always
    exceeds what was asked.  The cumulative sums run left to right, as numpy's
    ``cumsum`` does, so equality is decided on the same bits.

    >>> components_for_fraction([0.5, 0.25, 0.25], 0.5)
    2
    >>> components_for_fraction([0.5, 0.25, 0.25], 0.4999)
    1
    """
    running = None
    count = 0
    for q in ratios:
        running = q if running is None else running + q
        if running <= fraction:
            count += 1
    return min(len(ratios), count + 1)


def _orthonormal_rows(candidates: list[list[Scalar]], count: int, d: int, ctx: Context) -> list[list[Scalar]]:
    """``count`` orthonormal rows: the candidates in order, each orthogonalised
    against those before it (Gram–Schmidt, twice) and normalised, then unit
    vectors orthogonal to them all until there are ``count``.  Row i stays the
    i-th candidate: should one collapse into the span of those before it, it
    and the candidates after it are replaced by the completion."""
    out: list[list[Scalar]] = []
    basis = [[ctx.one if i == j else ctx.zero for i in range(d)] for j in range(d)]
    collapsed = False
    for is_candidate, v in [(True, c) for c in candidates] + [(False, e) for e in basis]:
        if len(out) >= count:
            break
        if is_candidate and collapsed:
            continue
        original = ctx.norm(v)
        for _ in range(2):
            for u in out:
                c = ctx.dot(u, v)
                v = [a - c * b for a, b in zip(v, u)]
        nv = ctx.norm(v)
        # A unit vector keeps at least half its length off a subspace it is not
        # in, for some coordinate axis; a candidate is kept unless it collapsed.
        if nv > (ctx.convert(1e-8) if is_candidate else ctx.half) * original:
            out.append([a / nv for a in v])
        elif is_candidate:
            collapsed = True
    return out


class PCA(Estimator):
    """Principal component analysis.

    Parameters
    ----------
    n_components : None, int, float in (0, 1) or "mle"
        None keeps ``min(n_samples, n_features)`` components; an int keeps
        that many; a float keeps the fewest whose cumulative explained-variance
        ratio is *strictly greater* than it (scikit-learn's rule, so at exact
        equality one more component is kept); ``"mle"`` uses Minka's estimate
        (needs ``n_samples >= n_features``).
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
    solver : "auto", "jacobi", "gram", "svd" or "power"
        ``auto`` picks ``power`` when an int ``n_components`` is at most a
        tenth of ``min(n, d)`` and ``d >= 200``, ``gram`` when
        ``n_samples < n_features``, otherwise ``jacobi``.
    sign : "max_abs_positive", "first_positive", "sum_positive", "none" or None
        The sign rule applied to each component.  None: from the convention.
    convention : "sklearn", "prcomp", "princomp" or "factominer"
        Preset for ``ddof``, ``scale``, ``sign`` and the component names.
    precision : None or int
        None computes with floats; an int computes with that many decimal
        digits and rounds the results to floats.  The full-precision values
        are kept in ``high_precision_``.
    seed : int
        Seed of the start vectors of the ``power`` solver.

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
    _x: Optional[list[list[float]]] = None  # training scores (fit only)
    _moments: Optional[Moments] = None  # partial_fit's accumulator

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
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise PurePCAError(f"seed must be an int, got {self.seed!r}")
        nc = self.n_components
        if not (
            nc is None
            or nc == "mle"
            or (isinstance(nc, numbers.Integral) and not isinstance(nc, bool) and nc >= 1)
            or (isinstance(nc, float) and 0.0 < nc < 1.0)
        ):
            raise PurePCAError(
                f"n_components must be None, an int >= 1, a float strictly between 0 and 1, or 'mle'; got {nc!r}"
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
            raise PurePCAError(f"n_components='mle' needs n_samples >= n_features; got {n} samples and {d} features")
        if solver == "power" and not isinstance(nc, numbers.Integral):
            raise PurePCAError(f"solver='power' computes only the top k components: n_components must be an int, got {nc!r}")

    def _choose_solver(self, n: int, d: int) -> str:
        if self.solver != "auto":
            return self.solver
        nc = self.n_components
        r = min(n, d)
        if isinstance(nc, numbers.Integral) and not isinstance(nc, bool) and d >= 200 and nc * 10 <= r:
            return "power"
        return "gram" if n < d else "jacobi"

    # --------------------------------------------------------------- fitting

    def _read(self, X: Any, ctx: Context, name: str = "X") -> list[list[Scalar]]:
        return as_matrix(X, name=name, context=ctx)

    def _feature_names(self, X: Any) -> Optional[list[str]]:
        columns = getattr(X, "columns", None)
        if columns is None:
            return None
        names = list(columns)
        return [str(c) for c in names] if names and all(isinstance(c, str) for c in names) else None

    def fit(self, X: Any, y: Any = None) -> "PCA":
        """Fit the model to the rows of ``X`` (n_samples x n_features); returns self.

        >>> PCA().fit([[0, 0], [1, 1], [2, 2.5]]).n_components_
        2
        """
        ctx, conv, ddof, scale, sign = self._settings()
        M = self._read(X, ctx)
        n, d = len(M), len(M[0])
        if n < 2:
            raise PurePCAError(f"X: PCA needs at least 2 samples, got {n}")
        solver = self._choose_solver(n, d)
        self._check_k(n, d, solver)
        _divisor(n, ddof, ctx)
        with ctx.local():
            mean = column_means(M, context=ctx) if self.center else [ctx.zero] * d
            # Data whose spread is near overflow or underflow (beyond about
            # 1e±146) are scaled by a power of two, exactly, as LAPACK's drivers
            # do; the variances are scaled back at the end.
            e = 0
            if ctx.needs_scaling:
                e = ctx.scale_exponent(max(abs(x - m) for row in M for x, m in zip(row, mean)))
            if e:
                M = [[ctx.ldexp(x, -e) for x in row] for row in M]
                mean = [ctx.ldexp(m, -e) for m in mean]
            if solver == "jacobi":
                C = covariance_matrix(M, ddof, center=self.center, context=ctx)
                sd = self._scales([ctx.sqrt(C[j][j]) for j in range(d)], ctx, M) if scale else None
                spectrum, comps, total = self._solve_covariance(C, sd, min(n, d), ctx)
            else:
                # The other solvers work on the centred (scaled) data itself; the
                # variances for scaling need only the columns, not a d x d matrix.
                sd = self._scales(column_std(M, ddof, center=self.center, context=ctx), ctx, M) if scale else None
                Z = [[(x - m) / s for x, m, s in zip(row, mean, sd)] for row in M] if sd else \
                    [[x - m for x, m in zip(row, mean)] for row in M]
                solve = {"gram": self._solve_gram, "svd": self._solve_svd, "power": self._solve_power}[solver]
                spectrum, comps, total = solve(Z, n, d, ddof, ctx)
        if not total > 0 and any(max(col) != min(col) for col in zip(*M)):
            raise PurePCAError(f"X: {_UNDERFLOW}")
        self._finish(ctx, conv, sign, ddof, n, d, solver, mean, sd, spectrum, comps, total, e)
        self.feature_names_in_ = self._feature_names(X)
        self._moments = None
        self._x = self._scores([[ctx.ldexp(x, e) for x in row] for row in M] if e else M)
        return self

    def _scales(self, sds: list[Scalar], ctx: Context, M: Optional[list[list[Scalar]]] = None) -> list[Scalar]:
        """The standard deviations for ``scale=True``, refusing a constant column."""
        for j, s in enumerate(sds):
            if not s > 0:
                if M is not None and max(row[j] for row in M) != min(row[j] for row in M):
                    raise PurePCAError(f"X: column {j}: {_UNDERFLOW}")
                raise PurePCAError(f"X: column {j} is constant (standard deviation 0); scale=True cannot scale it")
        return sds

    def _solve_covariance(
        self, C: list[list[Scalar]], sd: Optional[list[Scalar]], r: int, ctx: Context
    ) -> tuple[list[Scalar], list[list[Scalar]], Scalar]:
        if sd is not None:
            C = [[c / (si * sj) for c, sj in zip(row, sd)] for row, si in zip(C, sd)]
            for j in range(len(C)):
                C[j][j] = ctx.one
        eig = jacobi_eigh(C, context=ctx)
        spectrum = [v if v > 0 else ctx.zero for v in eig.values[:r]]
        return spectrum, [list(v) for v in eig.vectors[:r]], ctx.sum(spectrum)

    def _solve_gram(
        self, Z: list[list[Scalar]], n: int, d: int, ddof: int, ctx: Context
    ) -> tuple[list[Scalar], list[list[Scalar]], Scalar]:
        r = min(n, d)
        div = ctx.convert(n - ddof)
        eig = jacobi_eigh(ctx.gram(Z), context=ctx)
        mu = [v if v > 0 else ctx.zero for v in eig.values[:r]]
        ZT = [list(c) for c in zip(*Z)]
        negligible = (mu[0] if mu else ctx.zero) * ctx.eps * ctx.convert(max(n, d))
        # v = Zᵀu for the non-negligible eigenvalues, re-orthogonalised (the
        # Gram matrix squares the condition, so small components lose
        # orthogonality), then completed to r orthonormal rows.
        candidates = [[ctx.dot(col, eig.vectors[i]) for col in ZT] for i in range(r) if mu[i] > negligible]
        comps = _orthonormal_rows(candidates, r, d, ctx)
        return [m / div for m in mu], comps, ctx.sum(mu) / div

    def _solve_svd(
        self, Z: list[list[Scalar]], n: int, d: int, ddof: int, ctx: Context
    ) -> tuple[list[Scalar], list[list[Scalar]], Scalar]:
        r = min(n, d)
        div = ctx.convert(n - ddof)
        svd = jacobi_svd(Z, context=ctx)
        spectrum = [s * s / div for s in svd.values[:r]]
        return spectrum, [list(v) for v in svd.vectors[:r]], ctx.sum(spectrum)

    def _solve_power(
        self, Z: list[list[Scalar]], n: int, d: int, ddof: int, ctx: Context
    ) -> tuple[list[Scalar], list[list[Scalar]], Scalar]:
        k = int(self.n_components)  # type: ignore[arg-type]
        div = ctx.convert(n - ddof)
        ZT = [list(c) for c in zip(*Z)]
        dot = ctx.dot

        def covariance_times(v: list[Scalar]) -> list[Scalar]:
            Zv = [dot(row, v) for row in Z]
            return [dot(col, Zv) / div for col in ZT]

        res = subspace_iteration(covariance_times, d=d, k=k, seed=self.seed, context=ctx)
        spectrum = [v if v > 0 else ctx.zero for v in res.values]
        total = ctx.sum(dot(col, col) for col in ZT) / div
        return spectrum, [list(v) for v in res.vectors], total

    def _finish(
        self,
        ctx: Context,
        conv: Convention,
        sign: str,
        ddof: int,
        n: int,
        d: int,
        solver: str,
        mean: list[Scalar],
        sd: Optional[list[Scalar]],
        spectrum: list[Scalar],
        comps: list[list[Scalar]],
        total: Scalar,
        scale_exp: int = 0,
    ) -> None:
        """Signs, choice of k, ratios and noise variance; then store everything.

        ``mean``, ``sd``, ``spectrum`` and ``total`` are of the data divided by
        ``2**scale_exp``; they are scaled back here (a variance that cannot be
        represented becomes inf or 0; the components and ratios are unaffected).
        """
        r = min(n, d)
        with ctx.local():
            if not total > 0:
                raise PurePCAError(
                    "X: every feature is constant (total variance 0), or varies by so little (below about "
                    "1e-154) that its variance underflows a float; there are no principal components"
                )
            comps = apply_sign_rule(comps, sign)
            ratios = [v / total for v in spectrum]
            nc = self.n_components
            if nc is None:
                k = len(spectrum)
            elif nc == "mle":
                k = infer_dimension([ctx.to_float(v) for v in spectrum], n)
            elif isinstance(nc, float):
                k = components_for_fraction(ratios, ctx.convert(nc))
            else:
                k = int(nc)
            if k < r and solver != "power":
                noise = ctx.sum(spectrum[k:]) / ctx.convert(len(spectrum) - k)
            elif k < r:
                noise = (total - ctx.sum(spectrum)) / ctx.convert(r - k)
                noise = noise if noise > 0 else ctx.zero
            else:
                noise = ctx.zero
            div = ctx.convert(n - ddof)
            e = scale_exp
            singular = [_unscale(ctx.sqrt(v * div), e, ctx) for v in spectrum[:k]]
            roots = [_unscale(ctx.sqrt(v), e, ctx) for v in spectrum[:k]]
            self._report_degenerate([ctx.to_float(v) for v in spectrum], k)
            spectrum = [_unscale(v, 2 * e, ctx) for v in spectrum]
            noise = _unscale(noise, 2 * e, ctx)
            mean = [_unscale(m, e, ctx) for m in mean]
            sd = [_unscale(s, e, ctx) for s in sd] if sd is not None else None
        f = ctx.to_float
        self._ctx = ctx
        self._convention = conv
        self._sign = sign
        self._ddof = ddof
        self.solver_ = solver
        self._mean = mean
        self._sd = sd
        self._variance = spectrum[:k]
        self._roots = roots
        self._components = comps[:k]
        self._noise = noise
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

    #: Eigenvalues closer than this, relative to the largest, count as equal.
    DEGENERATE_GAP = 1e-10

    @classmethod
    def _report_degenerate(cls, spectrum: list[float], k: int) -> None:
        """Warn when kept components (or the k-th and the next) have equal
        eigenvalues to within rounding: their vectors are then not unique.
        Eigenvalues negligible against the largest are left out (they are
        noise, degenerate or not)."""
        if not spectrum or not spectrum[0] > 0:
            return
        limit = cls.DEGENERATE_GAP * spectrum[0]
        last = min(k + 1, len(spectrum))
        pairs = [
            (i, spectrum[i], spectrum[i + 1])
            for i in range(last - 1)
            if spectrum[i + 1] > limit and spectrum[i] - spectrum[i + 1] <= limit
        ]
        if pairs:
            listed = ", ".join(f"{i + 1} and {i + 2} ({a:.6g}, {b:.6g})" for i, a, b in pairs)
            warnings.warn(
                f"eigenvalues {listed} are equal to within {cls.DEGENERATE_GAP:g} of the largest: the "
                "corresponding components are not unique (any rotation within their span is as valid); "
                "compare subspaces, not individual components",
                DegenerateEigenvalueWarning,
                stacklevel=4,
            )

    def fit_transform(self, X: Any, y: Any = None) -> list[list[float]]:
        """Fit, then return the scores of the training data (equal to ``fit(X).transform(X)``).

        >>> PCA(1).fit_transform([[0.0, 0.0], [2.0, 0.0]])
        [[-1.0], [1.0]]
        """
        return [list(row) for row in self.fit(X).x]

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
            raise PurePCAError(f"X has {len(M[0])} features, but partial_fit has seen {moments.d}")
        trial = Moments(context=ctx)
        trial.merge(moments)
        trial.update_many(M)
        if trial.n >= 2:
            self._fit_moments(trial, ctx, conv, ddof, scale, sign)
            self.feature_names_in_ = self._feature_names(X)
        self._moments = trial
        return self

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
        solver = "jacobi"
        if self.solver not in ("auto", "jacobi"):
            raise PurePCAError(f"partial_fit and fit_stream use the covariance (solver 'jacobi'); got solver={self.solver!r}")
        self._check_k(n, d, solver)
        with ctx.local():
            C = moments.covariance(ddof, center=self.center)
            mean = moments.mean if self.center else [ctx.zero] * d
            sd = self._scales([ctx.sqrt(C[j][j]) for j in range(d)], ctx) if scale else None
            spectrum, comps, total = self._solve_covariance(C, sd, min(n, d), ctx)
        self._finish(ctx, conv, sign, ddof, n, d, solver, mean, sd, spectrum, comps, total)

    # ------------------------------------------------------------- using it

    def _fitted(self) -> None:
        if not hasattr(self, "components_"):
            seen = self._moments
            extra = f" (partial_fit has seen {seen.n} sample; it needs 2)" if seen is not None and seen.n else ""
            raise NotFittedError(f"this PCA is not fitted yet; call fit, partial_fit or fit_stream first{extra}")

    def _check_features(self, M: list[list[Scalar]], X: Any) -> None:
        if len(M[0]) != self.n_features_in_:
            raise PurePCAError(f"X has {len(M[0])} features, but PCA was fitted with {self.n_features_in_}")
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
        return self._scores(M)

    def _scores(self, M: list[list[Scalar]]) -> list[list[float]]:
        ctx = self._ctx
        Z = project(M, self._components, self._mean, self._sd, context=ctx)
        if self.whiten:
            Z = whiten(Z, self._roots, context=ctx)
        f = ctx.to_float
        return [[f(v) for v in row] for row in Z]

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
        X = reconstruct(S, self._components, self._mean, self._sd, context=ctx)
        f = ctx.to_float
        return [[f(v) for v in row] for row in X]

    def reconstruction_error(self, X: Any) -> float:
        """Mean over rows of ``‖x - inverse_transform(transform(x))‖²``.

        >>> PCA(1).fit([[0.0, 0.0], [2.0, 0.0], [1.0, 1e-9]]).reconstruction_error([[1.0, 1.0]]) > 0.9
        True
        """
        self._fitted()
        ctx = self._ctx
        M = self._read(X, ctx)
        self._check_features(M, X)
        S = project(M, self._components, self._mean, self._sd, context=ctx)
        R = reconstruct(S, self._components, self._mean, self._sd, context=ctx)
        return ctx.to_float(reconstruction_error(M, R, context=ctx))

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
            raise NotFittedError("x (the training scores) needs fit(X) or fit_transform(X); partial_fit and fit_stream keep no rows")
        return self._x

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
        W = self._components
        if self.whiten:
            W = [[x * s for x in w] for w, s in zip(W, self._roots)]
        diff = [v - self._noise if v > self._noise else ctx.zero for v in self._variance]
        return W, diff

    def _get_covariance(self) -> list[list[Scalar]]:
        ctx = self._ctx
        d = self.n_features_in_
        with ctx.local():
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
        f = self._ctx.to_float
        return [[f(v) for v in row] for row in self._get_covariance()]

    def _get_precision(self) -> list[list[Scalar]]:
        ctx = self._ctx
        d = self.n_features_in_
        with ctx.local():
            if self._noise == 0:
                return _spd_inverse(self._get_covariance(), ctx, "the model covariance")
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
        f = self._ctx.to_float
        return [[f(v) for v in row] for row in self._get_precision()]

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
            P = self._get_precision()
            eig = jacobi_eigh(P, context=ctx)
            if not all(v > 0 for v in eig.values):
                raise PurePCAError("the precision matrix is not positive definite; score_samples is undefined")
            logdet = ctx.sum(ctx.ln(v) for v in eig.values)
            const = ctx.convert(d) * ctx.ln(ctx.two * _pi(ctx)) - logdet
            out = []
            for row in M:
                r = [a - m for a, m in zip(row, self._mean)]
                Pr = [ctx.dot(p, r) for p in P]
                out.append(ctx.to_float(-(ctx.dot(r, Pr) + const) / ctx.two))
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


def _pi(ctx: Context) -> Scalar:
    """π in the context: ``math.pi`` for floats, Machin's formula
    ``16·atan(1/5) - 4·atan(1/239)`` otherwise."""
    if not isinstance(ctx, DecimalContext):
        return ctx.convert(math.pi)
    with ctx.local():
        def arctan_inv(x: int) -> Scalar:
            x2 = ctx.convert(x * x)
            term = ctx.one / ctx.convert(x)
            total, k = term, 1
            while term > ctx.eps * ctx.eps:
                term = term / x2
                piece = term / ctx.convert(2 * k + 1)
                total = total - piece if k % 2 else total + piece
                k += 1
            return total

        return ctx.convert(16) * arctan_inv(5) - ctx.convert(4) * arctan_inv(239)


def _spd_inverse(A: list[list[Scalar]], ctx: Context, what: str) -> list[list[Scalar]]:
    """Inverse of a symmetric positive definite matrix through its eigendecomposition."""
    eig = jacobi_eigh(A, context=ctx)
    if not eig.values or not eig.values[-1] > 0:
        raise PurePCAError(f"{what} is singular (smallest eigenvalue {ctx.to_float(eig.values[-1]) if eig.values else 0.0:.3e}); it has no inverse")
    n = len(A)
    V = eig.vectors
    return [[ctx.sum(V[k][i] * V[k][j] / eig.values[k] for k in range(n)) for j in range(n)] for i in range(n)]
