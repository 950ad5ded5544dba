"""FactoMineR's outputs of a fitted PCA: coordinates, cos², contributions, supplementary points.

Functions of a fitted record (:class:`~purepca.fitting.PCAState`) and, where
they need them, validated rows (new rows, or the training rows the estimator
keeps); :class:`~purepca.PCA` calls them from its methods and properties of
the same names.  The definitions are FactoMineR's ``PCA.R`` with row weights
``1/(n - ddof)`` (or the sample weights over their divisor).

===============================  ============================================
``row_distances``                ``ind$dist``: distance to the centre
``row_cos2``                     ``ind$cos2``: ``coord²/dist²``
``row_contributions``            ``ind$contrib`` of the training rows, in %
``column_coordinates``           ``var$coord``: ``v·sqrt(λ)/sqrt(w_j)``
``column_correlations``          ``var$cor``: correlation with each component
``column_contributions``         ``var$contrib``: ``100·v²``
``supplementary_columns``        ``quanti.sup``: coord, cor, cos2
``supplementary_categories``     ``quali.sup``: coord, dist, cos2, v.test, eta2
``rotated_loadings``             varimax or promax of the loadings
===============================  ============================================

>>> from purepca import PCA
>>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
>>> [round(v, 6) for v in column_coordinates(pca._state)[0]]
[0.956954, 0.29024]
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from .errors import PurePCAError
from .fitting import FACTOMINER_SD_FLOOR, PCAState, plain_scores, standardised_rows
from .numeric import Scalar, _times_power_of_two
from .rotations import Rotation, promax, varimax

__all__ = [
    "column_contributions", "column_coordinates", "column_correlations", "loadings", "rotated_loadings",
    "row_contributions", "row_cos2", "row_distances", "supplementary_categories", "supplementary_columns",
]

Rows = list[list[Scalar]]


def _row_weights(state: PCAState) -> list[float]:
    """The training rows' sample weights (1 each for an unweighted fit)."""
    return state.sample_weight if state.sample_weight is not None else [1.0] * state.n_samples_


def row_distances(state: PCAState, M: Rows) -> list[float]:
    """FactoMineR's ``ind$dist`` of validated rows, in the (scaled) space of the fit.

    >>> from purepca import PCA
    >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
    >>> round(row_distances(pca._state, [[1.0, 2.0]])[0], 6)
    1.434274
    """
    return [math.sqrt(math.fsum(v * v for v in z)) for z in standardised_rows(state, M)]


def row_cos2(state: PCAState, M: Rows) -> list[list[float]]:
    """FactoMineR's ``ind$cos2`` of validated rows: ``coord²/dist²`` (a row's cos² sums to 1 over
    all components).

    >>> from purepca import PCA
    >>> pca = PCA(convention="factominer").fit([[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]])
    >>> round(sum(row_cos2(pca._state, [[1.0, 2.0]])[0]), 12)
    1.0
    """
    coords = plain_scores(state, M)
    return [[c * c / (r * r) if r > 0 else 0.0 for c in row] for row, r in zip(coords, row_distances(state, M))]


def row_contributions(state: PCAState, rows: Rows) -> list[list[float]]:
    """FactoMineR's ``ind$contrib`` of the training ``rows``, in percent: ``100·w·coord²/(div·λ)``."""
    coords = plain_scores(state, rows)
    return [[100.0 * w * c * c / (state.div * v) if v > 0 else 0.0 for c, v in zip(row, state.explained_variance_)]
            for row, w in zip(coords, _row_weights(state))]


def loadings(state: PCAState) -> list[list[float]]:
    """``v_jc·sqrt(λ_c)`` (d x k): the loadings of the columns as the fit saw them.

    >>> from purepca import PCA
    >>> [round(v, 6) for v in loadings(PCA(1).fit([[0.0, 0.0], [2.0, 2.0]])._state)[0]]
    [1.414214]
    """
    roots = [math.sqrt(v) for v in state.explained_variance_]
    return [[c[j] * r for c, r in zip(state.components_, roots)] for j in range(state.n_features_in_)]


def column_coordinates(state: PCAState) -> list[list[float]]:
    """FactoMineR's ``var$coord``: ``v_jc·sqrt(λ_c)/sqrt(w_j)`` (d x k), ``w_j`` the column weight."""
    cw = state.column_weight
    if cw is None:
        return loadings(state)
    return [[v / math.sqrt(c) for v in row] for row, c in zip(loadings(state), cw)]


def _column_variances(state: PCAState, rows: Rows) -> list[float]:
    """The variances (divisor of the fit) of the fitted columns as the fit saw them (1 when scaled)."""
    Z = standardised_rows(state, rows)
    w = _row_weights(state)
    return [math.fsum(wi * z[j] * z[j] for z, wi in zip(Z, w)) / state.div for j in range(state.n_features_in_)]


def column_correlations(state: PCAState, rows: Rows) -> list[list[float]]:
    """FactoMineR's ``var$cor``: the correlation of each column with each component (d x k), from the
    training ``rows``."""
    variances = _column_variances(state, rows)
    return [[c / math.sqrt(v) if v > 0 else 0.0 for c in row] for row, v in zip(loadings(state), variances)]


