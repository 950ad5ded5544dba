"""Centring and residuals by passes written for an interpreter (kernels of :mod:`purepca.fast`).

The reference is ``covariance._centred_columns`` (the corrected two-pass algorithm: the mean
``hi`` by ``fsum``, the exact correction ``lo``, the deviations, scaled by a power of two near
the ends of the range) and ``fitting.discarded_variance``.  These kernels promise:

===========================  =======================  ==============================================
kernel                       interpreter              contract against the reference
===========================  =======================  ==============================================
``centring(..., "sumprod")`` CPython 3.12+            ``hi`` may differ by an ulp (sumprod's mean);
                                                      ``lo`` is the exact correction of that ``hi``,
                                                      so ``hi + lo`` is the mean to twice the
                                                      precision as before; same scaling
``extended_centring``        CPython 3.12+, a fit's   no deviation made: the Gram within
                             Gram (lazy)              ``u·|G_ij| + (u/4)·‖c_i‖·‖c_j‖`` (proof below)
``centring(..., "fused")``   PyPy                     ``Σ(x - hi)`` within ``u + γ²_n·Σ|d|``; the
                                                      deviations made only when read
``residual_squares``         CPython 3.12+            within ``u`` of itself plus ``3m³u³·2‖z‖²``
===========================  =======================  ==============================================

Each returns None where its guarantee is not proven (then the reference answers).
"""

from __future__ import annotations

import itertools
import math
import sys
from typing import Any, Callable, Optional, Sequence

from .grams import DeviationColumns
from .sums import fsum_by_sum2

__all__ = ["centring", "deviation_sums", "extended_centring", "residual_squares", "times_n"]

#: What a centring kernel returns: ``(hi, lo, cols, sums, exps, spreads)``, the fields of
#: ``covariance.Centred``.
Centring = Any

_U = 2.0 ** -53
_HALF_RANGE = 2.0 ** 440  # |hi| below it: n·hi² far from overflow
_MARGIN = 1.0 + 2.0 ** -40  # above the relative rounding of a bound on Q from three computed terms
_TINY, _HUGE = 2.0 ** -900, 2.0 ** 900
_SMALL = math.sqrt(sys.float_info.min / sys.float_info.epsilon)  # FloatContext.SMALL and BIG
_BIG = 1.0 / _SMALL / 1024.0
# sqrt(ss/n) >= SMALL and sqrt(ss) <= BIG, with room for ss's own rounding (a relative eps).
_SAFE_LOW = 2.0 * _SMALL ** 2
_SAFE_HIGH = 0.5 * _BIG ** 2
_SPLIT = 134217729.0  # 2**27 + 1: Dekker's split of a double into two halves of 26 bits


