"""Missing cells in the data of a fit: drop the rows, fill the means, or impute by iterative PCA.

:class:`~purepca.PCA` takes ``missing="error" | "drop" | "mean" | "em"``; the
three that do something are here, as functions of the rows with their holes
and a fit function (validated rows and weights in, a fitted record out), so
that the imputation re-fits without touching the estimator and the data are
validated once, at the door.

========================  ====================================================
``with_holes``            the rows with None in each missing cell, and where
``fit_missing``           drop / mean / em, then the fit of the completed data
``em_fixed_point``        the EM fixed point at the holes (SQUAREM-accelerated)
========================  ====================================================

``"em"`` is missMDA's ``imputePCA(method="EM")`` (the model re-fitted, means
included, at each step), or under ``convention="statsmodels"`` statsmodels'
``fill-em`` (the observed means and standard deviations held fixed, the
reconstruction about zero).  The two fixed points differ.

>>> rows, holes = with_holes([[1.0, None], [2.0, 4.0], [float("nan"), 6.0]])
>>> holes
[(0, 1), (2, 0)]
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

from .errors import PurePCAError
from .fitting import PCAState, Settings, fit_rows, reconstruct
from .imputation import squarem
from .numeric import Context, Scalar
from .params import _show, as_int, as_real

__all__ = ["EM_MAX_ITER", "EM_TOL", "em_fixed_point", "fit_missing", "with_holes"]

#: missing="em": stop when the estimated distance to the fixed point is below this, relative to the data's spread.
EM_TOL = 1e-10
EM_MAX_ITER = 1000

Grid = list[list[float]]
#: A fit: validated rows (at the fit's precision), sample weights and column weights in; the record out.
FitFunction = Callable[[list[list[Scalar]], Optional[list[float]], Optional[list[float]]], PCAState]


def with_holes(X: Any) -> tuple[list[list[Optional[float]]], list[tuple[int, int]]]:
    """The rows with None for each missing cell (None or NaN), and the (row, column) of each hole.

    Other cells are left for :func:`~purepca.as_matrix` to validate after the holes are filled.
    """
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    if hasattr(X, "tolist"):
        X = X.tolist()
    if isinstance(X, (set, frozenset, dict)):
        raise PurePCAError(f"X: expected a 2-D table of numbers (rows in order), got a {type(X).__name__}")
    try:
        rows = [list(row) for row in X]
    except TypeError:
        raise PurePCAError(f"X: expected a 2-D table of numbers, got {type(X).__name__}") from None
    if not rows or not rows[0]:
        raise PurePCAError("X: no data")
    holes = []
    out: list[list[Optional[float]]] = []
    for i, row in enumerate(X if isinstance(X, (list, tuple)) else rows):
        if isinstance(row, (set, frozenset, dict)):
            raise PurePCAError(f"X: row {i} is a {type(row).__name__}, whose order is not the order of columns; "
                               "expected a sequence of numbers (a list or tuple)")
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


def _at(grid: Grid, ctx: Context) -> list[list[Scalar]]:
    """The completed float grid at the fit's precision (its cells are already validated)."""
    return grid if ctx.name == "float" else [[ctx.convert(v) for v in row] for row in grid]


