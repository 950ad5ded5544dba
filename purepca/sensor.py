"""The sensor profile: PCA a row at a time, in the heap of a small board.

A board that learns its sensors' normal covariance and flags readings by
Hotelling's T² and the SPE (Q) needs far less than the whole package: this
module is what ``python -m purepca.micro build OUT --profile sensor`` ships
(with :mod:`purepca.errors`, :mod:`purepca.distributions` and the rotations
of :mod:`purepca.linalg.jacobi`), and it runs on CPython too, where the tests
check it against the full package and mpmath.

=========================  ====================================================
``Streaming(d)``           streaming mean and covariance, one row at a time:
                           ``update(row)``, ``covariance()``,
                           ``correlation()``, ``mean_pair()``; never keeps a row
``fit(stream, k)``         a :class:`SensorModel` from the moments: Jacobi
                           (the package's own rotations) on the covariance
                           or the correlation
``SensorModel``            ``score(row)`` -> (scores, T², SPE), ``t2_limit``,
                           ``spe_limit``, ``to_json``
``load_model(text)``       a model file: this module's or ``purepca fit --save``'s
``FLOATS``                 the arithmetic a board computes in (its own float,
                           single or double precision)
=========================  ====================================================

**Streaming moments.**  Each row is shifted by the first row (so that data
far from the origin lose nothing to the offset), then folded in by Welford's
update ``δ = y - ȳ``, ``ȳ += δ/n``, ``M2 += δδᵀ·(n-1)/n`` with every running
sum compensated (TwoSum: what each addition rounds away is kept aside and
added back), so neither the mean nor ``M2`` accumulates an error that grows
with the number of rows: the covariance has the accuracy of the two-pass
formula without keeping the rows.  The state is ``d(d+1) + 3d`` numbers
(and a work row of d).

**Precision.**  Every number is the board's own float (``FLOATS``), or, on
CPython, a float context of :mod:`purepca.numeric`: with ``BINARY32`` each
operation is rounded to single precision, as the rp2 and esp32 ports compute
(``docs/restricted.md`` states the digits reached).

**Scoring.**  ``score(row)`` centres the row about the rounded mean ``hi``,
projects it (k dot products), and takes ``T² = Σ t_i²/λ_i`` and
``SPE = ‖z‖² - Σ t_i²`` (the squared distance to the model's subspace, from
the orthonormal components): ``(3 + 2k)·d`` float operations (``(4 + 2k)·d``
scaled) and no list but the scores, so that a board scores a reading without
churning its heap (every float is a heap object there: 16 bytes).  Two
accuracy trades, both stated: the mean's own rounding ``lo`` is left out of
the centring (it is at most half an ulp of the mean, the size of the
reading's own rounding at that magnitude), and ``SPE`` so computed loses
``eps·‖z‖²`` (absolute), where the full package's residual loses ``eps·SPE``.
The full package's ``transform``, ``hotelling_t2`` and ``spe`` (the tests
compare them) centre about ``hi + lo`` and sum each dot product correctly
rounded.

>>> s = Streaming(2)
>>> for row in ([1.0, 2.0], [2.0, 4.1], [3.0, 5.9], [4.0, 8.2]):
...     s.update(row)
>>> s.n, s.mean_pair()[0]
(4, [2.5, 5.05])
>>> model = fit(s, 1)
>>> [round(v, 6) for v in model.variance + model.rest], [round(v, 6) for v in model.components[0]]
([8.613958, 0.002709], [0.43958, 0.898203])
"""

from __future__ import annotations

import json
import math
from typing import Any, Optional, Sequence

from .distributions import f_ppf, norm_ppf
from .errors import PurePCAError
from .linalg.jacobi import _cyclic_jacobi

__all__ = ["FLOATS", "SensorModel", "Streaming", "fit", "load_model"]

#: The most Jacobi sweeps a fit may take (5 to 9 measured for d = 3 to 16, doubles and binary32).
MAX_SWEEPS = 50
#: The most columns a stream or a model may have (a board holds far fewer), and the most rows a model counts.
MAX_COLUMNS = 4096
MAX_ROWS = 2 ** 62


