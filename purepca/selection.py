"""How many components to keep: the rules that read a spectrum.

=================================  ==========================================
``components_for_fraction(r, f)``  fewest components whose cumulative ratio
                                   is strictly greater than ``f`` (sklearn)
``infer_dimension(spectrum, n)``   Minka's MLE (``n_components="mle"``)
``kaiser(spectrum)``               eigenvalues above the mean eigenvalue
``broken_stick(ratios)``           leading components whose share beats
                                   the broken-stick expectation
``parallel_analysis(...)``         Horn's parallel analysis: leading
                                   eigenvalues above the quantile of those
                                   of random data of the same shape
=================================  ==========================================

>>> components_for_fraction([0.6, 0.3, 0.1], 0.8)
2
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

from .errors import PurePCAError
from .numeric import Scalar, _times_power_of_two

__all__ = ["broken_stick", "components_for_fraction", "infer_dimension", "kaiser", "parallel_analysis"]


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
    from .linalg.matrix import as_vector
    from .params import as_int

    values = as_vector(spectrum, name="spectrum")
    n_samples = as_int(n_samples, "n_samples", low=1)
    for i in range(1, len(values)):
        if values[i] > values[i - 1]:
            raise PurePCAError(f"spectrum: entry {i} ({values[i]!r:.60}) is above entry {i - 1} "
                               f"({values[i - 1]!r:.60}); expected eigenvalues in decreasing order")
    best, best_ll = 1, -math.inf
    try:
        for rank in range(1, len(values)):
            ll = _assess_dimension(values, rank, n_samples)
            if ll > best_ll:
                best, best_ll = rank, ll
    except OverflowError:
        raise PurePCAError(f"infer_dimension: the log-likelihood is beyond the float range (spectrum up to "
                           f"{values[0]!r:.60}, n_samples={n_samples!r:.60}); rescale the spectrum") from None
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
    from .linalg.matrix import _convert_entry
    from .numeric import FLOAT

    if ratios is None or isinstance(ratios, (str, bytes, set, frozenset, dict)) or not hasattr(ratios, "__len__"):
        raise PurePCAError(f"ratios: {ratios!r:.60} is not a sequence of numbers")
    for j, q in enumerate(ratios):
        _convert_entry(q, "ratios", f"entry {j}", FLOAT)  # a finite real number (kept as it is)
    _convert_entry(fraction, "fraction", "the value", FLOAT)
    running = None
    count = 0
    for q in ratios:
        running = q if running is None else running + q
        if running <= fraction:
            count += 1
    return min(len(ratios), count + 1)


def kaiser(spectrum: Sequence[float], total: float, count: int) -> int:
    """Kaiser's rule (Kaiser 1960; Guttman 1954): the components whose eigenvalue is above the mean
    eigenvalue ``total/count`` (above 1 for a correlation matrix).

    >>> kaiser([2.2, 1.1, 0.5, 0.2], 4.0, 4)
    2
    """
    from .linalg.matrix import as_vector
    from .params import as_int, as_real

    values = as_vector(spectrum, name="spectrum")
    total = as_real(total, "total")
    count = as_int(count, "count", low=1, high=PARALLEL_MAX_ENTRIES)
    mean = total / count
    return sum(1 for v in values if v > mean)


#: The most random numbers :func:`parallel_analysis` draws (n x d x iterations): past it, hours of work;
#: also the most eigenvalues :func:`kaiser` counts.
PARALLEL_MAX_ENTRIES = 10 ** 9


#: The most pieces :func:`broken_stick` breaks the stick into (the number of features of a PCA).
BROKEN_STICK_MAX = 10 ** 6


def broken_stick(ratios: Sequence[float], count: int) -> int:
    """The broken-stick rule (Frontier 1976; Jolliffe 2002, section 6.1.2): keep the leading components
    whose share of the variance exceeds ``b_i = (1/p)·Σ_(j=i..p) 1/j``, the expected length of the i-th
    longest piece of a stick of length 1 broken at random into ``p = count`` pieces.

    >>> broken_stick([0.62, 0.25, 0.09, 0.04], 4)
    1
    """
    from .linalg.matrix import as_vector
    from .params import as_int

    shares = as_vector(ratios, name="ratios")
    count = as_int(count, "count", low=max(len(shares), 1), high=BROKEN_STICK_MAX)  # before the count-long sums
    k = 0
    for i, share in enumerate(shares):
        expected = math.fsum(1.0 / j for j in range(i + 1, count + 1)) / count
        if share > expected:
            k += 1
        else:
            break
    return k


def parallel_analysis(n: int, d: int, *, scale: bool, sd: Optional[Sequence[float]] = None, ddof: int = 1,
                      iterations: int = 100, quantile: float = 0.95, seed: Optional[int] = 0) -> list[float]:
    """Horn's (1965) parallel analysis: the ``quantile`` of each eigenvalue over ``iterations`` data
    sets of n independent normal rows of d columns (standard normal for a correlation PCA; with the
    columns' standard deviations ``sd`` for a covariance PCA, so that the thresholds have the data's
    units).  ``random.Random(seed)`` makes the thresholds reproducible.  A component is kept while its
    eigenvalue is above its threshold.

    >>> t = parallel_analysis(100, 3, scale=True, iterations=20, seed=1)
    >>> len(t), t[0] > 1 > t[-1]
    (3, True)
    """
    import random

    from .linalg.eigen import eigh

    from .linalg.matrix import as_vector
    from .params import as_int, as_real

    ddof = as_int(ddof, "ddof", low=0)
    n = as_int(n, "n", low=max(2, ddof + 1), high=PARALLEL_MAX_ENTRIES)
    d = as_int(d, "d", low=1, high=PARALLEL_MAX_ENTRIES)
    quantile = as_real(quantile, "parallel analysis: quantile")
    if not 0.0 < quantile < 1.0:
        raise PurePCAError(f"parallel analysis: quantile must be strictly between 0 and 1, got {quantile!r:.60}")
    iterations = as_int(iterations, "iterations", low=1)
    if n * d * iterations > PARALLEL_MAX_ENTRIES:
        raise PurePCAError(f"parallel analysis: n={n} x d={d} x iterations={iterations} random numbers is more "
                           f"than {PARALLEL_MAX_ENTRIES:.0e}; use fewer iterations")
    if seed is not None:
        seed = as_int(seed, "seed")
    rng = random.Random(seed)
    if scale or sd is None:
        scales = [1.0] * d
    else:
        scales = as_vector(sd, name="sd")
        if len(scales) != d or min(scales) < 0:
            raise PurePCAError(f"sd: expected {d} standard deviations >= 0, got {sd!r:.60}")
    # Sds beyond 2**±400 are simulated in units of 2**e, the largest near 1, so that no square overflows or
    # underflows (every step scales exactly by powers of two); the thresholds are scaled back at the end.
    big = max(scales)
    e = math.frexp(big)[1] if big > 0 and not 2.0 ** -400 < big < 2.0 ** 400 else 0
    scales = [math.ldexp(s, -e) for s in scales] if e else scales
    draws: list[list[float]] = [[] for _ in range(min(n - 1, d))]
    for _ in range(iterations):
        cols = [[rng.gauss(0.0, s) for _ in range(n)] for s in scales]
        means = [math.fsum(c) / n for c in cols]
        dev = [[x - m for x in c] for c, m in zip(cols, means)]
        C = [[math.fsum(a * b for a, b in zip(dev[i], dev[j])) / (n - ddof) for j in range(d)] for i in range(d)]
        if scale:
            sds = [math.sqrt(C[j][j]) for j in range(d)]
            C = [[C[i][j] / (sds[i] * sds[j]) for j in range(d)] for i in range(d)]
        values = eigh(C).values
        for i in range(len(draws)):
            draws[i].append(float(values[i]))
    out = []
    for column in draws:
        column.sort()
        # The quantile by linear interpolation between order statistics (R's type 7, numpy's default).
        h = (len(column) - 1) * quantile
        lo = int(math.floor(h))
        hi = min(lo + 1, len(column) - 1)
        threshold = column[lo] + (h - lo) * (column[hi] - column[lo])
        out.append(_times_power_of_two(threshold, 2 * e) if e else threshold)
    return out