def fit_missing(s: Settings, missing: str, rows: list[list[Optional[float]]], holes: list[tuple[int, int]],
                w: Optional[list[float]], cw: Optional[list[float]],
                fit: FitFunction, tol: float = EM_TOL, max_iter: int = EM_MAX_ITER
                ) -> tuple[PCAState, list[list[Scalar]]]:
    """The record of the rows completed as ``missing`` says (``"drop"``, ``"mean"`` or ``"em"``), and
    the rows it was fitted on.  ``rows`` are validated floats with None at the ``holes``; ``w`` and
    ``cw`` validated weights; ``fit`` fits validated rows; ``tol`` and ``max_iter`` stop the EM
    iteration (:func:`em_fixed_point`)."""
    ctx = s.ctx
    d = len(rows[0])
    if missing == "drop":
        whole = [i for i, row in enumerate(rows) if all(v is not None for v in row)]
        if len(whole) < 2:
            raise PurePCAError(f"X: {len(rows) - len(whole)} of {len(rows)} rows have a missing value; "
                               f"missing='drop' leaves {len(whole)}, and PCA needs at least 2")
        M = _at([[float(v) for v in rows[i]] for i in whole], ctx)  # type: ignore[arg-type]
        state = fit(M, None if w is None else [w[i] for i in whole], cw)
        return state.replace(n_dropped_=len(rows) - len(whole)), M
    filled = _mean_filled(rows, w)
    if missing == "mean" or not holes:
        M = _at(filled, ctx)
        return fit(M, w, cw).replace(imputed_=[list(r) for r in filled]), M
    nc = s.n_components
    if not (isinstance(nc, int) and not isinstance(nc, bool) and 1 <= nc < d):
        raise PurePCAError(f"missing='em' imputes with the model's own components: n_components must be an int "
                           f"between 1 and n_features - 1 = {d - 1}, got {nc!r}")
    _check_identified(rows, holes, nc)
    if s.convention == "statsmodels":
        filled, steps = _fill_em(s, rows, holes, nc, w, tol, max_iter)
    else:
        def rebuild(grid: Grid) -> Grid:
            """missMDA's step: the model re-fitted, means included; the data reconstructed from k components."""
            M = _at(grid, ctx)
            return reconstruct(fit(M, w, cw), M)

        steps = em_fixed_point(filled, holes, rebuild, tol, max_iter)
    M = _at(filled, ctx)
    return fit(M, w, cw).replace(imputed_=[list(r) for r in filled], n_iter_=steps), M


def _check_identified(rows: list[list[Optional[float]]], holes: list[tuple[int, int]], k: int) -> None:
    """Refuse holes that a rank-k model cannot determine (two fixed points or more, EM would return
    one of them without a word): a row with holes needs at least k observed values (its k scores), a
    column with holes at least k + 1 (its mean and k loadings), and the observed cells must outnumber
    the model's degrees of freedom, ``d + k(n + d - k) - k`` (means, a rank-k matrix, centred scores).
    """
    n, d = len(rows), len(rows[0])
    seen_rows = [sum(v is not None for v in row) for row in rows]
    seen_cols = [sum(row[j] is not None for row in rows) for j in range(d)]
    for i, j in holes:
        if seen_rows[i] < k:
            raise PurePCAError(f"X: row {i} has {seen_rows[i]} observed value(s), fewer than the {k} component(s) "
                               "that missing='em' would have to estimate for it: its holes are not determined; "
                               "use fewer components or missing='drop'")
        if seen_cols[j] < k + 1:
            raise PurePCAError(f"X: column {j} has {seen_cols[j]} observed value(s); missing='em' needs at least "
                               f"k + 1 = {k + 1} (a mean and {k} loading(s)) to determine its holes; use fewer "
                               "components or missing='mean'")
    observed = n * d - len(holes)
    freedom = d + k * (n + d - k) - k
    if observed <= freedom:
        raise PurePCAError(f"X: {observed} observed values cannot determine a rank-{k} model with means "
                           f"({freedom} degrees of freedom): missing='em' has more than one fixed point here; use "
                           "fewer components, more rows, or missing='mean'")


def _mean_filled(rows: list[list[Optional[float]]], w: Optional[list[float]]) -> Grid:
    """The rows with each hole filled by the (weighted) mean of its column's present values."""
    means = []
    for j in range(len(rows[0])):
        present = [(float(row[j]), 1.0 if w is None else w[i])  # type: ignore[arg-type]
                   for i, row in enumerate(rows) if row[j] is not None]
        if not present or not any(wi > 0 for _, wi in present):
            raise PurePCAError(f"X: column {j} has no value at all (of positive weight); it cannot be imputed")
        means.append(math.fsum(v * wi for v, wi in present) / math.fsum(wi for _, wi in present))
    return [[means[j] if v is None else float(v) for j, v in enumerate(row)] for row in rows]


