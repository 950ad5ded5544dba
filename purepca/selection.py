"""How many components to keep: the rules that read a spectrum.

=================================  ==========================================
``components_for_fraction(r, f)``  fewest components whose cumulative ratio
                                   is strictly greater than ``f`` (sklearn)
``infer_dimension(spectrum, n)``   Minka's MLE (``n_components="mle"``)
=================================  ==========================================

>>> components_for_fraction([0.6, 0.3, 0.1], 0.8)
2
"""

from __future__ import annotations

import math
from typing import Sequence

from .numeric import Scalar

__all__ = ["components_for_fraction", "infer_dimension"]


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