class _Floats:
    """The board's own float as a number context (the names :func:`_cyclic_jacobi` reads):
    ``eps`` measured at import, so a single-precision port gets its own; sums in order, as a
    board adds.

    >>> FLOATS.eps == 2.0 ** -52, FLOATS.sum([1.0, 2.0]), FLOATS.norm([3.0, 4.0])
    (True, 3.0, 5.0)
    """

    name = "float"
    zero = 0.0
    one = 1.0
    two = 2.0
    half = 0.5

    def __init__(self) -> None:
        eps = 1.0
        while 1.0 + eps / 2 != 1.0:
            eps /= 2
        self.eps = eps

    def convert(self, x: Any) -> float:
        """``x`` as a float."""
        return float(x)

    def sqrt(self, x: float) -> float:
        """The square root."""
        return math.sqrt(x)

    def sum(self, values: Any) -> float:
        """The sum, in order."""
        total = 0.0
        for v in values:
            total += v
        return total

    def norm(self, v: Sequence[float]) -> float:
        """The Euclidean norm, scaled by the largest entry (no overflow)."""
        big = 0.0
        for x in v:
            if abs(x) > big:
                big = abs(x)
        if big == 0.0 or big - big != 0.0:
            return big
        total = 0.0
        for x in v:
            y = x / big
            total += y * y
        return big * math.sqrt(total)


FLOATS = _Floats()


_INF = float("inf")
_REAL = (int, float)  # one tuple (a tuple display allocates at each call on MicroPython)
_NEG_INF = -_INF


def _is_real(value: Any) -> bool:
    """Whether ``value`` is a finite int or float (no arithmetic: nothing allocated on a board)."""
    return not isinstance(value, bool) and isinstance(value, _REAL) and value == value \
        and value != _INF and value != _NEG_INF