def em_fixed_point(grid: Grid, holes: list[tuple[int, int]], rebuild: Callable[[Grid], Grid], tol: float = EM_TOL,
                   max_iter: int = EM_MAX_ITER) -> int:
    """Fill the ``holes`` of ``grid`` (in place) with the fixed point of ``rebuild`` read at the holes,
    accelerated by :func:`~purepca.imputation.squarem`, to ``tol`` of the grid's spread in at most
    ``max_iter`` steps; return the number of steps.

    >>> grid = [[1.0, 0.0], [2.0, 2.0]]
    >>> em_fixed_point(grid, [(0, 1)], lambda g: [[1.0, 5.0], [2.0, 2.0]]), grid[0][1]
    (2, 5.0)
    """
    _check_em_arguments(grid, holes, rebuild)
    tol = as_real(tol, "tol", low=0.0)
    max_iter = as_int(max_iter, "max_iter", low=0)
    spread = max(max(col) - min(col) for col in zip(*grid)) or 1.0

    def step(values: list[float]) -> list[float]:
        for (i, j), v in zip(holes, values):
            grid[i][j] = v
        rebuilt = rebuild(grid)
        return [rebuilt[i][j] for i, j in holes]

    values, steps = squarem(step, [grid[i][j] for i, j in holes], tol * spread, max_iter)
    for (i, j), v in zip(holes, values):
        grid[i][j] = v
    return steps


def _check_em_arguments(grid: Any, holes: Any, rebuild: Any) -> None:
    """The door of :func:`em_fixed_point`: a rectangular grid of finite floats (changed in place), holes
    that are cells of it, a function to rebuild the grid; else a :class:`PurePCAError` naming what.

    >>> _check_em_arguments([[1.0, 2.0]], [(0, 2)], print)
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: holes[0] must be a cell (i, j) of the 1 x 2 grid, got (0, 2)
    """
    if not (isinstance(grid, list) and grid and all(isinstance(row, list) for row in grid)
            and grid[0] and all(len(row) == len(grid[0]) for row in grid)):
        raise PurePCAError(f"grid must be a non-empty rectangular list of lists of numbers (filled in place), "
                           f"got {_show(grid)}")
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if type(v) is not float or not math.isfinite(v):
                as_real(v, f"grid[{i}][{j}]")
    n, d = len(grid), len(grid[0])
    if not isinstance(holes, (list, tuple)):
        raise PurePCAError(f"holes must be a list of cells (i, j), got {_show(holes)}")
    for h, cell in enumerate(holes):
        if not (isinstance(cell, tuple) and len(cell) == 2
                and all(isinstance(c, int) and not isinstance(c, bool) for c in cell)
                and 0 <= cell[0] < n and 0 <= cell[1] < d):
            raise PurePCAError(f"holes[{h}] must be a cell (i, j) of the {n} x {d} grid, got {_show(cell)}")
    if not callable(rebuild):
        raise PurePCAError(f"rebuild must be a function (grid -> grid), got {_show(rebuild)}")


def _fill_em(s: Settings, rows: list[list[Optional[float]]], holes: list[tuple[int, int]], k: int,
             w: Optional[list[float]], tol: float, max_iter: int) -> tuple[Grid, int]:
    """statsmodels' ``fill-em``: each column is centred (and, with ``scale``, divided) once by the mean
    (and the standard deviation, divisor n) of its present values; the holes start at 0 and take the
    rank-k reconstruction of the standardised data *about zero* (no centring inside the loop) until
    they stop moving; they are then carried back to the data's units.  Returns the completed rows and
    the number of steps."""
    if w is not None:
        raise PurePCAError("missing='em' under convention='statsmodels' has no sample weights (statsmodels' "
                           "fill-em has none); use another convention for a weighted imputation")
    mu, sigma = [], []
    for j in range(len(rows[0])):
        present = [float(row[j]) for row in rows if row[j] is not None]  # type: ignore[arg-type]
        m = math.fsum(present) / len(present)
        mu.append(m if s.center else 0.0)
        sd = math.sqrt(math.fsum((x - m) ** 2 for x in present) / len(present))
        if s.scale and sd == 0:
            raise PurePCAError(f"X: column {j} is constant where present; it cannot be standardised")
        sigma.append(sd if s.scale else 1.0)
    Y = [[0.0 if v is None else (float(v) - mu[j]) / sigma[j] for j, v in enumerate(row)] for row in rows]
    inner = Settings(ctx=s.ctx, n_components=k, center=False, scale=False, sign="none",
                     solver="svd" if s.solver == "auto" else s.solver)

    def rebuild(grid: Grid) -> Grid:
        """fill-em's step: the rank-k reconstruction of the standardised data about zero."""
        M = _at(grid, s.ctx)
        return reconstruct(fit_rows(inner, M), M)

    steps = em_fixed_point(Y, holes, rebuild, tol, max_iter)
    filled = [[float(v) if v is not None else Y[i][j] * sigma[j] + mu[j] for j, v in enumerate(row)]
              for i, row in enumerate(rows)]
    return filled, steps
