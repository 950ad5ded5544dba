"""Streaming moments: the mean and covariance of rows in any chunks, any order, any process.

=================================  ==========================================
``Moments``                        streaming accumulator: ``update``,
                                   ``update_many``, ``merge``, ``covariance``,
                                   ``to_bytes``/``from_bytes``
=================================  ==========================================

Each chunk is reduced by the corrected two-pass algorithm of
:mod:`purepca.covariance` and folded in with the pairwise update of Chan,
Golub and LeVeque; ``exact=True`` keeps exact integer sums instead
(:mod:`purepca.exact`).  The byte form is :mod:`purepca.moments_io`.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Iterator, Optional, Sequence, Union

from .covariance import _correlation_from, _divisor, _scatter
from .errors import PurePCAError
from .exact import ExactSums
from .linalg.matrix import as_matrix
from .numeric import FLOAT, Context, DecimalContext, Scalar, check_context, first_non_finite

__all__ = ["Moments"]

Number = Union[int, float]


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Yield lists of at most ``size`` consecutive items.

    >>> list(_chunks(range(5), 2))
    [[0, 1], [2, 3], [4]]
    """
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk



class Moments:
    """Streaming mean and covariance: rows in any chunks, any order, any process.

    Holds the count, a *shift* (the first row seen), the mean of the shifted
    rows and their centred cross-product matrix, so memory is O(d²) however
    many rows pass through.  Each chunk is reduced by the two-pass algorithm
    of :func:`covariance_matrix` and folded in with the pairwise update of
    Chan, Golub and LeVeque::

        δ = mean_b - mean_a
        mean = mean_a + δ·n_b/n
        M2 = M2_a + M2_b + δδᵀ·n_a·n_b/n

    Working on rows minus the shift keeps the update accurate when the mean is
    far from zero: the result agrees with :func:`covariance_matrix` on all the
    rows to a few ulps, however the rows were split, ordered or merged.

    With ``exact=True`` the state is instead Σx and Σxxᵀ kept exactly, as
    Python integers (see :mod:`purepca.exact`): the mean and the covariance
    are then *correctly rounded* (the exact rational result rounded once)
    and the same bits come out of every partitioning and every merge order,
    at a cost of about 1.25x.  Use it as the reducer of a distributed job
    (``docs/distributed.md``): build one per partition with
    :meth:`from_rows`, ship it with :meth:`to_bytes` (or pickle), and
    :meth:`merge` them in any tree.

    >>> m = Moments()
    >>> m.update([1, 2]); m.update_many([[2, 4], [3, 7]])
    >>> m.n, m.mean
    (3, [2.0, 4.333333333333333])
    >>> m.covariance()
    [[1.0, 2.5], [2.5, 6.333333333333333]]
    >>> other = Moments(); other.update_many([[4, 9]])
    >>> m.merge(other).n
    4
    >>> a = Moments.from_rows([[0.1], [0.2]], exact=True)
    >>> b = Moments.from_rows([[0.3], [0.4]], exact=True)
    >>> (a + b).mean, (b + a).mean
    ([0.25], [0.25])
    """

    # Class-level defaults: a Moments pickled before exact mode existed loads as a float one.
    exact: bool = False
    _m2_lo: Optional[list[list[Scalar]]] = None
    _sums: Optional[ExactSums] = None

    def __init__(self, *, context: Context = FLOAT, chunk_size: int = 4096, exact: bool = False) -> None:
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
            raise PurePCAError(f"chunk_size must be a positive int, got {chunk_size!r}")
        if not isinstance(exact, bool):
            raise PurePCAError(f"exact must be True or False, got {exact!r}")
        self.context = check_context(context)
        self.chunk_size = chunk_size
        self.exact = exact
        self.n = 0
        self._shift: list[Scalar] = []
        self._mean: list[Scalar] = []  # mean of (row - shift)
        self._m2: list[list[Scalar]] = []
        self._m2_lo: Optional[list[list[Scalar]]] = None  # float: what the folds' sums rounded away
        self._sums: Optional[ExactSums] = None  # exact mode's state

    @classmethod
    def from_rows(
        cls, rows: Iterable[Sequence[float]], *, exact: bool = False, context: Optional[Context] = None,
        chunk_size: int = 4096,
    ) -> "Moments":
        """The moments of some rows (one partition of a distributed data set):
        any iterable of rows, read once; an empty one gives ``n = 0``, which
        merges as nothing.

        >>> part = Moments.from_rows(iter([[1.0, 2.0], [3.0, 5.0]]), exact=True)
        >>> part.n, part.d, part.mean
        (2, 2, [2.0, 3.5])
        >>> Moments.from_rows([]).n
        0
        """
        moments = cls(context=FLOAT if context is None else context, chunk_size=chunk_size, exact=exact)
        moments.update_many(rows)
        return moments

    @property
    def d(self) -> Optional[int]:
        """Number of columns, or None before the first row."""
        if not self.n:
            return None
        return self._sums.d if self._sums is not None else len(self._shift)

    @property
    def mean(self) -> list[Scalar]:
        """Column means of every row seen so far (correctly rounded in exact mode)."""
        self._require(1)
        if self._sums is not None:
            return self._sums.mean(self.context)
        with self.context.local():
            return [k + m for k, m in zip(self._shift, self._mean)]

    @property
    def mean_pair(self) -> tuple[list[Scalar], list[Scalar]]:
        """The means as ``(hi, lo)``: ``hi`` the rounded means (:attr:`mean`)
        and ``lo`` what they left out, so that ``hi + lo`` carries about twice
        the working precision (what a fit centres new rows about).  Exact
        mode: ``lo`` is the exact remainder rounded once; float mode: the
        rounding error of ``shift + shifted mean`` (TwoSum), in the float
        context, and zeros in a decimal one.

        >>> hi, lo = Moments.from_rows([[0.1], [0.2]], exact=True).mean_pair
        >>> hi, lo
        ([0.15000000000000002], [-1.3877787807814457e-17])
        """
        hi = self.mean
        ctx = self.context
        if self._sums is not None:
            return hi, self._sums.mean_lo(ctx, hi)
        if ctx.name != "float":
            return hi, [ctx.zero] * len(hi)
        lo: list[Scalar] = []
        for a, b, s in zip(self._shift, self._mean, hi):
            z = s - a
            lo.append((a - (s - z)) + (b - z))
        return hi, lo

    def _require(self, rows: int) -> None:
        if self.n < rows:
            raise PurePCAError(f"Moments: need at least {rows} row(s), have {self.n}")

    def update(self, row: Sequence[float]) -> None:
        """Add one row.

        >>> m = Moments(); m.update((1.0, 2.0)); m.n
        1
        """
        self.update_many([row])

    def update_many(self, rows: Iterable[Sequence[float]]) -> None:
        """Add rows from any iterable, reading it once, ``chunk_size`` rows at a time.

        >>> m = Moments(); m.update_many(([i, i * i] for i in range(4))); m.n
        4
        """
        if rows is None or isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
            raise PurePCAError(f"rows: expected an iterable of rows (a list, a generator, a file's rows), got "
                               f"{type(rows).__name__}")
        for chunk in _chunks(rows, self.chunk_size):
            self._add_chunk(chunk)

    def _add_chunk(self, chunk: list[Any]) -> None:
        self._add_rows(as_matrix(chunk, name="rows", context=self.context, row_offset=self.n))

    def _add_validated(self, M: list[list[Scalar]]) -> None:
        """Add rows validated already (by a caller that read them), ``chunk_size`` at a time."""
        for start in range(0, len(M), self.chunk_size):
            self._add_rows(M[start:start + self.chunk_size])

    def _add_rows(self, M: list[list[Scalar]]) -> None:
        ctx = self.context
        d = len(M[0])
        if self.n and d != self.d:
            raise PurePCAError(f"rows: row {self.n} has {d} values, expected {self.d} (as before)")
        if self.exact:
            block = ExactSums.from_columns(list(zip(*M)), 2 if ctx.name == "float" else 10)
            if self._sums is None:
                self._sums = block
            else:
                self._sums.merge(block)
            self.n = self._sums.n
            return
        with ctx.local():
            shift = self._shift if self.n else list(M[0])
            cols = [[x - k for x in col] for col, k in zip(zip(*M), shift)]
            if ctx.needs_scaling:
                for j, col in enumerate(cols):
                    if first_non_finite(col) is not None:
                        raise PurePCAError(
                            f"rows: column {j} spreads beyond the float range (a difference from the first row "
                            "overflows), so its variance is beyond it too; use precision=N or rescale the data"
                        )
            mean_b, m2_b = _scatter(cols, ctx)
            self._fold(len(M), shift, mean_b, m2_b)

    def _fold(
        self, nb: int, shift_b: list[Scalar], mean_b: list[Scalar], m2_b: list[list[Scalar]],
        lo_b: Optional[list[list[Scalar]]] = None,
    ) -> None:
        """Fold statistics (count, shift, shifted mean, M2 and the rounding errors
        of its sums, ``lo``) of another set of rows into self.

        In the float context the sums ``M2_a + M2_b + δδᵀ·w`` are error-free
        transformations (TwoSum): what each rounds away is kept in ``_m2_lo``,
        so that folding many chunks or merging many partitions adds no error
        that grows with their number.
        """
        ctx = self.context
        if self.n == 0:
            self.n, self._shift = nb, list(shift_b)
            self._mean, self._m2 = list(mean_b), [list(r) for r in m2_b]
            self._m2_lo = [list(r) for r in lo_b] if lo_b is not None else None
            return
        na, n = self.n, self.n + nb
        delta = [(kb - ka) + (mb - ma) for ka, kb, ma, mb in zip(self._shift, shift_b, self._mean, mean_b)]
        fb = ctx.convert(nb) / ctx.convert(n)
        w = ctx.convert(na) * fb
        mean = [ma + dl * fb for ma, dl in zip(self._mean, delta)]
        if ctx.name != "float":
            self._m2 = [
                [a + b + di * dj * w for a, b, dj in zip(ra, rb, delta)]
                for ra, rb, di in zip(self._m2, m2_b, delta)
            ]
            self._mean, self.n = mean, n
            return
        d = len(delta)
        lo_a = self._m2_lo or [[0.0] * d for _ in range(d)]
        lo_b = lo_b or [[0.0] * d for _ in range(d)]
        m2: list[list[Scalar]] = [[0.0] * d for _ in range(d)]
        lo: list[list[Scalar]] = [[0.0] * d for _ in range(d)]
        # Each pair (i, j) is computed once and mirrored: d_i·w·d_j and d_j·w·d_i
        # round differently, and M2 must stay exactly symmetric.
        for i in range(d):
            ra, rb, la, lb, di = self._m2[i], m2_b[i], lo_a[i], lo_b[i], delta[i]
            dw = di * w
            row, lrow = m2[i], lo[i]
            for j in range(i, d):
                a, b = ra[j], rb[j]
                t = dw * delta[j]
                s = a + b
                z = s - a
                e = (a - (s - z)) + (b - z)
                u = s + t
                z = u - s
                e += (s - (u - z)) + (t - z)
                row[j] = m2[j][i] = u
                lrow[j] = lo[j][i] = e + la[j] + lb[j]
        for j in range(d):  # a sum of squares beyond the float range gives inf, then inf - inf = nan
            if not (math.isfinite(m2[j][j]) and math.isfinite(lo[j][j]) and math.isfinite(mean[j])):
                raise PurePCAError(
                    f"rows: the sum of squared deviations of column {j} is beyond the float range after {n} rows "
                    "(Moments keeps the sums, not the covariance); use exact=True (each entry correctly rounded), "
                    "precision=N, or rescale the data"
                )
        self._m2, self._m2_lo = m2, lo
        self._mean, self.n = mean, n

    def _m2_rounded(self) -> list[list[Scalar]]:
        """M2 with the rounding errors its folds kept aside added back."""
        if self._m2_lo is None:
            return self._m2
        return [[a + b for a, b in zip(ra, rb)] for ra, rb in zip(self._m2, self._m2_lo)]

    def merge(self, other: "Moments") -> "Moments":
        """Fold in another accumulator (from another chunk, thread or process); returns self.

        ``other`` is not changed.  Associative and commutative: in exact mode
        to the bit, in float mode to rounding.

        >>> a = Moments.from_rows([[1.0], [2.0]]); a.merge(Moments.from_rows([[6.0]])).mean
        [3.0]
        """
        if not isinstance(other, Moments):
            raise PurePCAError(f"merge: expected a Moments, got {type(other).__name__}")
        if other.context != self.context:
            raise PurePCAError(f"merge: contexts differ ({self.context.name} and {other.context.name})")
        if other.exact != self.exact:
            raise PurePCAError(f"merge: exact={self.exact} and exact={other.exact} cannot be merged "
                               "(build every partition's moments with the same exact=)")
        if other.n == 0:
            return self
        if self.n and other.d != self.d:
            raise PurePCAError(f"merge: {other.d} columns, expected {self.d}")
        if other._sums is not None:
            if self._sums is None:
                self._sums = other._sums.copy()
            else:
                self._sums.merge(other._sums)
            self.n = self._sums.n
            return self
        with self.context.local():
            self._fold(other.n, other._shift, other._mean, other._m2, other._m2_lo)
        return self

    def copy(self) -> "Moments":
        """An independent copy.

        >>> m = Moments.from_rows([[1.0]]); c = m.copy(); _ = c.merge(m); (m.n, c.n)
        (1, 2)
        """
        twin = Moments(context=self.context, chunk_size=self.chunk_size, exact=self.exact)
        return twin.merge(self)

    def merged(self, other: "Moments") -> "Moments":
        """A new accumulator holding both; neither is changed (also ``self + other``).

        >>> a = Moments.from_rows([[1.0]]); b = Moments.from_rows([[3.0]])
        >>> a.merged(b).mean, a.n, b.n
        ([2.0], 1, 1)
        """
        return self.copy().merge(other)

    def __add__(self, other: "Moments") -> "Moments":
        """``self.merged(other)``: ``sum(states, Moments(exact=True))`` works too.

        >>> parts = [Moments.from_rows([[float(i)]], exact=True) for i in range(4)]
        >>> sum(parts, Moments(exact=True)).mean
        [1.5]
        """
        if not isinstance(other, Moments):
            return NotImplemented
        return self.merged(other)

    def covariance(self, ddof: Number = 1, *, center: bool = True) -> list[list[Scalar]]:
        """The covariance matrix of every row seen, divisor ``n - ddof``
        (each entry correctly rounded in exact mode).

        With ``center=False``, the second moments about zero
        ``(M2 + n·x̄x̄ᵀ) / (n - ddof)``.

        >>> Moments.from_rows([[1.0, 0.0], [3.0, 1.0]], exact=True).covariance(0, center=False)
        [[5.0, 1.5], [1.5, 0.5]]
        """
        self._require(1)
        ctx = self.context
        with ctx.local():
            div = _divisor(self.n, ddof, ctx)
            if self._sums is not None:
                return self._sums.covariance(ctx, ddof, center)
            if not center:
                n = ctx.convert(self.n)
                mu = self.mean
                m2 = self._m2_rounded()
                d = len(mu)
                # the upper triangle, mirrored: n·a·b and n·b·a round differently
                raw = [[ctx.zero] * d for _ in range(d)]
                for i in range(d):
                    for j in range(i, d):
                        raw[i][j] = raw[j][i] = (m2[i][j] + n * mu[i] * mu[j]) / div
                return raw
            return [[v / div for v in row] for row in self._m2_rounded()]

    def correlation(self) -> list[list[Scalar]]:
        """The correlation matrix of every row seen."""
        C = self.covariance(1)
        with self.context.local():
            return _correlation_from(C, self.context)

    def to_bytes(self) -> bytes:
        """The state as compact, versioned bytes (see :mod:`purepca.moments_io`):
        in float mode ``8·(d(d+1)/2 + 2d) + 18`` bytes; in exact mode the
        integers' own lengths (1.2x the float form on typical data, more for
        columns whose magnitudes span many binary orders).

        >>> m = Moments.from_rows([[1.0, 2.0], [2.0, 5.0]])
        >>> len(m.to_bytes()), Moments.from_bytes(m.to_bytes()).covariance() == m.covariance()
        (74, True)
        """
        from .moments_io import dump_moments
        return dump_moments(self)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Moments":
        """The state written by :meth:`to_bytes`, to the same bits.

        >>> m = Moments.from_rows([[0.1], [0.7]], exact=True)
        >>> Moments.from_bytes(m.to_bytes()).mean == m.mean
        True
        """
        from .moments_io import load_state

        state = load_state(data)
        if not state.exact:
            m = cls()
            if state.n:
                m._shift, m._mean, m._m2, m.n = state.shift, state.mean, state.m2, state.n
            return m
        m = cls(context=DecimalContext(state.digits) if state.digits else FLOAT, exact=True)
        if state.n:
            m._sums, m.n = state.sums, state.n
        return m

    def __repr__(self) -> str:
        mode = ", exact=True" if self.exact else ""
        return f"Moments(n={self.n}, d={self.d}, context={self.context.name}{mode})"