def _constant(col: Sequence[float]) -> bool:
    """Whether every value equals the first (as ``covariance._constant``)."""
    first = col[0]
    return col[-1] == first and col[len(col) // 2] == first and col.count(first) == len(col)


def times_n(m: float, nf: float) -> tuple[float, float]:
    """``nf·m`` exactly as ``p + q`` (Dekker's TwoProduct, ``nf < 2**26``; as ``covariance._times_n``).

    >>> times_n(0.1, 3.0)
    (0.30000000000000004, -2.7755575615628914e-17)
    """
    p = nf * m
    t = _SPLIT * m
    mh = t - (t - m)
    ml = m - mh
    return p, ((nf * mh - p) + nf * ml)


def centring(cols: Sequence[Sequence[float]], lazy: bool, how: str, sp: Any,
             column: Callable[[Sequence[float]], tuple[float, Any, float, float, float, int]],
             correction: Callable[[Sequence[float], float, float], float]) -> Optional[Centring]:
    """The float columns centred, each by the kernel ``how`` (``"sumprod"``, ``"fused"``) where it
    proves its answer and by the reference ``column`` elsewhere; ``correction(col, hi, s)`` is the
    reference's ``lo``.  With ``lazy`` (a fit that forms the Gram) no deviation is made where it
    need not be: on CPython 3.12+ none (:func:`extended_centring`), on PyPy those of the columns
    that need no scaling, made when read (:class:`~purepca.fast.grams.DeviationColumns`).

    >>> ref = lambda col: (2.0, [-1.0, 1.0], 1.0, 0.0, 0.0, 0)
    >>> centring([[1.0, 3.0]], False, "fused", None, ref, lambda col, m, s: 0.0)
    ([2.0], [0.0], [[-1.0, 1.0]], [0.0], [0], [1.4142135623730951])
    """
    if lazy and how == "sumprod":
        extended = extended_centring(cols, sp)
        if extended is not None:
            return extended
    nf = float(len(cols[0]))
    hi, lo, sums, exps, spreads = [], [], [], [], []
    made: list[Optional[list[float]]] = []
    for col in cols:
        if how == "sumprod" and len(col) > 1:
            got: Any = centre_by_sumprod(col, nf, sp, correction)
        else:
            got = centre_fused(col, nf) if how == "fused" else None
        m, c, spread, s, low, e = got + (0,) if got is not None else column(col)
        hi.append(m)
        lo.append(low)
        made.append(c)
        sums.append(s)
        exps.append(e)
        spreads.append(spread if not e else 0.0)
    if lazy and not any(exps) and any(c is None for c in made):
        return hi, lo, DeviationColumns(cols, hi, made), sums, exps, spreads
    centred = [c if c is not None else [x - hi[j] for x in cols[j]] for j, c in enumerate(made)]
    return hi, lo, centred, sums, exps, None if any(exps) else spreads


def centre_fused(col: Sequence[float], nf: float) -> Optional[tuple[float, None, float, float, float]]:
    """PyPy: ``(hi, None, spread, Σc, lo)`` from one compiled pass (:func:`deviation_sums`), the
    deviations left to be made when read; None where the column is constant, its sum overflows,
    or its squares do not prove the spread inside ``[SMALL, BIG]`` (then the reference answers,
    scaling where it must).

    >>> centre_fused([1.0, 2.0, 6.0], 3.0)
    (3.0, None, 3.7416573867739413, 0.0, 0.0)
    """
    if _constant(col):
        return None
    try:
        m = fsum_by_sum2(col) / nf
    except OverflowError:
        return None
    s, low, squares = deviation_sums(col, m)
    spread = spread_of_squares(squares, len(col)) if len(col) > 1 else 0.0
    if not spread or not low - low == 0.0:
        return None
    return m, None, spread, s, low / nf


def centre_by_sumprod(col: Sequence[float], n: float, sp: Any,
                      correction: Callable[[Sequence[float], float, float], float]
                      ) -> Optional[tuple[float, list[float], float, float, float]]:
    """One column centred with two ``math.sumprod`` passes in place of two ``fsum`` passes (Python
    3.12+; 110 µs each at n = 10,000, a sumprod about 70): ``(hi, c, spread, Σc, lo)``, or None
    where the column is constant or not proven inside the range below (then the general path
    answers).

    * ``hi = sumprod(col, ones)/n``.  ``math.sumprod`` sums in triple length (CPython's
      ``tl_fma``): within ``u·|s| + 3n³u³·Σ|x|`` of the exact sum ``s`` (derived and tested in
      tests/test_sumprod_accuracy.py), where ``fsum`` rounds it exactly: the two may differ by an
      ulp, and by more where the values cancel to far below their size.  Any ``hi`` near the
      mean serves as the centre, because ``lo`` is the exact correction of whichever it is:
    * ``lo`` as on the general path (``correction``, the reference's ``covariance._mean_correction``): the
      residual ``Σx - n·hi``
      summed exactly by ``fsum`` and rounded once, so ``hi + lo`` is the mean to about twice the
      working precision, as before (``mean_`` keeps its bits).
    * ``Σc = sumprod(c, ones)``, within ``u·|Σc| + 3n³u³·Σ|c|``: it only corrects the cross
      products (``Σc_i·Σc_j/n``, a term of size ``n·u²`` of the spread); the spread by
      :func:`safe_spread`.

    The sumprod guarantee needs every partial sum finite and no Dekker split beyond about
    ``2**996`` (the test module's note).  The answer is kept only where that is proven afterwards:
    ``|hi|`` below ``2**900`` and the spread proven below ``BIG`` (about 1e143), so every
    ``|x| < 2**901`` and every partial sum is below ``n·2**901``.  Outside (data near the ends of
    the range) the column goes the general way.

    >>> sp = getattr(math, "sumprod", None)
    >>> fix = lambda col, m, s: 0.0
    >>> sp is None or (centre_by_sumprod([1.0, 2.0, 6.0], 3.0, sp, fix)
    ...                == (3.0, [-2.0, -1.0, 3.0], math.sqrt(14.0), 0.0, 0.0))
    True
    >>> sp is None or (centre_by_sumprod([5.0, 5.0], 2.0, sp, fix),
    ...                centre_by_sumprod([1e300, -1e300], 2.0, sp, fix)) == (None, None)
    True
    """
    if _constant(col):
        return None  # _column_mean gives the value itself, exactly
    k = len(col)
    m = float(sp(col, itertools.repeat(1.0, k)) / n)
    if not abs(m) < _HUGE:
        return None
    c = [x - m for x in col]
    spread = spread_of_squares(sp(c, c), k)
    if not spread:
        return None
    s = sp(c, itertools.repeat(1.0, k))
    return m, c, spread, s, correction(col, m, s)


_U = 2.0 ** -53
_HALF_RANGE = 2.0 ** 440  # |hi| below it: n·hi² far from overflow
_MARGIN = 1.0 + 2.0 ** -40  # above the relative rounding of a bound on Q from three computed terms


def extended_centring(cols: Sequence[Sequence[float]], sp: Any) -> Optional[Centring]:
    """The columns centred with no deviation made (Python 3.12+, the fit of a PCA): the Gram of the
    deviations ``c = x - hi`` is taken from the raw columns, each extended by four terms
    (:func:`extended_column`), where its error is proven small enough; None where it is not for
    some column (then every column is centred the usual way).  At 10,000 x 50 this replaces
    500,000 new floats and two passes over columns whose values lie a row apart in memory by
    passes over the fit's own contiguous copy.  ``hi``, ``lo`` and so ``mean_`` are those of the
    other paths; ``sums`` the residuals ``Σx - n·hi`` rounded once.

    >>> sp = getattr(math, "sumprod", None)
    >>> hi, lo, cols, sums, exps, spreads = extended_centring([[1.0, 2.0, 6.0], [0.5, -0.5, 3.0]], sp) if sp else (
    ...     [3.0, 1.0], [0.0, 0.0],
    ...     DeviationColumns([[1.0, 2.0, 6.0], [0.5, -0.5, 3.0]], [3.0, 1.0], None, ([], [], [14.0, 6.5])),
    ...     [0.0, 0.0], [0, 0], [])
    >>> hi, lo, sums, cols.extended[2], list(cols)
    ([3.0, 1.0], [0.0, 0.0], [0.0, 0.0], [14.0, 6.5], [[-2.0, -1.0, 3.0], [-0.5, -1.5, 2.0]])
    """
    n = len(cols[0])
    if not 1 < n < 2 ** 26:
        return None
    g = (n + 4) * _U / (1 - (n + 4) * _U)
    k = 4.0 * (2.01 * g * g / _U + 4.0 * _U)
    got = []
    for col in cols:
        one = extended_column(col, float(n), k, sp)
        if one is None:
            return None
        got.append(one)
    hi, sums, lefts, rights, diagonal = (list(part) for part in zip(*got))
    devs: Any = DeviationColumns(cols, hi, None, (lefts, rights, diagonal))
    return hi, [r / n for r in sums], devs, sums, [0] * len(cols), [math.sqrt(v) for v in diagonal]


def extended_column(col: Sequence[float], nf: float, k: float, sp: Any
                     ) -> Optional[tuple[float, float, list[float], list[float], float]]:
    """One column for :func:`extended_centring`: ``(hi, r, left, right, G_jj)``, or None.

    With ``hi`` the mean by ``sumprod`` (:func:`centre_by_sumprod`), ``n·hi = p + q`` exactly
    (:func:`times_n`) and ``r = fsum(x, -p, -q)`` the residual ``R = Σx - n·hi`` rounded once (so
    ``lo = r/n``, as on the other paths), exact algebra gives::

        Σ(x_i - hi_i)(x_j - hi_j) = Σx_i·x_j - hi_i·(p_j + q_j + R_j) - hi_j·R_i

    so ``sumprod(left_i, right_j)``, with ``left = x + [hi, hi, hi, r]`` and ``right = x + [-p, -q,
    -r, -hi]``, is that entry to within

    * ``u·|G_ij| + γ²·Σ|terms|`` (sumprod is at least Dot2, tests/test_sumprod_accuracy.py; N = n + 4
      terms, ``γ = N·u/(1 - N·u)``), where ``Σ|terms| <= 2.01·sqrt(Q_i·Q_j)`` by Cauchy-Schwarz,
      with ``Q = Σx²`` (``n·|hi_i·hi_j| <= sqrt(Q_i·Q_j)`` to rounding, as ``Q >= n·mean²``);
    * ``|hi_i·(r_j - R_j)| + |hi_j·(r_i - R_i)| <= 4u²·sqrt(Q_i·Q_j)`` (``|R| <= 2n·u·|hi|``, the
      rounding of a mean).

    A column is kept only where ``k·Q <= G_jj``, ``k = 4·(2.01·γ²/u + 4u)`` (``G_jj`` its computed
    diagonal): then every entry is within ``u·|G_ij| + (u/4)·‖c_i‖·‖c_j‖``, the class of the other
    fast Grams (:mod:`purepca.fast.grams`), below what the eigensolver adds.  ``Q`` is bounded without a
    pass of its own: ``Σx² = G_jj + 2·hi·R + n·hi²`` exactly, and the computed ``G_jj`` is within
    ``u·G_jj + 2.01·γ²·Q`` of its value (``γ² <= 2**-54`` for n < 2**26), so ``Q <= (G_jj +
    2|hi·r| + n·hi²)·(1 + 2**-40)``.  At n = 10,000 that admits means up to about 3,000 standard
    deviations from zero; data further out (the offset tests at 1e12) are centred the usual way.
    Range: the guarantee holds while no partial sum overflows (the squares come first and only
    grow: an overflow leaves ``G_jj`` infinite, and the column goes the usual way) and ``|x| <
    2**996`` (a larger one's square is infinite); with ``|hi| < 2**440`` and ``G_jj`` proven in
    ``[n·SMALL², BIG²]`` every ``|x| < 2**476``, so no scaling is needed, and squares that underflow
    add less than ``n·2**-1074``, far below ``u·G_jj``.  A constant column goes the usual way (its
    mean is the value itself, exactly).

    >>> sp = getattr(math, "sumprod", None)
    >>> extended_column([1.0, 2.0, 6.0], 3.0, 1e-15, sp)[1:] if sp else (
    ...     0.0, [1.0, 2.0, 6.0, 3.0, 3.0, 3.0, 0.0], [1.0, 2.0, 6.0, -9.0, -0.0, -0.0, -3.0], 14.0)
    (0.0, [1.0, 2.0, 6.0, 3.0, 3.0, 3.0, 0.0], [1.0, 2.0, 6.0, -9.0, -0.0, -0.0, -3.0], 14.0)
    """
    n = len(col)
    if _constant(col):
        return None
    m = float(sp(col, itertools.repeat(1.0, n)) / nf)
    if not (m == 0.0 or _TINY < abs(m) < _HALF_RANGE):
        return None
    p, q = times_n(m, nf)
    right = list(col)
    right += (-p, -q)
    r = math.fsum(right)
    right += (-r, -m)
    left = list(col)
    left += (m, m, m, r)
    gjj = sp(left, right)
    if not _SAFE_LOW * nf <= gjj <= _SAFE_HIGH:  # (NaN, inf, an overflow on the way: no)
        return None
    # Q = Σx² = G + 2·hi·R + n·hi² exactly: bounded from what is at hand (no pass of its own).
    squares = (gjj + 2.0 * abs(m * r) + nf * m * m) * _MARGIN
    if not k * squares <= gjj:
        return None
    return m, r, left, right, gjj


def deviation_sums(col: Sequence[float], m: float) -> tuple[float, float, float]:
    """``Σ(x - m)`` rounded, ``Σ(x - m)`` unrounded (the mean's correction) and the sum of the
    squares, in one loop that PyPy's JIT compiles (three ``fsum`` passes cost seven times as much
    there), without making the deviations (:class:`~purepca.fast.grams.DeviationColumns` makes
    them where they are read).

    Each ``x - m`` is split exactly into its rounding ``d`` and error (Knuth's TwoSum), so
    ``Σ(x - m) = Σd + Σerror`` exactly; the ``d`` are summed by Ogita, Rump and Oishi's Sum2 and
    the errors (each below ``u·|d|``) plainly.  Both sums are within ``u`` of their value plus
    ``γ²_n·Σ|d|``: ``Σ(x - m)/n``, the mean's correction ``lo``, carries no more than ``n²u²``
    of the spread, far below what a double can hold of a mean at any offset (the reference's
    ``fsum`` rounds it exactly: the bits of ``lo`` may differ, not its use).  The squares are
    summed plainly (for
    :func:`spread_of_squares`: within ``γ_n`` of its exact value, relatively, squares that
    underflow aside).

    >>> deviation_sums([1.0, 2.0, 4.0], 2.0)
    (1.0, 1.0, 5.0)
    """
    s = 0.0
    cs = 0.0
    r = 0.0
    q = 0.0
    for x in col:
        d = x - m
        z = d - x
        r += (x - (d - z)) + (-m - z)
        t = s + d
        z = t - s
        cs += (s - (t - z)) + (d - z)
        s = t
        q += d * d
    return s + cs, s + (cs + r), q


def spread_of_squares(ss: float, n: int) -> float:
    """``sqrt(ss)`` when ``ss``, the sum of the squares of n numbers, proves the largest of them in
    ``[SMALL, BIG]``, else 0.  The factors 2 in the limits leave room for a relative error up to
    1/2 in ``ss`` (sumprod's is ``eps``; a plain sum's ``γ_n``), and squares that underflow add
    less than ``n·2**-1074``, far below ``SMALL²·n``: the largest is at least
    ``sqrt(ss_exact/n) >= SMALL`` and at most ``sqrt(ss_exact) <= BIG``.

    >>> spread_of_squares(25.0, 2), spread_of_squares(1e-300, 2), spread_of_squares(math.inf, 2)
    (5.0, 0.0, 0.0)
    """
    if _SAFE_LOW * n <= ss <= _SAFE_HIGH:
        return math.sqrt(ss)
    return 0.0


def residual_squares(Z: list[list[float]], V: list[list[float]], sp: Any) -> Optional[list[float]]:
    """``‖z - Vᵀp‖²`` for each row ``z``, ``p = V·z`` rounded, from k + 1 ``math.sumprod`` calls
    of length d per row (Python 3.12+), instead of the residual's d entries one by one (n·d
    calls of length k: 0.31 s of a 1.5 s top-5 fit of 500 x 2,000); None where a sum is not
    finite (then the entries are formed as before).

    Expanding with ``V·z = p + δ`` (``δ`` the rounding of ``p``) and ``V·Vᵀ = I + E``:
    ``‖z - Vᵀp‖² = zᵀz - pᵀp - 2pᵀδ + pᵀEp``.  Each ``δ_k = v_k·z - p_k`` and each entry of
    ``E`` (``v_k·v_l - [k = l]``) is one sumprod, summed in triple length: within ``u`` of itself
    plus ``3m³u³`` of the sum of the m products' sizes (CPython's ``tl_fma``; derived and tested
    in tests/test_sumprod_accuracy.py).  The four terms go into one more sumprod, so the
    cancellation of ``zᵀz`` against ``pᵀp`` happens in triple length too: the result is within
    about ``u`` of itself plus ``3m³u³·2‖z‖²`` and ``u²·‖z‖²`` (``Ep``, a vector of size
    ``u·‖p‖``, rounded), where forming the residual's entries and summing their squares is off by
    about ``u·‖z‖·‖r‖`` (7u to 3e4·u of itself, measured).  A tiny negative answer (the exact one
    is 0) is 0.

    The triple-length sums need every partial sum finite, which a finite result does not prove
    (sumprod finishes in plain arithmetic past an overflow): the fit's rows are scaled into
    ``[-BIG, BIG]`` (about 1e143), so ``‖z‖²`` and every partial sum stay below ``2**1000``;
    rows with a larger entry are left to the entries (None).

    >>> sp = getattr(math, "sumprod", None)
    >>> sp is None or residual_squares([[1.0, 2.0], [-1.0, -2.0]], [[1.0, 0.0]], sp) == [4.0, 4.0]
    True
    """
    big = max(max(map(max, Z)), -min(map(min, Z))) if Z else 0.0
    if not big * big * (len(V[0]) + 3 * len(V)) < 2.0 ** 1000:
        return None
    chain = itertools.chain
    E = [[sp(chain(a, (1.0,)), chain(b, (-1.0,))) if i == j else sp(a, b) for j, b in enumerate(V)]
         for i, a in enumerate(V)]
    neg = (-1.0,)
    out = []
    for z in Z:
        p = [sp(v, z) for v in V]
        m2d = [-2.0 * sp(chain(v, (pk,)), chain(z, neg)) for v, pk in zip(V, p)]
        Ep = [sp(e, p) for e in E]
        r = sp(chain(z, p, p, p), chain(z, [-x for x in p], m2d, Ep))
        if not r - r == 0.0:
            return None
        out.append(r if r > 0.0 else 0.0)
    return out
