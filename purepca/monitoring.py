"""Process monitoring with a fitted PCA: Hotelling's T², the SPE (Q) and their control limits.

Functions of a fitted record (:class:`~purepca.fitting.PCAState`) and, for
the statistics of rows, validated rows; :class:`~purepca.PCA` calls them from
its methods of the same names.

==========================  ===================================================
``hotelling_t2``            ``Σ_j t_j²/λ_j`` over the kept components
``spe``                     the squared distance to the model's subspace
``t2_limit``                F (new rows) or beta (training rows) limit
``spe_limit``               Jackson and Mudholkar's limit from the discarded
                            eigenvalues
==========================  ===================================================

The eigenvalues are those of the sample covariance (divisor n - 1), whatever
the convention's divisor; with sample weights n is their sum (frequencies).

>>> from purepca import PCA
>>> pca = PCA(1).fit([[0.0, 0.0], [1.0, 1.1], [2.0, 1.9], [3.0, 3.2]])
>>> [round(v, 6) for v in hotelling_t2(pca._state, [[1.5, 1.55], [4.0, 4.0]])]
[0.0, 3.520709]
"""

from __future__ import annotations

import math
from typing import Optional

from .distributions import beta_ppf, f_ppf, norm_ppf
from .errors import PurePCAError
from .fitting import PCAState, plain_scores, standardised_rows
from .numeric import Scalar

__all__ = ["hotelling_t2", "sample_variances", "spe", "spe_limit", "t2_limit"]


def sample_variances(state: PCAState, values: Optional[list[float]] = None) -> list[float]:
    """Eigenvalues (the kept ones by default) with the sample divisor n - 1, what T² and the SPE
    limit assume, whatever the convention's divisor (n is the sum of the weights for a weighted fit).

    >>> from purepca import PCA
    >>> sample_variances(PCA(convention="princomp").fit([[0.0], [2.0]])._state)
    [2.0]
    """
    n = state.n_eff
    if n <= 1:
        raise PurePCAError(f"the sample weights sum to {n!r}: T² and the SPE limit treat them as frequencies "
                           "and need a sum above 1 (pass counts, not weights normalised to sum to 1)")
    return [v * state.div / (n - 1) for v in (state.explained_variance_ if values is None else values)]


def hotelling_t2(state: PCAState, M: list[list[Scalar]]) -> list[float]:
    """Hotelling's T² of each validated row: ``Σ_j t_j²/λ_j`` (see the module's docstring)."""
    lam = sample_variances(state)
    return [math.fsum(t * t / l if l > 0 else 0.0 for t, l in zip(row, lam)) for row in plain_scores(state, M)]


def spe(state: PCAState, M: list[list[Scalar]]) -> list[float]:
    """The squared prediction error (Q) of each validated row, in the (centred, scaled) space of the fit.

    >>> from purepca import PCA
    >>> pca = PCA(1).fit([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.1]])
    >>> [round(v, 6) for v in spe(pca._state, [[1.0, 2.0]])]
    [0.47557]
    """
    comps = state.components_
    out = []
    for z in standardised_rows(state, M):
        t = [math.fsum(a * b for a, b in zip(c, z)) for c in comps]
        resid = [math.fsum([z[j]] + [-tj * c[j] for tj, c in zip(t, comps)]) for j in range(len(z))]
        out.append(math.fsum(r * r for r in resid))
    return out


def t2_limit(state: PCAState, alpha: float, kind: str) -> float:
    """The upper control limit of T² at level ``alpha`` (validated): ``kind="new"`` the F limit,
    ``"training"`` the beta limit (Tracy, Young and Mason 1992).

    >>> from purepca import PCA
    >>> pca = PCA(1).fit([[0.0, 0.0], [1.0, 1.1], [2.0, 1.9], [3.0, 3.2], [1.0, 0.0]])
    >>> round(t2_limit(pca._state, 0.05, "new"), 6)
    9.250377
    """
    n, k = state.n_eff, state.n_components_
    if k == 0:
        raise PurePCAError("t2_limit: the model keeps no component (n_components_ = 0), so T² is 0 for every row "
                           "and has no limit")
    # With sample weights n is their sum: the limits take them as counts.
    counts = "" if state.sample_weight is None else (
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


def spe_limit(state: PCAState, alpha: float) -> float:
    """The upper control limit of the SPE at level ``alpha`` (validated), Jackson and Mudholkar (1979):
    with ``θ_i = Σ_(j>k) λ_j^i`` over the discarded eigenvalues, ``h0 = 1 - 2θ1θ3/(3θ2²)`` and ``c`` the
    normal quantile of ``1 - α``, ``Q = θ1·(c·sqrt(2θ2h0²)/θ1 + 1 + θ2h0(h0 - 1)/θ1²)^(1/h0)``.

    >>> from purepca import PCA
    >>> pca = PCA(1).fit([[0.0, 0.0, 1.0], [1.0, 1.1, 0.0], [2.0, 1.9, 1.0], [3.0, 3.2, 0.5], [1.0, 0.0, 0.0]])
    >>> round(spe_limit(pca._state, 0.05), 6)
    1.132233
    """
    if state.rest is None:
        raise PurePCAError(f"spe_limit: solver {state.solver_!r} found only the kept eigenvalues; the limit needs "
                           "the discarded ones too (use a full solver)")
    rest = [v for v in sample_variances(state, state.rest) if v > 0]
    if not rest:
        return 0.0
    t1, t2, t3 = (math.fsum(v ** i for v in rest) for i in (1, 2, 3))
    h0 = 1 - 2 * t1 * t3 / (3 * t2 * t2)
    c = norm_ppf(1 - alpha)
    base = c * math.sqrt(2 * t2 * h0 * h0) / t1 + 1 + t2 * h0 * (h0 - 1) / (t1 * t1)
    if not base > 0:
        # The normal approximation behind the formula reaches below zero at small 1 - alpha.
        raise PurePCAError(f"spe_limit: Jackson and Mudholkar's approximation has no value at alpha = {alpha!r} for "
                           f"these {len(rest)} discarded eigenvalue(s) (its base is {base:.3g} <= 0); use a smaller "
                           "alpha (0.05 and 0.01 are the usual levels)")
    return float(t1 * base ** (1 / h0))