def column_contributions(state: PCAState) -> list[list[float]]:
    """FactoMineR's ``var$contrib`` in percent: ``100·v_jc²`` (each component sums to 100)."""
    return [[100.0 * c[j] * c[j] for c in state.components_] for j in range(state.n_features_in_)]


def supplementary_columns(state: PCAState, rows: Rows, S: list[list[float]]) -> dict[str, list[list[float]]]:
    """FactoMineR's ``quanti.sup`` of the validated supplementary columns ``S`` (n x q) measured on the
    training ``rows``: ``coord``, ``cor`` and ``cos2`` (see :meth:`purepca.PCA.supplementary_columns`)."""
    n = state.n_samples_
    if len(S) != n:
        raise PurePCAError(f"X_sup: {len(S)} rows, but the model was fitted on {n}; supplementary columns "
                           "are measured on the training rows")
    div, w = state.div, _row_weights(state)
    total = math.fsum(w)
    coords = plain_scores(state, rows)
    roots = [math.sqrt(v) for v in state.explained_variance_]
    factominer = state.convention == "factominer"
    coord, cor = [], []
    for j in range(len(S[0])):
        # The column divided by a power of two (exactly) so that its squares neither overflow nor
        # underflow: at 1e200 or 1e-200 they did, and every correlation came out 0.
        col = [row[j] for row in S]
        e = math.frexp(max(map(abs, col)))[1] if any(col) else 0
        col = [math.ldexp(x, -e) for x in col]
        m = math.fsum(wi * x for wi, x in zip(w, col)) / total
        dev = [x - m for x in col]
        unit = e  # the power of two the coordinates are in
        if state.scaled:
            sdj = math.sqrt(math.fsum(wi * v * v for wi, v in zip(w, dev)) / div)
            if factominer and _times_power_of_two(sdj, e) <= FACTOMINER_SD_FLOOR:
                pass  # FactoMineR divides a (nearly) constant column by 1: it stays in the data's units
            elif sdj == 0:
                raise PurePCAError(f"X_sup: column {j} is constant; a scaled PCA cannot scale it")
            else:
                dev = [v / sdj for v in dev]
                unit = 0
        var = math.fsum(wi * v * v for wi, v in zip(w, dev)) / div
        scaled_coord = [math.fsum(wi * x * c[k] for wi, x, c in zip(w, dev, coords)) / (div * r) if r > 0 else 0.0
                        for k, r in enumerate(roots)]
        coord.append([_times_power_of_two(c, unit) for c in scaled_coord])
        cor.append([c / math.sqrt(var) if var > 0 else 0.0 for c in scaled_coord])
    return {"coord": coord, "cor": cor, "cos2": [[c * c for c in row] for row in cor]}


def _check_labels(labels: Any, n: int) -> list[str]:
    """One label per training row, none missing; as strings."""
    if isinstance(labels, (set, frozenset, dict)):
        raise PurePCAError(f"labels: got a {type(labels).__name__}, whose order is not the order of the rows; "
                           "expected one label per training row, in order (a list or tuple)")
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__") or len(labels) != n:
        got = len(labels) if hasattr(labels, "__len__") and not isinstance(labels, (str, bytes)) else labels
        raise PurePCAError(f"labels: need one label per training row ({n}), got {got!r}")
    for i, label in enumerate(labels):
        if label is None or (isinstance(label, float) and label != label):
            raise PurePCAError(f"labels: entry {i} is missing")
    return [str(label) for label in labels]


def supplementary_categories(state: PCAState, rows: Rows, labels: Sequence[Any]) -> dict[str, Any]:
    """FactoMineR's ``quali.sup`` for one categorical variable measured on the training ``rows``
    (see :meth:`purepca.PCA.supplementary_categories` for the definitions)."""
    names = _check_labels(labels, state.n_samples_)
    w = _row_weights(state)
    total = math.fsum(w)
    coords = plain_scores(state, rows)
    Z = standardised_rows(state, rows)
    lam = state.explained_variance_
    levels = sorted(set(names))
    groups = [[i for i, name in enumerate(names) if name == level] for level in levels]
    sizes = [math.fsum(w[i] for i in members) for members in groups]
    out: dict[str, Any] = {"levels": levels, "coord": [], "dist": [], "cos2": [], "v_test": []}
    for level, members, size in zip(levels, groups, sizes):
        if not size > 0:
            raise PurePCAError(f"labels: category {level!r} has no row of positive weight")
        coord = [math.fsum(w[i] * coords[i][c] for i in members) / size for c in range(len(lam))]
        centre = [math.fsum(w[i] * Z[i][j] for i in members) / size for j in range(state.n_features_in_)]
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


def rotated_loadings(state: PCAState, method: str, normalize: bool, eps: float, m: int) -> Rotation:
    """The loadings ``v·sqrt(λ)`` rotated by R's ``varimax`` or ``promax`` (:mod:`purepca.rotations`)."""
    if state.n_components_ == 0:
        raise PurePCAError("rotated_loadings: the model keeps no component (n_components_ = 0); there are no "
                           "loadings to rotate")
    if method == "varimax":
        return varimax(loadings(state), normalize=normalize, eps=eps)
    if method == "promax":
        return promax(loadings(state), m=m)
    raise PurePCAError(f"method must be 'varimax' or 'promax'; got {method!r}")