def _real(value: Any, where: str) -> None:
    """Refuse what is not a finite real number (int or float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PurePCAError(f"{where}: expected a real number, got {type(value).__name__}")
    if not _is_real(value):
        raise PurePCAError(f"{where}: {value!r} is not finite")


class Streaming:
    """Streaming mean and covariance of ``d`` columns, one row at a time (see the module's
    docstring): shifted Welford updates, every running sum compensated.

    ``context`` is :data:`FLOATS` (the board's float) by default; on CPython any number
    context of :mod:`purepca.numeric` that computes in floats (``BINARY32``: each operation
    rounded to single).

    >>> s = Streaming(1)
    >>> for x in (1e9 + 1, 1e9 + 2, 1e9 + 3):
    ...     s.update([x])
    >>> s.covariance(), s.mean_pair()
    ([[1.0]], ([1000000002.0], [0.0]))
    >>> s.update([1.0, 2.0])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: row 3: expected 1 values, got 2
    """

    def __init__(self, d: int, context: Any = None) -> None:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= MAX_COLUMNS:
            raise PurePCAError(f"d: expected a whole number of columns from 1 to {MAX_COLUMNS}, got {d!r:.60}")
        ctx = FLOATS if context is None else context
        for name in ("convert", "sqrt", "zero", "one", "eps"):
            if not hasattr(ctx, name):
                raise PurePCAError(f"context: expected a number context (FLOATS, or purepca.numeric's), got "
                                   f"{type(ctx).__name__}")
        if not _is_real(ctx.convert(1)):  # update() reads floats: a Decimal context refused a row as out of range
            raise PurePCAError(f"context: expected a context computing in floats (FLOATS, BINARY32), got "
                               f"{getattr(ctx, 'name', type(ctx).__name__)!r:.60}")
        self.ctx = ctx
        self.d = d
        self.n = 0
        zero = ctx.zero
        self._shift = [zero] * d
        self._mean = [zero] * d  # mean of row - shift; the mean is shift + mean + lo
        self._lo = [zero] * d
        self._m2 = [zero] * (d * (d + 1) // 2)  # upper triangle, row by row
        self._m2_lo = [zero] * (d * (d + 1) // 2)  # what the additions into _m2 rounded away
        self._row = [zero] * d  # work: the row read, then its deviations

    def update(self, row: Sequence[float]) -> None:
        """Fold in one row of ``d`` finite numbers (checked before anything changes).

        >>> s = Streaming(2); s.update((1, 2.5)); s.n
        1
        """
        d, ctx = self.d, self.ctx
        try:
            size = len(row)
        except TypeError:
            raise PurePCAError(f"row {self.n}: expected a sequence of {d} numbers, got "
                               f"{type(row).__name__}") from None
        if size != d:
            raise PurePCAError(f"row {self.n}: expected {d} values, got {size}")
        work = self._row
        convert = ctx.convert
        for j in range(d):
            x = row[j]
            if not _is_real(x):
                _real(x, f"row {self.n}, column {j}")
            try:
                x = convert(x)
            except (OverflowError, ValueError):  # an int beyond the float range
                x = _INF
            if not _is_real(x):
                raise PurePCAError(f"row {self.n}, column {j}: {row[j]!r} is beyond the float range")
            work[j] = x
        if self.n == 0:
            for j in range(d):
                self._shift[j] = work[j]
            self.n = 1
            return
        n = self.n + 1
        nn = convert(n)
        shift, mean, lo = self._shift, self._mean, self._lo
        for j in range(d):
            y = work[j] - shift[j]
            if y - y != 0:
                raise PurePCAError(f"row {self.n}, column {j}: its difference from the first row is beyond the "
                                   "float range; rescale the data")
            a = mean[j]
            delta = (y - a) - lo[j]
            work[j] = delta
            b = delta / nn
            s = a + b  # TwoSum: a + b = s + e exactly
            z = s - a
            mean[j] = s
            lo[j] = lo[j] + ((a - (s - z)) + (b - z))
        f = convert(n - 1) / nn
        m2, m2_lo = self._m2, self._m2_lo
        k = 0
        for i in range(d):
            di = work[i] * f
            for j in range(i, d):
                t = di * work[j]
                a = m2[k]
                s = a + t
                z = s - a
                m2[k] = s
                m2_lo[k] = m2_lo[k] + ((a - (s - z)) + (t - z))
                k += 1
        self.n = n

    def _need(self, rows: int) -> None:
        if self.n < rows:
            raise PurePCAError(f"Streaming: need at least {rows} rows, have {self.n}")

    def mean_pair(self) -> tuple[list[Any], list[Any]]:
        """The column means as ``(hi, lo)``: ``hi`` rounded, ``lo`` what it left out.

        >>> s = Streaming(1); s.update([0.1]); s.update([0.2]); s.mean_pair()
        ([0.15000000000000002], [-1.3877787807814457e-17])
        """
        self._need(1)
        hi, out_lo = [], []
        for k, m, l in zip(self._shift, self._mean, self._lo):
            a = m + l
            z = a - m
            e1 = (m - (a - z)) + (l - z)  # TwoSum: m + l = a + e1 exactly
            s = k + a
            z = s - k
            hi.append(s)
            out_lo.append(((k - (s - z)) + (a - z)) + e1)
        return hi, out_lo

    def covariance(self, ddof: int = 1) -> list[list[Any]]:
        """The covariance matrix, divisor ``n - ddof``.

        >>> s = Streaming(2)
        >>> for row in ([0, 0], [1, 2], [2, 4]):
        ...     s.update(row)
        >>> s.covariance(), s.covariance(0)[0][0] == 2 / 3
        ([[1.0, 2.0], [2.0, 4.0]], True)
        """
        if isinstance(ddof, bool) or not isinstance(ddof, int) or ddof < 0:
            raise PurePCAError(f"ddof: expected a whole number, at least 0, got {ddof!r}")
        self._need(ddof + 1)
        d, ctx = self.d, self.ctx
        div = ctx.convert(self.n - ddof)
        C = [[ctx.zero] * d for _ in range(d)]
        k = 0
        for i in range(d):
            for j in range(i, d):
                C[i][j] = C[j][i] = (self._m2[k] + self._m2_lo[k]) / div
                k += 1
        # Squares below the float's normal range lose their digits (or vanish): a column that
        # varied (its shifted mean is not zero) with so small a spread is refused, not returned.
        tiny = ctx.convert(math.ldexp(1.0, -998 if ctx.eps < 1e-10 else -102))  # 2**24 times the least normal
        for i in range(d):
            if C[i][i] - C[i][i] != 0:
                raise PurePCAError(f"column {i}: its sum of squared deviations is beyond the float range; "
                                   "rescale the data")
            if C[i][i] < tiny and (self._mean[i] != 0 or self._lo[i] != 0):
                raise PurePCAError(f"column {i}: its spread is so small that its squares fall below the float "
                                   "range (they lose their digits); rescale the data")
        return C

    def correlation(self) -> list[list[Any]]:
        """The correlation matrix (a constant column has none: an error names it).

        >>> s = Streaming(2)
        >>> for row in ([0, 0], [1, 2], [2, 5]):
        ...     s.update(row)
        >>> [round(v, 12) for v in s.correlation()[0]]
        [1.0, 0.993399267799]
        """
        C = self.covariance(1)
        return _correlation(C, _deviations(C, self.ctx), self.ctx)


def _deviations(C: list[list[Any]], ctx: Any) -> list[Any]:
    sd = []
    for j in range(len(C)):
        if not C[j][j] > 0:
            raise PurePCAError(f"column {j} is constant: it has no correlation (scale=False keeps it)")
        sd.append(ctx.sqrt(C[j][j]))
    return sd


def _correlation(C: list[list[Any]], sd: list[Any], ctx: Any) -> list[list[Any]]:
    d = len(C)
    R = [[ctx.zero] * d for _ in range(d)]
    for i in range(d):
        R[i][i] = ctx.one
        for j in range(i + 1, d):
            R[i][j] = R[j][i] = C[i][j] / sd[i] / sd[j]
    return R


class SensorModel:
    """A fitted model: the mean (``mean_hi`` + ``mean_lo``), the scales ``sd`` (or None),
    ``components`` (k rows of d), their sample variances ``variance`` (divisor n - 1), the
    discarded ones ``rest``, ``n`` rows.  Made by :func:`fit` or :func:`load_model`.

    >>> s = Streaming(2)
    >>> for row in ([0.0, 0.0], [1.0, 1.1], [2.0, 1.9], [3.0, 3.2]):
    ...     s.update(row)
    >>> scores, t2, q = fit(s, 1).score([4.0, 4.0])
    >>> round(t2, 6), round(q, 6)
    (3.520709, 0.012325)
    """

    def __init__(self, n: int, mean_hi: list[Any], mean_lo: list[Any], sd: Optional[list[Any]],
                 components: list[list[Any]], variance: list[Any], rest: list[Any], sweeps: int = 0) -> None:
        # The door of every model (fit's, load_model's, a caller's): checked here once, so that
        # score() checks only the row.  The numbers may be a number context's (fit on BINARY32).
        _whole(n, "n", 2, MAX_ROWS)
        _whole(sweeps, "sweeps", 0)
        d = len(_entries(mean_hi, "mean_hi", -1))
        _entries(mean_lo, "mean_lo", d)
        if sd is not None:
            _entries(sd, "sd", d, 1)
        if not isinstance(components, (list, tuple)) or not 1 <= len(components) <= d:
            raise PurePCAError(f"components: expected a list of 1 to {d} rows of {d} numbers, got {components!r:.60}")
        for i in range(len(components)):
            _entries(components[i], f"components[{i}]", d)
        _entries(variance, "variance", len(components), 0)
        if len(_entries(rest, "rest", -2, 0)) > d - len(components):
            raise PurePCAError(f"rest: expected at most {d - len(components)} discarded variances, got {rest!r:.60}")
        self.n, self.d, self.k = n, len(mean_hi), len(components)
        self.mean_hi, self.mean_lo, self.sd = mean_hi, mean_lo, sd
        self.components, self.variance, self.rest, self.sweeps = components, variance, rest, sweeps
        self._z = [0.0] * self.d  # work: the centred row
        self._t = [0.0] * self.k  # work: the scores

    def score(self, row: Sequence[float]) -> tuple[tuple[float, ...], float, float]:
        """``(scores, T², SPE)`` of one reading (see the module's docstring; the row is checked).

        >>> m = SensorModel(5, [0.0, 0.0], [0.0, 0.0], None, [[1.0, 0.0]], [2.0], [0.5])
        >>> m.score([1.0, 1.0])
        ((1.0,), 0.5, 1.0)
        """
        # Few locals on purpose: MicroPython puts a call's frame on the heap past 11 words.
        if not isinstance(row, _ROWS):  # a list or tuple needs no more; anything else is asked once
            _row_door(row, self.d)
        if len(row) != self.d:
            raise PurePCAError(f"row: expected {self.d} values, got {len(row)}")
        z = self._z
        q = 0.0
        for j in range(self.d):
            v = row[j]
            if not _is_real(v):
                _real(v, f"row, column {j}")
            try:
                v = v - self.mean_hi[j]
            except OverflowError:  # an int beyond the float range
                v = _INF
            if self.sd is not None:
                v = v / self.sd[j]
            if v != v or v == _INF or v == _NEG_INF:
                raise PurePCAError(f"row, column {j}: {row[j]!r} is beyond the float range from the mean")
            z[j] = v
            q = v * v if j == 0 else q + v * v
        t2 = 0.0
        for i in range(self.k):
            v = self.components[i][0] * z[0]
            for j in range(1, self.d):
                v = v + self.components[i][j] * z[j]
            self._t[i] = v
            v = v * v
            q = q - v
            if self.variance[i] > 0:
                t2 = v / self.variance[i] if i == 0 else t2 + v / self.variance[i]
        if q != q or t2 != t2:  # a reading so far out that its squares overflow: inf - inf
            return tuple(self._t), _INF, _INF
        return tuple(self._t), t2, (q if q > 0 else 0.0)

    def t2_limit(self, alpha: float = 0.05) -> float:
        """The upper control limit of T² for new readings at level ``alpha`` (the F limit, as
        :func:`purepca.monitoring.t2_limit`).

        >>> m = SensorModel(5, [0.0, 0.0], [0.0, 0.0], None, [[1.0, 0.0]], [2.0], [0.5])
        >>> round(m.t2_limit(0.05), 6)
        9.250377
        """
        n, k = self.n, self.k
        if k == 0 or n - k < 1:
            raise PurePCAError(f"t2_limit: needs 1 <= k < n, got k = {k}, n = {n}")
        return k * (n - 1) * (n + 1) / (n * (n - k)) * f_ppf(1 - _alpha(alpha), k, n - k)

    def spe_limit(self, alpha: float = 0.05) -> float:
        """The upper control limit of the SPE at level ``alpha``, Jackson and Mudholkar's (as
        :func:`purepca.monitoring.spe_limit`).

        >>> m = SensorModel(5, [0.0] * 3, [0.0] * 3, None, [[1.0, 0.0, 0.0]], [2.0], [0.5, 0.25])
        >>> round(m.spe_limit(0.05), 6)
        2.329564
        """
        rest = [float(v) for v in self.rest if v > 0]
        a = _alpha(alpha)
        if not rest:
            return 0.0
        t1, t2, t3 = (math.fsum(v ** i for v in rest) for i in (1, 2, 3))
        h0 = 1 - 2 * t1 * t3 / (3 * t2 * t2)
        c = norm_ppf(1 - a)
        base = c * math.sqrt(2 * t2 * h0 * h0) / t1 + 1 + t2 * h0 * (h0 - 1) / (t1 * t1)
        if not base > 0:
            raise PurePCAError(f"spe_limit: Jackson and Mudholkar's approximation has no value at alpha = {a!r} "
                               "for these discarded eigenvalues; use a smaller alpha")
        return float(t1 * base ** (1 / h0))

    def to_json(self) -> str:
        """The model as a ``purepca.PCA`` model file (version 1), which this module and the full
        package (:func:`purepca.model_io.pca_from_json`) read.

        >>> m = SensorModel(5, [1.0, 2.0], [0.0, 0.0], None, [[1.0, 0.0]], [2.0], [0.5])
        >>> load_model(m.to_json()).score([2.0, 3.0]) == m.score([2.0, 3.0])
        True
        """
        n, k, d = self.n, self.k, self.d
        var = [float(v) for v in self.variance]
        rest = [float(v) for v in self.rest]
        total = math.fsum(var + rest)
        noise = math.fsum(rest) / len(rest) if rest else 0.0
        ratios = [v / total if total > 0 else 0.0 for v in var]
        singular = [math.sqrt(v * (n - 1)) for v in var]
        mean = [float(h + l) for h, l in zip(self.mean_hi, self.mean_lo)]
        comps = [[float(x) for x in w] for w in self.components]
        sd = None if self.sd is None else [float(v) for v in self.sd]
        document = {
            "format": "purepca.PCA", "version": 1, "precision": None,
            "params": {"n_components": k, "scale": self.sd is not None},
            "attributes": {
                "components_": comps, "explained_variance_": var, "explained_variance_ratio_": ratios,
                "singular_values_": singular, "mean_": mean, "scale_": sd, "n_components_": k,
                "n_samples_": n, "n_features_in_": d, "noise_variance_": noise, "solver_": "covariance",
                "feature_names_in_": None,
            },
            "state": {
                "sign": "max_abs_positive", "ddof": 1, "div": float(n - 1), "scaled": self.sd is not None,
                "column_weight": None, "rest": rest, "n_dropped": 0, "n_iter": self.sweeps, "mean": mean,
                "mean_hi": [float(v) for v in self.mean_hi], "mean_lo": [float(v) for v in self.mean_lo],
                "sd": sd, "variance": var, "roots": [math.sqrt(v) for v in var], "components": comps,
                "noise": noise, "ratios": ratios, "singular": singular,
            },
        }
        return json.dumps(document)


_ROWS = (list, tuple)


def _row_door(row: Any, d: int) -> None:
    """Refuse a row that is not a sequence of ``d`` entries (score's door for what is not a list or tuple)."""
    try:
        size = len(row)
        for j in range(min(size, d)):
            row[j]
    except (TypeError, KeyError, IndexError, ValueError):
        raise PurePCAError(f"row: expected a sequence of {d} numbers, got {row!r:.60}") from None


def _whole(value: Any, where: str, low: int, high: int = MAX_ROWS) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PurePCAError(f"{where}: expected a whole number from {low} to {high}, got {value!r:.60}")


def _entries(values: Any, where: str, size: int, low: int = -1) -> Any:
    """``values`` if it is a list or tuple of ``size`` finite numbers (floats, ints or a number
    context's; ``size`` -1: 1 to MAX_COLUMNS of them, -2: 0 to MAX_COLUMNS), each >= 0 if ``low``
    is 0, > 0 if it is 1."""
    if size >= 0:
        fits = isinstance(values, (list, tuple)) and len(values) == size
        count = str(size)
    else:
        fits = isinstance(values, (list, tuple)) and size + 2 <= len(values) <= MAX_COLUMNS
        count = f"{size + 2} to {MAX_COLUMNS}"
    if not fits:
        raise PurePCAError(f"{where}: expected a list of {count} numbers, got {values!r:.60}")
    for i in range(len(values)):
        v = values[i]
        try:
            ok = not isinstance(v, bool) and bool(v - v == 0) and (v > 0 if low == 1 else v >= 0 if low == 0 else True)
        except (TypeError, ArithmeticError, ValueError):
            ok = False
        if not ok:
            kind = "finite number" if low < 0 else "finite number, at least 0" if low == 0 else "positive finite number"
            raise PurePCAError(f"{where}[{i}]: expected a {kind}, got {v!r:.60}")
    return values


def _alpha(alpha: Any) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise PurePCAError(f"alpha: expected a level strictly between 0 and 1, got {alpha!r}")
    return float(alpha)


def fit(stream: Streaming, n_components: int, scale: bool = False) -> SensorModel:
    """The model of the rows a :class:`Streaming` saw: the eigenvectors of their covariance
    (``scale=True``: correlation) by Jacobi, the ``n_components`` largest kept, signs by
    scikit-learn's rule (the largest entry of each component positive).

    >>> s = Streaming(2)
    >>> for row in ([0, 0], [1, 2], [2, 4]):
    ...     s.update(row)
    >>> m = fit(s, 1)
    >>> m.variance, m.rest, [round(x, 12) for x in m.components[0]]
    ([5.0], [0.0], [0.4472135955, 0.894427191])
    """
    if not isinstance(stream, Streaming):
        raise PurePCAError(f"fit: expected a Streaming, got {type(stream).__name__}")
    d, ctx = stream.d, stream.ctx
    if isinstance(n_components, bool) or not isinstance(n_components, int) or not 1 <= n_components <= d:
        raise PurePCAError(f"n_components: expected a whole number from 1 to {d}, got {n_components!r}")
    if not isinstance(scale, bool):
        raise PurePCAError(f"scale: expected True or False, got {scale!r}")
    stream._need(2)
    C = stream.covariance(1)
    sd = None
    if scale:
        sd = _deviations(C, ctx)
        C = _correlation(C, sd, ctx)
    # A matrix far from 1 in magnitude is scaled by a power of two (exactly) so that no square in
    # the rotations underflows or overflows, and its eigenvalues scaled back (as jacobi_eigh does).
    big = max(abs(x) for row in C for x in row)
    shift = math.frexp(float(big))[1] if big > 0 else 0
    if abs(shift) < (100 if ctx.eps < 1e-10 else 30):
        shift = 0
    if shift:
        C = [[x * ctx.convert(math.ldexp(1.0, -shift)) for x in row] for row in C]
    V = [[ctx.one if i == j else ctx.zero for j in range(d)] for i in range(d)]
    # The floor for zero diagonal entries, eps·eps·‖C‖_F, from the context's own norm (a board's sums in order).
    floor = ctx.eps * ctx.eps * ctx.norm([x for row in C for x in row])
    sweeps, _ = _cyclic_jacobi(C, V, ctx.eps, MAX_SWEEPS, ctx, None, "threshold", floor)  # type: ignore[arg-type]
    diag = [C[i][i] * ctx.convert(math.ldexp(1.0, shift)) if shift else C[i][i] for i in range(d)]
    order = sorted(range(d), key=lambda i: diag[i], reverse=True)
    values = [diag[i] if diag[i] > 0 else ctx.zero for i in order]
    vectors = []
    for i in order:
        v = V[i]
        big = 0
        for j in range(1, d):
            if abs(v[j]) > abs(v[big]):
                big = j
        vectors.append([-x for x in v] if v[big] < 0 else v)
    hi, lo = stream.mean_pair()
    k = n_components
    return SensorModel(stream.n, hi, lo, sd, vectors[:k], values[:k], values[k:], sweeps)


def _numbers(value: Any, size: int, where: str, positive: bool = False) -> list[float]:
    if not isinstance(value, list) or len(value) != size:
        raise PurePCAError(f"model: {where}: expected a list of {size} numbers")
    for i, v in enumerate(value):
        _real(v, f"model: {where}[{i}]")
        if positive and not v > 0:
            raise PurePCAError(f"model: {where}[{i}]: {v!r} must be positive")
    return [float(v) for v in value]


def load_model(text: Any) -> SensorModel:
    """A :class:`SensorModel` from a ``purepca.PCA`` model file's text (``purepca fit ... -o
    model.json`` on a host, or :meth:`SensorModel.to_json`), every number checked: finite,
    the shapes, unit orthogonal components, variances descending and not negative, the public
    copies equal to the state's.  Only float models (not ``precision=N``), sample divisor.

    >>> load_model('{"format": "x"}')
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: model: not a purepca.PCA model file (format 'x')
    """
    if not isinstance(text, (str, bytes)):
        raise PurePCAError(f"model: expected the JSON text of a model, got {type(text).__name__}")
    try:
        doc = json.loads(text)
    except ValueError:
        raise PurePCAError("model: not JSON") from None
    if isinstance(doc, dict) and "loadings" in doc and "format" not in doc:
        raise PurePCAError("model: this is the report of purepca fit -o (no mean, no model); save the model "
                           "with purepca fit ... --save model.json")
    if not isinstance(doc, dict) or doc.get("format") != "purepca.PCA":
        found = doc.get('format') if isinstance(doc, dict) else None
        raise PurePCAError(f"model: not a purepca.PCA model file (format {found!r})")
    if doc.get("version") != 1 or isinstance(doc.get("version"), bool):
        raise PurePCAError(f"model: version {doc.get('version')!r}; this reader reads version 1")
    if doc.get("precision") is not None:
        raise PurePCAError("model: fitted with precision=N; a board reads float models only")
    state, attributes = doc.get("state"), doc.get("attributes")
    if not isinstance(state, dict) or not isinstance(attributes, dict):
        raise PurePCAError("model: 'state' and 'attributes' must be JSON objects")
    try:
        return _model(state, attributes)
    except KeyError as err:
        raise PurePCAError(f"model: a field is missing: {err}") from None


def _count(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PurePCAError(f"model: {where}: expected a whole number from {low} to {high}, got {value!r}")
    return value


def _model(state: dict[str, Any], attributes: dict[str, Any]) -> SensorModel:
    d = _count(attributes["n_features_in_"], "n_features_in_", 1, MAX_COLUMNS)
    n = _count(attributes["n_samples_"], "n_samples_", 2, MAX_ROWS)
    k = _count(attributes["n_components_"], "n_components_", 1, min(n, d))
    if state.get("column_weight") is not None:
        raise PurePCAError("model: column weights; a board reads unweighted models only")
    if state["ddof"] != 1 or isinstance(state["ddof"], bool) or state["div"] != n - 1:
        raise PurePCAError(f"model: divisor {state['div']!r} (ddof {state['ddof']!r}); a board reads models "
                           f"fitted with the sample divisor n - 1 = {n - 1} (unweighted)")
    hi = _numbers(state["mean_hi"], d, "mean_hi")
    lo = _numbers(state["mean_lo"], d, "mean_lo")
    sd = None if state["sd"] is None else _numbers(state["sd"], d, "sd", positive=True)
    if not isinstance(state["components"], list) or len(state["components"]) != k:
        raise PurePCAError(f"model: components: expected {k} rows of {d} numbers")
    comps = [_numbers(row, d, f"components[{i}]") for i, row in enumerate(state["components"])]
    variance = _numbers(state["variance"], k, "variance")
    rest = state["rest"]
    if rest is None:
        raise PurePCAError("model: rest is null (a top-k solver): the SPE limit needs every eigenvalue")
    rest = _numbers(rest, len(rest) if isinstance(rest, list) else -1, "rest")
    if len(rest) > d - k:
        raise PurePCAError(f"model: rest: at most {d - k} discarded eigenvalues, got {len(rest)}")
    values = variance + rest
    for i in range(len(values)):
        if values[i] < 0 or (i and values[i] > values[i - 1]):
            raise PurePCAError(f"model: eigenvalue {i} ({values[i]!r}) is negative or out of descending order")
    for name, field in (("components_", "components"), ("explained_variance_", "variance"), ("scale_", "sd")):
        if attributes[name] != state[field]:
            raise PurePCAError(f"model: {name} and state.{field} disagree: the file holds each number twice and "
                               "the copies differ (edited by hand?)")
    if _numbers(attributes["mean_"], d, "mean_") != [h + l for h, l in zip(hi, lo)]:
        raise PurePCAError("model: mean_ is not mean_hi + mean_lo (edited by hand?)")
    tol = 64 * d * FLOATS.eps if FLOATS.eps > 1e-10 else 1e-12 * d
    for i in range(k):
        for j in range(i, k):
            dot = math.fsum(a * b for a, b in zip(comps[i], comps[j]))
            if abs(dot - (1.0 if i == j else 0.0)) > tol:
                raise PurePCAError(f"model: components {i} and {j} are not orthonormal (dot product {dot!r})")
    return SensorModel(n, hi, lo, sd, comps, variance, rest, 0)
